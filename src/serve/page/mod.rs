//! The page's files, compiled into the binary: plain HTML, CSS and JavaScript, with no build
//! step and nothing fetched from elsewhere.

use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};

use crate::output::TOUR_COLOURS;

const INDEX: &str = include_str!("index.html");
const STYLE: &str = include_str!("style.css");
const SCRIPT: &str = include_str!("app.js");
const TOUR_SCRIPT: &str = include_str!("tour.js");
const PUZZLE_SCRIPT: &str = include_str!("puzzle.js");
const PUZZLE_STYLE: &str = include_str!("puzzle.css");

/// Only the page's own files may load or run (the server never sends another site's).
const POLICY: &str = "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

fn file(content_type: &'static str, body: impl Into<axum::body::Body>) -> Response {
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(content_type)),
            // A new binary may bring a new page: the browser asks again each time.
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
            (
                header::CONTENT_SECURITY_POLICY,
                HeaderValue::from_static(POLICY),
            ),
            (
                header::X_CONTENT_TYPE_OPTIONS,
                HeaderValue::from_static("nosniff"),
            ),
        ],
        body.into(),
    )
        .into_response()
}

/// `/`: the page (its state is in the query string, read by the script).
pub async fn index() -> Response {
    file("text/html; charset=utf-8", INDEX)
}

/// `/style.css`: the page's rules after the colours of the server's tour pictures, as CSS
/// variables (one definition of the colours: [`TOUR_COLOURS`]).
pub async fn style() -> Response {
    static STYLED: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        let c = TOUR_COLOURS;
        format!(
            ":root {{ --light: {}; --dark: {}; --path: {}; --start: {}; --end: {}; --knight: {}; --numbers: {}; --halo: {}; }}\n{STYLE}",
            c.light, c.dark, c.path, c.start, c.end, c.knight, c.numbers, c.halo
        )
    });
    file("text/css; charset=utf-8", STYLED.as_str())
}

/// `/app.js`.
pub async fn script() -> Response {
    file("text/javascript; charset=utf-8", SCRIPT)
}

/// `/tour.js`: the tour's functions, which `/app.js` calls.
pub async fn tour_script() -> Response {
    file("text/javascript; charset=utf-8", TOUR_SCRIPT)
}

/// `/puzzle.js`: the puzzle view.
pub async fn puzzle_script() -> Response {
    file("text/javascript; charset=utf-8", PUZZLE_SCRIPT)
}

/// `/puzzle.css`.
pub async fn puzzle_style() -> Response {
    file("text/css; charset=utf-8", PUZZLE_STYLE)
}
