//! Errors as HTTP answers: a status and one line, the same line the command prints.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::error::{Error, ErrorKind, Remedy};
use crate::output::to_json;

/// A request the server does not answer with a count: the status and why, in one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// What is wrong, one line.
    pub message: String,
    /// True when the answer is that no tour exists (the message is the theorem or the search).
    pub no_tour: bool,
    /// What sort of failure it is, for a client that words errors itself (the page): the
    /// library's [`ErrorKind`] names, `no_tour`, and the server's own (`too_large`, `busy`,
    /// `stopping`, `cancelled`, `not_found`, and for the connection's own refusals `timeout`,
    /// `connections`, `bad_host`, `cross_site`).
    pub kind: &'static str,
}

impl ApiError {
    /// An error with `status`.
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        let kind = match status {
            StatusCode::BAD_REQUEST => ErrorKind::BadInput.name(),
            StatusCode::NOT_FOUND => "not_found",
            StatusCode::PAYLOAD_TOO_LARGE => "too_large",
            StatusCode::TOO_MANY_REQUESTS => "busy",
            StatusCode::SERVICE_UNAVAILABLE => "stopping",
            StatusCode::METHOD_NOT_ALLOWED => "bad_method",
            StatusCode::REQUEST_TIMEOUT => "timeout",
            StatusCode::MISDIRECTED_REQUEST => "bad_host",
            StatusCode::FORBIDDEN => "cross_site",
            _ => ErrorKind::Internal.name(),
        };
        ApiError {
            status,
            message: message.into(),
            no_tour: false,
            kind,
        }
    }

    /// The same error, of `kind`.
    pub fn of_kind(self, kind: &'static str) -> Self {
        ApiError { kind, ..self }
    }

    /// A bad parameter (400).
    pub fn bad(message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// No such address (404).
    pub fn not_found(message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::NOT_FOUND, message)
    }

    /// No tour exists (422: the question is understood, and its answer is "none").
    pub fn no_tour(reason: impl Into<String>) -> Self {
        ApiError {
            no_tour: true,
            ..ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, reason).of_kind("no_tour")
        }
    }
}

impl From<Error> for ApiError {
    /// The library's error with the status that fits it: bad input 400, past an engine's or
    /// the memory's limit 413, out of memory or stopped 503, anything else 500.
    fn from(error: Error) -> Self {
        let status = match &error {
            Error::BoardTooLarge { .. }
            | Error::BoardTooWide { .. }
            | Error::BeyondEngines { .. }
            | Error::BeyondOneMachine { .. }
            | Error::TourTooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            Error::MemoryBudget { .. } | Error::Interrupted => StatusCode::SERVICE_UNAVAILABLE,
            // Understood, and not decided in the server's time: not the request's fault.
            Error::TourSearchGaveUp { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            // No parameter names a file: whatever the store says is the server's trouble (a
            // store replaced or damaged under it), never the request's.
            Error::Store(_) => StatusCode::INTERNAL_SERVER_ERROR,
            e if e.is_bad_input() => StatusCode::BAD_REQUEST,
            _ => StatusCode::INTERNAL_SERVER_ERROR,
        };
        let message = match (&error, error.remedy()) {
            (Error::Interrupted, _) => "the computation was stopped before it finished".to_string(),
            (e, Some(remedy)) => format!("{e}; {}", remedy_words(remedy)),
            (e, None) => e.to_string(),
        };
        // The operator hears of the server's own failures on standard error, the server's log:
        // the client only gets the status.
        #[allow(clippy::print_stderr)]
        if status == StatusCode::INTERNAL_SERVER_ERROR {
            eprintln!("knights serve: {message}");
        }
        ApiError::new(status, message).of_kind(error.kind().name())
    }
}

impl From<crate::board::BoardError> for ApiError {
    fn from(error: crate::board::BoardError) -> Self {
        Error::from(error).into()
    }
}

impl From<crate::store::StoreError> for ApiError {
    fn from(error: crate::store::StoreError) -> Self {
        Error::from(error).into()
    }
}

/// The server's words for what to change: its parameters, and for memory, the operator's
/// option (a client cannot change it).
pub fn remedy_words(remedy: Remedy) -> String {
    match remedy {
        Remedy::MoreMemory => {
            "this server's memory budget is set when it starts (knights serve --memory)".into()
        }
        Remedy::MoreTime => {
            "this server's time for such a search is set when it starts (knights serve --tour-seconds)".into()
        }
        Remedy::OtherQuestions(_) => "what it can count on this board: its closed tours (kind=closed), and tours between two squares (row and col with to_row and to_col), which `knights shards plan` lists as shards for many machines (their merge gives the board's open total and its per-square table)".into(),
    }
}

/// The body of every error: `{"error": "...", "kind": "..."}` (and `"no_tour": true` when
/// that is the answer).
#[derive(Serialize)]
struct ErrorBody<'a> {
    error: &'a str,
    kind: &'a str,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    no_tour: bool,
}

impl ApiError {
    /// The JSON body of the error.
    fn body(&self) -> String {
        to_json(&ErrorBody {
            error: &self.message,
            kind: self.kind,
            no_tour: self.no_tour,
        })
    }

    /// Busy, not broken: a client may try again in a few seconds.
    fn retry_after(&self) -> bool {
        matches!(
            self.status,
            StatusCode::TOO_MANY_REQUESTS | StatusCode::SERVICE_UNAVAILABLE
        )
    }

    /// The whole HTTP/1.1 answer, head and body, ending the connection: for a refusal written
    /// on a socket before any request is read (a client past its share of the connections).
    pub fn to_http1(&self) -> Vec<u8> {
        let body = self.body();
        let mut head = format!(
            "HTTP/1.1 {}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n",
            self.status,
            body.len()
        );
        if self.retry_after() {
            head.push_str("retry-after: 5\r\n");
        }
        head.push_str("\r\n");
        let mut bytes = head.into_bytes();
        bytes.extend_from_slice(body.as_bytes());
        bytes
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = json(self.status, self.body());
        if self.retry_after() {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
        }
        response
    }
}

/// A JSON body with `status`.
pub fn json(status: StatusCode, body: String) -> Response {
    with_type(status, "application/json", body)
}

/// A body of `content_type` with `status`.
pub fn with_type(status: StatusCode, content_type: &'static str, body: String) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, HeaderValue::from_static(content_type))],
        body,
    )
        .into_response()
}
