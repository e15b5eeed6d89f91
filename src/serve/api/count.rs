//! `/api/count`: a count, a table, a start's ends, answered from the store or by a job.

use axum::extract::{Extension, State};
use axum::http::StatusCode;
use axum::response::Response;

use crate::cancel::CancelFlag;
use crate::existence::no_tour_for;
use crate::resolve::{self, Settings};
use crate::serve::app::{App, QueryPairs, answer, blocking, query_pairs};
use crate::serve::jobs::{Asked, JobState, Room};
use crate::serve::params::CountRequest;
use crate::serve::render::{cancelled, job_response, render_count};
use crate::serve::reply::ApiError;
use crate::serve::share::Client;
use crate::view::{Ends, View};

pub(crate) async fn count(
    State(app): State<App>,
    Extension(client): Extension<Client>,
    query: QueryPairs,
) -> Response {
    answer(count_answer(app, client, query).await)
}

pub(crate) async fn count_answer(
    app: App,
    client: Client,
    query: QueryPairs,
) -> Result<Response, ApiError> {
    let request = CountRequest::parse(query_pairs(query)?, app.0.limits.wait)?;
    // The engines' limits first, before a table's starts are listed.
    let limit = app.0.limits.table_squares;
    let too_large = |board: crate::Board, what: &str, instead: &str| {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "the {board} board has {} squares; this server counts {what} of at most {limit} squares{instead}",
                board.squares()
            ),
        )
    };
    match request.asked {
        Asked::Count(view) => {
            if let Err(refused) = view.check_engines(&Settings::default()) {
                if !view.may_be_stored() {
                    return Err(refused.into());
                }
                // Beyond one machine, what the store holds (a merged plan's table) is served.
                let questions = view.questions();
                match (&refused, app.stored(&questions).await?) {
                    (crate::error::Error::BeyondOneMachine { .. }, Some(stored)) => {
                        return render_count(request.asked, request.format, &stored);
                    }
                    _ => return Err(refused.into()),
                }
            }
            if let View::Table(board) = view
                && board.squares() > limit
            {
                return Err(too_large(
                    board,
                    "per-square tables",
                    " (the board's total: add &total)",
                ));
            }
        }
        Asked::Ends(ends) => {
            if ends.board.squares() > limit {
                return Err(too_large(ends.board, "tables of ends", ""));
            }
            resolve::check_engines(&ends.questions(), &Settings::default())?;
            if resolve::beyond_one_machine(ends.board) {
                return served_ends_or_refusal(&app, request.asked, request.format, ends).await;
            }
        }
    }
    let asked = request.asked;
    let questions = asked.questions();
    if let Some(stored) = app.stored(&questions).await? {
        return render_count(asked, request.format, &stored);
    }
    if questions.iter().all(|q| no_tour_for(q).is_some()) {
        // Theorems answer at once: no job, and no place taken among the jobs.
        let work = app.work(questions);
        // Theorems fill no table: no share of the budget.
        let memory = crate::MemoryBudget::from_bytes(1 << 20);
        let room = Room {
            memory,
            threads: None,
        };
        let resolution = blocking(move || Ok(work(&CancelFlag::new(), room, &mut |_| {})?)).await?;
        return render_count(asked, request.format, &resolution);
    }
    let job = app
        .0
        .jobs
        .join_or_start(asked, client, app.work(questions))?;
    match job.wait(request.wait, &app.0.pressure).await {
        JobState::Done(resolution) => render_count(asked, request.format, &resolution),
        JobState::Failed(error) => Err(error),
        JobState::Cancelled => Err(cancelled(&job)),
        JobState::Running => Ok(job_response(&job, StatusCode::ACCEPTED)),
    }
}

/// A start's ends on a board whose counts from one square are beyond one machine: their sum is
/// such a count, hours of work a pair, so they are shown only when the store holds every pair
/// (a merged plan's, or counted pair by pair with `count --to`); otherwise refused at once with
/// what it would cost, as the command refuses the count from the start.
pub(crate) async fn served_ends_or_refusal(
    app: &App,
    asked: Asked,
    format: &str,
    ends: Ends,
) -> Result<Response, ApiError> {
    let mut questions = ends.questions();
    questions.sort();
    questions.dedup();
    if let Some(stored) = app.stored(&questions).await? {
        return render_count(asked, format, &stored);
    }
    let held = app.stored_among(&questions).await?;
    let board = ends.board;
    Err(ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        format!(
            "the ends of {} on the {board} board are {} distinct pair counts of hours each (their sum is a count from one square, beyond one machine), and the answer store holds {held} of them; this server shows them once it holds them all: `knights count {} {} {} {} --to ROW COL` counts one pair, `knights shards plan` splits them for many machines",
            ends.start,
            questions.len(),
            board.rows(),
            board.cols(),
            ends.start.row,
            ends.start.col,
        ),
    )
    .of_kind("beyond_one_machine"))
}
