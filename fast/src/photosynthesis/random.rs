//! `java.util.Random` inline on a 48-bit `u64` (twin: `twinsim_reference::java_random::JavaRandom`),
//! and the shuffle draws skipped by jump-ahead.

pub(super) const MULTIPLIER: u64 = 0x5DEECE66D;
pub(super) const MASK48: u64 = (1 << 48) - 1;

/// `next(31)` (twin: `JavaRandom::next(31)`).
#[inline]
pub fn next31(seed: &mut u64) -> i32 {
    *seed = (seed.wrapping_mul(MULTIPLIER).wrapping_add(0xB)) & MASK48;
    (*seed >> 17) as i32
}

/// `nextInt(bound)` for bound > 0 (twin: `JavaRandom::next_below`).
#[inline]
pub fn next_int(seed: &mut u64, bound: i32) -> i32 {
    let mut r = next31(seed);
    let m = bound - 1;
    if bound & m == 0 {
        return ((bound as i64 * r as i64) >> 31) as i32;
    }
    let mut u = r;
    loop {
        r = u % bound;
        if u.wrapping_sub(r).wrapping_add(m) >= 0 {
            return r;
        }
        u = next31(seed);
    }
}

pub(super) const REJECT_TABLE: usize = 512;

const fn build_reject_limits() -> [u32; REJECT_TABLE] {
    let mut out = [0u32; REJECT_TABLE];
    let mut b = 1;
    while b < REJECT_TABLE {
        out[b] = if b & (b - 1) == 0 { 1 << 31 } else { (1u32 << 31) - ((1u32 << 31) % b as u32) };
        b += 1;
    }
    out
}

/// `REJECT_LIMIT[b]`: `nextInt(b)` rejects a draw `u` (31 bits) iff `u >= REJECT_LIMIT[b]`
/// (Java's `u - r + m < 0` restated without the division; never for powers of two).
pub const REJECT_LIMIT: [u32; REJECT_TABLE] = build_reject_limits();

const fn build_jumps() -> [(u64, u64); REJECT_TABLE] {
    let mut out = [(1u64, 0u64); REJECT_TABLE];
    let mut k = 1;
    while k < REJECT_TABLE {
        let (a, c) = out[k - 1];
        out[k] = (
            a.wrapping_mul(MULTIPLIER) & MASK48,
            (c.wrapping_mul(MULTIPLIER).wrapping_add(0xB)) & MASK48,
        );
        k += 1;
    }
    out
}

/// `JUMP[k] = (A, C)`: k steps of the generator are `state ↦ (A·state + C) mod 2^48`.
pub const JUMP: [(u64, u64); REJECT_TABLE] = build_jumps();

/// The draws of `Collections.shuffle` on a list of `n` elements, without a list and without
/// divisions: only the rejection test matters for the generator's state (twin:
/// `JavaRandom::shuffle`'s consumption). The n − 1 draws are computed independently by
/// jump-ahead (no dependency chain); the sequential path is taken only if one of them would be
/// rejected (probability below n²/2³¹).
#[inline]
pub fn skip_shuffle(seed: &mut u64, n: u32) {
    let n = n as usize;
    if n < 2 {
        return;
    }
    if n < REJECT_TABLE {
        let s = *seed;
        let mut rejected = false;
        for k in 1..n {
            let (a, c) = JUMP[k];
            let u = ((a.wrapping_mul(s).wrapping_add(c) & MASK48) >> 17) as u32;
            rejected |= u >= REJECT_LIMIT[n + 1 - k];
        }
        if !rejected {
            let (a, c) = JUMP[n - 1];
            *seed = a.wrapping_mul(s).wrapping_add(c) & MASK48;
            return;
        }
    }
    skip_shuffle_sequential(seed, n);
}

/// Draws below this are accepted by `nextInt(b)` for every bound b < [`REJECT_TABLE`]: a draw
/// `u` is rejected only if `u >= REJECT_LIMIT[b] = 2^31 − (2^31 mod b) > 2^31 − b`.
const NEVER_REJECTED: u64 = (1 << 31) - REJECT_TABLE as u64;

/// The draws of `Collections.shuffle` on lists of the lengths `lens`, one list after the other
/// (twin: consecutive `JavaRandom::shuffle`s' consumption; [`skip_shuffle`] list by list).
/// The trick: no draw below 2^31 − 512 is ever rejected, whatever its bound (< 512), so the
/// generator is stepped once per draw for all the lists together, on 64 bits shifted 16 up
/// (the draw's 31 bits on top, no masking), keeping only the largest draw; only when one comes that close to 2^31 (probability about 2⁻²² per draw)
/// are the lists redone bound by bound.
pub fn skip_shuffles(seed: &mut u64, lens: &[u32]) {
    let mut draws = 0u32;
    let mut tabled = true;
    for &n in lens {
        draws += n.saturating_sub(1);
        tabled &= (n as usize) < REJECT_TABLE;
    }
    skip_draws(seed, draws, tabled, |seed| {
        for &n in lens {
            skip_shuffle_sequential(seed, n as usize);
        }
    });
}

/// [`skip_shuffles`] on lists given as `u16`s, all shorter than [`REJECT_TABLE`] (the lengths
/// [`super::Pending`] notes), given whole: the entries past the noted frames are zero, lists
/// that draw nothing, and a sum over a fixed length is a few vector instructions (over the
/// noted frames only, a loop: twinsim bench photosynthesis --instructions, step 734 -> 725);
/// `one_by_one` redoes the shuffles draw by draw, in their order, when a draw comes near the
/// rejection zone (a rare path, which the caller keeps out of line).
#[inline]
pub(super) fn skip_short_shuffles<const L: usize>(
    seed: &mut u64,
    lens: &[u16; L],
    one_by_one: impl FnOnce(&mut u64),
) {
    // Summed as `u16`s (lists of fewer than 512, few enough that the sum fits: asserted at
    // compile time), so the sum stays in 16-bit lanes (a saturating subtract and an add a
    // vector of eight lengths: twinsim bench photosynthesis --instructions, step 621 -> 619),
    // eight lanes then halved three times (LLVM reduced three vectors lane by lane).
    const { assert!(L * (REJECT_TABLE - 1) <= u16::MAX as usize && L % 8 == 0) };
    let mut lanes = [0u16; 8];
    for chunk in lens.chunks_exact(8) {
        for (lane, &n) in lanes.iter_mut().zip(chunk) {
            *lane = lane.wrapping_add(n.saturating_sub(1));
        }
    }
    let mut width = 4;
    while width > 0 {
        for j in 0..width {
            lanes[j] = lanes[j].wrapping_add(lanes[j + width]);
        }
        width /= 2;
    }
    debug_assert!(lens.iter().all(|&n| (n as usize) < REJECT_TABLE));
    skip_draws(seed, lanes[0] as u32, true, one_by_one);
}

/// The `draws` draws of consecutive shuffles (of lists whose lengths are all below
/// [`REJECT_TABLE`] when `tabled`), or `one_by_one` when one may be rejected: see
/// [`skip_shuffles`].
#[inline]
fn skip_draws(seed: &mut u64, draws: u32, tabled: bool, one_by_one: impl FnOnce(&mut u64)) {
    if draws == 0 {
        return;
    }
    // The state kept shifted 16 bits up (`s << 16`): `(s·M + B) << 16 = (s << 16)·M + (B << 16)`
    // mod 2^64, so each step is a multiply and an add, the draw's 31 bits already on top.
    let mut shifted = *seed << 16;
    let mut top = 0u64;
    for _ in 0..draws {
        shifted = shifted.wrapping_mul(MULTIPLIER).wrapping_add(0xB << 16);
        top = top.max(shifted);
    }
    if tabled && top < NEVER_REJECTED << 33 {
        *seed = shifted >> 16;
        return;
    }
    one_by_one(seed);
}

/// [`skip_shuffle`] one draw after the other (the path taken when a draw is rejected).
pub fn skip_shuffle_sequential(seed: &mut u64, n: usize) {
    let mut i = n;
    while i >= 2 {
        if i >= REJECT_TABLE {
            next_int(seed, i as i32);
        } else {
            let limit = REJECT_LIMIT[i];
            while next31(seed) as u32 >= limit {}
        }
        i -= 1;
    }
}

/// `Collections.shuffle` (twin: `JavaRandom::shuffle`).
pub fn shuffle<T>(seed: &mut u64, list: &mut [T]) {
    for i in (2..=list.len()).rev() {
        let j = next_int(seed, i as i32) as usize;
        list.swap(i - 1, j);
    }
}
