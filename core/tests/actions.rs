//! Every action and every error path of `Workspace::apply`, and that a refused action changes
//! nothing.

use evoharness_core::snapshot;
use evoharness_core::{
    Action, ApplyError, Arg, Change, Commit, Config, Costs, Event, EventKind, InlineWorkspace, Key,
    KeyArg, Note, Outcome, Provenance, Status, StepRef, StepVerb, Track, Value, ValueRef, Verb,
};

type Ws = InlineWorkspace<4, 4, 3>;

fn ws() -> Ws {
    Ws::new(Config::new(3, 1_000)).unwrap()
}

fn event<'a>(fields: &[(&'a str, ValueRef<'a>)]) -> Event<'a> {
    let mut e = Event::new(EventKind::Result, 1);
    for (k, v) in fields {
        e = e.with(k, *v).unwrap();
    }
    e
}

fn key(s: &str) -> KeyArg<'_> {
    KeyArg::Lit(Key::new(s).unwrap())
}

fn int(x: i64) -> Arg<'static> {
    Arg::Lit(ValueRef::Int(x))
}

fn set<'a>(k: &'a str, v: i64) -> Action<'a> {
    Action::Track(Track::Set {
        key: key(k),
        value: int(v),
        confidence: 0.9,
    })
}

fn step(i: u16, verb: StepVerb) -> Action<'static> {
    Action::Commit(Commit::Step {
        step: StepRef::Index(i),
        verb,
        value: None,
    })
}

fn plan(label: i64) -> Action<'static> {
    Action::Commit(Commit::Plan { label: int(label) })
}

fn note(trigger: &'static str, remedy: i64) -> Action<'static> {
    let t = Arg::Lit(ValueRef::Text(evoharness_core::Text::new(trigger).unwrap()));
    Action::Note(Note::Add {
        trigger: t,
        remedy: int(remedy),
    })
}

fn snap(ws: &Ws) -> Vec<u8> {
    let mut buf = vec![0; snapshot::max_len(ws.capacities())];
    let n = ws.snapshot(&mut buf).unwrap().len();
    buf.truncate(n);
    buf
}

/// Applies `a`, requires it to fail with `err`, and requires the workspace to be unchanged.
#[track_caller]
fn refused(ws: &mut Ws, a: &Action<'_>, err: ApplyError) {
    let before = snap(ws);
    assert_eq!(ws.check(a), Err(err));
    assert_eq!(ws.apply(a), Err(err));
    assert_eq!(snap(ws), before, "a refused action changed the workspace");
}

#[test]
fn act_resolves_pointer_arguments_and_records_the_tool() {
    let mut w = ws();
    w.observe(&event(&[
        ("cursor", ValueRef::Int(7)),
        ("name", ValueRef::Bool(true)),
    ]));
    w.apply(&set("batch", 3)).unwrap();
    let mut args = heapless::Vec::new();
    args.push(Arg::Field(0)).unwrap();
    args.push(Arg::Fact(0)).unwrap();
    args.push(int(-1)).unwrap();
    let out = w
        .apply(&Action::Act {
            tool: 2,
            args: args.clone(),
        })
        .unwrap();
    let Outcome::Call(call) = out else {
        panic!("{out:?}")
    };
    assert_eq!(call.tool, 2);
    assert_eq!(
        call.args.as_slice(),
        &[Value::Int(7), Value::Int(3), Value::Int(-1)]
    );
    assert_eq!(w.last_act(), Some(2));
    // Last act is usable as an argument now.
    let mut a2 = heapless::Vec::new();
    a2.push(Arg::LastAct).unwrap();
    let Outcome::Call(c2) = w.apply(&Action::Act { tool: 0, args: a2 }).unwrap() else {
        panic!()
    };
    assert_eq!(c2.args[0], Value::Int(2));
}

#[test]
fn act_errors() {
    let mut w = ws();
    refused(
        &mut w,
        &Action::Act {
            tool: 3,
            args: heapless::Vec::new(),
        },
        ApplyError::UnknownTool,
    );
    let one = |a: Arg<'static>| {
        let mut v = heapless::Vec::new();
        v.push(a).unwrap();
        Action::Act { tool: 0, args: v }
    };
    refused(&mut w, &one(Arg::Field(0)), ApplyError::NoEvent);
    refused(&mut w, &one(Arg::Fact(0)), ApplyError::NoFact);
    refused(&mut w, &one(Arg::LastAct), ApplyError::NoLastAct);
    w.observe(&event(&[("a", ValueRef::Int(1))]));
    refused(&mut w, &one(Arg::Field(1)), ApplyError::NoField);
}

#[test]
fn track_set_revise_confirm_retract() {
    let mut w = ws();
    w.observe(&event(&[("owner", ValueRef::Int(5))]));
    let from_field = Action::Track(Track::Set {
        key: KeyArg::Field(0),
        value: Arg::Field(0),
        confidence: 1.0,
    });
    assert_eq!(
        w.apply(&from_field),
        Ok(Outcome::Tracked {
            slot: 0,
            change: Change::Created
        })
    );
    let f = &w.belief().facts()[0];
    assert_eq!(
        (f.key.as_str(), &f.value, f.provenance, f.source),
        ("owner", &Value::Int(5), Provenance::Event, 1)
    );
    refused(&mut w, &from_field, ApplyError::KeyExists);

    // Drift: the world says otherwise; revise in place.
    w.observe(&event(&[("owner", ValueRef::Int(6))]));
    let revise = Action::Track(Track::Revise {
        key: KeyArg::Field(0),
        value: Arg::Field(0),
        confidence: 0.5,
    });
    assert_eq!(
        w.apply(&revise),
        Ok(Outcome::Tracked {
            slot: 0,
            change: Change::Revised
        })
    );
    let f = &w.belief().facts()[0];
    assert_eq!((&f.value, f.confidence, f.set_at), (&Value::Int(6), 0.5, 2));

    w.apply(&set("x", 1)).unwrap();
    let confirm = Action::Track(Track::Confirm {
        key: KeyArg::Fact(0),
    });
    assert_eq!(
        w.apply(&confirm),
        Ok(Outcome::Tracked {
            slot: 0,
            change: Change::Confirmed
        })
    );
    assert_eq!(w.belief().facts()[0].confirmed_at, 4);
    assert_eq!(w.belief().facts()[0].set_at, 2);

    let retract = Action::Track(Track::Retract { key: key("owner") });
    assert_eq!(
        w.apply(&retract),
        Ok(Outcome::Tracked {
            slot: 0,
            change: Change::Retracted
        })
    );
    assert_eq!(w.belief().len(), 1);
    assert_eq!(
        w.belief().facts()[0].key,
        "x",
        "retraction keeps the order of the rest"
    );
    refused(&mut w, &retract, ApplyError::UnknownKey);
}

#[test]
fn track_errors() {
    let mut w = ws();
    let bad = |c: f32| {
        Action::Track(Track::Set {
            key: key("k"),
            value: int(1),
            confidence: c,
        })
    };
    refused(&mut w, &bad(1.5), ApplyError::BadConfidence);
    refused(&mut w, &bad(-0.1), ApplyError::BadConfidence);
    refused(&mut w, &bad(f32::NAN), ApplyError::BadConfidence);
    refused(
        &mut w,
        &Action::Track(Track::Revise {
            key: key("k"),
            value: int(1),
            confidence: 1.0,
        }),
        ApplyError::UnknownKey,
    );
    refused(
        &mut w,
        &Action::Track(Track::Confirm {
            key: KeyArg::Fact(0),
        }),
        ApplyError::NoFact,
    );
    refused(
        &mut w,
        &Action::Track(Track::Set {
            key: KeyArg::Field(0),
            value: int(1),
            confidence: 1.0,
        }),
        ApplyError::NoEvent,
    );
    for (i, k) in ["a", "b", "c", "d"].iter().enumerate() {
        w.apply(&set(k, i as i64)).unwrap();
    }
    refused(&mut w, &set("e", 9), ApplyError::BeliefFull);
    // The value is resolved too: a missing source fails even when the key is fine.
    w.apply(&Action::Track(Track::Retract { key: key("a") }))
        .unwrap();
    refused(
        &mut w,
        &Action::Track(Track::Set {
            key: key("e"),
            value: Arg::Fact(9),
            confidence: 1.0,
        }),
        ApplyError::NoFact,
    );
}

#[test]
fn compress_evicts_by_retention_and_reports_every_key() {
    let mut w = ws();
    let add = |w: &mut Ws, k: &str, c: f32| {
        w.apply(&Action::Track(Track::Set {
            key: key(k),
            value: int(0),
            confidence: c,
        }))
        .unwrap();
    };
    add(&mut w, "old_sure", 1.0); // clock 1
    add(&mut w, "unsure", 0.2); // clock 2
    add(&mut w, "sure", 1.0); // clock 3
    add(&mut w, "mid", 0.6); // clock 4
    // Make old_sure stale relative to sure by confirming sure and mid a lot.
    for _ in 0..40 {
        w.apply(&Action::Track(Track::Confirm { key: key("sure") }))
            .unwrap();
    }
    let out = w
        .apply(&Action::Track(Track::Compress { keep: 2 }))
        .unwrap();
    let Outcome::Compressed { removed, over } = out else {
        panic!("{out:?}")
    };
    // Retention = conf / (1 + staleness / 32): unsure 0.2/(1+42/32)≈0.086, mid 0.6/(1+40/32)≈0.27,
    // old_sure 1/(1+43/32)≈0.43, sure 1.0.
    assert_eq!(
        removed.iter().map(|k| k.as_str()).collect::<Vec<_>>(),
        ["unsure", "mid"]
    );
    assert_eq!(over, 0);
    assert_eq!(w.belief().len(), 2);
    // Nothing over keep: a no-op that still succeeds and reports nothing.
    let out = w
        .apply(&Action::Track(Track::Compress { keep: 4 }))
        .unwrap();
    assert_eq!(
        out,
        Outcome::Compressed {
            removed: heapless::Vec::new(),
            over: 0
        }
    );
}

#[test]
fn compress_removes_at_most_remove_max_and_says_how_many_remain() {
    let mut w = InlineWorkspace::<12, 2, 2>::new(Config::new(1, 1000)).unwrap();
    for i in 0..12 {
        let k = format!("k{i}");
        w.apply(&Action::Track(Track::Set {
            key: key(&k),
            value: int(i),
            confidence: 1.0,
        }))
        .unwrap();
    }
    let out = w
        .apply(&Action::Track(Track::Compress { keep: 0 }))
        .unwrap();
    let Outcome::Compressed { removed, over } = out else {
        panic!()
    };
    assert_eq!(removed.len(), evoharness_core::REMOVE_MAX);
    assert_eq!(over, 4);
    // Equal confidence: the least recently confirmed go first, in order.
    assert_eq!(removed[0].as_str(), "k0");
    assert_eq!(removed[7].as_str(), "k7");
}

#[test]
fn progress_follows_the_transition_table() {
    let mut w = ws();
    assert_eq!(
        w.apply(&plan(10)),
        Ok(Outcome::Committed {
            step: 0,
            status: Status::Pending
        })
    );
    refused(
        &mut w,
        &step(0, StepVerb::Complete),
        ApplyError::IllegalTransition {
            from: Status::Pending,
            verb: StepVerb::Complete,
        },
    );
    refused(&mut w, &step(1, StepVerb::Start), ApplyError::UnknownStep);
    let active_cp = Action::Commit(Commit::Step {
        step: StepRef::Active,
        verb: StepVerb::Cursor,
        value: Some(int(5)),
    });
    refused(&mut w, &active_cp, ApplyError::NoActiveStep);
    w.apply(&step(0, StepVerb::Start)).unwrap();
    let cp_none = Action::Commit(Commit::Step {
        step: StepRef::Active,
        verb: StepVerb::Cursor,
        value: None,
    });
    refused(&mut w, &cp_none, ApplyError::MissingCursor);
    assert_eq!(
        w.apply(&active_cp),
        Ok(Outcome::Committed {
            step: 0,
            status: Status::Active
        })
    );
    assert_eq!(w.progress().steps()[0].cursor, Some(Value::Int(5)));
    let fail = Action::Commit(Commit::Step {
        step: StepRef::Index(0),
        verb: StepVerb::Fail,
        value: Some(int(503)),
    });
    w.apply(&fail).unwrap();
    assert_eq!(w.progress().steps()[0].last_error, Some(Value::Int(503)));
    w.apply(&step(0, StepVerb::Retry)).unwrap();
    assert_eq!(w.progress().steps()[0].attempts, 2);
    w.apply(&step(0, StepVerb::Complete)).unwrap();
    // A done step is re-opened only by an explicit retry.
    refused(
        &mut w,
        &step(0, StepVerb::Start),
        ApplyError::IllegalTransition {
            from: Status::Done,
            verb: StepVerb::Start,
        },
    );
    refused(
        &mut w,
        &step(0, StepVerb::Cursor),
        ApplyError::IllegalTransition {
            from: Status::Done,
            verb: StepVerb::Cursor,
        },
    );
    assert_eq!(
        w.apply(&step(0, StepVerb::Retry)),
        Ok(Outcome::Committed {
            step: 0,
            status: Status::Active
        })
    );
    assert_eq!(
        w.progress().steps()[0].cursor,
        Some(Value::Int(5)),
        "the cursor survives a retry"
    );
    for i in 1..4 {
        w.apply(&plan(i)).unwrap();
    }
    refused(&mut w, &plan(9), ApplyError::PlanFull);
    w.apply(&step(1, StepVerb::Block)).unwrap();
    w.apply(&step(1, StepVerb::Skip)).unwrap();
    assert_eq!(w.progress().count(Status::Skipped), 1);
}

#[test]
fn the_transition_table_is_exactly_the_documented_one() {
    use Status::*;
    use StepVerb::*;
    let all = [Pending, Active, Done, Failed, Blocked, Skipped];
    let table: &[(StepVerb, &[Status], Status)] = &[
        (Start, &[Pending, Blocked], Active),
        (Complete, &[Active], Done),
        (Fail, &[Active], Failed),
        (Block, &[Pending, Active], Blocked),
        (Skip, &[Pending, Blocked, Failed], Skipped),
        (Retry, &[Failed, Blocked, Done, Skipped], Active),
        (Cursor, &[Active], Active),
    ];
    for (verb, from, to) in table {
        for s in all {
            let want = from.contains(&s).then_some(*to);
            assert_eq!(s.after(*verb), want, "{s:?} --{verb:?}-->");
        }
    }
    assert_eq!(StepVerb::ALL.len(), table.len());
}

#[test]
fn experience_notes_merge_and_recall_ranks() {
    let mut w = ws();
    assert_eq!(
        w.apply(&note("E429", 1)),
        Ok(Outcome::Noted {
            slot: 0,
            merged: false
        })
    );
    assert_eq!(
        w.apply(&note("E5", 2)),
        Ok(Outcome::Noted {
            slot: 1,
            merged: false
        })
    );
    // Same trigger, same remedy: reinforced.
    assert_eq!(
        w.apply(&note("E429", 1)),
        Ok(Outcome::Noted {
            slot: 0,
            merged: true
        })
    );
    assert_eq!(w.experience().lessons()[0].noted, 2);
    assert_eq!(w.experience().len(), 2);
    // Rate, then a different remedy for the same trigger resets the ratings.
    w.apply(&Action::Note(Note::Rate {
        lesson: 0,
        helpful: true,
    }))
    .unwrap();
    w.apply(&Action::Note(Note::Rate {
        lesson: 1,
        helpful: false,
    }))
    .unwrap();
    assert_eq!(
        (
            w.experience().lessons()[0].helpful,
            w.experience().lessons()[1].harmful
        ),
        (1, 1)
    );
    refused(
        &mut w,
        &Action::Note(Note::Rate {
            lesson: 2,
            helpful: true,
        }),
        ApplyError::UnknownLesson,
    );

    w.apply(&note("E4", 3)).unwrap();
    // Query "E429": exact match first, then prefix "E4"; "E5" does not match.
    let q = Arg::Lit(ValueRef::Text(evoharness_core::Text::new("E429").unwrap()));
    let out = w.apply(&Action::Recall { query: q, k: 4 }).unwrap();
    let Outcome::Recalled(found) = out else {
        panic!()
    };
    assert_eq!(found.iter().map(|r| r.slot).collect::<Vec<_>>(), [0, 2]);
    assert!(
        (found[0].score - (2.0 + 2.0 / 3.0)).abs() < 1e-6,
        "{}",
        found[0].score
    );
    assert!((found[1].score - 1.5).abs() < 1e-6);
    let l = w.experience().lessons();
    assert_eq!(
        (l[0].uses, l[0].recalled, l[1].recalled, l[2].recalled),
        (1, true, false, true)
    );
    // k limits; uses count; recalled flags are replaced by the latest recall.
    let out = w.apply(&Action::Recall { query: q, k: 1 }).unwrap();
    assert!(matches!(out, Outcome::Recalled(ref f) if f.len() == 1 && f[0].slot == 0));
    assert!(!w.experience().lessons()[2].recalled);
    refused(
        &mut w,
        &Action::Recall { query: q, k: 0 },
        ApplyError::BadCount,
    );
    refused(
        &mut w,
        &Action::Recall { query: q, k: 5 },
        ApplyError::BadCount,
    );

    // A different remedy replaces the old one and resets its ratings.
    w.apply(&note("E429", 9)).unwrap();
    let l = &w.experience().lessons()[0];
    assert_eq!((&l.remedy, l.helpful, l.noted), (&Value::Int(9), 0, 1));
    refused(&mut w, &note("E7", 1), ApplyError::ExperienceFull);
}

#[test]
fn recall_ties_break_by_usefulness_then_uses_then_slot() {
    let mut w = ws();
    w.apply(&note("AB", 1)).unwrap();
    w.apply(&note("ABC", 2)).unwrap();
    w.apply(&note("ABD", 3)).unwrap();
    let q = |s: &'static str| Arg::Lit(ValueRef::Text(evoharness_core::Text::new(s).unwrap()));
    // All three are prefix matches of "A": equal rank and usefulness, no uses: slot order.
    let Outcome::Recalled(f) = w
        .apply(&Action::Recall {
            query: q("A"),
            k: 3,
        })
        .unwrap()
    else {
        panic!()
    };
    assert_eq!(f.iter().map(|r| r.slot).collect::<Vec<_>>(), [0, 1, 2]);
    // Now all have one use; rate slot 2 helpful: it ranks first.
    w.apply(&Action::Note(Note::Rate {
        lesson: 2,
        helpful: true,
    }))
    .unwrap();
    w.apply(&Action::Note(Note::Rate {
        lesson: 0,
        helpful: false,
    }))
    .unwrap();
    let Outcome::Recalled(f) = w
        .apply(&Action::Recall {
            query: q("A"),
            k: 3,
        })
        .unwrap()
    else {
        panic!()
    };
    assert_eq!(f.iter().map(|r| r.slot).collect::<Vec<_>>(), [2, 1, 0]);
    // No match at all is a successful, empty recall.
    let Outcome::Recalled(f) = w
        .apply(&Action::Recall {
            query: q("Z"),
            k: 3,
        })
        .unwrap()
    else {
        panic!()
    };
    assert!(f.is_empty());
    assert!(w.experience().lessons().iter().all(|l| !l.recalled));
}

#[test]
fn consolidate_evicts_least_frequently_useful() {
    let mut w = ws();
    w.apply(&note("a", 1)).unwrap();
    w.apply(&note("b", 1)).unwrap();
    w.apply(&note("c", 1)).unwrap();
    w.apply(&Action::Note(Note::Rate {
        lesson: 0,
        helpful: true,
    }))
    .unwrap();
    w.apply(&Action::Note(Note::Rate {
        lesson: 2,
        helpful: false,
    }))
    .unwrap();
    let out = w
        .apply(&Action::Note(Note::Consolidate { keep: 1 }))
        .unwrap();
    let Outcome::Consolidated { removed, over } = out else {
        panic!()
    };
    assert_eq!(
        removed.as_slice(),
        &[Value::text("c").unwrap(), Value::text("b").unwrap()]
    );
    assert_eq!(over, 0);
    assert_eq!(
        w.experience().lessons()[0].trigger,
        Value::text("a").unwrap()
    );
}

#[test]
fn budget_and_costs() {
    let costs = Costs {
        act: 3,
        track: 1,
        commit: 2,
        recall: 1,
        note: 1,
        finish: 0,
    };
    let mut w = Ws::new(Config {
        tools: 2,
        budget: 5,
        costs,
    })
    .unwrap();
    assert_eq!(costs.of(Verb::Commit), 2);
    w.apply(&Action::Act {
        tool: 0,
        args: heapless::Vec::new(),
    })
    .unwrap();
    w.apply(&plan(1)).unwrap();
    assert_eq!((w.spent(), w.remaining()), (5, 0));
    refused(&mut w, &set("k", 1), ApplyError::OverBudget);
    // Finishing is free, and then everything is refused.
    assert_eq!(
        w.apply(&Action::Finish { success: true }),
        Ok(Outcome::Finished { success: true })
    );
    assert_eq!(w.finished(), Some(true));
    refused(
        &mut w,
        &Action::Finish { success: false },
        ApplyError::Finished,
    );
    // The next task starts afresh but keeps experience.
    w.reset_task();
    assert_eq!((w.spent(), w.finished(), w.progress().len()), (0, None, 0));
}

#[test]
fn reset_keeps_experience_and_the_clock() {
    let mut w = ws();
    w.apply(&note("E1", 1)).unwrap();
    w.apply(&set("k", 1)).unwrap();
    w.observe(&event(&[("k", ValueRef::Int(1))]));
    let clock = w.clock();
    w.reset_task();
    assert_eq!(w.experience().len(), 1);
    assert!(w.belief().is_empty());
    assert!(w.event().is_none());
    assert_eq!(w.clock(), clock);
}

#[test]
fn capacities_are_checked() {
    use evoharness_core::CapacityError;
    assert_eq!(Ws::new(Config::new(0, 1)).err(), Some(CapacityError::Tools));
    assert_eq!(
        Ws::new(Config::new(65, 1)).err(),
        Some(CapacityError::Tools)
    );
    use evoharness_core::HeapWorkspace;
    assert_eq!(
        HeapWorkspace::with_capacities(0, 1, 1, Config::new(1, 1)).err(),
        Some(CapacityError::Table)
    );
    assert_eq!(
        HeapWorkspace::with_capacities(1, 1025, 1, Config::new(1, 1)).err(),
        Some(CapacityError::Table)
    );
    let h = HeapWorkspace::with_capacities(7, 5, 3, Config::new(2, 1)).unwrap();
    let c = h.capacities();
    assert_eq!((c.facts, c.steps, c.lessons, c.tools), (7, 5, 3, 2));
}

#[test]
fn errors_display_a_sentence() {
    let e = ApplyError::IllegalTransition {
        from: Status::Done,
        verb: StepVerb::Start,
    };
    assert_eq!(e.to_string(), "a Done step cannot take Start");
    assert_eq!(
        ApplyError::OverBudget.to_string(),
        "the action costs more than the budget has left"
    );
}

#[test]
fn negative_zero_confidence_is_stored_as_positive_zero() {
    let mut w = ws();
    let a = Action::Track(Track::Set {
        key: key("k"),
        value: int(1),
        confidence: -0.0,
    });
    w.apply(&a).unwrap();
    assert!(w.belief().facts()[0].confidence.is_sign_positive());
}

#[test]
fn a_restart_takes_the_durable_tables_and_keeps_what_was_spent() {
    let mut w = ws();
    w.apply(&set("a", 1)).unwrap();
    w.apply(&plan(7)).unwrap();
    w.apply(&note("E1", 4)).unwrap();
    // The durable copy, taken at this commit.
    let mut durable = ws();
    durable.restore_tables(&w).unwrap();
    assert_eq!(durable.belief().facts(), w.belief().facts());
    // Work after it, then the crash.
    w.apply(&set("b", 2)).unwrap();
    w.apply(&step(0, StepVerb::Start)).unwrap();
    w.apply(&note("E2", 5)).unwrap();
    let (spent, clock) = (w.spent(), w.clock());
    w.restore_tables(&durable).unwrap();
    assert_eq!(w.belief().facts(), durable.belief().facts());
    assert_eq!(w.belief().len(), 1);
    assert_eq!(w.progress().steps(), durable.progress().steps());
    assert_eq!(w.experience().lessons(), durable.experience().lessons());
    assert_eq!((w.spent(), w.clock()), (spent, clock), "the world went on");
    assert!(w.event().is_none() && w.last_act().is_none());
    // A copy that holds more than a workspace has room for is refused, nothing changed.
    let mut big = InlineWorkspace::<8, 4, 3>::new(Config::new(3, 100)).unwrap();
    for (i, k) in ["a", "b", "c", "d", "e"].iter().enumerate() {
        big.apply(&set(k, i as i64)).unwrap();
    }
    let before = snap(&w);
    assert_eq!(
        w.restore_tables(&big),
        Err(evoharness_core::CapacityError::Mismatch)
    );
    assert_eq!(snap(&w), before);
}
