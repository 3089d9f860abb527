//! The fast Olymbits joint turn allocates nothing (counted by a global allocator wrapper on
//! the test's own thread).
//!
//! The wrapper is the allocator of the whole `all` test binary; its count is per thread, so the
//! tests running beside this one on other threads do not disturb it.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use twinsim_reference::olymbits as r;

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations() -> usize {
    ALLOCATIONS.with(|c| c.get())
}

#[test]
fn fast_turns_and_whole_games_do_not_allocate() {
    // Build the tables first (once, on first use).
    let _ = twinsim_fast::olymbits::hurdle_tables();
    let mut reference_allocs = 0;
    for seed in 1..20i64 {
        let before = allocations();
        let mut s = twinsim_fast::olymbits::State::new(seed, &r::Params::default()).unwrap();
        let mut k = seed as usize;
        while !s.is_over() {
            let actions = std::array::from_fn(|i| Some(r::Action::ALL[(k + i * 3) % 4]));
            let copy = s.clone();
            s.step(&actions).unwrap();
            std::hint::black_box(copy);
            k = k.wrapping_mul(31).wrapping_add(7);
        }
        assert_eq!(allocations() - before, 0, "seed {seed}");
        // The reference does allocate (sanity check that the counter counts).
        let before = allocations();
        let mut t = r::new_game(seed, &r::Params::default()).unwrap();
        let up = || r::PlayerInput::Action(r::Action::Up);
        r::play_turn(&mut t, &[up(), up(), up()]).unwrap();
        reference_allocs += allocations() - before;
    }
    assert!(reference_allocs > 0);
}
