//! Helpers shared by the workspace's tests (the crate's own and the top-level `tests/`): built
//! for `cargo test` and with the `testing` feature, never part of an engine. Snapshot settings,
//! and the lockstep comparison of two implementations of one game through the typed API.

use crate::game::{Game, StepError};
use std::path::Path;

/// The insta settings of every snapshot test: files in the workspace's `snapshots/<folder>/`,
/// named by the snapshot name alone (no module prefix), so a test can move between files or
/// crates without renaming its snapshots.
pub fn snapshot_settings(folder: &str) -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    settings
        .set_snapshot_path(Path::new(env!("CARGO_MANIFEST_DIR")).join("../snapshots").join(folder));
    settings.set_prepend_module_to_snapshot(false);
    settings
}

/// What the typed API shows of a position is the same on two implementations `R` and `F` of
/// one game (the reference and its fast twin): the number of players, who is to act, every
/// player's legal list in order, and the outcome. The first difference, described, is the error.
pub fn same_typed_api<R: Game, F: Game<Action = R::Action>>(
    r: &R::State,
    f: &F::State,
) -> Result<(), String> {
    let players = R::num_players(r);
    if players != F::num_players(f) {
        return Err(format!("num_players: {players} vs {}", F::num_players(f)));
    }
    let (rp, fp) = (R::players_to_act(r), F::players_to_act(f));
    if rp != fp {
        return Err(format!("players_to_act: {rp:?} vs {fp:?}"));
    }
    for player in 0..players {
        let (rl, fl) = (R::legal_actions(r, player), F::legal_actions(f, player));
        if rl != fl {
            return Err(format!("legal_actions of {player}:\n{rl:?}\n{fl:?}"));
        }
    }
    let (ro, fo) = (R::outcome(r), F::outcome(f));
    if ro != fo {
        return Err(format!("outcome: {ro:?} vs {fo:?}"));
    }
    Ok(())
}

/// Steps `R` and `F` (two implementations of one game) with the same actions: both must give
/// the same result, errors and their messages included, and a refused step must leave both
/// states as they were. Returns that result; the error describes the first disagreement.
pub fn step_twins<R: Game, F: Game<Action = R::Action>>(
    r: &mut R::State,
    f: &mut F::State,
    actions: &[Option<R::Action>],
) -> Result<Result<(), StepError>, String> {
    let (r0, f0) = (r.clone(), f.clone());
    let (rr, fr) = (R::step(r, actions), F::step(f, actions));
    if rr != fr {
        return Err(format!("step {actions:?}: {rr:?} vs {fr:?}"));
    }
    if rr.is_err() && (*r != r0 || *f != f0) {
        return Err(format!("refused step {actions:?} ({rr:?}) changed a state"));
    }
    Ok(rr)
}

/// [`step_twins`], then `compare` on the two positions it reached (the caller's full check of
/// a position pair: states, hashes, [`same_typed_api`]). The step's result, or the first
/// disagreement described.
pub fn step_and_compare<R: Game, F: Game<Action = R::Action>>(
    r: &mut R::State,
    f: &mut F::State,
    actions: &[Option<R::Action>],
    compare: impl Fn(&R::State, &F::State) -> Result<(), String>,
) -> Result<Result<(), StepError>, String> {
    let result = step_twins::<R, F>(r, f, actions)?;
    compare(r, f).map_err(|e| format!("after step {actions:?}: {e}"))?;
    Ok(result)
}

/// The typed API agrees on `r` and `f` ([`same_typed_api`]) and the outcome is there exactly
/// when the game is `over` (the reference state's own flag).
pub fn same_typed_api_and_end<R: Game, F: Game<Action = R::Action>>(
    r: &R::State,
    f: &F::State,
    over: bool,
) -> Result<(), String> {
    same_typed_api::<R, F>(r, f)?;
    let outcome = R::outcome(r);
    if outcome.is_some() != over {
        return Err(format!("outcome {outcome:?} while the game over flag is {over}"));
    }
    Ok(())
}

/// An odd step `what` (wrong arity, wrong player, illegal action, finished game) must have been
/// refused.
pub fn expect_refused(result: Result<(), StepError>, what: &str) -> Result<(), String> {
    match result {
        Err(_) => Ok(()),
        Ok(()) => Err(format!("{what} was accepted")),
    }
}
