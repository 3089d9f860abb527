//! twinsim `reference`: the executable rulebooks.
//!
//! One module per game, each written to be read next to `docs/rules/<game>.md`: plain structs, plain
//! loops, one function per rule. Correct above all; the `fast` crate is where speed lives.
//!
//! # The typed API: what a search calls
//!
//! Every game implements [`game::Game`]: seeded setup, who acts, legal actions, a step that
//! takes one optional action per player, and the outcome.
//!
//! ```
//! use twinsim_reference::game::Game;
//! use twinsim_reference::zuniq::Zuniq;
//!
//! let mut state = Zuniq::new_game(1, &Default::default());
//! while Zuniq::outcome(&state).is_none() {
//!     let mover = Zuniq::players_to_act(&state)[0];
//!     let first_legal = Zuniq::legal_actions(&state, mover)[0].clone();
//!     let mut actions = vec![None, None];
//!     actions[mover] = Some(first_legal);
//!     Zuniq::step(&mut state, &actions).expect("a legal action is accepted");
//! }
//! let outcome = Zuniq::outcome(&state).unwrap();
//! assert_eq!(outcome.scores.len(), 2);
//! assert!(Zuniq::step(&mut state, &[None, None]).is_err(), "a finished game refuses to step");
//! ```
//!
//! # The text-level API: the referee's own language
//!
//! [`game::TraceEngine`] plays from the exact lines bots print, bad ones included, and reports
//! the views the referee would send. This is what the replayer, `twinsim verify` and the arena
//! use.
//!
//! ```
//! use twinsim_reference::game::TraceEngine;
//!
//! let engine = twinsim_reference::olymbits::engine().expect("olymbits is implemented");
//! let mut play = engine.setup(Some(1), &serde_json::json!({})).unwrap();
//! let setup = play.initial_record();
//! assert!(setup.initial_view(0).starts_with("0\n4\n"), "player index, then 4 mini-games");
//! // Player 2 prints garbage: the referee deactivates it; nothing panics.
//! let actions = [Some("UP".to_string()), Some("LEFT".to_string()), Some("JUMP!".to_string())];
//! play.play_turn(&actions).unwrap();
//! assert_eq!(play.turn_record().state["active"], serde_json::json!([true, true, false]));
//! ```
//!
//! # The referees' generators
//!
//! ```
//! use twinsim_reference::java_random::JavaRandom;
//!
//! // new java.util.Random(42).nextInt(10) is 0 in every JVM.
//! assert_eq!(JavaRandom::new(42).next_below(10), 0);
//! let mut deck = [1, 2, 3, 4, 5];
//! JavaRandom::new(7).shuffle(&mut deck); // Collections.shuffle(list, new Random(7))
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod framing;
pub mod game;
pub mod java_random;
pub mod java_text;
#[cfg(test)]
mod layout_tests;
pub mod registry;
pub mod sha1prng;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
#[cfg(feature = "json")]
pub mod trace;

pub mod olymbits;
pub mod photosynthesis;
pub mod wondev_woman;
pub mod xmas_rush;
pub mod zuniq;
