//! Differential checks, fast vs reference, in library code so that each fuzz target is one line
//! and ordinary tests replay the committed regressions. Every check panics with a readable
//! state diff on the first difference.

use super::tables::N;
use super::{CompactMoves, LegalSets, State};
use twinsim_reference::game::Game;
use twinsim_reference::photosynthesis::{
    self as r, protocol, rules, Action, Answer, Params, Photosynthesis,
};

/// A readable diff of two reference states (empty: equal).
pub fn state_diff(want: &r::State, got: &r::State) -> String {
    let mut out = String::new();
    let mut field = |name: &str, a: String, b: String| {
        if a != b {
            out.push_str(&format!("  {name}: reference {a}, fast {b}\n"));
        }
    };
    field("day", want.day.to_string(), got.day.to_string());
    field("sun_direction", want.sun_direction.to_string(), got.sun_direction.to_string());
    field("nutrients", want.nutrients.to_string(), got.nutrients.to_string());
    field("players", format!("{:?}", want.players), format!("{:?}", got.players));
    for cell in 0..37 {
        field(
            &format!("tree on {cell}"),
            format!("{:?}", want.trees.get(&cell)),
            format!("{:?}", got.trees.get(&cell)),
        );
    }
    field("richness", format!("{:?}", want.richness), format!("{:?}", got.richness));
    field("shadows", format!("{:?}", want.shadows), format!("{:?}", got.shadows));
    field("rng", want.rng.state().to_string(), got.rng.state().to_string());
    field("game_over", want.game_over.to_string(), got.game_over.to_string());
    field("executions", want.executions.to_string(), got.executions.to_string());
    field("params", format!("{:?}", want.params), format!("{:?}", got.params));
    out
}

/// Panics with a readable diff unless `fast` equals `reference` (and its hash is right).
pub fn assert_same(reference: &r::State, fast: &State, context: &str) {
    let got = fast.to_reference();
    if *reference != got {
        let diff = state_diff(reference, &got);
        panic!("{context}: fast differs from reference:\n{diff}");
    }
    let kept = if fast.exact_views { 0 } else { fast.hash_from_scratch() };
    assert_eq!(fast.hash, kept, "{context}: incremental hash drifted");
    assert_eq!(State::from(reference), fast.synced(), "{context}: From<&reference> differs");
}

/// Reads bytes as a little stream (zeros after the end).
struct Bytes<'a> {
    data: &'a [u8],
    at: usize,
}

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        let b = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }
    fn done(&self) -> bool {
        self.at >= self.data.len()
    }
    /// The seed (eight bytes, big-endian) and the league (one byte) a game starts from.
    fn game_start(&mut self) -> (i64, Params) {
        let mut seed = 0i64;
        for _ in 0..8 {
            seed = seed << 8 | self.byte() as i64;
        }
        let league = [3u8, 3, 3, 2, 1, 4][self.byte() as usize % 6];
        (seed, Params { league_level: league })
    }
}

/// One player's answer from a byte: mostly a legal action (`byte % legal.len()`), sometimes an
/// arbitrary (often illegal) action, a malformed line or a timeout.
fn answer(bytes: &mut Bytes, legal: &[Action]) -> Answer {
    let b = bytes.byte();
    match b {
        250 => Answer::Malformed { got: "GROW x".into() },
        251 => Answer::Timeout,
        252 => Answer::Action(Action::Grow(bytes.byte() as i32 % 40)),
        253 => Answer::Action(Action::Complete(bytes.byte() as i32 % 40)),
        254 | 255 => {
            Answer::Action(Action::Seed(bytes.byte() as i32 % 40, bytes.byte() as i32 % 40))
        }
        _ => Answer::Action(legal[b as usize % legal.len()]),
    }
}

/// The actions [`State::legal_sets`] allows, sorted.
pub fn actions_of_sets(state: &State, sets: LegalSets) -> Vec<Action> {
    let cells = |set: u64| (0..N).filter(move |c| set >> c & 1 == 1);
    let mut actions = Vec::new();
    if sets.asked {
        actions.push(Action::Wait);
    }
    actions.extend(cells(sets.complete).map(|c| Action::Complete(c as i32)));
    actions.extend(cells(sets.grow).map(|c| Action::Grow(c as i32)));
    for source in cells(sets.seed_sources) {
        let targets = cells(state.seed_targets(source, sets.free));
        actions.extend(targets.map(|t| Action::Seed(source as i32, t as i32)));
    }
    sorted(actions)
}

fn sorted(mut actions: Vec<Action>) -> Vec<Action> {
    actions.sort_by_key(|a| a.to_string());
    actions
}

#[allow(clippy::needless_range_loop)]
/// Whole games from fuzzer bytes: seed and league from the first bytes, then joint answers
/// until the bytes or the game end. After every step: states, legal lists (pre-shuffle order,
/// and as sets: [`State::legal_sets`]), views, events, hash and outcome must agree (the fast state's views rendered with its
/// shuffle draws pending, which it makes in place only now and then).
pub fn game_diff(data: &[u8]) {
    let mut bytes = Bytes { data, at: 0 };
    let (seed, params) = bytes.game_start();
    let (mut rs, revents) = r::setup::new_game(seed, params);
    let mut fevents = vec![];
    let mut fs = State::new_game(seed, params, Some(&mut fevents));
    assert_eq!(revents, fevents, "setup events");
    assert_same(&rs, &fs, "setup");
    let mut list = CompactMoves::default();
    let mut turn = 0;
    while !rs.game_over && !bytes.done() {
        turn += 1;
        let mut answers: [Option<Answer>; 2] = [None, None];
        for p in 0..2 {
            let legal = Photosynthesis::legal_actions(&rs, p);
            fs.legal_moves(p, &mut list);
            let fast: Vec<Action> = list.as_slice().iter().map(|m| m.action()).collect();
            assert_eq!(legal, fast, "turn {turn}: legal list of player {p}");
            assert_eq!(
                actions_of_sets(&fs, fs.legal_sets(p)),
                sorted(legal.clone()),
                "turn {turn}: legal sets of player {p}"
            );
            let counts = fs.group_counts(p);
            let groups = rules::possible_action_groups(&rs, p);
            if rs.is_asked(p) {
                assert_eq!(
                    counts.map(|c| c as usize),
                    groups.clone().map(|g| g.len()),
                    "turn {turn}: group sizes"
                );
                answers[p] = Some(answer(&mut bytes, &legal));
            }
        }
        assert_eq!(protocol::view_texts(&rs), super::engine::view_texts(&fs), "turn {turn}: views");
        let mut fevents = vec![];
        let revents = rules::play_turn(&mut rs, &answers);
        // Both text-level entry points: the one that counts the groups itself and the one
        // given them; now and then the views are brought up to date in place.
        let fresult = if turn % 3 == 1 {
            let counts = [fs.group_counts(0), fs.group_counts(1)];
            fs.play_turn_counted(&answers, counts, Some(&mut fevents))
        } else {
            fs.play_turn(&answers, Some(&mut fevents))
        };
        if turn % 7 == 0 {
            fs.sync_views();
        }
        assert_eq!(revents.as_ref().err(), fresult.as_ref().err(), "turn {turn}: step result");
        assert_eq!(revents.unwrap_or_default(), fevents, "turn {turn}: events");
        assert_same(&rs, &fs, &format!("turn {turn}"));
        assert_eq!(rules::sun_income(&rs), fs.sun_income(), "turn {turn}: sun income");
        assert_eq!(rules::outcome(&rs), fs.outcome(), "turn {turn}: outcome");
    }
}

/// Sun income and shadows over arbitrary boards (not only reachable ones): each byte pair puts
/// a tree (size, owner, dormancy) on a cell; the last byte picks the sun direction.
pub fn shadow_diff(data: &[u8]) {
    let mut s = r::State::blank(0, Params::default());
    for pair in data.chunks(2) {
        let cell = pair[0] as usize % 37;
        let info = pair.get(1).copied().unwrap_or(0);
        s.trees.insert(
            cell,
            r::Tree { size: info % 4, owner: (info >> 2) as usize & 1, dormant: info & 8 != 0 },
        );
    }
    s.sun_direction = data.last().copied().unwrap_or(0) as usize % 6;
    let mut f = State::from(&s);
    rules::compute_shadows(&mut s);
    f.compute_shadows();
    assert_eq!(s.shadows, f.to_reference().shadows, "shadows");
    assert_eq!(rules::sun_income(&s), f.sun_income(), "sun income");
}

/// Arbitrary text at the protocol parsers: no panic, and whatever parses renders back.
pub fn parse_diff(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    for league in 1..=3 {
        let params = Params { league_level: league };
        if let Ok(c) = protocol::parse_line(&text, &params) {
            let again = protocol::parse_line(&c.action.to_string(), &params).expect("reparse");
            assert_eq!(again.action, c.action);
        }
    }
    if let Ok(view) = protocol::parse_turn(&text) {
        let rendered = protocol::render_view(&view);
        assert_eq!(protocol::parse_turn(&rendered), Ok(view));
    }
}

/// Whole games in search mode from fuzzer bytes (seed, league, then one byte per asked player
/// and frame picking its move from the search state's own list): the reference, the exact fast
/// state and [`SearchState`](super::SearchState) play the same actions in lockstep. After every
/// frame the search state must be the exact one's search-mode position (same trees, sun,
/// scores, nutrients, day, flags), render the reference's rule fields, hash like the exact
/// state, and list the same legal actions as the reference (as sets: its order differs), with
/// the same group sizes and `nth_legal` indexing its list; the final scores must agree.
pub fn search_diff(data: &[u8]) {
    use super::SearchState;
    let mut bytes = Bytes { data, at: 0 };
    let (seed, params) = bytes.game_start();
    let mut rs = Photosynthesis::new_game(seed, &params);
    let mut exact = State::new_game(seed, params, None);
    let mut search = SearchState::from_exact(&exact).expect("a new game fits the search state");
    let mut list = CompactMoves::default();
    let mut turn = 0;
    loop {
        assert_search_same(&rs, &exact, &search, turn);
        if rs.game_over {
            assert_eq!(search.final_scores(), exact.final_scores(), "turn {turn}: final scores");
            assert_eq!(rules::outcome(&rs), exact.outcome(), "turn {turn}: outcome");
            break;
        }
        if bytes.done() {
            break;
        }
        turn += 1;
        let mut moves = [super::Move::WAIT; 2];
        let mut actions = [None; 2];
        for p in 0..2 {
            search.legal_moves(p, &mut list);
            let listed = list.as_slice();
            let counts = search.group_counts(p);
            if !search.is_asked(p) {
                assert!(listed.is_empty(), "turn {turn}: a list for {p}, not asked");
                assert_eq!(counts, [0; 3], "turn {turn}: groups for {p}, not asked");
                continue;
            }
            assert_eq!(counts, exact.group_counts(p), "turn {turn}: group sizes of {p}");
            assert_eq!(listed.len() as u32, 1 + counts.iter().sum::<u32>(), "turn {turn}");
            for (k, &m) in listed.iter().enumerate() {
                assert_eq!(search.nth_legal(p, counts, k as u32), m, "turn {turn}: nth {k}");
                // The draw whose index is k: the smallest r with (r >> 32) · len >> 32 = k.
                let (numerator, len) = ((k as u64) << 32, listed.len() as u64);
                let r = ((numerator + len - 1) / len) << 32;
                assert_eq!(search.random_move(p, r), m, "turn {turn}: random move {k}");
            }
            let legal: Vec<Action> = listed.iter().map(|m| m.action()).collect();
            assert_eq!(
                sorted(legal),
                sorted(Photosynthesis::legal_actions(&rs, p)),
                "turn {turn}: legal actions of {p}"
            );
            moves[p] = listed[bytes.byte() as usize % listed.len()];
            actions[p] = Some(moves[p].action());
        }
        Photosynthesis::step(&mut rs, &actions).expect("a listed action is legal");
        let answers = actions.map(|a| a.map(Answer::Action));
        exact.play_turn(&answers, None).expect("the exact state plays it");
        search.play(moves);
    }
}

/// The search state against the exact state and the reference after `turn` frames.
fn assert_search_same(rs: &r::State, exact: &State, search: &super::SearchState, turn: u32) {
    use super::SearchState;
    assert_eq!(
        SearchState::from_exact(exact).as_ref(),
        Some(search),
        "turn {turn}: the search state is not the exact state's position"
    );
    assert_eq!(search.hash(), exact.zobrist(), "turn {turn}: hash");
    assert_eq!(SearchState::from_exact(&search.to_exact()).as_ref(), Some(search), "round trip");
    // The rule fields of the reference; the generator, the frame counter and the stored shadows
    // (read only at the gathering that follows their casting) are not the search state's.
    let mut got = search.to_exact().to_reference();
    got.rng = rs.rng.clone();
    got.executions = rs.executions;
    got.shadows = rs.shadows;
    if *rs != got {
        panic!("turn {turn}: search differs from reference:\n{}", state_diff(rs, &got));
    }
}
