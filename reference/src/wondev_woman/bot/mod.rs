//! What a Wondev Woman bot computes from its views, beside the rules (nothing here is a rule of
//! `docs/rules/wondev-woman.md`; everything is built on [`super::rules`] and [`super::protocol`]):
//!
//! - [`fog`]: the exact set of placements the hidden enemy units can have (§7, §9), deduced
//!   from the views and the bot's own answers; the fast twin is
//!   `twinsim_fast::wondev_woman::bot::fog`.
//! - [`eval`]: the Voronoi evaluation of the contest runner-up, the reference twin of
//!   `twinsim_fast::wondev_woman::bot::voronoi`.

pub mod eval;
pub mod fog;
