//! Validation of the numeric flags, shared by every subcommand: each bad value is refused with
//! an error naming the flag's rule, before any work starts (no flag can make the tool panic,
//! abort on an allocation or start an unbounded number of threads).

/// The bounds the arena library itself enforces (`ArenaConfig::validate`), shared so the flags
/// and the library agree: games per run (and per game for `verify`; memory does not grow with
/// it), games at once, and the time scale.
pub use twinsim_arena::{MAX_GAMES, MAX_THREADS, MAX_TIME_SCALE};

/// Deepest `perft` (the leaf count of any of these games overflows 64 bits long before).
pub const MAX_PERFT_DEPTH: u32 = 16;

/// Most alternating rounds of `bench` per operation.
pub const MAX_BENCH_ROUNDS: usize = 100_000;

/// Largest `--stderr-limit` (bytes kept per bot and game): 1 GiB.
pub const MAX_STDERR_LIMIT: usize = 1 << 30;

/// `--stderr-limit`: 0 to [`MAX_STDERR_LIMIT`] bytes.
pub fn stderr_limit(text: &str) -> Result<usize, String> {
    bounded_count(text, 0, MAX_STDERR_LIMIT, "bytes")
}

/// `--time-scale`: a finite number above 0, at most [`MAX_TIME_SCALE`].
pub fn time_scale(text: &str) -> Result<f64, String> {
    let value: f64 = text.trim().parse().map_err(|_| format!("{text:?} is not a number"))?;
    if !value.is_finite() || value <= 0.0 || value > MAX_TIME_SCALE {
        return Err(format!(
            "{text:?}: the time scale must be a finite number above 0 and at most {MAX_TIME_SCALE}"
        ));
    }
    Ok(value)
}

/// `BOT=X`: the time scale `X` (as [`time_scale`] checks it) of the bot given by the
/// `BOT`-th `--bot` flag, counted from 0.
pub fn bot_time_scale(text: &str) -> Result<(usize, f64), String> {
    let (bot, scale) = text
        .split_once('=')
        .ok_or_else(|| format!("{text:?}: expected BOT=X, e.g. 0=3 (bot 0's limits times 3)"))?;
    let bot = bot
        .trim()
        .parse::<usize>()
        .map_err(|_| format!("{text:?}: BOT is the bot's index (0 for the first --bot)"))?;
    Ok((bot, time_scale(scale)?))
}

/// A count of games from 0 to [`MAX_GAMES`].
pub fn games(text: &str) -> Result<usize, String> {
    bounded_count(text, 0, MAX_GAMES, "games")
}

/// A count of games from 1 to [`MAX_GAMES`] (a run that must play at least one game).
pub fn games_at_least_one(text: &str) -> Result<usize, String> {
    bounded_count(text, 1, MAX_GAMES, "games")
}

/// `--threads`: 1 to [`MAX_THREADS`].
pub fn threads(text: &str) -> Result<usize, String> {
    bounded_count(text, 1, MAX_THREADS, "threads")
}

/// `perft --depth`: 0 to [`MAX_PERFT_DEPTH`].
pub fn perft_depth(text: &str) -> Result<u32, String> {
    bounded_count(text, 0, MAX_PERFT_DEPTH as usize, "plies").map(|d| d as u32)
}

/// `bench --rounds`: 1 to [`MAX_BENCH_ROUNDS`].
pub fn bench_rounds(text: &str) -> Result<usize, String> {
    bounded_count(text, 1, MAX_BENCH_ROUNDS, "rounds")
}

/// A whole number in `low..=high`, named `unit` in the error.
fn bounded_count(text: &str, low: usize, high: usize, unit: &str) -> Result<usize, String> {
    let value: i128 =
        text.trim().parse().map_err(|_| format!("{text:?} is not a whole number of {unit}"))?;
    if value < low as i128 || value > high as i128 {
        return Err(format!("{text:?}: must be from {low} to {high} {unit}"));
    }
    Ok(value as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use quickcheck::quickcheck;

    /// The values a careless or hostile user types.
    const EDGE_VALUES: [&str; 16] = [
        "0",
        "-1",
        "1",
        "nan",
        "NaN",
        "inf",
        "-inf",
        "1e300",
        "1e-300",
        "4294967296",
        "18446744073709551615",
        "18446744073709551616",
        "99999999999999999999999999999999999999999",
        "",
        "abc",
        "2.5",
    ];

    fn every_parser(text: &str) {
        // Each returns a value or an error; a panic fails the test.
        let _ = time_scale(text);
        let _ = games(text);
        let _ = games_at_least_one(text);
        let _ = threads(text);
        let _ = perft_depth(text);
        let _ = bench_rounds(text);
        let _ = stderr_limit(text);
    }

    #[test]
    fn edge_values_give_an_error_or_a_value_in_bounds() {
        for text in EDGE_VALUES {
            every_parser(text);
            if let Ok(scale) = time_scale(text) {
                assert!(scale.is_finite() && scale > 0.0 && scale <= MAX_TIME_SCALE, "{text}");
            }
            if let Ok(n) = threads(text) {
                assert!((1..=MAX_THREADS).contains(&n), "{text}");
            }
            if let Ok(n) = games(text) {
                assert!(n <= MAX_GAMES, "{text}");
            }
        }
        for refused in ["inf", "1e300", "0", "-1", "nan", "-inf", "abc"] {
            assert!(time_scale(refused).is_err(), "time scale {refused} accepted");
        }
        for refused in ["0", "-1", "100000", "4294967296", "nan"] {
            assert!(threads(refused).is_err(), "threads {refused} accepted");
        }
        assert!(games("4294967296000").is_err());
        assert_eq!(games("0"), Ok(0));
        assert!(games_at_least_one("0").is_err());
        assert_eq!(perft_depth("0"), Ok(0));
        assert_eq!(time_scale("0.5"), Ok(0.5));
    }

    quickcheck! {
        fn any_text_is_refused_or_in_bounds(text: String) -> bool {
            every_parser(&text);
            time_scale(&text).is_ok_and(|s| s.is_finite() && s > 0.0) || time_scale(&text).is_err()
        }

        fn any_float_is_refused_or_in_bounds(value: f64) -> bool {
            let text = value.to_string();
            match time_scale(&text) {
                Ok(scale) => scale == value && value > 0.0 && value <= MAX_TIME_SCALE,
                Err(_) => !(value.is_finite() && value > 0.0 && value <= MAX_TIME_SCALE),
            }
        }

        fn any_integer_is_refused_or_in_bounds(value: i64) -> bool {
            let text = value.to_string();
            let in_range = |low: i64, high: usize| value >= low && value as i128 <= high as i128;
            games(&text).is_ok() == in_range(0, MAX_GAMES)
                && threads(&text).is_ok() == in_range(1, MAX_THREADS)
                && perft_depth(&text).is_ok() == in_range(0, MAX_PERFT_DEPTH as usize)
        }
    }
}
