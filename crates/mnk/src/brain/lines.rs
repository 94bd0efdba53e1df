//! Reading protocol lines that end in CR LF, LF or a lone CR.

use std::fmt::Write as _;
use std::io::{self, BufRead};

/// Longest line kept; the rest of a longer line is read and dropped.
const MAX_LINE: usize = 64 * 1024;

/// Splits a byte stream into lines at `\r`, `\n` or `\r\n`.
///
/// A line is returned as soon as its terminator arrives: a manager that
/// ends lines with a lone CR is answered without waiting for a byte that
/// never comes. The LF of a CR LF pair then reads as an empty line, which
/// callers skip (the protocol ignores empty lines anyway).
///
/// Bytes that are not UTF-8 are shown as `\xNN` (`TURN 1,\xFF`): no
/// command contains a backslash, so such a line never acts as a valid
/// command, and any `ERROR` or `UNKNOWN` reply about it quotes the byte.
/// A line the engine ignores anyway stays ignored (a manager on Windows
/// may send `INFO folder` in the system code page). Reading never fails
/// on bad bytes.
#[derive(Debug)]
pub struct LineReader<R> {
    inner: R,
    buf: Vec<u8>,
}

impl<R: BufRead> LineReader<R> {
    /// Reads lines from `inner`.
    pub fn new(inner: R) -> Self {
        LineReader {
            inner,
            buf: Vec::new(),
        }
    }

    /// The next line without its terminator, or `None` at end of input.
    pub fn next_line(&mut self) -> io::Result<Option<String>> {
        self.buf.clear();
        loop {
            let chunk = match self.inner.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                if self.buf.is_empty() {
                    return Ok(None);
                }
                return Ok(Some(self.take()));
            }
            match chunk.iter().position(|&b| b == b'\n' || b == b'\r') {
                Some(i) => {
                    keep(&mut self.buf, &chunk[..i]);
                    self.inner.consume(i + 1);
                    return Ok(Some(self.take()));
                }
                None => {
                    let n = chunk.len();
                    keep(&mut self.buf, chunk);
                    self.inner.consume(n);
                }
            }
        }
    }

    fn take(&mut self) -> String {
        let mut out = String::with_capacity(self.buf.len());
        for chunk in self.buf.utf8_chunks() {
            out.push_str(chunk.valid());
            for b in chunk.invalid() {
                let _ = write!(out, "\\x{b:02X}");
            }
        }
        out
    }
}

/// Appends `bytes` to `buf`, up to [`MAX_LINE`] bytes in all.
fn keep(buf: &mut Vec<u8>, bytes: &[u8]) {
    let room = MAX_LINE.saturating_sub(buf.len());
    buf.extend_from_slice(&bytes[..bytes.len().min(room)]);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &[u8]) -> Vec<String> {
        let mut r = LineReader::new(input);
        let mut v = Vec::new();
        while let Some(l) = r.next_line().unwrap() {
            v.push(l);
        }
        v
    }

    #[test]
    fn every_line_end() {
        assert_eq!(all(b"A\r\nB\nC\rD"), ["A", "", "B", "C", "D"]);
        assert_eq!(all(b""), Vec::<String>::new());
        assert_eq!(all(b"\n\n"), ["", ""]);
    }

    #[test]
    fn lines_split_across_reads() {
        // A tiny buffer forces lines to arrive in pieces.
        let r = std::io::BufReader::with_capacity(2, &b"START 20\r\nTURN 1,2\r"[..]);
        let mut lr = LineReader::new(r);
        assert_eq!(lr.next_line().unwrap().unwrap(), "START 20");
        assert_eq!(lr.next_line().unwrap().unwrap(), "");
        assert_eq!(lr.next_line().unwrap().unwrap(), "TURN 1,2");
        assert_eq!(lr.next_line().unwrap(), None);
    }

    #[test]
    fn bad_bytes_and_long_lines() {
        assert_eq!(all(b"A\xffB\n"), ["A\\xFFB"]);
        assert_eq!(
            all(b"TURN 1,\xe9\xff\r\xc3\xa9"),
            ["TURN 1,\\xE9\\xFF", "\u{e9}"]
        );
        let mut long = vec![b'x'; MAX_LINE + 10];
        long.extend_from_slice(b"\nEND\n");
        let v = all(&long);
        assert_eq!(v[0].len(), MAX_LINE);
        assert_eq!(v[1], "END");
    }
}
