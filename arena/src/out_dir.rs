//! The files of `--out`, kept consistent through `kill -9` and a full disk.
//!
//! The rules (shared with `twinsim.distributed`, which follows the same ones):
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

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The results file of `--out`.
pub const RESULTS: &str = "results.jsonl";
/// The traces file of `--out`.
pub const TRACES: &str = "traces.jsonl";

/// Test hook: `TWINSIM_OUT_SPACE=N` lets a process append only N bytes to `--out`'s records,
/// the write that crosses the line failing as a full disk does (its first bytes written,
/// then `StorageFull`), so the full-disk path is tested without mounting a small disk.
const SPACE_VARIABLE: &str = "TWINSIM_OUT_SPACE";

/// The two record files of an `--out` directory, open for appending.
pub(crate) struct OutDir {
    /// The directory.
    pub(crate) dir: PathBuf,
    files: Mutex<Files>,
}

struct Files {
    traces: File,
    results: File,
    /// Bytes left under `TWINSIM_OUT_SPACE`, when set.
    space: Option<u64>,
}

impl OutDir {
    /// Opens `dir`'s record files for appending, repairing them first when `resume` (see the
    /// module's rules).
    pub(crate) fn open(dir: &Path, resume: bool) -> std::io::Result<OutDir> {
        if resume {
            reconcile(dir)?;
        }
        let open = |name| OpenOptions::new().create(true).append(true).open(dir.join(name));
        let space = std::env::var(SPACE_VARIABLE).ok().and_then(|v| v.parse().ok());
        let files = Files { traces: open(TRACES)?, results: open(RESULTS)?, space };
        Ok(OutDir { dir: dir.to_path_buf(), files: Mutex::new(files) })
    }

    /// Appends one game: its trace line, then its result line (each without its newline).
    /// Both are written whole or, on an error, neither.
    pub(crate) fn append_game(&self, trace: &str, result: &str) -> std::io::Result<()> {
        let mut files = self.files.lock().unwrap_or_else(|e| e.into_inner());
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
        files.traces.sync_data()?;
        files.results.sync_data()
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
        out.files.lock().unwrap().space = Some(14);
        out.append_game("trace", "result").unwrap();
        let error = out.append_game("trace-2", "result-2").unwrap_err();
        assert_eq!(error.kind(), std::io::ErrorKind::StorageFull);
        assert_eq!(std::fs::read_to_string(dir.join(TRACES)).unwrap(), "trace\n");
        assert_eq!(std::fs::read_to_string(dir.join(RESULTS)).unwrap(), "result\n");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
