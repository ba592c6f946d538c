//! A tour of the workspace, driven through the structured-v1 policy ABI.
//!
//! The "policy" here is a dozen hand-written rules, not a trained model (that comes with the
//! runtime and training issues): what matters is the loop every policy runs. Each step the
//! workspace is encoded into an observation, the legal-action mask is computed, a template index
//! is chosen, resolved into a concrete action and applied; tool calls go to a tiny simulated
//! migration whose source rate-limits now and then. In the first task the agent discovers the
//! remedy and notes it; in the second it recalls it instead of rediscovering it.
//!
//! Run: `cargo run --release --example tour`

use evoharness_core::obs::{Layout, Source, Template};
use evoharness_core::{
    Config, EventBuf, EventKind, InlineWorkspace, Outcome, Status, StepVerb, ToolCall, Value,
};

/// Tools of the simulated migration.
const COPY: u16 = 0;
const WAIT: u16 = 1;
const TOOLS: [&str; 2] = ["copy(cursor)", "wait()"];

type Ws = InlineWorkspace<8, 4, 4>;

/// A source of `total` records, copied four at a time; every fifth copy is rate-limited until
/// the agent waits.
struct Migration {
    total: i64,
    copied: i64,
    calls: u32,
    limited: bool,
}

/// One of the demo's own events (short keys, few fields).
fn event(kind: EventKind, source: u16, fields: &[(&str, Value)]) -> EventBuf {
    EventBuf::from_fields(kind, source, fields).expect("the demo's keys are short and few")
}

impl Migration {
    fn start(&self) -> EventBuf {
        let job = Value::text("migrate:orders").expect("short");
        event(
            EventKind::Notice,
            0,
            &[("job", job), ("cursor", Value::Int(0))],
        )
    }

    fn call(&mut self, call: &ToolCall) -> EventBuf {
        self.calls += 1;
        match call.tool {
            WAIT => {
                self.limited = false;
                event(EventKind::Result, WAIT, &[("waited", Value::Bool(true))])
            }
            _ if self.limited || self.calls.is_multiple_of(5) => {
                self.limited = true;
                let code = Value::text("E429").expect("short");
                event(EventKind::Error, COPY, &[("code", code)])
            }
            _ => {
                let Some(Value::Int(cursor)) = call.args.first() else {
                    let code = Value::text("E400:cursor").expect("short");
                    return event(EventKind::Error, COPY, &[("code", code)]);
                };
                // Copying from the cursor the agent gives: a wrong cursor would duplicate or skip.
                assert_eq!(
                    *cursor, self.copied,
                    "the agent resumed from a wrong cursor"
                );
                self.copied = (cursor + 4).min(self.total);
                let done = Value::Bool(self.copied == self.total);
                event(
                    EventKind::Result,
                    COPY,
                    &[("cursor", Value::Int(self.copied)), ("done", done)],
                )
            }
        }
    }
}

/// The hand-written rules: which template to pick now.
fn decide(ws: &Ws) -> Template {
    let ev = ws.event().expect("there is always an event");
    let slot = |k: &str| ws.belief().get(k).map(|(i, _)| i as u16);
    let active = ws.progress().active();
    if ws.progress().is_empty() {
        return Template::Plan { field: 0 };
    }
    if active.is_none() && ws.progress().steps()[0].status == Status::Pending {
        return Template::Step {
            step: 0,
            verb: StepVerb::Start,
        };
    }
    match ev.kind {
        EventKind::Error => {
            // Remember the failure, then ask experience before experimenting.
            let Some(code) = slot("code") else {
                return Template::Track { field: 0 };
            };
            let just_tracked = ws.belief().facts()[code as usize].confirmed_at == ws.clock();
            if just_tracked {
                return Template::Recall { field: 0 };
            }
            // A recalled remedy is a tool index; without one, explore (here: the one idea the
            // rules have, waiting).
            let remedy = ws
                .experience()
                .lessons()
                .iter()
                .find(|l| l.recalled)
                .map(|l| &l.remedy);
            match remedy {
                Some(Value::Int(t)) => Template::Act {
                    tool: *t as u16,
                    arg: None,
                },
                _ => Template::Act {
                    tool: WAIT,
                    arg: None,
                },
            }
        }
        _ if ev.source == WAIT => {
            // The wait worked: if this was a discovery, note it; then forget the error.
            if let Some(i) = slot("code") {
                let known = ws
                    .experience()
                    .find(&ws.belief().facts()[i as usize].value)
                    .is_some();
                if !known {
                    return Template::NoteFact { fact: i };
                }
                return Template::Retract { fact: i };
            }
            let cursor = slot("cursor").expect("tracked before the first copy");
            Template::Act {
                tool: COPY,
                arg: Some(Source::Fact(cursor)),
            }
        }
        _ => {
            if ev.get("done") == Some(&Value::Bool(true)) {
                return match active {
                    Some(s) => Template::Step {
                        step: s as u16,
                        verb: StepVerb::Complete,
                    },
                    None => Template::Finish { success: true },
                };
            }
            // Keep the cursor current in belief and in the step's cursor, then copy on.
            let cursor_field = ev
                .fields
                .iter()
                .position(|f| f.key == "cursor")
                .map(|i| i as u8);
            if let Some(f) = cursor_field {
                let fresh = ws
                    .belief()
                    .get("cursor")
                    .is_some_and(|(_, b)| Some(&b.value) == ev.get("cursor"));
                if !fresh {
                    return Template::Track { field: f };
                }
                let cp = ws.progress().steps()[0].cursor.as_ref();
                if cp != ev.get("cursor") && active.is_some() {
                    return Template::Cursor { field: f };
                }
            }
            Template::Act {
                tool: COPY,
                arg: Some(Source::Fact(slot("cursor").unwrap_or(0))),
            }
        }
    }
}

fn run_task(ws: &mut Ws, layout: &Layout, task: u32) {
    let mut world = Migration {
        total: 24,
        copied: 0,
        calls: 0,
        limited: false,
    };
    ws.observe_owned(world.start());
    let mut obs = vec![0.0f32; layout.obs_len()];
    let mut mask = vec![0u8; layout.actions()];
    println!(
        "\n== task {task}: migrate {} records (budget {}) ==",
        world.total,
        ws.config().budget
    );
    while ws.finished().is_none() {
        layout.encode(ws, &mut obs).expect("layout fits");
        layout.mask(ws, &mut mask).expect("layout fits");
        let t = decide(ws);
        let i = layout.index(t).expect("template in table");
        assert_eq!(mask[i], 1, "the rules chose a masked template: {t:?}");
        let action = layout.resolve(ws, i).expect("legal");
        let outcome = ws.apply(&action).expect("mask said legal");
        let shown = match &outcome {
            Outcome::Call(c) => format!("call {} {:?}", TOOLS[c.tool as usize], c.args.as_slice()),
            other => format!("{other:?}"),
        };
        println!("  [{:>3}] #{i:<3} {shown}", ws.spent());
        if let Outcome::Call(call) = outcome {
            ws.observe_owned(world.call(&call));
            if let Some(code) = ws
                .event()
                .filter(|e| e.kind == EventKind::Error)
                .and_then(|e| e.get("code"))
            {
                println!("        <- error {code:?}");
            }
        }
    }
    let acts = world.calls;
    println!(
        "  done: {} records copied, {acts} tool calls, {} budget spent",
        world.copied,
        ws.spent()
    );
}

fn main() {
    let mut ws = Ws::new(Config::new(TOOLS.len() as u16, 200)).expect("capacities");
    let layout = Layout::new(ws.capacities());
    println!(
        "structured-v1 layout: {} observation floats, {} action templates",
        layout.obs_len(),
        layout.actions()
    );
    run_task(&mut ws, &layout, 1);
    show(&ws);
    ws.reset_task();
    run_task(&mut ws, &layout, 2);
    show(&ws);

    let mut snap = vec![0u8; evoharness_core::snapshot::max_len(ws.capacities())];
    let n = ws
        .snapshot(&mut snap)
        .expect("buffer sized from max_len")
        .len();
    println!(
        "\nsnapshot: {n} bytes (at most {} for these capacities)",
        snap.len()
    );
}

fn show(ws: &Ws) {
    println!("  belief:");
    for f in ws.belief().facts() {
        println!(
            "    {:<8} = {:?} (confidence {}, {:?})",
            f.key.as_str(),
            f.value,
            f.confidence,
            f.provenance
        );
    }
    println!("  progress:");
    for s in ws.progress().steps() {
        println!(
            "    {:?}: {:?}, {} attempt(s), cursor {:?}",
            s.label, s.status, s.attempts, s.cursor
        );
    }
    println!("  experience:");
    for l in ws.experience().lessons() {
        let remedy = match l.remedy {
            Value::Int(t) => TOOLS.get(t as usize).copied().unwrap_or("?"),
            _ => "?",
        };
        println!("    {:?} -> {remedy} (used {} time(s))", l.trigger, l.uses);
    }
}
