//! The fast twins of the bot-side computations of `twinsim_reference::wondev_woman::bot` (not
//! rules): the fog deduction and the Voronoi evaluation.
//!
//! - [`fog`]: the bitboard fog tracker (twin: `twinsim_reference::wondev_woman::bot::fog`).
//! - [`voronoi`]: the bit-parallel Voronoi evaluation (twin:
//!   `twinsim_reference::wondev_woman::bot::eval`).

pub mod fog;
pub mod voronoi;
