//! The structured-v1 policy ABI: layout sizes, template table, resolution, mask, observation.

use evoharness_core::obs::{
    self, EVENT, FACT, FIELD, GLOBAL, LESSON, Layout, ObsError, STEP, Source, Template, Width,
    hash01, scalar,
};
use evoharness_core::{
    Action, Arg, Capacities, Commit, Config, Event, EventKind, FIELDS_MAX, InlineWorkspace, KeyArg,
    Note, StepRef, StepVerb, Track, Value, ValueRef,
};

type Ws = InlineWorkspace<16, 8, 4>;

fn caps() -> Capacities {
    Capacities {
        facts: 16,
        steps: 8,
        lessons: 4,
        tools: 3,
    }
}

fn ws() -> Ws {
    Ws::new(Config::new(3, 100)).unwrap()
}

fn width(features: &[obs::Feature], tools: usize) -> usize {
    features
        .iter()
        .map(|f| match f.width {
            Width::Fixed(n) => n,
            Width::Tools => tools,
        })
        .sum()
}

#[test]
fn sizes_derive_from_capacities() {
    let l = Layout::new(caps());
    let t = 3;
    let expected = width(GLOBAL, t)
        + width(EVENT, t)
        + FIELDS_MAX * width(FIELD, t)
        + 16 * width(FACT, t)
        + 8 * width(STEP, t)
        + 4 * width(LESSON, t);
    assert_eq!(l.obs_len(), expected);
    // Segments are contiguous and cover the observation.
    let segs = l.segments();
    let mut at = 0;
    for s in segs {
        assert_eq!(s.offset, at, "{}", s.name);
        at += s.rows * s.width;
    }
    assert_eq!(at, l.obs_len());
    // The figures the docs quote for these capacities.
    assert_eq!((l.obs_len(), l.actions()), (534, 223));
}

#[test]
fn template_table_is_a_bijection() {
    let l = Layout::new(caps());
    for i in 0..l.actions() {
        let t = l.template(i).unwrap();
        assert_eq!(l.index(t), Some(i), "{t:?}");
    }
    assert_eq!(l.template(l.actions()), None);
    assert_eq!(l.index(Template::Act { tool: 3, arg: None }), None);
    assert_eq!(
        l.index(Template::Track {
            field: FIELDS_MAX as u8
        }),
        None
    );
    assert_eq!(
        l.index(Template::Step {
            step: 0,
            verb: StepVerb::Cursor
        }),
        None
    );
    assert_eq!(l.index(Template::Finish { success: true }), Some(0));
    assert_eq!(
        l.index(Template::Act {
            tool: 0,
            arg: Some(Source::Fact(0))
        }),
        Some(3)
    );
    assert_eq!(l.index(Template::Consolidate), Some(l.actions() - 1));
}

#[test]
fn track_resolves_to_set_then_revise() {
    let l = Layout::new(caps());
    let mut w = ws();
    let t = l.index(Template::Track { field: 0 }).unwrap();
    assert!(l.resolve(&w, t).is_err(), "no event yet");
    w.observe(
        &Event::new(EventKind::Result, 0)
            .with("cursor", ValueRef::Int(1))
            .unwrap(),
    );
    let a = l.resolve(&w, t).unwrap();
    assert_eq!(
        a,
        Action::Track(Track::Set {
            key: KeyArg::Field(0),
            value: Arg::Field(0),
            confidence: 1.0
        })
    );
    w.apply(&a).unwrap();
    let a = l.resolve(&w, t).unwrap();
    assert!(matches!(a, Action::Track(Track::Revise { .. })));
}

#[test]
fn templates_resolve_to_their_actions() {
    let l = Layout::new(caps());
    let mut w = ws();
    w.observe(
        &Event::new(EventKind::Error, 1)
            .with("code", ValueRef::Int(503))
            .unwrap(),
    );
    let r = |t| l.resolve(&w, l.index(t).unwrap()).unwrap();
    assert_eq!(
        r(Template::Step {
            step: 2,
            verb: StepVerb::Fail
        }),
        Action::Commit(Commit::Step {
            step: StepRef::Index(2),
            verb: StepVerb::Fail,
            value: Some(Arg::Field(0))
        })
    );
    assert_eq!(
        r(Template::Cursor { field: 0 }),
        Action::Commit(Commit::Step {
            step: StepRef::Active,
            verb: StepVerb::Cursor,
            value: Some(Arg::Field(0))
        })
    );
    assert_eq!(
        r(Template::Recall { field: 0 }),
        Action::Recall {
            query: Arg::Field(0),
            k: 4
        }
    );
    assert_eq!(
        r(Template::NoteFact { fact: 1 }),
        Action::Note(Note::Add {
            trigger: Arg::Fact(1),
            remedy: Arg::LastAct
        })
    );
    assert_eq!(
        r(Template::Compress),
        Action::Track(Track::Compress { keep: 12 })
    );
    assert_eq!(
        r(Template::Consolidate),
        Action::Note(Note::Consolidate { keep: 3 })
    );
}

#[test]
fn mask_of_a_fresh_workspace() {
    let l = Layout::new(caps());
    let w = ws();
    let mut m = vec![0u8; l.actions()];
    let legal = l.mask(&w, &mut m).unwrap();
    let names: Vec<Template> = (0..l.actions())
        .filter(|&i| m[i] == 1)
        .map(|i| l.template(i).unwrap())
        .collect();
    // Without an event, facts, steps, lessons or a last act: finish, bare tool calls, and the
    // two no-op evictions.
    let mut want = vec![
        Template::Finish { success: true },
        Template::Finish { success: false },
    ];
    want.extend((0..3).map(|tool| Template::Act { tool, arg: None }));
    want.push(Template::Compress);
    want.push(Template::Consolidate);
    assert_eq!(names, want);
    assert_eq!(legal, want.len());
}

#[test]
fn mask_follows_state() {
    let l = Layout::new(caps());
    let mut w = ws();
    let mut m = vec![0u8; l.actions()];
    let at = |t| l.index(t).unwrap();
    w.observe(
        &Event::new(EventKind::Result, 0)
            .with("batch", ValueRef::Int(1))
            .unwrap(),
    );
    w.apply(&l.resolve(&w, at(Template::Plan { field: 0 })).unwrap())
        .unwrap();
    l.mask(&w, &mut m).unwrap();
    assert_eq!(
        m[at(Template::Step {
            step: 0,
            verb: StepVerb::Start
        })],
        1
    );
    assert_eq!(
        m[at(Template::Step {
            step: 0,
            verb: StepVerb::Complete
        })],
        0
    );
    assert_eq!(
        m[at(Template::Step {
            step: 1,
            verb: StepVerb::Start
        })],
        0
    );
    assert_eq!(m[at(Template::Cursor { field: 0 })], 0, "nothing active");
    assert_eq!(m[at(Template::NoteField { field: 0 })], 0, "no last act");
    w.apply(
        &l.resolve(
            &w,
            at(Template::Step {
                step: 0,
                verb: StepVerb::Start,
            }),
        )
        .unwrap(),
    )
    .unwrap();
    w.apply(&Action::Act {
        tool: 1,
        args: heapless::Vec::new(),
    })
    .unwrap();
    l.mask(&w, &mut m).unwrap();
    assert_eq!(m[at(Template::Cursor { field: 0 })], 1);
    assert_eq!(m[at(Template::NoteField { field: 0 })], 1);
    assert_eq!(
        m[at(Template::Step {
            step: 0,
            verb: StepVerb::Complete
        })],
        1
    );
    // Out of budget: only finish remains.
    let mut poor = Ws::new(Config::new(3, 0)).unwrap();
    poor.observe(
        &Event::new(EventKind::Result, 0)
            .with("x", ValueRef::Int(1))
            .unwrap(),
    );
    assert_eq!(l.mask(&poor, &mut m).unwrap(), 2);
}

#[test]
fn scalar_and_hash_formulas() {
    assert_eq!(scalar(&Value::Int(0)), 0.0);
    assert_eq!(scalar(&Value::Int(1)), 1.0 / 64.0);
    assert_eq!(scalar(&Value::Int(2)), 1.5 / 64.0);
    assert_eq!(scalar(&Value::Int(3)), 2.0 / 64.0);
    assert_eq!(scalar(&Value::Int(-3)), -2.0 / 64.0);
    assert_eq!(scalar(&Value::Int(i64::MIN)), -63.0 / 64.0);
    assert_eq!(scalar(&Value::Bool(true)), 1.0);
    assert_eq!(scalar(&Value::Float(1.0)), 0.5);
    assert_eq!(scalar(&Value::Float(f64::NAN)), 0.0);
    assert_eq!(scalar(&Value::Float(f64::INFINITY)), 1.0);
    assert_eq!(scalar(&Value::Float(f64::NEG_INFINITY)), -1.0);
    assert_eq!(scalar(&Value::text("abcd").unwrap()), 4.0 / 32.0);
    // FNV-1a 32 of "a" is 0xe40c292c.
    assert_eq!(
        hash01(0xe40c_292c),
        (0xe40c_292cu32 >> 8) as f32 / 16_777_216.0
    );
    assert_eq!(Value::Bool(true).fnv1a(), {
        let mut h: u32 = 0x811c_9dc5;
        for b in [0u8, 1] {
            h ^= u32::from(b);
            h = h.wrapping_mul(0x0100_0193);
        }
        h
    });
}

#[test]
fn observation_features_of_a_fact_and_a_drifted_field() {
    let l = Layout::new(caps());
    let mut w = ws();
    w.observe(
        &Event::new(EventKind::Result, 2)
            .with("owner", ValueRef::Int(7))
            .unwrap(),
    );
    let track = l
        .resolve(&w, l.index(Template::Track { field: 0 }).unwrap())
        .unwrap();
    w.apply(&track).unwrap();
    // The world drifts.
    w.observe(
        &Event::new(EventKind::Notice, 0)
            .with("owner", ValueRef::Int(8))
            .unwrap(),
    );
    let mut o = vec![f32::NAN; l.obs_len()];
    l.encode(&w, &mut o).unwrap();
    let seg = l.segments();
    let fact = &o[seg[3].offset..seg[3].offset + seg[3].width];
    let mut h: u32 = 0x811c_9dc5;
    for b in b"owner" {
        h ^= u32::from(*b);
        h = h.wrapping_mul(0x0100_0193);
    }
    // present, key_hash, kind one-hot (int), scalar, value_hash, confidence, staleness,
    // provenance one-hot (event), in_event, differs.
    assert_eq!(fact[0], 1.0);
    assert_eq!(fact[1], hash01(h));
    assert_eq!(&fact[2..7], &[0.0, 1.0, 0.0, 0.0, 0.0]);
    assert_eq!(fact[7], scalar(&Value::Int(7)));
    assert_eq!(fact[8], hash01(Value::Int(7).fnv1a()));
    assert_eq!(fact[9], 1.0);
    assert_eq!(fact[10], 0.0, "confirmed at the current clock");
    assert_eq!(&fact[11..15], &[0.0, 1.0, 0.0, 0.0]);
    assert_eq!(
        (fact[15], fact[16]),
        (1.0, 1.0),
        "the event has the key, with another value"
    );
    // The field row says the same from the other side.
    let field = &o[seg[2].offset..seg[2].offset + seg[2].width];
    assert_eq!((field[0], field[9], field[10]), (1.0, 1.0, 1.0));
    // Event head: present, kind Notice, source 0.
    let ev = &o[seg[1].offset..seg[1].offset + seg[1].width];
    assert_eq!(ev, &[1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0]);
    // Absent rows are zero; nothing is left unwritten.
    assert!(
        o[seg[3].offset + seg[3].width..seg[4].offset]
            .iter()
            .all(|&x| x == 0.0)
    );
    assert!(o.iter().all(|x| x.is_finite()));
}

#[test]
fn buffers_and_capacities_are_checked() {
    let l = Layout::new(caps());
    let w = ws();
    let mut short = vec![0.0; l.obs_len() - 1];
    assert_eq!(
        l.encode(&w, &mut short),
        Err(ObsError::BufferLength {
            expected: l.obs_len(),
            got: l.obs_len() - 1
        })
    );
    let mut m = vec![0u8; l.actions() + 1];
    assert!(matches!(
        l.mask(&w, &mut m),
        Err(ObsError::BufferLength { .. })
    ));
    let other = Layout::new(Capacities { tools: 4, ..caps() });
    let mut o = vec![0.0; other.obs_len()];
    assert_eq!(other.encode(&w, &mut o), Err(ObsError::CapacityMismatch));
}

/// structured-v2's `harness` row: the configured costs, the streak of harness actions since
/// the last world action and the last harness verb, so that a note that changed nothing is
/// visible.
#[test]
fn structured_v2_shows_the_costs_the_harness_streak_and_the_last_verb() {
    use evoharness_core::Costs;
    use evoharness_core::obs::{HARNESS, Version};
    let v1 = Layout::new(caps());
    let v2 = Layout::with_version(caps(), Version::V2);
    assert_eq!(v2.obs_len(), v1.obs_len() + width(HARNESS, 3));
    assert_eq!(v2.actions(), v1.actions());
    let seg = v2.segments()[6];
    assert_eq!(
        (seg.name, seg.offset, seg.rows),
        ("harness", v1.obs_len(), 1)
    );
    let mut config = Config::new(3, 100);
    config.costs = Costs {
        recall: 4,
        note: 12,
        ..Costs::default()
    };
    let mut w = Ws::new(config).unwrap();
    let row = |w: &Ws| {
        let mut o = vec![0.0; v2.obs_len()];
        v2.encode(w, &mut o).unwrap();
        let mut o1 = vec![0.0; v1.obs_len()];
        v1.encode(w, &mut o1).unwrap();
        assert_eq!(o1[..], o[..v1.obs_len()]);
        let (costs, rest) = o[v1.obs_len()..].split_at(6);
        // squash(c, 4): act, track, commit 1; recall 4; note 12; finish 0.
        assert_eq!(costs, [0.2, 0.2, 0.2, 0.5, 0.75, 0.0]);
        rest.to_vec()
    };
    // A task's start: streak 0, no verb.
    assert_eq!(row(&w), [1., 0., 0., 0., 0., 0., 0., 0., 0.]);
    w.observe(
        &Event::new(EventKind::Error, 0)
            .with("code", ValueRef::Int(429))
            .unwrap(),
    );
    let note = Action::Note(Note::Add {
        trigger: Arg::Field(0),
        remedy: Arg::Lit(ValueRef::Int(1)),
    });
    w.apply(&note).unwrap();
    assert_eq!(row(&w), [0., 1., 0., 0., 0., 0., 0., 0., 1.]);
    // The same note again merges: the lessons look the same, the streak does not.
    let lessons = |w: &Ws| {
        let mut o = vec![0.0; v1.obs_len()];
        v1.encode(w, &mut o).unwrap();
        let s = v1.segments()[5];
        o[s.offset..s.offset + s.rows * s.width].to_vec()
    };
    let before = lessons(&w);
    w.apply(&note).unwrap();
    assert_eq!(lessons(&w), before);
    assert_eq!(row(&w), [0., 0., 1., 0., 0., 0., 0., 0., 1.]);
    for _ in 0..3 {
        w.apply(&Action::Recall {
            query: Arg::Field(0),
            k: 1,
        })
        .unwrap();
    }
    assert_eq!(w.harness_streak(), 5);
    assert_eq!(row(&w), [0., 0., 0., 0., 1., 0., 0., 1., 0.], "4 or more");
    // A world action ends the streak; it is no harness verb.
    w.apply(&Action::Act {
        tool: 1,
        args: Default::default(),
    })
    .unwrap();
    assert_eq!(row(&w), [1., 0., 0., 0., 0., 0., 0., 0., 0.]);
    w.apply(&Action::Commit(Commit::Plan {
        label: Arg::Lit(ValueRef::Int(1)),
    }))
    .unwrap();
    assert_eq!(row(&w), [0., 1., 0., 0., 0., 0., 1., 0., 0.]);
    // A refused action changes nothing, the streak included.
    assert!(
        w.apply(&Action::Recall {
            query: Arg::Field(0),
            k: 0
        })
        .is_err()
    );
    assert_eq!(w.harness_streak(), 1);
    // A restart from a durable copy and the next task start afresh.
    let mut restarted = w.clone();
    restarted.restore_tables(&w).unwrap();
    assert_eq!(
        (restarted.harness_streak(), restarted.last_verb()),
        (0, None)
    );
    // Finish is no harness action: the streak stays, the last harness verb is gone.
    w.apply(&Action::Finish { success: true }).unwrap();
    assert_eq!(row(&w), [0., 1., 0., 0., 0., 0., 0., 0., 0.]);
    w.reset_task();
    assert_eq!(row(&w), [1., 0., 0., 0., 0., 0., 0., 0., 0.]);
}
