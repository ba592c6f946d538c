//! Property tests: determinism, capacity limits, snapshot round trips, storage equivalence and
//! decoder totality, over byte scripts (see `evoharness_core::script`).

use evoharness_core::obs::Layout;
use evoharness_core::script::{self, Scratch};
use evoharness_core::wire::{COBS_FRAME_MAX, FRAME_MAX, Frame, Message};
use evoharness_core::{Config, HeapWorkspace, InlineWorkspace, Storage, Workspace, snapshot};
use proptest::prelude::*;

fn cases() -> ProptestConfig {
    // Miri runs the same properties on far fewer cases, and without the failure file (Miri's
    // isolation has no file system).
    let mut c = ProptestConfig::with_cases(if cfg!(miri) { 3 } else { 200 });
    if cfg!(miri) {
        c.failure_persistence = None;
    }
    c
}

fn script_bytes() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(any::<u8>(), 0..if cfg!(miri) { 64 } else { 1500 })
}

struct Buffers {
    a: Vec<u8>,
    b: Vec<u8>,
    mask: Vec<u8>,
    obs: Vec<f32>,
}

impl Buffers {
    fn for_ws<S: Storage>(ws: &Workspace<S>) -> Self {
        let l = Layout::new(ws.capacities());
        let max = snapshot::max_len(ws.capacities());
        Self {
            a: vec![0; max],
            b: vec![0; max],
            mask: vec![0; l.actions()],
            obs: vec![0.0; l.obs_len()],
        }
    }

    fn scratch(&mut self) -> Scratch<'_> {
        Scratch {
            snap_a: &mut self.a,
            snap_b: &mut self.b,
            mask: &mut self.mask,
            obs: &mut self.obs,
        }
    }
}

fn snap<S: Storage>(ws: &Workspace<S>) -> Vec<u8> {
    let mut buf = vec![0; snapshot::max_len(ws.capacities())];
    let n = ws.snapshot(&mut buf).unwrap().len();
    buf.truncate(n);
    buf
}

fn heap(f: u16, s: u16, l: u16, t: u16) -> HeapWorkspace {
    HeapWorkspace::with_capacities(f, s, l, Config::new(t, 400)).unwrap()
}

proptest! {
    #![proptest_config(cases())]

    /// Invariants hold for any script and any capacities: tables within capacity, unique keys
    /// and triggers, budget respected, mask == apply, refused actions change nothing.
    #[test]
    fn invariants_hold(f in 1u16..10, s in 1u16..6, l in 1u16..5, t in 1u16..5, input in script_bytes()) {
        let mut ws = heap(f, s, l, t);
        let mut b = Buffers::for_ws(&ws);
        let r = script::run(&mut ws, &input, &mut b.scratch());
        prop_assert!(r.is_ok(), "{:?}", r);
    }

    /// The same script on two fresh workspaces gives the same bytes.
    #[test]
    fn apply_is_deterministic(input in script_bytes()) {
        let mut w1 = heap(6, 4, 3, 3);
        let mut w2 = heap(6, 4, 3, 3);
        let mut b = Buffers::for_ws(&w1);
        let s1 = script::run(&mut w1, &input, &mut b.scratch()).unwrap();
        let s2 = script::run(&mut w2, &input, &mut b.scratch()).unwrap();
        prop_assert_eq!(s1, s2);
        prop_assert_eq!(snap(&w1), snap(&w2));
    }

    /// Inline and heap storage of the same capacities behave identically.
    #[test]
    fn inline_and_heap_agree(input in script_bytes()) {
        let mut w1 = heap(6, 4, 3, 3);
        let mut w2 = Box::new(InlineWorkspace::<6, 4, 3>::new(Config::new(3, 400)).unwrap());
        let mut b = Buffers::for_ws(&w1);
        script::run(&mut w1, &input, &mut b.scratch()).unwrap();
        script::run(&mut *w2, &input, &mut b.scratch()).unwrap();
        prop_assert_eq!(snap(&w1), snap(&*w2));
    }

    /// A snapshot restored into a fresh workspace gives the same bytes and the same future.
    #[test]
    fn snapshots_round_trip(input in script_bytes(), more in script_bytes()) {
        let mut w1 = heap(6, 4, 3, 3);
        let mut b = Buffers::for_ws(&w1);
        script::run(&mut w1, &input, &mut b.scratch()).unwrap();
        let bytes = snap(&w1);
        let mut w2 = heap(6, 4, 3, 3);
        w2.restore(&bytes).unwrap();
        prop_assert_eq!(&snap(&w2), &bytes);
        script::run(&mut w1, &more, &mut b.scratch()).unwrap();
        script::run(&mut w2, &more, &mut b.scratch()).unwrap();
        prop_assert_eq!(snap(&w1), snap(&w2));
    }

    /// Any single corrupted byte or truncation is refused, and the target is left unchanged.
    #[test]
    fn corrupted_snapshots_are_refused(input in script_bytes(), pos in any::<prop::sample::Index>(), flip in 1u8..=255, cut in any::<prop::sample::Index>()) {
        let mut w1 = heap(6, 4, 3, 3);
        let mut b = Buffers::for_ws(&w1);
        script::run(&mut w1, &input, &mut b.scratch()).unwrap();
        let bytes = snap(&w1);
        let mut target = heap(6, 4, 3, 3);
        script::run(&mut target, b"\x05\x07\x01\x00\x04\x01\x02", &mut b.scratch()).unwrap();
        let before = snap(&target);
        let mut bad = bytes.clone();
        bad[pos.index(bytes.len())] ^= flip;
        prop_assert!(target.restore(&bad).is_err());
        prop_assert!(target.restore(&bytes[..cut.index(bytes.len())]).is_err());
        prop_assert_eq!(snap(&target), before);
    }

    /// Decoding arbitrary bytes never panics, and what decodes re-encodes to the same bytes.
    #[test]
    fn frames_decode_totally(input in proptest::collection::vec(any::<u8>(), 0..600)) {
        if let Ok(f) = Frame::decode(&input) {
            let mut buf = [0u8; FRAME_MAX];
            let enc = f.encode(&mut buf).unwrap();
            prop_assert_eq!(Frame::decode(enc).unwrap(), f);
        }
        let mut copy = input.clone();
        let _ = Frame::decode_cobs(&mut copy);
    }

    /// Every action a template resolves to survives the wire, plain and COBS.
    #[test]
    fn template_actions_round_trip(input in script_bytes()) {
        let mut ws = heap(6, 4, 3, 3);
        let mut b = Buffers::for_ws(&ws);
        script::run(&mut ws, &input, &mut b.scratch()).unwrap();
        let layout = Layout::new(ws.capacities());
        for i in 0..layout.actions() {
            let Ok(a) = layout.resolve(&ws, i) else { continue };
            let f = Frame::new(i as u32, Message::Action(a));
            let mut buf = [0u8; FRAME_MAX];
            let n = f.encode(&mut buf).unwrap().len();
            prop_assert_eq!(&Frame::decode(&buf[..n]).unwrap(), &f);
            let mut cbuf = [0u8; COBS_FRAME_MAX];
            let n = f.encode_cobs(&mut cbuf).unwrap().len();
            prop_assert_eq!(&Frame::decode_cobs(&mut cbuf[..n]).unwrap(), &f);
        }
    }
}
