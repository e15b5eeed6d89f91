//! Every route: the page's files and the API's route families (`api`), with the answers to
//! a wrong method or path.

use axum::Router;
use axum::http::{Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};

use crate::serve::app::App;
use crate::serve::reply::ApiError;
use crate::serve::{api, page};

/// Every route.
pub fn router(app: App) -> Router {
    Router::new()
        .route("/", get(page::index))
        .route("/style.css", get(page::style))
        .route("/tour.js", get(page::tour_script))
        .route("/app.js", get(page::script))
        .route("/puzzle.js", get(page::puzzle_script))
        .route("/puzzle.css", get(page::puzzle_style))
        .route("/api/count", get(api::count::count))
        .route("/api/tour", get(api::tour::tour))
        .route("/api/answers", get(api::answers::answers))
        .route("/api/jobs", get(api::jobs::list_jobs))
        .route(
            "/api/jobs/{id}",
            get(api::jobs::job_status).delete(api::jobs::cancel_job),
        )
        .route("/api/jobs/{id}/leave", post(api::jobs::leave_job))
        .route("/api/puzzle", post(api::puzzle::solve))
        .route("/api/puzzle/new", get(api::puzzle::make))
        .fallback(not_found)
        .method_not_allowed_fallback(wrong_method)
        .with_state(app)
}

async fn wrong_method(method: Method, uri: Uri) -> Response {
    let allowed = if uri.path().ends_with("/leave") {
        "POST"
    } else if uri.path().starts_with("/api/jobs/") {
        "GET and DELETE"
    } else if uri.path() == "/api/puzzle" {
        "POST"
    } else {
        "GET"
    };
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        format!("{} takes {allowed}, not {method}", uri.path()),
    )
    .into_response()
}

async fn not_found(uri: Uri) -> Response {
    ApiError::not_found(format!("nothing at {}", uri.path())).into_response()
}
