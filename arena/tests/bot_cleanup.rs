//! A bot that daemonises a process of its own (a new session, re-parented away from the bot):
//! the process dies with the bot's game, and no descriptor or thread of the arena outlives it.
//! Alone in its binary, so no other test opens descriptors meanwhile.

use std::time::{Duration, Instant};
use twinsim_arena::bots::{Bot, ProcessBot};
use twinsim_reference::game::EngineKind;

/// Descriptors open in this process.
fn open_descriptors() -> usize {
    std::fs::read_dir("/proc/self/fd").expect("/proc/self/fd").count()
}

/// Threads of this process.
fn threads() -> usize {
    std::fs::read_dir("/proc/self/task").expect("/proc/self/task").count()
}

/// Live processes whose command line is exactly `args` (NUL-separated in `/proc`).
fn processes_running(args: &[&str]) -> Vec<u32> {
    let wanted: Vec<u8> = args.iter().flat_map(|a| a.bytes().chain([0])).collect();
    std::fs::read_dir("/proc")
        .expect("/proc")
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            let zombie = std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
                s.rsplit(')').next().is_some_and(|r| r.trim_start().starts_with('Z'))
            });
            !zombie && std::fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|c| c == wanted)
        })
        .collect()
}

#[test]
fn a_daemonising_bot_leaves_no_process_descriptor_or_thread_over_200_games() {
    // A sleep length no other program uses, so the check counts only this test's daemons.
    let sleep = format!("{}.5", 100_000 + std::process::id() % 100_000);
    let command = format!("(setsid sleep {sleep} &); while read l; do echo UP; done");
    // Process bots read only their input text; the play is any game's.
    let play = twinsim_arena::registry::arena_engine("olymbits", EngineKind::Reference)
        .expect("olymbits")
        .setup_arena(Some(1), &serde_json::json!({}))
        .expect("olymbits seed 1");
    let mut baseline = None;
    for game in 0..200 {
        let mut bot = ProcessBot::spawn(&command, 4096).expect("sh starts");
        let deadline = Instant::now() + Duration::from_secs(30);
        bot.send("turn", &*play, 0, deadline);
        let _ = bot.receive(deadline);
        bot.finish(None);
        let _ = bot.stderr();
        drop(bot);
        // The arena's pipe threads end when the last holder of the bot's pipes is gone: give
        // them a moment (generous: this only detects a leak, never times the cleanup).
        let settled = Instant::now() + Duration::from_secs(10);
        let counts = loop {
            let counts = (open_descriptors(), threads());
            if baseline.is_none_or(|b| counts == b) || Instant::now() > settled {
                break counts;
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        let baseline = *baseline.get_or_insert(counts);
        assert_eq!(counts, baseline, "game {game}: (descriptors, threads) grew");
        let left = processes_running(&["sleep", &sleep]);
        assert!(left.is_empty(), "game {game}: the bot's daemon outlived it: {left:?}");
    }
}
