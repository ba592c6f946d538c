//! A task: its family, scenario and deployment, and the constants every family shares.

use std::fmt;
use std::str::FromStr;

use evoharness_core::{Capacities, Costs};
use serde::Serialize;

use crate::{mix, unit};

/// The workspace capacities of the suite's policies: 16 facts, 8 steps, 4 lessons, 8 tools.
pub const CAPACITIES: Capacities = Capacities {
    facts: 16,
    steps: 8,
    lessons: 4,
    tools: TOOLS as u16,
};

/// Every family has this many world tools.
pub const TOOLS: usize = 8;

/// Tool 0: fetch the next item.
pub const FETCH: u16 = 0;
/// Tool 1: land an item before the drift.
pub const PUT: u16 = 1;
/// Tool 2: land an item after the drift.
pub const PUT_ALT: u16 = 2;
/// Tool 3: wait.
pub const WAIT: u16 = 3;
/// Tools 4–6: the remedies.
pub const REMEDIES: [u16; 3] = [4, 5, 6];
/// Tool 7: the family's own tool (`verify`, `merge`, `auth`).
pub const SPECIAL: u16 = 7;

/// One of the three task families.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TaskKind {
    /// Move batches from a source to a target.
    Migration,
    /// Customer record management across systems.
    Records,
    /// A multi-step API workflow.
    Orchestration,
}

impl TaskKind {
    /// All three, in order.
    pub const ALL: [TaskKind; 3] = [
        TaskKind::Migration,
        TaskKind::Records,
        TaskKind::Orchestration,
    ];

    /// The name used on the command line and in reports.
    pub const fn name(self) -> &'static str {
        match self {
            TaskKind::Migration => "migration",
            TaskKind::Records => "records",
            TaskKind::Orchestration => "orchestration",
        }
    }

    /// The tool names, in tool-index order: a policy's `evoharness.tool_names`.
    pub const fn tool_names(self) -> [&'static str; TOOLS] {
        match self {
            TaskKind::Migration => [
                "read",
                "write",
                "write_v2",
                "wait",
                "quarantine",
                "transform",
                "split",
                "verify",
            ],
            TaskKind::Records => [
                "next",
                "update_a",
                "update_b",
                "wait",
                "reconcile",
                "overwrite",
                "escalate",
                "merge",
            ],
            TaskKind::Orchestration => [
                "next",
                "call",
                "call_alt",
                "wait",
                "rollback",
                "replay",
                "compensate",
                "auth",
            ],
        }
    }

    /// The key that names an item in events (`batch`, `record`, `step`).
    pub const fn item_key(self) -> &'static str {
        match self {
            TaskKind::Migration => "batch",
            TaskKind::Records => "record",
            TaskKind::Orchestration => "step",
        }
    }

    /// The key of the setting that drifts (`schema`, `owner`, `endpoint`).
    pub const fn mode_key(self) -> &'static str {
        match self {
            TaskKind::Migration => "schema",
            TaskKind::Records => "owner",
            TaskKind::Orchestration => "endpoint",
        }
    }

    /// The key of a landed item's result (`written`, `updated`, `called`).
    pub const fn ok_key(self) -> &'static str {
        match self {
            TaskKind::Migration => "written",
            TaskKind::Records => "updated",
            TaskKind::Orchestration => "called",
        }
    }
}

impl fmt::Display for TaskKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for TaskKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        TaskKind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| {
                format!("unknown task {s:?}: expected migration, records or orchestration")
            })
    }
}

/// How often things go wrong, per landing attempt (or per item, for item properties).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Faults {
    /// A timeout: the item is refused and may be retried at once.
    pub transient: f64,
    /// An outage: the item is refused and the service is down for a while.
    pub outage: f64,
    /// Of the outages, the share that are long (24–64 waits instead of 2–6).
    pub long_outage: f64,
    /// Per item: it is rejected with an error code until its remedy is applied.
    pub poison: f64,
    /// Per item, records only: it is a duplicate of an earlier record.
    pub duplicate: f64,
    /// Orchestration only: calls a token lasts, at least (it lasts up to twice this).
    pub token_calls: u32,
    /// The organisation's error codes (1 to [`CODES_MAX`]; v1 tasks have 3). In v1 a rejected
    /// item's code is drawn uniformly; in v2 the `k`-th code is drawn with weight `1 / (k + 1)`
    /// (a few frequent codes and a long tail).
    pub codes: u16,
    /// Per episode and code: the chance that the code's remedy is, for this episode only, not
    /// the organisation's usual one ("remedy drift": a lesson can be wrong today).
    pub remedy_drift: f64,
    /// Waits the service backs off for after a failed remedy (`remedy_failed` then carries
    /// `retry_in`, as an outage does). 0: none.
    pub lockout: u32,
}

/// The most error codes an organisation can have.
pub const CODES_MAX: usize = 12;

impl Default for Faults {
    /// The v1 faults.
    fn default() -> Self {
        Self {
            transient: 0.04,
            outage: 0.02,
            long_outage: 0.3,
            poison: 0.03,
            duplicate: 0.08,
            token_calls: 40,
            codes: 3,
            remedy_drift: 0.0,
            lockout: 0,
        }
    }
}

impl Faults {
    /// The v2 faults: a quarter of the items rejected, with twelve codes (more than the
    /// workspace's four lesson slots), remedies that drift for an episode one time in eight,
    /// and a back-off of three waits after a failed remedy.
    pub fn v2() -> Self {
        Self {
            poison: 0.25,
            codes: CODES_MAX as u16,
            remedy_drift: 0.125,
            lockout: 3,
            ..Self::default()
        }
    }
}

/// Which version of the suite's rules a task follows. v1 results stay reproducible: a v1 task
/// behaves exactly as before v2 existed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scenario {
    /// The first suite: few error codes, every lesson fits the workspace, faults drawn from one
    /// counter of landing attempts per episode.
    #[default]
    V1,
    /// Tasks where no hand-written rule is optimal ([`Faults::v2`]): more error codes than
    /// lesson slots, with skewed frequencies, remedies that drift, failed remedies that cost a
    /// back-off; every agent has an [`ExperienceStore`] per organisation behind its working
    /// set, which `recall` reads; a world call costs two units of budget and a `commit` two,
    /// the other harness actions one; and faults are drawn per item and per attempt of that
    /// item, so one different action changes no other item's faults.
    ///
    /// [`ExperienceStore`]: evoharness_runtime::ExperienceStore
    V2,
    /// v2 in many deployments: each organisation also draws a [`Deployment`] (the costs of
    /// `recall` and `note`, the back-off after a failed remedy, how many episodes an agent
    /// keeps its experience store, how good the acting model's guess of a remedy is, how
    /// often the agent's machine crashes), so that which rule is best changes from one
    /// organisation to the next, as it does from one deployment or model upgrade to the next.
    /// The task's first event carries the deployment's card: what its host would know.
    V3,
}

impl Scenario {
    /// All of them, in order.
    pub const ALL: [Scenario; 3] = [Scenario::V1, Scenario::V2, Scenario::V3];

    /// The name used on the command line and in reports.
    pub const fn name(self) -> &'static str {
        match self {
            Scenario::V1 => "v1",
            Scenario::V2 => "v2",
            Scenario::V3 => "v3",
        }
    }

    /// Whether tasks of this scenario follow v2's rules (v3 does, in its deployments).
    pub const fn is_v2(self) -> bool {
        matches!(self, Scenario::V2 | Scenario::V3)
    }
}

impl fmt::Display for Scenario {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Scenario {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        Scenario::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| format!("unknown scenario {s:?}: expected v1, v2 or v3"))
    }
}

/// The lessons each agent's experience store holds in v2 tasks.
pub const STORE_BUDGET: usize = 64;

/// How good the acting model is: its guess of a rejected item's remedy (the `guess` field of
/// the event, v3) is right with a probability the host does not know, only the tier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ModelTier {
    /// Right about half the time ([`Deployment::quality`] 0.45 to 0.75).
    Weak,
    /// Right almost always (0.92 to 0.995).
    Strong,
}

impl ModelTier {
    /// The name on the card (`weak`, `strong`).
    pub const fn name(self) -> &'static str {
        match self {
            ModelTier::Weak => "weak",
            ModelTier::Strong => "strong",
        }
    }

    /// The tier named `name` ([`ModelTier::name`]).
    pub fn parse(name: &str) -> Option<Self> {
        [ModelTier::Weak, ModelTier::Strong]
            .into_iter()
            .find(|t| t.name() == name)
    }

    /// The range of [`Deployment::quality`] in this tier: its lowest value and its width.
    const fn quality_range(self) -> (f64, f64) {
        match self {
            ModelTier::Weak => (0.45, 0.30),
            ModelTier::Strong => (0.92, 0.075),
        }
    }
}

/// How often the agent's machine crashes, as its host knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MachineTier {
    /// Dedicated machines: a crash per world call with probability under 0.001.
    Stable,
    /// Spot machines, frequent deploys: 0.005 to 0.02 per world call.
    Flaky,
}

impl MachineTier {
    /// The name on the card (`stable`, `flaky`).
    pub const fn name(self) -> &'static str {
        match self {
            MachineTier::Stable => "stable",
            MachineTier::Flaky => "flaky",
        }
    }
}

/// Where an organisation runs its agents (v3): what changes which harness rule is best.
///
/// Drawn from the organisation alone ([`Deployment::of`]). A third of the organisations are
/// "weak model, costly failures, durable store, flaky machines", a third "strong model,
/// costly memory, short-lived store, stable machines", and a third draw every part on its own,
/// so that both ends of the family carry real weight and everything between occurs.
///
/// A host knows its costs, its model's tier, its machines' tier and its store's lifetime: the
/// task's first event carries them (its card: `model`, `machines`, `recall_cost`,
/// `note_cost`, `store_life`). The model's exact quality, the crash rate, the back-off and
/// everything about remedies it does not know.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Deployment {
    /// Budget a `recall` costs (1 to 16).
    pub recall_cost: u16,
    /// Budget a `note` (a rating and a consolidation too) costs (1 to 16).
    pub note_cost: u16,
    /// Waits the service backs off for after a failed remedy (0 to 20).
    pub lockout: u32,
    /// Episodes an agent keeps its experience (1 to 50): then a new agent, knowing nothing,
    /// takes its place.
    pub store_life: u32,
    /// The acting model's tier.
    pub model: ModelTier,
    /// The chance that the model's guess of a rejected item's remedy is right (hidden).
    pub quality: f64,
    /// The machines' tier.
    pub machines: MachineTier,
    /// The chance that the agent's process crashes after a world call (hidden). A crash rolls
    /// the agent back to its last durable state (its last `commit`) while the world keeps what
    /// was done ([`SuiteWorld`](crate::SuiteWorld) docs).
    pub crash: f64,
}

/// Salt of the deployment draws.
const DEPLOYMENT: u64 = 0x6465_706c_6f79;

impl Deployment {
    /// The deployment of `organisation`; see the [type docs](Self).
    pub fn of(organisation: u64) -> Self {
        let h = mix(organisation ^ DEPLOYMENT, 0);
        let u = |k: u64| unit(mix(h, k));
        let archetype = (u(1) * 3.0) as u32; // 0: weak/flaky, 1: strong/stable, 2: mixed
        let pick = |k: u64, a: bool, b: bool| match archetype {
            0 => a,
            1 => b,
            _ => u(k) < 0.5,
        };
        let weak = pick(2, true, false);
        let flaky = pick(3, true, false);
        // Memory prices: 2^m for recall, a power of two next to it for note.
        let m = match archetype {
            0 => (u(4) * 2.0) as u32,     // 1 or 2
            1 => 3 + (u(4) * 2.0) as u32, // 8 or 16
            _ => (u(4) * 5.0) as u32,     // 1 to 16
        };
        let n = (m as i32 + (u(5) * 3.0) as i32 - 1).clamp(0, 4) as u32;
        let lockout = match archetype {
            0 => 10 + (u(6) * 11.0) as u32,
            1 => (u(6) * 4.0) as u32,
            _ => (u(6) * 21.0) as u32,
        };
        // Log-uniform between the ends.
        let life = |lo: f64, hi: f64| (lo * (hi / lo).powf(u(7))).round() as u32;
        let store_life = match archetype {
            0 => life(20.0, 50.0),
            1 => life(1.0, 4.0),
            _ => life(1.0, 50.0),
        };
        let model = if weak {
            ModelTier::Weak
        } else {
            ModelTier::Strong
        };
        let (lo, width) = model.quality_range();
        let quality = lo + width * u(8);
        let (machines, crash) = if flaky {
            (MachineTier::Flaky, 0.005 + 0.015 * u(9))
        } else {
            (MachineTier::Stable, 0.001 * u(9))
        };
        Self {
            recall_cost: 1 << m,
            note_cost: 1 << n,
            lockout,
            store_life: store_life.clamp(1, 50),
            model,
            quality,
            machines,
            crash,
        }
    }

    /// The same deployment with its acting model in `tier` (a model upgrade, or the way
    /// back): the same draws, the quality at the same place of the other tier's range.
    pub fn with_model(self, tier: ModelTier) -> Self {
        if tier == self.model {
            return self;
        }
        let (lo, width) = self.model.quality_range();
        let u = (self.quality - lo) / width;
        let (lo, width) = tier.quality_range();
        Self {
            model: tier,
            quality: lo + width * u,
            ..self
        }
    }

    /// Whether memory is costly here: `recall` or `note` at 8 or more.
    pub fn costly_memory(&self) -> bool {
        self.recall_cost.max(self.note_cost) >= 8
    }

    /// The region of the family it falls in, for reports: `weak|strong`, `flaky|stable`,
    /// `cheap|costly` memory, e.g. `weak/flaky/cheap`.
    pub fn region(&self) -> String {
        format!(
            "{}/{}/{}",
            self.model.name(),
            self.machines.name(),
            if self.costly_memory() {
                "costly"
            } else {
                "cheap"
            }
        )
    }
}

/// One task: a task kind, its size and its fault rates.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TaskConfig {
    /// Which task kind.
    pub kind: TaskKind,
    /// How much work, in steps: an oracle needs about this many. From ~50 to 100,000.
    pub horizon: u32,
    /// Fault rates.
    pub faults: Faults,
    /// Where the drift happens, as a range of fractions of the items (`None`: no drift).
    pub drift: Option<(f64, f64)>,
    /// Which rules the world follows.
    pub scenario: Scenario,
    /// The deployment the task runs in (v3): `None` until a world of an organisation draws it
    /// ([`TaskConfig::deployed`]); v1 and v2 tasks have none.
    pub deployment: Option<Deployment>,
    /// v3: the acting model's tier in every deployment, in place of the one each draws
    /// ([`Deployment::with_model`]): the same organisations before and after a model
    /// upgrade. `None`: the drawn tier.
    pub model: Option<ModelTier>,
}

impl TaskConfig {
    /// A v1 task with the default faults and a drift between 20% and 70% of the items.
    pub fn new(kind: TaskKind, horizon: u32) -> Self {
        Self {
            kind,
            horizon,
            faults: Faults::default(),
            drift: Some((0.2, 0.7)),
            scenario: Scenario::V1,
            deployment: None,
            model: None,
        }
    }

    /// A v2 task ([`Scenario::V2`], [`Faults::v2`]), with the drift of [`TaskConfig::new`].
    pub fn v2(kind: TaskKind, horizon: u32) -> Self {
        Self {
            faults: Faults::v2(),
            scenario: Scenario::V2,
            ..Self::new(kind, horizon)
        }
    }

    /// A v3 task ([`Scenario::V3`]): v2 in the deployment each organisation draws
    /// ([`TaskConfig::deployed`]).
    pub fn v3(kind: TaskKind, horizon: u32) -> Self {
        Self {
            scenario: Scenario::V3,
            ..Self::v2(kind, horizon)
        }
    }

    /// The task of `scenario` ([`TaskConfig::new`], [`TaskConfig::v2`] or [`TaskConfig::v3`]).
    pub fn of(scenario: Scenario, kind: TaskKind, horizon: u32) -> Self {
        match scenario {
            Scenario::V1 => Self::new(kind, horizon),
            Scenario::V2 => Self::v2(kind, horizon),
            Scenario::V3 => Self::v3(kind, horizon),
        }
    }

    /// The task as organisation `organisation` runs it: for v3, in the [`Deployment`] the
    /// organisation draws (its costs and back-off); v1 and v2 tasks are the same everywhere.
    pub fn deployed(self, organisation: u64) -> Self {
        if self.scenario != Scenario::V3 {
            return self;
        }
        let d = Deployment::of(organisation);
        let d = self.model.map_or(d, |tier| d.with_model(tier));
        Self {
            faults: Faults {
                lockout: d.lockout,
                ..self.faults
            },
            deployment: Some(d),
            ..self
        }
    }

    /// How many items: about two and a half oracle steps each.
    pub fn items(&self) -> u32 {
        (self.horizon.saturating_mul(2) / 5).max(2)
    }

    /// The budget: four times the horizon, plus 256 steps, so that one long outage (up
    /// to 64 waits) fits even a short task. Enough for the static harness, which spends
    /// about three harness actions per world action. In v2, where a world call costs two,
    /// twice that.
    pub fn budget(&self) -> u32 {
        let b = self.horizon.saturating_mul(4).saturating_add(256);
        match self.scenario {
            Scenario::V1 => b,
            Scenario::V2 | Scenario::V3 => b.saturating_mul(2),
        }
    }

    /// v1: every action costs one unit of budget (finishing is free). v2: a world call and a
    /// `commit` (a durable write) cost two, `track`, `recall` and `note` one. v3: v2's, with
    /// `recall` and `note` at the deployment's prices.
    pub fn costs(&self) -> Costs {
        let v2 = Costs {
            act: 2,
            commit: 2,
            ..Costs::default()
        };
        match (self.scenario, self.deployment) {
            (Scenario::V1, _) => Costs::default(),
            (Scenario::V2, _) | (Scenario::V3, None) => v2,
            (Scenario::V3, Some(d)) => Costs {
                recall: d.recall_cost,
                note: d.note_cost,
                ..v2
            },
        }
    }

    /// The experience store each agent of this task has behind its working set: v2 and v3.
    /// Every one writes as replica 0, so runs are reproducible to the byte; the suite's agents
    /// never merge their stores (a host that merges gives each agent its own replica).
    pub fn store(&self) -> Option<evoharness_runtime::ExperienceStore> {
        match self.scenario {
            Scenario::V1 => None,
            Scenario::V2 | Scenario::V3 => {
                evoharness_runtime::ExperienceStore::for_replica(STORE_BUDGET, 0).ok()
            }
        }
    }

    /// How many episodes an agent keeps what it learned (its experience store and working
    /// set) before a new one, knowing nothing, takes its place: the deployment's store
    /// lifetime in v3, forever (`None`) otherwise.
    pub fn store_life(&self) -> Option<u32> {
        self.deployment.map(|d| d.store_life)
    }
}
