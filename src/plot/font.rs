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
//! from the system. SVG charts are not affected (their viewer lays out
//! `<text>`), except that their text widths, estimated with this font,
//! are as before within a bearing.

use std::collections::BTreeMap;

/// DejaVu Sans as shipped in `assets/fonts/`.
pub(super) const FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

/// The characters whose spacing is corrected: printable ASCII and the
/// symbols the charts use.
fn corrected_chars() -> impl Iterator<Item = char> {
    (' '..='~').chain("−×±—–θ≤≥½·αγΔ…’‘“”→√πσ°".chars())
}

/// A big-endian reader over a font's bytes; `None` past the end.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn u16(&self, at: usize) -> Option<u16> {
        Some(u16::from_be_bytes(self.0.get(at..at + 2)?.try_into().ok()?))
    }

    fn i16(&self, at: usize) -> Option<i16> {
        Some(i16::from_be_bytes(self.0.get(at..at + 2)?.try_into().ok()?))
    }

    fn u32(&self, at: usize) -> Option<u32> {
        Some(u32::from_be_bytes(self.0.get(at..at + 4)?.try_into().ok()?))
    }
}

/// The table directory entry of `tag`: (position of the entry, offset,
/// length of the table).
fn table(font: &Bytes, tag: &[u8; 4]) -> Option<(usize, usize, usize)> {
    let n = usize::from(font.u16(4)?);
    (0..n).map(|i| 12 + 16 * i).find_map(|entry| {
        (font.0.get(entry..entry + 4)? == tag).then_some((
            entry,
            font.u32(entry + 8)? as usize,
            font.u32(entry + 12)? as usize,
        ))
    })
}

/// The glyph of `c` by the font's Unicode BMP `cmap` (format 4) at
/// `sub`; 0 (the missing glyph) if it has none.
fn glyph(font: &Bytes, sub: usize, c: char) -> Option<u16> {
    let Ok(c) = u16::try_from(u32::from(c)) else {
        return Some(0);
    };
    let segs = usize::from(font.u16(sub + 6)? / 2);
    let ends = sub + 14;
    let starts = ends + 2 * segs + 2;
    let deltas = starts + 2 * segs;
    let offsets = deltas + 2 * segs;
    for s in 0..segs {
        if font.u16(ends + 2 * s)? < c {
            continue;
        }
        let start = font.u16(starts + 2 * s)?;
        if start > c {
            return Some(0);
        }
        let delta = font.u16(deltas + 2 * s)?;
        let offset = font.u16(offsets + 2 * s)?;
        if offset == 0 {
            return Some(c.wrapping_add(delta));
        }
        let at = offsets + 2 * s + usize::from(offset) + 2 * usize::from(c - start);
        let g = font.u16(at)?;
        return Some(if g == 0 { 0 } else { g.wrapping_add(delta) });
    }
    Some(0)
}

/// The offset of the Unicode BMP subtable (platform 3, encoding 1) of
/// `cmap` at `cmap`, which must be format 4.
fn unicode_cmap(font: &Bytes, cmap: usize) -> Option<usize> {
    let n = usize::from(font.u16(cmap + 2)?);
    (0..n).find_map(|i| {
        let rec = cmap + 4 + 8 * i;
        let sub = cmap + font.u32(rec + 4)? as usize;
        (font.u16(rec)? == 3 && font.u16(rec + 2)? == 1 && font.u16(sub)? == 4).then_some(sub)
    })
}

/// The left side bearing of glyph `g` from `hmtx` at `hmtx` with
/// `metrics` long entries.
fn bearing(font: &Bytes, hmtx: usize, metrics: usize, g: u16) -> Option<i16> {
    let g = usize::from(g);
    if g < metrics {
        font.i16(hmtx + 4 * g + 2)
    } else {
        font.i16(hmtx + 4 * metrics + 2 * (g - metrics))
    }
}

/// The font's kerning pairs from its `kern` table (version 0, format 0
/// subtables), if it has one.
fn kerning(font: &Bytes) -> Option<BTreeMap<(u16, u16), i16>> {
    let mut pairs = BTreeMap::new();
    let Some((_, kern, _)) = table(font, b"kern") else {
        return Some(pairs);
    };
    let tables = usize::from(font.u16(kern + 2)?);
    let mut sub = kern + 4;
    for _ in 0..tables {
        let len = usize::from(font.u16(sub + 2)?);
        let coverage = font.u16(sub + 4)?;
        // Format 0 (high byte), horizontal (bit 0), not cross-stream.
        if coverage >> 8 == 0 && coverage & 0x5 == 1 {
            let n = usize::from(font.u16(sub + 6)?);
            for i in 0..n {
                let at = sub + 14 + 6 * i;
                pairs.insert((font.u16(at)?, font.u16(at + 2)?), font.i16(at + 4)?);
            }
            // A lone subtable may be longer than its 16-bit length says.
            if tables == 1 {
                break;
            }
        }
        sub += len;
    }
    Some(pairs)
}

/// `font` with a `kern` table that puts back every glyph's left side
/// bearing (see the module docs); `None` if the font lacks a table this
/// needs.
fn with_bearing_kerning(bytes: &[u8]) -> Option<Vec<u8>> {
    let font = Bytes(bytes);
    let (_, cmap, _) = table(&font, b"cmap")?;
    let sub = unicode_cmap(&font, cmap)?;
    let (_, hhea, _) = table(&font, b"hhea")?;
    let metrics = usize::from(font.u16(hhea + 34)?);
    let (_, hmtx, _) = table(&font, b"hmtx")?;
    let mut glyphs: Vec<u16> = corrected_chars()
        .map(|c| glyph(&font, sub, c))
        .collect::<Option<_>>()?;
    glyphs.sort_unstable();
    glyphs.dedup();
    let lsb: Vec<i32> = glyphs
        .iter()
        .map(|&g| bearing(&font, hmtx, metrics, g).map(i32::from))
        .collect::<Option<_>>()?;
    let mut pairs = kerning(&font)?;
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
    // Appended at the end (4-byte aligned), the directory pointing there;
    // the old table stays as unused bytes. Checksums are not checked by
    // ab_glyph's reader.
    let mut out = bytes.to_vec();
    while !out.len().is_multiple_of(4) {
        out.push(0);
    }
    let at = u32::try_from(out.len()).ok()?;
    out.extend_from_slice(&kern);
    let entry = match table(&font, b"kern") {
        Some((entry, _, _)) => entry,
        // DejaVu Sans has a kern table; adding a directory entry would
        // move every table, which is not worth it for another font.
        None => return None,
    };
    out[entry + 8..entry + 12].copy_from_slice(&at.to_be_bytes());
    out[entry + 12..entry + 16].copy_from_slice(&(kern.len() as u32).to_be_bytes());
    Some(out)
}

/// The embedded font with its spacing corrected, built once; the font as
/// shipped if that fails (text then spaced as plotters spaces it).
pub(super) fn font() -> &'static [u8] {
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
        super::super::output::register_font().unwrap();
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

    #[test]
    fn letters_sit_where_the_font_puts_them() {
        // In "Ti", the i's ink starts (advance(T) + kern(T, i) − lsb(T) +
        // lsb(i)) font units after the T's: plotters without the fix
        // drops both bearings, lsb(i) − lsb(T) being about 3 pixels here.
        let font = Bytes(FONT);
        let (_, cmap, _) = table(&font, b"cmap").unwrap();
        let sub = unicode_cmap(&font, cmap).unwrap();
        let (_, hhea, _) = table(&font, b"hhea").unwrap();
        let (_, hmtx, _) = table(&font, b"hmtx").unwrap();
        let metrics = usize::from(font.u16(hhea + 34).unwrap());
        // ab_glyph scales the font's height (ascender − descender) to the
        // pixel size.
        let height = f64::from(font.i16(hhea + 4).unwrap() - font.i16(hhea + 6).unwrap());
        let scale = 40.0 / height;
        let (t, i) = (
            glyph(&font, sub, 'T').unwrap(),
            glyph(&font, sub, 'i').unwrap(),
        );
        let advance_t = f64::from(font.u16(hmtx + 4 * usize::from(t)).unwrap());
        let kern = kerning(&font)
            .unwrap()
            .get(&(t, i))
            .map_or(0.0, |&k| f64::from(k));
        let lsb = |g| f64::from(bearing(&font, hmtx, metrics, g).unwrap());
        let expected = (advance_t + kern - lsb(t) + lsb(i)) * scale;
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
        let (old, new) = (
            kerning(&Bytes(FONT)).unwrap(),
            kerning(&Bytes(&fixed)).unwrap(),
        );
        let font = Bytes(FONT);
        let (_, cmap, _) = table(&font, b"cmap").unwrap();
        let sub = unicode_cmap(&font, cmap).unwrap();
        let (_, hhea, _) = table(&font, b"hhea").unwrap();
        let (_, hmtx, _) = table(&font, b"hmtx").unwrap();
        let metrics = usize::from(font.u16(hhea + 34).unwrap());
        let (a, v) = (
            glyph(&font, sub, 'A').unwrap(),
            glyph(&font, sub, 'V').unwrap(),
        );
        let lsb = |g| i32::from(bearing(&font, hmtx, metrics, g).unwrap());
        let own = i32::from(old[&(a, v)]);
        assert!(own < 0, "DejaVu kerns AV");
        assert_eq!(i32::from(new[&(a, v)]), own + lsb(v) - lsb(a));
        // Pairs outside the corrected characters keep their value.
        let outside = old
            .keys()
            .find(|p| !new.contains_key(p) || new[p] != old[p]);
        assert!(outside.is_none_or(|p| {
            let c: Vec<u16> = corrected_chars()
                .map(|c| glyph(&font, sub, c).unwrap())
                .collect();
            c.contains(&p.0) && c.contains(&p.1)
        }));
    }
}
