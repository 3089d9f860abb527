//! `java.util.Random`, bit-exact, plus `Collections.shuffle(list, rnd)`.
//!
//! The referees of X-mas Rush, Photosynthesis and Wondev Woman draw their setup from
//! `new java.util.Random(seed)`; reproducing their boards means reproducing this generator call
//! for call. The algorithms are the ones the JDK documents: a 48-bit linear congruential
//! generator (`seed = seed * 0x5DEECE66D + 0xB mod 2^48`) whose `next(bits)` returns the top
//! `bits` bits of the new seed.

const MULTIPLIER: i64 = 0x5DEECE66D;
const ADDEND: i64 = 0xB;
const MASK: i64 = (1 << 48) - 1;

/// A `java.util.Random`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct JavaRandom {
    seed: i64,
}

impl JavaRandom {
    /// `new Random(seed)`: the seed is scrambled with the multiplier.
    pub fn new(seed: i64) -> Self {
        JavaRandom { seed: (seed ^ MULTIPLIER) & MASK }
    }

    /// A generator whose internal 48-bit state is `state` (as returned by [`Self::state`]); for
    /// restoring a generator that a trace recorded.
    pub fn from_state(state: i64) -> Self {
        JavaRandom { seed: state & MASK }
    }

    /// The internal 48-bit state.
    pub fn state(&self) -> i64 {
        self.seed
    }

    /// `setSeed(seed)`.
    pub fn set_seed(&mut self, seed: i64) {
        *self = JavaRandom::new(seed);
    }

    /// `next(bits)`: advances the generator and returns its top `bits` bits (1..=32), as a
    /// signed int exactly like Java (so `next(32)` may be negative).
    pub fn next(&mut self, bits: u32) -> i32 {
        debug_assert!((1..=32).contains(&bits));
        self.seed = (self.seed.wrapping_mul(MULTIPLIER).wrapping_add(ADDEND)) & MASK;
        (self.seed >> (48 - bits)) as i32
    }
}

/// The draws `java.util.Random` derives from `next(bits)`, for any generator type that has an
/// inherent `next(&mut self, bits: u32) -> i32`. Java's `SecureRandom` (Olymbits' SHA1PRNG)
/// overrides only `next` and inherits these algorithms, so both generators share this one text.
macro_rules! java_random_draws {
    ($generator:ty) => {
        impl $generator {
            /// `nextInt()`: 32 uniformly random bits.
            pub fn next_int(&mut self) -> i32 {
                self.next(32)
            }

            /// `nextInt(bound)`: uniform in `0..bound`. Java throws on `bound <= 0`; this returns `None`.
            ///
            /// Powers of two take the top bits of one `next(31)`; other bounds use the JDK's rejection
            /// loop, which can consume several draws.
            pub fn next_int_bounded(&mut self, bound: i32) -> Option<i32> {
                if bound <= 0 {
                    return None;
                }
                let mut r = self.next(31);
                let m = bound - 1;
                if bound & m == 0 {
                    return Some(((bound as i64 * r as i64) >> 31) as i32);
                }
                let mut u = r;
                loop {
                    r = u % bound;
                    // Java's `u - r + m < 0`: the candidate lies in the incomplete last block.
                    if u.wrapping_sub(r).wrapping_add(m) >= 0 {
                        return Some(r);
                    }
                    u = self.next(31);
                }
            }

            /// `nextInt(bound)` for a bound the caller knows is positive (a table size, a constant).
            ///
            /// # Panics
            /// If `bound <= 0`: that is a programming error in the caller, never reachable from input.
            pub fn next_below(&mut self, bound: i32) -> i32 {
                self.next_int_bounded(bound).expect("nextInt bound must be positive")
            }

            /// `nextInt(origin, bound)` (Java 17): uniform in `origin..bound`.
            pub fn next_int_range(&mut self, origin: i32, bound: i32) -> Option<i32> {
                if origin >= bound {
                    return None;
                }
                // RandomSupport.boundedNextInt: Java 17's algorithm for the two-argument form.
                let mut r = self.next_int();
                let n = bound.wrapping_sub(origin);
                if n > 0 {
                    let m = n - 1;
                    if n & m == 0 {
                        r = (r & m).wrapping_add(origin);
                    } else {
                        let mut u = ((r as u32) >> 1) as i32;
                        loop {
                            r = u % n;
                            if u.wrapping_add(m).wrapping_sub(r) >= 0 {
                                break;
                            }
                            u = ((self.next_int() as u32) >> 1) as i32;
                        }
                        r = r.wrapping_add(origin);
                    }
                } else {
                    while r < origin || r >= bound {
                        r = self.next_int();
                    }
                }
                Some(r)
            }

            /// `nextLong()`: two `next(32)` draws, high word first.
            pub fn next_long(&mut self) -> i64 {
                let high = self.next(32) as i64;
                let low = self.next(32) as i64;
                (high << 32).wrapping_add(low)
            }

            /// `nextBoolean()`: one `next(1)` draw.
            pub fn next_boolean(&mut self) -> bool {
                self.next(1) != 0
            }

            /// `nextDouble()`: 53 bits from `next(26)` and `next(27)`, in `[0, 1)`.
            pub fn next_double(&mut self) -> f64 {
                let high = (self.next(26) as i64) << 27;
                let low = self.next(27) as i64;
                (high + low) as f64 * (1.0 / (1u64 << 53) as f64)
            }

            /// `nextFloat()`: 24 bits, in `[0, 1)`.
            pub fn next_float(&mut self) -> f32 {
                self.next(24) as f32 / (1 << 24) as f32
            }

            /// `Collections.shuffle(list, rnd)` for a random-access list: for `i` from `size` down to 2,
            /// swap element `i - 1` with element `nextInt(i)`.
            pub fn shuffle<T>(&mut self, list: &mut [T]) {
                for i in (2..=list.len()).rev() {
                    let j = self.next_below(i as i32) as usize;
                    list.swap(i - 1, j);
                }
            }
        }
    };
}
pub(crate) use java_random_draws;

java_random_draws!(JavaRandom);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_zero_first_ints_match_the_jdk() {
        // new Random(0).nextInt() twice, as printed by the JDK.
        let mut r = JavaRandom::new(0);
        assert_eq!(r.next_int(), -1155484576);
        assert_eq!(r.next_int(), -723955400);
    }

    #[test]
    fn non_positive_bound_is_refused_not_a_panic() {
        let mut r = JavaRandom::new(1);
        assert_eq!(r.next_int_bounded(0), None);
        assert_eq!(r.next_int_bounded(-5), None);
        assert_eq!(r.next_int_range(3, 3), None);
    }

    #[test]
    fn shuffle_of_one_or_zero_elements_draws_nothing() {
        let mut r = JavaRandom::new(7);
        let before = r.clone();
        r.shuffle(&mut [1]);
        r.shuffle::<u8>(&mut []);
        assert_eq!(r, before);
    }
}
