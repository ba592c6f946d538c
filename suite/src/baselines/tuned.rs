//! The tuned harness: the lean rules tuned for v2's experience, with the knobs v3 deployments retune.

use super::*;

/// The lean harness tuned for v2's experience: what [`LeanHarness`] does, and, for a code whose
/// lesson is not in the working set, a `recall` from the experience store first (`recall`),
/// then the remedy the working set's sound lessons name most often instead of the first
/// (`favourite`). The best rule written for v2 (the `tuned` agent; `tuned:plain`,
/// `tuned:recall` and `tuned:favourite` are its variants for a sweep).
///
/// Like the lean harness it decides from what a policy sees alone, so a policy can imitate
/// it (the `tuned` teacher of [`SuiteVecEnv`](crate::SuiteVecEnv)). A recall that finds nothing leaves
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
