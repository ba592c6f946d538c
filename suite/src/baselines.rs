//! The agents that need no training, which a trained policy must beat.
//!
//! | baseline | memory | how it decides |
//! | --- | --- | --- |
//! | [`Oracle`] | the workspace, only when it must | sees the world's hidden state: the right tool, the remedy, when a token runs out. An upper bound, and the proof that each task is solvable within its budget. |
//! | [`StaticHarness`] | the workspace, mechanically | hand-written rules: track every field that is new or changed, record the item as a step's cursor after every landing (`commit`), recall before every landing and remedy, note every remedy that worked. Succeeds, and pays for it in harness actions. |
//! | [`StaticHarness::over_lean`] | the workspace, mechanically | the static harness's harness actions, then the lean harness's world action: the same bookkeeping around a rule that needs little of it (a start for harness annealing). |
//! | [`AppendOnly`] | a transcript outside the workspace | every event and its own call are appended and never rewritten; the rule sees only the last `window` entries, like a model's context window. |
//! | [`LeanHarness`] | the workspace, only when it must | rules that see only what a policy sees (the workspace and the current event): track the item through an outage or a token renewal and the drifted setting, note a remedy once (v2: and mark a remedy that failed). What a trained policy should learn to do, and a teacher to imitate. |
//! | [`TunedHarness`] | the workspace and the experience store | the lean rules tuned for v2, seeing only what a policy sees: recall a code's lesson that is not in the working set, guess the organisation's favourite remedy for an unknown code. The best rule written for v2, and a teacher. With a [`Hint`] it reads part of the hidden state: a bound, not a rule. |
//! | [`RandomAgent`] | none | a uniformly random legal template: the floor. |
//!
//! All but the append-only baseline act through the structured-v1 templates, exactly as a
//! policy does, so their traces are demonstrations a policy can imitate.

use crate::world::SuiteWorld;
use crate::{CAPACITIES, FETCH, PUT, PUT_ALT, REMEDIES, SPECIAL, TaskKind, WAIT};
use evoharness_core::obs::{Layout, Source, Template, hash01};
use evoharness_core::{
    Action, Arg, Capacities, EventBuf, EventKind, HeapWorkspace, StepVerb, Value,
};
use evoharness_runtime::rng::SplitMix64;
use evoharness_runtime::{Controller, Decision, Error, ErrorKind, Needs, Result, View};

mod append_only;
mod lean;
mod oracle;
mod random;
mod static_harness;
mod tuned;

pub use append_only::AppendOnly;
pub use lean::LeanHarness;
pub use oracle::Oracle;
pub use random::RandomAgent;
pub use static_harness::StaticHarness;
pub use tuned::{COMMIT_CADENCES, Guess, Hint, TunedHarness};

/// The rules read the workspace and the world themselves: no observation, no mask.
const RULES_NEED: Needs = Needs {
    obs: false,
    mask: false,
};

/// What an event is, for the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ev<'a> {
    Start,
    Fetched,
    /// v3, after a crash: an item delivered again that has landed already (`landed: true`).
    Again,
    Done,
    Landed,
    Fixed,
    Waiting,
    Ready,
    Token,
    Error(&'a str),
    Other,
}

fn classify<'a>(e: &'a EventBuf, kind: TaskKind) -> Ev<'a> {
    if e.kind == EventKind::Notice {
        return Ev::Start;
    }
    if let Some(Value::Text(t)) = e.get("error") {
        return Ev::Error(t.as_str());
    }
    let has = |k: &str| e.get(k).is_some();
    if has("done") {
        Ev::Done
    } else if e.source == FETCH && has("landed") {
        Ev::Again
    } else if e.source == FETCH && has(kind.item_key()) {
        Ev::Fetched
    } else if has("fixed") {
        Ev::Fixed
    } else if has(kind.ok_key()) || has("merged") {
        Ev::Landed
    } else if has("waiting") {
        Ev::Waiting
    } else if has("ready") {
        Ev::Ready
    } else if has("token") {
        Ev::Token
    } else {
        Ev::Other
    }
}

fn field(e: &EventBuf, key: &str) -> Option<u8> {
    e.fields.iter().position(|f| f.key == key).map(|i| i as u8)
}

fn slot(ws: &HeapWorkspace, key: &str) -> Option<u16> {
    ws.belief().get(key).map(|(i, _)| i as u16)
}

fn index(layout: &Layout, t: Template) -> Result<Decision> {
    layout.index(t).map(Decision::Template).ok_or_else(|| {
        Error::new(
            ErrorKind::Config,
            format!("template {t:?} is not in the action space"),
        )
    })
}

fn act(layout: &Layout, tool: u16, arg: Option<Source>) -> Result<Decision> {
    index(layout, Template::Act { tool, arg })
}

fn finish(layout: &Layout, success: bool) -> Result<Decision> {
    index(layout, Template::Finish { success })
}

fn current<'a>(view: &View<'a, SuiteWorld>) -> Result<&'a EventBuf> {
    view.workspace
        .event()
        .ok_or_else(|| Error::new(ErrorKind::Workspace, "no current event"))
}

/// An id as the literal argument of a call: the suite's ids are integers.
fn int(v: &Value) -> Option<i64> {
    match v {
        Value::Int(i) => Some(*i),
        _ => None,
    }
}

/// The drifted value of a task kind's setting.
fn drifted_value(kind: TaskKind, v: &Value) -> bool {
    match (kind, v) {
        (TaskKind::Migration, Value::Int(s)) => *s == 2,
        (TaskKind::Records, Value::Text(t)) => t == "b",
        (TaskKind::Orchestration, Value::Text(t)) => t == "alt",
        _ => false,
    }
}

/// How many steps ago Belief's `key` was confirmed, if it holds `value`: the rules' two-step
/// protocols (track, act while the fact is fresh at 0, go on once it is 1 step old) read it,
/// as a policy reads the fact's `staleness` feature.
fn tracked_age(ws: &HeapWorkspace, key: &str, value: &Value) -> Option<u32> {
    ws.belief()
        .get(key)
        .filter(|(_, fact)| fact.value.same(value))
        .map(|(_, fact)| fact.staleness(ws.clock()))
}

/// Whether the remedy that just fixed an item (the last world action) is what the lesson for
/// the event's code names: noted already.
fn noted(ws: &HeapWorkspace, e: &EventBuf) -> bool {
    let last = ws.last_act().map(|t| Value::Int(i64::from(t)));
    e.get("code")
        .and_then(|c| ws.experience().find(c))
        .is_some_and(|l| {
            last.as_ref()
                .is_some_and(|t| ws.experience().lessons()[l].remedy.same(t))
        })
}

/// Whether the lesson for `code` is rated harmful more than helpful: a remedy failed for it
/// (the rules mark one that way, [`mark_failed_remedy`]).
fn marked(ws: &HeapWorkspace, code: &Value) -> bool {
    let x = ws.experience();
    x.find(code)
        .is_some_and(|l| x.lessons()[l].harmful > x.lessons()[l].helpful)
}

/// The remedy the working set's lessons name most often, among those not rated harmful more
/// than helpful (ties: the first remedy); the first remedy if there is none.
fn favourite(ws: &HeapWorkspace) -> u16 {
    let mut counts = [0u32; REMEDIES.len()];
    for l in ws.experience().lessons() {
        if l.harmful > l.helpful {
            continue;
        }
        if let Value::Int(t) = l.remedy
            && let Some(i) = REMEDIES.iter().position(|&r| i64::from(r) == t)
        {
            counts[i] += 1;
        }
    }
    let best = (0..REMEDIES.len())
        .max_by_key(|&i| (counts[i], std::cmp::Reverse(i)))
        .unwrap_or(0);
    REMEDIES[best]
}

/// The remedy to try for an item rejected with `code`: the one its lesson names, or the one
/// after it if the lesson was rated harmful more than helpful (v2: it failed, and the rule
/// marked it); without a lesson, `unknown`.
fn remedy_for(ws: &HeapWorkspace, code: Option<&Value>, unknown: u16) -> u16 {
    let x = ws.experience();
    let Some(l) = code.and_then(|c| x.find(c)).map(|l| &x.lessons()[l]) else {
        return unknown;
    };
    let Some(i) = (match l.remedy {
        Value::Int(t) => REMEDIES.iter().position(|&r| i64::from(r) == t),
        _ => None,
    }) else {
        return unknown;
    };
    if l.harmful > l.helpful {
        REMEDIES[(i + 1) % REMEDIES.len()]
    } else {
        REMEDIES[i]
    }
}

/// v2: after a failed remedy the service backs off (`retry_in`). The lean rules mark the
/// remedy that failed: a lesson (code → that remedy) rated harmful, so that the next try
/// takes the next remedy ([`remedy_for`]). The template that does the next part of that, or
/// `None` once it is done.
fn mark_failed_remedy(
    ws: &HeapWorkspace,
    e: &EventBuf,
    layout: &Layout,
) -> Option<Result<Decision>> {
    let f = field(e, "code")?;
    let code = &e.fields[f as usize].value;
    let last = Value::Int(i64::from(ws.last_act()?));
    let x = ws.experience();
    Some(match x.find(code) {
        Some(l) if x.lessons()[l].remedy.same(&last) => {
            if x.lessons()[l].harmful > x.lessons()[l].helpful {
                return None;
            }
            index(
                layout,
                Template::Rate {
                    lesson: l as u16,
                    helpful: false,
                },
            )
        }
        _ if needs_room(ws, Some(code)) => index(layout, Template::Consolidate),
        _ => index(layout, Template::NoteField { field: f }),
    })
}

/// Whether noting a lesson for `trigger` needs room first: the working set is full and holds
/// no lesson for it (a v2 organisation has more codes than lesson slots).
fn needs_room(ws: &HeapWorkspace, trigger: Option<&Value>) -> bool {
    let x = ws.experience();
    x.lessons().len() >= x.capacity() && trigger.is_none_or(|t| x.find(t).is_none())
}
