//! `/api/tour`: one tour, found within the request's time, or the reason there is none.

use std::time::Duration;

use axum::extract::{Extension, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;
use serde::Serialize;

use crate::output::{NUMBERS_UP_TO, TOUR_COLOURS, TourFormat, to_json, write_tour};
use crate::question::Question;
use crate::serve::app::{App, QueryPairs, WORK_SECONDS, answer, blocking, query_pairs};
use crate::serve::params::TourRequest;
use crate::serve::reply::{ApiError, json, with_type};
use crate::serve::share::Client;
use crate::tour::NoTourReason;

pub(crate) async fn tour(
    State(app): State<App>,
    Extension(client): Extension<Client>,
    query: QueryPairs,
) -> Response {
    answer(tour_answer(app, client, query).await)
}

pub(crate) async fn tour_answer(
    app: App,
    client: Client,
    query: QueryPairs,
) -> Result<Response, ApiError> {
    let request = TourRequest::parse(query_pairs(query)?)?;
    let board = request.board;
    let limit = app.0.limits.tour_squares;
    if board.squares() > limit {
        return Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "the {board} board has {} squares; this server finds tours of at most {limit} squares (knights tour has no such limit)",
                board.squares()
            ),
        ));
    }
    crate::tour::check_memory(board, app.0.memory)?;
    // A pair's count in the store decides the search: none, or one that must be found.
    let known = match request.end {
        Some(end) => {
            app.stored_count(Question::between(board, request.start, end))
                .await?
        }
        None => None,
    };
    let limit = app.0.limits.tour_time;
    // The client's share first (one more waits for one of its own to end; hanging up leaves),
    // so that one client's searches never hold every turn.
    // Its turn, unless clients wait to be accepted meanwhile: a waiting search makes room.
    let began = tokio::time::Instant::now();
    let turn = async {
        let share = loop {
            if let Some(share) = app.0.tour_shares.take_for(client) {
                break share;
            }
            if app.0.stop.is_cancelled() {
                return Err(ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "the server is stopping",
                ));
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        let turn = app.0.tours.acquire().await.map_err(|_| {
            ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "the server is stopping")
        })?;
        Ok((share, turn))
    };
    let (_share, _turn) = tokio::select! {
        turn = turn => turn?,
        _ = app.0.pressure.make_room(began) => {
            return Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "every tour search is taken while other clients wait to be served; ask again shortly",
            ));
        }
    };
    // Between two squares the search keeps its own time (`--tour-seconds`); any other tour
    // has the server's longest. Either way it stops when its client goes.
    let work = app.request_work(
        request
            .end
            .is_none()
            .then_some(Duration::from_secs(WORK_SECONDS)),
    );
    let stop = work.flag();
    let svg = request.format == "svg";
    // Finding and writing a large tour both take time: off the server's threads.
    let text = blocking(move || {
        let found = match request.end {
            Some(end) => crate::tour::find_tour_between(
                board,
                request.start,
                end,
                request.seed,
                known.as_ref(),
                limit,
                &stop,
            )?,
            None => {
                crate::tour::find_tour(board, request.start, request.closed, request.seed, &stop)?
            }
        };
        let (tour, method) = found.map_err(|reason| no_tour(&reason))?;
        if svg {
            return Ok(write_tour(&tour, method, TourFormat::AnimatedSvg));
        }
        // The command's record, its fields first and in their order, then the server's.
        let record = write_tour(&tour, method, TourFormat::Json);
        let extra = to_json(&TourExtra {
            how: format!("found by {method}"),
            colours: TOUR_COLOURS,
            numbers_up_to: NUMBERS_UP_TO,
        });
        let record = record.trim_end().strip_suffix('}').unwrap_or(&record);
        Ok(format!("{record},{}", extra.trim_start_matches('{')))
    })
    .await
    .map_err(|e| {
        if e.kind == "interrupted" && work.out_of_time() {
            ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "the tour search was stopped: this server gives a tour at most {WORK_SECONDS} s; `knights tour` has no such limit"
                ),
            )
        } else {
            e
        }
    })?;
    if !svg {
        return Ok(json(StatusCode::OK, text));
    }
    let mut response = with_type(StatusCode::OK, "image/svg+xml", text);
    let name = format!(
        "attachment; filename=\"knights-tour-{board}-{}-{}{}.svg\"",
        request.start.row,
        request.start.col,
        if request.closed { "-closed" } else { "" }
    );
    if let Ok(value) = HeaderValue::from_str(&name) {
        response
            .headers_mut()
            .insert(header::CONTENT_DISPOSITION, value);
    }
    Ok(response)
}

/// No tour: the reason, and whether a theorem said it.
pub(crate) fn no_tour(reason: &NoTourReason) -> ApiError {
    ApiError::no_tour(reason.to_string())
}

/// What the server adds to a tour as `tour --format json` writes it: how it was found and the
/// colours of its picture (the server's SVG's, so that the page draws with the same).
#[derive(Serialize)]
pub(crate) struct TourExtra {
    how: String,
    colours: crate::output::TourColours,
    numbers_up_to: u32,
}
