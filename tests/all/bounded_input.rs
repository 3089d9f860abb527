//! Every reader of a file stops at its limits (src/input.rs) with an error naming the limit:
//! `/dev/zero` is an error, not a read that grows until memory runs out.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs twinsim with `args`; its exit status and stderr. Hangs are failures (the limit is
/// generous: the read stops after 64 MiB, well under a second unloaded).
fn twinsim(args: &[&str]) -> (bool, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_twinsim"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("twinsim starts");
    let started = Instant::now();
    while child.try_wait().expect("waits").is_none() {
        if started.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            panic!("twinsim {args:?} still reading after 120 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = child.wait_with_output().expect("output");
    (output.status.success(), String::from_utf8_lossy(&output.stderr).into_owned())
}

#[test]
fn dev_zero_is_refused_by_replay_view_show_and_bundle_naming_the_limit() {
    let page = std::env::temp_dir().join(format!("twinsim-zero-{}.html", std::process::id()));
    let page = page.to_str().unwrap();
    for args in [
        vec!["replay", "/dev/zero"],
        vec!["view", "/dev/zero", "-o", page],
        vec!["show", "zuniq", "--actions", "/dev/zero"],
        vec!["bundle", "/dev/zero", "-o", page],
    ] {
        let (ok, stderr) = twinsim(&args);
        assert!(!ok, "{args:?} succeeded");
        assert!(
            stderr.contains("longer than 67108864 bytes")
                && stderr.contains("TWINSIM_MAX_LINE_BYTES"),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn the_limits_are_settable_from_the_environment() {
    let trace = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/traces/zuniq.jsonl");
    let (ok, stderr) = {
        let output = Command::new(env!("CARGO_BIN_EXE_twinsim"))
            .args(["replay", trace])
            .env("TWINSIM_MAX_INPUT_BYTES", "1000")
            .output()
            .expect("runs");
        (output.status.success(), String::from_utf8_lossy(&output.stderr).into_owned())
    };
    assert!(!ok && stderr.contains("larger than 1000 bytes"), "{stderr}");
}
