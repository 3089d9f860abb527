//! Benchmark pairs and the sample positions they run on.

use super::*;
use crate::bench::BenchOp;
use twinsim_reference::wondev_woman as r;

/// Seeded mid-game positions for benchmarks: `plies` pseudo-random legal actions from seeds.
pub fn sample_positions(count: usize, plies: usize) -> Vec<r::State> {
    let mut out = vec![];
    for seed in 0..count as i64 {
        let mut s = r::setup::new_game(seed * 7919 + 1, &r::Params::default());
        for k in 0..plies {
            let Some(p) = s.to_move.filter(|_| !s.game_over) else { break };
            let legal = r::rules::legal_actions(&s, p);
            if legal.is_empty() {
                break;
            }
            let a = legal[(k * 31 + seed as usize) % legal.len()];
            r::rules::apply_action(&mut s, p, &a);
        }
        if !s.game_over {
            out.push(s);
        }
    }
    out
}

/// Hot operations, reference vs fast, on the same prepared positions (cycling).
pub fn bench_ops() -> Vec<BenchOp> {
    // Positions the fast twin reaches in its own random games (turns 1 to 50 or so).
    let fasts: Vec<State> =
        crate::bench::typed_played_positions::<FastWondevWoman>(32, 1, 0x9E37_79B9_7F4A_7C15)
            .into_iter()
            .map(|(s, _)| s)
            .collect();
    let refs: Vec<r::State> = fasts.iter().map(State::to_reference).collect();
    let mut ops = vec![];
    {
        let (rs, fs) = (refs.clone(), fasts.clone());
        let (mut i, mut j) = (0, 0);
        ops.push(BenchOp {
            game: "wondev-woman",
            name: "legal_list",
            reference: Box::new(move || {
                let s = &rs[i % rs.len()];
                i += 1;
                std::hint::black_box(r::rules::legal_actions(s, s.to_move.unwrap_or(0)));
            }),
            fast: Box::new(move || {
                let s = &fs[j % fs.len()];
                j += 1;
                let mut list = movegen::MoveList::default();
                movegen::legal(s, s.to_move as usize, &mut list);
                std::hint::black_box(list.len);
            }),
        });
    }
    {
        let (rs, fs) = (refs.clone(), fasts.clone());
        let (mut i, mut j) = (0, 0);
        ops.push(BenchOp {
            game: "wondev-woman",
            name: "legal_count",
            reference: Box::new(move || {
                let s = &rs[i % rs.len()];
                i += 1;
                std::hint::black_box(r::rules::legal_actions(s, s.to_move.unwrap_or(0)).len());
            }),
            fast: Box::new(move || {
                let s = &fs[j % fs.len()];
                j += 1;
                std::hint::black_box(movegen::count(s, s.to_move as usize));
            }),
        });
    }
    {
        // One action applied and taken back: the reference clones and applies (it has no
        // undo), the fast engine makes and unmakes in place the way its search does
        // (`make_search`: the action records, which only feed the events, are not kept).
        let rs: Vec<(r::State, r::Action)> = refs
            .iter()
            .map(|s| (s.clone(), r::rules::legal_actions(s, s.to_move.unwrap_or(0))[0]))
            .collect();
        let mut fs: Vec<(State, movegen::Mv)> = fasts
            .iter()
            .map(|s| {
                let mut l = movegen::MoveList::default();
                movegen::legal(s, s.to_move as usize, &mut l);
                (*s, l.moves[0])
            })
            .collect();
        let (mut i, mut j) = (0, 0);
        ops.push(BenchOp {
            game: "wondev-woman",
            name: "do_undo",
            reference: Box::new(move || {
                let (s, a) = &rs[i % rs.len()];
                i += 1;
                let mut t = s.clone();
                r::rules::apply_action(&mut t, s.to_move.unwrap_or(0), a);
                std::hint::black_box(&t);
            }),
            fast: Box::new(move || {
                let n = fs.len();
                let (s, m) = &mut fs[j % n];
                j += 1;
                let u = movegen::make_search(s, *m);
                std::hint::black_box(&s);
                movegen::unmake_search(s, &u);
            }),
        });
    }
    {
        // One full turn, copy-make (a search that keeps every child): the reference clones and
        // applies, the fast engine copies and makes (`make_search`).
        let rs: Vec<(r::State, r::Action)> = refs
            .iter()
            .map(|s| {
                let legal = r::rules::legal_actions(s, s.to_move.unwrap_or(0));
                (s.clone(), legal[legal.len() / 2])
            })
            .collect();
        let fs: Vec<(State, movegen::Mv)> = fasts
            .iter()
            .zip(&rs)
            .map(|(s, (_, a))| (*s, movegen::Mv::from_action(a).expect("a legal action")))
            .collect();
        ops.push(BenchOp::cycling(
            "wondev-woman",
            "turn",
            rs,
            fs,
            |(s, a), _| {
                let mut t = s.clone();
                r::rules::apply_action(&mut t, s.to_move.unwrap_or(0), a);
                std::hint::black_box(&t);
            },
            |(s, m), _| {
                let mut t = *s;
                movegen::make_search(&mut t, *m);
                std::hint::black_box(&t);
            },
        ));
    }
    {
        let (rs, fs) = (refs.clone(), fasts.clone());
        let (mut i, mut j) = (0, 0);
        ops.push(BenchOp {
            game: "wondev-woman",
            name: "voronoi",
            reference: Box::new(move || {
                let s = &rs[i % rs.len()];
                i += 1;
                std::hint::black_box(r::bot::eval::evaluate(s));
            }),
            fast: Box::new(move || {
                let s = &fs[j % fs.len()];
                j += 1;
                std::hint::black_box(bot::voronoi::evaluate(s));
            }),
        });
    }
    {
        let (rs, fs) = (refs.clone(), fasts.clone());
        let (mut i, mut j) = (0, 0);
        ops.push(BenchOp {
            game: "wondev-woman",
            name: "perft2",
            reference: Box::new(move || {
                let s = &rs[i % rs.len()];
                i += 1;
                std::hint::black_box(twinsim_reference::game::typed_perft::<r::WondevWoman>(s, 2));
            }),
            fast: Box::new(move || {
                let mut s = fs[j % fs.len()];
                j += 1;
                std::hint::black_box(movegen::perft(&mut s, 2));
            }),
        });
    }
    {
        // §2 setup from successive seeds, every map and spawn rule in turn: the reference's
        // `setup::new_game` against the bit-set `setup::new_game` (which the fast engine used to
        // pay as the reference setup plus a conversion).
        let params = |k: i64| r::Params {
            map_index: (k % 4) as i32 - 1,
            symmetric: k % 3 == 0,
            ..r::Params::default()
        };
        let (mut i, mut j) = (0i64, 0i64);
        ops.push(BenchOp {
            game: "wondev-woman",
            name: "setup",
            reference: Box::new(move || {
                i += 1;
                std::hint::black_box(r::setup::new_game(i, &params(i)));
            }),
            fast: Box::new(move || {
                j += 1;
                std::hint::black_box(setup::new_game(j, &params(j)));
            }),
        });
    }
    // Whole random games (setup included) through the typed API.
    ops.push(crate::bench::typed_random_game_op::<
        twinsim_reference::wondev_woman::WondevWoman,
        super::FastWondevWoman,
    >("wondev-woman", 10_000));
    ops
}
