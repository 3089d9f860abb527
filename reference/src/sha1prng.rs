//! `SecureRandom.getInstance("SHA1PRNG")` seeded with `setSeed(long)`, bit-exact, with the
//! `java.util.Random` algorithms layered on its byte stream (Olymbits' generator).
//!
//! Rules doc: `olymbits.md` §3.2 (the byte stream) and §3.3 (derived draws).

use sha1::{Digest, Sha1};

/// The SHA1PRNG byte stream and the draws Olymbits makes from it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Sha1Prng {
    /// Internal state `S` (§3.2 step 2).
    state: [u8; 20],
    /// The current output block and how many of its bytes are used.
    block: [u8; 20],
    used: usize,
    /// Total bytes handed out so far (the traces' `rng_bytes`).
    bytes_drawn: u64,
}

impl Sha1Prng {
    /// `setSeed(seed)` on a fresh SHA1PRNG: `S = SHA-1(seed as 8 little-endian bytes)` (§3.2).
    ///
    /// Seed 0 is not reproducible in Java (the JDK ignores it and self-seeds); here it is
    /// treated like any other value.
    pub fn new(seed: i64) -> Self {
        let digest = Sha1::digest(seed.to_le_bytes());
        Sha1Prng { state: digest.into(), block: [0; 20], used: 20, bytes_drawn: 0 }
    }

    /// Total number of bytes drawn so far (§3.4, the traces' `rng_bytes`).
    pub fn bytes_drawn(&self) -> u64 {
        self.bytes_drawn
    }

    /// §3.2 steps 3–4: the next 20-byte block, and the state update with signed byte arithmetic.
    fn next_block(&mut self) {
        let output: [u8; 20] = Sha1::digest(self.state).into();
        let mut carry: i32 = 1;
        let mut changed = false;
        for (s, o) in self.state.iter_mut().zip(output.iter()) {
            let v = (*s as i8) as i32 + (*o as i8) as i32 + carry;
            let new_byte = (v & 0xFF) as u8;
            if new_byte != *s {
                changed = true;
            }
            *s = new_byte;
            carry = v >> 8;
        }
        if !changed {
            self.state[0] = self.state[0].wrapping_add(1);
        }
        self.block = output;
        self.used = 0;
    }

    /// `nextBytes`: fills `out` with the next bytes of the stream (§3.2 step 5): leftover bytes
    /// of the current block first, then fresh blocks.
    pub fn fill_bytes(&mut self, out: &mut [u8]) {
        let mut filled = 0;
        while filled < out.len() {
            if self.used == 20 {
                self.next_block();
            }
            let take = (20 - self.used).min(out.len() - filled);
            out[filled..filled + take].copy_from_slice(&self.block[self.used..self.used + take]);
            self.used += take;
            filled += take;
        }
        self.bytes_drawn += out.len() as u64;
    }

    /// `next(bits)` (§3.3): `ceil(bits / 8)` bytes as a big-endian integer, top `bits` bits.
    pub fn next(&mut self, bits: u32) -> i32 {
        debug_assert!((1..=32).contains(&bits));
        let count = bits.div_ceil(8) as usize;
        let mut bytes = [0u8; 4];
        self.fill_bytes(&mut bytes[..count]);
        let mut x: u64 = 0;
        for b in &bytes[..count] {
            x = (x << 8) | *b as u64;
        }
        (x >> (8 * count as u32 - bits)) as u32 as i32
    }
}

// §3.3: `nextInt(bound)`, `nextBoolean()`, `nextDouble()`, `shuffle`, ... are the
// `java.util.Random` algorithms over this stream's `next(bits)`.
crate::java_random::java_random_draws!(Sha1Prng);

#[cfg(test)]
mod tests {
    use super::*;

    /// olymbits.md §3.6: the first 45 stream bytes for seed 42.
    #[test]
    fn seed_42_stream_matches_the_rules_doc_vector() {
        let mut rng = Sha1Prng::new(42);
        let mut bytes = [0u8; 45];
        rng.fill_bytes(&mut bytes);
        let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(
            hex,
            "d50ac288b90ede2e311b02376bca7c702fb62a27ba1a100ecb1e7ec5d79bbdbd038e19c067787310b2f7e00c11"
        );
        assert_eq!(rng.bytes_drawn(), 45);
    }

    /// olymbits.md §3.6: derived draws on a fresh seed-42 generator.
    #[test]
    fn seed_42_derived_draws_match_the_rules_doc_vector() {
        let mut rng = Sha1Prng::new(42);
        assert_eq!(rng.next_below(5), 4);
        assert_eq!(rng.next_below(4), 2);
        assert!(!rng.next_boolean());
        assert_eq!(rng.next_double(), 0.10550257252099027);
    }
}
