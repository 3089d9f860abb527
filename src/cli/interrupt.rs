//! Ctrl-C during a long run: the first press sets a flag the run polls (it stops starting games
//! and returns what it finished, so the summary and the `--resume` hint can be printed); a second
//! press ends the process the default way.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

/// The flag the SIGINT handler sets.
static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();

extern "C" fn on_interrupt(_signal: libc::c_int) {
    // Only async-signal-safe work: an atomic store, and restoring the default action so that a
    // second Ctrl-C ends the process at once.
    if let Some(flag) = FLAG.get() {
        flag.store(true, Ordering::SeqCst);
    }
    // SAFETY: signal(2) is async-signal-safe; SIG_DFL is a valid disposition for SIGINT.
    unsafe {
        libc::signal(libc::SIGINT, libc::SIG_DFL);
    }
}

/// Installs the handler (once) and returns the flag it sets.
pub fn watch() -> Arc<AtomicBool> {
    let flag = FLAG.get_or_init(|| Arc::new(AtomicBool::new(false))).clone();
    let handler: extern "C" fn(libc::c_int) = on_interrupt;
    // SAFETY: the handler only stores to an atomic and calls signal(2), both async-signal-safe.
    unsafe {
        libc::signal(libc::SIGINT, handler as libc::sighandler_t);
    }
    flag
}
