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

/// The page itself, served at `/`.
pub const INDEX: Asset = Asset {
    name: "index.html",
    content_type: "text/html; charset=utf-8",
    bytes: include_bytes!("../../assets/web/index.html"),
};

/// Every file served under `/assets/`.
pub const ASSETS: &[Asset] = &[
    INDEX,
    Asset {
        name: "app.js",
        content_type: "text/javascript; charset=utf-8",
        bytes: include_bytes!("../../assets/web/app.js"),
    },
    Asset {
        name: "style.css",
        content_type: "text/css; charset=utf-8",
        bytes: include_bytes!("../../assets/web/style.css"),
    },
    Asset {
        name: "training.js",
        content_type: "text/javascript; charset=utf-8",
        bytes: include_bytes!("../../assets/web/training.js"),
    },
    Asset {
        name: "replay.js",
        content_type: "text/javascript; charset=utf-8",
        bytes: include_bytes!("../../assets/web/replay.js"),
    },
    Asset {
        name: "training.css",
        content_type: "text/css; charset=utf-8",
        bytes: include_bytes!("../../assets/web/training.css"),
    },
    Asset {
        name: "replay.css",
        content_type: "text/css; charset=utf-8",
        bytes: include_bytes!("../../assets/web/replay.css"),
    },
];

/// The embedded file of this name.
pub fn find(name: &str) -> Option<&'static Asset> {
    ASSETS.iter().find(|a| a.name == name)
}
