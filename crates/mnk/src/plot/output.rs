//! Chart files: a chart drawn into a PNG or an SVG file that readers never
//! see half written.

use super::{Chart, DrawError, PlotError, RunData};
use crate::util::write_atomic;
use plotters::prelude::*;
use std::path::{Path, PathBuf};

/// The [`PlotError`] for `path` with `message`.
fn draw_error(path: &Path, message: impl ToString) -> PlotError {
    PlotError::Draw {
        path: path.to_path_buf(),
        message: message.to_string(),
    }
}

/// Draws `chart` on `root` and hands the picture to the backend.
fn render<DB: DrawingBackend>(
    chart: Chart,
    root: &DrawingArea<DB, plotters::coord::Shift>,
    data: &RunData,
) -> Result<(), DrawError> {
    chart.draw(root, data)?;
    root.present()?;
    Ok(())
}

/// Draws `chart` into `plots/<name>.png` and returns its path.
pub(super) fn write_png(plots: &Path, chart: Chart, data: &RunData) -> Result<PathBuf, PlotError> {
    let path = plots.join(format!("{}.png", chart.as_str()));
    png_file(&path, chart.size(), |root| render(chart, root, data))?;
    Ok(path)
}

/// Draws with `draw` a PNG picture of `size` into `path`, atomically:
/// readers never see half a picture, and a failed write (a full disk)
/// leaves no partial file behind.
pub(super) fn png_file(
    path: &Path,
    size: (u32, u32),
    draw: impl FnOnce(&DrawingArea<BitMapBackend, plotters::coord::Shift>) -> Result<(), DrawError>,
) -> Result<(), PlotError> {
    // Black, as plotters starts a bitmap of its own; the charts paint
    // their background.
    let mut rgb = vec![0u8; size.0 as usize * size.1 as usize * 3];
    {
        let root = BitMapBackend::with_buffer(&mut rgb, size).into_drawing_area();
        draw(&root)
            .and_then(|()| Ok(root.present()?))
            .map_err(|e| draw_error(path, e))?;
    }
    let bytes = encode_png(&rgb, size).map_err(|e| draw_error(path, e))?;
    write_atomic(path, &bytes).map_err(|e| draw_error(path, e))
}

/// An RGB bitmap as PNG bytes, with the settings plotters' encoder (the
/// `image` crate's, on the same `png` crate) used: fast compression and
/// an adaptive filter, so a chart keeps its bytes. The `png` crate alone
/// builds in a fraction of `image`'s time.
fn encode_png(rgb: &[u8], (width, height): (u32, u32)) -> Result<Vec<u8>, png::EncodingError> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    encoder.set_filter(png::FilterType::Sub);
    encoder.set_adaptive_filter(png::AdaptiveFilterType::Adaptive);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(rgb)?;
    writer.finish()?;
    Ok(out)
}

/// Draws `chart` into `plots/<name>.svg` and returns its path.
pub(super) fn write_svg(plots: &Path, chart: Chart, data: &RunData) -> Result<PathBuf, PlotError> {
    let path = plots.join(format!("{}.svg", chart.as_str()));
    svg_file(&path, chart.size(), |root| render(chart, root, data))?;
    Ok(path)
}

/// Draws with `draw` an SVG picture of `size` into `path`, atomically.
pub(super) fn svg_file(
    path: &Path,
    size: (u32, u32),
    draw: impl FnOnce(&DrawingArea<SVGBackend, plotters::coord::Shift>) -> Result<(), DrawError>,
) -> Result<(), PlotError> {
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, size).into_drawing_area();
        draw(&root)
            .and_then(|()| Ok(root.present()?))
            .map_err(|e| draw_error(path, e))?;
    }
    crate::util::write_atomic(path, text.as_bytes()).map_err(|e| draw_error(path, e))
}
