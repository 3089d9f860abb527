//! twinsim `fast`: the optimized twins of the `twinsim_reference` engines, for searches.
//!
//! Same module names as the reference. Every fast state converts from its reference state
//! (`From<&reference State>`) and back (`to_reference`), and every fast operation has a reference
//! twin it is checked against (quickcheck properties, cargo-fuzz targets, the referee traces).
//! Each game's fast twin implements the typed [`Game`](twinsim_reference::game::Game) API as
//! `twinsim_fast::<game>::Fast<Game>`: seeded setup identical to the referee's, who acts, legal
//! actions, a step that refuses an illegal action with an error, the outcome.
//!
//! # One search API for every game and both twins: [`game::SearchGame`]
//!
//! The searches (`twinsim_search`) call a smaller, allocation-free face of that API, implemented
//! by the five fast twins and the five reference twins alike: who acts as a [`game::Players`] bit
//! set, the legal actions written into a reused fixed-capacity [`game::MoveList`] (in
//! `legal_actions` order), and [`game::SearchGame::play`], which validates like `step` and
//! also refuses a missing action of a player to act: an illegal action is an error in the whole
//! typed API; the referee's consequence of a bad line (a
//! forfeit, a deactivation) is applied only by the text layer (`engine()`). Every game has a
//! module `api` with the same names: `State`, `Action`, `MoveList`, `CAPACITY`, and `Fast` and
//! `Reference`, its two twins' typed APIs; they are re-exported at the game's root, so
//! `twinsim_fast::<game>::MoveList` (or `Action`, ...) means the same thing in every game. The
//! games' own packed types have names of their own (Photosynthesis' `CompactMoves`, X-mas Rush's
//! `PackedAction`). Every game's root also has the same text-level names: `engine()`, its
//! `ENGINE` static of type `FastEngine`, and `FastPlay`, a game in progress.
//!
//! Beyond [`game::SearchGame`]: [`game::SearchGame::hash`], a position's hash that both twins
//! compute alike (the searches' transposition key), and [`game::UndoGame`], make/unmake for the
//! games that have it (Wondev Woman). A random playout written once:
//!
//! ```
//! use twinsim_fast::game::{MoveBuffer, SearchGame};
//! use twinsim_fast::{olymbits, zuniq};
//! use twinsim_reference::game::{Game, Outcome, StepError};
//!
//! /// Plays random legal actions to the end of the game: no allocation per move.
//! fn playout<G: SearchGame>(state: &mut G::State, rng: &mut zuniq::Rng) -> Option<Outcome> {
//!     let mut moves = G::MoveList::default();
//!     let mut joint: Vec<Option<G::Action>> = vec![None; G::num_players(state)];
//!     while !G::to_act(state).is_empty() {
//!         for p in G::to_act(state).iter() {
//!             G::legal_moves(state, p, &mut moves);
//!             joint[p] = Some(moves.get(rng.below(moves.len() as u32) as usize).clone());
//!         }
//!         G::play(state, &joint).expect("legal actions are played");
//!         joint.iter_mut().for_each(|a| *a = None);
//!     }
//!     G::outcome(state)
//! }
//!
//! // Alternating (Zuniq) or simultaneous (Olymbits, three players): the same code.
//! let mut fast = zuniq::api::Fast::new_game(1, &Default::default());
//! let mut reference = zuniq::api::Reference::new_game(1, &Default::default());
//! let end = playout::<zuniq::api::Fast>(&mut fast, &mut zuniq::Rng(7));
//! // The twins list the same actions in the same order: the same game on both.
//! assert_eq!(end, playout::<zuniq::api::Reference>(&mut reference, &mut zuniq::Rng(7)));
//! let mut race = olymbits::api::Fast::new_game(1, &Default::default());
//! assert!(playout::<olymbits::api::Fast>(&mut race, &mut zuniq::Rng(7)).is_some());
//!
//! // `play` refuses an illegal action with an error and leaves the state as it was.
//! let mut state = zuniq::api::Fast::new_game(1, &Default::default());
//! let mut moves = zuniq::api::MoveList::default();
//! zuniq::api::Fast::legal_moves(&state, 0, &mut moves);
//! let wall = moves.as_slice()[0];
//! zuniq::api::Fast::play(&mut state, &[Some(wall), None]).unwrap();
//! let before = state.clone();
//! let again = zuniq::api::Fast::play(&mut state, &[None, Some(wall)]);
//! assert!(matches!(again, Err(StepError::Illegal { player: 1, .. })));
//! assert_eq!(state, before);
//! ```
//!
//! A bot reads the referee's text, parses it with the rulebook's
//! `twinsim_reference::<game>::protocol::parse_turn` (and `parse_init` where the game has an
//! init block), rebuilds a search state with `protocol::state_from_view` (each documents what
//! the view hides and what it assumes instead), converts it to the fast twin, and searches.
//! The examples below start from the text the referee sends a seat on the first turn.
//!
//! # Zuniq: the view, legal walls, an allocation-free random playout
//!
//! ```
//! use twinsim_fast::zuniq::{random_game, FastZuniq, Rng, State};
//! use twinsim_reference::game::Game;
//! use twinsim_reference::zuniq::protocol;
//!
//! // White reads `Start`: the board is what White knows (empty) plus what the view relays.
//! let view = protocol::parse_turn("Start").expect("the referee's first line");
//! let known = twinsim_reference::zuniq::State::default();
//! let state = State::from(&protocol::state_from_view(&known, &view).expect("a legal view"));
//! assert_eq!(FastZuniq::legal_actions(&state, 0).len(), 60, "every wall of the empty board");
//! // A whole random game on the bit board: no allocation, about three microseconds.
//! let end = random_game(state.board, &mut Rng(7));
//! assert_eq!(end.legal_mask(), 0, "the game ran to its end");
//! ```
//!
//! # Wondev Woman: init input and a view, the legal list, one step
//!
//! ```
//! use twinsim_fast::wondev_woman::{FastWondevWoman, State};
//! use twinsim_reference::game::{Game, TraceEngine};
//! use twinsim_reference::wondev_woman::protocol;
//!
//! let engine = twinsim_reference::wondev_woman::engine().expect("the reference engine");
//! let record = engine.setup(Some(3), &serde_json::json!({})).unwrap().initial_record();
//! let (init, text) = (record.init_input_of(0).unwrap(), record.initial_view(0));
//! let (size, units) = protocol::parse_init(init).unwrap();
//! let view = protocol::parse_turn(text, size, units).unwrap();
//! // The enemy units may be hidden (fog): here they are guessed at the view's own positions when
//! // shown, else at ours; a real bot asks the fog deduction (`bot::fog`) where they can be.
//! let guess = |i: usize| view.theirs[i].unwrap_or(view.mine[i]);
//! let state = State::from(&protocol::state_from_view(&view, [guess(0), guess(1)], true, 0));
//! let legal = FastWondevWoman::legal_actions(&state, 0);
//! assert_eq!(legal, view.legal, "the fast twin lists exactly what the referee printed");
//! let mut next = state;
//! FastWondevWoman::step(&mut next, &[Some(legal[0]), None]).expect("a legal action");
//! assert_eq!(FastWondevWoman::players_to_act(&next), vec![1]);
//! ```
//!
//! # Olymbits: the first input, the four actions, a joint turn
//!
//! ```
//! use twinsim_fast::olymbits::FastOlymbits;
//! use twinsim_reference::game::{Game, TraceEngine};
//! use twinsim_reference::olymbits::protocol;
//!
//! let engine = twinsim_reference::olymbits::engine().expect("the reference engine");
//! let record = engine.setup(Some(1), &serde_json::json!({})).unwrap().initial_record();
//! let text = record.initial_view(2);
//! let (init, view) = protocol::parse_first_input(text).expect("the referee's text");
//! assert_eq!(init.player, 2);
//! // Future mini-games are unknown to a bot: the state is reseeded with the bot's own seed.
//! let kinds = protocol::mini_games_of_first_view(&view);
//! let state = protocol::state_from_view(&view, &kinds, 0, 42, None, [false; 3]);
//! let mut state = twinsim_fast::olymbits::State::from(&state);
//! let mine = FastOlymbits::legal_actions(&state, init.player);
//! assert_eq!(mine.len(), 4, "UP, DOWN, LEFT, RIGHT");
//! FastOlymbits::step(&mut state, &[Some(mine[0]), Some(mine[1]), Some(mine[2])]).unwrap();
//! assert!(FastOlymbits::outcome(&state).is_none());
//! ```
//!
//! # Photosynthesis: cells, a day's view, the possible actions
//!
//! ```
//! use twinsim_fast::photosynthesis::{FastPhotosynthesis, State};
//! use twinsim_reference::game::{Game, TraceEngine};
//! use twinsim_reference::photosynthesis::protocol;
//!
//! let engine = twinsim_reference::photosynthesis::engine().expect("the reference engine");
//! let record = engine.setup(Some(5), &serde_json::json!({})).unwrap().initial_record();
//! let text = record.initial_view(0); // the 37 cells, then day 0
//! let view = protocol::parse_turn(text).expect("the referee's text");
//! let cells = view.cells.clone().expect("the first turn carries the cells");
//! let state = State::from(&protocol::state_from_view(&cells, &view, 0, 99));
//! let mut legal: Vec<String> =
//!     FastPhotosynthesis::legal_actions(&state, 0).iter().map(|a| a.to_string()).collect();
//! let mut printed: Vec<String> = view.possible_actions.iter().map(|a| a.to_string()).collect();
//! legal.sort();
//! printed.sort();
//! assert_eq!(legal, printed, "the legal list is the referee's list of possible actions");
//! ```
//!
//! # X-mas Rush: a view, its hidden decks, a PUSH turn
//!
//! ```
//! use twinsim_fast::xmas_rush::{FastXmasRush, State};
//! use twinsim_reference::game::Game;
//! use twinsim_reference::xmas_rush::{self as r, protocol};
//!
//! let truth = r::new_game(1, r::League::default());
//! let view = protocol::parse_turn(&r::render_view(&truth, 0)).expect("the referee's text");
//! // The order of the unseen quest cards is hidden: any order of the unseen names will do.
//! let decks = [protocol::unseen_quests(&view, 0), protocol::unseen_quests(&view, 1)];
//! let league = r::League::default();
//! let context = protocol::ViewContext { league, turns_left: 149, stale: 0, decks };
//! let state = State::from(&protocol::state_from_view(&view, 0, &context));
//! let pushes = FastXmasRush::legal_actions(&state, 0);
//! assert_eq!(pushes.len(), 28, "7 lines x 4 directions");
//! let mut next = state;
//! FastXmasRush::step(&mut next, &[Some(pushes[0].clone()), Some(pushes[27].clone())]).unwrap();
//! ```

// `deny`, not `forbid`: the one `unsafe` is `olymbits::sha_ni` (the SHA-1 compression on the
// CPU's SHA extensions, selected at run time), allowed there with a safety comment and
// differential tests; nothing else may use it.
#![deny(unsafe_code)]
#![warn(missing_docs)]

#[cfg(any(test, feature = "testing"))]
#[doc(hidden)]
pub mod bench;

pub mod game;
pub mod olymbits;
#[cfg(all(test, feature = "reference-twin"))]
mod perft_tests;
pub mod photosynthesis;
pub mod rng;
#[cfg(test)]
mod search_api_tests;
pub mod wondev_woman;
pub mod xmas_rush;
pub mod zuniq;
