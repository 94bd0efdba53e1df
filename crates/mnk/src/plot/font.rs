//! The embedded font, adjusted so that plotters spaces its letters right.
//!
//! plotters 0.3.7 draws text with ab_glyph glyph by glyph, and places each
//! glyph's *ink box* at the pen position: the glyph's left side bearing
//! (the blank the font puts before the ink, 1–3 pixels at our sizes, and
//! different for every letter) is dropped. Letters with a wide bearing
//! (i, l, n, r) move left against their predecessor and leave a gap after
//! themselves, so words fall apart: "fin al factor", "ch ampi on's score".
//!
//! The only per-letter offset plotters does apply is kerning between
//! neighbours (the font's `kern` table, read by ab_glyph). So we give the
//! font a `kern` table in which the pair (a, b) holds the font's own
//! kerning plus `lsb(b) − lsb(a)`: along a line these sums telescope, and
//! every glyph lands at pen + its own bearing − the first glyph's bearing,
//! which is where the font puts it, the whole line shifted by one bearing.
//! The table covers the characters our charts write (ASCII and a few
//! symbols); other characters keep plotters' placement.
//!
//! The table is built once from the embedded DejaVu Sans: nothing is read
//! from the system. The font is read with ttf-parser (ab_glyph's reader);
//! the new table is written here and appended, the font's table directory
//! entry pointed at it. SVG charts are not affected (their viewer lays
//! out `<text>`), except that their text widths, estimated with this
//! font, are as before within a bearing.

use super::PlotError;
use plotters::style::FontStyle;
use std::collections::BTreeMap;
use ttf_parser::{kern::Format, Face, GlyphId, Tag};

/// DejaVu Sans as shipped in `assets/fonts/`.
const FONT: &[u8] = include_bytes!("../../../../assets/fonts/DejaVuSans.ttf");

/// The characters whose spacing is corrected: printable ASCII and the
/// symbols the charts use.
fn corrected_chars() -> impl Iterator<Item = char> {
    (' '..='~').chain("−×±—–θ≤≥½·αγΔ…’‘“”→√πσ°".chars())
}

/// The glyph of `c`; 0 (the missing glyph) if the font has none.
fn glyph(face: &Face, c: char) -> u16 {
    face.glyph_index(c).map_or(0, |g| g.0)
}

/// The font's kerning pairs from its `kern` table (horizontal, not
/// cross-stream, format 0 subtables; a later subtable's pair wins), empty
/// if it has none.
fn kerning(face: &Face) -> BTreeMap<(u16, u16), i16> {
    let Some(kern) = face.tables().kern else {
        return BTreeMap::new();
    };
    kern.subtables
        .into_iter()
        .filter(|s| s.horizontal && !s.has_cross_stream)
        .filter_map(|s| match s.format {
            Format::Format0(table) => Some(table.pairs),
            _ => None,
        })
        .flatten()
        .map(|p| ((p.left().0, p.right().0), p.value))
        .collect()
}

/// `font` with a `kern` table that puts back every glyph's left side
/// bearing (see the module docs); `None` if the font lacks a table this
/// needs.
fn with_bearing_kerning(bytes: &[u8]) -> Option<Vec<u8>> {
    let face = Face::parse(bytes, 0).ok()?;
    // The position of the `kern` entry in the table directory, which
    // follows the 12-byte header. DejaVu Sans has a kern table; adding a
    // directory entry would move every table, which is not worth it for
    // another font.
    let kern_tag = Tag::from_bytes(b"kern");
    let records = face.raw_face().table_records;
    let entry = 12 + 16 * records.into_iter().position(|r| r.tag == kern_tag)?;
    let mut glyphs: Vec<u16> = corrected_chars().map(|c| glyph(&face, c)).collect();
    glyphs.sort_unstable();
    glyphs.dedup();
    let lsb: Vec<i32> = glyphs
        .iter()
        .map(|&g| face.glyph_hor_side_bearing(GlyphId(g)).map(i32::from))
        .collect::<Option<_>>()?;
    let mut pairs = kerning(&face);
    for (a, &ga) in glyphs.iter().enumerate() {
        for (b, &gb) in glyphs.iter().enumerate() {
            let own = pairs.get(&(ga, gb)).map_or(0, |&k| i32::from(k));
            let k = (own + lsb[b] - lsb[a]).clamp(i16::MIN.into(), i16::MAX.into()) as i16;
            pairs.insert((ga, gb), k);
        }
    }
    pairs.retain(|_, k| *k != 0);
    let n = u16::try_from(pairs.len()).ok()?;
    // The table: version 0, one subtable of format 0, horizontal; its
    // 16-bit length may overflow, which readers accept for a lone
    // subtable. The binary search fields as the format defines them.
    let mut kern = Vec::with_capacity(18 + 6 * pairs.len());
    let power = 1u16 << (15 - n.max(1).leading_zeros());
    let len = (14 + 6 * pairs.len()).min(usize::from(u16::MAX)) as u16;
    for v in [
        0u16,
        1,
        0,
        len,
        0x0001,
        n,
        power * 6,
        power.trailing_zeros() as u16,
    ] {
        kern.extend_from_slice(&v.to_be_bytes());
    }
    kern.extend_from_slice(&(n - power).saturating_mul(6).to_be_bytes());
    for ((a, b), k) in pairs {
        kern.extend_from_slice(&a.to_be_bytes());
        kern.extend_from_slice(&b.to_be_bytes());
        kern.extend_from_slice(&k.to_be_bytes());
    }
    // Appended at the end (4-byte aligned), the directory entry's offset
    // and length pointing there; the old table stays as unused bytes.
    // Checksums are left as they were: ab_glyph's reader (ttf-parser)
    // does not check them.
    let mut out = bytes.to_vec();
    while !out.len().is_multiple_of(4) {
        out.push(0);
    }
    let at = u32::try_from(out.len()).ok()?;
    out.extend_from_slice(&kern);
    out[entry + 8..entry + 12].copy_from_slice(&at.to_be_bytes());
    out[entry + 12..entry + 16].copy_from_slice(&(kern.len() as u32).to_be_bytes());
    Some(out)
}

/// Registers the embedded font, its spacing corrected, as `sans-serif`
/// (once).
pub(super) fn register() -> Result<(), PlotError> {
    static ONCE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    let ok = *ONCE.get_or_init(|| {
        let font = font();
        plotters::style::register_font("sans-serif", FontStyle::Normal, font).is_ok()
            && plotters::style::register_font("sans-serif", FontStyle::Bold, font).is_ok()
    });
    if ok {
        Ok(())
    } else {
        Err(PlotError::Font)
    }
}

/// The embedded font with its spacing corrected, built once; the font as
/// shipped if that fails (text then spaced as plotters spaces it).
fn font() -> &'static [u8] {
    static FIXED: std::sync::OnceLock<&'static [u8]> = std::sync::OnceLock::new();
    FIXED.get_or_init(|| match with_bearing_kerning(FONT) {
        Some(bytes) => Box::leak(bytes.into_boxed_slice()),
        None => FONT,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use plotters::prelude::*;

    /// The ink columns of `text` drawn at 40 pixels.
    fn ink(text: &str) -> Vec<bool> {
        super::register().unwrap();
        let (w, h) = (400u32, 80u32);
        let mut buf = vec![255u8; (w * h * 3) as usize];
        {
            let root = BitMapBackend::with_buffer(&mut buf, (w, h)).into_drawing_area();
            root.draw(&Text::new(text, (20, 10), ("sans-serif", 40).into_font()))
                .unwrap();
            root.present().unwrap();
        }
        (0..w as usize)
            .map(|x| (0..h as usize).any(|y| buf[(y * w as usize + x) * 3] < 128))
            .collect()
    }

    /// The first inked column at or after `from`.
    fn first_ink(cols: &[bool], from: usize) -> Option<usize> {
        (from..cols.len()).find(|&x| cols[x])
    }

    /// The kerning of (`a`, `b`) by ttf-parser's own lookup, 0 if none.
    fn kern(face: &Face, a: GlyphId, b: GlyphId) -> i16 {
        let subtables = face.tables().kern.map(|k| k.subtables);
        subtables
            .into_iter()
            .flatten()
            .filter(|s| s.horizontal && !s.has_cross_stream)
            .find_map(|s| s.glyphs_kerning(a, b))
            .unwrap_or(0)
    }

    #[test]
    fn letters_sit_where_the_font_puts_them() {
        // In "Ti", the i's ink starts (advance(T) + kern(T, i) − lsb(T) +
        // lsb(i)) font units after the T's: plotters without the fix
        // drops both bearings, lsb(i) − lsb(T) being about 3 pixels here.
        let face = Face::parse(FONT, 0).unwrap();
        // ab_glyph scales the font's height (ascender − descender) to the
        // pixel size.
        let scale = 40.0 / f64::from(face.ascender() - face.descender());
        let (t, i) = (
            face.glyph_index('T').unwrap(),
            face.glyph_index('i').unwrap(),
        );
        let advance_t = f64::from(face.glyph_hor_advance(t).unwrap());
        let lsb = |g| f64::from(face.glyph_hor_side_bearing(g).unwrap());
        let expected = (advance_t + f64::from(kern(&face, t, i)) - lsb(t) + lsb(i)) * scale;
        assert!(
            (lsb(i) - lsb(t)) * scale > 2.5,
            "the test needs bearings that differ visibly"
        );

        let cols = ink("Ti");
        let t_start = first_ink(&cols, 0).expect("no ink");
        let t_end = (t_start..cols.len()).find(|&x| !cols[x]).unwrap();
        let i_start = first_ink(&cols, t_end).expect("the i's ink touches the T's");
        let got = (i_start - t_start) as f64;
        assert!(
            (got - expected).abs() <= 1.5,
            "i starts {got} px after T, the font says {expected:.1}"
        );
    }

    #[test]
    fn the_new_table_keeps_the_fonts_own_kerning() {
        let fixed = with_bearing_kerning(FONT).unwrap();
        let (face, new_face) = (
            Face::parse(FONT, 0).unwrap(),
            Face::parse(&fixed, 0).unwrap(),
        );
        let (a, v) = (
            face.glyph_index('A').unwrap(),
            face.glyph_index('V').unwrap(),
        );
        let lsb = |g| i32::from(face.glyph_hor_side_bearing(g).unwrap());
        let own = i32::from(kern(&face, a, v));
        assert!(own < 0, "DejaVu kerns AV");
        assert_eq!(i32::from(kern(&new_face, a, v)), own + lsb(v) - lsb(a));
        // Pairs outside the corrected characters keep their value.
        let (old, new) = (kerning(&face), kerning(&new_face));
        let outside = old
            .keys()
            .find(|p| !new.contains_key(p) || new[p] != old[p]);
        assert!(outside.is_none_or(|p| {
            let c: Vec<u16> = corrected_chars().map(|c| glyph(&face, c)).collect();
            c.contains(&p.0) && c.contains(&p.1)
        }));
    }
}
