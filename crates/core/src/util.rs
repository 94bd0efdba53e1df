//! Small shared helpers: atomic file writes and UTF-8 text reads whose
//! errors say where the text went wrong.

use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

/// Writes `bytes` to `path` atomically: a temporary file in the same folder
/// is written, flushed to disk and renamed over `path`, so readers see the
/// old or the new content, never a torn file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "file".into());
    // Process id and a counter: two writers, in different processes or in
    // different threads of one process, never share a temporary file.
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let tmp = dir.join(format!(".{name}.tmp{}-{n}", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Whether `name` is one of mnk's own temporary file names, so that a
/// process holding a run folder may delete it as left over by a writer
/// that was interrupted: `.NAME.tmpPID-N` ([`write_atomic`]) or
/// `.tmp-CHART-PID.png` (how `mnk::plot` drew its charts until it wrote
/// them with [`write_atomic`] too: older versions may have left one).
///
/// ```
/// use mnk_core::util::is_temp_name;
/// assert!(is_temp_name(".best.toml.tmp4242-7"));
/// assert!(is_temp_name(".tmp-weights-4242.png"));
/// assert!(!is_temp_name("best.toml"));
/// assert!(!is_temp_name(".notes.tmp"));
/// assert!(!is_temp_name(".tmp-weights.png"));
/// ```
pub fn is_temp_name(name: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let atomic = name
        .strip_prefix('.')
        .and_then(|n| n.rsplit_once(".tmp"))
        .is_some_and(|(file, rest)| {
            !file.is_empty()
                && rest
                    .split_once('-')
                    .is_some_and(|(p, c)| digits(p) && digits(c))
        });
    let plot = name
        .strip_prefix(".tmp-")
        .and_then(|n| n.strip_suffix(".png"))
        .and_then(|n| n.rsplit_once('-'))
        .is_some_and(|(chart, pid)| !chart.is_empty() && digits(pid));
    atomic || plot
}

/// Reads a whole file as UTF-8 text. Invalid UTF-8 is an
/// [`std::io::ErrorKind::InvalidData`] error that names the line and the
/// byte where the text stops being UTF-8 (the plain `read_to_string` error
/// says only "stream did not contain valid UTF-8").
pub fn read_text(path: &Path) -> std::io::Result<String> {
    let bytes = std::fs::read(path)?;
    text_from_bytes(bytes)
}

/// Decodes bytes as UTF-8, naming the line and byte of the first invalid
/// sequence in the error. See [`read_text`].
pub fn text_from_bytes(bytes: Vec<u8>) -> std::io::Result<String> {
    String::from_utf8(bytes).map_err(|e| {
        let bytes = e.as_bytes();
        let at = e.utf8_error().valid_up_to();
        let (line, col) = utf8_position(bytes, at);
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "not UTF-8 text: line {line}, byte {col} (byte {} of the file) is 0x{:02X}",
                at + 1,
                bytes[at]
            ),
        )
    })
}

/// 1-based line and byte-in-line of byte offset `at`.
fn utf8_position(bytes: &[u8], at: usize) -> (usize, usize) {
    let before = &bytes[..at];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    (line, at - line_start + 1)
}

/// A byte count for messages, with binary prefixes: `15 B`, `1.46 KiB`,
/// `64.00 MiB` (two decimals from 1 KiB up). The figures are those
/// indicatif's `HumanBytes` prints, which the messages used before the
/// library stopped depending on indicatif; 128 bits, so the sizes of
/// tables too large for 64 bits still print as what they are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bytes(pub u128);

impl std::fmt::Display for Bytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        const PREFIXES: [&str; 8] = ["Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "Zi", "Yi"];
        // Divided as a float, a step at a time, as HumanBytes does, so the
        // rounding is the same.
        let mut n = self.0 as f64;
        let mut prefix = 0;
        while n >= 1024.0 && prefix < PREFIXES.len() {
            n /= 1024.0;
            prefix += 1;
        }
        match prefix {
            0 => write!(f, "{n:.0} B"),
            p => write!(f, "{n:.2} {}B", PREFIXES[p - 1]),
        }
    }
}

/// Declares a fieldless enum whose variants are written as fixed words (in
/// files, on the command line), after cozy-chess's `enum_char_conv!`: each
/// variant and its word are written once, and the macro derives `as_str`,
/// `ALL`, `WORDS`, [`Display`](std::fmt::Display),
/// [`FromStr`](std::str::FromStr) (whose error lists the expected words) and serde through the words (a bad word reads as serde's
/// usual "unknown variant" error, as a derived enum's would).
///
/// ```ignore
/// string_enum! {
///     /// How the weights are improved.
///     pub enum Optimizer("optimiser") {
///         /// Random search.
///         Random = "random",
///         /// SPSA.
///         Spsa = "spsa",
///     }
/// }
/// ```
// Exported (at the crate root, and here as `util::string_enum`) because
// the mnk crate declares its own word enums (optimisers, reasons, chart
// kinds) with it.
#[macro_export]
macro_rules! string_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident($what:literal) {
            $( $(#[$vmeta:meta])* $variant:ident = $word:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        $vis enum $name {
            $( $(#[$vmeta])* $variant, )+
        }

        impl $name {
            /// Every variant, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];
            /// Every variant's word, in declaration order.
            pub const WORDS: &'static [&'static str] = &[$($word),+];

            /// The variant's word.
            pub fn as_str(self) -> &'static str {
                match self {
                    $( $name::$variant => $word, )+
                }
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl ::std::str::FromStr for $name {
            type Err = String;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                match s {
                    $( $word => Ok($name::$variant), )+
                    _ => {
                        let list = match $name::WORDS {
                            [rest @ .., last] if !rest.is_empty() => {
                                format!("{} or {last}", rest.join(", "))
                            }
                            words => words.join(""),
                        };
                        Err(format!("unknown {} {s:?}: expected {list}", $what))
                    }
                }
            }
        }

        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let word = <::std::string::String>::deserialize(d)?;
                word.parse()
                    .map_err(|_| ::serde::de::Error::unknown_variant(&word, $name::WORDS))
            }
        }
    };
}
pub use string_enum;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_utf8_names_line_and_byte() {
        let err = text_from_bytes(b"ok\nab\xFFcd\n".to_vec()).unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
        assert_eq!(
            err.to_string(),
            "not UTF-8 text: line 2, byte 3 (byte 6 of the file) is 0xFF"
        );
        let err = text_from_bytes(b"\xC3".to_vec()).unwrap_err();
        assert!(err.to_string().contains("line 1, byte 1"), "{err}");
        assert_eq!(text_from_bytes(b"h\xC3\xA9\n".to_vec()).unwrap(), "hé\n");
    }

    #[test]
    fn bytes_in_binary_prefixes() {
        let shown = |n: u128| Bytes(n).to_string();
        assert_eq!(shown(0), "0 B");
        assert_eq!(shown(15), "15 B");
        assert_eq!(shown(1023), "1023 B");
        assert_eq!(shown(1024), "1.00 KiB");
        assert_eq!(shown(1_500), "1.46 KiB");
        assert_eq!(shown(1_500_000), "1.43 MiB");
        assert_eq!(shown(64 << 20), "64.00 MiB");
        assert_eq!(shown(1_500_000_000_000_000), "1.33 PiB");
        assert_eq!(shown(u64::MAX.into()), "16.00 EiB");
        // A table of 2^63 entries of 24 bytes, beyond 64 bits.
        assert_eq!(shown(24 << 63), "192.00 EiB");
    }
}
