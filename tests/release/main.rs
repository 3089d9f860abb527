//! The search bots' and example bots' tests, and every `#[ignore]`d check of the workspace: the
//! second integration test binary of the `twinsim` package (the first is `tests/all/`).
//!
//! Their ordinary tests run in the debug run like any other. The `#[ignore]`d ones need the
//! release build, and `.ci/run` builds only the CLI, the examples and this binary in release to
//! run them (`ignored_tests::*` fails when an ignored test lives anywhere else). They come in two
//! groups, by name:
//!
//! - `timing_*`: a clock decides the result (answers within a limit, strength on the clock), so
//!   they run alone, one at a time: `cargo test --release --test release -- --ignored
//!   --test-threads 1 timing_`.
//! - every other ignored test is deterministic (iteration budgets, with a clock ten times the
//!   referee's as a mere safety net; fixed game counts), so they run side by side:
//!   `cargo test --release --test release -- --ignored --skip timing_`.
//!
//! `ignored_tests::*` also checks that every ignored test says which group it is in (the
//! attribute's reason starts with `timing` or `deterministic`) and is named for it.

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
mod zuniq_soak;
