//! After construction, nothing in core allocates: thousands of mixed actions, observations,
//! masks, frames and snapshots, counted by a global allocator that counts per thread (so the
//! parallel test harness does not disturb the count).

use std::alloc::{GlobalAlloc, Layout as AllocLayout, System};
use std::cell::Cell;

use evoharness_core::obs::Layout;
use evoharness_core::script::{self, Scratch};
use evoharness_core::wire::{COBS_FRAME_MAX, FRAME_MAX, Frame, Message};
use evoharness_core::{Config, HeapWorkspace, InlineWorkspace, Workspace, snapshot};

struct Counting;

thread_local! {
    static ALLOCS: Cell<u64> = const { Cell::new(0) };
}

// SAFETY: forwards to the system allocator unchanged; only counts calls on this thread.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: AllocLayout) -> *mut u8 {
        let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: AllocLayout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: AllocLayout, new: usize) -> *mut u8 {
        let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocs() -> u64 {
    ALLOCS.with(Cell::get)
}

/// A deterministic byte stream (xorshift) to drive the script interpreter.
fn bytes(seed: u64, out: &mut [u8]) {
    let mut x = seed | 1;
    for b in out {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        *b = (x >> 24) as u8;
    }
}

fn drive<S: evoharness_core::Storage>(ws: &mut Workspace<S>, rounds: u64) -> script::Stats {
    let layout = Layout::new(ws.capacities());
    let max = snapshot::max_len(ws.capacities());
    // Buffers are the host's, made before the counted region.
    let mut a = vec![0u8; max];
    let mut b = vec![0u8; max];
    let mut mask = vec![0u8; layout.actions()];
    let mut obs = vec![0f32; layout.obs_len()];
    let mut input = vec![0u8; 4096];
    let mut frame = [0u8; FRAME_MAX];
    let mut cobs = [0u8; COBS_FRAME_MAX];
    let mut total = script::Stats::default();

    // The counter itself works (else this test could not fail).
    let probe = allocs();
    drop(std::hint::black_box(Box::new(7u64)));
    assert_eq!(allocs(), probe + 1);

    let before = allocs();
    for seed in 0..rounds {
        bytes(seed + 1, &mut input);
        let mut s = Scratch {
            snap_a: &mut a,
            snap_b: &mut b,
            mask: &mut mask,
            obs: &mut obs,
        };
        let st = script::run(ws, &input, &mut s).expect("invariants hold");
        total.applied += st.applied;
        total.refused += st.refused;
        total.snapshots += st.snapshots;
        // Frames: every resolvable template as an action frame, encoded and decoded.
        for i in (0..layout.actions()).step_by(7) {
            if let Ok(action) = layout.resolve(ws, i) {
                let f = Frame::new(i as u32, Message::Action(action));
                let n = f.encode(&mut frame).unwrap().len();
                assert_eq!(Frame::decode(&frame[..n]).unwrap(), f);
                let n = f.encode_cobs(&mut cobs).unwrap().len();
                assert_eq!(Frame::decode_cobs(&mut cobs[..n]).unwrap(), f);
            }
        }
    }
    let after = allocs();
    assert_eq!(after - before, 0, "allocations after construction");
    total
}

#[test]
#[cfg_attr(
    miri,
    ignore = "minutes under Miri; the same paths run in the other tests"
)]
fn heap_workspace_allocates_nothing_after_construction() {
    let mut ws = HeapWorkspace::with_capacities(24, 12, 6, Config::new(5, 100_000)).unwrap();
    let st = drive(&mut ws, 40);
    // The run must really have exercised the workspace, not refused everything.
    assert!(st.applied > 2_000, "{st:?}");
    assert!(st.refused > 100, "{st:?}");
    assert!(st.snapshots > 50, "{st:?}");
}

#[test]
#[cfg_attr(
    miri,
    ignore = "minutes under Miri; the same paths run in the other tests"
)]
fn inline_workspace_allocates_nothing_at_all() {
    let before = allocs();
    let ws = InlineWorkspace::<16, 8, 4>::new(Config::new(3, 100_000)).unwrap();
    assert_eq!(
        allocs() - before,
        0,
        "inline construction allocates nothing"
    );
    let mut ws = Box::new(ws);
    let st = drive(&mut ws, 20);
    assert!(st.applied > 1_000, "{st:?}");
}
