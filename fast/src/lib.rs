//! twinsim `fast`: the optimized twins of the `reference` engines.
//!
//! Same module names as `reference`. Every fast state converts from and to its reference state,
//! and every fast operation has a reference twin it is checked against (quickcheck properties,
//! cargo-fuzz targets, the referee traces).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[cfg(any(test, feature = "testing"))]
#[doc(hidden)]
pub mod bench;

pub mod olymbits;
pub mod photosynthesis;
pub mod wondev_woman;
pub mod xmas_rush;
pub mod zuniq;
