//! Helpers shared by the integration tests (`crate::common` in the `all` test binary).

use std::path::PathBuf;

/// The built example `name`, beside the running test's binary (`target/<profile>/examples/`).
pub fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    let profile_dir = exe.parent().and_then(|deps| deps.parent()).expect("target/<profile>");
    let path = profile_dir.join("examples").join(name);
    assert!(
        path.exists(),
        "{} is missing: build the examples first (`cargo test` does; `cargo build --examples`)",
        path.display()
    );
    path
}
