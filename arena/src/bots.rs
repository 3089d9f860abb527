//! The players of an arena game: child processes speaking the game's text protocol, or built-in
//! bots running in-process on the engine's own legal-move lists.

use crate::registry::ArenaPlay;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::time::{Duration, Instant};
use twinsim_reference::game::PlayerId;
use twinsim_reference::java_random::JavaRandom;
use twinsim_search::bot::ViewPlayer;
use twinsim_search::SearchRng;

/// A bot's answer to one request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// One output line (without its line ending).
    Line(String),
    /// A line the bot should not have printed, handed to the referee as far as it can be read
    /// (invalid UTF-8 replaced, an overlong line cut), with what was wrong with it.
    Flawed {
        /// The line as the referee gets it.
        line: String,
        /// What was wrong (`not UTF-8 ...`, `flood: ...`).
        flaw: String,
    },
    /// Nothing arrived before the deadline.
    Timeout,
    /// The bot's output is closed: it exited or crashed.
    Gone,
}

/// A seat's player. `send` hands over the turn's input; `receive` waits for the answer until the
/// deadline, so that simultaneous players think in parallel.
pub trait Bot: Send {
    /// Sends `input` (lines joined by `\n`, without the final newline). `play` and `player` are
    /// the true state and seat, used by `builtin:random` and `builtin:greedy` only (search bots
    /// read `input` like a process does). The answer is due by `deadline`.
    fn send(&mut self, input: &str, play: &dyn ArenaPlay, player: PlayerId, deadline: Instant);
    /// The next output line, or why there is none, by `deadline`.
    fn receive(&mut self, deadline: Instant) -> Answer;
    /// The game is over: sends the final input, if any, and lets the bot go.
    fn finish(&mut self, final_input: Option<&str>);
    /// What the bot wrote to stderr (capped).
    fn stderr(&self) -> String {
        String::new()
    }
    /// How the bot's process ended, once its output closed (process bots only).
    fn exit_report(&mut self) -> Option<ExitReport> {
        None
    }
    /// A search bot's (answers, iterations) so far; `(0, 0)` for other bots.
    fn search_stats(&self) -> (u64, u64) {
        (0, 0)
    }
    /// Whether the bot's answer times are recorded ([`crate::times`]): bots that play on the
    /// clock. `builtin:random` and `builtin:greedy` answer at once and deterministically, and
    /// leave their runs' records reproducible byte for byte.
    fn on_the_clock(&self) -> bool {
        true
    }
    /// When the answer `receive` last returned was ready, for a bot that computes it before
    /// `receive` is called (a search bot, inside `send`); `None`: when `receive` returned.
    fn answer_ready_at(&self) -> Option<Instant> {
        None
    }
}

/// How a bot process ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExitReport {
    /// The command could not be started (the shell's 126 "not executable" or 127 "not found",
    /// before any output line).
    pub not_started: bool,
    /// Exit status or signal, and the last line of its stderr.
    pub description: String,
}

/// Longest output line kept; the rest of a longer line is read and dropped (a flood must not
/// exhaust memory).
const MAX_LINE: usize = 64 * 1024;
/// Most stderr kept per bot and game by default (`--stderr-limit`); the rest is read and dropped
/// so the bot never blocks on it, and a marker line says how much was dropped.
pub const DEFAULT_STDERR_LIMIT: usize = 256 * 1024;
/// Output lines buffered ahead of the arena; a bot that floods stdout blocks on its own pipe.
const LINE_BUFFER: usize = 64;

/// A bot run as a child process (`sh -c CMD`), its three pipes served by threads so that the
/// arena never blocks on a bot that stops reading or floods its output.
pub struct ProcessBot {
    child: Child,
    /// `TWINSIM_BOT=<marker>` is in the environment of the bot and of every process it starts
    /// (an environment is inherited), daemonised ones included: how `stop` finds them.
    marker: String,
    input: Option<SyncSender<String>>,
    lines: Receiver<OutputLine>,
    stderr: std::sync::Arc<std::sync::Mutex<CappedText>>,
    /// Told when the stderr pipe reaches its end (taken by the first wait for it).
    stderr_drained: std::sync::Mutex<Option<Receiver<()>>>,
    /// Some line was received: the command started.
    answered: bool,
    gone: bool,
    stopped: bool,
}

impl ProcessBot {
    /// Starts `command` with the shell, keeping at most `stderr_limit` bytes of its stderr.
    pub fn spawn(command: &str, stderr_limit: usize) -> std::io::Result<ProcessBot> {
        // The bot stays in the arena's process group, so a Ctrl-C at the terminal stops the bots
        // with the arena; at the end of a game its whole process tree is killed, and every
        // process that carries its marker (see `stop`).
        static SERIAL: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let serial = SERIAL.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let marker = format!("{}-{serial}", std::process::id());
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .env(MARKER_VARIABLE, &marker)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        let mut stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let mut stderr_pipe = child.stderr.take().expect("stderr is piped");
        // The pipe threads are detached: each ends when its pipe closes, which killing the
        // process group guarantees; joining them could hang on a bot that escaped its group.
        let (input, inputs) = mpsc::sync_channel::<String>(1024);
        std::thread::spawn(move || {
            for text in inputs {
                if stdin.write_all(text.as_bytes()).and_then(|_| stdin.flush()).is_err() {
                    break; // the bot closed its input: it is gone; the reader side notices
                }
            }
        });

        let (line_tx, lines) = mpsc::sync_channel::<OutputLine>(LINE_BUFFER);
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match read_capped_line(&mut reader, &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(length) => {
                        while buf.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
                            buf.pop();
                        }
                        if line_tx.send(OutputLine::from_bytes(&buf, length)).is_err() {
                            break;
                        }
                    }
                }
            }
        });

        let stderr = std::sync::Arc::new(std::sync::Mutex::new(CappedText::new(stderr_limit)));
        let sink = stderr.clone();
        let (drained, stderr_drained) = std::sync::mpsc::channel::<()>();
        std::thread::spawn(move || {
            let mut chunk = [0u8; 8192];
            while let Ok(n) = stderr_pipe.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                if let Ok(mut kept) = sink.lock() {
                    kept.push(&chunk[..n]);
                }
            }
            // The pipe is closed (every process holding it is gone): all it held is kept.
            let _ = drained.send(());
        });

        Ok(ProcessBot {
            child,
            marker,
            input: Some(input),
            lines,
            stderr,
            stderr_drained: std::sync::Mutex::new(Some(stderr_drained)),
            answered: false,
            gone: false,
            stopped: false,
        })
    }

    /// Kills the bot and every process it started, and reaps the child (once). Those are its
    /// tree (parent links in `/proc`) and, for a process that left the tree (daemonised:
    /// re-parented to init or a subreaper, in a session of its own), every process whose
    /// environment holds the bot's marker. This needs no privilege, cgroup or namespace, so it
    /// holds on a CI runner as here; only a process that clears its environment *and* leaves
    /// the tree escapes it.
    fn stop(&mut self) {
        if self.stopped {
            return;
        }
        self.stopped = true;
        self.input = None;
        // Until none is found: a process that forked while a list was taken is caught the next
        // time. A process killed stays listed until the kernel runs it to its exit, which on a
        // loaded machine takes a while (four rounds at once once let a daemon's fork through at
        // load 18), so the rounds go on, a little apart, for up to 5 s.
        // "None found" must hold for [`EMPTY_ROUNDS`] rounds in a row: a process in the middle
        // of `execve` (a daemon's `setsid` becoming `sleep`) shows an empty environment for that
        // moment, and once re-parented it is in no tree either (one such sleep outlived its bot
        // in a CI run).
        let started = Instant::now();
        let mut empty_rounds = 0;
        loop {
            let pids = bot_processes(self.child.id(), &self.marker);
            if started.elapsed() > KILL_ROUNDS_LIMIT {
                break;
            }
            if pids.is_empty() {
                empty_rounds += 1;
                if empty_rounds >= EMPTY_ROUNDS {
                    break;
                }
                std::thread::sleep(Duration::from_millis(2));
                continue;
            }
            empty_rounds = 0;
            let pids: Vec<String> = pids.iter().map(|p| p.to_string()).collect();
            let _ = Command::new("kill")
                .arg("-KILL")
                .args(&pids)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status();
            std::thread::sleep(Duration::from_millis(1));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// How long [`ProcessBot`]'s stop keeps killing the bot's processes until none is left.
const KILL_ROUNDS_LIMIT: Duration = Duration::from_secs(5);

/// How many rounds in a row [`ProcessBot`]'s stop must find no process before it ends.
const EMPTY_ROUNDS: u32 = 3;

/// The environment variable that marks a bot's processes: `<arena pid>-<bot serial>`.
pub const MARKER_VARIABLE: &str = "TWINSIM_BOT";

/// The live (not zombie) processes of a bot: `root` and its descendants, from the parent links
/// in `/proc`, and every process whose environment holds `TWINSIM_BOT=<marker>`.
fn bot_processes(root: u32, marker: &str) -> Vec<u32> {
    let entry = format!("{MARKER_VARIABLE}={marker}");
    let mut parents: Vec<(u32, u32)> = Vec::new();
    let mut marked = Vec::new();
    if let Ok(entries) = std::fs::read_dir("/proc") {
        for entry_dir in entries.flatten() {
            let Some(pid) = entry_dir.file_name().to_str().and_then(|n| n.parse::<u32>().ok())
            else {
                continue;
            };
            // /proc/<pid>/stat: "pid (comm) state ppid ..."; comm may hold spaces or ')'.
            if let Ok(stat) = std::fs::read_to_string(entry_dir.path().join("stat")) {
                if let Some(rest) = stat.rfind(')').map(|i| &stat[i + 1..]) {
                    let mut fields = rest.split_whitespace();
                    let state = fields.next();
                    if let (Some(ppid), false) =
                        (fields.next().and_then(|p| p.parse().ok()), state == Some("Z"))
                    {
                        parents.push((pid, ppid));
                        // Another user's process is unreadable, and cannot be the bot's.
                        if std::fs::read(entry_dir.path().join("environ"))
                            .is_ok_and(|env| env.split(|&b| b == 0).any(|v| v == entry.as_bytes()))
                        {
                            marked.push(pid);
                        }
                    }
                }
            }
        }
    }
    let mut tree = vec![root];
    let mut i = 0;
    while i < tree.len() {
        let parent = tree[i];
        tree.extend(parents.iter().filter(|(_, pp)| *pp == parent).map(|(p, _)| *p));
        i += 1;
    }
    tree.retain(|p| parents.iter().any(|(q, _)| q == p));
    for pid in marked {
        if !tree.contains(&pid) {
            tree.push(pid);
        }
    }
    tree
}

/// One line read from a bot's stdout, with what was wrong with it.
struct OutputLine {
    text: String,
    flaw: Option<String>,
}

impl OutputLine {
    /// The line from its kept bytes; `length` is the whole line's length as read.
    fn from_bytes(kept: &[u8], length: usize) -> OutputLine {
        let (text, mut flaw) = match std::str::from_utf8(kept) {
            Ok(text) => (text.to_string(), None),
            Err(e) => (
                String::from_utf8_lossy(kept).into_owned(),
                Some(format!(
                    "not UTF-8: byte 0x{:02x} at offset {}",
                    kept[e.valid_up_to()],
                    e.valid_up_to()
                )),
            ),
        };
        if length > MAX_LINE {
            flaw = Some(format!(
                "flood: a line of {length} bytes or more, cut to {MAX_LINE} (no line break)"
            ));
        }
        OutputLine { text, flaw }
    }
}

/// Text kept up to a byte limit, counting what was dropped.
struct CappedText {
    kept: Vec<u8>,
    limit: usize,
    dropped: u64,
}

impl CappedText {
    fn new(limit: usize) -> Self {
        CappedText { kept: Vec::new(), limit, dropped: 0 }
    }

    fn push(&mut self, bytes: &[u8]) {
        let room = self.limit.saturating_sub(self.kept.len());
        let taken = bytes.len().min(room);
        self.kept.extend_from_slice(&bytes[..taken]);
        self.dropped += (bytes.len() - taken) as u64;
    }

    /// The kept text, with a marker line when some was dropped.
    fn text(&self) -> String {
        let mut text = String::from_utf8_lossy(&self.kept).into_owned();
        if self.dropped > 0 {
            if !text.ends_with('\n') {
                text.push('\n');
            }
            text.push_str(&format!(
                "[twinsim: stderr cut at {} bytes; {} more bytes dropped (--stderr-limit)]\n",
                self.limit, self.dropped
            ));
        }
        text
    }

    /// The last non-empty line of the kept text, cut to a readable length.
    fn last_line(&self) -> Option<String> {
        let text = String::from_utf8_lossy(&self.kept);
        let line = text.lines().rev().find(|l| !l.trim().is_empty())?;
        Some(line.chars().take(200).collect())
    }
}

/// Reads one line into `buf`, keeping at most [`MAX_LINE`] bytes of it.
fn read_capped_line(reader: &mut impl BufRead, buf: &mut Vec<u8>) -> std::io::Result<usize> {
    let mut total = 0;
    loop {
        let available = reader.fill_buf()?;
        if available.is_empty() {
            return Ok(total);
        }
        let (used, done) = match available.iter().position(|b| *b == b'\n') {
            Some(i) => (i + 1, true),
            None => (available.len(), false),
        };
        let room = MAX_LINE.saturating_sub(buf.len());
        buf.extend_from_slice(&available[..used.min(room)]);
        reader.consume(used);
        total += used;
        if done {
            return Ok(total);
        }
    }
}

impl Bot for ProcessBot {
    fn send(&mut self, input: &str, _play: &dyn ArenaPlay, _player: PlayerId, _deadline: Instant) {
        if let Some(tx) = &self.input {
            let _ = tx.try_send(format!("{input}\n"));
        }
    }

    fn receive(&mut self, deadline: Instant) -> Answer {
        if self.gone {
            return Answer::Gone;
        }
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(OutputLine { text, flaw }) => {
                self.answered = true;
                match flaw {
                    None => Answer::Line(text),
                    Some(flaw) => Answer::Flawed { line: text, flaw },
                }
            }
            Err(RecvTimeoutError::Timeout) => Answer::Timeout,
            Err(RecvTimeoutError::Disconnected) => {
                self.gone = true;
                Answer::Gone
            }
        }
    }

    fn finish(&mut self, final_input: Option<&str>) {
        if let (Some(text), Some(tx)) = (final_input, &self.input) {
            let _ = tx.try_send(format!("{text}\n"));
        }
        self.stop();
    }

    fn stderr(&self) -> String {
        // Once the bot is stopped its stderr pipe closes, but the reading thread may not have
        // read the last bytes yet (a bot that writes to stderr just before its answer is killed
        // right after it): wait for the end of the pipe, briefly, so the file holds them.
        if self.stopped {
            let mut pending = self.stderr_drained.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(drained) = pending.take() {
                let _ = drained.recv_timeout(STDERR_DRAIN_WAIT);
            }
        }
        self.stderr.lock().map(|b| b.text()).unwrap_or_default()
    }

    fn exit_report(&mut self) -> Option<ExitReport> {
        // The output closed; the exit follows at once unless the bot closed stdout and lives on.
        let waited = Instant::now();
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if waited.elapsed() < EXIT_WAIT => {
                    std::thread::sleep(std::time::Duration::from_millis(2))
                }
                _ => break None,
            }
        };
        // The stderr thread may still be draining the last bytes.
        std::thread::sleep(std::time::Duration::from_millis(5));
        let last = self.stderr.lock().ok().and_then(|t| t.last_line());
        let code = status.and_then(|s| s.code());
        let how = match (status, code) {
            (None, _) => "closed its output".to_string(),
            (Some(_), Some(c)) => format!("exited with status {c}"),
            (Some(s), None) => {
                use std::os::unix::process::ExitStatusExt;
                format!("killed by signal {}", s.signal().unwrap_or(0))
            }
        };
        let not_started = !self.answered && matches!(code, Some(126 | 127));
        let description = match last {
            Some(line) => format!("{how}; stderr: {line}"),
            None => how,
        };
        Some(ExitReport { not_started, description })
    }
}

/// How long the arena waits, once a bot is stopped, for the end of its stderr pipe (a process
/// it started that escaped the kill could hold the pipe open for ever).
const STDERR_DRAIN_WAIT: std::time::Duration = std::time::Duration::from_millis(500);

/// How long a bot whose output closed is given to exit, for its status to be read.
const EXIT_WAIT: std::time::Duration = std::time::Duration::from_millis(200);

impl Drop for ProcessBot {
    fn drop(&mut self) {
        self.stop();
    }
}

/// `builtin:random`: a uniformly random legal line.
pub struct RandomBot {
    rng: JavaRandom,
    answer: Option<String>,
}

impl RandomBot {
    /// A uniformly random legal player, its choices seeded by `seed`.
    pub fn new(seed: i64) -> Self {
        RandomBot { rng: JavaRandom::new(seed), answer: None }
    }
}

impl Bot for RandomBot {
    fn send(&mut self, _input: &str, play: &dyn ArenaPlay, player: PlayerId, _deadline: Instant) {
        let lines = play.legal_lines(player);
        self.answer = if lines.is_empty() {
            None
        } else {
            Some(lines[self.rng.next_below(lines.len() as i32) as usize].clone())
        };
    }

    fn receive(&mut self, _deadline: Instant) -> Answer {
        self.answer.take().map_or(Answer::Timeout, Answer::Line)
    }

    fn finish(&mut self, _final_input: Option<&str>) {}

    fn on_the_clock(&self) -> bool {
        false
    }
}

/// `builtin:greedy`: one ply of lookahead on the engine's typed state, scored by the game's
/// typed evaluation (see [`ArenaPlay::greedy_line`]); ties are broken at random.
pub struct GreedyBot {
    rng: SearchRng,
    answer: Option<String>,
}

impl GreedyBot {
    /// A one-ply greedy player, its ties broken by `seed`.
    pub fn new(seed: i64) -> Self {
        GreedyBot { rng: SearchRng::new(seed), answer: None }
    }
}

impl Bot for GreedyBot {
    fn send(&mut self, _input: &str, play: &dyn ArenaPlay, player: PlayerId, _deadline: Instant) {
        self.answer = play.greedy_line(player, &mut self.rng);
    }

    fn receive(&mut self, _deadline: Instant) -> Answer {
        self.answer.take().map_or(Answer::Timeout, Answer::Line)
    }

    fn finish(&mut self, _final_input: Option<&str>) {}

    fn on_the_clock(&self) -> bool {
        false
    }
}

/// `builtin:<search>`: a search bot ([`ViewPlayer`]) that sees only its seat's input text. It
/// thinks inside `send`, against the deadline it is given, so the arena's clock (started before
/// `send`) counts all of its time.
pub struct SearchBot {
    player: Box<dyn ViewPlayer>,
    answer: Option<String>,
    answered_at: Option<Instant>,
    /// When the answer last handed to the arena (or declared late) was computed.
    last_answered_at: Option<Instant>,
}

impl SearchBot {
    /// The arena's seat for a search bot that plays from its views.
    pub fn new(player: Box<dyn ViewPlayer>) -> Self {
        SearchBot { player, answer: None, answered_at: None, last_answered_at: None }
    }
}

impl Bot for SearchBot {
    fn send(&mut self, input: &str, _play: &dyn ArenaPlay, _player: PlayerId, deadline: Instant) {
        self.answer = self.player.play(input, deadline);
        self.answered_at = Some(Instant::now());
    }

    fn receive(&mut self, deadline: Instant) -> Answer {
        // An answer computed past the deadline is a timeout, as for a process. The time is taken
        // when `play` returned: in a simultaneous game the other seats' built-in bots compute
        // between this bot's `send` and `receive`, and that is not this bot's time.
        self.last_answered_at = self.answered_at.take();
        if self.last_answered_at.is_none_or(|t| t > deadline) {
            self.answer = None;
            return Answer::Timeout;
        }
        self.answer.take().map_or(Answer::Timeout, Answer::Line)
    }

    fn finish(&mut self, _final_input: Option<&str>) {}

    fn search_stats(&self) -> (u64, u64) {
        let s = self.player.stats();
        (s.moves, s.iterations)
    }

    fn answer_ready_at(&self) -> Option<Instant> {
        self.last_answered_at
    }
}
