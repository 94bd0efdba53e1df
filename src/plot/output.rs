//! Chart files: a chart drawn into a PNG or an SVG file that readers never
//! see half written.

use super::{Chart, DrawError, PlotError, RunData};
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

/// Draws with `draw` a PNG picture of `size` into `path`.
pub(super) fn png_file(
    path: &Path,
    size: (u32, u32),
    draw: impl FnOnce(&DrawingArea<BitMapBackend, plotters::coord::Shift>) -> Result<(), DrawError>,
) -> Result<(), PlotError> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let stem = path
        .file_stem()
        .map_or_else(|| "plot".into(), |s| s.to_string_lossy().into_owned());
    // plotters encodes a bitmap only into a file named by a path (its
    // extension picks the format); encoding into memory for
    // `util::write_atomic` would need the `image` crate as a dependency of
    // our own. So the chart is drawn to a temporary file, then renamed:
    // readers never see half a picture. The name is one
    // `util::is_temp_name` knows, so a left-over file can be cleaned up.
    let tmp = dir.join(format!(".tmp-{stem}-{}.png", std::process::id()));
    let result = (|| {
        let root = BitMapBackend::new(&tmp, size).into_drawing_area();
        draw(&root)
            .and_then(|()| Ok(root.present()?))
            .map_err(|e| draw_error(path, e))?;
        drop(root);
        std::fs::rename(&tmp, path).map_err(|e| draw_error(path, e))
    })();
    if result.is_err() {
        // A failed write (a full disk) must not leave its partial picture
        // behind to keep the disk full.
        let _ = std::fs::remove_file(&tmp);
    }
    result
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
