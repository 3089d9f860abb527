//! The README's test command (`scripts/test`) runs every suite even when an earlier one fails,
//! lists every failure at the end and exits non-zero: checked with stand-ins for `cargo` and
//! the Python step that fail and leave a mark, so no real suite runs here. The Python step's
//! install phase runs first; its checks run beside the Rust suite.

use std::path::PathBuf;
use std::process::Command;

#[test]
fn the_test_command_runs_every_suite_and_reports_all_failures() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::temp_dir().join(format!("twinsim-test-command-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let marks = dir.join("marks");
    // Each stand-in leaves a mark with its arguments, then fails, except the Python step's
    // install phase: its checks run only after it succeeded.
    let write_stub = |name: &str, mark: &str| {
        let path = dir.join(name);
        std::fs::write(
            &path,
            format!(
                "#!/bin/sh\necho {mark} \"$*\" >> '{}'\n[ \"$1\" = install ] && exit 0\nexit 1\n",
                marks.display()
            ),
        )
        .unwrap();
        let status = Command::new("chmod").arg("+x").arg(&path).status().unwrap();
        assert!(status.success());
        path
    };
    write_stub("cargo", "cargo");
    let python = write_stub("python-tests", "python");
    let path = format!("{}:{}", dir.display(), std::env::var("PATH").unwrap_or_default());
    let out = Command::new("bash")
        .arg(root.join("scripts/test"))
        .env("PATH", path)
        .env("TWINSIM_SKIP_BROWSER_TESTS", "1")
        .env("TWINSIM_PYTHON_TESTS", &python)
        .output()
        .expect("bash runs scripts/test");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let ran = std::fs::read_to_string(&marks).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&dir);
    // The install phase first; then the Rust suite and the Python checks, side by side.
    let mut ran: Vec<&str> = ran.lines().collect();
    assert_eq!(ran.first(), Some(&"python install"), "the Python package first\n{stdout}");
    ran[1..].sort_unstable();
    assert_eq!(
        ran,
        ["python install", "cargo test --workspace --no-fail-fast", "python check"],
        "both suites must run (Rust to the end) although one failed\n{stdout}"
    );
    assert!(!out.status.success(), "failures must make the command fail\n{stdout}");
    assert!(stdout.contains("FAILED (2)"), "both failures listed at the end\n{stdout}");
}
