//! The replies of the API: a count (JSON with the heat map's colours, or CSV), a start's
//! ends, and a job, written with the library's record types and JSON writer as the commands
//! write them, with the fields a client of a server needs added (`source`, `engine`,
//! `seconds`, and the heatmap's colours for tables).

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;
use serde::Serialize;
use serde_json::value::RawValue;

use crate::count::CountTable;
use crate::output::{
    BetweenCount, BoardTotal, ClosedReport, Format, HeatScale, StartCount, TableReport,
    legend_colours, to_json,
};
use crate::question::TourKind;
use crate::resolve::Resolution;
use crate::serve::jobs::{Asked, Job, JobState};
use crate::serve::reply::{ApiError, json, with_type};
use crate::view::{Ends, View};

pub(super) fn cancelled(job: &Job) -> ApiError {
    let why = if job.abandoned() {
        "no page or client was waiting for it any more".to_string()
    } else {
        format!("DELETE /api/jobs/{}, or the server stopping", job.id)
    };
    ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        format!(
            "the computation was cancelled before it finished ({why}); what it finished is kept"
        ),
    )
    .of_kind("cancelled")
}

/// A count with where it came from: the command's JSON record, its fields first and in their
/// order, then the fields a client of a server needs.
#[derive(Serialize)]
pub(super) struct CountReply<T: Serialize> {
    #[serde(flatten)]
    record: T,
    /// `store` when every answer was stored, `computed` otherwise.
    source: &'static str,
    /// The engine of the answer shown (`theorem` for a zero a theorem decides).
    engine: String,
    /// Seconds the engine took for it (when it was computed, for a stored one).
    seconds: f64,
    /// How it was found, in words for a person ([`Resolution::how`]): a client names no
    /// engine itself.
    how: String,
    /// The heatmap's colours, row by row, for tables.
    #[serde(skip_serializing_if = "Option::is_none")]
    heat: Option<Heat>,
}

/// The colours of `count --format svg`, for the page.
#[derive(Serialize)]
pub(super) struct Heat {
    /// Each square's colour.
    fill: Vec<Vec<String>>,
    /// The colour of each square's number.
    ink: Vec<Vec<&'static str>>,
    /// The scale from the smallest count above zero to the largest.
    legend: Vec<String>,
}

impl Heat {
    fn of(table: &CountTable) -> Self {
        let scale = HeatScale::of(table.counts());
        Heat {
            fill: table
                .rows()
                .map(|row| row.iter().map(|c| scale.fill(c)).collect())
                .collect(),
            ink: table
                .rows()
                .map(|row| row.iter().map(|c| scale.ink(c)).collect())
                .collect(),
            legend: legend_colours(),
        }
    }
}

/// The answer to `asked` from `resolution`, as JSON or CSV.
pub(super) fn render_count(
    asked: Asked,
    format: &str,
    resolution: &Resolution,
) -> Result<Response, ApiError> {
    if format != "csv" {
        return Ok(json(StatusCode::OK, asked_json(asked, resolution)?));
    }
    let (csv, name) = match asked {
        Asked::Count(view) => (count_csv(view, resolution)?, file_name(view)),
        Asked::Ends(ends) => (
            ends_csv(ends, resolution)?,
            format!(
                "knights-{}-ends-{}-{}",
                ends.board, ends.start.row, ends.start.col
            ),
        ),
    };
    let mut response = with_type(StatusCode::OK, "text/csv; charset=utf-8", csv);
    let name = format!("attachment; filename=\"{name}.csv\"");
    if let Ok(value) = HeaderValue::from_str(&name) {
        response
            .headers_mut()
            .insert(header::CONTENT_DISPOSITION, value);
    }
    Ok(response)
}

/// The JSON answer to `asked`.
pub(super) fn asked_json(asked: Asked, resolution: &Resolution) -> Result<String, ApiError> {
    match asked {
        Asked::Count(view) => count_json(view, resolution),
        Asked::Ends(ends) => Ok(ends_json(ends, resolution)),
    }
}

/// A start's ends: the count of open tours from it that end on each square, and their sum
/// (the count from the start).
#[derive(Serialize)]
pub(super) struct EndsReply {
    rows: u32,
    cols: u32,
    row: u32,
    col: u32,
    /// Always `ends`.
    kind: &'static str,
    /// The sum of the table: every open tour from the start.
    count: String,
    /// Row by row, the tours that end on each square (0 on the start).
    counts: Vec<Vec<String>>,
    source: &'static str,
    how: String,
    heat: Heat,
}

pub(super) fn ends_json(ends: Ends, resolution: &Resolution) -> String {
    let table = ends.table(resolution);
    let mut questions = ends.questions();
    questions.sort();
    questions.dedup();
    let stored = questions.iter().all(|q| resolution.from_store.contains(q));
    let computed: Vec<&crate::store::Answer> = questions
        .iter()
        .filter(|q| !resolution.from_store.contains(q))
        .map(|q| &resolution.answers[q])
        .collect();
    let how = if stored {
        format!(
            "from the answer store: its {} distinct pairs counted before",
            questions.len()
        )
    } else {
        let seconds: f64 = computed.iter().map(|a| a.seconds).sum();
        format!(
            "{} distinct pairs counted in {} of engine time, {} read from the answer store",
            computed.len(),
            crate::output::stats::seconds_in_words(seconds),
            questions.len() - computed.len()
        )
    };
    to_json(&EndsReply {
        rows: ends.board.rows(),
        cols: ends.board.cols(),
        row: ends.start.row,
        col: ends.start.col,
        kind: "ends",
        count: table.total_directed().to_string(),
        counts: table
            .rows()
            .map(|row| row.iter().map(ToString::to_string).collect())
            .collect(),
        source: if stored { "store" } else { "computed" },
        how,
        heat: Heat::of(&table),
    })
}

/// A start's ends as CSV: one pair a line, as `count --to --format csv` writes each.
pub(super) fn ends_csv(ends: Ends, resolution: &Resolution) -> Result<String, ApiError> {
    let csv = Format::Csv.exporter();
    let table = ends.table(resolution);
    let mut out = String::new();
    for end in ends.board.all_squares().filter(|&end| end != ends.start) {
        let pair = BetweenCount::new(ends.board, ends.start, end, table.get(end).clone());
        let text = csv.between_count(&pair)?;
        // Each record comes with its header: keep the first.
        let lines = if out.is_empty() {
            text
        } else {
            text.lines().skip(1).map(|l| format!("{l}\n")).collect()
        };
        out.push_str(&lines);
    }
    Ok(out)
}

/// The command's JSON record for `view` (as `count --format json` writes it), with the
/// server's fields.
pub(super) fn count_json(view: View, resolution: &Resolution) -> Result<String, ApiError> {
    let questions = view.questions();
    let shown = &resolution.answers[&view.shown()];
    let count = shown.count.clone();
    let source = if questions.iter().all(|q| resolution.from_store.contains(q)) {
        "store"
    } else {
        "computed"
    };
    let how = resolution.how(&view.shown());
    let reply = |record: &dyn records::Record, heat: Option<Heat>| {
        record.reply(
            source,
            shown.engine.to_string(),
            shown.seconds,
            how.clone(),
            heat,
        )
    };
    Ok(match view {
        View::Start(board, square, kind) => {
            reply(&StartCount::new(board, square, kind, count), None)
        }
        View::Table(_) => {
            let table = view.table(resolution);
            reply(&TableReport::open(&table)?, Some(Heat::of(&table)))
        }
        // A closed tour passes through every square: one count, the same on each, and no
        // heatmap to read.
        View::Closed(board) => reply(&ClosedReport::new(board, &count), None),
        View::Total(board) => reply(&BoardTotal::new(board, TourKind::Open, &count), None),
        View::Between(board, start, end) => {
            reply(&BetweenCount::new(board, start, end, count), None)
        }
    })
}

/// The records of different types written through one closure.
pub(super) mod records {
    use super::{CountReply, Heat};
    use crate::output::to_json;

    /// A record of the exporters.
    pub trait Record {
        /// The record with the server's fields, as one line of JSON.
        fn reply(
            &self,
            source: &'static str,
            engine: String,
            seconds: f64,
            how: String,
            heat: Option<Heat>,
        ) -> String;
    }

    impl<T: serde::Serialize> Record for T {
        fn reply(
            &self,
            source: &'static str,
            engine: String,
            seconds: f64,
            how: String,
            heat: Option<Heat>,
        ) -> String {
            to_json(&CountReply {
                record: self,
                source,
                engine,
                seconds,
                how,
                heat,
            })
        }
    }
}

/// The command's CSV for `view` (as `count --format csv` writes it).
pub(super) fn count_csv(view: View, resolution: &Resolution) -> Result<String, ApiError> {
    let csv = Format::Csv.exporter();
    let count = view.count(resolution).clone();
    Ok(match view {
        View::Start(board, square, kind) => {
            csv.start_count(&StartCount::new(board, square, kind, count))?
        }
        View::Table(_) => csv.table(&view.table(resolution))?,
        View::Closed(board) => csv.closed_board(&ClosedReport::new(board, &count))?,
        View::Total(board) => {
            csv.board_totals(&[BoardTotal::new(board, TourKind::Open, &count)])?
        }
        View::Between(board, start, end) => {
            csv.between_count(&BetweenCount::new(board, start, end, count))?
        }
    })
}

pub(super) fn file_name(view: View) -> String {
    match view {
        View::Start(board, square, kind) => {
            format!("knights-{board}-{kind}-{}-{}", square.row, square.col)
        }
        View::Table(board) => format!("knights-{board}-open"),
        View::Closed(board) => format!("knights-{board}-closed"),
        View::Total(board) => format!("knights-{board}-open-total"),
        View::Between(board, start, end) => format!(
            "knights-{board}-between-{}-{}-{}-{}",
            start.row, start.col, end.row, end.col
        ),
    }
}

/// A job as the API shows it.
#[derive(Serialize)]
pub(super) struct JobReply {
    job: String,
    question: String,
    state: &'static str,
    /// Questions the store lacked, to compute (0 until the store was read).
    planned: usize,
    computed: usize,
    /// The work planned and done, in the same units: their ratio is the fraction done (a
    /// theorem's zero is no work, a long pass much).
    work_planned: u64,
    work_done: u64,
    seconds: f64,
    clients: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    status: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    /// What sort of failure, as an error's `kind`.
    #[serde(skip_serializing_if = "Option::is_none")]
    kind: Option<&'static str>,
    /// The answer of a finished job, as `/api/count` gives it.
    #[serde(skip_serializing_if = "Option::is_none")]
    answer: Option<Box<RawValue>>,
}

pub(super) fn job_reply(job: &Job) -> JobReply {
    let state = job.state();
    let (planned, computed) = job.progress();
    let (work_planned, work_done) = job.work();
    let failed = |e: &ApiError| {
        (
            Some(e.status.as_u16()),
            Some(e.message.clone()),
            Some(e.kind),
        )
    };
    let ((status, error, kind), answer) = match &state {
        JobState::Done(resolution) => match asked_json(job.asked, resolution) {
            Ok(answer) => (
                (Some(200), None, None),
                RawValue::from_string(answer.trim_end().to_string()).ok(),
            ),
            Err(e) => (failed(&e), None),
        },
        JobState::Failed(e) => (failed(e), None),
        JobState::Cancelled => (failed(&cancelled(job)), None),
        JobState::Running => ((None, None, None), None),
    };
    JobReply {
        job: format!("/api/jobs/{}", job.id),
        question: job.describe(),
        state: state.name(),
        planned,
        computed,
        work_planned,
        work_done,
        seconds: job.seconds(),
        clients: job.clients(),
        status,
        error,
        kind,
        answer,
    }
}

pub(super) fn job_response(job: &Job, status: StatusCode) -> Response {
    let mut response = json(status, to_json(&job_reply(job)));
    if let Ok(location) = HeaderValue::from_str(&format!("/api/jobs/{}", job.id)) {
        response.headers_mut().insert(header::LOCATION, location);
    }
    response
}
