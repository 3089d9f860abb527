//! The results schema: one finished game ([`GameResult`], a `results.jsonl` line) and one bot's
//! totals over a run ([`BotSummary`], the `bots` list of `twinsim arena --json`, of Python's
//! `twinsim.arena` and of the distributed tournament). Both derive serde: the CLI, the viewer and
//! the Python binding write and read them through these types only.

use crate::stats::{Interval, Rating};
use crate::times;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The kinds of misbehaviour counted per bot, by their key in `results.jsonl` and JSON output.
pub const PROBLEM_KINDS: [&str; 4] = ["invalid", "timeout", "crash", "not_started"];

/// What one finished game says, per seat and per bot: one line of `results.jsonl`.
///
/// Lines written by older versions still read: the per-seat fields added since (`invalid`,
/// `not_started`, `problems`, `illegal`, `moves`, `iterations`, `answer_us`) read as none, and
/// the viewer's lenient fields (`reason`, `timeouts`, `crashed`) may be missing too. `answer_ms`
/// (each seat's [`times::Summary`] in milliseconds, `null` for
/// a seat not timed) is derived from `answer_us` when written and ignored when read.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct GameResult {
    /// Index of the game in the run (seed index × seats + rotation).
    pub index: usize,
    /// The game seed.
    pub seed: i64,
    /// `seats[s]` = index of the bot that played seat `s`.
    pub seats: Vec<usize>,
    /// Final score of each seat (the outcome's `scores`).
    pub scores: Vec<f64>,
    /// 1-based rank of each seat.
    pub ranks: Vec<usize>,
    /// Why the game ended (the outcome's `reason`).
    #[serde(default)]
    pub reason: String,
    /// Turns played.
    pub turns: usize,
    /// Unanswered requests (timeouts) of each seat.
    #[serde(default)]
    pub timeouts: Vec<usize>,
    /// Whether each seat's process exited or crashed before the end (not counting a command
    /// that could not be started).
    #[serde(default)]
    pub crashed: Vec<bool>,
    /// Answers of each seat that the referee refused or that were not a proper line: malformed,
    /// illegal, not UTF-8, or a flood (a line over 64 KiB).
    #[serde(default)]
    pub invalid: Vec<usize>,
    /// Whether each seat's command could not be started (shell status 126 or 127 before any
    /// output).
    #[serde(default)]
    pub not_started: Vec<bool>,
    /// The first reason of each kind of problem of each seat (keys from [`PROBLEM_KINDS`]),
    /// e.g. `turn 3: Deactivated $0: Invalid Input: ...`.
    #[serde(default)]
    pub problems: Vec<BTreeMap<String, String>>,
    /// Answers of each seat's search bot (0 for other bots).
    #[serde(default)]
    pub moves: Vec<u64>,
    /// Search iterations of each seat over the game (0 for other bots).
    #[serde(default)]
    pub iterations: Vec<u64>,
    /// Illegal answers of each seat's search bot (0 for other bots): a line not among the
    /// engine's legal lines, or for an X-mas Rush MOVE (any walkable path is legal) one the
    /// referee's events refuse.
    #[serde(default)]
    pub illegal: Vec<usize>,
    /// Each seat's answer times in microseconds, in turn order ([`times`]: process and search
    /// bots; none for `builtin:random` and `builtin:greedy`, and none in older results files).
    #[serde(default)]
    pub answer_us: Vec<Vec<u32>>,
}

impl Serialize for GameResult {
    /// The `results.jsonl` line: every field, plus `answer_ms` derived from `answer_us`, keys
    /// in alphabetical order (the order results files have always had).
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let answer_ms: Vec<Option<times::Summary>> =
            self.answer_us.iter().map(|t| times::Summary::of(t)).collect();
        let mut line = serializer.serialize_struct("GameResult", 17)?;
        line.serialize_field("answer_ms", &answer_ms)?;
        line.serialize_field("answer_us", &self.answer_us)?;
        line.serialize_field("crashed", &self.crashed)?;
        line.serialize_field("illegal", &self.illegal)?;
        line.serialize_field("index", &self.index)?;
        line.serialize_field("invalid", &self.invalid)?;
        line.serialize_field("iterations", &self.iterations)?;
        line.serialize_field("moves", &self.moves)?;
        line.serialize_field("not_started", &self.not_started)?;
        line.serialize_field("problems", &self.problems)?;
        line.serialize_field("ranks", &self.ranks)?;
        line.serialize_field("reason", &self.reason)?;
        line.serialize_field("scores", &self.scores)?;
        line.serialize_field("seats", &self.seats)?;
        line.serialize_field("seed", &self.seed)?;
        line.serialize_field("timeouts", &self.timeouts)?;
        line.serialize_field("turns", &self.turns)?;
        line.end()
    }
}

impl GameResult {
    /// The result as one `results.jsonl` line (no newline; fields documented in the README).
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).expect("a result serializes")
    }

    /// Reads a `results.jsonl` line back, older lines too: every per-seat list a line lacks
    /// reads as one default entry per seat. `None` for a line that is not a result.
    pub fn from_line(line: &str) -> Option<GameResult> {
        serde_json::from_str::<GameResult>(line).ok().map(GameResult::with_every_seat)
    }

    /// Reads a result from JSON already parsed (as [`GameResult::from_line`]).
    pub fn from_json(value: &serde_json::Value) -> Option<GameResult> {
        GameResult::deserialize(value).ok().map(GameResult::with_every_seat)
    }

    /// The result with every per-seat list one entry per seat (lists an older line lacked were
    /// read empty; a list of another length is left as it is).
    fn with_every_seat(mut self) -> GameResult {
        let n = self.seats.len();
        fn fill<T: Clone>(list: &mut Vec<T>, n: usize, default: T) {
            if list.is_empty() {
                *list = vec![default; n];
            }
        }
        fill(&mut self.timeouts, n, 0);
        fill(&mut self.crashed, n, false);
        fill(&mut self.invalid, n, 0);
        fill(&mut self.not_started, n, false);
        fill(&mut self.problems, n, BTreeMap::new());
        fill(&mut self.moves, n, 0);
        fill(&mut self.iterations, n, 0);
        fill(&mut self.illegal, n, 0);
        fill(&mut self.answer_us, n, Vec::new());
        self
    }
}

/// One bot's totals over a run, as every tool writes them (the `bots` list of `twinsim arena
/// --json`, of Python's `twinsim.arena` and `twinsim.distributed.tournament`): built by
/// [`crate::Standings::summaries`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BotSummary {
    /// The bot as given (`--bot`).
    pub bot: String,
    /// Games won (alone at the best rank).
    pub wins: usize,
    /// Games drawn (sharing the best rank).
    pub draws: usize,
    /// Games lost.
    pub losses: usize,
    /// Points per game (win 1, draw ½) with its 95% interval; `null` before any game.
    pub win_rate: Option<Interval>,
    /// Mean final score per game.
    pub average_score: f64,
    /// Answers refused or not a proper line (see [`GameResult::invalid`]).
    pub invalid: usize,
    /// Unanswered requests.
    pub timeouts: usize,
    /// Games in which the bot's process exited or crashed before the end.
    pub crashes: usize,
    /// Games whose bot command could not be started.
    pub not_started: usize,
    /// The first reason of each kind of problem (keys from [`PROBLEM_KINDS`]), in game order
    /// (`game 3, turn 5: ...`).
    pub first_problems: BTreeMap<String, String>,
    /// Search bots: answers not among the engine's legal ones.
    pub illegal: usize,
    /// Search bots: mean iterations per answer (`null` for other bots).
    pub iterations_per_move: Option<f64>,
    /// The OpenSkill (Weng-Lin) rating's conservative estimate, μ − 3σ (the table's `skill`).
    pub skill: f64,
    /// The OpenSkill rating itself.
    pub openskill: Rating,
    /// Answer times over the run in milliseconds (`null` for a bot not timed).
    pub answer_ms: Option<times::Summary>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line as the arena wrote it before misbehaviour, search counters and answer times were
    /// recorded reads, with every later per-seat list one default per seat.
    #[test]
    fn a_line_of_the_first_results_schema_reads() {
        let old = r#"{"crashed":[false,true],"index":3,"ranks":[1,2],"reason":"win","scores":[1.0,0.0],"seats":[1,0],"seed":-5,"timeouts":[0,2],"turns":17}"#;
        let read = GameResult::from_line(old).expect("an old line reads");
        assert_eq!((read.index, read.seed, read.turns), (3, -5, 17));
        assert_eq!(read.crashed, [false, true]);
        assert_eq!(read.invalid, [0, 0]);
        assert_eq!(read.not_started, [false, false]);
        assert_eq!(read.problems, [BTreeMap::new(), BTreeMap::new()]);
        assert_eq!(read.answer_us, [Vec::<u32>::new(), Vec::new()]);
        assert_eq!(GameResult::from_line(r#"{"index":3}"#), None, "not a result");
    }

    /// A line reads back as the result it was written from, with its keys in alphabetical order
    /// (the bytes results files have always had) and `answer_ms` derived.
    #[test]
    fn a_result_line_round_trips_with_its_keys_in_order() {
        let result = GameResult {
            index: 0,
            seed: 7,
            seats: vec![0, 1],
            scores: vec![2.0, 1.0],
            ranks: vec![1, 2],
            reason: "win".into(),
            turns: 3,
            timeouts: vec![0, 1],
            crashed: vec![false, false],
            invalid: vec![1, 0],
            not_started: vec![false, false],
            problems: vec![
                BTreeMap::from([("invalid".into(), "turn 2: X".into())]),
                BTreeMap::new(),
            ],
            moves: vec![2, 0],
            iterations: vec![40, 0],
            illegal: vec![0, 0],
            answer_us: vec![vec![1500, 2500], Vec::new()],
        };
        let line = result.to_line();
        assert_eq!(GameResult::from_line(&line), Some(result));
        let value: serde_json::Value = serde_json::from_str(&line).unwrap();
        let keys: Vec<&String> = value.as_object().unwrap().keys().collect();
        assert!(
            line.starts_with(
                r#"{"answer_ms":[{"answers":2,"max":2.5,"median":1.5,"p99":2.5},null],"answer_us""#
            ),
            "{line}"
        );
        let mut sorted = keys.clone();
        sorted.sort();
        assert_eq!(keys, sorted);
    }

    #[test]
    fn bot_totals_round_trip() {
        let mut totals = crate::BotTotals { wins: 3, ..Default::default() };
        totals.points.add(1.0);
        totals.points.add(0.0);
        totals.answer_times.add_all(&[1200]);
        let summary = totals.summary("builtin:random");
        let text = serde_json::to_string(&summary).unwrap();
        assert_eq!(serde_json::from_str::<BotSummary>(&text).unwrap(), summary);
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["win_rate"]["mean"], 0.5);
        assert_eq!(value["openskill"]["mu"], 25.0);
        assert_eq!(value["answer_ms"]["max"], 1.2);
    }
}
