//! Both referee generators against vectors printed by the JDK itself
//! (`tests/vectors/RngVectors.java`; see its header for the commands).

use twinsim_reference::java_random::JavaRandom;
use twinsim_reference::sha1prng::Sha1Prng;

/// The calls the vector files use, on either generator.
trait JavaRng {
    fn next_int(&mut self) -> i32;
    fn next_int_bounded(&mut self, bound: i32) -> Option<i32>;
    fn next_int_range(&mut self, origin: i32, bound: i32) -> Option<i32>;
    fn next_long(&mut self) -> i64;
    fn next_boolean(&mut self) -> bool;
    fn next_double(&mut self) -> f64;
    fn next_float(&mut self) -> f32;
    fn shuffle(&mut self, list: &mut [u32]);
}

macro_rules! impl_java_rng {
    ($t:ty) => {
        impl JavaRng for $t {
            fn next_int(&mut self) -> i32 {
                <$t>::next_int(self)
            }
            fn next_int_bounded(&mut self, bound: i32) -> Option<i32> {
                <$t>::next_int_bounded(self, bound)
            }
            fn next_int_range(&mut self, origin: i32, bound: i32) -> Option<i32> {
                <$t>::next_int_range(self, origin, bound)
            }
            fn next_long(&mut self) -> i64 {
                <$t>::next_long(self)
            }
            fn next_boolean(&mut self) -> bool {
                <$t>::next_boolean(self)
            }
            fn next_double(&mut self) -> f64 {
                <$t>::next_double(self)
            }
            fn next_float(&mut self) -> f32 {
                <$t>::next_float(self)
            }
            fn shuffle(&mut self, list: &mut [u32]) {
                <$t>::shuffle(self, list)
            }
        }
    };
}
impl_java_rng!(JavaRandom);
impl_java_rng!(Sha1Prng);

/// Replays a vector file; returns how many outputs were checked.
fn check_vectors<R: JavaRng>(text: &str, new: fn(i64) -> R) -> usize {
    let mut rng: Option<R> = None;
    let mut checked = 0;
    for (n, line) in text.lines().enumerate() {
        let (call, expected) = line.split_once(' ').expect("vector line has a call and a value");
        if call == "seed" {
            rng = Some(new(expected.parse().unwrap()));
            continue;
        }
        let rng = rng.as_mut().expect("a seed line comes first");
        let found = if let Some(args) =
            call.strip_prefix("nextInt(").and_then(|c| c.strip_suffix(')'))
        {
            match args.split_once(',') {
                None if args.is_empty() => rng.next_int().to_string(),
                None => rng.next_int_bounded(args.parse().unwrap()).unwrap().to_string(),
                Some((o, b)) => {
                    rng.next_int_range(o.parse().unwrap(), b.parse().unwrap()).unwrap().to_string()
                }
            }
        } else {
            match call {
                "nextLong()" => rng.next_long().to_string(),
                "nextBoolean()" => rng.next_boolean().to_string(),
                "nextDouble()" => format!("{:x}", rng.next_double().to_bits()),
                "nextFloat()" => format!("{:x}", rng.next_float().to_bits()),
                "shuffle(10)" => {
                    let mut list: Vec<u32> = (0..10).collect();
                    rng.shuffle(&mut list);
                    list.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(" ")
                }
                other => panic!("unknown call {other:?} on line {}", n + 1),
            }
        };
        assert_eq!(found, expected, "line {}: {call}", n + 1);
        checked += 1;
    }
    checked
}

#[test]
fn java_util_random_matches_the_jdk() {
    let checked = check_vectors(include_str!("vectors/java_random.txt"), JavaRandom::new);
    assert!(checked >= 10_000, "only {checked} vectors");
}

#[test]
fn sha1prng_matches_the_jdk() {
    let checked = check_vectors(include_str!("vectors/sha1prng.txt"), Sha1Prng::new);
    assert!(checked >= 10_000, "only {checked} vectors");
}
