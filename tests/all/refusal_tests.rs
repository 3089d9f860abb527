//! Typed refusals (`TracePlay::refusals`): who the referee refused in a turn and why, from each
//! engine's typed rules result. Checked against the official referee's own event texts on the
//! shipped traces (the text is read here, as an independent oracle, and nowhere in the tools),
//! on hand-made turns per game (a malformed line, an illegal one, no answer), and by a grep that
//! keeps the arena from reading event text again.

use serde_json::Value;
use std::path::Path;
use twinsim_reference::game::{TraceEngine, TracePlay};
use twinsim_reference::registry::GameId;
use twinsim_reference::trace::{parse_jsonl, Refusal, RefusalKind};

/// Both engines of `game`.
fn engines(game: GameId) -> [&'static dyn TraceEngine; 2] {
    let pair = match game {
        GameId::XmasRush => {
            (twinsim_reference::xmas_rush::engine(), twinsim_fast::xmas_rush::engine())
        }
        GameId::Photosynthesis => {
            (twinsim_reference::photosynthesis::engine(), twinsim_fast::photosynthesis::engine())
        }
        GameId::Zuniq => (twinsim_reference::zuniq::engine(), twinsim_fast::zuniq::engine()),
        GameId::Olymbits => {
            (twinsim_reference::olymbits::engine(), twinsim_fast::olymbits::engine())
        }
        GameId::WondevWoman => {
            (twinsim_reference::wondev_woman::engine(), twinsim_fast::wondev_woman::engine())
        }
    };
    [pair.0.expect("reference engine"), pair.1.expect("fast engine")]
}

/// `$<seat>` at the start of `text`, and what follows it.
fn seat_prefix(text: &str) -> Option<(usize, &str)> {
    let rest = text.strip_prefix('$')?;
    let digits = rest.find(|c: char| !c.is_ascii_digit())?;
    Some((rest[..digits].parse().ok()?, &rest[digits..]))
}

/// The oracle: the refusals the referee's event texts of one turn show, in each game's words
/// (rules docs: X-mas Rush §5/§7.2/§8, Photosynthesis §13a, Zuniq §8, Olymbits §11.5, Wondev
/// Woman §13.1), the first of each seat.
fn refusals_in_events(game: GameId, events: &[Value]) -> Vec<Refusal> {
    let mut out = Vec::new();
    for event in events {
        let text = event.as_str().unwrap_or_default();
        let found = match game {
            GameId::XmasRush => seat_prefix(text).and_then(|(seat, rest)| {
                let wall = ["UP", "DOWN", "LEFT", "RIGHT"]
                    .iter()
                    .any(|d| rest == format!(": invalid input - MOVE {d}"));
                let kind = if rest.starts_with(": timeout") {
                    RefusalKind::Timeout
                } else if wall {
                    RefusalKind::Illegal
                } else if rest.starts_with(": invalid input - ") {
                    RefusalKind::Invalid
                } else {
                    return None;
                };
                Some(Refusal::new(seat, kind, text))
            }),
            GameId::Photosynthesis => {
                let plain = text.replace("¤RED¤", "").replace("§RED§", "");
                seat_prefix(&plain).and_then(|(seat, rest)| {
                    let kind = if rest.starts_with(" provided invalid input") {
                        RefusalKind::Invalid
                    } else if rest.starts_with(" has not provided an action in time") {
                        RefusalKind::Timeout
                    } else if rest.starts_with(": ") {
                        RefusalKind::Illegal
                    } else {
                        return None;
                    };
                    Some(Refusal::new(seat, kind, plain.clone()))
                })
            }
            GameId::Zuniq => text.strip_prefix("invalid action by player ").and_then(|rest| {
                let (seat, code) = rest.split_once(": ")?;
                let kind = match code {
                    "timeout" => RefusalKind::Timeout,
                    "malformed" => RefusalKind::Invalid,
                    _ => RefusalKind::Illegal,
                };
                Some(Refusal::new(seat.parse().ok()?, kind, text))
            }),
            GameId::Olymbits => {
                text.strip_prefix("Deactivated ").and_then(seat_prefix).map(|(seat, rest)| {
                    let kind = if rest == ": Timeout!" {
                        RefusalKind::Timeout
                    } else {
                        RefusalKind::Invalid
                    };
                    Refusal::new(seat, kind, text)
                })
            }
            GameId::WondevWoman => (event["type"] == "eliminated").then(|| {
                let code = event["reason_code"].as_str().unwrap_or_default();
                let kind = match code {
                    "selfDestruct" => RefusalKind::Resigned,
                    "Timeout" => RefusalKind::Timeout,
                    "InvalidInput" | "InvalidCommand" => RefusalKind::Invalid,
                    _ => RefusalKind::Illegal,
                };
                let seat = event["player"].as_u64().unwrap_or(u64::MAX) as usize;
                let message = event["message"].as_str().unwrap_or_default();
                Refusal::new(seat, kind, format!("{code}: {message}"))
            }),
        };
        if let Some(refusal) = found {
            if out.iter().all(|r: &Refusal| r.seat != refusal.seat) {
                out.push(refusal);
            }
        }
    }
    out
}

/// Words of each game's refusal events, to pick the trace games that have some.
const MARKERS: [&str; 8] = [
    "invalid input",
    "timeout",
    "not provided",
    "Deactivated",
    "invalid action",
    "eliminated",
    "\"$0: ",
    "\"$1: ",
];

/// At most this many games per trace file (those with refusals), to keep the debug test short.
const GAMES_PER_FILE: usize = 6;

/// On the referee's own games, both engines report, turn by turn, exactly the refusals that the
/// referee's event texts show.
#[test]
fn both_engines_report_the_refusals_the_referee_wrote() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/traces");
    for game in GameId::ALL {
        let text = std::fs::read_to_string(root.join(format!("{}.jsonl", game.name()))).unwrap();
        let lines: Vec<&str> = text
            .lines()
            .filter(|line| MARKERS.iter().any(|m| line.contains(m)))
            .take(GAMES_PER_FILE)
            .collect();
        let records = parse_jsonl(&lines.join("\n")).expect("trace lines");
        let mut refused = 0;
        for record in &records {
            for engine in engines(game) {
                let mut play = engine.setup(record.seed, &record.params).expect("setup");
                assert!(play.refusals().is_empty(), "{game:?}: refusals before any turn");
                for (n, turn) in record.turns.iter().enumerate() {
                    play.play_turn(&turn.actions).expect("the turn resolves");
                    let events = serde_json::json!(turn.record.events);
                    let expected = refusals_in_events(game, events.as_array().unwrap());
                    let context = format!(
                        "{} {:?} engine, seed {:?}, turn {}",
                        game.name(),
                        engine.kind(),
                        record.seed,
                        n + 1
                    );
                    assert_eq!(play.refusals(), expected, "{context}");
                    refused += expected.len();
                }
            }
        }
        assert!(refused > 0, "{game:?}: no refusal in {} trace games", records.len());
    }
}

/// A random line for `seat`: mostly its own legal lines, sometimes another seat's, sometimes a
/// legal line with one number changed (well-formed, often illegal), rarely garbage or nothing.
fn random_line(play: &dyn TracePlay, seat: usize, rng: &mut u64) -> Option<String> {
    let mut next = |n: usize| {
        *rng ^= *rng << 13;
        *rng ^= *rng >> 7;
        *rng ^= *rng << 17;
        (*rng % n.max(1) as u64) as usize
    };
    let players = play.num_players();
    let from = if next(5) == 0 { next(players) } else { seat };
    let legal = play.legal_lines(from);
    let mut line = legal.get(next(legal.len())).cloned().unwrap_or_else(|| "WAIT".into());
    match next(20) {
        0 => return None,
        1 => line = "NONSENSE 1 2".into(),
        2..=7 => {
            let mut words: Vec<String> = line.split(' ').map(str::to_string).collect();
            let numbers: Vec<usize> =
                (0..words.len()).filter(|&i| words[i].parse::<u32>().is_ok()).collect();
            if !numbers.is_empty() {
                let i = numbers[next(numbers.len())];
                words[i] = next(40).to_string();
                line = words.join(" ");
            }
        }
        _ => {}
    }
    Some(line)
}

/// On random games with refused answers mixed in, each engine's typed refusals are those its
/// own event texts show, and the twins agree.
#[test]
fn random_games_report_the_refusals_their_events_show() {
    let mut rng = 0x9E37_79B9_7F4A_7C15_u64;
    for game in GameId::ALL {
        let mut refused = 0;
        for seed in 1..=12 {
            let [reference, fast] = engines(game);
            let params = serde_json::json!({});
            let mut a = reference.setup(Some(seed), &params).unwrap();
            let mut b = fast.setup(Some(seed), &params).unwrap();
            let alternating =
                game.info().turns == twinsim_reference::game::TurnStructure::Alternating;
            for turn in 1..=400 {
                if a.is_over() {
                    break;
                }
                let acting = a.players_to_act();
                let mut actions = vec![None; a.num_players()];
                for &p in &acting {
                    actions[p] = random_line(a.as_ref(), p, &mut rng);
                }
                if alternating {
                    actions = vec![actions[acting[0]].clone()];
                }
                a.play_turn(&actions).unwrap();
                b.play_turn(&actions).unwrap();
                let events = serde_json::json!(a.turn_record().events);
                let expected = refusals_in_events(game, events.as_array().unwrap());
                let context = format!("{} seed {seed} turn {turn}: {actions:?}", game.name());
                assert_eq!(a.refusals(), expected, "{context}");
                assert_eq!(b.refusals(), expected, "{context}");
                refused += expected.len();
            }
        }
        assert!(refused > 0, "{game:?}: no refusal in the random games");
    }
}

/// Plays `turns` from a fresh game of `game` (seed 1, top league) on `engine`; returns the
/// refusals of the last turn.
fn refusals_after(engine: &dyn TraceEngine, turns: &[Vec<Option<&str>>]) -> Vec<Refusal> {
    let mut play: Box<dyn TracePlay> = engine.setup(Some(1), &serde_json::json!({})).unwrap();
    for actions in turns {
        let actions: Vec<Option<String>> = actions.iter().map(|a| a.map(str::to_string)).collect();
        play.play_turn(&actions).expect("the turn resolves");
    }
    play.refusals()
}

/// The seats and kinds of `refusals`.
fn kinds(refusals: &[Refusal]) -> Vec<(usize, RefusalKind)> {
    refusals.iter().map(|r| (r.seat, r.kind)).collect()
}

#[test]
fn each_game_reports_a_malformed_line_an_illegal_one_and_no_answer() {
    use RefusalKind::*;
    for engine in engines(GameId::XmasRush) {
        let refused = refusals_after(engine, &[vec![Some("WAIT"), None]]);
        assert_eq!(kinds(&refused), [(0, Invalid), (1, Timeout)]);
        assert!(refused[0].message.starts_with("$0: invalid input - "), "{refused:?}");
        // After a push turn, single steps each way: those into a wall or off the board are
        // refused (illegal, not fatal), the others not.
        let mut walls = 0;
        for (up, down) in [("UP", "DOWN"), ("DOWN", "UP"), ("LEFT", "RIGHT"), ("RIGHT", "LEFT")] {
            let (mine, theirs) = (format!("MOVE {up}"), format!("MOVE {down}"));
            let turns = [
                vec![Some("PUSH 3 UP"), Some("PUSH 3 UP")],
                vec![Some(mine.as_str()), Some(theirs.as_str())],
            ];
            for refusal in refusals_after(engine, &turns) {
                assert_eq!(refusal.kind, Illegal, "{refusal:?}");
                let line = if refusal.seat == 0 { &mine } else { &theirs };
                assert_eq!(refusal.message, format!("${}: invalid input - {line}", refusal.seat));
                walls += 1;
            }
        }
        assert!(walls > 0, "no step of either player hit a wall");
    }
    for engine in engines(GameId::Photosynthesis) {
        let refused = refusals_after(engine, &[vec![Some("GROW 0"), Some("HELLO")]]);
        assert_eq!(kinds(&refused), [(1, Invalid), (0, Illegal)]);
        assert_eq!(refused[1].message, "$0: There is no tree on cell 0");
        let refused = refusals_after(engine, &[vec![None, Some("WAIT")]]);
        assert_eq!(kinds(&refused), [(0, Timeout)]);
    }
    for engine in engines(GameId::Zuniq) {
        assert_eq!(kinds(&refusals_after(engine, &[vec![Some("Z9")]])), [(0, Invalid)]);
        assert_eq!(kinds(&refusals_after(engine, &[vec![None]])), [(0, Timeout)]);
        let refused = refusals_after(engine, &[vec![Some("A1h")], vec![Some("A1h")]]);
        assert_eq!(kinds(&refused), [(1, Illegal)]);
        assert_eq!(refused[0].message, "invalid action by player 1: occupied");
        assert!(refusals_after(engine, &[vec![Some("A1h")]]).is_empty());
    }
    for engine in engines(GameId::Olymbits) {
        let refused = refusals_after(engine, &[vec![Some("UPLEFT"), None, Some("UP")]]);
        assert_eq!(kinds(&refused), [(0, Invalid), (1, Timeout)]);
        assert_eq!(
            refused[0].message,
            "Deactivated $0: Invalid Input: Expected UP | DOWN | LEFT | RIGHT but got 'UPLEFT'"
        );
    }
    for engine in engines(GameId::WondevWoman) {
        assert_eq!(kinds(&refusals_after(engine, &[vec![Some("HELLO")]])), [(0, Invalid)]);
        assert_eq!(kinds(&refusals_after(engine, &[vec![None]])), [(0, Timeout)]);
        let resigned = refusals_after(engine, &[vec![Some("ACCEPT-DEFEAT")]]);
        assert_eq!(kinds(&resigned), [(0, Resigned)]);
        // A well-formed move of unit 0 that is not among its legal actions.
        let play = engine.setup(Some(1), &serde_json::json!({})).unwrap();
        let legal = play.legal_lines(0);
        let directions = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];
        let illegal = directions
            .iter()
            .flat_map(|a| directions.iter().map(move |b| format!("MOVE&BUILD 0 {a} {b}")))
            .find(|line| !legal.contains(line))
            .expect("some move of unit 0 is illegal");
        let refused = refusals_after(engine, &[vec![Some(&illegal)]]);
        assert_eq!(kinds(&refused), [(0, Illegal)], "{illegal}: {refused:?}");
    }
}

/// The arena learns who was refused from the typed refusals only: no source file of the arena
/// reads a turn record's events.
#[test]
fn the_arena_reads_no_event_text() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("arena/src");
    let needle = format!("\"{}\"", "events");
    let mut read = 0;
    for entry in std::fs::read_dir(&src).expect("arena/src") {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            assert!(!text.contains(&needle), "{} reads events", path.display());
            read += 1;
        }
    }
    assert!(read >= 5, "only {read} files under {}", src.display());
}
