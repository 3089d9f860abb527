//! Answer times: how long each seat took to answer, per game (exact median, 99th percentile and
//! maximum of that game's answers) and per bot over a whole run (a fixed-size histogram, so a run
//! of any length keeps flat memory, with the maximum kept exactly).
//!
//! An answer time runs from the moment the arena hands a bot its input to the moment the answer
//! was there: for a search bot, when its search returned (not when the arena next looked, which in
//! a simultaneous game comes after the other seats' built-in bots have computed); for a process
//! bot, when the arena received the line. A timeout counts with the time until it was declared
//! (a search bot's: how long it really took), so the maximum shows how late it was; a bot whose
//! output closed has no time for that request. Times are whole microseconds.

use serde_json::Value;

/// Median, 99th percentile and maximum of some answer times, in microseconds; written and read
/// as `{"median": ms, "p99": ms, "max": ms, "answers": n}`, times in milliseconds with three
/// decimals (the microseconds exactly).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(into = "SummaryInMs", from = "SummaryInMs")]
pub struct Summary {
    /// The median (nearest rank: the ⌈n/2⌉-th smallest).
    pub median: u64,
    /// The 99th percentile (nearest rank: the ⌈0.99·n⌉-th smallest).
    pub p99: u64,
    /// The largest.
    pub max: u64,
    /// How many answers were timed.
    pub answers: u64,
}

/// The nearest-rank `q`-quantile's 1-based rank among `n` values (`n > 0`): ⌈q·n⌉, at least 1.
/// Computed in integers (q in percent) so that ranks never depend on float rounding.
fn nearest_rank(percent: u64, n: u64) -> u64 {
    (percent * n).div_ceil(100).max(1)
}

impl Summary {
    /// The summary of `times` (microseconds, any order); `None` when there are none.
    pub fn of(times: &[u32]) -> Option<Summary> {
        if times.is_empty() {
            return None;
        }
        let mut sorted = times.to_vec();
        sorted.sort_unstable();
        let n = sorted.len() as u64;
        let at = |percent: u64| u64::from(sorted[nearest_rank(percent, n) as usize - 1]);
        Some(Summary { median: at(50), p99: at(99), max: at(100), answers: n })
    }

    /// `{"median": ms, "p99": ms, "max": ms, "answers": n}`, times in milliseconds with three
    /// decimals (the microseconds exactly).
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).expect("a summary serializes")
    }
}

/// A [`Summary`] as written: times in milliseconds.
#[derive(serde::Serialize, serde::Deserialize)]
struct SummaryInMs {
    // Keys in alphabetical order, as these summaries have always been written.
    answers: u64,
    max: f64,
    median: f64,
    p99: f64,
}

impl From<Summary> for SummaryInMs {
    fn from(s: Summary) -> Self {
        SummaryInMs { median: ms(s.median), p99: ms(s.p99), max: ms(s.max), answers: s.answers }
    }
}

impl From<SummaryInMs> for Summary {
    fn from(s: SummaryInMs) -> Self {
        // Written with three decimals, so the microseconds come back exactly.
        let us = |ms: f64| (ms * 1000.0).round().max(0.0) as u64;
        Summary { median: us(s.median), p99: us(s.p99), max: us(s.max), answers: s.answers }
    }
}

/// Microseconds as milliseconds (exact to the microsecond in JSON's decimal form).
fn ms(us: u64) -> f64 {
    us as f64 / 1000.0
}

/// Bits of a histogram bucket's mantissa: a bucket spans at most 1/128 of its values (0.8%).
const MANTISSA_BITS: u32 = 7;
/// Values below this have a bucket each.
const EXACT_BELOW: u64 = 1 << (MANTISSA_BITS + 1);
/// Buckets: the exact ones, then 128 per power of two up to 2^32 µs (71 minutes, more than any
/// time limit times the largest time scale).
const BUCKETS: usize = (EXACT_BELOW as usize) + (32 - MANTISSA_BITS as usize - 1) * 128;

/// Answer times counted into log-linear buckets (exact below 256 µs, then 128 buckets per
/// power of two): quantiles are within 0.8% of the exact ones, the maximum is exact, and the
/// memory is fixed (about 26 KiB) however many answers are counted.
#[derive(Clone, Debug, PartialEq)]
pub struct Histogram {
    counts: Vec<u64>,
    total: u64,
    max: u64,
}

impl Default for Histogram {
    fn default() -> Self {
        Histogram { counts: vec![0; BUCKETS], total: 0, max: 0 }
    }
}

/// The bucket of `us` (values past the last bucket go to it).
fn bucket(us: u64) -> usize {
    if us < EXACT_BELOW {
        return us as usize;
    }
    // us = mantissa · 2^shift with the mantissa in [128, 256).
    let shift = 63 - us.leading_zeros() - MANTISSA_BITS;
    let mantissa = (us >> shift) - (1 << MANTISSA_BITS);
    let index = EXACT_BELOW as usize + (shift as usize - 1) * 128 + mantissa as usize;
    index.min(BUCKETS - 1)
}

/// The smallest value of bucket `index`.
fn bucket_low(index: usize) -> u64 {
    if index < EXACT_BELOW as usize {
        return index as u64;
    }
    let shift = (index - EXACT_BELOW as usize) / 128 + 1;
    let mantissa = ((index - EXACT_BELOW as usize) % 128) as u64 + (1 << MANTISSA_BITS);
    mantissa << shift
}

impl Histogram {
    /// Counts the answer times `times` (microseconds).
    pub fn add_all(&mut self, times: &[u32]) {
        for &t in times {
            let t = u64::from(t);
            self.counts[bucket(t)] += 1;
            self.total += 1;
            self.max = self.max.max(t);
        }
    }

    /// Median, 99th percentile (nearest rank, each the middle of its bucket, never above the
    /// maximum) and the exact maximum; `None` before any answer.
    pub fn summary(&self) -> Option<Summary> {
        if self.total == 0 {
            return None;
        }
        let quantile = |percent: u64| -> u64 {
            let rank = nearest_rank(percent, self.total);
            if rank == self.total {
                return self.max; // the largest value is known exactly
            }
            let mut seen = 0;
            for (index, &count) in self.counts.iter().enumerate() {
                seen += count;
                if seen >= rank {
                    let (low, next) = (bucket_low(index), bucket_low(index + 1));
                    let middle = if next > low + 1 { low + (next - low) / 2 } else { low };
                    return middle.min(self.max);
                }
            }
            self.max
        };
        Some(Summary {
            median: quantile(50),
            p99: quantile(99),
            max: self.max,
            answers: self.total,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_games_summary_takes_nearest_ranks() {
        // 1..=200 µs: the median is the 100th value, the 99th percentile the 198th.
        let times: Vec<u32> = (1..=200).rev().collect();
        let s = Summary::of(&times).unwrap();
        assert_eq!((s.median, s.p99, s.max, s.answers), (100, 198, 200, 200));
        let one = Summary::of(&[7]).unwrap();
        assert_eq!((one.median, one.p99, one.max), (7, 7, 7));
        // Three values: ranks ⌈1.5⌉ = 2 and ⌈2.97⌉ = 3.
        let three = Summary::of(&[30, 10, 20]).unwrap();
        assert_eq!((three.median, three.p99), (20, 30));
        assert_eq!(Summary::of(&[]), None);
        assert_eq!(
            one.to_json(),
            json!({"median": 0.007, "p99": 0.007, "max": 0.007, "answers": 1})
        );
    }

    #[test]
    fn buckets_tile_the_range_in_order() {
        for us in [0, 1, 255, 256, 257, 511, 512, 24_999, 25_000, 1 << 31, u64::from(u32::MAX)] {
            let b = bucket(us);
            assert!(bucket_low(b) <= us, "{us}");
            assert!(b + 1 == BUCKETS || us < bucket_low(b + 1), "{us}");
        }
        // Each bucket past the exact ones spans at most 1/128 of its values.
        for b in EXACT_BELOW as usize..BUCKETS - 1 {
            let (low, next) = (bucket_low(b), bucket_low(b + 1));
            assert!(next > low && (next - low) * 128 <= low, "bucket {b}");
        }
    }

    #[test]
    fn the_histogram_is_within_its_precision_of_the_exact_figures() {
        // A spread of times over four orders of magnitude, as the game summaries would see.
        let times: Vec<u32> = (0..10_000u32).map(|i| 50 + (i * 7919) % 40_000).collect();
        let exact = Summary::of(&times).unwrap();
        let mut h = Histogram::default();
        h.add_all(&times[..5000]);
        h.add_all(&times[5000..]);
        let s = h.summary().unwrap();
        assert_eq!((s.max, s.answers), (exact.max, exact.answers));
        for (got, want) in [(s.median, exact.median), (s.p99, exact.p99)] {
            assert!(got.abs_diff(want) * 128 <= want, "{got} vs {want}");
        }
        // Below 256 µs every value has its bucket: exact.
        let mut small = Histogram::default();
        small.add_all(&[3, 1, 2]);
        assert_eq!(small.summary(), Summary::of(&[1, 2, 3]));
        assert_eq!(Histogram::default().summary(), None);
    }
}
