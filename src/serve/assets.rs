//! The page's files, compiled into the binary (`assets/web/`): the server
//! needs no files of its own and no network.

/// An embedded file: its name under `/assets/`, its content type and bytes.
#[derive(Debug)]
pub struct Asset {
    /// The name, as requested under `/assets/`.
    pub name: &'static str,
    /// The `Content-Type` it is served with.
    pub content_type: &'static str,
    /// The content.
    pub bytes: &'static [u8],
}

/// An [`Asset`] of `assets/web/`, its content type told by its extension.
macro_rules! asset {
    ($name:literal) => {
        Asset {
            name: $name,
            content_type: content_type($name),
            bytes: include_bytes!(concat!("../../assets/web/", $name)),
        }
    };
}

/// The `Content-Type` of a page file, by its extension.
const fn content_type(name: &str) -> &'static str {
    let b = name.as_bytes();
    match b {
        [.., b'.', b'j', b's'] => "text/javascript; charset=utf-8",
        [.., b'.', b'c', b's', b's'] => "text/css; charset=utf-8",
        _ => "text/html; charset=utf-8",
    }
}

/// The page itself, served at `/`.
pub const INDEX: Asset = asset!("index.html");

/// Every file served under `/assets/`.
pub const ASSETS: &[Asset] = &[
    INDEX,
    asset!("app.js"),
    asset!("style.css"),
    asset!("training.js"),
    asset!("replay.js"),
    asset!("training.css"),
    asset!("replay.css"),
];

/// The embedded file of this name.
pub fn find(name: &str) -> Option<&'static Asset> {
    ASSETS.iter().find(|a| a.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_file_has_its_type_and_content() {
        for a in ASSETS {
            let want = match a.name.rsplit_once('.').map(|(_, e)| e) {
                Some("js") => "text/javascript; charset=utf-8",
                Some("css") => "text/css; charset=utf-8",
                Some("html") => "text/html; charset=utf-8",
                other => panic!("{}: unexpected extension {other:?}", a.name),
            };
            assert_eq!(a.content_type, want, "{}", a.name);
            assert!(!a.bytes.is_empty(), "{}", a.name);
        }
        assert!(find("app.js").is_some() && find("nope.js").is_none());
    }
}
