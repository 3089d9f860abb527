//! The search bots' and example bots' tests, and every `#[ignore]`d check of the workspace: the
//! second integration test binary of the `twinsim` package (the first is `tests/all/`).
//!
//! Their ordinary tests run in the debug run like any other. The `#[ignore]`d ones need the
//! release build, and `.ci/run` builds only the CLI, the examples and this binary in release to
//! run them (`ignored_tests::*` fails when an ignored test lives anywhere else). They come in
//! three groups:
//!
//! - `timing_*` (by name): a clock decides the result (answers within a limit, strength on the
//!   clock), so they run alone, one at a time: `cargo test --release --test release --
//!   --ignored --test-threads 1 timing_`.
//! - `clock_free::*` (by module): no clock at all (perft, soaks), so `.ci/run` runs them at the
//!   lowest priority while the test command runs: `cargo test --release --test release --
//!   --ignored clock_free::`.
//! - every other ignored test is deterministic (iteration budgets, fixed game counts) with a
//!   clock kept as a safety net (ten times the referee's limits, or the real limits for budgets
//!   well under them), so they run side by side, but on cores of their own:
//!   `cargo test --release --test release -- --ignored --skip timing_ --skip clock_free::`.
//!
//! `ignored_tests::*` also checks that every ignored test says which group it is in (the
//! attribute's reason starts with `timing` or `deterministic`) and is named for it.

mod answer_time;
mod clock_free;
#[path = "../all/common/mod.rs"]
mod common;
mod examples;
mod ignored_tests;
mod search_olymbits;
mod search_photosynthesis;
mod search_tests;
mod search_wondev_woman;
mod search_xmas_rush;
mod search_zuniq;
mod search_zuniq_v2;
