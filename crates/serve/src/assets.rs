//! The page's files, compiled into the binary (`assets/web/`): the server
//! needs no files of its own and no network.
//!
//! [`VIEWS`] is the one list of the page's views: the served page gets its
//! nav links, sections, style sheets and scripts from it ([`page`]), the
//! page's script finds the views from the nav links, and each view's files
//! are embedded from it. A new view is a line here and its files.

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

/// One view of the page: its name (in `#name` links and `view-name`
/// sections), its tab's title, and its script and style sheet
/// (`name.js`, `name.css`).
#[derive(Debug)]
pub struct View {
    /// The name.
    pub name: &'static str,
    /// The tab's title.
    pub title: &'static str,
    /// `name.js`, which builds the view in its section.
    pub script: Asset,
    /// `name.css`.
    pub style: Asset,
}

/// An [`Asset`] of `assets/web/`, its content type told by its extension.
macro_rules! asset {
    ($name:expr) => {
        Asset {
            name: $name,
            content_type: content_type($name),
            bytes: include_bytes!(concat!("../../../assets/web/", $name)),
        }
    };
}

/// A [`View`] named `$name`, with its `$name.js` and `$name.css`.
macro_rules! view {
    ($name:literal, $title:literal) => {
        View {
            name: $name,
            title: $title,
            script: asset!(concat!($name, ".js")),
            style: asset!(concat!($name, ".css")),
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

/// The page's views, in the order of their tabs; the first is shown when
/// the link names none.
pub const VIEWS: &[View] = &[
    view!("play", "Play"),
    view!("training", "Training"),
    view!("replay", "Replay"),
];

/// The page's frame (`index.html`), with `<!-- views: … -->` markers
/// where [`page`] writes the views.
const INDEX: Asset = asset!("index.html");

/// The files every view shares.
pub const SHARED: &[Asset] = &[asset!("common.js"), asset!("style.css")];

/// The page served at `/`: `index.html` with the views' tabs, sections, style
/// sheets and scripts (after `common.js`) written in.
pub fn page() -> String {
    let frame = String::from_utf8_lossy(INDEX.bytes);
    let mut tabs = String::new();
    let mut sections = String::new();
    let mut styles = String::new();
    let mut scripts = String::new();
    for v in VIEWS {
        let n = v.name;
        tabs.push_str(&format!(
            "  <a href=\"#{n}\" data-view=\"{n}\">{}</a>\n",
            v.title
        ));
        sections.push_str(&format!(
            "<!-- {n}.js builds this view inside the section. -->\n\
             <section id=\"view-{n}\" class=\"view\" hidden></section>\n"
        ));
        styles.push_str(&format!(
            "<link rel=\"stylesheet\" href=\"/assets/{}\">\n",
            v.style.name
        ));
        scripts.push_str(&format!(
            "<script src=\"/assets/{}\"></script>\n",
            v.script.name
        ));
    }
    frame
        .replace("<!-- views: tabs -->\n", &tabs)
        .replace("<!-- views: sections -->\n", &sections)
        .replace("<!-- views: styles -->\n", &styles)
        .replace("<!-- views: scripts -->\n", &scripts)
}

/// The embedded file of this name (`index.html` is only the frame: the
/// page is [`page`]).
pub fn find(name: &str) -> Option<&'static Asset> {
    SHARED
        .iter()
        .chain(VIEWS.iter().flat_map(|v| [&v.script, &v.style]))
        .find(|a| a.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_file_has_its_type_and_content() {
        let all = SHARED
            .iter()
            .chain(VIEWS.iter().flat_map(|v| [&v.script, &v.style]));
        for a in all {
            let want = match a.name.rsplit_once('.').map(|(_, e)| e) {
                Some("js") => "text/javascript; charset=utf-8",
                Some("css") => "text/css; charset=utf-8",
                other => panic!("{}: unexpected extension {other:?}", a.name),
            };
            assert_eq!(a.content_type, want, "{}", a.name);
            assert!(!a.bytes.is_empty(), "{}", a.name);
        }
        assert!(find("common.js").is_some() && find("nope.js").is_none());
    }

    #[test]
    fn every_file_of_the_folder_is_served_and_every_view_is_on_the_page() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/web");
        for e in std::fs::read_dir(dir).unwrap() {
            let name = e.unwrap().file_name().into_string().unwrap();
            assert!(
                name == "index.html" || find(&name).is_some(),
                "assets/web/{name} is not served: add its view to VIEWS"
            );
        }
        let page = page();
        assert!(!page.contains("<!-- views:"), "{page}");
        for v in VIEWS {
            for part in [
                format!("data-view=\"{}\"", v.name),
                format!("id=\"view-{}\"", v.name),
                format!("/assets/{}.js", v.name),
                format!("/assets/{}.css", v.name),
            ] {
                assert!(page.contains(&part), "{part} is not on the page");
            }
        }
        // common.js is loaded before every view's script.
        let common = page.find("/assets/common.js").unwrap();
        assert!(VIEWS
            .iter()
            .all(|v| page.find(&format!("/assets/{}.js", v.name)).unwrap() > common));
    }
}
