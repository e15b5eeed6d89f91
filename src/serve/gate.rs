//! What every request passes before its route: the host it names, where a request that
//! changes something comes from, and its body, read whole within a time and a size.
//!
//! * Host: a page of another site whose name is made to resolve to this machine (DNS
//!   rebinding) sends its own name as `Host`; the server answers only to an IP address (a
//!   browser's origin is then the address itself), `localhost` (and `*.localhost`, which
//!   browsers keep on this machine), and the names given by `--allow-host` (421 otherwise).
//!   The port is not looked at: a rebound name reaches the same port.
//! * Origin: a page of another site can make a browser send a `POST` (a form, or `fetch`
//!   with `text/plain`) without asking the server first; browsers name that page in `Origin`
//!   (and say `Sec-Fetch-Site`), so a request other than `GET` or `HEAD` whose `Origin` is not
//!   this server's, or that a browser calls cross-site, is refused (403). Clients that are not
//!   browsers send neither and are served.
//! * Body: the whole body within `--body-timeout` of the end of the head, and at most
//!   [`BODY_LIMIT`] bytes (408 and 413 otherwise, the connection closed): a client that
//!   promises a body and sends none cannot hold its connection.

use std::net::IpAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, HttpBody};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::pressure::Activity;
use super::reply::ApiError;
use crate::echo::echo;

/// The largest body read (a puzzle's text or JSON): axum's own default, so that no route's
/// extractor refuses what this gate let through.
pub const BODY_LIMIT: usize = 2 * 1024 * 1024;

/// What the gate lets through.
#[derive(Clone, Debug)]
pub struct Gate {
    /// Host names answered to besides IP addresses and `localhost`, in lower case.
    names: Arc<[String]>,
    /// How long a body may take.
    body_timeout: Duration,
}

impl Gate {
    pub fn new(names: &[String], body_timeout: Duration) -> Gate {
        Gate {
            names: names.iter().map(|n| normal_name(n)).collect(),
            body_timeout,
        }
    }

    /// `Ok` when `authority` (a `Host`, `host:port` or `[v6]:port`) names this server.
    fn allows(&self, authority: &str) -> bool {
        let host = host_of(authority);
        if let Some(v6) = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
            return v6.parse::<std::net::Ipv6Addr>().is_ok();
        }
        if host.parse::<IpAddr>().is_ok() {
            return true;
        }
        let name = normal_name(host);
        name == "localhost" || name.ends_with(".localhost") || self.names.contains(&name)
    }

    /// The request's host, checked: the `Host` header (at most one), and the authority of an
    /// absolute request target, which HTTP/1.1 puts before it.
    fn check_host(&self, request: &Request) -> Result<(), ApiError> {
        let hosts: Vec<&HeaderValue> = request.headers().get_all(header::HOST).iter().collect();
        if hosts.len() > 1 {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "the request has more than one Host header",
            ));
        }
        let named = hosts
            .first()
            .map(|value| value.to_str().unwrap_or("\u{fffd}"))
            .into_iter()
            .chain(request.uri().authority().map(|a| a.as_str()));
        for authority in named {
            if !self.allows(authority) {
                return Err(ApiError::new(
                    StatusCode::MISDIRECTED_REQUEST,
                    format!(
                        "this server answers to its IP addresses and localhost, not to the host name {}; its operator can allow another name (knights serve --allow-host NAME)",
                        echo(host_of(authority))
                    ),
                ));
            }
        }
        Ok(())
    }

    /// A request that may change something (not `GET` or `HEAD`) from a page of this server or
    /// from a client that is not a browser.
    fn check_origin(&self, request: &Request) -> Result<(), ApiError> {
        if matches!(*request.method(), Method::GET | Method::HEAD) {
            return Ok(());
        }
        let headers = request.headers();
        let refused = |from: String| {
            Err(ApiError::new(
                StatusCode::FORBIDDEN,
                format!(
                    "a {} from {from} is refused: this server takes requests that change something only from its own page, or from clients that are not browsers",
                    request.method()
                ),
            ))
        };
        if let Some(origin) = headers.get(header::ORIGIN) {
            let origin = origin.to_str().unwrap_or("\u{fffd}");
            let own = header_text(headers, header::HOST).is_some_and(|host| {
                origin
                    .strip_prefix("http://")
                    .or_else(|| origin.strip_prefix("https://"))
                    .is_some_and(|authority| authority.eq_ignore_ascii_case(host))
            });
            if !own {
                return refused(format!("the page of {}", echo(origin)));
            }
            return Ok(());
        }
        // A browser that sends no Origin still says where the request comes from.
        match header_text(headers, "sec-fetch-site") {
            None | Some("same-origin" | "none") => Ok(()),
            Some(site) => refused(format!("a page of another site ({})", echo(site))),
        }
    }

    /// The request with its body read whole (none, when it declares none).
    async fn read_body(&self, request: Request) -> Result<Request, ApiError> {
        let headers = request.headers();
        let declared = header_text(headers, header::CONTENT_LENGTH)
            .map(|length| length.parse::<u64>().unwrap_or(u64::MAX));
        if declared.is_none_or(|length| length == 0)
            && !headers.contains_key(header::TRANSFER_ENCODING)
        {
            return Ok(request);
        }
        let too_large = || {
            ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!(
                    "the request's body is over this server's {} MiB",
                    BODY_LIMIT / (1024 * 1024)
                ),
            )
        };
        if declared.is_some_and(|length| length > BODY_LIMIT as u64) {
            return Err(too_large());
        }
        let (parts, mut body) = request.into_parts();
        let read = async {
            let mut bytes = Vec::new();
            while let Some(frame) =
                std::future::poll_fn(|cx| Pin::new(&mut body).poll_frame(cx)).await
            {
                let frame = frame.map_err(|e| {
                    ApiError::bad(format!("the request's body cannot be read: {e}"))
                })?;
                if let Ok(data) = frame.into_data() {
                    if bytes.len() + data.len() > BODY_LIMIT {
                        return Err(too_large());
                    }
                    bytes.extend_from_slice(&data);
                }
            }
            Ok(bytes)
        };
        let bytes = tokio::time::timeout(self.body_timeout, read)
            .await
            .map_err(|_| {
                ApiError::new(
                    StatusCode::REQUEST_TIMEOUT,
                    format!(
                        "the request's body did not arrive within {} s (knights serve --body-timeout)",
                        self.body_timeout.as_secs_f64()
                    ),
                )
            })??;
        Ok(Request::from_parts(parts, Body::from(bytes)))
    }
}

/// The gate as axum middleware (`from_fn_with_state`).
pub async fn check(State(gate): State<Gate>, request: Request, next: Next) -> Response {
    let activity = request.extensions().get::<Arc<Activity>>().cloned();
    let checked = match gate.check_host(&request).and(gate.check_origin(&request)) {
        Ok(()) => gate.read_body(request).await,
        Err(refused) => Err(refused),
    };
    match checked {
        Ok(request) => {
            // Read whole: from here the request is answered, not waited for.
            let _answering = activity.as_ref().map(|activity| activity.answering());
            next.run(request).await
        }
        Err(refused) => {
            let mut response = refused.into_response();
            // What was not read of the request cannot be told from the next one.
            response
                .headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
            response
        }
    }
}

/// Whether `name` can be a host name to allow: labels of letters, digits and `-`, joined by
/// dots (a final dot allowed), at most 253 characters.
pub fn is_host_name(name: &str) -> bool {
    let name = name.strip_suffix('.').unwrap_or(name);
    !name.is_empty()
        && name.len() <= 253
        && name.split('.').all(|label| {
            (1..=63).contains(&label.len())
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-')
        })
}

/// A header's value as text, when it is one and is text.
fn header_text(headers: &HeaderMap, name: impl header::AsHeaderName) -> Option<&str> {
    headers.get(name).and_then(|value| value.to_str().ok())
}

/// The host of an authority: without its port, an IPv6 address kept in its brackets.
fn host_of(authority: &str) -> &str {
    if authority.starts_with('[') {
        return authority
            .find(']')
            .map_or(authority, |end| &authority[..=end]);
    }
    match authority.rsplit_once(':') {
        // One colon: a port (a bare IPv6 address, not valid here, is left whole).
        Some((host, port)) if !host.contains(':') && port.bytes().all(|b| b.is_ascii_digit()) => {
            host
        }
        _ => authority,
    }
}

/// A host name as compared: lower case, without the final dot of a fully qualified name.
fn normal_name(name: &str) -> String {
    name.trim_end_matches('.').to_ascii_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ip_addresses_localhost_and_allowed_names_are_answered_to() {
        let gate = Gate::new(&["Knights.LAN".to_string()], Duration::from_secs(1));
        for host in [
            "127.0.0.1:8080",
            "127.0.0.1",
            "192.168.1.20:80",
            "[::1]:8080",
            "[::1]",
            "localhost:8080",
            "LOCALHOST.",
            "app.localhost:3000",
            "knights.lan:8080",
            "knights.lan.",
        ] {
            assert!(gate.allows(host), "{host}");
        }
        for host in [
            "evil.example:8080",
            "evil.example",
            "localhost.evil.example",
            "127.0.0.1.nip.io:8080",
            "[not-an-address]:8080",
            "knights.lan.evil.example",
            "",
        ] {
            assert!(!gate.allows(host), "{host}");
        }
    }

    #[test]
    fn host_names_to_allow_are_labels_joined_by_dots() {
        for name in ["knights.lan", "box", "my-box.example.org."] {
            assert!(is_host_name(name), "{name}");
        }
        for name in ["", ".", "a..b", "a b", "evil.example:8080", "[::1]", "a_b"] {
            assert!(!is_host_name(name), "{name}");
        }
    }

    #[test]
    fn the_host_of_an_authority_drops_only_a_port() {
        assert_eq!(host_of("example:8080"), "example");
        assert_eq!(host_of("[::1]:8080"), "[::1]");
        assert_eq!(host_of("example"), "example");
        assert_eq!(host_of("::1"), "::1");
    }
}
