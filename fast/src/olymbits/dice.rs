//! The generator behind Olymbits' mini-game draws, as a type parameter of [`State`]: the
//! referee's exact SHA1PRNG ([`RefereeDice`]: conformance, traces, the arena) or [`SearchDice`]
//! for searches: **same rules, different dice**. Both run the one rule code path
//! (`step.rs`), so every differential test of the exact state covers the search state's rules.
//!
//! A search bot cannot reproduce the referee's stream anyway (it does not know the seed), and
//! the exact stream costs a SHA-1 compression per 20 bytes: skating reshuffles its risk order
//! every turn, so every joint turn pays for one.
//!
//! [`State`]: super::State
//! [`RefereeDice`]: super::RefereeDice

use crate::rng::{splitmix64, XorShift64Star};
use std::fmt::Debug;
use std::hash::Hash;

/// The draws the rules make (§3.3): `nextInt(bound)`, `nextBoolean()`, `nextDouble()` and the
/// 4-entry `Collections.shuffle` of the skating risk order.
pub trait Dice: Clone + Debug + PartialEq + Eq + Hash {
    /// A uniform integer in `0..bound` (`bound` ≥ 1).
    fn below(&mut self, bound: i32) -> i32;
    /// A fair coin.
    fn boolean(&mut self) -> bool;
    /// A uniform double in `[0, 1)`.
    fn double(&mut self) -> f64;
    /// A uniform permutation of the 4 entries, drawn like `Collections.shuffle` (swap entry
    /// `i - 1` with a uniform one of the first `i`, for `i` = 4, 3, 2).
    fn shuffle4(&mut self, d: &mut [u8; 4]);

    /// §4.1's draws of a hurdle track, as the cell `(start * 4 + count) * 64 + pattern` of
    /// the 1280 equally likely ones (`start = nextInt(5)`, `count = nextInt(4)`, bit `k` of
    /// `pattern`: the `k`-th of the `count + 3` `nextBoolean()`, the bits not drawn 0).
    fn hurdle_draw(&mut self) -> usize {
        let start = self.below(5) as usize;
        let count = self.below(4) as usize;
        let mut pattern = 0usize;
        for k in 0..count + 3 {
            if self.boolean() {
                pattern |= 1 << k;
            }
        }
        (start * 4 + count) * 64 + pattern
    }

    /// §7.1's draws of a diving goal: its length `12 + nextInt(4)`, then that many letters
    /// `nextInt(4)` (action codes) into `goal` from its start; returns the length.
    fn diving_goal(&mut self, goal: &mut [u8; 16]) -> usize {
        let length = 12 + self.below(4) as usize;
        for letter in goal.iter_mut().take(length) {
            *letter = self.below(4) as u8;
        }
        length
    }
}

/// A fast generator for searches (xorshift64*): not the referee's stream, so a game played
/// with it is a game under the same rules with other mini-game draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SearchDice(XorShift64Star);

impl SearchDice {
    /// Seeded; every seed (0 included) gives a valid generator (splitmix64 of the seed).
    pub fn new(seed: i64) -> SearchDice {
        SearchDice(XorShift64Star(splitmix64(seed as u64) | 1))
    }

    #[inline]
    fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
}

impl Dice for SearchDice {
    #[inline]
    fn below(&mut self, bound: i32) -> i32 {
        // Lemire's multiply-shift: the high half of a 32 × 32-bit product (bias < 2^-29).
        (((self.next_u64() >> 32) * bound.max(1) as u64) >> 32) as i32
    }
    #[inline]
    fn boolean(&mut self) -> bool {
        self.next_u64() >> 63 == 1
    }
    #[inline]
    fn double(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
    #[inline]
    fn shuffle4(&mut self, d: &mut [u8; 4]) {
        // One draw for all three swaps: its top bits split into factors 4, 3, 2.
        let r = self.next_u64() >> 32;
        let (j4, r) = ((r * 4) >> 32, (r * 4) & 0xFFFF_FFFF);
        let (j3, r) = ((r * 3) >> 32, (r * 3) & 0xFFFF_FFFF);
        let j2 = (r * 2) >> 32;
        d.swap(3, j4 as usize);
        d.swap(2, j3 as usize);
        d.swap(1, j2 as usize);
    }

    /// One draw for the whole track: a uniform cell of the 1280 (the bits of the pattern past
    /// `count + 3` are drawn too; the tables give them no effect).
    #[inline]
    fn hurdle_draw(&mut self) -> usize {
        ((u128::from(self.next_u64()) * 1280) >> 64) as usize
    }

    /// One draw for the whole goal: the length from the top 2 bits, each letter from the next
    /// 2 (15 letters at most: bits 61 down to 32, the generator's best).
    #[inline]
    fn diving_goal(&mut self, goal: &mut [u8; 16]) -> usize {
        let r = self.next_u64();
        let length = 12 + (r >> 62) as usize;
        for (k, letter) in goal.iter_mut().enumerate().take(length) {
            *letter = (r >> (60 - 2 * k)) as u8 & 3;
        }
        length
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_dice_draws_cover_their_ranges_uniformly() {
        let mut d = SearchDice::new(0);
        let mut counts = [0u32; 5];
        let mut coins = 0;
        let mut perms = std::collections::HashMap::new();
        for _ in 0..24_000 {
            counts[d.below(5) as usize] += 1;
            coins += d.boolean() as u32;
            let x = d.double();
            assert!((0.0..1.0).contains(&x));
            let mut p = [0u8, 1, 2, 3];
            d.shuffle4(&mut p);
            *perms.entry(p).or_insert(0u32) += 1;
        }
        assert!(counts.iter().all(|&c| (4_400..5_200).contains(&c)), "{counts:?}");
        assert!((11_400..12_600).contains(&coins), "{coins}");
        // All 24 permutations, each about 1000 times.
        assert_eq!(perms.len(), 24);
        assert!(perms.values().all(|&c| (850..1_150).contains(&c)), "{perms:?}");
    }

    /// The one-draw resets: every hurdle cell of the 1280 about equally often, goal lengths
    /// 12 to 15 and letters uniform, nothing written past the length.
    #[test]
    fn search_dice_reset_draws_are_uniform() {
        let mut d = SearchDice::new(5);
        let mut cells = vec![0u32; 1280];
        for _ in 0..128_000 {
            cells[d.hurdle_draw()] += 1;
        }
        assert!(cells.iter().all(|&c| (50..160).contains(&c)), "{cells:?}");
        let mut lengths = [0u32; 16];
        let mut letters = [0u32; 4];
        for _ in 0..20_000 {
            let mut goal = [0u8; 16];
            let length = d.diving_goal(&mut goal);
            lengths[length] += 1;
            assert!(goal[length..].iter().all(|&x| x == 0));
            for &x in &goal[..length] {
                letters[x as usize] += 1;
            }
        }
        assert!(lengths[12..].iter().all(|&c| (4_600..5_400).contains(&c)), "{lengths:?}");
        let total: u32 = letters.iter().sum();
        assert!(letters.iter().all(|&c| c * 4 > total * 97 / 100 && c * 4 < total * 103 / 100));
    }
}
