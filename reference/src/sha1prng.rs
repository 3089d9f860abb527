//! `SecureRandom.getInstance("SHA1PRNG")` seeded with `setSeed(long)`, bit-exact, with the
//! `java.util.Random` algorithms layered on its byte stream (Olymbits' generator).
//!
//! Rules doc: `olymbits.md` §3.2 (the byte stream) and §3.3 (derived draws).

#[cfg(test)]
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

/// [`Sha1Prng`]'s fields, as [`Sha1Prng::parts`] hands them out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sha1PrngParts {
    /// Internal state `S` (§3.2 step 2).
    pub state: [u8; 20],
    /// The current output block.
    pub block: [u8; 20],
    /// How many bytes of `block` are used (0..=20).
    pub used: u8,
    /// Total bytes handed out so far.
    pub bytes_drawn: u64,
}

impl Sha1Prng {
    /// `setSeed(seed)` on a fresh SHA1PRNG: `S = SHA-1(seed as 8 little-endian bytes)` (§3.2).
    ///
    /// Seed 0 is not reproducible in Java (the JDK ignores it and self-seeds); here it is
    /// treated like any other value.
    pub fn new(seed: i64) -> Self {
        // One padded block: the 8 seed bytes, the 0x80 terminator, the bit length (64).
        let mut block = [0u8; 64];
        block[..8].copy_from_slice(&seed.to_le_bytes());
        block[8] = 0x80;
        block[63] = 64;
        Sha1Prng { state: sha1_of_block(block), block: [0; 20], used: 20, bytes_drawn: 0 }
    }

    /// The whole generator state, for a twin that keeps its own copy in another layout (the
    /// fast Olymbits twin's `RefereeDice`): [`Sha1Prng::from_parts`] gives it back.
    pub fn parts(&self) -> Sha1PrngParts {
        Sha1PrngParts {
            state: self.state,
            block: self.block,
            used: self.used as u8,
            bytes_drawn: self.bytes_drawn,
        }
    }

    /// The generator with these [`Sha1Prng::parts`] (`used` above 20 counts as 20: the block
    /// is spent).
    pub fn from_parts(parts: Sha1PrngParts) -> Self {
        Sha1Prng {
            state: parts.state,
            block: parts.block,
            used: usize::from(parts.used.min(20)),
            bytes_drawn: parts.bytes_drawn,
        }
    }

    /// Total number of bytes drawn so far (§3.4, the traces' `rng_bytes`).
    pub fn bytes_drawn(&self) -> u64 {
        self.bytes_drawn
    }

    /// §3.2 steps 3–4: the next 20-byte block, and the state update with signed byte arithmetic.
    ///
    /// Per block, not per byte: the SHA-1 of the 20-byte state is one compression of its padded
    /// 64-byte block (no hasher set-up, buffering or finalisation), and the byte-wise update
    /// ([`update_state_bytewise`], the rule as written) is done as one 160-bit addition
    /// ([`update_state`]; a quickcheck test keeps the two equal).
    fn next_block(&mut self) {
        let output = sha1_of_20_bytes(&self.state);
        self.state = update_state(self.state, output);
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
        let count = (bits as usize + 7) / 8;
        let mut x: u64 = 0;
        if self.used + count <= 20 {
            // The common case: the bytes lie in the current block.
            for b in &self.block[self.used..self.used + count] {
                x = (x << 8) | *b as u64;
            }
            self.used += count;
            self.bytes_drawn += count as u64;
        } else {
            let mut bytes = [0u8; 4];
            self.fill_bytes(&mut bytes[..count]);
            for b in &bytes[..count] {
                x = (x << 8) | *b as u64;
            }
        }
        (x >> (8 * count as u32 - bits)) as u32 as i32
    }
}

/// SHA-1's initial hash value (FIPS 180-4 §5.3.1).
const SHA1_IV: [u32; 5] = [0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0];

/// `SHA-1(data)` for a 20-byte message: the message, the `0x80` terminator, zeros and the
/// big-endian bit length 160 fill exactly one 64-byte block (FIPS 180-4 §5.1.1).
fn sha1_of_20_bytes(data: &[u8; 20]) -> [u8; 20] {
    let mut block = [0u8; 64];
    block[..20].copy_from_slice(data);
    block[20] = 0x80;
    block[63] = 160;
    sha1_of_block(block)
}

/// SHA-1 of a message that fits one padded 64-byte block (FIPS 180-4 §5.1.1 padding done by
/// the caller): one compression from the initial hash value.
fn sha1_of_block(block: [u8; 64]) -> [u8; 20] {
    let mut h = SHA1_IV;
    compress(&mut h, block);
    let mut out = [0u8; 20];
    for (chunk, word) in out.chunks_exact_mut(4).zip(h) {
        chunk.copy_from_slice(&word.to_be_bytes());
    }
    out
}

/// The SHA-1 compression function through the `sha1` crate, which uses the CPU's SHA
/// extensions where it has them.
#[cfg(feature = "sha1")]
fn compress(h: &mut [u32; 5], block: [u8; 64]) {
    sha1::compress(h, &[block.into()]);
}

/// The SHA-1 compression function, portable (FIPS 180-4 §6.1.2): the dependency-free build's
/// (a contest bot's); a test keeps it equal to the `sha1` crate's.
#[cfg_attr(feature = "sha1", allow(dead_code))]
fn compress_portable(h: &mut [u32; 5], block: [u8; 64]) {
    let mut w = [0u32; 80];
    for (t, word) in block.chunks_exact(4).enumerate() {
        w[t] = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
    }
    for t in 16..80 {
        w[t] = (w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16]).rotate_left(1);
    }
    let [mut a, mut b, mut c, mut d, mut e] = *h;
    for (t, &word) in w.iter().enumerate() {
        let (f, k) = match t / 20 {
            0 => ((b & c) | (!b & d), 0x5A827999),
            1 => (b ^ c ^ d, 0x6ED9EBA1),
            2 => ((b & c) | (b & d) | (c & d), 0x8F1BBCDC),
            _ => (b ^ c ^ d, 0xCA62C1D6),
        };
        let temp =
            a.rotate_left(5).wrapping_add(f).wrapping_add(e).wrapping_add(k).wrapping_add(word);
        e = d;
        d = c;
        c = b.rotate_left(30);
        b = a;
        a = temp;
    }
    for (h, v) in h.iter_mut().zip([a, b, c, d, e]) {
        *h = h.wrapping_add(v);
    }
}

#[cfg(not(feature = "sha1"))]
use compress_portable as compress;

/// §3.2 step 4 as the JDK writes it: byte by byte from index 0, signed bytes, carry `v >> 8`
/// starting at 1; if no byte changed, `state[0]` is incremented. [`update_state`] is its
/// word-wide twin.
pub fn update_state_bytewise(mut state: [u8; 20], output: [u8; 20]) -> [u8; 20] {
    let mut carry: i32 = 1;
    let mut changed = false;
    for (s, o) in state.iter_mut().zip(output.iter()) {
        let v = (*s as i8) as i32 + (*o as i8) as i32 + carry;
        let new_byte = (v & 0xFF) as u8;
        if new_byte != *s {
            changed = true;
        }
        *s = new_byte;
        carry = v >> 8;
    }
    if !changed {
        state[0] = state[0].wrapping_add(1);
    }
    state
}

/// [`update_state_bytewise`] as one 160-bit addition. The byte loop computes the base-256
/// digits of `V = sum((s_i + o_i) * 256^i) + 1` with *signed* digits `s_i`, `o_i`, modulo
/// 2^160. A signed byte is its unsigned value minus 256 when its top bit is set, so with `U`
/// the unsigned little-endian value and `M` the mask of every byte's top bit,
/// `sum(s_i * 256^i) = U - 2 (U & M) = (U ^ M) - M`; hence
/// `V = (S ^ M) + (O ^ M) + 1 - 2M (mod 2^160)`, done on a `u128` low part and a `u32` high part.
pub fn update_state(state: [u8; 20], output: [u8; 20]) -> [u8; 20] {
    const M_LO: u128 = u128::from_le_bytes([0x80; 16]);
    const M_HI: u32 = u32::from_le_bytes([0x80; 4]);
    let split = |b: &[u8; 20]| {
        let mut lo = [0u8; 16];
        lo.copy_from_slice(&b[..16]);
        let mut hi = [0u8; 4];
        hi.copy_from_slice(&b[16..]);
        (u128::from_le_bytes(lo) ^ M_LO, u32::from_le_bytes(hi) ^ M_HI)
    };
    let add = |x: (u128, u32), y: (u128, u32)| {
        let (lo, carry) = x.0.overflowing_add(y.0);
        (lo, x.1.wrapping_add(y.1).wrapping_add(carry as u32))
    };
    // 1 - 2M modulo 2^160, as the two's complement of 2M - 1.
    let two_m_minus_1 = add((M_LO, M_HI), (M_LO - 1, M_HI));
    let k = add((!two_m_minus_1.0, !two_m_minus_1.1), (1, 0));
    let (lo, hi) = add(add(split(&state), split(&output)), k);
    let mut out = [0u8; 20];
    out[..16].copy_from_slice(&lo.to_le_bytes());
    out[16..].copy_from_slice(&hi.to_le_bytes());
    if out == state {
        // No byte changed: the JDK increments byte 0 alone (no carry).
        out[0] = out[0].wrapping_add(1);
    }
    out
}

// §3.3: `nextInt(bound)`, `nextBoolean()`, `nextDouble()`, `shuffle`, ... are the
// `java.util.Random` algorithms over this stream's `next(bits)`.
crate::java_random::java_random_draws!(Sha1Prng);

#[cfg(test)]
mod tests {
    use super::*;
    use quickcheck::quickcheck;

    fn bytes20(v: &[u8]) -> [u8; 20] {
        std::array::from_fn(|i| v.get(i).copied().unwrap_or(0))
    }

    quickcheck! {
        /// The 160-bit state update against the JDK's byte loop, on random states and outputs
        /// (`hint` forces equal-state cases, where only the "no byte changed" rule decides).
        fn word_update_matches_the_byte_loop(s: Vec<u8>, o: Vec<u8>, hint: u8) -> bool {
            let state = bytes20(&s);
            let output = match hint % 4 {
                // output = -state + c makes the sum keep the state: exercises the increment
                0 => update_state_bytewise_inverse(state),
                1 => [0xFF; 20],
                _ => bytes20(&o),
            };
            update_state(state, output) == update_state_bytewise(state, output)
        }

        /// One compression of the padded block is SHA-1 of the 20 bytes.
        fn one_block_sha1_matches_the_digest(s: Vec<u8>) -> bool {
            let data = bytes20(&s);
            let digest: [u8; 20] = Sha1::digest(data).into();
            sha1_of_20_bytes(&data) == digest
        }

        /// The portable compression (the dependency-free build's) is the `sha1` crate's, and
        /// the seeding block is SHA-1 of the seed's 8 bytes.
        fn portable_compression_matches_the_crate(s: Vec<u8>, seed: i64) -> bool {
            let block: [u8; 64] = std::array::from_fn(|i| s.get(i).copied().unwrap_or(i as u8));
            let (mut portable, mut library) = (SHA1_IV, SHA1_IV);
            compress_portable(&mut portable, block);
            sha1::compress(&mut library, &[block.into()]);
            let digest: [u8; 20] = Sha1::digest(seed.to_le_bytes()).into();
            portable == library && Sha1Prng::new(seed).state == digest
        }
    }

    /// The output that leaves `state` unchanged under the byte loop's sum (so that only its
    /// "no byte changed" increment applies): from `V = (S^M) + (O^M) + 1 - 2M = S`,
    /// `O^M = S - (S^M) - 1 + 2M (mod 2^160)`, computed digit by digit with borrows. Random
    /// outputs almost never hit this case, so the tests build it.
    fn update_state_bytewise_inverse(state: [u8; 20]) -> [u8; 20] {
        let mut out = [0u8; 20];
        let mut borrow: i32 = 0;
        for i in 0..20 {
            let s = state[i] as i32;
            let sm = (state[i] ^ 0x80) as i32;
            let two_m = if i == 0 { 0 } else { 1 };
            let one = if i == 0 { 1 } else { 0 };
            let v = s - sm - one + two_m + borrow;
            out[i] = (v.rem_euclid(256) as u8) ^ 0x80;
            borrow = v.div_euclid(256);
        }
        out
    }

    #[test]
    fn an_unchanged_state_increments_its_first_byte() {
        for seed in 0..64u8 {
            let state = bytes20(&[seed, 1, 2, 3, seed.wrapping_mul(7)]);
            let output = update_state_bytewise_inverse(state);
            let mut bumped = state;
            bumped[0] = bumped[0].wrapping_add(1);
            assert_eq!(update_state_bytewise(state, output), bumped);
            assert_eq!(update_state(state, output), bumped);
        }
    }

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
