//! What every request must pass before its route, so that no other web
//! site can drive the server through a visitor's browser:
//!
//! - its `Host` names this server: `localhost`, a loopback address, the
//!   bound address (any address when bound to all of them) or a name
//!   allowed by [`Guard::new`]'s `names`. A page of another site whose
//!   name was made to resolve to 127.0.0.1 (DNS rebinding) sends its own
//!   name, and is refused;
//! - a request that changes something (any method but GET and HEAD) whose
//!   `Origin` is present names this server too, so a page of another site
//!   cannot send one with the visitor's browser;
//! - a POST is JSON (`Content-Type: application/json`) or carries
//!   `X-Requested-With`: a plain HTML form of another site can send
//!   neither, and a script needs the CORS preflight this server never
//!   answers;
//! - a body declared larger than the limit is refused (413) before a
//!   byte of it is read.
//!
//! Each refusal is a 4xx with the API's `{"error": …}` body.

use super::error::error_response;
use axum::extract::{Request, State};
use axum::http::{header, Method, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use std::net::IpAddr;
use std::sync::Arc;

/// The header a script may send instead of a JSON content type.
pub const CUSTOM_HEADER: &str = "x-requested-with";

/// The names and addresses this server answers to, and the largest body.
#[derive(Clone, Debug)]
pub struct Guard {
    bound: IpAddr,
    names: Vec<String>,
    body_limit: usize,
}

impl Guard {
    /// A guard for a server bound to `bound`, also answering to the host
    /// names `names` (for a server reached by a name of the network), with
    /// bodies of at most `body_limit` bytes.
    pub fn new(bound: IpAddr, names: &[String], body_limit: usize) -> Guard {
        Guard {
            bound,
            names: names.iter().map(|n| normal_name(n)).collect(),
            body_limit,
        }
    }

    /// Whether a `Host` header's value (`name[:port]`) names this server.
    /// The port is not compared: a proxy in front may listen on another.
    pub fn host_ok(&self, host: &str) -> bool {
        let Some(name) = host_name(host) else {
            return false;
        };
        match name
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse::<IpAddr>()
        {
            // An address is never a rebound name: only a name is.
            Ok(ip) => ip.is_loopback() || ip == self.bound || self.bound.is_unspecified(),
            Err(_) => name == "localhost" || self.names.contains(&name),
        }
    }

    /// Whether an `Origin` header's value names this server (`null`, sent
    /// by sandboxed pages and files, does not).
    pub fn origin_ok(&self, origin: &str) -> bool {
        origin
            .strip_prefix("http://")
            .or_else(|| origin.strip_prefix("https://"))
            .is_some_and(|rest| !rest.contains('/') && self.host_ok(rest))
    }

    /// Why `req` is refused, if it is.
    fn refusal(&self, req: &Request) -> Option<(StatusCode, String)> {
        let headers = req.headers();
        let text = |name| headers.get(name).map(|v| v.to_str().unwrap_or("\u{fffd}"));
        match text(header::HOST) {
            None => return Some((StatusCode::BAD_REQUEST, "no Host header".to_string())),
            Some(h) if !self.host_ok(h) => {
                return Some((
                    StatusCode::FORBIDDEN,
                    format!("Host {h:?} is not this server's name"),
                ))
            }
            Some(_) => {}
        }
        let changes = !matches!(*req.method(), Method::GET | Method::HEAD);
        if let Some(origin) = text(header::ORIGIN).filter(|_| changes) {
            if !self.origin_ok(origin) {
                return Some((
                    StatusCode::FORBIDDEN,
                    format!("a request from {origin:?} may not change anything here"),
                ));
            }
        }
        if req.method() == Method::POST {
            let json = text(header::CONTENT_TYPE).is_some_and(|t| {
                t.split(';')
                    .next()
                    .unwrap_or_default()
                    .trim()
                    .eq_ignore_ascii_case("application/json")
            });
            if !json && !headers.contains_key(CUSTOM_HEADER) {
                return Some((
                    StatusCode::UNSUPPORTED_MEDIA_TYPE,
                    format!(
                        "a POST must be sent as Content-Type: application/json \
                         (or with an {CUSTOM_HEADER} header)"
                    ),
                ));
            }
        }
        let declared = text(header::CONTENT_LENGTH).and_then(|n| n.trim().parse::<u64>().ok());
        if let Some(n) = declared.filter(|&n| n > self.body_limit as u64) {
            return Some((
                StatusCode::PAYLOAD_TOO_LARGE,
                format!(
                    "a body of {n} bytes: at most {} are accepted",
                    self.body_limit
                ),
            ));
        }
        None
    }
}

/// The name part of a `Host` value, lowercased and without a final dot
/// (`[::1]` keeps its brackets); `None` if it is malformed.
fn host_name(host: &str) -> Option<String> {
    let host = host.trim();
    let name = if host.starts_with('[') {
        let end = host.find(']')?;
        let rest = &host[end + 1..];
        if !(rest.is_empty() || rest.strip_prefix(':').is_some_and(is_port)) {
            return None;
        }
        &host[..=end]
    } else {
        match host.rsplit_once(':') {
            Some((name, port)) if is_port(port) => name,
            Some(_) => return None,
            None => host,
        }
    };
    (!name.is_empty()).then(|| normal_name(name))
}

fn is_port(p: &str) -> bool {
    !p.is_empty() && p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit())
}

fn normal_name(name: &str) -> String {
    name.trim().trim_end_matches('.').to_ascii_lowercase()
}

/// The middleware: refuses what [`Guard`] refuses, passes the rest on.
pub async fn check(State(guard): State<Arc<Guard>>, req: Request, next: Next) -> Response {
    match guard.refusal(&req) {
        Some((status, why)) => error_response(status, &why),
        None => next.run(req).await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_are_this_server_or_refused() {
        let local = Guard::new("127.0.0.1".parse().unwrap(), &[], 10);
        for ok in [
            "127.0.0.1:8080",
            "localhost",
            "LOCALHOST.:80",
            "[::1]:1",
            "127.0.0.2",
        ] {
            assert!(local.host_ok(ok), "{ok}");
        }
        for no in [
            "evil.example.com",
            "evil.example.com:8080",
            "localhost.evil.com",
            "10.0.0.1",
            "",
            ":80",
            "localhost:x",
            "[::1]x",
            "my.box",
        ] {
            assert!(!local.host_ok(no), "{no}");
        }
        let open = Guard::new("0.0.0.0".parse().unwrap(), &["My.Box".into()], 10);
        for ok in ["10.0.0.1:8080", "my.box", "my.box.:8080", "localhost"] {
            assert!(open.host_ok(ok), "{ok}");
        }
        assert!(!open.host_ok("evil.example.com"));
        assert!(local.origin_ok("http://localhost:8080"));
        for no in [
            "null",
            "http://evil.example.com",
            "file://",
            "http://localhost/x",
        ] {
            assert!(!local.origin_ok(no), "{no}");
        }
    }
}
