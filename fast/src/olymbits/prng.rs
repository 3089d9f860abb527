//! The referee's SHA1PRNG (`SecureRandom.getInstance("SHA1PRNG")` after `setSeed(long)`), bit
//! for bit the stream of `twinsim_reference::sha1prng::Sha1Prng` (rules doc `olymbits.md`
//! §3.2–§3.3), laid out for speed: the exact [`super::State`]'s generator.
//!
//! Where the instructions go: one SHA-1 compression per 20 stream bytes, and a joint turn draws
//! about 26 bytes on average (skating's 12 every turn, the resets' more). So:
//! - the compression is specialised for the only message it ever sees, the 20-byte state `S`
//!   padded to one block ([`digest_of_state`]): fully unrolled, the message schedule in a
//!   rolling 16-word window whose 11 constant padding words LLVM folds into the first rounds'
//!   constants and into the first schedule words, no bounds checks, no hasher set-up (the
//!   schedule computed first with `W[t] = rotl2(W[t-6] ^ W[t-16] ^ W[t-28] ^ W[t-32])` four
//!   words at a time was not vectorised by LLVM and cost 3% more: 1,393 against 1,353
//!   instructions a block);
//! - `S` is kept as five little-endian words, so the state update (§3.2 step 4, signed bytes
//!   with carries) is one 160-bit addition and the next message words are byte swaps;
//! - a draw of 1 to 8 bytes that lies inside the current block is one unaligned big-endian load
//!   (the byte-by-byte path only when it straddles two blocks);
//! - the stream's byte count is derived from the number of blocks (no counter per draw).
//!
//! Where the CPU has SHA extensions (x86-64's `sha1rnds4` and friends, checked once per process
//! at run time), the compression runs on them (module `sha_ni`, about a tenth of the portable
//! compression's instructions); the portable compression runs everywhere else, under valgrind
//! too (its CPU has no SHA extensions, so `.ci/instructions` counts the portable path). Both
//! are checked against each other and against the reference on random blocks, whole streams and
//! whole games; `.ci/sha-ni` runs those checks on an emulated CPU with the extensions.
//! [`compression`] says which one this process uses.

use super::dice::Dice;
use std::sync::atomic::{AtomicU8, Ordering};
use twinsim_reference::sha1prng::{Sha1Prng, Sha1PrngParts};

/// The referee's SHA1PRNG, the same stream as `twinsim_reference::sha1prng::Sha1Prng`
/// (conversions both ways: [`RefereeDice::from_reference`], [`RefereeDice::to_reference`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RefereeDice {
    /// Internal state `S` (§3.2 step 2) as five little-endian words: byte `4k + j` of `S` is
    /// byte `j` of word `k`.
    state: [u32; 5],
    /// The current output block's 20 bytes, then 4 zero bytes so that a 4-byte load at any
    /// offset up to 20 stays inside the array.
    block: [u8; 24],
    /// Bytes of `block` already handed out (0..=20; 20: spent).
    used: u32,
    /// Blocks computed since seeding: the stream has handed out `20 * blocks + used - 20`
    /// bytes.
    blocks: u64,
}

/// SHA-1's initial hash value (FIPS 180-4 §5.3.1).
pub(super) const SHA1_IV: [u32; 5] =
    [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0];

/// One SHA-1 step (FIPS 180-4 §6.1.2 step 3) with the register names rotated instead of the
/// values moved: `e += rotl5(a) + f(b, c, d) + K + W`, `b = rotl30(b)`.
macro_rules! step {
    ($w:ident, $t:expr, $f:ident, $k:expr, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident) => {
        if $t >= 16 {
            // The schedule in a rolling window: W[t] replaces W[t - 16].
            $w[$t & 15] =
                ($w[($t + 13) & 15] ^ $w[($t + 8) & 15] ^ $w[($t + 2) & 15] ^ $w[$t & 15])
                    .rotate_left(1);
        }
        $e = $e
            .wrapping_add($a.rotate_left(5))
            .wrapping_add($f($b, $c, $d))
            .wrapping_add($k)
            .wrapping_add($w[$t & 15]);
        $b = $b.rotate_left(30);
    };
}

/// Five steps, after which the registers are back in their places.
macro_rules! steps5 {
    ($w:ident, $t:expr, $f:ident, $k:expr, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident) => {
        step!($w, $t, $f, $k, $a, $b, $c, $d, $e);
        step!($w, $t + 1, $f, $k, $e, $a, $b, $c, $d);
        step!($w, $t + 2, $f, $k, $d, $e, $a, $b, $c);
        step!($w, $t + 3, $f, $k, $c, $d, $e, $a, $b);
        step!($w, $t + 4, $f, $k, $b, $c, $d, $e, $a);
    };
}

/// Twenty steps with one round function and constant.
macro_rules! steps20 {
    ($w:ident, $t:expr, $f:ident, $k:expr, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident) => {
        steps5!($w, $t, $f, $k, $a, $b, $c, $d, $e);
        steps5!($w, $t + 5, $f, $k, $a, $b, $c, $d, $e);
        steps5!($w, $t + 10, $f, $k, $a, $b, $c, $d, $e);
        steps5!($w, $t + 15, $f, $k, $a, $b, $c, $d, $e);
    };
}

/// `Ch` (steps 0–19).
#[inline(always)]
fn choose(b: u32, c: u32, d: u32) -> u32 {
    d ^ (b & (c ^ d))
}

/// `Parity` (steps 20–39 and 60–79).
#[inline(always)]
fn parity(b: u32, c: u32, d: u32) -> u32 {
    b ^ c ^ d
}

/// `Maj` (steps 40–59); `b & c` and `d & (b ^ c)` have no bit in common, so their sum is their
/// union.
#[inline(always)]
fn majority(b: u32, c: u32, d: u32) -> u32 {
    (b & c).wrapping_add(d & (b ^ c))
}

/// SHA-1 of the 20-byte message whose big-endian words are `message`: one compression of the
/// block `message ‖ 0x80 ‖ 0…0 ‖ 160` (FIPS 180-4 §5.1.1 padding) from the initial hash value.
/// Returns the digest's five words (its bytes are their big-endian bytes).
#[inline]
pub fn digest_of_state(message: [u32; 5]) -> [u32; 5] {
    let mut w = [0u32; 16];
    w[..5].copy_from_slice(&message);
    w[5] = 0x8000_0000;
    w[15] = 160;
    let [mut a, mut b, mut c, mut d, mut e] = SHA1_IV;
    steps20!(w, 0, choose, 0x5A82_7999, a, b, c, d, e);
    steps20!(w, 20, parity, 0x6ED9_EBA1, a, b, c, d, e);
    steps20!(w, 40, majority, 0x8F1B_BCDC, a, b, c, d, e);
    steps20!(w, 60, parity, 0xCA62_C1D6, a, b, c, d, e);
    [
        SHA1_IV[0].wrapping_add(a),
        SHA1_IV[1].wrapping_add(b),
        SHA1_IV[2].wrapping_add(c),
        SHA1_IV[3].wrapping_add(d),
        SHA1_IV[4].wrapping_add(e),
    ]
}

/// Which SHA-1 compression the exact generator runs ([`compression`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    /// The portable compression ([`digest_of_state`]): any CPU.
    Portable,
    /// The CPU's SHA extensions (x86-64 `sha1rnds4`, `sha1nexte`, `sha1msg1`, `sha1msg2`).
    ShaExtensions,
}

/// [`COMPRESSION`]'s values: not decided yet, then one of [`Compression`]'s.
const UNDECIDED: u8 = 0;
const PORTABLE: u8 = 1;
const SHA_EXTENSIONS: u8 = 2;

/// The compression this process runs, decided at the first block from what the CPU has (one
/// relaxed load and one predictable branch a block after that). Holds [`SHA_EXTENSIONS`] only
/// after `sha_ni::available()` said yes: the safety argument of the one `unsafe` call.
static COMPRESSION: AtomicU8 = AtomicU8::new(UNDECIDED);

/// The compression the exact generator runs in this process: the CPU's SHA extensions where it
/// has them, the portable one otherwise.
pub fn compression() -> Compression {
    match COMPRESSION.load(Ordering::Relaxed) {
        SHA_EXTENSIONS => Compression::ShaExtensions,
        PORTABLE => Compression::Portable,
        _ => decide_compression(),
    }
}

/// The first [`compression`] call: what the CPU has.
#[cold]
fn decide_compression() -> Compression {
    let chosen =
        if sha_extensions_available() { Compression::ShaExtensions } else { Compression::Portable };
    COMPRESSION.store(code_of(chosen), Ordering::Relaxed);
    chosen
}

fn code_of(compression: Compression) -> u8 {
    match compression {
        Compression::Portable => PORTABLE,
        Compression::ShaExtensions => SHA_EXTENSIONS,
    }
}

/// Whether this CPU has the SHA extensions the accelerated compression needs.
pub fn sha_extensions_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    return super::sha_ni::available();
    #[cfg(not(target_arch = "x86_64"))]
    return false;
}

/// Tests and benchmarks: run `compression` from now on in this whole process (every generator,
/// every thread; both give the same bytes). Refused (`false`, nothing changed) for the SHA
/// extensions on a CPU without them.
#[cfg(any(test, feature = "testing"))]
#[doc(hidden)]
pub fn set_compression(compression: Compression) -> bool {
    if compression == Compression::ShaExtensions && !sha_extensions_available() {
        return false;
    }
    COMPRESSION.store(code_of(compression), Ordering::Relaxed);
    true
}

/// [`digest_of_state`] on the compression this process runs ([`compression`]).
#[inline(always)]
fn digest_of_state_here(message: [u32; 5]) -> [u32; 5] {
    #[cfg(target_arch = "x86_64")]
    if compression() == Compression::ShaExtensions {
        // SAFETY: `COMPRESSION` holds `SHA_EXTENSIONS` only once `sha_ni::available()` has
        // returned true (`decide_compression`, `set_compression`): this CPU has every feature
        // `sha_ni::digest_of_state` is compiled for.
        #[allow(unsafe_code)]
        let digest = unsafe { super::sha_ni::digest_of_state(message) };
        return digest;
    }
    digest_of_state(message)
}

/// A 160-bit little-endian number as a low `u128` and a high `u32`.
type Wide = (u128, u32);

fn wide(words: [u32; 5]) -> Wide {
    let lo = words[..4].iter().rev().fold(0u128, |x, w| x << 32 | u128::from(*w));
    (lo, words[4])
}

fn words(x: Wide) -> [u32; 5] {
    [x.0 as u32, (x.0 >> 32) as u32, (x.0 >> 64) as u32, (x.0 >> 96) as u32, x.1]
}

fn add(x: Wide, y: Wide) -> Wide {
    let (lo, carry) = x.0.overflowing_add(y.0);
    (lo, x.1.wrapping_add(y.1).wrapping_add(u32::from(carry)))
}

/// Every byte's top bit, as a [`Wide`].
const TOP_BITS: Wide = (u128::from_le_bytes([0x80; 16]), 0x8080_8080);

/// `1 - 2 * TOP_BITS` modulo 2^160 (see [`next_state`]): the two's complement of `2M - 1`.
const ONE_MINUS_TWICE_TOP_BITS: Wide = {
    // 2M: M shifted left by one bit across the two parts (the top bit falls out).
    let twice = (TOP_BITS.0 << 1, TOP_BITS.1 << 1 | (TOP_BITS.0 >> 127) as u32);
    // 2M - 1: the low part of 2M is not 0, so nothing borrows from the high part.
    let minus_one = (twice.0 - 1, twice.1);
    // -(2M - 1) = !(2M - 1) + 1, the carry reaching the high part only from a zero low part.
    let lo = (!minus_one.0).wrapping_add(1);
    (lo, (!minus_one.1).wrapping_add((lo == 0) as u32))
};

/// §3.2 step 4: the JDK adds the output to the state byte by byte from byte 0, bytes signed,
/// carry `v >> 8` starting at 1, and increments byte 0 alone when no byte changed. With `U` a
/// little-endian value and `M` every byte's top bit, the signed digits sum to `(U ^ M) - M`, so
/// the new state is `(S ^ M) + (O ^ M) + 1 - 2M` modulo 2^160 (the reference's
/// `update_state`, on words).
#[inline]
fn next_state(state: [u32; 5], output_le: [u32; 5]) -> [u32; 5] {
    let flip = |x: Wide| (x.0 ^ TOP_BITS.0, x.1 ^ TOP_BITS.1);
    let sum = add(add(flip(wide(state)), flip(wide(output_le))), ONE_MINUS_TWICE_TOP_BITS);
    let mut next = words(sum);
    if next == state {
        next[0] = (next[0] & !0xFF) | (next[0].wrapping_add(1) & 0xFF);
    }
    next
}

impl RefereeDice {
    /// `setSeed(seed)` on a fresh SHA1PRNG (§3.2): `S = SHA-1(seed as 8 little-endian bytes)`.
    /// Reference twin: `Sha1Prng::new`.
    pub fn new(seed: i64) -> RefereeDice {
        RefereeDice::from_reference(&Sha1Prng::new(seed))
    }

    /// The same generator, from the reference's.
    pub fn from_reference(rng: &Sha1Prng) -> RefereeDice {
        let parts = rng.parts();
        let state = std::array::from_fn(|k| {
            u32::from_le_bytes([
                parts.state[4 * k],
                parts.state[4 * k + 1],
                parts.state[4 * k + 2],
                parts.state[4 * k + 3],
            ])
        });
        let mut block = [0u8; 24];
        block[..20].copy_from_slice(&parts.block);
        let used = u32::from(parts.used.min(20));
        // bytes_drawn = 20 * blocks + used - 20; every real stream has a whole number of blocks.
        let blocks = (parts.bytes_drawn + 20 - u64::from(used)) / 20;
        RefereeDice { state, block, used, blocks }
    }

    /// The reference's generator in the same place of the same stream.
    pub fn to_reference(&self) -> Sha1Prng {
        let mut state = [0u8; 20];
        for (k, word) in self.state.iter().enumerate() {
            state[4 * k..4 * k + 4].copy_from_slice(&word.to_le_bytes());
        }
        let mut block = [0u8; 20];
        block.copy_from_slice(&self.block[..20]);
        Sha1Prng::from_parts(Sha1PrngParts {
            state,
            block,
            used: self.used as u8,
            bytes_drawn: self.bytes_drawn(),
        })
    }

    /// Total number of bytes drawn so far (§3.4, the traces' `rng_bytes`).
    pub fn bytes_drawn(&self) -> u64 {
        (20 * self.blocks + u64::from(self.used)).saturating_sub(20)
    }

    /// §3.2 steps 3–4: the next output block `SHA-1(S)`, and `S` updated with it.
    #[inline(never)]
    fn next_block(&mut self) {
        let digest = digest_of_state_here(self.state.map(u32::swap_bytes));
        for (k, word) in digest.iter().enumerate() {
            self.block[4 * k..4 * k + 4].copy_from_slice(&word.to_be_bytes());
        }
        // The output's bytes read as little-endian words are the digest words byte-swapped.
        self.state = next_state(self.state, digest.map(u32::swap_bytes));
        self.used = 0;
        self.blocks += 1;
    }

    /// The next `count` (1..=4) stream bytes as a big-endian number (`next(bits)`'s bytes).
    #[inline(always)]
    fn take(&mut self, count: u32) -> u32 {
        debug_assert!((1..=4).contains(&count));
        let at = self.used as usize;
        if at + count as usize <= 20 {
            let bytes =
                [self.block[at], self.block[at + 1], self.block[at + 2], self.block[at + 3]];
            self.used += count;
            u32::from_be_bytes(bytes) >> (32 - 8 * count)
        } else {
            self.take_across(count)
        }
    }

    /// [`RefereeDice::take`] when the bytes straddle the block's end (`used + count > 20`):
    /// the `have = 20 - used` bytes left in this block by one load (the block's 4 zero bytes
    /// past its end keep it in bounds), then the next block's first `count - have` by another,
    /// rather than byte by byte (a 4-byte draw straddles once every five blocks or so).
    #[cold]
    #[inline(never)]
    fn take_across(&mut self, count: u32) -> u32 {
        let at = self.used as usize;
        let load = |block: &[u8; 24], at: usize| {
            u64::from(u32::from_be_bytes([block[at], block[at + 1], block[at + 2], block[at + 3]]))
        };
        let have = 20 - self.used;
        debug_assert!(have < count && count <= 4);
        // The `have` bytes on top of a 32-bit load: a shift of 32 - 8 * have (32 when none).
        let high = load(&self.block, at) >> (32 - 8 * have);
        self.next_block();
        let rest = count - have;
        let low = load(&self.block, 0) >> (32 - 8 * rest);
        self.used = rest;
        (high << (8 * rest) | low) as u32
    }

    /// The next 8 stream bytes as a big-endian number (the two draws of `nextDouble`).
    #[inline(always)]
    fn take8(&mut self) -> u64 {
        let at = self.used as usize;
        if at + 8 <= 20 {
            let mut bytes = [0u8; 8];
            bytes.copy_from_slice(&self.block[at..at + 8]);
            self.used += 8;
            u64::from_be_bytes(bytes)
        } else {
            let high = u64::from(self.take(4));
            high << 32 | u64::from(self.take(4))
        }
    }

    /// `next(31)`: the 4 next bytes' top 31 bits.
    #[inline(always)]
    fn next31(&mut self) -> i32 {
        (self.take(4) >> 1) as i32
    }

    /// `nextInt(bound)` for a bound that is not a power of two (§3.3): the JDK's rejection
    /// loop.
    #[inline(always)]
    fn below_rejecting(&mut self, bound: i32) -> i32 {
        loop {
            let r = self.next31();
            let v = r % bound;
            // Java's `r - v + (bound - 1) < 0` (overflow): r lies in the incomplete last block.
            if r.wrapping_sub(v).wrapping_add(bound - 1) >= 0 {
                return v;
            }
        }
    }
}

/// The referee's draws (§3.3: `java.util.Random`'s algorithms over the stream).
impl Dice for RefereeDice {
    #[inline]
    fn below(&mut self, bound: i32) -> i32 {
        debug_assert!(bound > 0, "nextInt bound must be positive");
        if bound & (bound - 1) == 0 {
            return ((i64::from(bound) * i64::from(self.next31())) >> 31) as i32;
        }
        self.below_rejecting(bound)
    }

    #[inline]
    fn boolean(&mut self) -> bool {
        self.take(1) >> 7 != 0
    }

    #[inline]
    fn double(&mut self) -> f64 {
        // `next(26) << 27 | next(27)`: the first 4 bytes' top 26 bits, the next 4's top 27.
        let x = self.take8();
        let high = (x >> 38) << 27;
        let low = (x as u32 >> 5) as u64;
        (high + low) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// `Collections.shuffle` of 4 entries: `nextInt(4)`, `nextInt(3)`, `nextInt(2)`. Bounds 4
    /// and 2 are powers of two (the top 2 bits, the top bit of a draw); 3 rejects one draw in
    /// about a billion.
    #[inline]
    fn shuffle4(&mut self, d: &mut [u8; 4]) {
        let j = self.take(4) >> 30;
        d.swap(3, j as usize & 3);
        let j = self.below_rejecting(3);
        d.swap(2, j as usize & 3);
        let j = self.take(4) >> 31;
        d.swap(1, j as usize & 1);
    }
}

/// Serialises the tests that force a compression ([`with_compression`]).
#[cfg(test)]
static COMPRESSION_LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Tests: the compressions this CPU can run, to run a check on each. Where the SHA extensions
/// are missing, says so on the test's standard error (uncaptured: the run shows that half did
/// not run), and fails where `TWINSIM_REQUIRE_SHA_NI=1` (`.ci/sha-ni`'s emulated run, which
/// must not pass without them).
#[cfg(test)]
pub(crate) fn testable_compressions(test: &str) -> Vec<Compression> {
    use std::io::Write;
    if sha_extensions_available() {
        return vec![Compression::Portable, Compression::ShaExtensions];
    }
    let required = std::env::var_os("TWINSIM_REQUIRE_SHA_NI").is_some_and(|v| v == "1");
    assert!(!required, "{test}: TWINSIM_REQUIRE_SHA_NI=1 but this CPU has no SHA extensions");
    // Straight to the stream, past the test harness's capture of `eprintln!`.
    let _ = writeln!(
        std::io::stderr().lock(),
        "{test}: this CPU has no SHA extensions: the SHA-extension half did not run, only the \
         portable compression was checked (`.ci/sha-ni` runs it on an emulated CPU)"
    );
    vec![Compression::Portable]
}

/// Tests: runs `compression` (it must be available) until the guard drops, then the
/// compression the process would choose; the guard also holds [`COMPRESSION_LOCK`].
#[cfg(test)]
pub(crate) fn with_compression(compression: Compression) -> impl Drop {
    struct Restore(#[allow(dead_code)] std::sync::MutexGuard<'static, ()>);
    impl Drop for Restore {
        fn drop(&mut self) {
            decide_compression();
        }
    }
    let lock = COMPRESSION_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    assert!(set_compression(compression), "{compression:?} is not available here");
    Restore(lock)
}

#[cfg(test)]
mod tests {
    use super::*;
    use quickcheck::quickcheck;

    quickcheck! {
        /// Every draw kind, in a random order of random lengths, from a random seed: the same
        /// values as the reference's generator, and the same generator state after each.
        fn draws_are_the_references(seed: i64, script: Vec<u8>) -> bool {
            let mut reference = Sha1Prng::new(seed);
            let mut fast = RefereeDice::new(seed);
            for op in script {
                let same = match op % 6 {
                    0 => fast.below(i32::from(op / 6 % 9) + 1) == reference.next_below(i32::from(op / 6 % 9) + 1),
                    1 => fast.boolean() == reference.next_boolean(),
                    2 => fast.double().to_bits() == reference.next_double().to_bits(),
                    3 => {
                        let (mut a, mut b) = ([0u8, 1, 2, 3], [0u8, 1, 2, 3]);
                        fast.shuffle4(&mut a);
                        reference.shuffle(&mut b);
                        a == b
                    }
                    4 => fast.below(5) == reference.next_below(5),
                    _ => fast.below(3) == reference.next_below(3),
                };
                if !same || fast.to_reference() != reference || RefereeDice::from_reference(&reference) != fast {
                    return false;
                }
            }
            true
        }
    }

    /// A generator of seed 5 whose current block is `block` (from its first byte): the same
    /// crafted place in the stream on both twins.
    fn crafted(block: [u8; 20]) -> (RefereeDice, Sha1Prng) {
        let mut parts = Sha1Prng::new(5).parts();
        parts.block = block;
        parts.used = 0;
        parts.bytes_drawn = 20;
        let reference = Sha1Prng::from_parts(parts);
        (RefereeDice::from_reference(&reference), reference)
    }

    /// `nextInt(3)` rejects `next(31)` values from 2^31 - 2 up (`r - r % 3 + 2` overflows) and
    /// draws again; the shuffle's `nextInt(3)` too. Random streams almost never reject, so the
    /// block is crafted.
    #[test]
    fn rejected_draws_are_drawn_again_like_java() {
        let mut block = [0u8; 20];
        block[..12].copy_from_slice(&[
            0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfd, 0xff, 0xff, 0xff, 0xfb,
        ]);
        block[12..16].copy_from_slice(&[0x7f, 0xff, 0xff, 0xff]);
        let (mut fast, mut reference) = crafted(block);
        // 0x7fff_ffff and 0x7fff_fffe rejected, then 0x7fff_fffd % 3 = 2.
        assert_eq!(fast.below(3), 2);
        assert_eq!(reference.next_below(3), 2);
        assert_eq!(fast.below(3), 0x3fff_ffff % 3);
        assert_eq!(reference.next_below(3), 0x3fff_ffff % 3);
        assert_eq!(fast.to_reference(), reference);

        // The shuffle: nextInt(4) from the top 2 bits, then nextInt(3) rejecting twice.
        let mut block = [0u8; 20];
        block[..16].copy_from_slice(&[
            0x40, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfd, 0x00, 0x00, 0x00, 0x04,
        ]);
        block[16] = 0x80;
        let (mut fast, mut reference) = crafted(block);
        let (mut a, mut b) = ([0u8, 1, 2, 3], [0u8, 1, 2, 3]);
        fast.shuffle4(&mut a);
        reference.shuffle(&mut b);
        assert_eq!(a, b);
        assert_eq!(fast.to_reference(), reference);
        // The power-of-two bounds never reject: an all-ones draw is the top entry.
        let (mut fast, mut reference) = crafted([0xff; 20]);
        assert_eq!(fast.below(4), 3);
        assert_eq!(reference.next_below(4), 3);
        assert_eq!(fast.below(2), 1);
        assert_eq!(reference.next_below(2), 1);
    }

    /// §3.6's seed-42 vectors (also checked on the reference).
    #[test]
    fn seed_42_derived_draws_match_the_rules_doc_vector() {
        let mut rng = RefereeDice::new(42);
        assert_eq!(rng.below(5), 4);
        assert_eq!(rng.below(4), 2);
        assert!(!rng.boolean());
        assert_eq!(rng.double(), 0.10550257252099027);
    }

    /// Long streams: thousands of blocks (the state update's carries and its "no byte changed"
    /// case are the reference's `update_state`, whose own tests cover the rare cases).
    #[test]
    fn long_streams_match_the_reference() {
        for seed in [1i64, -1, 42, i64::MIN, i64::MAX, 0x1234_5678_9ABC] {
            let mut reference = Sha1Prng::new(seed);
            let mut fast = RefereeDice::new(seed);
            for k in 0..5_000 {
                assert_eq!(fast.take(4) as i32, reference.next(32), "seed {seed}, draw {k}");
            }
            assert_eq!(fast.to_reference(), reference);
            assert_eq!(fast.bytes_drawn(), reference.bytes_drawn());
        }
    }

    /// Random messages: the portable compression is the `sha1` crate's (an independent
    /// implementation, run on the padded block as bytes), and the SHA-extension compression
    /// the portable one, where this CPU has the extensions.
    #[test]
    fn compressions_match_the_sha1_crate_and_each_other() {
        let sha_extensions =
            testable_compressions("compressions_match_the_sha1_crate_and_each_other")
                .contains(&Compression::ShaExtensions);
        let mut x = 0x2545_F491u32;
        for round in 0..20_000 {
            let message: [u32; 5] = std::array::from_fn(|_| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                x
            });
            let portable = digest_of_state(message);
            let mut block = [0u8; 64];
            for (k, word) in message.iter().enumerate() {
                block[4 * k..4 * k + 4].copy_from_slice(&word.to_be_bytes());
            }
            block[20] = 0x80;
            block[63] = 160;
            let mut by_crate = SHA1_IV;
            sha1::compress(&mut by_crate, &[block.into()]);
            assert_eq!(portable, by_crate, "message {round}: {message:08x?}");
            #[cfg(target_arch = "x86_64")]
            if sha_extensions {
                // SAFETY: `testable_compressions` lists the SHA extensions only where
                // `sha_ni::available()` is true.
                #[allow(unsafe_code)]
                let accelerated = unsafe { crate::olymbits::sha_ni::digest_of_state(message) };
                assert_eq!(accelerated, portable, "message {round}: {message:08x?}");
            }
        }
    }

    /// Whole streams (thousands of blocks, every draw kind) on each compression this CPU has,
    /// forced in turn: the reference's stream.
    #[test]
    fn streams_match_the_reference_on_each_compression() {
        for compression in testable_compressions("streams_match_the_reference_on_each_compression")
        {
            let _only_this_test_sets_it = with_compression(compression);
            for seed in [3i64, -7, 42, i64::MIN, 0x0BAD_5EED] {
                let mut reference = Sha1Prng::new(seed);
                let mut fast = RefereeDice::new(seed);
                for k in 0..3_000u32 {
                    let same = match k % 4 {
                        0 => fast.take(4) as i32 == reference.next(32),
                        1 => fast.below(3) == reference.next_below(3),
                        2 => fast.double().to_bits() == reference.next_double().to_bits(),
                        _ => fast.boolean() == reference.next_boolean(),
                    };
                    assert!(same, "{compression:?}, seed {seed}, draw {k}");
                }
                assert_eq!(fast.to_reference(), reference, "{compression:?}, seed {seed}");
            }
            assert_eq!(super::compression(), compression);
        }
    }

    /// The compression chosen without being told is the SHA extensions' exactly where the CPU
    /// has them.
    #[test]
    fn the_sha_extensions_are_chosen_where_the_cpu_has_them() {
        let available = sha_extensions_available();
        testable_compressions("the_sha_extensions_are_chosen_where_the_cpu_has_them");
        let _lock = COMPRESSION_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        let chosen = decide_compression();
        assert_eq!(chosen == Compression::ShaExtensions, available);
        assert_eq!(super::compression(), chosen);
        assert!(!available || set_compression(Compression::ShaExtensions));
        assert_eq!(set_compression(Compression::ShaExtensions), available);
        assert!(set_compression(chosen));
    }

    /// The word-wide state update is the reference's byte-wise one.
    #[test]
    fn state_update_matches_the_reference() {
        let mut x = 0x9E37_79B9u32;
        for _ in 0..2_000 {
            let mut next = || {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                x
            };
            let state: [u32; 5] = std::array::from_fn(|_| next());
            let output: [u32; 5] = std::array::from_fn(|_| next());
            let bytes = |w: [u32; 5]| -> [u8; 20] {
                std::array::from_fn(|i| w[i / 4].to_le_bytes()[i % 4])
            };
            let expected =
                twinsim_reference::sha1prng::update_state_bytewise(bytes(state), bytes(output));
            assert_eq!(bytes(next_state(state, output)), expected);
            // The output that leaves the sum equal to the state, where only the JDK's "no byte
            // changed" increment of byte 0 applies: O ^ M = S - (S ^ M) - K (mod 2^160).
            let neg = |x: Wide| {
                let lo = (!x.0).wrapping_add(1);
                (lo, (!x.1).wrapping_add(u32::from(lo == 0)))
            };
            let flipped = (wide(state).0 ^ TOP_BITS.0, wide(state).1 ^ TOP_BITS.1);
            let o = add(add(wide(state), neg(flipped)), neg(ONE_MINUS_TWICE_TOP_BITS));
            let still = words((o.0 ^ TOP_BITS.0, o.1 ^ TOP_BITS.1));
            let expected =
                twinsim_reference::sha1prng::update_state_bytewise(bytes(state), bytes(still));
            assert_eq!(expected[1..], bytes(state)[1..]);
            assert_eq!(bytes(next_state(state, still)), expected);
        }
    }
}
