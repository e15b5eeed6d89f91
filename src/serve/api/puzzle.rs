//! `/api/puzzle` and `/api/puzzle/new`: a puzzle completed or counted, and puzzles made, by the
//! library's puzzle module, as `knights puzzle` does.
//!
//! `POST /api/puzzle` takes the puzzle's text (any content type but JSON), or JSON:
//! `{"puzzle": "text"}` or `{"cells": [[1, null, ...], ...]}`, with `"closed": true` for a
//! closed tour (or `closed=1` in the query). It answers one completion, or with `count=1` the
//! number of completions; 422 with the reason when there is none, 400 for bad input.
//! `GET /api/puzzle/new?rows=6&cols=6[&closed=1][&clues=N][&seed=S]` makes one.
//!
//! Each piece of work runs on a blocking thread in a place of the server's computations (a job
//! place: puzzles wait their turn for one, and never hold them all), within its place's share
//! of the server's memory and [`PUZZLE_SECONDS`]: past them it is stopped and answered 503. A
//! client that hangs up stops its puzzle at once.

use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::{Extension, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::Response;
use serde::{Deserialize, Serialize};

use crate::board::Board;
use crate::cancel::CancelFlag;
use crate::memory::MemoryBudget;
use crate::output::to_json;
use crate::puzzle::{self, CountRecord, MadeRecord, Puzzle};
use crate::serve::app::{App, QueryPairs, WORK_SECONDS, answer, blocking, query_pairs};
use crate::serve::reply::{ApiError, json};
use crate::serve::share::Client;

/// The longest a puzzle's work may take on the server.
pub const PUZZLE_SECONDS: u64 = WORK_SECONDS;

/// A puzzle sent as JSON.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PuzzleBody {
    /// The puzzle's text.
    puzzle: Option<String>,
    /// Or its cells, row by row (`null` or 0: empty).
    cells: Option<crate::puzzle::JsonCells>,
    #[serde(default)]
    closed: bool,
}

/// A completion: the step number of every square, and the squares in order.
#[derive(Serialize)]
struct CompletionReply {
    rows: u32,
    cols: u32,
    closed: bool,
    givens: usize,
    /// The step number (from 1) of every square, row by row.
    steps: Vec<Vec<u64>>,
    /// The squares in the order of the tour, `[row, col]` from 0.
    squares: Vec<[u32; 2]>,
    seconds: f64,
}

#[derive(Serialize)]
struct CountReply {
    #[serde(flatten)]
    record: CountRecord,
    seconds: f64,
}

#[derive(Serialize)]
struct MadeReply {
    #[serde(flatten)]
    record: MadeRecord,
    seconds: f64,
}

/// A query parameter that is a flag: `1`/`true` or `0`/`false`.
fn flag(pairs: &[(String, String)], name: &str) -> Result<bool, ApiError> {
    match pairs
        .iter()
        .rev()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
    {
        None | Some("0" | "false" | "") => Ok(false),
        Some("1" | "true") => Ok(true),
        Some(other) => Err(ApiError::bad(format!(
            "{name} must be 1 or 0, not {}",
            crate::echo::echo(other)
        ))),
    }
}

fn number(pairs: &[(String, String)], name: &str) -> Result<Option<u64>, ApiError> {
    pairs
        .iter()
        .rev()
        .find(|(k, _)| k == name)
        .map(|(_, v)| {
            crate::input::parse_whole(v).map_err(|_| {
                ApiError::bad(format!(
                    "{name} must be a whole number, not {}",
                    crate::echo::echo(v)
                ))
            })
        })
        .transpose()
}

/// Reads the puzzle of a request: JSON when the content type says so, else text.
fn read(headers: &HeaderMap, body: &[u8], closed: bool) -> Result<Puzzle, ApiError> {
    let is_json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("json"));
    if !is_json {
        return Ok(Puzzle::read(body, closed)?);
    }
    let sent: PuzzleBody = serde_json::from_slice(body)
        .map_err(|e| ApiError::bad(format!("the puzzle's JSON cannot be read: {e}")))?;
    let closed = closed || sent.closed;
    match (sent.puzzle, sent.cells) {
        (Some(text), None) => Ok(Puzzle::parse(&text, closed).map_err(crate::Error::from)?),
        (None, Some(cells)) => Ok(Puzzle::from_cells(cells.0, closed).map_err(crate::Error::from)?),
        _ => Err(ApiError::bad(
            "send the puzzle as {\"puzzle\": \"text\"} or {\"cells\": [[...], ...]}, one of the two",
        )),
    }
}

/// Runs `work` in a place, with its share of the memory and a flag that is set when the server
/// stops, [`PUZZLE_SECONDS`] pass, or the request is dropped (its client hung up). The place is
/// held until the work has stopped, not only until the request ends.
async fn bounded<T: Send + 'static>(
    app: &App,
    client: Client,
    work: impl FnOnce(&CancelFlag, MemoryBudget) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let (_turn, place) = app.puzzle_place(client).await?;
    let request = app.request_work(Some(Duration::from_secs(PUZZLE_SECONDS)));
    let flag = request.flag();
    let result = blocking(move || {
        let place = place;
        // On the place's threads, at long work's priority: a puzzle can take a minute.
        place.run(|| work(&flag, place.budget()))
    })
    .await;
    drop(request);
    result.map_err(|e| {
        if e.status == StatusCode::SERVICE_UNAVAILABLE {
            ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "the puzzle was stopped: this server gives a puzzle at most {PUZZLE_SECONDS} s (or it is stopping); `knights puzzle` has no such limit"
                ),
            )
        } else {
            e
        }
    })
}

/// `POST /api/puzzle`.
pub async fn solve(
    State(app): State<App>,
    Extension(client): Extension<Client>,
    query: QueryPairs,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    answer(solve_answer(app, client, query, headers, body).await)
}

async fn solve_answer(
    app: App,
    client: Client,
    query: QueryPairs,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    let pairs = query_pairs(query)?;
    let count = flag(&pairs, "count")?;
    let puzzle = read(&headers, &body, flag(&pairs, "closed")?)?;
    bounded(&app, client, move |cancel, memory| {
        let clock = Instant::now();
        if count {
            let counted = puzzle::count(&puzzle, memory, cancel, &mut |_, _| {})?;
            let (n, reason) = match counted {
                Ok(n) => (n, None),
                Err(reason) => (0, Some(reason)),
            };
            let record = CountRecord::new(&puzzle, n, reason.as_ref());
            let seconds = clock.elapsed().as_secs_f64();
            return Ok(json(
                StatusCode::OK,
                to_json(&CountReply { record, seconds }),
            ));
        }
        let tour = match puzzle::solve_within(&puzzle, memory, cancel)? {
            Ok(tour) => tour,
            Err(reason) => return Err(ApiError::no_tour(reason.to_string())),
        };
        let board = puzzle.board();
        let reply = CompletionReply {
            rows: board.rows(),
            cols: board.cols(),
            closed: puzzle.is_closed(),
            givens: puzzle.givens().count(),
            steps: tour
                .step_numbers()
                .chunks(board.cols() as usize)
                .map(<[_]>::to_vec)
                .collect(),
            squares: tour.squares().iter().map(|s| [s.row, s.col]).collect(),
            seconds: clock.elapsed().as_secs_f64(),
        };
        Ok(json(StatusCode::OK, to_json(&reply)))
    })
    .await
}

/// `GET /api/puzzle/new`.
pub async fn make(
    State(app): State<App>,
    Extension(client): Extension<Client>,
    query: QueryPairs,
) -> Response {
    answer(make_answer(app, client, query).await)
}

async fn make_answer(app: App, client: Client, query: QueryPairs) -> Result<Response, ApiError> {
    let pairs = query_pairs(query)?;
    let side = |name: &str| -> Result<u32, ApiError> {
        let value = number(&pairs, name)?.ok_or_else(|| {
            ApiError::bad(format!("{name} is missing: /api/puzzle/new?rows=6&cols=6"))
        })?;
        Ok(Board::check_side(value)?)
    };
    let board = Board::new(side("rows")?, side("cols")?)?;
    crate::graph::check_board(board)?;
    let closed = flag(&pairs, "closed")?;
    let clues = number(&pairs, "clues")?.map(|n| n.min(board.squares()) as usize);
    let seed = number(&pairs, "seed")?.unwrap_or(0);
    bounded(&app, client, move |cancel, memory| {
        let clock = Instant::now();
        let made = match puzzle::make(board, closed, clues, seed, memory, cancel)? {
            Ok(made) => made,
            Err(reason) => return Err(ApiError::no_tour(reason.to_string())),
        };
        let reply = MadeReply {
            record: MadeRecord::new(&made, seed),
            seconds: clock.elapsed().as_secs_f64(),
        };
        Ok(json(StatusCode::OK, to_json(&reply)))
    })
    .await
}
