//! `/api/jobs`: a job's state, leaving it, cancelling it, and the list.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;

use crate::output::to_json;
use crate::serve::app::{App, answer};
use crate::serve::jobs::{Job, JobState};
use crate::serve::render::{JobReply, job_reply, job_response};
use crate::serve::reply::{ApiError, json};

pub(crate) fn find_job(app: &App, id: &str) -> Result<Arc<Job>, ApiError> {
    id.parse::<u64>()
        .ok()
        .and_then(|id| app.0.jobs.get(id))
        .ok_or_else(|| {
            ApiError::not_found(format!(
                "no job {id} (finished jobs are kept for ten minutes)"
            ))
        })
}

pub(crate) async fn job_status(State(app): State<App>, Path(id): Path<String>) -> Response {
    answer(find_job(&app, &id).map(|job| {
        job.touch();
        job_response(&job, StatusCode::OK)
    }))
}

/// `POST /api/jobs/ID/leave`: a client no longer waits for it (the page's beacon when it
/// closes); the last one gone cancels it, keeping what it finished.
pub(crate) async fn leave_job(State(app): State<App>, Path(id): Path<String>) -> Response {
    answer(find_job(&app, &id).map(|job| {
        job.leave();
        job_response(&job, StatusCode::OK)
    }))
}

pub(crate) async fn cancel_job(State(app): State<App>, Path(id): Path<String>) -> Response {
    answer(find_job(&app, &id).map(|job| {
        if matches!(job.state(), JobState::Running) {
            job.cancel();
            job_response(&job, StatusCode::ACCEPTED)
        } else {
            job_response(&job, StatusCode::OK)
        }
    }))
}

pub(crate) async fn list_jobs(State(app): State<App>) -> Response {
    let jobs: Vec<JobReply> = app.0.jobs.list().iter().map(|job| job_reply(job)).collect();
    json(StatusCode::OK, to_json(&jobs))
}
