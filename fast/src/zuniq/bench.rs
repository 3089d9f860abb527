//! Benchmark pairs and the sample boards they run on.

use super::*;
use std::hint::black_box;

/// Boards reached by random playouts, for benchmarks (varied depths).
pub fn sample_boards(count: usize, seed: u64) -> Vec<Board> {
    let mut rng = Rng(seed | 1);
    (0..count)
        .map(|i| {
            let mut board = Board::new();
            let stop = (i * 7) % 40;
            while board.ply as usize != stop {
                let legal = board.legal_mask();
                if legal == 0 {
                    break;
                }
                let w = nth_bit(legal, rng.below(legal.count_ones()));
                board.place(w, board.cut(w));
            }
            board
        })
        .collect()
}

/// The reference's `apply_move` of `moves[i]` on a clone of `states[i]`, cycling.
fn reference_apply(
    states: Vec<twinsim_reference::zuniq::State>,
    moves: Vec<usize>,
) -> Box<dyn FnMut() + Send> {
    let mut i = 0;
    Box::new(move || {
        i = (i + 1) % states.len();
        let mut s = states[i].clone();
        let action =
            twinsim_reference::zuniq::Action { wall: typed::wall_of(moves[i]), claim: false };
        let _ = black_box(twinsim_reference::zuniq::rules::apply_move(&mut s, action));
    })
}

/// Hot operations to benchmark, reference vs fast, on the same positions.
pub fn bench_ops() -> Vec<crate::bench::BenchOp> {
    use crate::bench::BenchOp;
    let boards = sample_boards(64, 7);
    let refs: Vec<twinsim_reference::zuniq::State> =
        boards.iter().map(|b| State { board: *b, ..State::default() }.to_reference()).collect();
    // One legal move per position, for `apply`.
    let moves: Vec<usize> = boards
        .iter()
        .map(|b| {
            let legal = b.legal_mask();
            if legal == 0 {
                0
            } else {
                nth_bit(legal, legal.count_ones() / 2)
            }
        })
        .collect();
    let mut ops = Vec::new();

    let (r, mut i) = (refs.clone(), 0);
    let (f, mut j) = (boards.clone(), 0);
    ops.push(BenchOp {
        game: "zuniq",
        name: "legal_moves",
        reference: Box::new(move || {
            i = (i + 1) % r.len();
            black_box(twinsim_reference::zuniq::rules::legal_walls(black_box(&r[i])));
        }),
        fast: Box::new(move || {
            j = (j + 1) % f.len();
            black_box(black_box(&f[j]).legal_mask());
        }),
    });

    // `apply`: the search's apply. The fast side places the wall with the cut its move
    // generator found ([`Board::legal_quiet`], a flood only for walls it could not decide) and
    // nothing else: no events, no end test (the next legal list finds the end). The reference
    // side is `apply_move` (check, place, events, end test), its only apply.
    let placed: Vec<(Board, usize, u32)> = boards
        .iter()
        .zip(&moves)
        .map(|(b, &w)| {
            let (legal, quiet) = b.legal_quiet();
            let cut = if legal >> w & 1 == 0 || quiet >> w & 1 == 1 { 0 } else { b.cut(w) };
            (*b, w, cut)
        })
        .collect();
    let mut j = 0;
    ops.push(BenchOp {
        game: "zuniq",
        name: "apply",
        reference: reference_apply(refs.clone(), moves.clone()),
        fast: Box::new(move || {
            // Cycling without a division, the result kept by reference: the harness costs
            // little next to an operation this small.
            j = if j + 1 == placed.len() { 0 } else { j + 1 };
            let (mut b, w, cut) = placed[j];
            b.place(w, cut);
            black_box(&b);
        }),
    });

    // `apply_checked`: the referee's apply on both sides: legality check, place, events, end
    // test.
    let (f, fm, mut j) = (boards.clone(), moves.clone(), 0);
    ops.push(BenchOp {
        game: "zuniq",
        name: "apply_checked",
        reference: reference_apply(refs.clone(), moves),
        fast: Box::new(move || {
            j = (j + 1) % f.len();
            let mut s = State { board: f[j], ..State::default() };
            let mut events = Vec::new();
            if let Check::Legal(cut) = s.board.check(fm[j]) {
                s.apply(fm[j], cut, false, &mut events);
            }
            black_box((s, events));
        }),
    });

    let (mut rr, mut fr) = (Rng(99), Rng(99));
    ops.push(BenchOp {
        game: "zuniq",
        name: "random_game",
        reference: Box::new(move || {
            let mut s = twinsim_reference::zuniq::State::new();
            loop {
                let legal = twinsim_reference::zuniq::rules::legal_walls(&s);
                if legal.is_empty() {
                    break;
                }
                let wall = legal[rr.below(legal.len() as u32) as usize];
                let _ = twinsim_reference::zuniq::rules::apply_move(
                    &mut s,
                    twinsim_reference::zuniq::Action { wall, claim: false },
                );
            }
            black_box(s);
        }),
        fast: Box::new(move || {
            black_box(random_game(Board::new(), &mut fr));
        }),
    });
    ops
}
