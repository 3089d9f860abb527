//! Every integration test of the `twinsim` package, one module per former `tests/<name>.rs`, in
//! one test binary: 30 binaries each linking the whole workspace took most of a debug test build's
//! link time and disk. Filter by module: `cargo test --test all cli::` or `-- conformance::`.
//! The search and example bots' tests are the other binary, `tests/release/` (it holds every
//! `#[ignore]`d check, which CI runs in release).

mod arena;
mod arena_crash;
mod bounded_input;
mod bundle;
mod cli;
mod common;
mod conformance;
mod docs;
mod fuzz_corpus;
mod olymbits_alloc;
mod olymbits_typed;
mod photosynthesis_fast;
mod photosynthesis_properties;
mod photosynthesis_snapshots;
mod photosynthesis_typed;
mod refusal_tests;
mod registry;
mod search_game;
mod test_command;
mod trace_subset;
mod viewer;
mod wondev_fog;
mod wondev_woman_snapshots;
mod wondev_woman_typed;
mod zuniq_snapshots;
mod zuniq_typed;
