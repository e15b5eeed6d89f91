//! The API's route families, one file each: `count` (`/api/count`), `tour` (`/api/tour`),
//! `answers` (`/api/answers`), `jobs` (`/api/jobs`) and `puzzle` (`/api/puzzle`). Each reads
//! its request (`params`), does its work through the server's state (`app`) and writes its
//! reply (`render`, `reply`).

pub(crate) mod answers;
pub(crate) mod count;
pub(crate) mod jobs;
pub(crate) mod puzzle;
pub(crate) mod tour;
