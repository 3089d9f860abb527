//! The project's two small non-cryptographic generators, written once: splitmix64 (a `const fn`
//! hash of a counter, which the Zobrist tables are built from at compile time) and xorshift
//! (the streams of random playouts, searches and benchmarks). Neither is a referee's generator:
//! those live with their games (`JavaRandom`, SHA1PRNG). Every output here is pinned: Zobrist
//! keys, played benchmark positions and snapshots depend on the exact values.

/// The splitmix64 increment, ⌊2⁶⁴/φ⌋ (Steele, Lea and Flood, "Fast splittable pseudorandom
/// number generators", 2014).
pub const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// splitmix64's output finalizer (the variant-13 mix of Stafford's MurmurHash3 study): a
/// bijection of `u64` whose output bits each depend on every input bit.
#[inline]
pub const fn splitmix64_mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// splitmix64 as a hash: the output of the generator whose state was `z` before its step
/// (`z + GOLDEN_GAMMA`, mixed). Distinct inputs give distinct outputs.
#[inline]
pub const fn splitmix64(z: u64) -> u64 {
    splitmix64_mix(z.wrapping_add(GOLDEN_GAMMA))
}

/// One step of Marsaglia's xorshift64 (shifts 13, 7, 17): the next state, which is also the
/// output. A zero state stays zero.
#[inline]
pub const fn xorshift64(mut x: u64) -> u64 {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    x
}

/// A uniform-ish index below `n` from a 64-bit draw: the high 32 bits, multiply-shifted
/// (Lemire's method without rejection; the bias is below n / 2³²).
#[inline]
pub const fn below_from(draw: u64, n: u64) -> u64 {
    ((draw >> 32) * n) >> 32
}

/// xorshift64* (Vigna, shifts 12, 25, 27 and an odd multiplier): the generator of random
/// playouts and searches. The state must not be zero (it would stay zero).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct XorShift64Star(pub u64);

impl XorShift64Star {
    /// The next 64-bit output.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n` (`n > 0`; 0 gives 0), by [`below_from`].
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        below_from(self.next_u64(), u64::from(n)) as u32
    }

    /// An index below `len` (`len < 2³²`), the same draw as [`XorShift64Star::below`].
    #[inline]
    pub fn index(&mut self, len: usize) -> usize {
        below_from(self.next_u64(), len as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pinned outputs: the Zobrist tables and the benchmark positions are built from these
    /// streams, so a change here would change every hash and every benchmark position.
    #[test]
    fn outputs_are_the_published_ones() {
        // splitmix64 seeded with 0: the first outputs of the reference implementation.
        let mut state = 0u64;
        let mut next = || {
            let out = splitmix64(state);
            state = state.wrapping_add(GOLDEN_GAMMA);
            out
        };
        assert_eq!(next(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(next(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(next(), 0x06C4_5D18_8009_454F);
        assert_eq!(xorshift64(1), 0x4082_2041);
        let mut star = XorShift64Star(1);
        assert_eq!(star.next_u64(), 0x47E4_CE4B_896C_DD1D);
        assert_eq!(below_from(u64::MAX, 10), 9);
        assert_eq!(below_from(0, 10), 0);
    }
}
