//! `twinsim verify`: the table of traces and random games through both engines.

use super::progress::Progress;
use super::usage_error;
use serde_json::json;
use std::path::Path;
use std::process::ExitCode;
use twinsim::{replay, verify};
use twinsim_arena::registry;
use twinsim_reference::trace;

/// Every game's trace file in `dir` (a missing file is a game without traces).
fn load_trace_dir(dir: &Path) -> Result<Vec<trace::TraceGame>, String> {
    let mut games = Vec::new();
    for game in registry::GAMES {
        let path = dir.join(format!("{game}.jsonl"));
        if !path.exists() {
            continue;
        }
        let text = twinsim::input::read_text(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let mut parsed =
            trace::parse_jsonl(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        games.append(&mut parsed);
    }
    Ok(games)
}

/// The shipped traces of the source tree this binary was built from.
const SHIPPED_TRACES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/traces");

/// Runs `verify` and prints its table (or JSON). `traces`: the trace directory asked for, or
/// `None` for the shipped one. A directory asked for must exist (exit 2); a run that finds no
/// trace at all says so, and fails under `--strict`.
pub fn run(games: usize, seed: i64, traces: Option<&Path>, strict: bool, json: bool) -> ExitCode {
    let dir = traces.unwrap_or(Path::new(SHIPPED_TRACES));
    if traces.is_some() && !dir.is_dir() {
        return usage_error(format!("--traces {}: no such directory", dir.display()));
    }
    let records = match load_trace_dir(dir) {
        Ok(r) => r,
        Err(e) => return usage_error(e),
    };
    let no_traces = records.is_empty();
    if no_traces {
        eprintln!(
            "twinsim verify: no trace file (<game>.jsonl) in {}: only random games are checked{}",
            dir.display(),
            if strict { "; --strict fails" } else { "" }
        );
    }
    let progress = Progress::new(!json);
    let report = |done: usize, total: usize| {
        progress.report(done, total, done == total, String::new);
    };
    let (results, summary) = verify::verify(&records, games, seed, &report);
    let mismatch = results.iter().any(|r| r.has_mismatch());
    let skip = results.iter().any(|r| r.has_skip());
    if json {
        let out = json!({
            "games_per_game": games,
            "seed": seed,
            "replay": summary.line(),
            "results": results.iter().map(|r| r.to_json()).collect::<Vec<_>>(),
            "ok": !(mismatch || strict && (skip || no_traces)),
        });
        println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
    } else {
        for (kind, report) in &summary.failures {
            print!("{}", replay::describe_failure(*kind, report));
        }
        print!("{}", table(&results));
        println!(
            "{}; random games: {games} per game, seed {seed}; {:.1}s",
            summary.line(),
            progress.elapsed().as_secs_f64()
        );
        println!("(turns/s: text-level turns, parse + rules, per core; `twinsim bench` times the hot operations)");
        if skip {
            println!("some games or engines are not implemented yet: shown as \"not built\" / \"skipped\", never as passing");
        }
    }
    if mismatch || (strict && (skip || no_traces)) {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// The per-game table, then the divergences found.
fn table(results: &[verify::GameVerification]) -> String {
    let pair = |c: Option<(usize, usize)>| match c {
        Some((ok, all)) => format!("{ok}/{all}"),
        None => "not built".into(),
    };
    let num = |x: Option<f64>| x.map_or("-".into(), |x| format!("{x:.0}"));
    let mut text = format!(
        "{:<15} {:>12} {:>12} {:>13} {:>14} {:>14} {:>8}\n",
        "game",
        "traces ref",
        "traces fast",
        "random games",
        "ref turns/s",
        "fast turns/s",
        "speedup"
    );
    for r in results {
        let random = match r.random_games {
            Some(c) => pair(Some(c)),
            None => "skipped".into(),
        };
        text += &format!(
            "{:<15} {:>12} {:>12} {:>13} {:>14} {:>14} {:>8}\n",
            r.game,
            pair(r.traces_reference),
            pair(r.traces_fast),
            random,
            num(r.reference_rate()),
            num(r.fast_rate()),
            r.speedup().map_or("-".into(), |s| format!("{s:.1}x"))
        );
    }
    for r in results {
        for d in &r.divergences {
            text += &format!("DIVERGENCE {d}\n");
        }
    }
    text
}
