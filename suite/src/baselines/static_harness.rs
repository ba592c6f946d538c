//! The static harness: hand-written bookkeeping around every action.

use super::*;
use evoharness_core::heapless;

/// Whether `job`, planned at event `e`, changes what a policy sees of the workspace: a recall
/// that finds no lesson not recalled yet, and a note of the remedy a lesson already names,
/// change nothing it sees ([`StaticHarness::imitable`] leaves them out).
fn leaves_a_trace(job: Job, e: &EventBuf, ws: &HeapWorkspace) -> bool {
    let value = |f: u8| e.fields.get(usize::from(f)).map(|f| &f.value);
    let lessons = ws.experience().lessons();
    match job {
        Job::Recall(f) => value(f).is_some_and(|v| {
            lessons
                .iter()
                .any(|l| !l.recalled && l.trigger.match_rank(v) > 0)
        }),
        Job::Note(f) => {
            let remedy = ws.last_act().map(|t| Value::Int(i64::from(t)));
            !value(f).is_some_and(|v| {
                lessons
                    .iter()
                    .any(|l| l.trigger.same(v) && remedy.as_ref().is_some_and(|r| l.remedy.same(r)))
            })
        }
        _ => true,
    }
}

/// One thing the static harness does; resolved to a template when it is its turn, because
/// the harness actions before it change the workspace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Job {
    Track(u8),
    Compress,
    Consolidate,
    /// Rate the lesson for the code in field `.0` harmful (v2: its remedy just failed).
    RateHarmful(u8),
    Retract(&'static str),
    Plan(u8),
    Start,
    Cursor(u8),
    Recall(u8),
    Note(u8),
    Act(ToolOf, ArgOf),
    Finish,
    /// What the [`LeanHarness`] does now; stays first until it is a world action.
    Lean,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ToolOf {
    Tool(u16),
    /// The landing tool the beliefs call for: `merge` for a duplicate, else by the setting.
    Land,
    /// The tool of the last world action (a retry).
    Last,
    /// The remedy a lesson names for the current event's code, else the first.
    Remedy,
    /// The remedy after the last one tried.
    NextRemedy,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ArgOf {
    None,
    Item,
}

/// Hand-written rules over the workspace; see the [module docs](super).
#[derive(Clone, Debug)]
pub struct StaticHarness {
    agenda: heapless::Deque<Job, 24>,
    fresh: bool,
    blind_recalls: bool,
    lean_acts: bool,
}

impl Default for StaticHarness {
    fn default() -> Self {
        Self {
            agenda: heapless::Deque::new(),
            fresh: false,
            blind_recalls: true,
            lean_acts: false,
        }
    }
}

impl StaticHarness {
    /// The static harness without its blind recalls: it recalls only where a lesson that is
    /// not recalled yet matches. A recall that finds nothing leaves no trace in the workspace,
    /// so a policy, which sees only the workspace, cannot tell whether it has made it and
    /// cannot imitate the rule that makes it; this variant is the static harness a policy can
    /// learn (the `static` teacher of [`SuiteVecEnv`](crate::SuiteVecEnv)). All its other harness
    /// actions are the static harness's.
    pub fn imitable() -> Self {
        Self {
            blind_recalls: false,
            ..Self::default()
        }
    }

    /// The static harness's bookkeeping around the [`LeanHarness`]'s world actions: at every
    /// event it makes the harness actions [`imitable`](Self::imitable) makes (tracks every new
    /// or changed field, checkpoints every landing, notes every remedy, recalls where a lesson
    /// matches), then lets the lean rule choose the world action, which reads the item and
    /// the duplicate from the event. Its harness actions are the static harness's (and, now
    /// and then, one the lean rule needs), but few of them carry anything a later world
    /// action needs: the starting point of harness annealing when the question is which
    /// bookkeeping pays, not how to act (the `static-lean` teacher of
    /// [`SuiteVecEnv`](crate::SuiteVecEnv), `static-lean-harness` in evaluations).
    pub fn over_lean() -> Self {
        Self {
            lean_acts: true,
            ..Self::imitable()
        }
    }

    fn plan(&mut self, view: &View<'_, SuiteWorld>) -> Result<()> {
        let ws = view.workspace;
        let kind = view.world.config().kind;
        let e = current(view)?;
        let mut jobs: heapless::Vec<Job, 24> = heapless::Vec::new();
        // Full, or too full for this event's new fields (v3's first event has eight).
        let new_fields = e
            .fields
            .iter()
            .filter(|f| ws.belief().get(&f.key).is_none())
            .count();
        let full = ws.belief().len() + new_fields > ws.belief().capacity();
        let mut compressed = false;
        for (i, f) in e.fields.iter().enumerate() {
            let changed = ws
                .belief()
                .get(&f.key)
                .is_none_or(|(_, fact)| !fact.value.same(&f.value));
            let new = ws.belief().get(&f.key).is_none();
            if changed {
                if new && full && !compressed {
                    let _ = jobs.push(Job::Compress);
                    compressed = true;
                }
                let _ = jobs.push(Job::Track(i as u8));
            }
        }
        let class = classify(e, kind);
        if kind == TaskKind::Records
            && class == Ev::Fetched
            && e.get("dup_of").is_none()
            && ws.belief().get("dup_of").is_some()
        {
            let _ = jobs.push(Job::Retract("dup_of"));
        }
        let item = field(e, kind.item_key());
        let land = Job::Act(ToolOf::Land, ArgOf::Item);
        let fetch = Job::Act(ToolOf::Tool(FETCH), ArgOf::None);
        let wait = Job::Act(ToolOf::Tool(WAIT), ArgOf::None);
        let tail: &[Job] = match class {
            // v3: restarted after a crash, with the plan of the last commit.
            Ev::Start if e.get("restarted").is_some() && !ws.progress().steps().is_empty() => {
                &[fetch]
            }
            Ev::Start => {
                let task = field(e, "task").unwrap_or(0);
                &[Job::Plan(task), Job::Start, fetch]
            }
            Ev::Done => &[Job::Finish],
            Ev::Again => &[fetch],
            Ev::Fetched => &[Job::Recall(item.unwrap_or(0)), land],
            Ev::Error("timeout") => &[
                Job::Recall(item.unwrap_or(0)),
                Job::Act(ToolOf::Last, ArgOf::Item),
            ],
            Ev::Error("unavailable" | "backoff") | Ev::Waiting => &[wait],
            Ev::Ready | Ev::Token | Ev::Error("duplicate") => &[land],
            Ev::Error("rejected") => &[
                Job::Recall(field(e, "code").unwrap_or(0)),
                Job::Act(ToolOf::Remedy, ArgOf::Item),
            ],
            Ev::Error("remedy_failed") if e.get("retry_in").is_some() => &[
                Job::Note(field(e, "code").unwrap_or(0)),
                Job::RateHarmful(field(e, "code").unwrap_or(0)),
                wait,
            ],
            Ev::Error("remedy_failed") => &[Job::Act(ToolOf::NextRemedy, ArgOf::Item)],
            Ev::Error("expired") => &[Job::Act(ToolOf::Tool(SPECIAL), ArgOf::None)],
            Ev::Fixed => &[
                Job::Note(field(e, "code").unwrap_or(0)),
                Job::Cursor(0),
                fetch,
            ],
            Ev::Landed => &[Job::Cursor(0), fetch],
            Ev::Error(_) | Ev::Other => &[fetch],
        };
        self.agenda.clear();
        let lean = [Job::Lean];
        let world = |j: &&Job| matches!(j, Job::Act(..) | Job::Finish);
        let planned = jobs
            .iter()
            .chain(tail.iter().filter(|j| !self.lean_acts || !world(j)));
        for &j in planned.chain(if self.lean_acts { &lean[..] } else { &[] }) {
            if !self.blind_recalls && !leaves_a_trace(j, e, ws) {
                continue;
            }
            if let Job::Note(f) = j
                && needs_room(ws, e.fields.get(usize::from(f)).map(|f| &f.value))
            {
                let _ = self.agenda.push_back(Job::Consolidate);
            }
            let _ = self.agenda.push_back(j);
        }
        Ok(())
    }

    fn template(&self, job: Job, view: &View<'_, SuiteWorld>) -> Result<Decision> {
        let (ws, layout) = (view.workspace, view.layout);
        let kind = view.world.config().kind;
        let key_slot = |key: &str| {
            slot(ws, key).ok_or_else(|| {
                Error::new(
                    ErrorKind::Workspace,
                    format!("static harness: no belief about {key:?}"),
                )
            })
        };
        match job {
            Job::Track(f) => index(layout, Template::Track { field: f }),
            Job::Compress => index(layout, Template::Compress),
            Job::Consolidate => index(layout, Template::Consolidate),
            Job::RateHarmful(f) => {
                let e = current(view)?;
                let lesson = e
                    .fields
                    .get(usize::from(f))
                    .and_then(|f| ws.experience().find(&f.value))
                    .ok_or_else(|| {
                        Error::new(ErrorKind::Workspace, "static harness: no lesson to rate")
                    })?;
                index(
                    layout,
                    Template::Rate {
                        lesson: lesson as u16,
                        helpful: false,
                    },
                )
            }
            Job::Retract(key) => index(
                layout,
                Template::Retract {
                    fact: key_slot(key)?,
                },
            ),
            Job::Plan(f) => index(layout, Template::Plan { field: f }),
            Job::Start => index(
                layout,
                Template::Step {
                    step: 0,
                    verb: StepVerb::Start,
                },
            ),
            Job::Cursor(f) => index(layout, Template::Cursor { field: f }),
            Job::Recall(f) => index(layout, Template::Recall { field: f }),
            Job::Note(f) => index(layout, Template::NoteField { field: f }),
            Job::Finish => finish(layout, true),
            Job::Lean => LeanHarness.decide(view, &mut SplitMix64(0)),
            Job::Act(tool, arg) => {
                let tool = match tool {
                    ToolOf::Tool(t) => t,
                    ToolOf::Land => {
                        if ws.belief().get("dup_of").is_some() {
                            SPECIAL
                        } else if ws
                            .belief()
                            .get(kind.mode_key())
                            .is_some_and(|(_, f)| drifted_value(kind, &f.value))
                        {
                            PUT_ALT
                        } else {
                            PUT
                        }
                    }
                    ToolOf::Last => ws.last_act().unwrap_or(PUT),
                    ToolOf::Remedy => remedy_for(ws, current(view)?.get("code"), REMEDIES[0]),
                    ToolOf::NextRemedy => {
                        let last = ws.last_act().unwrap_or(REMEDIES[0]);
                        let i = REMEDIES.iter().position(|&t| t == last).unwrap_or(0);
                        REMEDIES[(i + 1) % REMEDIES.len()]
                    }
                };
                let arg = match arg {
                    ArgOf::None => None,
                    ArgOf::Item => Some(Source::Fact(key_slot(kind.item_key())?)),
                };
                act(layout, tool, arg)
            }
        }
    }
}

impl Controller<SuiteWorld> for StaticHarness {
    fn name(&self) -> String {
        if self.lean_acts {
            "static-lean-harness".into()
        } else {
            "static-harness".into()
        }
    }

    fn capacities(&self) -> Capacities {
        CAPACITIES
    }

    fn needs(&self) -> Needs {
        RULES_NEED
    }

    fn begin(&mut self, _view: &View<'_, SuiteWorld>) {
        self.fresh = true;
    }

    fn decide(&mut self, view: &View<'_, SuiteWorld>, _: &mut SplitMix64) -> Result<Decision> {
        if self.fresh || self.agenda.is_empty() {
            self.plan(view)?;
            self.fresh = false;
        }
        let job = self.agenda.pop_front().unwrap_or(Job::Finish);
        let d = self.template(job, view)?;
        if job == Job::Lean
            && let Decision::Template(t) = d
            && !matches!(
                view.layout.template(t),
                Some(Template::Act { .. } | Template::Finish { .. })
            )
        {
            // The lean rule's own harness action first; the world action is still to come.
            let _ = self.agenda.push_front(Job::Lean);
        }
        Ok(d)
    }

    fn observe(&mut self, _action: &Action<'_>, event: Option<&EventBuf>) {
        if event.is_some() {
            self.fresh = true;
        }
    }
}
