//! The arena's `--out` directory and progress display from Python: `twinsim.distributed`
//! writes a Ray run through the same code as `twinsim arena --out` (so each resumes the other's
//! directory) and shows the CLI's progress line.

use crate::arena::Tally;
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use std::io::ErrorKind;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;
use twinsim_arena::out_dir;

/// `ENOSPC` ("No space left on device", 28 on Linux and macOS), for a full disk that the
/// `TWINSIM_OUT_SPACE` test hook simulates without an OS error number.
const ENOSPC: i32 = 28;

/// The Python exception of an out-directory error: `ValueError` for a refusal (another run's
/// directory, a bad stderr file name), `OSError` with its `errno` otherwise.
fn out_error(error: std::io::Error) -> PyErr {
    let message = error.to_string();
    match (error.kind(), error.raw_os_error()) {
        (ErrorKind::InvalidInput, None) => PyValueError::new_err(message),
        (_, Some(code)) => PyOSError::new_err((code, message)),
        (ErrorKind::StorageFull, None) => PyOSError::new_err((ENOSPC, message)),
        _ => PyOSError::new_err(message),
    }
}

/// The `--out` directory of an arena run (`results.jsonl`, `traces.jsonl`, `arena.json`,
/// `stderr/`), written under the arena's rules (`twinsim_arena::out_dir`): each game's trace
/// line then its result line, whole or not at all; a resume that cuts a cut last line and the
/// traces without a result. The GIL is released around every file operation.
#[pyclass(module = "twinsim._core", frozen)]
pub struct OutDir {
    path: PathBuf,
    /// `None` once closed.
    inner: Mutex<Option<out_dir::OutDir>>,
}

impl OutDir {
    fn with_open<T>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&out_dir::OutDir) -> std::io::Result<T> + Send,
    ) -> PyResult<T>
    where
        T: Send,
    {
        py.allow_threads(|| {
            let inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
            match inner.as_ref() {
                Some(out) => f(out).map_err(out_error),
                None => Err(PyValueError::new_err("the out directory is closed")),
            }
        })
    }
}

#[pymethods]
impl OutDir {
    /// Opens `path` for the run `identity` names (`arena_identity`'s text): created if
    /// missing; with `resume` repaired and continued (only the same run), without it refused if
    /// it already holds results. `sync_seconds`: the longest time a written game waits for its
    /// disk sync (0: after every game, as the CLI does).
    #[new]
    #[pyo3(signature = (path, identity, resume=false, sync_seconds=0.0))]
    fn new(
        py: Python<'_>,
        path: PathBuf,
        identity: &str,
        resume: bool,
        sync_seconds: f64,
    ) -> PyResult<Self> {
        let identity: serde_json::Value = serde_json::from_str(identity)
            .map_err(|e| PyValueError::new_err(format!("identity: not JSON: {e}")))?;
        let interval = Duration::try_from_secs_f64(sync_seconds)
            .map_err(|_| PyValueError::new_err("sync_seconds must be a number of at least 0"))?;
        let out = py
            .allow_threads(|| out_dir::OutDir::create(&path, &identity, resume))
            .map_err(out_error)?
            .with_sync_interval(interval);
        Ok(OutDir { path, inner: Mutex::new(Some(out)) })
    }

    /// The directory.
    #[getter]
    fn path(&self) -> PathBuf {
        self.path.clone()
    }

    /// `(index, results line)` of each game already in the directory with an index below
    /// `games` (the first line of each index, in file order): the games a resume keeps.
    fn done(&self, py: Python<'_>, games: usize) -> PyResult<Vec<(usize, String)>> {
        let previous = self.with_open(py, |out| out.previous(games))?;
        Ok(previous.into_iter().map(|r| (r.index, r.to_line())).collect())
    }

    /// Commits one game: its `stderr/` files (`(name, text)` pairs), then its trace line and its
    /// result line (each without its newline), both written whole or neither. An `OSError` (a
    /// full disk: `errno.ENOSPC`) leaves the directory as it was before the game.
    #[pyo3(signature = (trace, result, stderr_files=Vec::new()))]
    fn append(
        &self,
        py: Python<'_>,
        trace: &str,
        result: &str,
        stderr_files: Vec<(String, String)>,
    ) -> PyResult<()> {
        self.with_open(py, |out| {
            out.write_stderr(&stderr_files)?;
            out.append_game(trace, result)
        })
    }

    /// Syncs the games written since the last sync to the disk.
    fn sync(&self, py: Python<'_>) -> PyResult<()> {
        self.with_open(py, |out| out.sync())
    }

    /// Syncs and closes the files (again: nothing).
    fn close(&self, py: Python<'_>) -> PyResult<()> {
        py.allow_threads(|| {
            let out = self.inner.lock().unwrap_or_else(|e| e.into_inner()).take();
            out.map_or(Ok(()), |out| out.sync()).map_err(out_error)
        })
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __exit__(
        &self,
        py: Python<'_>,
        _kind: PyObject,
        _value: PyObject,
        _traceback: PyObject,
    ) -> PyResult<()> {
        self.close(py)
    }
}

/// The progress line of `twinsim arena` (`done/total games, games/s, ETA` once 5% of the games
/// are done, each bot's win rate), as text for the caller to write: redrawn in place on a
/// terminal (`\r`, a newline once every game is done), a whole line every 5 s otherwise.
#[pyclass(module = "twinsim._core", frozen)]
pub struct Progress {
    progress: twinsim_arena::progress::Progress,
    total: usize,
}

#[pymethods]
impl Progress {
    /// A display of a run of `total` games, `done_before` of them done before it started (a
    /// resume: not part of the rate and the ETA); `enabled=False` never gives a line.
    #[new]
    #[pyo3(signature = (total, enabled=true, terminal=false, done_before=0))]
    fn new(total: usize, enabled: bool, terminal: bool, done_before: usize) -> Self {
        let progress = twinsim_arena::progress::Progress::with_terminal(enabled, terminal)
            .with_done_before(done_before);
        Progress { progress, total }
    }

    /// The text to write now that `done` games are done (win rates from `tally`), or `None`
    /// when no line is due; `force` gives one regardless of the interval (the last game).
    #[pyo3(signature = (done, tally, force=false))]
    fn line(&self, done: usize, tally: PyRef<'_, Tally>, force: bool) -> Option<String> {
        self.progress
            .line(done, self.total, force, || twinsim_arena::progress::win_rates(tally.standings()))
    }
}

/// Adds the out directory's and the progress display's classes to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<OutDir>()?;
    m.add_class::<Progress>()
}
