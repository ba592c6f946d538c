//! The agents that need no training, which a trained policy must beat.
//!
//! | baseline | memory | how it decides |
//! | --- | --- | --- |
//! | [`Oracle`] | the workspace, only when it must | sees the world's hidden state: the right tool, the remedy, when a token runs out. An upper bound, and the proof that each task is solvable within its budget. |
//! | [`StaticHarness`] | the workspace, mechanically | hand-written rules: track every field that is new or changed, commit a checkpoint after every item, recall before every landing and remedy, note every remedy that worked. Succeeds, and pays for it in harness actions. |
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
use evoharness_core::obs::{Layout, Source, hash01};
use evoharness_core::{
    Action, Arg, Capacities, EventBuf, EventKind, HeapWorkspace, StepVerb, Template, Value,
    heapless,
};
use evoharness_runtime::rng::SplitMix64;
use evoharness_runtime::{Controller, Decision, Error, ErrorKind, Needs, Result, View};

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

/// Sees the hidden state; uses the workspace only to carry an item through an outage or a
/// token renewal. See the [module docs](self).
#[derive(Clone, Debug, Default)]
pub struct Oracle;

impl Oracle {
    /// Renews a token that has fewer landing calls left than this before fetching.
    const RENEW_BELOW: u32 = 4;
}

impl Controller<SuiteWorld> for Oracle {
    fn name(&self) -> String {
        "oracle".into()
    }

    fn capacities(&self) -> Capacities {
        CAPACITIES
    }

    fn needs(&self) -> Needs {
        RULES_NEED
    }

    fn decide(&mut self, view: &View<'_, SuiteWorld>, _: &mut SplitMix64) -> Result<Decision> {
        let (ws, w, layout) = (view.workspace, view.world, view.layout);
        let kind = w.config().kind;
        let e = current(view)?;
        let key = kind.item_key();
        let tool_for = |id: &Value| {
            let i = match id {
                Value::Int(i) => w.index_of(*i),
                _ => None,
            };
            i.map_or(PUT, |i| w.remedy(i).unwrap_or_else(|| w.right_tool(i)))
        };
        let fetch = || {
            if kind == TaskKind::Orchestration && w.token_left() < Self::RENEW_BELOW {
                act(layout, SPECIAL, None)
            } else {
                act(layout, FETCH, None)
            }
        };
        match classify(e, kind) {
            Ev::Done => finish(layout, true),
            Ev::Fetched | Ev::Error("timeout" | "rejected") => match field(e, key) {
                Some(f) => act(
                    layout,
                    tool_for(&e.fields[f as usize].value),
                    Some(Source::Field(f)),
                ),
                None => fetch(),
            },
            Ev::Error(err @ ("unavailable" | "expired")) => {
                let (Some(f), item) = (field(e, key), e.get(key)) else {
                    return fetch();
                };
                let known = ws
                    .belief()
                    .get(key)
                    .is_some_and(|(_, fact)| item.is_some_and(|v| v.same(&fact.value)));
                if !known {
                    index(layout, Template::Track { field: f })
                } else if err == "unavailable" {
                    act(layout, WAIT, None)
                } else {
                    act(layout, SPECIAL, None)
                }
            }
            Ev::Error("backoff") | Ev::Waiting => act(layout, WAIT, None),
            Ev::Ready | Ev::Token => {
                let pending = ws.belief().get(key).and_then(|(s, fact)| match fact.value {
                    Value::Int(id) => w
                        .index_of(id)
                        .filter(|&i| !w.is_landed(i))
                        .map(|_| (s as u16, fact.value.clone())),
                    _ => None,
                });
                match pending {
                    Some((s, id)) => act(layout, tool_for(&id), Some(Source::Fact(s))),
                    None => fetch(),
                }
            }
            _ => fetch(),
        }
    }
}

/// Rules that see only what a policy sees; see the [module docs](self).
///
/// Unlike the [`Oracle`] it never reads the world's hidden state (only the task's kind, for the
/// names of keys), so every decision is a function of the structured-v1 observation: a policy
/// can imitate it exactly. It uses the workspace only for what must outlive the current event.
#[derive(Clone, Debug, Default)]
pub struct LeanHarness;

impl Controller<SuiteWorld> for LeanHarness {
    fn name(&self) -> String {
        "lean-harness".into()
    }

    fn capacities(&self) -> Capacities {
        CAPACITIES
    }

    fn needs(&self) -> Needs {
        RULES_NEED
    }

    fn decide(&mut self, view: &View<'_, SuiteWorld>, _: &mut SplitMix64) -> Result<Decision> {
        let (ws, layout) = (view.workspace, view.layout);
        let kind = view.world.config().kind;
        let e = current(view)?;
        let key = kind.item_key();
        let belief = |k: &str| ws.belief().get(k).map(|(i, f)| (i as u16, &f.value));
        let drifted = belief(kind.mode_key()).is_some_and(|(_, v)| drifted_value(kind, v));
        let land = if drifted { PUT_ALT } else { PUT };
        let item = field(e, key).map(Source::Field);
        let fetch = || act(layout, FETCH, None);
        let last = ws.last_act().unwrap_or(PUT);
        match classify(e, kind) {
            Ev::Done => finish(layout, true),
            Ev::Fetched | Ev::Again => {
                if let Some(m) = field(e, kind.mode_key())
                    && belief(kind.mode_key())
                        .is_none_or(|(_, v)| !v.same(&e.fields[m as usize].value))
                {
                    return index(layout, Template::Track { field: m });
                }
                if e.get("landed").is_some() {
                    // Delivered again after a crash, landed already: read on.
                    return fetch();
                }
                let tool = if e.get("dup_of").is_some() {
                    SPECIAL
                } else {
                    land
                };
                act(layout, tool, item)
            }
            Ev::Error("timeout") => act(layout, last, item),
            Ev::Error("duplicate") => act(layout, SPECIAL, item),
            Ev::Error("rejected") => act(layout, remedy_for(ws, e.get("code"), REMEDIES[0]), item),
            Ev::Error("remedy_failed") if e.get("retry_in").is_some() => {
                // v2: carry the item through the back-off, mark the remedy that failed, wait.
                let (Some(f), Some(v)) = (field(e, key), e.get(key)) else {
                    return act(layout, WAIT, None);
                };
                if belief(key).is_none_or(|(_, b)| !b.same(v)) {
                    return index(layout, Template::Track { field: f });
                }
                mark_failed_remedy(ws, e, layout).unwrap_or_else(|| act(layout, WAIT, None))
            }
            Ev::Error("remedy_failed") => {
                let i = REMEDIES.iter().position(|&t| t == last).unwrap_or(0);
                act(layout, REMEDIES[(i + 1) % REMEDIES.len()], item)
            }
            Ev::Error(err @ ("unavailable" | "expired")) => {
                let (Some(f), Some(v)) = (field(e, key), e.get(key)) else {
                    return fetch();
                };
                if belief(key).is_none_or(|(_, b)| !b.same(v)) {
                    index(layout, Template::Track { field: f })
                } else if err == "unavailable" {
                    act(layout, WAIT, None)
                } else {
                    act(layout, SPECIAL, None)
                }
            }
            Ev::Error("backoff") | Ev::Waiting => act(layout, WAIT, None),
            Ev::Ready | Ev::Token => match belief(key) {
                Some((slot, _)) => act(layout, land, Some(Source::Fact(slot))),
                None => fetch(),
            },
            Ev::Fixed => {
                let noted = noted(ws, e);
                match field(e, "code") {
                    Some(_) if !noted && needs_room(ws, e.get("code")) => {
                        index(layout, Template::Consolidate)
                    }
                    Some(f) if !noted => index(layout, Template::NoteField { field: f }),
                    _ => fetch(),
                }
            }
            _ => fetch(),
        }
    }
}

/// The lean harness tuned for v2's experience: what [`LeanHarness`] does, and, for a code whose
/// lesson is not in the working set, a `recall` from the experience store first (`recall`),
/// then the remedy the working set's sound lessons name most often instead of the first
/// (`favourite`). The best rule written for v2 (the `tuned` agent; `tuned:plain`,
/// `tuned:recall` and `tuned:favourite` are its variants for a sweep).
///
/// Like the lean harness it decides from what a policy sees alone, so a policy can imitate
/// it (the `tuned` teacher of [`VecEnv`](crate::VecEnv)). A recall that finds nothing leaves
/// no trace in the workspace, so before recalling it tracks the code: a `code` fact
/// confirmed at the last step (staleness 0) means "recall now", one step older (1) means "the
/// recall is done: guess", older ones are refreshed first.
///
/// # Knobs for deployments (v3)
///
/// What an engineer retunes for each deployment ([`TunedHarness::knobs`], `evoharness tune`):
///
/// - `guess`: trust the acting model's guess of a remedy (a rejection's `guess` field, v3):
///   [`Guess::Never`], for a code with no lesson ([`Guess::Unknown`], `:guess-unknown`), or
///   before any lesson that is not marked as failed ([`Guess::First`], `:guess-first`);
/// - `note`: note a remedy that worked (`:no-note` does not; a remedy that failed is still
///   marked, which the back-off needs);
/// - `commit`: keep Progress durable every `K` landings on average (`:commit-K`: a plan
///   step at the start, then, when the hash of a landed id that the observation shows,
///   [`hash01`], is below `1/K`, a `track` of the id and the id as the step's cursor), so that
///   a crash rolls back to a recent point instead of the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TunedHarness {
    recall: bool,
    favourite: bool,
    guess: Guess,
    note: bool,
    commit: u8,
    card: bool,
    hint: Hint,
}

/// When a [`TunedHarness`] trusts the acting model's guess of a remedy (v3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Guess {
    /// Never: lessons, then the favourite remedy or the first.
    #[default]
    Never,
    /// For a code with no lesson (after the recall, if the rule recalls).
    Unknown,
    /// First, before any lesson, unless the code's lesson is marked as failed (then the rule
    /// goes on from the remedy that failed).
    First,
}

impl Guess {
    /// All of them.
    pub const ALL: [Guess; 3] = [Guess::Never, Guess::Unknown, Guess::First];
}

/// The keys of a v3 deployment's card in a task's first event.
const CARD: [&str; 5] = [
    "model",
    "machines",
    "recall_cost",
    "note_cost",
    "store_life",
];

/// The commit cadences [`TunedHarness::knobs`] tries (0: never).
pub const COMMIT_CADENCES: [u8; 4] = [0, 2, 6, 16];

/// What a [`TunedHarness`] may read of the world's hidden state when it picks the first remedy
/// for a rejected item (`tuned:hint-…`): not a rule, a bound. Each hint gives the rule one
/// piece of knowledge about remedies for free and leaves everything else as it was, so the
/// difference it makes to the tuned rule's reward is what that knowledge is worth, and more
/// than any agent that sees only what a policy sees can gain from it. `scripts/v2-gap.py`
/// prints them; `examples/train/README.md` ("v2: a policy against the best rule") quotes them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Hint {
    /// None: the rule itself.
    #[default]
    None,
    /// A code whose sound lesson is in the working set gets its usual remedy when that is this
    /// episode's (drift elsewhere left as the rule meets it). The memory a perfect agent could
    /// keep from what it sees: a lesson a past drift overwrote is back to the usual remedy.
    Usual,
    /// A code whose sound lesson is in the working set gets this episode's remedy: drift known
    /// in advance.
    Drift,
    /// A code with no lesson (after the recall) gets this episode's remedy: what no agent can
    /// know of a code it never met.
    Unknown,
    /// Both [`Hint::Drift`] and [`Hint::Unknown`]: every first remedy is right.
    All,
}

impl Hint {
    /// Every hint, [`Hint::None`] first.
    pub const ALL: [Hint; 5] = [
        Hint::None,
        Hint::Usual,
        Hint::Drift,
        Hint::Unknown,
        Hint::All,
    ];

    /// The remedy this hint names for a code (`lesson`: whether a sound lesson for it is in
    /// the working set), or `None` where the rule should decide.
    fn remedy(self, world: &SuiteWorld, code: &Value, lesson: bool) -> Option<u16> {
        let (usual, now) = world.code_remedies(code)?;
        match self {
            Hint::Usual if lesson && now == usual => Some(usual),
            Hint::Drift if lesson => Some(now),
            Hint::Unknown if !lesson => Some(now),
            Hint::All => Some(now),
            _ => None,
        }
    }
}

impl Default for TunedHarness {
    fn default() -> Self {
        Self::new(true, true)
    }
}

impl TunedHarness {
    /// The rule with recalls and favourite-first guesses switched on or off (and the v3 knobs
    /// as the v2 rule has them: no guesses trusted, notes, no commits).
    pub fn new(recall: bool, favourite: bool) -> Self {
        Self {
            recall,
            favourite,
            guess: Guess::Never,
            note: true,
            commit: 0,
            card: false,
            hint: Hint::None,
        }
    }

    /// The same rule keeping the deployment's card (v3: the first event's `model`,
    /// `machines`, `recall_cost`, `note_cost` and `store_life`) in Belief with a `track` each at
    /// the start, without acting on it (`:card`): a teacher whose imitator has the card at
    /// hand for the whole task, where learning can come to act on it.
    pub fn with_card(self) -> Self {
        Self { card: true, ..self }
    }

    /// The same rule with the v3 knobs set (see the type docs); `commit` 0 never commits.
    pub fn with_knobs(self, guess: Guess, note: bool, commit: u8) -> Self {
        Self {
            guess,
            note,
            commit,
            ..self
        }
    }

    /// Every setting of the knobs a deployment is tuned over: recalls and favourite-first
    /// guesses on or off, each [`Guess`], notes on or off, each of [`COMMIT_CADENCES`]
    /// (96 rules, no hints).
    pub fn knobs() -> Vec<TunedHarness> {
        let mut all = Vec::new();
        for recall in [false, true] {
            for favourite in [false, true] {
                for guess in Guess::ALL {
                    for note in [true, false] {
                        for commit in COMMIT_CADENCES {
                            all.push(Self::new(recall, favourite).with_knobs(guess, note, commit));
                        }
                    }
                }
            }
        }
        all
    }

    /// The same rule reading what `hint` says of the hidden state (a bound, not a rule).
    pub fn with_hint(self, hint: Hint) -> Self {
        Self { hint, ..self }
    }

    /// Its name: `tuned`, or `tuned:plain`, `tuned:recall`, `tuned:favourite`; with a hint,
    /// that name and `:hint-usual`, `:hint-drift`, `:hint-unknown` or `:hint-all` (so
    /// `tuned:hint-usual` is the full rule with [`Hint::Usual`]).
    ///
    /// The v3 knobs follow the rule's name and come before a hint, each only where it differs
    /// from the v2 rule: `:guess-unknown` or `:guess-first`, `:no-note`, `:commit-K`
    /// (`tuned:plain:guess-first:no-note:commit-6`), then `:card` ([`TunedHarness::with_card`]).
    pub fn label(&self) -> String {
        let rule = match (self.recall, self.favourite) {
            (true, true) => "tuned",
            (false, false) => "tuned:plain",
            (true, false) => "tuned:recall",
            (false, true) => "tuned:favourite",
        };
        let mut label = String::from(rule);
        match self.guess {
            Guess::Never => {}
            Guess::Unknown => label.push_str(":guess-unknown"),
            Guess::First => label.push_str(":guess-first"),
        }
        if !self.note {
            label.push_str(":no-note");
        }
        if self.commit > 0 {
            label.push_str(&format!(":commit-{}", self.commit));
        }
        if self.card {
            label.push_str(":card");
        }
        match self.hint {
            Hint::None => {}
            Hint::Usual => label.push_str(":hint-usual"),
            Hint::Drift => label.push_str(":hint-drift"),
            Hint::Unknown => label.push_str(":hint-unknown"),
            Hint::All => label.push_str(":hint-all"),
        }
        label
    }

    /// The agent a `tuned…` name stands for (see [`TunedHarness::label`]), or `None`.
    /// Parts in the order [`TunedHarness::label`] writes them, each at most once.
    pub fn parse(name: &str) -> Option<Self> {
        let mut parts = name.split(':').peekable();
        if parts.next()? != "tuned" {
            return None;
        }
        let mut rule = match parts.peek() {
            Some(&"plain") => Self::new(false, false),
            Some(&"recall") => Self::new(true, false),
            Some(&"favourite") => Self::new(false, true),
            _ => Self::new(true, true),
        };
        if rule != Self::new(true, true) {
            parts.next();
        }
        // Each knob has a rank: a part must come after the parts before it in the label.
        let mut rank = 0;
        for part in parts {
            let (r, next) = match part {
                "guess-unknown" => (
                    1,
                    Self {
                        guess: Guess::Unknown,
                        ..rule
                    },
                ),
                "guess-first" => (
                    1,
                    Self {
                        guess: Guess::First,
                        ..rule
                    },
                ),
                "no-note" => (
                    2,
                    Self {
                        note: false,
                        ..rule
                    },
                ),
                "card" => (4, rule.with_card()),
                "hint-usual" => (5, rule.with_hint(Hint::Usual)),
                "hint-drift" => (5, rule.with_hint(Hint::Drift)),
                "hint-unknown" => (5, rule.with_hint(Hint::Unknown)),
                "hint-all" => (5, rule.with_hint(Hint::All)),
                _ => {
                    let k: u8 = part.strip_prefix("commit-")?.parse().ok()?;
                    if k == 0 || part != format!("commit-{k}") {
                        return None;
                    }
                    (3, Self { commit: k, ..rule })
                }
            };
            if r <= rank {
                return None;
            }
            rank = r;
            rule = next;
        }
        Some(rule)
    }

    fn rejected(&self, view: &View<'_, SuiteWorld>, e: &EventBuf) -> Result<Decision> {
        let (ws, layout) = (view.workspace, view.layout);
        let kind = view.world.config().kind;
        let code = e.get("code");
        let known = code.is_some_and(|c| ws.experience().find(c).is_some());
        if self.recall
            && !known
            && let (Some(f), Some(c)) = (field(e, "code"), code)
        {
            match tracked_age(ws, "code", c) {
                Some(0) => return index(layout, Template::Recall { field: f }),
                Some(1) => {} // recalled, and nothing came: guess
                _ => return index(layout, Template::Track { field: f }),
            }
        }
        let item = field(e, kind.item_key()).map(Source::Field);
        if self.hint != Hint::None
            && let Some(c) = code
        {
            // A lesson marked harmful means a remedy failed: the rule goes on.
            if !marked(ws, c)
                && let Some(t) = self
                    .hint
                    .remedy(view.world, c, ws.experience().find(c).is_some())
            {
                return act(layout, t, item);
            }
        }
        let guess = e
            .get("guess")
            .and_then(int)
            .and_then(|g| REMEDIES.iter().copied().find(|&t| i64::from(t) == g));
        // Trusted first, unless the code's lesson is marked (a remedy failed for it): then the
        // rule goes on from the one that failed.
        if let (Guess::First, Some(g)) = (self.guess, guess)
            && !code.is_some_and(|c| marked(ws, c))
        {
            return act(layout, g, item);
        }
        let unknown = match (self.guess, guess) {
            (Guess::Unknown | Guess::First, Some(g)) => g,
            _ if self.favourite => favourite(ws),
            _ => REMEDIES[0],
        };
        act(layout, remedy_for(ws, code, unknown), item)
    }

    /// v3 knobs around the lean rule: a plan step to commit cursors to, a cursor every `K`
    /// landings, no note of a remedy that worked. `None`: the lean rule's choice.
    fn bookkeeping(&self, view: &View<'_, SuiteWorld>, e: &EventBuf) -> Option<Result<Decision>> {
        let (ws, layout) = (view.workspace, view.layout);
        let class = classify(e, view.world.config().kind);
        if self.card && class == Ev::Start {
            let untracked = CARD.iter().find_map(|k| {
                let f = field(e, k)?;
                let v = &e.fields[usize::from(f)].value;
                ws.belief()
                    .get(k)
                    .is_none_or(|(_, fact)| !fact.value.same(v))
                    .then_some(f)
            });
            if let Some(f) = untracked {
                return Some(index(layout, Template::Track { field: f }));
            }
        }
        if self.commit > 0 {
            let steps = ws.progress().steps();
            if class == Ev::Start && steps.is_empty() {
                return Some(index(layout, Template::Plan { field: 0 }));
            }
            if class == Ev::Start && ws.progress().active().is_none() {
                return Some(index(
                    layout,
                    Template::Step {
                        step: 0,
                        verb: StepVerb::Start,
                    },
                ));
            }
            // A landing whose id hashes below 1/K (every K landings on average): track the
            // landed id, commit it as the cursor while that fact is fresh (staleness 0), then
            // go on (staleness 1: the commit was the step since). The hash is the one the
            // observation shows of the id (its field's `value_hash`), and the fact's
            // `differs` and `staleness` say where the rule is, so a policy sees the whole
            // cadence: whether the step's cursor equals the id, it could not.
            let landed_key = match class {
                Ev::Landed => Some(view.world.config().kind.ok_key()),
                Ev::Fixed => Some("fixed"),
                _ => None,
            };
            if let Some(k) = landed_key
                && let Some(f) = field(e, k)
                && (class != Ev::Fixed || !self.note || noted(ws, e))
            {
                let v = &e.fields[usize::from(f)].value;
                let due = int(v).is_some() && hash01(v.fnv1a()) * f32::from(self.commit) < 1.0;
                match tracked_age(ws, k, v) {
                    _ if !due => {}
                    None => return Some(index(layout, Template::Track { field: f })),
                    Some(0) => return Some(index(layout, Template::Cursor { field: f })),
                    Some(_) => {}
                }
            }
        }
        if !self.note && class == Ev::Fixed {
            return Some(act(layout, FETCH, None));
        }
        None
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

impl Controller<SuiteWorld> for TunedHarness {
    fn name(&self) -> String {
        self.label()
    }

    fn capacities(&self) -> Capacities {
        CAPACITIES
    }

    fn needs(&self) -> Needs {
        RULES_NEED
    }

    fn decide(&mut self, view: &View<'_, SuiteWorld>, rng: &mut SplitMix64) -> Result<Decision> {
        let e = current(view)?;
        if classify(e, view.world.config().kind) == Ev::Error("rejected") {
            self.rejected(view, e)
        } else if let Some(d) = self.bookkeeping(view, e) {
            d
        } else {
            LeanHarness.decide(view, rng)
        }
    }
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
    Checkpoint(u8),
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

/// Hand-written rules over the workspace; see the [module docs](self).
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
    /// learn (the `static` teacher of [`VecEnv`](crate::VecEnv)). All its other harness
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
    /// [`VecEnv`](crate::VecEnv), `static-lean-harness` in evaluations).
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
                Job::Checkpoint(0),
                fetch,
            ],
            Ev::Landed => &[Job::Checkpoint(0), fetch],
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
            Job::Checkpoint(f) => index(layout, Template::Cursor { field: f }),
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

/// One transcript entry of the append-only baseline.
#[derive(Clone, Debug, PartialEq)]
#[expect(
    clippy::large_enum_variant,
    reason = "half the entries are events; boxing them would add an allocation to each"
)]
enum Entry {
    Event(EventBuf),
    Call { tool: u16, arg: Option<Value> },
}

/// The append-only memory; see the [module docs](self).
#[derive(Clone, Debug)]
pub struct AppendOnly {
    window: usize,
    transcript: Vec<Entry>,
    kind: Option<TaskKind>,
}

impl AppendOnly {
    /// The default window: 48 entries (a call and its event are two).
    pub const DEFAULT_WINDOW: usize = 48;

    /// An append-only agent that sees the last `window` entries (at least 2).
    pub fn new(window: usize) -> Self {
        Self {
            window: window.max(2),
            transcript: Vec::new(),
            kind: None,
        }
    }

    /// The transcript's length: it only grows within an episode.
    pub fn transcript_len(&self) -> usize {
        self.transcript.len()
    }

    fn window(&self) -> &[Entry] {
        &self.transcript[self.transcript.len().saturating_sub(self.window)..]
    }

    /// Whether the setting has drifted, as far as the window shows: the latest mention of
    /// the setting, or else the latest landing call's tool.
    fn drifted(&self, kind: TaskKind) -> bool {
        for entry in self.window().iter().rev() {
            match entry {
                Entry::Event(e) => {
                    if let Some(v) = e.get(kind.mode_key()) {
                        return drifted_value(kind, v);
                    }
                }
                Entry::Call { tool, .. } if *tool == PUT || *tool == PUT_ALT => {
                    return *tool == PUT_ALT;
                }
                Entry::Call { .. } => {}
            }
        }
        false
    }

    /// The tool to land `id` with: `merge` if the window shows it is a duplicate.
    fn land(&self, kind: TaskKind, id: &Value) -> Decision {
        let dup = self.window().iter().any(|entry| {
            matches!(entry, Entry::Event(e) if e.source == FETCH
                && e.get("dup_of").is_some()
                && e.get(kind.item_key()).is_some_and(|v| v.same(id)))
        });
        let tool = if dup {
            SPECIAL
        } else if self.drifted(kind) {
            PUT_ALT
        } else {
            PUT
        };
        Decision::Call { tool, arg: int(id) }
    }

    /// The item of the latest refusal in the window, if it has not landed since.
    fn pending(&self, kind: TaskKind) -> Option<&Value> {
        for entry in self.window().iter().rev() {
            if let Entry::Event(e) = entry {
                if e.get(kind.ok_key()).is_some() || e.get("merged").is_some() {
                    return None;
                }
                if e.get("error").is_some()
                    && let Some(v) = e.get(kind.item_key())
                {
                    return Some(v);
                }
            }
        }
        None
    }

    /// The remedy that fixed `code` in the window: the call just before its `fixed` event.
    fn known_remedy(&self, code: &Value) -> Option<u16> {
        let w = self.window();
        w.windows(2).rev().find_map(|pair| match pair {
            [Entry::Call { tool, .. }, Entry::Event(e)]
                if e.get("fixed").is_some() && e.get("code").is_some_and(|c| c.same(code)) =>
            {
                Some(*tool)
            }
            _ => None,
        })
    }

    fn last_call(&self) -> Option<(u16, Option<&Value>)> {
        self.window().iter().rev().find_map(|entry| match entry {
            Entry::Call { tool, arg } => Some((*tool, arg.as_ref())),
            Entry::Event(_) => None,
        })
    }
}

impl Default for AppendOnly {
    fn default() -> Self {
        Self::new(Self::DEFAULT_WINDOW)
    }
}

impl Controller<SuiteWorld> for AppendOnly {
    fn name(&self) -> String {
        format!("append-only(window {})", self.window)
    }

    fn capacities(&self) -> Capacities {
        CAPACITIES
    }

    fn needs(&self) -> Needs {
        RULES_NEED
    }

    fn begin(&mut self, view: &View<'_, SuiteWorld>) {
        // A new episode starts a new transcript; the old one's memory is released.
        self.transcript = Vec::new();
        self.kind = Some(view.world.config().kind);
        if let Some(e) = view.workspace.event() {
            self.transcript.push(Entry::Event(e.clone()));
        }
    }

    fn decide(&mut self, view: &View<'_, SuiteWorld>, _: &mut SplitMix64) -> Result<Decision> {
        let kind = view.world.config().kind;
        let fetch = Decision::Call {
            tool: FETCH,
            arg: None,
        };
        let call = |tool| Decision::Call { tool, arg: None };
        let Some(Entry::Event(e)) = self.transcript.last() else {
            return Ok(fetch);
        };
        let item = e.get(kind.item_key());
        Ok(match (classify(e, kind), item) {
            (Ev::Done, _) => finish(view.layout, true)?,
            (Ev::Fetched, Some(id)) => self.land(kind, id),
            (Ev::Error("timeout"), Some(id)) => match self.last_call() {
                Some((tool, Some(arg))) if arg.same(id) => Decision::Call { tool, arg: int(id) },
                _ => self.land(kind, id),
            },
            (Ev::Error("unavailable" | "backoff") | Ev::Waiting, _) => call(WAIT),
            (Ev::Error("expired"), _) => call(SPECIAL),
            (Ev::Error("duplicate"), Some(id)) => Decision::Call {
                tool: SPECIAL,
                arg: int(id),
            },
            (Ev::Ready | Ev::Token, _) => match self.pending(kind) {
                Some(id) => self.land(kind, &id.clone()),
                None => fetch,
            },
            (Ev::Error("rejected"), Some(id)) => {
                let tool = e
                    .get("code")
                    .and_then(|c| self.known_remedy(c))
                    .unwrap_or(REMEDIES[0]);
                Decision::Call { tool, arg: int(id) }
            }
            (Ev::Error("remedy_failed"), Some(id)) => {
                let last = self.last_call().map_or(REMEDIES[0], |(t, _)| t);
                let i = REMEDIES.iter().position(|&t| t == last).unwrap_or(0);
                Decision::Call {
                    tool: REMEDIES[(i + 1) % REMEDIES.len()],
                    arg: int(id),
                }
            }
            // A step whose predecessor was lost: ids are opaque, so the lost step cannot be
            // named again. Nothing can succeed any more; give up.
            (Ev::Error("dependency"), _) => finish(view.layout, false)?,
            _ => fetch,
        })
    }

    fn observe(&mut self, action: &Action<'_>, event: Option<&EventBuf>) {
        if let Action::Act { tool, args } = action {
            let arg = match args.first() {
                Some(Arg::Lit(v)) => Some(v.to_owned()),
                _ => None,
            };
            self.transcript.push(Entry::Call { tool: *tool, arg });
        }
        if let Some(e) = event {
            self.transcript.push(Entry::Event(e.clone()));
        }
    }
}

/// A uniformly random legal template, seeded by the episode: the floor.
#[derive(Clone, Debug, Default)]
pub struct RandomAgent {
    rng: SplitMix64,
}

impl Controller<SuiteWorld> for RandomAgent {
    fn name(&self) -> String {
        "random".into()
    }

    fn capacities(&self) -> Capacities {
        CAPACITIES
    }

    fn needs(&self) -> Needs {
        Needs {
            obs: false,
            mask: true,
        }
    }

    fn begin(&mut self, view: &View<'_, SuiteWorld>) {
        self.rng = SplitMix64(view.world.seed() ^ 0x7261_6e64);
    }

    fn decide(&mut self, view: &View<'_, SuiteWorld>, _: &mut SplitMix64) -> Result<Decision> {
        let legal = view.mask.iter().filter(|&&m| m == 1).count();
        if legal == 0 {
            return Err(Error::new(ErrorKind::Workspace, "no legal template"));
        }
        let pick = (self.rng.next_u64() % legal as u64) as usize;
        let t = view
            .mask
            .iter()
            .enumerate()
            .filter(|(_, m)| **m == 1)
            .nth(pick)
            .map_or(0, |(i, _)| i);
        Ok(Decision::Template(t))
    }
}
