//! Helpers shared by the workspace's tests (the crate's own and the top-level `tests/`): built
//! for `cargo test` and with the `testing` feature, never part of an engine.

use std::path::Path;

/// The insta settings of every snapshot test: files in the workspace's `snapshots/<folder>/`,
/// named by the snapshot name alone (no module prefix), so a test can move between files or
/// crates without renaming its snapshots.
pub fn snapshot_settings(folder: &str) -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    settings
        .set_snapshot_path(Path::new(env!("CARGO_MANIFEST_DIR")).join("../snapshots").join(folder));
    settings.set_prepend_module_to_snapshot(false);
    settings
}
