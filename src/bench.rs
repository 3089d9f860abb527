//! `twinsim bench` and `benches/engines.rs`: each hot operation, reference vs fast, measured
//! interleaved in one run (so both sides see the same machine state), as median nanoseconds per
//! operation and their ratio.

use serde_json::{json, Value};
use std::time::{Duration, Instant};
use twinsim_fast::bench::BenchOp;

/// The measurement of one operation.
#[derive(Debug, Clone)]
pub struct BenchResult {
    /// The game's name (`zuniq`).
    pub game: &'static str,
    /// The operation measured (`apply`, `random_game`): [`BenchOp::name`].
    pub name: &'static str,
    /// Median nanoseconds per call on the reference engine.
    pub reference_ns: f64,
    /// Median nanoseconds per call on the fast twin, measured interleaved with the reference.
    pub fast_ns: f64,
}

impl BenchResult {
    /// How many times faster the fast twin is.
    pub fn speedup(&self) -> f64 {
        self.reference_ns / self.fast_ns
    }

    /// The row of `twinsim bench --json`: `game`, `operation`, both medians and `speedup`.
    pub fn to_json(&self) -> Value {
        json!({
            "game": self.game,
            "operation": self.name,
            "reference_ns": self.reference_ns,
            "fast_ns": self.fast_ns,
            "speedup": self.speedup(),
        })
    }
}

/// How many calls fit in `target` (at least 1), measured on `f`.
fn calibrate(f: &mut dyn FnMut(), target: Duration) -> u64 {
    let mut n = 1u64;
    loop {
        let start = Instant::now();
        for _ in 0..n {
            f();
        }
        let took = start.elapsed();
        if took >= target / 4 || n >= 1 << 30 {
            let per = took.as_secs_f64() / n as f64;
            return ((target.as_secs_f64() / per.max(1e-12)) as u64).max(1);
        }
        n *= 4;
    }
}

fn time_batch(f: &mut dyn FnMut(), n: u64) -> f64 {
    let start = Instant::now();
    for _ in 0..n {
        f();
    }
    start.elapsed().as_nanos() as f64 / n as f64
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// Measures one pair: `rounds` alternating batches of reference and fast calls, each batch about
/// `batch` long; the medians of the per-batch ns/op.
pub fn measure(op: &mut BenchOp, rounds: usize, batch: Duration) -> BenchResult {
    let n_ref = calibrate(&mut op.reference, batch);
    let n_fast = calibrate(&mut op.fast, batch);
    let (mut r, mut f) = (Vec::with_capacity(rounds), Vec::with_capacity(rounds));
    for _ in 0..rounds.max(1) {
        r.push(time_batch(&mut op.reference, n_ref));
        f.push(time_batch(&mut op.fast, n_fast));
    }
    BenchResult { game: op.game, name: op.name, reference_ns: median(r), fast_ns: median(f) }
}

/// A table of results for a terminal.
pub fn table(results: &[BenchResult]) -> String {
    let rows = results.iter().map(|r| (r.game, r.name, r.reference_ns, r.fast_ns));
    pair_table(["reference ns", "fast ns", "speedup"], 1, rows)
}

/// The table both `bench` modes print: game, operation, the reference and fast figures with
/// `decimals` decimals, and their ratio.
fn pair_table<'a>(
    headers: [&str; 3],
    decimals: usize,
    rows: impl Iterator<Item = (&'a str, &'a str, f64, f64)>,
) -> String {
    let mut out = format!(
        "{:<16} {:<28} {:>14} {:>14} {:>9}\n",
        "game", "operation", headers[0], headers[1], headers[2]
    );
    for (game, name, reference, fast) in rows {
        out.push_str(&format!(
            "{game:<16} {name:<28} {reference:>14.decimals$} {fast:>14.decimals$} {:>8.1}x\n",
            reference / fast.max(f64::MIN_POSITIVE)
        ));
    }
    out
}

/// Instruction counts: each operation's instructions per call in both twins, counted by
/// valgrind's callgrind, which is deterministic where wall-clock time is not.
pub mod instructions {
    use super::BenchOp;
    use serde_json::{json, Value};
    use std::path::{Path, PathBuf};
    use std::process::Command;

    /// Set in the child process run under callgrind: the `--callgrind-out-file` prefix whose
    /// numbered dumps (`PREFIX.1`, `PREFIX.2`, ...) the child reads back.
    const CHILD_ENV: &str = "TWINSIM_INSTRUCTIONS_OUT";

    /// Instructions a measured region should hold (about 0.1 s native, a few seconds under
    /// callgrind): enough calls that the per-region overhead and cycling inputs average out.
    const REGION_BUDGET: u64 = 4_000_000;

    /// Games a whole-game pair's fast side plays in its region ([`BenchOp::plays_whole_games`]):
    /// a fixed number, not sized by a probe game, so that every run counts the same games
    /// (each call plays the next seed of the pair's sequence: the warm-up is the first game,
    /// the region the next 50) and a change of the code under test changes the count, never
    /// the set of games averaged. A probe-sized region moved the row by a few percent when a
    /// change made the probe game cheaper or dearer and so the region longer or shorter.
    const WHOLE_GAMES_FAST: u64 = 50;

    /// Games a whole-game pair's reference side plays in its region: the first 5 of the fast
    /// side's 50 (the same seeds and choices on both twins), fewer because a reference game
    /// costs up to 100 M instructions (Zuniq).
    const WHOLE_GAMES_REFERENCE: u64 = 5;

    /// The counted instructions of one operation.
    #[derive(Debug, Clone, PartialEq)]
    pub struct Count {
        /// Game trace name.
        pub game: String,
        /// Operation name.
        pub operation: String,
        /// Instructions per call through the reference engine.
        pub reference_instructions: f64,
        /// Instructions per call through the fast twin.
        pub fast_instructions: f64,
    }

    impl Count {
        /// The JSON object `twinsim bench --instructions --json` prints per operation.
        pub fn to_json(&self) -> Value {
            json!({
                "game": self.game,
                "operation": self.operation,
                "reference_instructions": self.reference_instructions.round(),
                "fast_instructions": self.fast_instructions.round(),
            })
        }

        /// Parses one object of [`Count::to_json`].
        pub fn from_json(v: &Value) -> Option<Count> {
            Some(Count {
                game: v.get("game")?.as_str()?.to_string(),
                operation: v.get("operation")?.as_str()?.to_string(),
                reference_instructions: v.get("reference_instructions")?.as_f64()?,
                fast_instructions: v.get("fast_instructions")?.as_f64()?,
            })
        }
    }

    /// Callgrind dumps its counters each time this function returns (`--dump-after`): every
    /// measured region lies between two calls. Unmangled and never inlined so that callgrind
    /// finds it by name.
    #[no_mangle]
    #[inline(never)]
    pub extern "C" fn twinsim_instruction_mark() {
        std::hint::black_box(());
    }

    /// The total instruction count of one callgrind dump file (its `summary:`/`totals:` line).
    pub fn dump_total(text: &str) -> Option<u64> {
        text.lines()
            .find_map(|l| l.strip_prefix("summary:").or_else(|| l.strip_prefix("totals:")))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|n| n.parse().ok())
    }

    /// The child's side: counts regions delimited by marks, reading each dump back.
    struct Regions {
        prefix: PathBuf,
        dumps: usize,
    }

    impl Regions {
        /// Ends the current region; the number of its dump.
        fn mark(&mut self) -> usize {
            twinsim_instruction_mark();
            self.dumps += 1;
            self.dumps
        }

        /// The instruction count of dump `k` (reading it costs instructions: the caller ends
        /// the region that holds the reading before counting anything).
        fn read(&self, k: usize) -> Result<u64, String> {
            let path = format!("{}.{k}", self.prefix.display());
            let text = std::fs::read_to_string(&path)
                .map_err(|e| format!("callgrind dump {path}: {e} (not run under callgrind?)"))?;
            let _ = std::fs::remove_file(&path);
            dump_total(&text).ok_or_else(|| format!("callgrind dump {path}: no totals line"))
        }

        /// Instructions per call of `f`: one warm-up call (lazy tables, first-touch
        /// allocations), then `calls` calls, or when `None` one probe call sizing the run to
        /// [`REGION_BUDGET`]; then an empty region and a region of `m` calls; their difference
        /// over `m`, so the region overhead cancels.
        fn per_call(&mut self, f: &mut dyn FnMut(), calls: Option<u64>) -> Result<f64, String> {
            self.mark(); // whatever ran before
            f();
            self.mark(); // the warm-up call
            let m = match calls {
                Some(m) => m,
                None => {
                    f();
                    let probe = self.mark();
                    let probe = self.read(probe)?.max(1);
                    (REGION_BUDGET / probe).clamp(1, 200_000)
                }
            };
            self.mark(); // reading the probe's dump
            let empty = self.mark();
            for _ in 0..m {
                f();
            }
            let full = self.mark();
            let (empty, full) = (self.read(empty)?, self.read(full)?);
            Ok(full.saturating_sub(empty) as f64 / m as f64)
        }
    }

    /// Runs in the child under callgrind: counts every pair and prints one JSON line each.
    fn child(prefix: &Path, ops: &mut [BenchOp]) -> Result<(), String> {
        let mut regions = Regions { prefix: prefix.to_path_buf(), dumps: 0 };
        for op in ops {
            let whole_games = op.plays_whole_games();
            let reference = regions
                .per_call(&mut op.reference, whole_games.then_some(WHOLE_GAMES_REFERENCE))?;
            let fast = regions.per_call(&mut op.fast, whole_games.then_some(WHOLE_GAMES_FAST))?;
            let c = Count {
                game: op.game.to_string(),
                operation: op.name.to_string(),
                reference_instructions: reference,
                fast_instructions: fast,
            };
            println!("{}", c.to_json());
        }
        Ok(())
    }

    /// `twinsim bench [GAME] --instructions`: reruns this executable under
    /// `valgrind --tool=callgrind` on the pairs of `ops_game`, which counts them (in the child,
    /// recognised by its environment, `ops` are measured directly). Returns the counts. Without
    /// a game, one child per game (the games of `ops`, in order), so that one game's
    /// allocations do not shift another's counts through the allocator's state.
    pub fn count(ops_game: Option<&str>, ops: &mut [BenchOp]) -> Result<Vec<Count>, String> {
        if let Some(prefix) = std::env::var_os(CHILD_ENV) {
            child(Path::new(&prefix), ops)?;
            return Ok(vec![]);
        }
        let games: Vec<&str> = match ops_game {
            Some(g) => vec![g],
            None => {
                let mut games: Vec<&str> = Vec::new();
                for op in ops.iter() {
                    if !games.contains(&op.game) {
                        games.push(op.game);
                    }
                }
                games
            }
        };
        let mut counts = Vec::new();
        for game in games {
            counts.extend(count_in_child(game)?);
        }
        Ok(counts)
    }

    /// One callgrind child counting the pairs of `game`.
    fn count_in_child(game: &str) -> Result<Vec<Count>, String> {
        let dir = std::env::temp_dir().join(format!("twinsim-callgrind-{}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let prefix = dir.join("cg.out");
        let exe = std::env::current_exe().map_err(|e| e.to_string())?;
        let mut cmd = Command::new("valgrind");
        cmd.args(["--tool=callgrind", "-q", "--dump-instr=no", "--compress-strings=no"])
            .arg("--dump-after=twinsim_instruction_mark")
            .arg(format!("--callgrind-out-file={}", prefix.display()))
            .arg(exe)
            .args(["bench", game, "--instructions"])
            .env(CHILD_ENV, &prefix);
        let out = cmd.output();
        let _ = std::fs::remove_dir_all(&dir);
        let out = out.map_err(|e| format!("cannot run valgrind ({e}); install valgrind"))?;
        if !out.status.success() {
            return Err(format!(
                "callgrind run failed ({}): {}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| {
                serde_json::from_str::<Value>(l)
                    .ok()
                    .as_ref()
                    .and_then(Count::from_json)
                    .ok_or_else(|| format!("unexpected line from the callgrind child: {l}"))
            })
            .collect()
    }

    /// Whether this process is the child under callgrind (it prints its own lines).
    pub fn is_child() -> bool {
        std::env::var_os(CHILD_ENV).is_some()
    }

    /// `twinsim bench [GAME] --instructions [--json]`: counts and prints (a table, or a JSON
    /// array of [`Count::to_json`] objects).
    pub fn run(game: Option<&str>, ops: &mut [BenchOp], json: bool) -> std::process::ExitCode {
        match count(game, ops) {
            Ok(_) if is_child() => std::process::ExitCode::SUCCESS,
            Ok(counts) => {
                if json {
                    let out: Vec<Value> = counts.iter().map(Count::to_json).collect();
                    println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
                } else {
                    print!("{}", table(&counts));
                }
                std::process::ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("twinsim bench --instructions: {e}");
                std::process::ExitCode::FAILURE
            }
        }
    }

    /// A table of counts for a terminal.
    pub fn table(counts: &[Count]) -> String {
        let rows = counts.iter().map(|c| {
            (c.game.as_str(), c.operation.as_str(), c.reference_instructions, c.fast_instructions)
        });
        super::pair_table(["reference ins", "fast ins", "ratio"], 0, rows)
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn reads_the_totals_of_a_dump() {
            let dump =
                "version: 1\ncmd: x\nevents: Ir\nfn=(1) f\n3 12\nsummary: 4711\ntotals: 4711\n";
            assert_eq!(dump_total(dump), Some(4711));
            assert_eq!(dump_total("events: Ir\n"), None);
        }

        #[test]
        fn counts_round_trip_through_json() {
            let c = Count {
                game: "zuniq".into(),
                operation: "apply".into(),
                reference_instructions: 1000.0,
                fast_instructions: 40.0,
            };
            assert_eq!(Count::from_json(&c.to_json()), Some(c));
            assert_eq!(Count::from_json(&json!({"game": "zuniq"})), None);
        }
    }
}
