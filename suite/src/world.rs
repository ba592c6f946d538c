//! [`SuiteWorld`]: the simulator behind all three task families, a runtime [`World`].
//!
//! A world is a queue of `n` items. Its rules, in the order a call is checked:
//!
//! 1. **Outage.** While the service is down, every tool but `wait` is refused with
//!    `{error: "backoff", retry_in}` and the outage starts over (a caller that hammers a
//!    service in back-off never gets through). `wait` counts the outage down (`{waiting}`)
//!    and says `{ready: true}` when it is over (also when nothing was down).
//! 2. **Fetch** (tool 0) delivers the next item, `{<item>: id}`, or `{done: true}` after the
//!    last. The one fetch at the drift point also carries the new setting (`schema: 2`,
//!    `owner: "b"`, `endpoint: "alt"`); no other event repeats it. Records arrive shuffled in
//!    blocks of eight, and a duplicate record carries `dup_of`.
//! 3. **Landing tools** (1, 2, the remedies 4–6, and `merge` for records) take one argument,
//!    the id of an item already delivered; anything else is `{error: "bad_item"}`. Then:
//!    - orchestration: a call with an expired token is `{error: "expired", step}` (no call
//!      happens), and a step whose predecessor has not landed is `{error: "dependency", step}`;
//!    - an item that already landed lands again: a **duplicate**, accepted silently;
//!    - faults, drawn per attempt: `{error: "timeout", <item>}` or
//!      `{error: "unavailable", <item>, retry_in}` (the outage starts);
//!    - a rejected ("poison") item refuses tools 1, 2 and `merge` with
//!      `{error: "rejected", code, <item>}`; the remedy for its code lands it
//!      (`{fixed: id, code}`), another remedy fails (`{error: "remedy_failed", code, <item>}`),
//!      and a remedy for an item that is not rejected is `{error: "not_rejected", <item>}`;
//!    - a duplicate record refuses tools 1 and 2 with `{error: "duplicate", record, dup_of}`
//!      (a unique-key violation): it must be `merge`d;
//!    - otherwise the item lands (`{<ok>: id}`), with a **wrong write** counted if it was the
//!      wrong tool for the current setting, or a record merged that is no duplicate.
//! 4. `verify` (migration) says `{landed, pending}`; `auth` (orchestration) renews the token
//!    (`{token, ttl}`).
//!
//! Every draw is a pure function of the organisation, the seed, the item and the attempt counter, so
//! an episode is deterministic for a seed and a sequence of calls. Nothing is allocated after
//! the first reset at a given size: the per-item state is two bitsets (and, in v2, a byte of
//! attempts per item).
//!
//! # v2 ([`Scenario::V2`])
//!
//! - Faults are drawn per item and per attempt *of that item* (v1: per attempt of the
//!   episode), so an agent that acts differently on one item meets the same faults on every
//!   other: episodes of one seed stay comparable, as group baselines need.
//! - An organisation has twelve codes ([`Faults::codes`](crate::Faults::codes)), the `k`-th
//!   drawn with weight `1 / (k + 1)`; about two thirds of them share the organisation's
//!   favourite remedy. For one episode, a code's remedy is another with probability
//!   [`Faults::remedy_drift`](crate::Faults::remedy_drift).
//! - A failed remedy starts a back-off of [`Faults::lockout`](crate::Faults::lockout) waits:
//!   `{error: "remedy_failed", code, <item>, retry_in}`.
//!
//! # v3 ([`Scenario::V3`])
//!
//! v2 in the organisation's [`Deployment`](crate::Deployment) ([`TaskConfig::deployed`]):
//!
//! - The first event also carries the deployment's card: `model`, `machines`, `recall_cost`,
//!   `note_cost`, `store_life`.
//! - A rejection also carries the acting model's `guess` of the remedy (a tool index): this
//!   episode's remedy with the deployment's hidden quality, else another; the same for every
//!   rejection of the item.
//! - After each call the agent's machine may crash ([`SuiteWorld::take_crash`], drawn per
//!   world call of the episode). The world keeps everything; the driver rolls the agent back
//!   to its durable state ([`episode::Durable`](crate::episode::Durable)) and gives it
//!   [`SuiteWorld::restart`]'s notice. Fetches then deliver again from the durable position
//!   ([`SuiteWorld::mark_durable`], at each `commit`): items that landed since with
//!   `landed: true`, the drifted setting with its item. A restart outlasts any back-off.
//! - The back-off after a failed remedy is the deployment's.

use std::fmt::Write as _;

use evoharness_core::{EventBuf, EventKind, ToolCall, Value, heapless};

use evoharness_train::Violations;

use crate::{
    CODES_MAX, FETCH, PUT, PUT_ALT, REMEDIES, SPECIAL, Scenario, TOOLS, TaskConfig, TaskKind, WAIT,
    mix, unit,
};
use evoharness_runtime::{Error, ErrorKind, Verdict, World};

/// Salts that keep the per-item draws independent.
const POISON: u64 = 0x706f_6973;
const DUPLICATE: u64 = 0x6475_706c;
const FAULT: u64 = 0x6661_756c;
const SHUFFLE: u64 = 0x7368_7566;
const DRIFT: u64 = 0x6472_6966;
const TOKEN: u64 = 0x746f_6b65;
const FAVOURITE: u64 = 0x6661_766f;
const REMEDY_DRIFT: u64 = 0x7264_7266;
const GUESS: u64 = 0x6775_6573;
const CRASH: u64 = 0x6372_6173;

/// Records arrive shuffled within blocks of this many.
const BLOCK: usize = 8;

/// Item ids are `xorshift16(index × ID_MUL + per-episode offset)` mod 2^32.
const ID_MUL: u32 = 0x9e37_79b1;
const ID_MUL_INV: u32 = inverse(ID_MUL);

/// The multiplicative inverse of an odd number mod 2^32 (Newton's iteration).
const fn inverse(a: u32) -> u32 {
    let mut x = a;
    let mut i = 0;
    while i < 5 {
        x = x.wrapping_mul(2u32.wrapping_sub(a.wrapping_mul(x)));
        i += 1;
    }
    x
}

/// One of the simulated workflows; see the [module docs](self).
#[derive(Clone, Debug)]
pub struct SuiteWorld {
    config: TaskConfig,
    organisation: u64,
    seed: u64,
    n: u32,
    /// The organisation's error codes and, for each, its usual remedy tool.
    codes: [(u16, u16); CODES_MAX],
    /// This episode's remedy for each code (the usual one but where it drifted).
    remedies: [u16; CODES_MAX],
    delivered: u32,
    block: [u32; BLOCK],
    drift_at: Option<u32>,
    drifted: bool,
    seen: Vec<u64>,
    landed: Vec<u64>,
    landed_count: u32,
    outage_left: u32,
    outage_len: u32,
    token_left: u32,
    tokens: u32,
    attempts: u64,
    /// v2: landing attempts per item (saturating), which its fault draws use.
    tries: Vec<u8>,
    violations: Violations,
    /// Remedies that failed this episode (`remedy_failed` answers).
    failed_remedies: u32,
    /// v3: world calls this episode (the crash draws' counter).
    calls: u64,
    /// v3: no item delivered before this position is still to land (a pointer that only
    /// moves on).
    low: u32,
    /// v3: the agent's durable position: where the queue is read again after a crash.
    mark: u32,
    /// v3: after a crash, the next position to deliver again, while it is before `delivered`.
    replay: Option<u32>,
    /// v3: the last call crashed the agent (taken by [`SuiteWorld::take_crash`]).
    crashed: bool,
}

impl SuiteWorld {
    /// A world for this task and organisation; [`World::reset`] starts an episode.
    pub fn new(config: TaskConfig, organisation: u64) -> Self {
        let mut w = Self {
            config,
            organisation,
            seed: 0,
            n: 0,
            codes: organisation_codes(organisation, config.scenario),
            remedies: [0; CODES_MAX],
            delivered: 0,
            block: [0; BLOCK],
            drift_at: None,
            drifted: false,
            seen: Vec::new(),
            landed: Vec::new(),
            landed_count: 0,
            outage_left: 0,
            outage_len: 0,
            token_left: 0,
            tokens: 0,
            attempts: 0,
            tries: Vec::new(),
            violations: Violations::default(),
            failed_remedies: 0,
            calls: 0,
            low: 0,
            mark: 0,
            replay: None,
            crashed: false,
        };
        w.config = config.deployed(organisation);
        w.start(0);
        w
    }

    /// The task, as this organisation runs it ([`TaskConfig::deployed`]: v3 worlds carry
    /// their organisation's deployment).
    pub fn config(&self) -> &TaskConfig {
        &self.config
    }

    /// The organisation: it decides the error codes and their remedies.
    pub fn organisation(&self) -> u64 {
        self.organisation
    }

    /// Moves to another organisation; takes effect at the next reset.
    pub fn set_organisation(&mut self, organisation: u64) {
        self.organisation = organisation;
        self.config = self.config.deployed(organisation);
        self.codes = organisation_codes(organisation, self.config.scenario);
    }

    /// The episode's seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Items in the task.
    pub fn items(&self) -> u32 {
        self.n
    }

    /// Items that landed.
    pub fn landed_count(&self) -> u32 {
        self.landed_count
    }

    /// Items delivered by fetches.
    pub fn delivered(&self) -> u32 {
        self.delivered
    }

    /// Whether the drift has happened (tool 2 is now the right one).
    pub fn drifted(&self) -> bool {
        self.drifted
    }

    /// The fetch number at which the drift happens, if it does.
    pub fn drift_at(&self) -> Option<u32> {
        self.drift_at
    }

    /// Waits left in the current outage (0: up).
    pub fn outage_left(&self) -> u32 {
        self.outage_left
    }

    /// Landing calls the current token has left (orchestration).
    pub fn token_left(&self) -> u32 {
        self.token_left
    }

    /// The id that events give item `index`: opaque (a bijection of the index, different for
    /// every episode), so that nothing can be inferred from an id's neighbours.
    pub fn id(&self, index: u32) -> i64 {
        let x = index.wrapping_mul(ID_MUL).wrapping_add(self.id_add());
        i64::from(x ^ (x >> 16))
    }

    /// The index of the item with this id, if it is one of the task's.
    pub fn index_of(&self, id: i64) -> Option<u32> {
        let y = u32::try_from(id).ok()?;
        let x = y ^ (y >> 16);
        let i = x.wrapping_sub(self.id_add()).wrapping_mul(ID_MUL_INV);
        (i < self.n).then_some(i)
    }

    fn id_add(&self) -> u32 {
        (self.seed >> 32) as u32
    }

    /// Whether item `id` (an index) landed.
    pub fn is_landed(&self, id: u32) -> bool {
        get(&self.landed, id)
    }

    /// The organisation's error codes with their usual remedy tools.
    pub fn codes(&self) -> &[(u16, u16)] {
        &self.codes[..self.ncodes()]
    }

    /// The remedy tool item `id` needs in this episode, if it is rejected.
    pub fn remedy(&self, id: u32) -> Option<u16> {
        self.poison(id).map(|c| self.remedies[c])
    }

    /// This episode's remedy for each of the organisation's codes, in the order of
    /// [`SuiteWorld::codes`]: the usual one except where it drifted.
    pub fn remedies(&self) -> &[u16] {
        &self.remedies[..self.ncodes()]
    }

    /// The usual remedy of the code an event names (`code: "E<number>"`) and its remedy in
    /// this episode (the usual one unless it drifted), or `None` for a value that names none of
    /// the organisation's codes. Hidden state, like [`SuiteWorld::remedy`]: for the oracle and
    /// for bounds ([`Hint`](crate::baselines::Hint)), never for rules that see what a policy
    /// sees.
    pub fn code_remedies(&self, code: &Value) -> Option<(u16, u16)> {
        let Value::Text(t) = code else { return None };
        let number: u16 = t.strip_prefix('E')?.parse().ok()?;
        let c = self.codes().iter().position(|&(k, _)| k == number)?;
        Some((self.codes[c].1, self.remedies[c]))
    }

    fn ncodes(&self) -> usize {
        usize::from(self.config.faults.codes).clamp(1, CODES_MAX)
    }

    /// The earlier record item `id` duplicates (records only).
    pub fn duplicate_of(&self, id: u32) -> Option<u32> {
        if self.config.kind != TaskKind::Records || id == 0 || self.poison(id).is_some() {
            return None;
        }
        let h = mix(self.seed ^ DUPLICATE, u64::from(id));
        (unit(h) < self.config.faults.duplicate)
            .then(|| id - 1 - (h % u64::from(id.min(BLOCK as u32))) as u32)
    }

    /// The tool that lands item `id` correctly now (ignoring faults and rejections).
    pub fn right_tool(&self, id: u32) -> u16 {
        if self.duplicate_of(id).is_some() {
            SPECIAL
        } else if self.drifted {
            PUT_ALT
        } else {
            PUT
        }
    }

    /// How many remedies failed this episode (calls answered `remedy_failed`): what a lesson
    /// learned elsewhere saves.
    pub fn failed_remedies(&self) -> u32 {
        self.failed_remedies
    }

    /// The integrity violations so far; gaps count the items not landed yet.
    pub fn violations(&self) -> Violations {
        Violations {
            gaps: self.n - self.landed_count,
            ..self.violations
        }
    }

    /// Whether an episode that finished with this claim succeeded.
    pub fn judge(&self, finished: Option<bool>) -> bool {
        finished == Some(true) && self.violations().total() == 0
    }

    fn poison(&self, id: u32) -> Option<usize> {
        let h = mix(self.seed ^ POISON, u64::from(id));
        if unit(h) >= self.config.faults.poison {
            return None;
        }
        let n = self.ncodes();
        Some(match self.config.scenario {
            Scenario::V1 => (h % n as u64) as usize,
            Scenario::V2 | Scenario::V3 => {
                // Weights 1 / (k + 1): draw a point in their sum and find its code.
                let total: f64 = (1..=n).map(|k| 1.0 / k as f64).sum();
                let mut x = unit(mix(h, POISON)) * total;
                (0..n)
                    .find(|&k| {
                        x -= 1.0 / (k + 1) as f64;
                        x < 0.0
                    })
                    .unwrap_or(n - 1)
            }
        })
    }

    fn start(&mut self, seed: u64) {
        self.seed = mix(mix(seed, self.organisation), self.config.kind as u64);
        self.n = self.config.items();
        let words = (self.n as usize).div_ceil(64);
        for set in [&mut self.seen, &mut self.landed] {
            set.clear();
            set.resize(words, 0);
        }
        self.delivered = 0;
        self.landed_count = 0;
        self.drifted = false;
        self.drift_at = self.config.drift.map(|(lo, hi)| {
            let f = lo + (hi - lo) * unit(mix(self.seed, DRIFT));
            ((f64::from(self.n) * f) as u32).min(self.n - 1)
        });
        self.outage_left = 0;
        self.outage_len = 0;
        self.tokens = 0;
        self.token_left = self.token_ttl();
        self.attempts = 0;
        self.tries.clear();
        if self.config.scenario.is_v2() {
            self.tries.resize(self.n as usize, 0);
        }
        self.calls = 0;
        self.low = 0;
        self.mark = 0;
        self.replay = None;
        self.crashed = false;
        self.remedies = self.draw_remedies();
        self.violations = Violations::default();
        self.failed_remedies = 0;
    }

    /// This episode's remedies: each code's usual one, or where it drifted another.
    fn draw_remedies(&self) -> [u16; CODES_MAX] {
        let mut remedies = [0; CODES_MAX];
        for (c, r) in remedies.iter_mut().enumerate() {
            let usual = self.codes[c].1;
            let h = mix(self.seed ^ REMEDY_DRIFT, c as u64);
            *r = if unit(h) < self.config.faults.remedy_drift {
                other_remedy(usual, h)
            } else {
                usual
            };
        }
        remedies
    }

    fn token_ttl(&self) -> u32 {
        let base = self.config.faults.token_calls.max(1);
        let h = mix(self.seed ^ TOKEN, u64::from(self.tokens));
        base + (h % u64::from(base)) as u32
    }

    fn item(&self, index: u32) -> (&'static str, Value) {
        (self.config.kind.item_key(), Value::Int(self.id(index)))
    }

    fn mode_value(&self, drifted: bool) -> Value {
        match (self.config.kind, drifted) {
            (TaskKind::Migration, d) => Value::Int(if d { 2 } else { 1 }),
            (TaskKind::Records, d) => text(if d { "b" } else { "a" }),
            (TaskKind::Orchestration, d) => text(if d { "alt" } else { "primary" }),
        }
    }

    fn fetch(&mut self) -> EventBuf {
        if let Some(pos) = self.replay {
            return self.fetch_again(pos);
        }
        if self.delivered == self.n {
            return event(EventKind::Result, FETCH, &[("done", Value::Bool(true))]);
        }
        let pos = self.delivered;
        let id = if self.config.kind == TaskKind::Records {
            if (pos as usize).is_multiple_of(BLOCK) {
                self.block = self.shuffled_block(pos as usize / BLOCK);
            }
            self.block[pos as usize % BLOCK]
        } else {
            pos
        };
        self.delivered += 1;
        set(&mut self.seen, id);
        let mut e = event(EventKind::Result, FETCH, &[self.item(id)]);
        if self.drift_at == Some(pos) {
            self.drifted = true;
            let _ = e.push(self.config.kind.mode_key(), self.mode_value(true));
        }
        if let Some(d) = self.duplicate_of(id) {
            let _ = e.push("dup_of", Value::Int(self.id(d)));
        }
        e
    }

    fn land(&mut self, id: u32, wrong: bool) {
        if get(&self.landed, id) {
            self.violations.duplicates = self.violations.duplicates.saturating_add(1);
        } else {
            set(&mut self.landed, id);
            self.landed_count += 1;
        }
        if wrong {
            self.violations.wrong_writes = self.violations.wrong_writes.saturating_add(1);
        }
    }

    fn code(&self, c: usize) -> (&'static str, Value) {
        let mut s = heapless::String::new();
        let _ = write!(s, "E{}", self.codes[c].0);
        ("code", Value::Text(s))
    }

    /// A call to a landing tool (1, 2, the remedies, `merge`).
    fn landing(&mut self, tool: u16, arg: Option<&Value>) -> EventBuf {
        let kind = self.config.kind;
        let id = match arg {
            Some(Value::Int(i)) => self.index_of(*i).filter(|&i| get(&self.seen, i)),
            _ => None,
        };
        let Some(id) = id else {
            return event(EventKind::Error, tool, &[("error", text("bad_item"))]);
        };
        if kind == TaskKind::Orchestration {
            if self.token_left == 0 {
                return event(
                    EventKind::Error,
                    tool,
                    &[("error", text("expired")), self.item(id)],
                );
            }
            self.token_left -= 1;
            if id > 0 && !get(&self.landed, id - 1) {
                return event(
                    EventKind::Error,
                    tool,
                    &[("error", text("dependency")), self.item(id)],
                );
            }
        }
        let remedy = REMEDIES.contains(&tool);
        let poison = self.poison(id);
        if remedy && poison.is_none() && !get(&self.landed, id) {
            return event(
                EventKind::Error,
                tool,
                &[("error", text("not_rejected")), self.item(id)],
            );
        }
        if !get(&self.landed, id) {
            self.attempts = self.attempts.wrapping_add(1);
            // v1: one counter for the episode; v2: the item's own attempts.
            let (salt, attempt) = match self.tries.get_mut(id as usize) {
                Some(t) => {
                    let a = *t;
                    *t = t.saturating_add(1);
                    (mix(self.seed ^ FAULT, u64::from(id)), u64::from(a))
                }
                None => (self.seed ^ FAULT, self.attempts),
            };
            let r = unit(mix(salt, attempt));
            let f = self.config.faults;
            if r < f.transient {
                return event(
                    EventKind::Error,
                    tool,
                    &[("error", text("timeout")), self.item(id)],
                );
            }
            if r < f.transient + f.outage {
                let h = mix(salt, !attempt);
                let len = if unit(h) < f.long_outage {
                    24 + (h % 41) as u32
                } else {
                    2 + (h % 5) as u32
                };
                self.outage_left = len;
                self.outage_len = len;
                return event(
                    EventKind::Error,
                    tool,
                    &[
                        ("error", text("unavailable")),
                        self.item(id),
                        ("retry_in", Value::Int(i64::from(len))),
                    ],
                );
            }
            if let Some(c) = poison {
                if !remedy {
                    let mut e = event(
                        EventKind::Error,
                        tool,
                        &[("error", text("rejected")), self.code(c), self.item(id)],
                    );
                    if let Some(g) = self.guess(id, c) {
                        let _ = e.push("guess", Value::Int(i64::from(g)));
                    }
                    return e;
                }
                if tool != self.remedies[c] {
                    self.failed_remedies = self.failed_remedies.saturating_add(1);
                    let mut e = event(
                        EventKind::Error,
                        tool,
                        &[
                            ("error", text("remedy_failed")),
                            self.code(c),
                            self.item(id),
                        ],
                    );
                    if f.lockout > 0 {
                        self.outage_left = f.lockout;
                        self.outage_len = f.lockout;
                        let _ = e.push("retry_in", Value::Int(i64::from(f.lockout)));
                    }
                    return e;
                }
                self.land(id, false);
                return event(
                    EventKind::Result,
                    tool,
                    &[("fixed", Value::Int(self.id(id))), self.code(c)],
                );
            }
            if let Some(d) = self.duplicate_of(id)
                && !remedy
                && tool != SPECIAL
            {
                // A unique-key violation: the record exists, under the id it duplicates.
                return event(
                    EventKind::Error,
                    tool,
                    &[
                        ("error", text("duplicate")),
                        self.item(id),
                        ("dup_of", Value::Int(self.id(d))),
                    ],
                );
            }
        }
        // Landing (or landing again: a duplicate).
        let dup = self.duplicate_of(id);
        if tool == SPECIAL {
            self.land(id, dup.is_none());
            return event(
                EventKind::Result,
                tool,
                &[
                    ("merged", Value::Int(self.id(id))),
                    ("into", Value::Int(dup.map_or(-1, |d| self.id(d)))),
                ],
            );
        }
        let right = if self.drifted { PUT_ALT } else { PUT };
        let wrong = !remedy && (dup.is_some() || tool != right);
        self.land(id, wrong);
        event(
            EventKind::Result,
            tool,
            &[(kind.ok_key(), Value::Int(self.id(id)))],
        )
    }
}

/// The resume point format's version (its first byte): 1 for v1 worlds; 2 for v2 worlds, whose
/// resume point ends with a byte of attempts per item.
const RESUME_POINT_VERSION: u8 = 1;
const RESUME_POINT_VERSION_V2: u8 = 2;
/// v3: the v2 resume point, then the crash counter, the durable position and the replay position.
const RESUME_POINT_VERSION_V3: u8 = 3;

/// The fixed part of a resume point, before the two bitsets.
const RESUME_POINT_HEAD: usize =
    1 + 1 + 8 + 8 + 4 + 4 + 4 * BLOCK + 4 + 1 + 4 + 4 + 4 + 4 + 4 + 8 + 12;

/// Reads a resume point front to back; every read checks the length.
struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> Option<[u8; N]> {
        let (head, rest) = self.0.split_first_chunk::<N>()?;
        self.0 = rest;
        Some(*head)
    }
    fn u8(&mut self) -> Option<u8> {
        self.take::<1>().map(|[b]| b)
    }
    fn u32(&mut self) -> Option<u32> {
        self.take().map(u32::from_le_bytes)
    }
    fn u64(&mut self) -> Option<u64> {
        self.take().map(u64::from_le_bytes)
    }
}

impl SuiteWorld {
    /// Decodes and checks a resume point into a new world; `None` for anything malformed.
    fn decode_resume_point(&self, c: &[u8]) -> Option<SuiteWorld> {
        let mut r = Reader(c);
        if r.u8()? != self.resume_point_version() || r.u8()? != self.config.kind as u8 {
            return None;
        }
        let organisation = r.u64()?;
        if organisation != self.organisation {
            return None;
        }
        let seed = r.u64()?;
        let n = r.u32()?;
        if n != self.config.items() {
            return None;
        }
        let delivered = r.u32()?;
        let mut block = [0u32; BLOCK];
        for b in &mut block {
            *b = r.u32()?;
        }
        let drift_at = match r.u32()? {
            u32::MAX => None,
            d if d < n => Some(d),
            _ => return None,
        };
        let drifted = match r.u8()? {
            0 => false,
            1 => true,
            _ => return None,
        };
        let landed_count = r.u32()?;
        let (outage_left, outage_len) = (r.u32()?, r.u32()?);
        let (token_left, tokens) = (r.u32()?, r.u32()?);
        let attempts = r.u64()?;
        let violations = Violations {
            duplicates: r.u32()?,
            gaps: r.u32()?,
            wrong_writes: r.u32()?,
            other: 0,
        };
        let words = (n as usize).div_ceil(64);
        let mut sets = [Vec::with_capacity(words), Vec::with_capacity(words)];
        for set in &mut sets {
            for _ in 0..words {
                set.push(r.u64()?);
            }
        }
        let [seen, landed] = sets;
        let tries = match self.config.scenario {
            Scenario::V1 => Vec::new(),
            Scenario::V2 | Scenario::V3 => r.0.split_off(..n as usize)?.to_vec(),
        };
        let (calls, low, mark, replay) = match self.config.scenario {
            Scenario::V3 => {
                let (calls, low, mark) = (r.u64()?, r.u32()?, r.u32()?);
                let replay = match r.u32()? {
                    u32::MAX => None,
                    p => Some(p),
                };
                (calls, low, mark, replay)
            }
            _ => (0, 0, 0, None),
        };
        // A commit while the queue is delivered again may move the durable position past the
        // replay's: both only need to lie within what was fetched.
        let v3_fits = low <= delivered && mark <= low && replay.is_none_or(|p| p < delivered);
        // An item never fetched was never attempted.
        let tries_fit = tries
            .iter()
            .enumerate()
            .all(|(i, &t)| t == 0 || get(&seen, i as u32));
        let count = |s: &[u64]| s.iter().map(|w| w.count_ones()).sum::<u32>();
        let tail_clear = |s: &[u64]| n % 64 == 0 || s.last().is_none_or(|w| w >> (n % 64) == 0);
        let consistent = r.0.is_empty()
            && tries_fit
            && delivered <= n
            && count(&seen) == delivered
            && count(&landed) == landed_count
            && seen.iter().zip(&landed).all(|(s, l)| l & !s == 0)
            && tail_clear(&seen)
            && tail_clear(&landed)
            && seen == delivered_set(self.config.kind, n, delivered, &block)?
            && outage_left <= outage_len
            && violations.gaps == 0
            && v3_fits;
        if !consistent {
            return None;
        }
        let mut w = SuiteWorld {
            config: self.config,
            organisation,
            seed,
            n,
            codes: self.codes,
            remedies: [0; CODES_MAX],
            delivered,
            block,
            drift_at,
            drifted,
            seen,
            landed,
            landed_count,
            outage_left,
            outage_len,
            token_left,
            tokens,
            attempts,
            tries,
            violations,
            // Not part of a resume point: what this world answered, restarts included.
            failed_remedies: self.failed_remedies,
            calls,
            low,
            mark,
            replay,
            crashed: false,
        };
        w.remedies = w.draw_remedies();
        Some(w)
    }

    /// What a call does; see the [module docs](self).
    fn answer(&mut self, call: &ToolCall) -> EventBuf {
        let tool = call.tool;
        if self.outage_left > 0 {
            if tool == WAIT {
                self.outage_left -= 1;
                return if self.outage_left == 0 {
                    event(EventKind::Result, WAIT, &[("ready", Value::Bool(true))])
                } else {
                    event(
                        EventKind::Result,
                        WAIT,
                        &[("waiting", Value::Int(i64::from(self.outage_left)))],
                    )
                };
            }
            self.outage_left = self.outage_len;
            return event(
                EventKind::Error,
                tool,
                &[
                    ("error", text("backoff")),
                    ("retry_in", Value::Int(i64::from(self.outage_len))),
                ],
            );
        }
        match (tool, self.config.kind) {
            (FETCH, _) => self.fetch(),
            (WAIT, _) => event(EventKind::Result, WAIT, &[("ready", Value::Bool(true))]),
            (SPECIAL, TaskKind::Migration) => event(
                EventKind::Result,
                SPECIAL,
                &[
                    ("landed", Value::Int(i64::from(self.landed_count))),
                    (
                        "pending",
                        Value::Int(i64::from(self.delivered.saturating_sub(self.landed_count))),
                    ),
                ],
            ),
            (SPECIAL, TaskKind::Orchestration) => {
                self.tokens = self.tokens.wrapping_add(1);
                self.token_left = self.token_ttl();
                let mut s = heapless::String::new();
                let _ = write!(
                    s,
                    "tk-{:08x}",
                    mix(self.seed, u64::from(self.tokens)) as u32
                );
                event(
                    EventKind::Result,
                    SPECIAL,
                    &[
                        ("token", Value::Text(s)),
                        ("ttl", Value::Int(i64::from(self.token_left))),
                    ],
                )
            }
            (t, _) if usize::from(t) < TOOLS => self.landing(t, call.args.first()),
            (t, _) => event(EventKind::Error, t, &[("error", text("unknown_tool"))]),
        }
    }

    /// v3: the acting model's guess of the remedy for item `id`, rejected with code `c`:
    /// this episode's remedy with the deployment's [`quality`](crate::Deployment::quality),
    /// else one of the two others. The same for every rejection of the item. `None` outside
    /// v3.
    fn guess(&self, id: u32, c: usize) -> Option<u16> {
        let d = self.config.deployment?;
        let h = mix(self.seed ^ GUESS, u64::from(id));
        let right = self.remedies[c];
        if unit(h) < d.quality {
            return Some(right);
        }
        Some(other_remedy(right, h))
    }

    /// v3: whether the last call crashed the agent's process; asking clears it. The world has
    /// done the call and keeps everything it did: the driver rolls the agent back to its last
    /// durable state and gives it [`SuiteWorld::restart`]'s event.
    pub fn take_crash(&mut self) -> bool {
        std::mem::take(&mut self.crashed)
    }

    /// v3: the agent has just made its state durable (a `commit`, which a runtime checkpoints
    /// on): after a crash the queue is read again from here. The position is the first item
    /// fetched that has not landed, or the end of what was fetched: the offset a queue's
    /// consumer commits.
    pub fn mark_durable(&mut self) {
        while self.low < self.delivered && get(&self.landed, self.index_at(self.low)) {
            self.low += 1;
        }
        self.mark = self.low;
    }

    /// v3: the agent's process restarted from its durable state. The queue will deliver again
    /// from the durable position ([`SuiteWorld::mark_durable`]; the start if the agent never
    /// made one): items that landed since with `landed: true` (landing one again is a
    /// duplicate), the drifted setting with its item where it was announced. A restart takes
    /// longer than any back-off, so the service is up again; tokens go on. Returns the event
    /// the restarted agent sees: a notice `{restarted: true}`.
    pub fn restart(&mut self) -> EventBuf {
        self.replay = (self.mark < self.delivered).then_some(self.mark);
        self.outage_left = 0;
        self.outage_len = 0;
        event(
            EventKind::Notice,
            FETCH,
            &[("restarted", Value::Bool(true))],
        )
    }

    /// The item delivered at queue position `pos` (records arrive shuffled in blocks).
    fn index_at(&self, pos: u32) -> u32 {
        if self.config.kind != TaskKind::Records {
            return pos;
        }
        self.shuffled_block(pos as usize / BLOCK)[pos as usize % BLOCK]
    }

    /// The items of block `b` in the order records deliver them (the slots past the last item
    /// keep their own indices).
    fn shuffled_block(&self, b: usize) -> [u32; BLOCK] {
        let len = (self.n as usize - b * BLOCK).min(BLOCK);
        let mut block: [u32; BLOCK] = core::array::from_fn(|i| (b * BLOCK + i) as u32);
        for i in (1..len).rev() {
            let j = (mix(self.seed ^ SHUFFLE, (b * BLOCK + i) as u64) % (i as u64 + 1)) as usize;
            block.swap(i, j);
        }
        block
    }

    /// v3: the next delivery after a crash, at queue position `pos`.
    fn fetch_again(&mut self, pos: u32) -> EventBuf {
        let next = pos + 1;
        self.replay = (next < self.delivered).then_some(next);
        let id = self.index_at(pos);
        let mut e = event(EventKind::Result, FETCH, &[self.item(id)]);
        if self.drift_at == Some(pos) {
            let _ = e.push(self.config.kind.mode_key(), self.mode_value(true));
        }
        if get(&self.landed, id) {
            let _ = e.push("landed", Value::Bool(true));
        } else if let Some(d) = self.duplicate_of(id) {
            let _ = e.push("dup_of", Value::Int(self.id(d)));
        }
        e
    }

    fn resume_point_version(&self) -> u8 {
        match self.config.scenario {
            Scenario::V1 => RESUME_POINT_VERSION,
            Scenario::V2 => RESUME_POINT_VERSION_V2,
            Scenario::V3 => RESUME_POINT_VERSION_V3,
        }
    }
}

impl World for SuiteWorld {
    fn tools(&self) -> u16 {
        TOOLS as u16
    }

    fn tool_name(&self, tool: u16) -> Option<&str> {
        self.config
            .kind
            .tool_names()
            .get(usize::from(tool))
            .copied()
    }

    /// Success as [`SuiteWorld::judge`] says, and the violations counted so far.
    fn judge(&self, finished: Option<bool>) -> Option<Verdict> {
        Some(Verdict {
            success: SuiteWorld::judge(self, finished),
            violations: self.violations().total(),
        })
    }

    /// Duplicates and wrong writes: the violations a landing causes (gaps are work left undone).
    fn violations_so_far(&self) -> Option<u32> {
        let v = self.violations;
        Some(v.duplicates.saturating_add(v.wrong_writes))
    }

    /// The whole episode state, so that an agent resumed from a checkpoint continues the same
    /// episode: a version byte, the task kind, the organisation, the seed, the counters and the
    /// two per-item bitsets (about `items / 4` bytes; v2 adds a byte per item, its landing
    /// attempts). The world has no effects outside
    /// itself, so the calls a resumed agent repeats are applied to the restored state exactly
    /// as they were the first time.
    fn save_resume_point(&self, out: &mut Vec<u8>) -> bool {
        out.push(self.resume_point_version());
        out.push(self.config.kind as u8);
        out.extend_from_slice(&self.organisation.to_le_bytes());
        out.extend_from_slice(&self.seed.to_le_bytes());
        out.extend_from_slice(&self.n.to_le_bytes());
        out.extend_from_slice(&self.delivered.to_le_bytes());
        for b in self.block {
            out.extend_from_slice(&b.to_le_bytes());
        }
        out.extend_from_slice(&self.drift_at.unwrap_or(u32::MAX).to_le_bytes());
        out.push(u8::from(self.drifted));
        for x in [
            self.landed_count,
            self.outage_left,
            self.outage_len,
            self.token_left,
            self.tokens,
        ] {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out.extend_from_slice(&self.attempts.to_le_bytes());
        let v = self.violations;
        for x in [v.duplicates, v.gaps, v.wrong_writes] {
            out.extend_from_slice(&x.to_le_bytes());
        }
        for w in self.seen.iter().chain(&self.landed) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.tries);
        if self.config.scenario == Scenario::V3 {
            out.extend_from_slice(&self.calls.to_le_bytes());
            out.extend_from_slice(&self.low.to_le_bytes());
            out.extend_from_slice(&self.mark.to_le_bytes());
            out.extend_from_slice(&self.replay.unwrap_or(u32::MAX).to_le_bytes());
        }
        true
    }

    /// Restores a resume point of [`World::save_resume_point`] from a world of the same task (kind
    /// and size) and organisation; anything else, or bytes that are cut, padded or inconsistent, is
    /// refused with [`ErrorKind::Checkpoint`] and changes nothing.
    fn restore_resume_point(&mut self, resume_point: &[u8]) -> evoharness_runtime::Result<()> {
        let w = self.decode_resume_point(resume_point).ok_or_else(|| {
            Error::new(
                ErrorKind::Checkpoint,
                format!(
                    "not a resume point of a {} world of {} items in organisation {} ({} bytes; \
                     one has {} bytes and the per-item state)",
                    self.config.kind,
                    self.config.items(),
                    self.organisation,
                    resume_point.len(),
                    RESUME_POINT_HEAD
                ),
            )
        })?;
        *self = w;
        Ok(())
    }

    fn reset(&mut self, seed: u64) -> EventBuf {
        self.start(seed);
        let kind = self.config.kind;
        let count = match kind {
            TaskKind::Migration => "batches",
            TaskKind::Records => "records",
            TaskKind::Orchestration => "steps",
        };
        let mut e = event(
            EventKind::Notice,
            FETCH,
            &[
                ("task", text(kind.name())),
                (count, Value::Int(i64::from(self.n))),
                (kind.mode_key(), self.mode_value(false)),
            ],
        );
        if let Some(d) = self.config.deployment {
            // The deployment's card: what the host knows of where it runs.
            for (k, v) in [
                ("model", text(d.model.name())),
                ("machines", text(d.machines.name())),
                ("recall_cost", Value::Int(i64::from(d.recall_cost))),
                ("note_cost", Value::Int(i64::from(d.note_cost))),
                ("store_life", Value::Int(i64::from(d.store_life))),
            ] {
                let _ = e.push(k, v);
            }
        }
        e
    }

    /// v3: a call may crash the agent's process after the world has done it
    /// ([`SuiteWorld::take_crash`]).
    fn call(&mut self, call: &ToolCall) -> EventBuf {
        let e = self.answer(call);
        if let Some(d) = self.config.deployment {
            self.calls += 1;
            self.crashed = d.crash > 0.0 && unit(mix(self.seed ^ CRASH, self.calls)) < d.crash;
        }
        e
    }
}

/// The organisation's error codes (distinct numbers 100–999) and their usual remedy tools:
/// uniform in v1; in v2 the organisation's favourite remedy half the time, else uniform. The
/// codes, and the first three remedies of v1, are those of the first suite.
fn organisation_codes(organisation: u64, scenario: Scenario) -> [(u16, u16); CODES_MAX] {
    let mut codes = [(0u16, 0u16); CODES_MAX];
    let favourite = REMEDIES[(mix(organisation, FAVOURITE) % 3) as usize];
    let mut salt = 0u64;
    for i in 0..CODES_MAX {
        loop {
            let h = mix(organisation, salt);
            salt += 1;
            let code = 100 + (h % 900) as u16;
            if codes[..i].iter().all(|&(c, _)| c != code) {
                let uniform = REMEDIES[((h >> 32) % 3) as usize];
                let remedy = match scenario {
                    Scenario::V2 | Scenario::V3 if unit(mix(h, FAVOURITE)) < 0.5 => favourite,
                    _ => uniform,
                };
                codes[i] = (code, remedy);
                break;
            }
        }
    }
    codes
}

/// The items delivered after `delivered` fetches: in order, or for records the whole blocks
/// before the current one and the first `delivered % BLOCK` slots of `block`, which must then
/// hold a permutation of the current block's items. `None` if `block` does not.
fn delivered_set(kind: TaskKind, n: u32, delivered: u32, block: &[u32; BLOCK]) -> Option<Vec<u64>> {
    let mut want = vec![0u64; (n as usize).div_ceil(64)];
    let (whole, pos) = if kind == TaskKind::Records {
        let b = delivered / BLOCK as u32 * BLOCK as u32;
        (b, (delivered - b) as usize)
    } else {
        (delivered, 0)
    };
    for i in 0..whole {
        set(&mut want, i);
    }
    if pos > 0 {
        let len = ((n - whole) as usize).min(BLOCK);
        let mut slots = block[..len].to_vec();
        slots.sort_unstable();
        if !slots.iter().copied().eq(whole..whole + len as u32) {
            return None;
        }
        for &i in &block[..pos] {
            set(&mut want, i);
        }
    }
    Some(want)
}

fn get(set: &[u64], i: u32) -> bool {
    set.get(i as usize / 64)
        .is_some_and(|w| w & (1 << (i % 64)) != 0)
}

fn set(set: &mut [u64], i: u32) {
    if let Some(w) = set.get_mut(i as usize / 64) {
        *w |= 1 << (i % 64);
    }
}

/// One of the two remedies other than `remedy`, chosen by bit 40 of `h`: what a drifted code
/// needs, or what a wrong guess names.
fn other_remedy(remedy: u16, h: u64) -> u16 {
    let i = REMEDIES.iter().position(|&t| t == remedy).unwrap_or(0);
    REMEDIES[(i + 1 + (h >> 40) as usize % 2) % REMEDIES.len()]
}

/// Text the suite writes itself: short by construction.
fn text(s: &str) -> Value {
    Value::text(s).unwrap_or(Value::Bool(false))
}

/// The suite's own events: short keys and few fields, within the core's bounds (the tests
/// exercise every event the world writes).
fn event(kind: EventKind, source: u16, fields: &[(&str, Value)]) -> EventBuf {
    EventBuf::from_fields(kind, source, fields).unwrap_or_else(|_| EventBuf::new(kind, source))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Faults;

    fn call(tool: u16, id: Option<i64>) -> ToolCall {
        let mut args = heapless::Vec::new();
        if let Some(i) = id {
            let _ = args.push(Value::Int(i));
        }
        ToolCall { tool, args }
    }

    fn quiet(kind: TaskKind, horizon: u32) -> TaskConfig {
        TaskConfig {
            faults: Faults {
                transient: 0.0,
                outage: 0.0,
                poison: 0.0,
                duplicate: 0.0,
                token_calls: 1_000_000,
                ..Faults::default()
            },
            ..TaskConfig::new(kind, horizon)
        }
    }

    fn int(e: &EventBuf, key: &str) -> Option<i64> {
        match e.get(key) {
            Some(Value::Int(i)) => Some(*i),
            _ => None,
        }
    }

    fn err(e: &EventBuf) -> Option<&str> {
        match e.get("error") {
            Some(Value::Text(t)) => Some(t.as_str()),
            _ => None,
        }
    }

    #[test]
    fn a_clean_run_lands_everything_once_and_the_drift_is_said_once() {
        for kind in TaskKind::ALL {
            let mut w = SuiteWorld::new(quiet(kind, 100), 3);
            let first = w.reset(1);
            assert_eq!(first.kind, EventKind::Notice);
            let mut mode_mentions = 0;
            loop {
                let e = w.call(&call(FETCH, None));
                if e.get("done").is_some() {
                    break;
                }
                mode_mentions += usize::from(e.get(kind.mode_key()).is_some());
                let id = int(&e, kind.item_key()).unwrap();
                let tool = if w.drifted() { PUT_ALT } else { PUT };
                let r = w.call(&call(tool, Some(id)));
                assert_eq!(int(&r, kind.ok_key()), Some(id), "{kind}: {r:?}");
            }
            assert_eq!(
                mode_mentions, 1,
                "{kind}: the drift is announced exactly once"
            );
            assert!(w.drifted());
            assert_eq!(w.violations(), Violations::default());
            assert!(w.judge(Some(true)));
            assert!(!w.judge(Some(false)));
        }
    }

    #[test]
    fn duplicates_gaps_and_stale_writes_are_violations() {
        let mut w = SuiteWorld::new(quiet(TaskKind::Migration, 100), 0);
        w.reset(2);
        let drift = w.drift_at().unwrap();
        // Deliver item 0, land it twice: a duplicate.
        w.call(&call(FETCH, None));
        w.call(&call(PUT, Some(w.id(0))));
        w.call(&call(PUT, Some(w.id(0))));
        assert_eq!(w.violations().duplicates, 1);
        // An undelivered item, or no item at all, is refused, not landed.
        assert_eq!(err(&w.call(&call(PUT, Some(w.id(5))))), Some("bad_item"));
        assert_eq!(err(&w.call(&call(PUT, Some(-1)))), Some("bad_item"));
        assert_eq!(err(&w.call(&call(PUT, None))), Some("bad_item"));
        // Deliver up to and past the drift, landing with the old tool: wrong writes.
        for i in 1..=drift {
            w.call(&call(FETCH, None));
            w.call(&call(PUT, Some(w.id(i))));
        }
        assert!(w.drifted());
        assert_eq!(
            w.violations().wrong_writes,
            1,
            "only the write after the drift"
        );
        assert_eq!(w.violations().gaps, w.items() - drift - 1);
        assert!(!w.judge(Some(true)));
    }

    #[test]
    fn outages_refuse_until_waited_out_and_hammering_resets_them() {
        let cfg = TaskConfig {
            faults: Faults {
                transient: 0.0,
                outage: 1.0,
                long_outage: 0.0,
                poison: 0.0,
                ..Faults::default()
            },
            ..quiet(TaskKind::Migration, 100)
        };
        let mut w = SuiteWorld::new(cfg, 0);
        w.reset(0);
        w.call(&call(FETCH, None));
        let e = w.call(&call(PUT, Some(w.id(0))));
        assert_eq!(err(&e), Some("unavailable"));
        assert_eq!(int(&e, "batch"), Some(w.id(0)));
        let len = int(&e, "retry_in").unwrap() as u32;
        assert!((2..=6).contains(&len));
        w.call(&call(WAIT, None));
        let e = w.call(&call(FETCH, None));
        assert_eq!(err(&e), Some("backoff"));
        assert_eq!(
            w.outage_left(),
            len,
            "calling during back-off starts it over"
        );
        for _ in 1..len {
            assert!(w.call(&call(WAIT, None)).get("waiting").is_some());
        }
        assert!(w.call(&call(WAIT, None)).get("ready").is_some());
        assert_eq!(w.outage_left(), 0);
        assert_eq!(w.violations().gaps, w.items(), "nothing landed");
    }

    #[test]
    fn rejected_items_need_their_organisations_remedy() {
        let cfg = TaskConfig {
            faults: Faults {
                poison: 1.0,
                ..quiet(TaskKind::Migration, 50).faults
            },
            ..quiet(TaskKind::Migration, 50)
        };
        let mut w = SuiteWorld::new(cfg, 11);
        w.reset(0);
        w.call(&call(FETCH, None));
        let id = w.id(0);
        let e = w.call(&call(PUT, Some(id)));
        assert_eq!(err(&e), Some("rejected"));
        let right = w.remedy(0).unwrap();
        let wrong = *REMEDIES.iter().find(|&&t| t != right).unwrap();
        assert_eq!(err(&w.call(&call(wrong, Some(id)))), Some("remedy_failed"));
        let e = w.call(&call(right, Some(id)));
        assert_eq!(int(&e, "fixed"), Some(id));
        assert!(e.get("code").is_some());
        assert!(w.is_landed(0));
        // Another organisation has other codes (and so, in general, other remedies).
        assert_ne!(SuiteWorld::new(cfg, 12).codes(), w.codes());
    }

    #[test]
    fn records_arrive_shuffled_and_duplicates_must_be_merged() {
        let cfg = TaskConfig {
            faults: Faults {
                duplicate: 0.3,
                ..quiet(TaskKind::Records, 100).faults
            },
            ..quiet(TaskKind::Records, 100)
        };
        let mut w = SuiteWorld::new(cfg, 5);
        w.reset(4);
        let mut order = Vec::new();
        let mut merged = 0;
        loop {
            let e = w.call(&call(FETCH, None));
            if e.get("done").is_some() {
                break;
            }
            let id = int(&e, "record").unwrap();
            order.push(i64::from(w.index_of(id).unwrap()));
            let tool = if e.get("dup_of").is_some() {
                merged += 1;
                SPECIAL
            } else {
                w.right_tool(w.index_of(id).unwrap())
            };
            w.call(&call(tool, Some(id)));
        }
        assert!(merged > 0);
        assert_ne!(
            order,
            (0..order.len() as i64).collect::<Vec<_>>(),
            "shuffled"
        );
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..order.len() as i64).collect::<Vec<_>>());
        assert!(w.judge(Some(true)), "{:?}", w.violations());
        // Writing a duplicate is refused; merging a record that is no duplicate is a wrong
        // write.
        let mut w = SuiteWorld::new(cfg, 5);
        w.reset(4);
        let (mut refused, mut wrong) = (0, 0);
        loop {
            let e = w.call(&call(FETCH, None));
            let Some(id) = int(&e, "record") else { break };
            if e.get("dup_of").is_some() {
                let r = w.call(&call(PUT, Some(id)));
                assert_eq!(err(&r), Some("duplicate"));
                assert_eq!(r.get("dup_of"), e.get("dup_of"));
                refused += 1;
            } else if wrong == 0 {
                w.call(&call(SPECIAL, Some(id)));
                wrong += 1;
            }
        }
        assert!(refused > 0);
        assert_eq!(w.violations().wrong_writes, 1);
        assert_eq!(w.landed_count(), 1, "only the wrongly merged record");
    }

    #[test]
    fn tokens_expire_and_steps_wait_for_their_predecessor() {
        let mut cfg = quiet(TaskKind::Orchestration, 100);
        cfg.faults.token_calls = 3;
        let mut w = SuiteWorld::new(cfg, 0);
        w.reset(0);
        w.call(&call(FETCH, None));
        w.call(&call(FETCH, None));
        assert_eq!(err(&w.call(&call(PUT, Some(w.id(1))))), Some("dependency"));
        let mut i = 0;
        let mut expired = 0;
        while i < 2 {
            let e = w.call(&call(PUT, Some(w.id(i))));
            if err(&e) == Some("expired") {
                expired += 1;
                assert_eq!(int(&e, "step"), Some(w.id(i)));
                let a = w.call(&call(SPECIAL, None));
                assert!(a.get("token").is_some() && a.get("step").is_none());
            } else {
                assert_eq!(int(&e, "called"), Some(w.id(i)));
                i += 1;
            }
        }
        // ttl 3..5 per token: the dependency error and two calls used at least 3.
        assert!(expired <= 1);
        w.call(&call(SPECIAL, None));
        w.call(&call(PUT, Some(w.id(1))));
        assert_eq!(w.violations().duplicates, 1, "a step that ran twice");
    }

    #[test]
    fn ids_are_opaque_and_map_back_to_their_index() {
        let mut w = SuiteWorld::new(TaskConfig::new(TaskKind::Migration, 1_000), 1);
        w.reset(3);
        let ids: Vec<i64> = (0..w.items()).map(|i| w.id(i)).collect();
        for (i, &id) in ids.iter().enumerate() {
            assert_eq!(w.index_of(id), Some(i as u32));
        }
        let mut sorted = ids.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), ids.len(), "distinct");
        assert!(ids.windows(2).any(|p| p[1] < p[0]), "not increasing");
        assert_eq!(w.index_of(-5), None);
        w.reset(4);
        assert_ne!(w.id(0), ids[0], "another episode, other ids");
    }

    #[test]
    fn a_resume_point_resumes_the_same_episode_and_bad_ones_change_nothing() {
        for (kind, scenario) in TaskKind::ALL
            .into_iter()
            .flat_map(|k| Scenario::ALL.map(|s| (k, s)))
        {
            let cfg = TaskConfig::of(scenario, kind, 300);
            let calls: Vec<(u16, usize)> = (0..600).map(|i| ((i % 9) as u16 % 8, i / 4)).collect();
            let mut a = SuiteWorld::new(cfg, 4);
            a.reset(8);
            let play = |w: &mut SuiteWorld, calls: &[(u16, usize)]| -> Vec<String> {
                calls
                    .iter()
                    .map(|&(t, i)| {
                        let id = w.id(i as u32 % w.items());
                        format!("{:?}", w.call(&call(t, Some(id))))
                    })
                    .collect()
            };
            play(&mut a, &calls[..300]);
            let mut resume_point = Vec::new();
            assert!(a.save_resume_point(&mut resume_point));
            let tries = if scenario.is_v2() {
                a.items() as usize
            } else {
                0
            };
            // v3: the crash counter and three queue positions.
            let v3 = if scenario == Scenario::V3 {
                8 + 4 * 3
            } else {
                0
            };
            assert_eq!(
                resume_point.len(),
                RESUME_POINT_HEAD + 16 * a.items().div_ceil(64) as usize + tries + v3
            );
            let mut b = SuiteWorld::new(cfg, 4);
            b.restore_resume_point(&resume_point).unwrap();
            assert_eq!(
                play(&mut a, &calls[300..]),
                play(&mut b, &calls[300..]),
                "{kind}"
            );
            assert_eq!(a.violations(), b.violations());
            // Cut, padded, flipped or foreign resume points are refused and change nothing.
            let before = format!("{b:?}");
            let mut bad = vec![
                resume_point[..resume_point.len() - 1].to_vec(),
                [&resume_point[..], &[0]].concat(),
            ];
            for i in [0, 1, 18, RESUME_POINT_HEAD - 8, RESUME_POINT_HEAD + 3] {
                let mut c = resume_point.clone();
                c[i] ^= 0x40;
                bad.push(c);
            }
            for c in &bad {
                assert!(b.restore_resume_point(c).is_err(), "{kind}: {c:?}");
                assert_eq!(format!("{b:?}"), before);
            }
            let mut other = SuiteWorld::new(TaskConfig::of(scenario, kind, 600), 4);
            assert!(
                other.restore_resume_point(&resume_point).is_err(),
                "another horizon"
            );
            let v = match scenario {
                Scenario::V1 => Scenario::V2,
                Scenario::V2 => Scenario::V3,
                Scenario::V3 => Scenario::V1,
            };
            let mut other = SuiteWorld::new(TaskConfig::of(v, kind, 300), 4);
            assert!(
                other.restore_resume_point(&resume_point).is_err(),
                "another scenario"
            );
            let mut elsewhere = SuiteWorld::new(cfg, 5);
            let before = format!("{elsewhere:?}");
            assert!(
                elsewhere.restore_resume_point(&resume_point).is_err(),
                "another organisation"
            );
            assert_eq!(format!("{elsewhere:?}"), before);
        }
    }

    /// Found by the checkpoint fuzz target: a records world whose item count is no multiple of the
    /// shuffle block (horizon 50: 20 items) refused its own resume point once its last, short block
    /// had started, so an agent's own checkpoint stopped resuming.
    #[test]
    fn a_records_world_restores_its_own_resume_point_in_a_short_last_block() {
        let cfg = TaskConfig::new(TaskKind::Records, 50);
        let mut a = SuiteWorld::new(cfg, 2);
        a.reset(3);
        let fetch = ToolCall {
            tool: FETCH,
            args: heapless::Vec::new(),
        };
        for k in 0..a.items() + 1 {
            a.call(&fetch);
            let mut resume_point = Vec::new();
            assert!(a.save_resume_point(&mut resume_point));
            let mut b = SuiteWorld::new(cfg, 2);
            b.restore_resume_point(&resume_point)
                .unwrap_or_else(|e| panic!("after {} fetches: {e}", k + 1));
            assert_eq!(format!("{b:?}"), format!("{a:?}"));
        }
    }

    /// v2 draws an item's faults from its own attempts: touching one item first changes no
    /// fault of another (v1's episode-wide counter does).
    #[test]
    fn v2_faults_are_drawn_per_item_and_attempt() {
        let faulty = |scenario| TaskConfig {
            faults: Faults {
                transient: 0.3,
                outage: 0.0,
                poison: 0.0,
                ..TaskConfig::of(scenario, TaskKind::Migration, 100).faults
            },
            drift: None,
            ..TaskConfig::of(scenario, TaskKind::Migration, 100)
        };
        let mut differs = [false; Scenario::ALL.len()];
        for (k, scenario) in Scenario::ALL.into_iter().enumerate() {
            for seed in 0..20 {
                // Retry item 1 until it lands, after (a) nothing, (b) item 0 tried until it landed.
                let item1 = |touch_first: bool| {
                    let mut w = SuiteWorld::new(faulty(scenario), 3);
                    w.reset(seed);
                    w.call(&call(FETCH, None));
                    w.call(&call(FETCH, None));
                    if touch_first {
                        while err(&w.call(&call(PUT, Some(w.id(0))))).is_some() {}
                    }
                    let mut out = Vec::new();
                    loop {
                        let e = w.call(&call(PUT, Some(w.id(1))));
                        out.push(format!("{e:?}"));
                        if err(&e).is_none() {
                            return out;
                        }
                    }
                };
                differs[k] |= item1(false) != item1(true);
            }
        }
        assert_eq!(
            differs,
            [true, false, false],
            "v1 shares one counter, v2 and v3 do not"
        );
    }

    #[test]
    fn v2_codes_are_skewed_drift_per_episode_and_a_failed_remedy_backs_off() {
        let cfg = TaskConfig {
            faults: Faults {
                transient: 0.0,
                outage: 0.0,
                poison: 1.0,
                ..Faults::v2()
            },
            ..TaskConfig::v2(TaskKind::Migration, 1000)
        };
        let mut w = SuiteWorld::new(cfg, 5);
        let codes = w.codes().to_vec();
        assert_eq!(codes.len(), CODES_MAX);
        let mut distinct = codes.iter().map(|c| c.0).collect::<Vec<_>>();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), CODES_MAX, "distinct codes");
        // Frequencies: the first code about 1/H(12) = 32% of rejections, the last about 2.7%.
        let (mut first, mut last, mut drifted, mut total) = (0, 0, 0, 0);
        for seed in 0..40 {
            w.reset(seed);
            drifted += w
                .remedies()
                .iter()
                .zip(&codes)
                .filter(|(r, c)| **r != c.1)
                .count();
            for i in 0..w.items() {
                let remedy = w.remedy(i).unwrap();
                let c = w.poison(i).unwrap();
                assert_eq!(remedy, w.remedies()[c]);
                first += usize::from(c == 0);
                last += usize::from(c == CODES_MAX - 1);
                total += 1;
            }
        }
        let share = |n: usize| n as f64 / total as f64;
        assert!((0.28..0.36).contains(&share(first)), "{}", share(first));
        assert!((0.015..0.04).contains(&share(last)), "{}", share(last));
        let drift = drifted as f64 / (40 * CODES_MAX) as f64;
        assert!((0.06..0.2).contains(&drift), "remedy drift {drift}");
        // A wrong remedy: refused with the back-off, which must be waited out.
        w.reset(0);
        w.call(&call(FETCH, None));
        let right = w.remedy(0).unwrap();
        let wrong = REMEDIES.into_iter().find(|&t| t != right).unwrap();
        let e = w.call(&call(wrong, Some(w.id(0))));
        assert_eq!(err(&e), Some("remedy_failed"));
        assert_eq!(w.failed_remedies(), 1);
        assert_eq!(int(&e, "retry_in"), Some(3));
        assert_eq!(err(&w.call(&call(right, Some(w.id(0))))), Some("backoff"));
        for _ in 0..3 {
            w.call(&call(WAIT, None));
        }
        assert!(w.call(&call(right, Some(w.id(0)))).get("fixed").is_some());
        // v1: no back-off, and every code's remedy is the usual one.
        let mut v1 = SuiteWorld::new(TaskConfig::new(TaskKind::Migration, 100), 5);
        for seed in 0..40 {
            v1.reset(seed);
            assert!(v1.remedies().iter().zip(v1.codes()).all(|(r, c)| *r == c.1));
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_world() {
        let cfg = TaskConfig::new(TaskKind::Records, 300);
        let trace = |seed| {
            let mut w = SuiteWorld::new(cfg, 9);
            let mut out = vec![format!("{:?}", w.reset(seed))];
            for i in 0..400u32 {
                let id = w.id(i / 3);
                let e = w.call(&call((i % 8) as u16, Some(id)));
                out.push(format!("{e:?}"));
            }
            out
        };
        assert_eq!(trace(1), trace(1));
        assert_ne!(trace(1), trace(2));
    }
}
