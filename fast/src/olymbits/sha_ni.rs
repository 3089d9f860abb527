//! The SHA1PRNG's compression ([`super::prng::digest_of_state`]) on the CPU's SHA extensions
//! (`sha1rnds4`, `sha1nexte`, `sha1msg1`, `sha1msg2`): about a tenth of the portable
//! compression's instructions. [`super::prng`] runs it only where [`available`] said yes (checked
//! once per process, at run time); the portable compression stays for every other CPU and
//! architecture, and the two are checked equal on random messages, on whole streams and on whole
//! games (prng's and the Olymbits tests; `.ci/sha-ni` runs them on an emulated CPU that has the
//! extensions, since neither the CI machine nor valgrind does).

use std::arch::x86_64::{
    __m128i, _mm_add_epi32, _mm_extract_epi32, _mm_set_epi32, _mm_sha1msg1_epu32,
    _mm_sha1msg2_epu32, _mm_sha1nexte_epu32, _mm_sha1rnds4_epu32, _mm_xor_si128,
};

/// Whether this CPU has every instruction set [`digest_of_state`] is compiled for.
pub(super) fn available() -> bool {
    std::is_x86_feature_detected!("sha")
        && std::is_x86_feature_detected!("sse2")
        && std::is_x86_feature_detected!("ssse3")
        && std::is_x86_feature_detected!("sse4.1")
}

/// Four words in one vector, the first in the top lane (the order the SHA instructions read:
/// `a` or `W[t]` in lane 3).
macro_rules! lanes {
    ($w0:expr, $w1:expr, $w2:expr, $w3:expr) => {
        _mm_set_epi32($w0 as i32, $w1 as i32, $w2 as i32, $w3 as i32)
    };
}

/// The padding's words (FIPS 180-4 §5.1.1): the `0x80` byte after the 20 message bytes, the
/// zeros, the message length in bits in the last word.
const PADDING_START: u32 = 0x8000_0000;
const ZERO: u32 = 0;
const LENGTH_IN_BITS: u32 = 160;

/// [`super::prng::digest_of_state`] on the SHA extensions: SHA-1 of the 20-byte message whose
/// big-endian words are `message`, i.e. one compression of the padded block `message ‖ 0x80 ‖
/// 0…0 ‖ 160` from the initial hash value.
///
/// The 80 steps go four at a time (`sha1rnds4`, its round function chosen by the immediate: 0
/// for steps 0–19, 1, 2, 3 for the next twenties). The message schedule is kept as groups of
/// four words in a rolling window of four groups: group `j ≥ 4` is
/// `sha1msg2(sha1msg1(G[j-4], G[j-3]) ^ G[j-2], G[j-1])` (FIPS 180-4's `W[t]` recurrence, the
/// `W[t-3]` terms that fall inside the group resolved by `sha1msg2`). The `e` a group of steps
/// starts from is the `a` of four steps before rotated by 30, which `sha1nexte` adds to the
/// group's words. Groups past the last one are computed by the uniform loop body and left
/// unused; LLVM drops them (the intrinsics have no side effect).
///
/// # Safety
/// The CPU must have the SHA extensions, SSE2, SSSE3 and SSE4.1 ([`available`]).
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
pub(super) unsafe fn digest_of_state(message: [u32; 5]) -> [u32; 5] {
    let [a, b, c, d, e] = super::prng::SHA1_IV;
    let abcd_start = lanes!(a, b, c, d);
    let e_start = lanes!(e, ZERO, ZERO, ZERO);
    let [m0, m1, m2, m3, m4] = message;
    // The block's 16 words: the message, the padding's 0x80 byte, zeros, the length in bits.
    let mut window: [__m128i; 4] = [
        lanes!(m0, m1, m2, m3),
        lanes!(m4, PADDING_START, ZERO, ZERO),
        lanes!(ZERO, ZERO, ZERO, ZERO),
        lanes!(ZERO, ZERO, ZERO, LENGTH_IN_BITS),
    ];
    let mut abcd = abcd_start;
    let mut abcd_before = abcd;
    // Steps 0–3 start from the initial `e`, added to the first four words directly.
    let mut e_and_words = _mm_add_epi32(e_start, window[0]);
    macro_rules! five_groups {
        ($function:literal) => {
            for _ in 0..5 {
                abcd_before = abcd;
                abcd = _mm_sha1rnds4_epu32(abcd, e_and_words, $function);
                let scheduled = _mm_sha1msg2_epu32(
                    _mm_xor_si128(_mm_sha1msg1_epu32(window[0], window[1]), window[2]),
                    window[3],
                );
                window = [window[1], window[2], window[3], scheduled];
                e_and_words = _mm_sha1nexte_epu32(abcd_before, window[0]);
            }
        };
    }
    five_groups!(0);
    five_groups!(1);
    five_groups!(2);
    five_groups!(3);
    // The final `e` is the `a` four steps before the end, rotated, plus the initial `e`.
    let e_end = _mm_sha1nexte_epu32(abcd_before, e_start);
    let abcd_end = _mm_add_epi32(abcd, abcd_start);
    [
        _mm_extract_epi32(abcd_end, 3) as u32,
        _mm_extract_epi32(abcd_end, 2) as u32,
        _mm_extract_epi32(abcd_end, 1) as u32,
        _mm_extract_epi32(abcd_end, 0) as u32,
        _mm_extract_epi32(e_end, 3) as u32,
    ]
}
