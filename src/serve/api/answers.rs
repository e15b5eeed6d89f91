//! `/api/answers`: the store's answers, a page at a time.

use axum::extract::State;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;

use crate::output::Format;
use crate::serve::app::{App, QueryPairs, answer, blocking, query_pairs};
use crate::serve::params::AnswersRequest;
use crate::serve::reply::{ApiError, json, with_type};
use crate::store::Store;

pub(crate) async fn answers(State(app): State<App>, query: QueryPairs) -> Response {
    answer(answers_answer(app, query).await)
}

pub(crate) async fn answers_answer(app: App, query: QueryPairs) -> Result<Response, ApiError> {
    let given = query_pairs(query)?;
    let request = AnswersRequest::parse(given.clone())?;
    let Some(path) = app.0.store.clone() else {
        return Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "this server runs with --no-cache: it keeps no answer store",
        ));
    };
    let (filter, mut page) = (request.filter, request.page);
    filter.check().map_err(|e| ApiError::bad(e.to_string()))?;
    let limit = page.limit.unwrap_or(crate::serve::params::ANSWERS_PAGE);
    // One row past the page says whether another page follows; the page is all that is held.
    page.limit = Some(limit + 1);
    let (answers, next) = blocking(move || {
        let store = Store::open(&path)?;
        let mut answers = Vec::new();
        let mut last = None;
        let mut more = false;
        store.each_row(&filter, &page, |listed| {
            if answers.len() as u64 == limit {
                more = true;
                return Ok(());
            }
            match listed.row {
                Ok(answer) => answers.push(answer),
                // As `knights query`: a planted row is the store's damage, not a page's gap.
                Err(bad) => {
                    return Err(ApiError::from(crate::store::StoreError::Damaged {
                        path: store.path().to_string(),
                        detail: format!("{bad}; run `knights verify`"),
                    }));
                }
            }
            last = listed.cursor;
            Ok(())
        })?;
        Ok((answers, last.filter(|_| more)))
    })
    .await?;
    let mut response = if request.format == "csv" {
        with_type(
            StatusCode::OK,
            "text/csv; charset=utf-8",
            Format::Csv.exporter().answers(&answers)?,
        )
    } else {
        json(StatusCode::OK, Format::Json.exporter().answers(&answers)?)
    };
    // The next page, as GitHub's API links it: the same query, resuming after this page.
    if let Some(next) = next {
        let mut query: Vec<String> = given
            .iter()
            .filter(|(name, _)| name != "after")
            .map(|(name, value)| format!("{}={}", url_encoded(name), url_encoded(value)))
            .collect();
        query.push(format!("after={next}"));
        let link = format!("</api/answers?{}>; rel=\"next\"", query.join("&"));
        if let Ok(value) = HeaderValue::from_str(&link) {
            response.headers_mut().insert(header::LINK, value);
        }
    }
    Ok(response)
}

/// `text` with every byte but the URL's unreserved ones percent-encoded.
pub(crate) fn url_encoded(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}
