//! The files of `--out`, kept consistent through `kill -9` and a full disk.
//!
//! One implementation for every writer: `twinsim arena --out` and Python's
//! `twinsim._core.OutDir`, which `twinsim.distributed.tournament` writes a Ray run through, so
//! either resumes the other's directory. The rules:
//! - a record is one line written with one `write` call (`results.jsonl` and `traces.jsonl`
//!   are never written a piece at a time), so a crash leaves at most a cut last line;
//! - a game's trace line is written first, then its result line, both under one lock, so the
//!   k-th result line belongs with the k-th trace line and the result line commits the game;
//! - a record that cannot be written whole (a full disk) is taken back: both files are cut
//!   back to their length before it, and the run stops with the error;
//! - `--resume` first cuts each file's last line if it is incomplete, then cuts `traces.jsonl`
//!   after as many lines as `results.jsonl` has (a trace whose result was never written is
//!   its game's, which is played again), so no game's trace is ever there twice. Only
//!   truncations: a crash during them leaves a state the next `--resume` repairs the same way.
//! - `arena.json` names the run; a resume continues only the same run, and a directory that
//!   holds results is never started over without one.

use crate::GameResult;
use serde_json::Value;
use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The results file of `--out`.
pub const RESULTS: &str = "results.jsonl";
/// The traces file of `--out`.
pub const TRACES: &str = "traces.jsonl";
/// The run's identity file of `--out` ([`crate::run_identity`]).
pub const IDENTITY: &str = "arena.json";
/// The folder of `--out` that holds the bots' stderr, one file per game and seat.
pub const STDERR: &str = "stderr";

/// Test hook: `TWINSIM_OUT_SPACE=N` lets a process append only N bytes to `--out`'s records,
/// the write that crosses the line failing as a full disk does (its first bytes written,
/// then `StorageFull`), so the full-disk path is tested without mounting a small disk.
const SPACE_VARIABLE: &str = "TWINSIM_OUT_SPACE";

/// The two record files of an `--out` directory, open for appending.
pub struct OutDir {
    dir: PathBuf,
    files: Mutex<Files>,
}

struct Files {
    traces: File,
    results: File,
    /// Bytes left under `TWINSIM_OUT_SPACE`, when set.
    space: Option<u64>,
    /// Longest time a written game waits for its disk sync ([`OutDir::with_sync_interval`]).
    sync_interval: Duration,
    /// The last disk sync.
    synced: Instant,
    /// Records written since then.
    unsynced: bool,
}

impl OutDir {
    /// Opens `dir` as the `--out` directory of the run `identity` names (see
    /// [`crate::run_identity`]): creates it and its `stderr/` folder, refuses (an
    /// `InvalidInput` error) a directory of another run when `resume` and one that already holds
    /// results otherwise, writes `arena.json`, then opens the record files ([`OutDir::open`]).
    /// Errors name the directory.
    pub fn create(dir: &Path, identity: &Value, resume: bool) -> std::io::Result<OutDir> {
        let refuse = |why: String| std::io::Error::new(std::io::ErrorKind::InvalidInput, why);
        let context =
            |e: std::io::Error| std::io::Error::new(e.kind(), format!("{}: {e}", dir.display()));
        std::fs::create_dir_all(dir.join(STDERR)).map_err(context)?;
        let id_path = dir.join(IDENTITY);
        if resume {
            if let Ok(text) = std::fs::read_to_string(&id_path) {
                let before: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
                if &before != identity {
                    return Err(refuse(format!(
                        "resuming {}: it holds a different run: {before}",
                        dir.display()
                    )));
                }
            }
        } else if dir.join(RESULTS).exists() {
            return Err(refuse(format!(
                "{} already holds results: resume the run to continue it (--resume)",
                dir.display()
            )));
        }
        std::fs::write(&id_path, identity.to_string()).map_err(context)?;
        OutDir::open(dir, resume).map_err(context)
    }

    /// Opens `dir`'s record files for appending, repairing them first when `resume` (see the
    /// module's rules).
    pub fn open(dir: &Path, resume: bool) -> std::io::Result<OutDir> {
        if resume {
            reconcile(dir)?;
        }
        let open = |name| OpenOptions::new().create(true).append(true).open(dir.join(name));
        let space = std::env::var(SPACE_VARIABLE).ok().and_then(|v| v.parse().ok());
        let files = Files {
            traces: open(TRACES)?,
            results: open(RESULTS)?,
            space,
            sync_interval: Duration::ZERO,
            synced: Instant::now(),
            unsynced: false,
        };
        Ok(OutDir { dir: dir.to_path_buf(), files: Mutex::new(files) })
    }

    /// Syncs the record files to the disk at most every `interval` instead of after every game
    /// (the default): what a power cut loses since the last sync, a resume plays again. A crash
    /// of the process alone loses nothing written (the system holds it); [`OutDir::sync`] and
    /// dropping the `OutDir` sync what is left.
    pub fn with_sync_interval(self, interval: Duration) -> OutDir {
        self.lock().sync_interval = interval;
        self
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The results already in `results.jsonl` (after [`OutDir::open`]'s repair), in file order:
    /// the first of each game index below `games`. A line that is not a result is left out: its
    /// game is played again.
    pub fn previous(&self, games: usize) -> std::io::Result<Vec<GameResult>> {
        let text = match std::fs::read_to_string(self.dir.join(RESULTS)) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(e),
        };
        let mut seen = HashSet::new();
        Ok(text
            .lines()
            .filter_map(GameResult::from_line)
            .filter(|r| r.index < games && seen.insert(r.index))
            .collect())
    }

    /// Writes a game's `stderr/` files (`(file name, text)`, as
    /// [`crate::PlayedGame::stderr_files`] names them). A name that is not a plain file name is
    /// refused before anything is written.
    pub fn write_stderr<S: AsRef<str>>(&self, files: &[(String, S)]) -> std::io::Result<()> {
        for (name, _) in files {
            let mut parts = Path::new(name).components();
            if !matches!((parts.next(), parts.next()), (Some(Component::Normal(_)), None)) {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidInput,
                    format!("{name:?} is not a file name of the stderr folder"),
                ));
            }
        }
        for (name, text) in files {
            std::fs::write(self.dir.join(STDERR).join(name), text.as_ref())?;
        }
        Ok(())
    }

    /// Appends one game: its trace line, then its result line (each without its newline).
    /// Both are written whole or, on an error, neither.
    pub fn append_game(&self, trace: &str, result: &str) -> std::io::Result<()> {
        let mut files = self.lock();
        let files = &mut *files;
        let before = (files.traces.metadata()?.len(), files.results.metadata()?.len());
        let written = write_record(&mut files.traces, trace, &mut files.space)
            .and_then(|_| write_record(&mut files.results, result, &mut files.space));
        if let Err(error) = written {
            // Taken back; if even that fails, `--resume` cuts the same lines.
            let _ = files.results.set_len(before.1);
            let _ = files.traces.set_len(before.0);
            return Err(error);
        }
        files.unsynced = true;
        if files.synced.elapsed() >= files.sync_interval {
            files.sync()?;
        }
        Ok(())
    }

    /// Syncs the games written since the last sync to the disk.
    pub fn sync(&self) -> std::io::Result<()> {
        self.lock().sync()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Files> {
        self.files.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Files {
    fn sync(&mut self) -> std::io::Result<()> {
        if self.unsynced {
            self.traces.sync_data()?;
            self.results.sync_data()?;
            self.unsynced = false;
        }
        self.synced = Instant::now();
        Ok(())
    }
}

impl Drop for OutDir {
    fn drop(&mut self) {
        // Nothing is lost without it (a resume replays what a power cut took): best effort.
        let _ = self.lock().sync();
    }
}

/// Writes `line` and its newline with one `write_all` of one buffer.
fn write_record(file: &mut File, line: &str, space: &mut Option<u64>) -> std::io::Result<()> {
    let mut record = String::with_capacity(line.len() + 1);
    record.push_str(line);
    record.push('\n');
    let bytes = record.as_bytes();
    if let Some(left) = space {
        if (bytes.len() as u64) > *left {
            let fits = *left as usize;
            *left = 0;
            file.write_all(&bytes[..fits])?;
            return Err(std::io::Error::new(
                std::io::ErrorKind::StorageFull,
                format!("no space left on device ({SPACE_VARIABLE})"),
            ));
        }
        *left -= bytes.len() as u64;
    }
    file.write_all(bytes)
}

/// Repairs a directory a crash may have left: cuts an incomplete last line of either file,
/// then the trace lines past the results' count (or the result lines past the traces' count,
/// which only a file edited by hand can have).
pub fn reconcile(dir: &Path) -> std::io::Result<()> {
    let results = complete_line_ends(&dir.join(RESULTS))?;
    let traces = complete_line_ends(&dir.join(TRACES))?;
    let pairs = results.len().min(traces.len());
    // Results first: once they are cut, the trace cut below is the same on every rerun.
    cut(&dir.join(RESULTS), &results, pairs)?;
    cut(&dir.join(TRACES), &traces, pairs)
}

/// The byte offsets just past each complete line of `path` (empty if it does not exist).
fn complete_line_ends(path: &Path) -> std::io::Result<Vec<u64>> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    // Bytes past the last end are a cut line.
    Ok(bytes.iter().enumerate().filter(|(_, &b)| b == b'\n').map(|(i, _)| i as u64 + 1).collect())
}

/// Cuts `path` after its first `lines` complete lines (`ends` from [`complete_line_ends`]),
/// if it is longer.
fn cut(path: &Path, ends: &[u64], lines: usize) -> std::io::Result<()> {
    if !path.exists() {
        return Ok(());
    }
    let keep = if lines == 0 { 0 } else { ends[lines - 1] };
    let file = OpenOptions::new().write(true).open(path)?;
    if file.metadata()?.len() > keep {
        file.set_len(keep)?;
        file.sync_all()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("twinsim-out-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn reconcile_cuts_a_cut_line_and_the_traces_without_a_result() {
        let dir = scratch("reconcile");
        std::fs::write(dir.join(RESULTS), "r0\nr1\nr2-cut").unwrap();
        std::fs::write(dir.join(TRACES), "t0\nt1\nt2\nt3-cut").unwrap();
        reconcile(&dir).unwrap();
        assert_eq!(std::fs::read_to_string(dir.join(RESULTS)).unwrap(), "r0\nr1\n");
        assert_eq!(std::fs::read_to_string(dir.join(TRACES)).unwrap(), "t0\nt1\n");
        // Idempotent: a crash during the repair is repaired by the next.
        reconcile(&dir).unwrap();
        assert_eq!(std::fs::read_to_string(dir.join(TRACES)).unwrap(), "t0\nt1\n");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_record_that_does_not_fit_is_taken_back_from_both_files() {
        let dir = scratch("full");
        let out = OutDir::open(&dir, false).unwrap();
        out.lock().space = Some(14);
        out.append_game("trace", "result").unwrap();
        let error = out.append_game("trace-2", "result-2").unwrap_err();
        assert_eq!(error.kind(), std::io::ErrorKind::StorageFull);
        assert_eq!(std::fs::read_to_string(dir.join(TRACES)).unwrap(), "trace\n");
        assert_eq!(std::fs::read_to_string(dir.join(RESULTS)).unwrap(), "result\n");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_stderr_file_name_stays_in_the_stderr_folder() {
        let dir = scratch("stderr");
        let identity = serde_json::json!({"game": "zuniq"});
        let out = OutDir::create(&dir, &identity, false).unwrap();
        for name in ["../escape.txt", "/tmp/escape.txt", "a/b.txt", "..", ""] {
            let error = out.write_stderr(&[(name.to_string(), "x")]).unwrap_err();
            assert_eq!(error.kind(), std::io::ErrorKind::InvalidInput, "{name}");
        }
        out.write_stderr(&[("game0-seat0-bot0.txt".to_string(), "said")]).unwrap();
        let written = std::fs::read_to_string(dir.join(STDERR).join("game0-seat0-bot0.txt"));
        assert_eq!(written.unwrap(), "said");
        assert!(!dir.join("escape.txt").exists());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_directory_is_resumed_only_by_its_own_run() {
        let dir = scratch("identity");
        let identity = serde_json::json!({"game": "zuniq", "seed": 1});
        let out = OutDir::create(&dir, &identity, false).unwrap();
        out.append_game("t0", "r0").unwrap();
        drop(out);
        let again = OutDir::create(&dir, &identity, false).err().unwrap();
        assert!(again.to_string().contains("already holds results"), "{again}");
        let other = serde_json::json!({"game": "zuniq", "seed": 2});
        let error = OutDir::create(&dir, &other, true).err().unwrap();
        assert!(error.to_string().contains("different run"), "{error}");
        assert_eq!(error.kind(), std::io::ErrorKind::InvalidInput);
        assert!(OutDir::create(&dir, &identity, true).is_ok());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
