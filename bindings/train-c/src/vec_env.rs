//! The suite's vectorised environment, for training: many worlds stepped in one call into
//! caller-owned arrays, so that Python (or any host) drives the very same simulators as the
//! Rust evaluation; environments in groups (for group-relative policy optimisation); and a
//! rule-based teacher's labels (for imitation). The same over any worlds a host gives
//! (`evoharness_vec_env_new_worlds`: worlds written by the host with
//! `evoharness_world_from_callbacks`, from C or from Python).

use std::ffi::c_char;

use evoharness::ffi::{self, Castable, Error, guard, guard_value};
use evoharness::{
    WorldBox, evoharness_capacities, evoharness_costs, evoharness_status, evoharness_world,
    finished_flag,
};
use evoharness_core::Costs;
use evoharness_core::obs::Version;
use evoharness_core::{StepVerb, Value};
use evoharness_runtime::World;
use evoharness_suite::{CAPACITIES, SuiteVecEnv, Teacher};
use train::{EpisodeStats, Intent, VecEnv, WorldsConfig};

use crate::suite::task_config;

/// What an `evoharness_vec_env` handle points at: the suite's tasks, or a host's worlds.
#[doc(hidden)]
pub enum AnyVecEnv {
    /// Made by `evoharness_vec_env_new` or `_new_grouped`.
    Suite(SuiteVecEnv),
    /// Made by `evoharness_vec_env_new_worlds`.
    Worlds(VecEnv<WorldBox>),
}

/// Runs the same code on either kind of environment.
macro_rules! each {
    ($v:expr, $e:ident => $body:expr) => {
        match $v {
            AnyVecEnv::Suite($e) => $body,
            AnyVecEnv::Worlds($e) => $body,
        }
    };
}

impl AnyVecEnv {
    fn len(&self) -> usize {
        each!(self, v => v.len())
    }

    fn obs_len(&self) -> usize {
        each!(self, v => v.obs_len())
    }

    fn actions(&self) -> usize {
        each!(self, v => v.actions())
    }

    fn group(&self) -> usize {
        each!(self, v => v.group())
    }

    fn episodes(&self, i: usize) -> u64 {
        each!(self, v => v.episodes(i))
    }

    fn last_episode(&self, i: usize) -> Option<&EpisodeStats> {
        each!(self, v => v.last_episode(i))
    }

    fn intent_template(&self, i: usize, intent: &Intent) -> evoharness_runtime::Result<usize> {
        each!(self, v => v.intent_template(i, intent))
    }

    /// The index of the tool named `name` (the worlds' names), if there is one.
    fn tool_index(&self, name: &str) -> Option<u16> {
        each!(self, v => {
            let w = v.env(0)?.world();
            (0..w.tools()).find(|&t| w.tool_name(t) == Some(name))
        })
    }
}

/// A teacher's high-level action from its JSON form; see `evoharness_vec_env_intent_template`.
fn parse_intent(v: &AnyVecEnv, json: &str) -> ffi::Result<Intent> {
    let bad = |m: String| Error::invalid(format!("intent {json}: {m}"));
    let j: serde_json::Value =
        serde_json::from_str(json).map_err(|e| bad(format!("not JSON: {e}")))?;
    let o = j
        .as_object()
        .ok_or_else(|| bad("not a JSON object".into()))?;
    let key = |verb: &str| -> ffi::Result<String> {
        o[verb]
            .as_str()
            .map(str::to_string)
            .ok_or_else(|| bad(format!("`{verb}` takes a field's key (a string)")))
    };
    const VERBS: &str = "finish, call (with arg), track, retract, recall, note, plan, cursor, \
                         step (with verb)";
    let verb = [
        "finish", "call", "track", "retract", "recall", "note", "plan", "cursor", "step",
    ]
    .into_iter()
    .find(|k| o.contains_key(*k))
    .ok_or_else(|| bad(format!("no action: one of {VERBS}")))?;
    Ok(match verb {
        "finish" => Intent::Finish {
            success: o[verb]
                .as_bool()
                .ok_or_else(|| bad("`finish` takes true or false".into()))?,
        },
        "call" => {
            let tool = match &o[verb] {
                serde_json::Value::String(name) => v.tool_index(name).ok_or_else(|| {
                    bad(format!(
                        "no tool {name:?} (the worlds' tool names name them)"
                    ))
                })?,
                n => n
                    .as_u64()
                    .and_then(|n| u16::try_from(n).ok())
                    .ok_or_else(|| bad("`call` takes a tool's name or index".into()))?,
            };
            let arg = match o.get("arg") {
                None | Some(serde_json::Value::Null) => None,
                Some(serde_json::Value::Bool(b)) => Some(Value::Bool(*b)),
                Some(serde_json::Value::Number(n)) => Some(match n.as_i64() {
                    Some(i) => Value::Int(i),
                    None => Value::Float(n.as_f64().unwrap_or(f64::NAN)),
                }),
                Some(serde_json::Value::String(t)) => {
                    Some(Value::text(t).map_err(|e| bad(format!("`arg`: {e}")))?)
                }
                Some(_) => return Err(bad("`arg` is a bool, a number or a string".into())),
            };
            Intent::Call { tool, arg }
        }
        "track" => Intent::Track { key: key(verb)? },
        "retract" => Intent::Retract { key: key(verb)? },
        "recall" => Intent::Recall { key: key(verb)? },
        "note" => Intent::Note { key: key(verb)? },
        "plan" => Intent::Plan { key: key(verb)? },
        "cursor" => Intent::Cursor { key: key(verb)? },
        _ => {
            let step = o[verb]
                .as_u64()
                .and_then(|n| u16::try_from(n).ok())
                .ok_or_else(|| bad("`step` takes a step's index".into()))?;
            let verb = match o.get("verb").and_then(serde_json::Value::as_str) {
                Some("start") => StepVerb::Start,
                Some("complete") => StepVerb::Complete,
                Some("fail") => StepVerb::Fail,
                Some("block") => StepVerb::Block,
                Some("skip") => StepVerb::Skip,
                Some("retry") => StepVerb::Retry,
                _ => {
                    return Err(bad(
                        "`step` needs a `verb`: start, complete, fail, block, skip or retry".into(),
                    ));
                }
            };
            Intent::Step { step, verb }
        }
    })
}

/// `n` environments of one suite task, each an agent's world and workspace of the suite's
/// capacities (16 facts, 8 steps, 4 lessons, 8 tools), stepped together with one action
/// template each. An environment whose episode ends is reset at once with its next seed;
/// Experience carries over between the episodes of one environment (one organisation).
///
/// Made by `evoharness_vec_env_new`, `evoharness_vec_env_new_grouped` or
/// `evoharness_vec_env_new_worlds`; the caller owns it and frees it with
/// `evoharness_vec_env_free`. Thread safety: one thread at a time; it may move between
/// threads. The callbacks of its worlds run inside its functions, which refuse calls from them
/// (`INVALID_ARGUMENT`: the environment is in use; `evoharness_vec_env_free` does nothing).
pub struct evoharness_vec_env {
    _private: [u8; 0],
}

/// What an `evoharness_vec_env` handle points at: the environments,
/// [`Guarded`](ffi::Guarded) so that a world's callback that calls back into its environment
/// is refused instead of aliasing it.
#[doc(hidden)]
pub struct VecEnvHandle {
    env: ffi::Guarded<AnyVecEnv>,
}

impl Castable for evoharness_vec_env {
    type Rust = VecEnvHandle;
}

fn handle(env: AnyVecEnv) -> *mut evoharness_vec_env {
    ffi::to_owned_ptr::<evoharness_vec_env>(VecEnvHandle {
        env: ffi::Guarded::new(env),
    })
}

/// # Safety
/// `p` is NULL or a live environment that no other thread uses.
unsafe fn enter<'a>(p: *const evoharness_vec_env) -> ffi::Result<ffi::Entered<'a, AnyVecEnv>> {
    // SAFETY: the caller's contract. Only the guard is reached through this shared reference,
    // so it may coexist with the `&mut` to the environment of an outer call.
    let h: &VecEnvHandle = unsafe { ffi::try_ref(p, "env") }?;
    h.env
        .enter("the environment is in use: a callback of one of its worlds called back into it")
}

/// A rule-based agent whose choice `evoharness_vec_env_teacher_actions` reports.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum evoharness_teacher {
    /// The lean harness: sees only what a policy sees (the workspace and the current event),
    /// so a policy can imitate it exactly.
    Lean = 0,
    /// The oracle: reads the world's hidden state; an upper bound, not fully imitable.
    Oracle = 1,
    /// The static harness: the harness-heavy rule (it tracks every changed field, checkpoints
    /// every landing, recalls before every landing), where harness annealing starts. It works
    /// through an agenda; each environment keeps a copy that follows the actions taken.
    Static = 2,
    /// The tuned harness: the lean harness with recalls from the experience store and the
    /// organisation's favourite remedy as first guess, the best rule for v2 tasks
    /// (`EVOHARNESS_TASK_V2`); like the lean one it sees only what a policy sees.
    Tuned = 3,
    /// The static harness's bookkeeping (the same harness actions as `Static`) around the
    /// lean harness's world actions, which need few of them: a start for harness annealing
    /// where most bookkeeping can go. Kept through an agenda like `Static`.
    StaticLean = 4,
    /// The fixed-best setting of the tuned harness's knobs for v3 deployments
    /// (`EVOHARNESS_TASK_V3`), tuned on training organisations: one rule for every deployment,
    /// that keeps the deployment's card in Belief (a `track` of each field at the start)
    /// without acting on it, so that its imitator has the card at hand.
    FixedBest = 5,
    /// v3: in each environment, the setting of the tuned harness's knobs that earns the most
    /// in its own organisation (every setting tried on episodes of that organisation no
    /// evaluation uses; the first request in an organisation does it), keeping the card like
    /// `FixedBest`. It reads no card: what it knows of a deployment it measured as reward.
    Retuned = 6,
    /// v3: in each environment, the setting found by reward for deployments with its card's
    /// model and machines tiers (the suite's `tune::REGIONAL`, chosen on training
    /// organisations), keeping the card like `FixedBest`: what DAgger distils is then a
    /// function of what a policy sees.
    Regional = 7,
}

/// What `evoharness_vec_env_teacher_actions` writes for an environment where the teacher has
/// no legal action (a state only a learner's own mistakes reach).
pub const EVOHARNESS_VEC_ENV_NO_LABEL: u32 = u32::MAX;

/// The sizes of a vectorised environment.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct evoharness_vec_env_info {
    /// Environments.
    pub n: usize,
    /// Environments per group (1 without groups).
    pub group: usize,
    /// Floats in one environment's observation.
    pub obs_len: usize,
    /// Action templates of one environment (the length of its mask).
    pub actions: usize,
}

/// What one finished episode did.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct evoharness_episode_stats {
    /// Finished claiming success, every item landed exactly once, nothing written wrong.
    pub success: bool,
    /// -1 if the agent did not finish (out of budget); 1 if it claimed success, 0 if it gave
    /// up.
    pub finished: i8,
    /// Items landed more than once.
    pub duplicates: u32,
    /// Items never landed.
    pub gaps: u32,
    /// Items landed with stale settings.
    pub wrong_writes: u32,
    /// Steps taken.
    pub steps: u64,
    /// World actions among them.
    pub world_actions: u64,
    /// Harness actions by verb: track, commit, recall, note.
    pub harness: [u64; 4],
    /// Budget spent.
    pub cost: u32,
    /// The sum of the rewards over the episode.
    pub reward: f64,
    /// Items in the task.
    pub items: u32,
    /// Items that landed.
    pub landed: u32,
}

fn stats(s: &EpisodeStats) -> evoharness_episode_stats {
    evoharness_episode_stats {
        success: s.success,
        finished: finished_flag(s.finished),
        duplicates: s.violations.duplicates,
        gaps: s.violations.gaps,
        wrong_writes: s.violations.wrong_writes,
        steps: s.steps,
        world_actions: s.world_actions,
        harness: s.harness,
        cost: s.cost,
        reward: s.reward,
        items: s.items,
        landed: s.landed,
    }
}

/// Makes `n` (at least 1) environments of the suite task `task` (an `evoharness_task`) with
/// `horizon` (1 to 10,000,000), in organisations `organisation_start` to
/// `organisation_start + organisation_count - 1` (`organisation_count` at least 1), seeded
/// from `seed`: environment `i` runs organisation `organisation_start + i % organisation_count`
/// and, for its `k`-th episode, seed `seed + i + k·n`. Their first episodes start at once (read
/// them with `evoharness_vec_env_observe`). On success `*out` is a new environment that the
/// caller owns.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for a task or horizon out of range; `CONFIG` for
/// `n` or `organisation_count` of 0, or an organisation range that overflows.
///
/// # Safety
/// `out` points at a writable pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_vec_env_new(
    task: u32,
    horizon: u32,
    n: usize,
    organisation_start: u64,
    organisation_count: u64,
    seed: u64,
    out: *mut *mut evoharness_vec_env,
) -> evoharness_status {
    // SAFETY: the caller's contract.
    unsafe {
        evoharness_vec_env_new_grouped(
            task,
            horizon,
            n,
            1,
            organisation_start,
            organisation_count,
            seed,
            out,
        )
    }
}

/// Like `evoharness_vec_env_new`, in groups of `group` environments (`group` at least 1 and
/// dividing `n`) that run the same organisation and the same sequence of seeds: environment
/// `i` is in group `g = i / group`, runs organisation
/// `organisation_start + g % organisation_count` and, for its `k`-th episode, seed
/// `seed + g + k·(n / group)`. With `group` 1 this is exactly `evoharness_vec_env_new`. On
/// success `*out` is a new environment that the caller owns (free it with
/// `evoharness_vec_env_free`).
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for a task or horizon out of range; `CONFIG` for
/// `n` or `organisation_count` of 0, a `group` that does not divide `n`, or an organisation
/// range that overflows.
///
/// # Safety
/// `out` points at a writable pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_vec_env_new_grouped(
    task: u32,
    horizon: u32,
    n: usize,
    group: usize,
    organisation_start: u64,
    organisation_count: u64,
    seed: u64,
    out: *mut *mut evoharness_vec_env,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let out = unsafe { ffi::out(out, "out") }?;
        let task = task_config(task, horizon)?;
        let end = organisation_start
            .checked_add(organisation_count)
            .ok_or_else(|| {
                Error::new(
                    evoharness_status::Config,
                    "organisation_start + organisation_count overflows",
                )
            })?;
        let v = SuiteVecEnv::grouped(task, n, group, organisation_start..end, seed)?;
        out.write(handle(AnyVecEnv::Suite(v)));
        Ok(())
    })
}

/// How `evoharness_vec_env_new_worlds` sets up environments over a host's worlds. Fill it with
/// `evoharness_vec_env_config_default`, then change what you need.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct evoharness_vec_env_config {
    /// The workspace capacities (what the policy trained on them will be made for). `tools` is
    /// 0 for the worlds' own tool count, or must equal it.
    pub capacities: evoharness_capacities,
    /// The step budget of an episode (an episode that spends it ends unfinished).
    pub budget: u32,
    /// What each verb costs.
    pub costs: evoharness_costs,
    /// Seeds the episodes: environment `i` in group `g = i / group` runs, for its `k`-th
    /// episode, seed `seed + g + k·(n / group)`.
    pub seed: u64,
    /// Environments per group that run the same seeds (1 for none); must divide `n`.
    pub group: usize,
}

/// Fills `*out` with the defaults: the suite's capacities (16 facts, 8 steps, 4 lessons) with
/// the worlds' tool count (`tools` 0), a budget of 200 steps, the default costs (every verb 1,
/// `finish` 0), seed 0, no groups. Any thread.
///
/// Errors: `NULL_ARGUMENT`.
///
/// # Safety
/// `out` is NULL or points at a writable struct.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_vec_env_config_default(
    out: *mut evoharness_vec_env_config,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let out = unsafe { ffi::out(out, "out") }?;
        let mut capacities = evoharness_capacities::from_core(CAPACITIES);
        capacities.tools = 0;
        out.write(evoharness_vec_env_config {
            capacities,
            budget: 200,
            costs: evoharness_costs::from_core(Costs::default()),
            seed: 0,
            group: 1,
        });
        Ok(())
    })
}

/// Makes `n` environments (at least 1), one over each world of `worlds[0..n]`: a world written
/// by the host (`evoharness_world_from_callbacks`) or any other world handle, all with the same
/// tool count. Each environment is an agent's workspace of `config->capacities` with
/// `config->budget` and `config->costs` over its world, stepped with one action template at a
/// time as `evoharness_vec_env_step` says; the layout (observation length, templates) is the
/// one of those capacities (`evoharness_vec_env_get_info`, `evoharness_layout_json`). An
/// episode ends when the agent finishes or its budget is spent; its stats count success and
/// the reward from the world's judge (without a judge, no episode succeeds), and leave the
/// suite's item counts (`items`, `landed`, `duplicates`, `gaps`, `wrong_writes`) 0; a judge's
/// violations count in the reward. Teachers (`evoharness_vec_env_teacher_actions`) know only
/// the suite's tasks. The first episodes start at once.
///
/// Ownership: on success the environment takes over every world (`worlds[i]` become NULL) and
/// `*out` is a new environment that the caller owns. A failure found before the worlds are
/// used (every error but `WORLD`) leaves them the caller's, unchanged; `WORLD` (a world failed
/// in its first reset) has taken them over and freed them (`worlds[i]` are NULL).
///
/// Errors: `NULL_ARGUMENT` (also for a NULL `worlds[i]`); `INVALID_ARGUMENT` for a world given
/// twice; `CONFIG` for `n` of 0, a `group` that does not divide `n`, capacities out of range,
/// or worlds whose tool counts differ from each other or from `config->capacities.tools`;
/// `WORLD`.
///
/// # Safety
/// `worlds` points at `n` readable and writable world pointers, each a live world that the
/// caller owns and no other thread uses; `config` at a readable struct; `out` at a writable
/// pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_vec_env_new_worlds(
    worlds: *mut *mut evoharness_world,
    n: usize,
    config: *const evoharness_vec_env_config,
    out: *mut *mut evoharness_vec_env,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let (c, out) = unsafe { (ffi::input(config, "config")?, ffi::out(out, "out")?) };
        let config_error = |m: String| Error::new(evoharness_status::Config, m);
        if n == 0 {
            return Err(config_error("a VecEnv needs at least one world".into()));
        }
        // Every pointer is checked before anything is taken.
        let mut given = Vec::with_capacity(n);
        for i in 0..n {
            // SAFETY: `worlds` points at `n` world pointers (the caller's contract).
            let slot = unsafe { worlds.add(i) };
            // SAFETY: the caller's contract.
            given.push(unsafe { ffi::Given::new(slot, &format!("worlds[{i}]")) }?);
        }
        for (i, g) in given.iter().enumerate() {
            if let Some(j) = given[..i].iter().position(|h| h.peek() == g.peek()) {
                return Err(Error::invalid(format!(
                    "worlds[{i}] is worlds[{j}] again: each environment needs its own world"
                )));
            }
        }
        let mut tools = None;
        for (i, g) in given.iter().enumerate() {
            // SAFETY: checked by `Given::new`, alive and the caller's (its contract).
            let w: &WorldBox = unsafe { &*g.peek() };
            let t = w.tools();
            match tools {
                None => tools = Some(t),
                Some(first) if first != t => {
                    return Err(config_error(format!(
                        "worlds[{i}] has {t} tools, worlds[0] has {first}: one layout needs one \
                         tool count"
                    )));
                }
                Some(_) => {}
            }
        }
        let tools = tools.unwrap_or(0);
        let mut caps = c.capacities.to_core();
        if caps.tools == 0 {
            caps.tools = tools;
        } else if caps.tools != tools {
            return Err(config_error(format!(
                "config->capacities.tools is {}; the worlds have {tools} tools",
                caps.tools
            )));
        }
        caps.validate()
            .map_err(|e| config_error(format!("config->capacities: {e}")))?;
        if c.group == 0 || !n.is_multiple_of(c.group) {
            return Err(config_error(format!(
                "groups of {} do not divide {n} environments",
                c.group
            )));
        }
        let worlds: Vec<WorldBox> = given.into_iter().map(|g| *g.take().0).collect();
        let wc = WorldsConfig {
            capacities: caps,
            budget: c.budget,
            costs: c.costs.to_core(),
            seed: c.seed,
            group: c.group,
        };
        let v = VecEnv::from_worlds(worlds, wc)?;
        out.write(handle(AnyVecEnv::Worlds(v)));
        Ok(())
    })
}

/// Frees an environment (with its worlds). NULL is a no-op; so is a call from inside one of its
/// worlds' callbacks (a bug: the last error says so).
///
/// # Safety
/// `env` is NULL or an environment from `evoharness_vec_env_new`,
/// `evoharness_vec_env_new_grouped` or `evoharness_vec_env_new_worlds`, not yet freed, that no
/// other thread is using.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_vec_env_free(env: *mut evoharness_vec_env) {
    guard_value((), || {
        if env.is_null() {
            return;
        }
        // SAFETY: the caller's contract.
        match unsafe { enter(env) } {
            Ok(entered) => drop(entered),
            Err(e) => {
                ffi::set_last_error(&format!("evoharness_vec_env_free: {}", e.message));
                return;
            }
        }
        // SAFETY: the caller's contract; not in use (checked just above, on this thread).
        unsafe { ffi::free_owned(env) }
    })
}

/// Writes the environment's sizes to `*out`: how many environments, per group, and the
/// lengths of one environment's observation and mask.
///
/// Errors: `NULL_ARGUMENT`.
///
/// # Safety
/// `env` is a live environment that no thread changes meanwhile; `out` points at a writable
/// struct.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_vec_env_get_info(
    env: *const evoharness_vec_env,
    out: *mut evoharness_vec_env_info,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let (mut e, out) = unsafe { (enter(env)?, ffi::out(out, "out")?) };
        let v = &*e.get();
        out.write(evoharness_vec_env_info {
            n: v.len(),
            group: v.group(),
            obs_len: v.obs_len(),
            actions: v.actions(),
        });
        Ok(())
    })
}

fn check_len(what: &str, have: usize, want: usize) -> ffi::Result<()> {
    if have == want {
        Ok(())
    } else {
        Err(Error::invalid(format!(
            "{what} has {have} elements; this environment needs {want}"
        )))
    }
}

/// Writes every environment's current observation into `obs` (`obs_len` floats: `n` ×
/// `obs_len` of `evoharness_vec_env_info`, environment after environment) and its legal-action
/// mask into `mask` (`mask_len` bytes: `n` × `actions`, 1 = legal).
///
/// Errors (nothing written): `NULL_ARGUMENT`; `INVALID_ARGUMENT` for an array of the wrong
/// length.
///
/// # Safety
/// `env` is a live environment that no thread changes meanwhile; `obs` points at `obs_len`
/// writable floats, `mask` at `mask_len` writable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_vec_env_observe(
    env: *const evoharness_vec_env,
    obs: *mut f32,
    obs_len: usize,
    mask: *mut u8,
    mask_len: usize,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract, argument by argument.
        let (mut e, obs, mask) = unsafe {
            (
                enter(env)?,
                ffi::slice_mut(obs, obs_len, "obs")?,
                ffi::slice_mut(mask, mask_len, "mask")?,
            )
        };
        let v = &*e.get();
        check_len("obs", obs.len(), v.len() * v.obs_len())?;
        check_len("mask", mask.len(), v.len() * v.actions())?;
        each!(v, v => v.observe(obs, mask)).map_err(Error::from)
    })
}

/// Steps every environment with its action template in `actions` (`n` of them), then writes
/// each one's next observation and mask (as `evoharness_vec_env_observe`), the step's reward
/// into `reward` (`n` floats) and whether its episode ended into `done` (`n` bytes, 1 = ended;
/// the environment was then reset and its observation is the next episode's first).
///
/// Every action is checked before any is applied: an illegal template (mask 0) or an array of
/// the wrong length changes nothing and writes nothing.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` (the message names the environment or the
/// array).
///
/// # Safety
/// `env` is a live environment that no other thread uses; each array points at as many
/// readable (`actions`) or writable elements as its length says.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_vec_env_step(
    env: *mut evoharness_vec_env,
    actions: *const u32,
    actions_len: usize,
    obs: *mut f32,
    obs_len: usize,
    mask: *mut u8,
    mask_len: usize,
    reward: *mut f32,
    reward_len: usize,
    done: *mut u8,
    done_len: usize,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract, argument by argument.
        let (mut e, actions, obs, mask, reward, done) = unsafe {
            (
                enter(env)?,
                ffi::slice(actions, actions_len, "actions")?,
                ffi::slice_mut(obs, obs_len, "obs")?,
                ffi::slice_mut(mask, mask_len, "mask")?,
                ffi::slice_mut(reward, reward_len, "reward")?,
                ffi::slice_mut(done, done_len, "done")?,
            )
        };
        let v = e.get();
        each!(v, v => v.step(actions, obs, mask, reward, done)).map_err(|e| match e.kind() {
            evoharness_runtime::ErrorKind::Config => Error::invalid(e.to_string()),
            _ => Error::from(e),
        })
    })
}

/// Writes environment `index`'s workspace as a `generative-v1` prompt (`workspace-text-v1`,
/// core/PROTOCOL.md §11: what a language-model policy reads there now, ending in `> `),
/// NUL-terminated UTF-8, into `buf` (`cap` bytes) and its length to `*out_len`. At most 5,881
/// bytes for the suite's capacities (`text::max_len`); the action texts are the layout JSON's
/// `action_texts`.
///
/// Errors (nothing written): `NULL_ARGUMENT`; `NOT_FOUND` for an index past the last
/// environment; `BUFFER_TOO_SMALL`.
///
/// # Safety
/// `env` is a live environment that no thread changes meanwhile; `buf` points at `cap`
/// writable bytes, `out_len` at a writable `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_vec_env_text(
    env: *const evoharness_vec_env,
    index: usize,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let mut e = unsafe { enter(env) }?;
        let v = &*e.get();
        if index >= v.len() {
            return Err(Error::not_found(format!(
                "no environment {index}: there are {}",
                v.len()
            )));
        }
        let mut text = String::new();
        each!(v, v => v.text(index, &mut text)).map_err(Error::from)?;
        // SAFETY: the caller's contract.
        unsafe { ffi::write_str(&text, buf, cap, out_len) }
    })
}

/// Writes into `out` (`out_len` = `n` templates) the template `teacher` (an
/// `evoharness_teacher`) would choose now in every environment, in the state its last
/// observation shows: labels for imitation learning, such as DAgger's on the states a learning
/// policy visits. The choices are legal (their mask bytes are 1); an environment where the
/// teacher's choice is not legal gets `EVOHARNESS_VEC_ENV_NO_LABEL` instead.
///
/// Errors (nothing written): `NULL_ARGUMENT`; `INVALID_ARGUMENT` for an unknown teacher or an
/// array of the wrong length.
///
/// # Safety
/// `env` is a live environment that no thread changes meanwhile; `out` points at `out_len`
/// writable `uint32_t`s.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_vec_env_teacher_actions(
    env: *const evoharness_vec_env,
    teacher: u32,
    out: *mut u32,
    out_len: usize,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let (mut e, out) = unsafe { (enter(env)?, ffi::slice_mut(out, out_len, "out")?) };
        let v = &*e.get();
        let t = match teacher {
            0 => Teacher::Lean,
            1 => Teacher::Oracle,
            2 => Teacher::Static,
            3 => Teacher::Tuned,
            4 => Teacher::StaticLean,
            5 => Teacher::FixedBest,
            6 => Teacher::Retuned,
            7 => Teacher::Regional,
            t => {
                return Err(Error::invalid(format!(
                    "teacher is {t}: 0 lean, 1 oracle, 2 static, 3 tuned, 4 static-lean, \
                     5 fixed-best, 6 retuned or 7 regional"
                )));
            }
        };
        check_len("out", out.len(), v.len())?;
        let AnyVecEnv::Suite(v) = v else {
            return Err(Error::invalid(
                "the teachers know the suite's tasks only; this environment runs a host's worlds",
            ));
        };
        let mut labels = vec![0u32; out.len()];
        v.teacher_actions(t, &mut labels)?;
        out.copy_from_slice(&labels);
        Ok(())
    })
}

/// Writes to `*out` the action template that does, in environment `index`'s current state, the
/// high-level action `intent` (NUL-terminated JSON): what a teacher written by a person says,
/// mapped by the library to the layout's template. One of
///
/// - `{"finish": true}` (or `false`);
/// - `{"call": "pay", "arg": 101}`: a tool by name (or index), with no `arg` or a bool, number
///   or string argument, which must be the value of a field of the current event (looked up
///   first) or of a belief slot: templates take arguments by position;
/// - `{"track": "invoice"}`, `{"recall": "code"}`, `{"plan": "invoice"}`,
///   `{"cursor": "page"}`: a field of the current event by key; `{"note": "code"}` a field by
///   key, else a fact; `{"retract": "invoice"}` a fact by key;
/// - `{"step": 0, "verb": "complete"}` (`start`, `complete`, `fail`, `block`, `skip`, `retry`).
///
/// Errors (nothing written): `NULL_ARGUMENT`; `NOT_FOUND` for an index past the last
/// environment; `INVALID_ARGUMENT` for JSON that is not such an action, and for an action the
/// layout cannot express (an argument no field or slot holds, a key the event lacks, a step
/// past the capacity) or that is not legal now: the message says which and why.
///
/// # Safety
/// `env` is a live environment that no thread changes meanwhile; `intent` a NUL-terminated
/// string; `out` points at a writable `uint32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_vec_env_intent_template(
    env: *const evoharness_vec_env,
    index: usize,
    intent: *const c_char,
    out: *mut u32,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let (mut e, json, out) = unsafe {
            (
                enter(env)?,
                ffi::text(intent, "intent")?,
                ffi::out(out, "out")?,
            )
        };
        let v = &*e.get();
        check_index(v, index)?;
        let intent = parse_intent(v, json)?;
        let t = v
            .intent_template(index, &intent)
            .map_err(|e| Error::invalid(e.to_string()))?;
        out.write(t as u32);
        Ok(())
    })
}

/// The environment at `index`, or `NOT_FOUND`.
fn check_index(v: &AnyVecEnv, index: usize) -> ffi::Result<()> {
    if index < v.len() {
        Ok(())
    } else {
        Err(Error::not_found(format!(
            "no environment {index}: there are {}",
            v.len()
        )))
    }
}

/// Writes the stats of environment `index`'s last finished episode to `*out`.
///
/// Errors: `NULL_ARGUMENT`; `NOT_FOUND` for an index past the last environment, or one that
/// has not finished an episode yet.
///
/// # Safety
/// `env` is a live environment that no thread changes meanwhile; `out` points at a writable
/// struct.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_vec_env_last_episode(
    env: *const evoharness_vec_env,
    index: usize,
    out: *mut evoharness_episode_stats,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let (mut e, out) = unsafe { (enter(env)?, ffi::out(out, "out")?) };
        let v = &*e.get();
        check_index(v, index)?;
        let s = v.last_episode(index).ok_or_else(|| {
            Error::not_found(format!(
                "environment {index} has not finished an episode yet"
            ))
        })?;
        out.write(stats(s));
        Ok(())
    })
}

/// Writes how many episodes environment `index` has finished to `*out`.
///
/// Errors: `NULL_ARGUMENT`; `NOT_FOUND` for an index past the last environment.
///
/// # Safety
/// `env` is a live environment that no thread changes meanwhile; `out` points at a writable
/// `uint64_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_vec_env_episodes(
    env: *const evoharness_vec_env,
    index: usize,
    out: *mut u64,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let (mut e, out) = unsafe { (enter(env)?, ffi::out(out, "out")?) };
        let v = &*e.get();
        check_index(v, index)?;
        out.write(v.episodes(index));
        Ok(())
    })
}

/// Gives every environment's agent a lifetime of `episodes` episodes (0, the default:
/// forever). When an environment has finished a multiple of `episodes` episodes, its agent is
/// replaced by one that knows nothing (an empty working set and, if it has one, an empty
/// experience store), and a suite environment moves on to the next organisation: for its
/// `m`-th agent, environment `i` (group `g = i / group` of `G`) runs organisation
/// `first + (g + m * G) % count` of the range it was made with. Seeds are unchanged.
/// Training on v2 tasks sets about a dozen: `evoharness eval` runs that many episodes of an
/// organisation on one agent, so new agents (an empty store, unknown codes) are as common as
/// there. A renewal allocates; the steps between do not.
///
/// Errors: `NULL_ARGUMENT`.
///
/// # Safety
/// `env` is a live environment that no other thread uses.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_vec_env_set_lifetime(
    env: *mut evoharness_vec_env,
    episodes: u64,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let mut e = unsafe { enter(env)? };
        each!(e.get(), v => v.set_lifetime(episodes));
        Ok(())
    })
}

/// Makes every environment write observations of layout version `layout_version` from now
/// on: 1 (`structured-v1`, the default) or 2 (`structured-v2`: structured-v1's and the
/// `harness` segment, `core/PROTOCOL.md` §8). A policy trained on them declares that version.
/// The templates and masks are the same in both; `obs_len` of `evoharness_vec_env_get_info`
/// changes, and `evoharness_layout_json_version` describes the new observation. Read the
/// observations again (`evoharness_vec_env_observe`) after the change.
///
/// Errors: `NULL_ARGUMENT`; `CONFIG` for another version (nothing changed).
///
/// # Safety
/// `env` is a live environment that no other thread uses.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_vec_env_set_layout_version(
    env: *mut evoharness_vec_env,
    layout_version: u32,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let mut e = unsafe { enter(env)? };
        let version = Version::from_number(layout_version).ok_or_else(|| {
            Error::new(
                evoharness_status::Config,
                format!("layout version {layout_version}: the environments write 1 or 2"),
            )
        })?;
        each!(e.get(), v => v.set_layout_version(version));
        Ok(())
    })
}

/// Makes environment `dst` an exact copy of environment `src` as it is now: its agent
/// (workspace, world resume point, experience store, step counts, random state), the episode so
/// far, the episodes it has finished and its last one, and the static teachers' agendas. From
/// here on the two play alike to the end of the episode: the same actions give the same
/// observations, masks, rewards and end. Two environments of one group (the same seeds) stay
/// alike after it too. For branching rollouts: try another action in a copy and compare
/// returns under the same draws. `src == dst` does nothing. Allocates.
///
/// Errors: `NULL_ARGUMENT`; `NOT_FOUND` for an index past the last environment (nothing
/// changed); `CONFIG` for a host world that saves no resume point (`save_resume_point` callback: it
/// cannot be copied; nothing changed); a world that refuses the resume point gives its error, and
/// `dst` plays on as it was, or, if it refuses even `dst`'s own resume point, starts its episode
/// over with a new agent (the message says which). Every environment stays in its place.
///
/// # Safety
/// `env` is a live environment that no other thread uses.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_vec_env_copy(
    env: *mut evoharness_vec_env,
    src: usize,
    dst: usize,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let mut e = unsafe { enter(env)? };
        let v = e.get();
        check_index(v, src)?;
        check_index(v, dst)?;
        each!(v, v => v.copy_env(src, dst)).map_err(Error::from)
    })
}

#[cfg(test)]
mod tests {
    //! The same world, run natively and through the C callbacks of
    //! `evoharness_world_from_callbacks`, gives the very same environment: every observation,
    //! mask, reward, done flag and episode.

    use std::ffi::{CString, c_void};

    use evoharness::{
        evoharness_tool_call, evoharness_tool_result, evoharness_verdict,
        evoharness_world_callbacks,
    };
    use evoharness_core::{EventBuf, EventKind, ToolCall, Value, heapless};
    use evoharness_runtime::Verdict;

    use super::*;

    /// Four tools: `next` (an id, or done), `pay` (an id), `audit`, `note` (echoes text).
    #[derive(Default)]
    struct Ledger {
        items: i64,
        next: i64,
        paid: Vec<u32>,
    }

    impl World for Ledger {
        fn tools(&self) -> u16 {
            4
        }

        fn reset(&mut self, seed: u64) -> EventBuf {
            self.items = 2 + (seed % 3) as i64;
            self.next = 0;
            self.paid = vec![0; self.items as usize];
            EventBuf::new(EventKind::Notice, 0)
                .with("items", Value::Int(self.items))
                .unwrap()
                .with("rate", Value::Float(0.5 + seed as f64))
                .unwrap()
        }

        fn call(&mut self, call: &ToolCall) -> EventBuf {
            let e = EventBuf::new(EventKind::Result, call.tool);
            match (call.tool, call.args.first()) {
                (0, _) if self.next < self.items => {
                    self.next += 1;
                    e.with("item", Value::Int(100 + self.next - 1)).unwrap()
                }
                (0, _) => e.with("done", Value::Bool(true)).unwrap(),
                (1, Some(Value::Int(id))) if (100..100 + self.items).contains(id) => {
                    self.paid[(id - 100) as usize] += 1;
                    e.with("paid", Value::Int(*id)).unwrap()
                }
                (1, _) => EventBuf::new(EventKind::Error, 1)
                    .with("code", Value::text("unknown").unwrap())
                    .unwrap(),
                (2, _) => e
                    .with(
                        "left",
                        Value::Int(self.paid.iter().filter(|&&p| p == 0).count() as i64),
                    )
                    .unwrap(),
                (_, arg) => e
                    .with(
                        "echo",
                        arg.cloned().unwrap_or(Value::bytes(b"\x01").unwrap()),
                    )
                    .unwrap(),
            }
        }

        fn judge(&self, finished: Option<bool>) -> Option<Verdict> {
            Some(Verdict {
                success: finished == Some(true) && self.paid.iter().all(|&p| p == 1),
                violations: self.paid.iter().filter(|&&p| p > 1).count() as u32,
            })
        }
    }

    fn write(e: &EventBuf, out: *mut evoharness_tool_result) -> i32 {
        let mut status = evoharness_status::Ok;
        // SAFETY: `out` is the result lent to the running callback; keys and text are
        // NUL-terminated copies that live across each call.
        unsafe {
            let _ = evoharness::evoharness_tool_result_set_kind(out, e.kind as u32);
            for f in &e.fields {
                let key = CString::new(f.key.as_str()).unwrap();
                let k = key.as_ptr();
                status = match &f.value {
                    Value::Bool(b) => evoharness::evoharness_tool_result_add_bool(out, k, *b),
                    Value::Int(i) => evoharness::evoharness_tool_result_add_int(out, k, *i),
                    Value::Float(x) => evoharness::evoharness_tool_result_add_float(out, k, *x),
                    Value::Text(t) => {
                        let t = CString::new(t.as_str()).unwrap();
                        evoharness::evoharness_tool_result_add_text(out, k, t.as_ptr())
                    }
                    Value::Bytes(b) => {
                        evoharness::evoharness_tool_result_add_bytes(out, k, b.as_ptr(), b.len())
                    }
                };
            }
        }
        i32::from(status != evoharness_status::Ok)
    }

    /// # Safety
    /// `user` is a live `Ledger` used by nothing else during the call.
    unsafe fn ledger<'a>(user: *mut c_void) -> &'a mut Ledger {
        // SAFETY: the caller's contract.
        unsafe { &mut *user.cast::<Ledger>() }
    }

    unsafe extern "C" fn reset(
        user: *mut c_void,
        seed: u64,
        out: *mut evoharness_tool_result,
    ) -> i32 {
        // SAFETY: the world's user data is the ledger it was made with.
        write(&unsafe { ledger(user) }.reset(seed), out)
    }

    unsafe extern "C" fn call(
        user: *mut c_void,
        c: *const evoharness_tool_call,
        out: *mut evoharness_tool_result,
    ) -> i32 {
        // SAFETY: the call lent to this callback.
        let c = unsafe { &*c };
        let mut args = heapless::Vec::new();
        for a in &c.args[..c.arg_count] {
            let v = match a.kind as u8 {
                0 => Value::Bool(a.boolean),
                1 => Value::Int(a.integer),
                2 => Value::Float(a.number),
                3 => Value::text(std::str::from_utf8(&a.data[..a.len]).unwrap()).unwrap(),
                _ => Value::bytes(&a.data[..a.len]).unwrap(),
            };
            args.push(v).unwrap();
        }
        let call = ToolCall { tool: c.tool, args };
        // SAFETY: as in `reset`.
        write(&unsafe { ledger(user) }.call(&call), out)
    }

    unsafe extern "C" fn judge(
        user: *mut c_void,
        finished: i8,
        out: *mut evoharness_verdict,
    ) -> i32 {
        let finished = (finished >= 0).then_some(finished == 1);
        // SAFETY: as in `reset`; `out` is the verdict lent to this callback.
        let v = unsafe { ledger(user) }.judge(finished).unwrap();
        // SAFETY: as above.
        unsafe {
            (*out).success = v.success;
            (*out).violations = v.violations;
        }
        0
    }

    unsafe extern "C" fn drop_ledger(user: *mut c_void) {
        // SAFETY: made by `Box::into_raw` below, dropped once.
        drop(unsafe { Box::from_raw(user.cast::<Ledger>()) });
    }

    fn callback_world() -> WorldBox {
        let cb = evoharness_world_callbacks {
            reset: Some(reset),
            call: Some(call),
            judge: Some(judge),
            save_resume_point: None,
            restore_resume_point: None,
            drop: Some(drop_ledger),
        };
        let names: Vec<CString> = ["next", "pay", "audit", "note"]
            .iter()
            .map(|n| CString::new(*n).unwrap())
            .collect();
        let ptrs: Vec<*const c_char> = names.iter().map(|n| n.as_ptr()).collect();
        let user = Box::into_raw(Box::<Ledger>::default()).cast::<c_void>();
        let mut w = std::ptr::null_mut();
        // SAFETY: the callbacks above with a boxed ledger they own; four names.
        let s = unsafe {
            evoharness::evoharness_world_from_callbacks(&cb, user, ptrs.as_ptr(), 4, &mut w)
        };
        assert_eq!(s, evoharness_status::Ok);
        // SAFETY: a world handle just made, ours.
        *unsafe { Box::from_raw(w.cast::<WorldBox>()) }
    }

    #[test]
    fn a_world_through_c_callbacks_steps_exactly_as_it_does_natively() {
        let n = 3;
        let config = WorldsConfig {
            seed: 7,
            costs: Costs {
                track: 2,
                ..Costs::default()
            },
            ..WorldsConfig::new(4, 50)
        };
        let mut native =
            VecEnv::from_worlds((0..n).map(|_| Ledger::default()).collect(), config).unwrap();
        let mut bridged =
            VecEnv::from_worlds((0..n).map(|_| callback_world()).collect(), config).unwrap();
        let (ol, al) = (native.obs_len(), native.actions());
        assert_eq!((ol, al), (bridged.obs_len(), bridged.actions()));
        let buffers = || {
            (
                vec![0.0f32; n * ol],
                vec![0u8; n * al],
                vec![0.0f32; n],
                vec![0u8; n],
            )
        };
        let (mut o1, mut m1, mut r1, mut d1) = buffers();
        let (mut o2, mut m2, mut r2, mut d2) = buffers();
        native.observe(&mut o1, &mut m1).unwrap();
        bridged.observe(&mut o2, &mut m2).unwrap();
        assert_eq!(o1, o2);
        let mut rng = evoharness_runtime::rng::SplitMix64(3);
        for _ in 0..3_000 {
            let acts: Vec<u32> = (0..n)
                .map(|i| {
                    let legal: Vec<usize> = (0..al).filter(|&t| m1[i * al + t] == 1).collect();
                    legal[(rng.next_u64() % legal.len() as u64) as usize] as u32
                })
                .collect();
            native
                .step(&acts, &mut o1, &mut m1, &mut r1, &mut d1)
                .unwrap();
            bridged
                .step(&acts, &mut o2, &mut m2, &mut r2, &mut d2)
                .unwrap();
            assert_eq!((&o1, &m1, &r1, &d1), (&o2, &m2, &r2, &d2));
        }
        for i in 0..n {
            assert!(native.episodes(i) > 5);
            assert_eq!(native.last_episode(i), bridged.last_episode(i));
        }
    }
}
