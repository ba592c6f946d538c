//! Evaluating an agent on a range of seeds: what `evoharness eval` runs.
//!
//! Episode `s` of a range runs in organisation `organisations.start + s % organisations.len()`; the
//! episodes of one organisation run in seed order on one workspace, so lessons carry over
//! from one to the next, as they would for a deployed agent. Organisations run in parallel on
//! up to `threads` threads. The report is the same whatever the thread count.

use std::ops::Range;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use evoharness_runtime::{Agent, Controller, Error, ErrorKind, PolicyBuilder, Result, TraceSink};
use serde::Serialize;

use crate::baselines::{AppendOnly, LeanHarness, Oracle, RandomAgent, StaticHarness, TunedHarness};
use crate::episode::{self, StepTimes, agent_config};
use crate::world::SuiteWorld;
use evoharness_train::{EpisodeStats, HARNESS_VERBS};

use crate::{CAPACITIES, TaskConfig};

/// A controller of suite agents, of any kind.
pub type BoxedController = Box<dyn Controller<SuiteWorld> + Send>;

/// How [`AgentSpec::Retuned`] tunes the rule of one organisation: `(task, organisation,
/// max_steps)` to the setting to evaluate there.
pub type Retune = fn(TaskConfig, u64, u64) -> Result<TunedHarness>;

/// Which agent to evaluate. Parsed from its command-line name by its `FromStr`, which lives in
/// [`tune`](crate::tune) because two names, `fixed-best` and `retuned`, are that module's.
#[derive(Clone, Debug)]
pub enum AgentSpec {
    /// [`AppendOnly`] with this window.
    AppendOnly(usize),
    /// [`StaticHarness`].
    StaticHarness,
    /// [`StaticHarness::over_lean`]: the static harness's bookkeeping around the lean rule.
    StaticLean,
    /// [`LeanHarness`].
    LeanHarness,
    /// [`TunedHarness`] or one of its variants (recalls and favourite-first guesses on or off,
    /// a [`Hint`](crate::baselines::Hint)).
    Tuned(TunedHarness),
    /// [`Oracle`].
    Oracle,
    /// [`RandomAgent`].
    Random,
    /// A structured-v1 policy file made for the suite's [`CAPACITIES`], run greedily.
    Policy(PathBuf, PolicyBuilder),
    /// In each organisation, the [`TunedHarness`] setting retuned for it on episodes of its
    /// own that the evaluation does not use, by this function (the suite's is
    /// [`tune::retune`](crate::tune::retune)): what a team that retunes its rule for every
    /// deployment ships (`retuned`).
    Retuned(Retune),
    /// In each organisation, the setting this function gives its deployment from its card
    /// alone (the suite's is [`tune::regional`](crate::tune::regional): `regional`).
    Regional(Retune),
}

impl AgentSpec {
    /// The baselines, in report order.
    pub fn baselines() -> [AgentSpec; 5] {
        [
            AgentSpec::Oracle,
            AgentSpec::StaticHarness,
            AgentSpec::LeanHarness,
            AgentSpec::AppendOnly(AppendOnly::DEFAULT_WINDOW),
            AgentSpec::Random,
        ]
    }

    /// The name used on the command line.
    pub fn name(&self) -> String {
        match self {
            AgentSpec::AppendOnly(w) if *w == AppendOnly::DEFAULT_WINDOW => "append-only".into(),
            AgentSpec::AppendOnly(w) => format!("append-only:{w}"),
            AgentSpec::StaticHarness => "static-harness".into(),
            AgentSpec::StaticLean => "static-lean-harness".into(),
            AgentSpec::LeanHarness => "lean-harness".into(),
            AgentSpec::Tuned(t) => t.label(),
            AgentSpec::Oracle => "oracle".into(),
            AgentSpec::Random => "random".into(),
            AgentSpec::Policy(p, _) => format!("policy:{}", p.display()),
            AgentSpec::Retuned(_) => "retuned".into(),
            AgentSpec::Regional(_) => "regional".into(),
        }
    }

    /// A fresh controller.
    pub fn build(&self) -> Result<BoxedController> {
        Ok(match self {
            AgentSpec::AppendOnly(w) => Box::new(AppendOnly::new(*w)),
            AgentSpec::StaticHarness => Box::new(StaticHarness::default()),
            AgentSpec::StaticLean => Box::new(StaticHarness::over_lean()),
            AgentSpec::LeanHarness => Box::new(LeanHarness),
            AgentSpec::Tuned(t) => Box::new(*t),
            // Until an organisation is known: the v2 rule.
            AgentSpec::Retuned(_) | AgentSpec::Regional(_) => Box::new(TunedHarness::default()),
            AgentSpec::Oracle => Box::new(Oracle),
            AgentSpec::Random => Box::new(RandomAgent::default()),
            AgentSpec::Policy(path, builder) => {
                // The kind of policy follows from the file (a structured network or a
                // generative-v1 language model): the controller a host's agent runs, greedy here.
                let policy = builder.clone().commit_any_from_file(path)?;
                let caps = policy.capacities();
                if caps != CAPACITIES {
                    return Err(Error::new(
                        ErrorKind::Config,
                        format!(
                            "the policy was made for capacities {caps:?}; the task suite needs \
                             {CAPACITIES:?}"
                        ),
                    ));
                }
                Box::new(policy)
            }
        })
    }
}

/// What to evaluate.
#[derive(Clone, Debug)]
pub struct EvalSpec {
    /// The task (its kind, horizon and faults).
    pub task: TaskConfig,
    /// Episode seeds.
    pub seeds: Range<u64>,
    /// Organisations.
    pub organisations: Range<u64>,
    /// Worker threads (at least 1).
    pub threads: usize,
    /// A step limit per episode (the budget ends episodes long before it).
    pub max_steps: u64,
    /// Where to write every step's trace record (JSON lines, the agent's own format; see the
    /// runtime's `trace` module): organisations in order, each one's episodes in seed order.
    /// Tracing runs on one thread.
    pub trace: Option<PathBuf>,
}

impl EvalSpec {
    /// Seeds `seeds`, organisations 0 to 3, one thread per core.
    pub fn new(task: TaskConfig, seeds: Range<u64>) -> Self {
        Self {
            task,
            seeds,
            organisations: 0..4,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            max_steps: u64::MAX,
            trace: None,
        }
    }
}

/// Mean harness actions per episode, by verb.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct ByVerb {
    /// `track`.
    pub track: f64,
    /// `commit`.
    pub commit: f64,
    /// `recall`.
    pub recall: f64,
    /// `note`.
    pub note: f64,
}

/// The result of an evaluation: what `evoharness eval --json` prints.
#[derive(Clone, Debug, Serialize)]
pub struct EvalReport {
    /// The task's name.
    pub task: String,
    /// The suite's version the task follows (`v1`, `v2`).
    pub scenario: crate::Scenario,
    /// The agent's name.
    pub agent: String,
    /// The horizon.
    pub horizon: u32,
    /// The step budget of each episode.
    pub budget: u32,
    /// Episodes run.
    pub episodes: u64,
    /// Organisations they ran in.
    pub organisations: u64,
    /// Share of episodes that succeeded.
    pub success_rate: f64,
    /// Integrity violations over all episodes.
    pub integrity_violations: u64,
    /// Of which duplicates (repeated steps).
    pub duplicates: u64,
    /// Of which gaps.
    pub gaps: u64,
    /// Of which wrong writes.
    pub wrong_writes: u64,
    /// Integrity violations in episodes that succeeded (always 0: a violation fails one).
    pub violations_in_successes: u64,
    /// Mean steps per episode.
    pub mean_steps: f64,
    /// Mean world actions per episode.
    pub mean_world_actions: f64,
    /// Mean harness actions per episode.
    pub mean_harness_actions: f64,
    /// [`HARNESS_VERBS`] means per episode.
    pub harness_actions_by_verb: ByVerb,
    /// Mean budget spent per episode.
    pub mean_cost: f64,
    /// Mean return ([`evoharness_train::reward`]) per episode.
    pub mean_reward: f64,
    /// The standard error of `mean_reward`: the episodes' sample standard deviation over the
    /// square root of their count (0 for one episode). A 95% confidence interval is about
    /// `mean_reward ± 1.96 · reward_se`.
    pub reward_se: f64,
    /// Median time of one step (decide, apply, world), in microseconds.
    pub p50_step_us: f64,
    /// The 99th percentile.
    pub p99_step_us: f64,
    /// Wall-clock seconds.
    pub wall_s: f64,
    /// The process's peak resident memory so far, in KiB (Linux; `None` elsewhere). Run one
    /// evaluation per process to read it as that evaluation's peak.
    pub peak_rss_kib: Option<u64>,
    /// The agent against another on the same episodes (`evoharness eval --against`), if asked
    /// for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub paired: Option<Paired>,
}

/// One agent against another on the same episodes (the same organisations and seeds, so the
/// same rejections, outages and drifts wherever the two act alike): the mean of the
/// per-episode differences in reward and its standard error. Two agents' own intervals mostly
/// measure how the episodes differ; the paired one measures how the agents do, and is far
/// tighter (v2, tuned rule with [`Hint::Usual`](crate::baselines::Hint::Usual) against the
/// rule: ±0.0008 where each agent's own interval is ±0.004).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Paired {
    /// The other agent's name.
    pub against: String,
    /// Episodes compared.
    pub episodes: u64,
    /// The mean, over the episodes, of this agent's reward less the other's.
    pub mean_reward_gain: f64,
    /// Its standard error (the differences' sample standard deviation over the square root
    /// of their count; 0 for one episode): a 95% confidence interval is about
    /// `mean_reward_gain ± 1.96 · gain_se`.
    pub gain_se: f64,
    /// Episodes in which this agent earned more than the other.
    pub better: u64,
    /// Episodes in which it earned less.
    pub worse: u64,
    /// Episodes in which both earned the same (within 10⁻⁹).
    pub same: u64,
}

impl Paired {
    /// Compares `mine` with `theirs` episode by episode: both as [`run`] returns them for the
    /// same [`EvalSpec`] (one per seed, in seed order). An error if their counts differ or
    /// there are none.
    pub fn new(against: String, mine: &[EpisodeStats], theirs: &[EpisodeStats]) -> Result<Self> {
        if mine.len() != theirs.len() || mine.is_empty() {
            return Err(Error::new(
                ErrorKind::Config,
                format!(
                    "a paired comparison needs the same episodes on both sides: {} against {}",
                    mine.len(),
                    theirs.len()
                ),
            ));
        }
        let diff = mine.iter().zip(theirs).map(|(a, b)| a.reward - b.reward);
        let count = |keep: fn(f64) -> bool| diff.clone().filter(|&d| keep(d)).count() as u64;
        // Rewards this close are the same: computed along different paths (a policy's agent,
        // a rule's), equal episodes may differ in the last bits.
        const SAME: f64 = 1e-9;
        Ok(Self {
            against,
            episodes: mine.len() as u64,
            mean_reward_gain: diff.clone().sum::<f64>() / mine.len() as f64,
            gain_se: standard_error(diff.clone()),
            better: count(|d| d > SAME),
            worse: count(|d| d < -SAME),
            same: count(|d| d.abs() <= SAME),
        })
    }
}

/// The standard error of the mean of `xs`: sample standard deviation / sqrt(count); 0 for
/// fewer than two.
fn standard_error(xs: impl Iterator<Item = f64> + Clone) -> f64 {
    let n = xs.clone().count();
    if n < 2 {
        return 0.0;
    }
    let n = n as f64;
    let mean = xs.clone().sum::<f64>() / n;
    let var = xs.map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0);
    (var / n).sqrt()
}

impl EvalReport {
    fn new(spec: &EvalSpec, agent: String, episodes: &[EpisodeStats], times: &StepTimes) -> Self {
        let n = episodes.len().max(1) as f64;
        let sum = |f: &dyn Fn(&EpisodeStats) -> f64| episodes.iter().map(f).sum::<f64>();
        let count = |f: &dyn Fn(&EpisodeStats) -> u32| {
            episodes.iter().map(|e| u64::from(f(e))).sum::<u64>()
        };
        let verb = |i: usize| sum(&|e| e.harness[i] as f64) / n;
        debug_assert_eq!(HARNESS_VERBS.len(), 4);
        Self {
            task: spec.task.kind.name().into(),
            scenario: spec.task.scenario,
            agent,
            horizon: spec.task.horizon,
            budget: spec.task.budget(),
            episodes: episodes.len() as u64,
            // Consecutive seeds take the organisations in turn: fewer episodes than
            // organisations leave some out.
            organisations: spec
                .organisations
                .end
                .saturating_sub(spec.organisations.start)
                .min(episodes.len() as u64),
            success_rate: sum(&|e| f64::from(u8::from(e.success))) / n,
            integrity_violations: count(&|e| e.violations.total()),
            duplicates: count(&|e| e.violations.duplicates),
            gaps: count(&|e| e.violations.gaps),
            wrong_writes: count(&|e| e.violations.wrong_writes),
            violations_in_successes: episodes
                .iter()
                .filter(|e| e.success)
                .map(|e| u64::from(e.violations.total()))
                .sum(),
            mean_steps: sum(&|e| e.steps as f64) / n,
            mean_world_actions: sum(&|e| e.world_actions as f64) / n,
            mean_harness_actions: sum(&|e| e.harness_actions() as f64) / n,
            harness_actions_by_verb: ByVerb {
                track: verb(0),
                commit: verb(1),
                recall: verb(2),
                note: verb(3),
            },
            mean_cost: sum(&|e| f64::from(e.cost)) / n,
            mean_reward: sum(&|e| e.reward) / n,
            reward_se: standard_error(episodes.iter().map(|e| e.reward)),
            p50_step_us: times.quantile_us(0.5),
            p99_step_us: times.quantile_us(0.99),
            wall_s: 0.0,
            peak_rss_kib: None,
            paired: None,
        }
    }
}

/// Runs the evaluation; `progress(done, total)` is called after every episode (from worker
/// threads). Returns the report and every episode's stats in seed order.
pub fn run(
    spec: &EvalSpec,
    agent: &AgentSpec,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<(EvalReport, Vec<EpisodeStats>)> {
    if spec.seeds.is_empty() {
        return Err(Error::new(ErrorKind::Config, "no seeds to evaluate"));
    }
    if spec.organisations.is_empty() {
        return Err(Error::new(
            ErrorKind::Config,
            "no organisations to evaluate in",
        ));
    }
    let started = Instant::now();
    let total = spec.seeds.end - spec.seeds.start;
    let norg = spec.organisations.end - spec.organisations.start;
    // Build one agent first, so that a bad policy file fails before any thread starts.
    let probe = agent.build()?;
    let name = match agent {
        AgentSpec::Policy(..) | AgentSpec::Retuned(_) | AgentSpec::Regional(_) => agent.name(),
        _ => probe.name(),
    };
    let mut probe = Some(probe);
    let organisations: Vec<u64> = (0..norg).collect();
    let next = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let results = Mutex::new(Vec::<(u64, EpisodeStats)>::with_capacity(total as usize));
    let times = Mutex::new(StepTimes::default());
    let first_error = Mutex::new(None::<Error>);
    let probe_slot = Mutex::new(probe.take());
    let threads = if spec.trace.is_some() {
        1
    } else {
        spec.threads.clamp(1, norg.min(total) as usize)
    };
    let trace = match &spec.trace {
        Some(path) => Some(SharedFile::create(path)?),
        None => None,
    };
    let worker = || {
        let work = || -> Result<()> {
            let taken = probe_slot.lock().ok().and_then(|mut p| p.take());
            let mut ctl = match taken {
                Some(c) => c,
                None => agent.build()?,
            };
            loop {
                let f = next.fetch_add(1, Ordering::Relaxed);
                if f >= organisations.len() as u64 || first_error.lock().is_ok_and(|e| e.is_some())
                {
                    return Ok(());
                }
                let organisation = spec.organisations.start + f;
                let first = spec.seeds.start + (f + norg - spec.seeds.start % norg) % norg;
                // A new organisation's agent starts without experience; v3: in the
                // organisation's deployment (its costs).
                let world = SuiteWorld::new(spec.task, organisation);
                let task = *world.config();
                if let AgentSpec::Retuned(retune) | AgentSpec::Regional(retune) = agent {
                    ctl = Box::new(retune(spec.task, organisation, spec.max_steps)?);
                }
                let mut agent = Agent::new(ctl, world, agent_config(&task, first))?;
                // v2: and an empty experience store behind its working set.
                if let Some(store) = spec.task.store() {
                    agent.set_experience_store(store);
                }
                if let Some(t) = &trace {
                    agent.set_trace(TraceSink::Json(Box::new(t.clone())))?;
                }
                let mut mine = Vec::new();
                let mut mine_times = StepTimes::default();
                let mut s = first;
                let mut k = 0u64;
                while s < spec.seeds.end {
                    // v3: after the deployment's store lifetime, a new agent that
                    // knows nothing takes the old one's place.
                    if let Some(life) = task.store_life()
                        && k > 0
                        && k.is_multiple_of(u64::from(life.max(1)))
                    {
                        agent.forget()?;
                    }
                    k += 1;
                    let stats = episode::run(&mut agent, s, spec.max_steps, Some(&mut mine_times))?;
                    mine.push((s, stats));
                    progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
                    s += norg;
                }
                agent.set_trace(TraceSink::Off)?;
                ctl = agent.into_parts().0;
                if let Ok(mut t) = times.lock() {
                    t.merge(&mine_times);
                }
                if let Ok(mut r) = results.lock() {
                    r.extend(mine);
                }
            }
        };
        if let Err(e) = work()
            && let Ok(mut slot) = first_error.lock()
        {
            slot.get_or_insert(e);
        }
    };
    if threads == 1 {
        // On the caller's thread: one worker needs no thread (and a host calling in from C,
        // as the retuned teacher does, gets no thread handle made for it).
        worker();
    } else {
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(worker);
            }
        });
    }
    if let Some(e) = first_error.into_inner().ok().flatten() {
        return Err(e);
    }
    let mut results = results.into_inner().unwrap_or_default();
    results.sort_by_key(|(s, _)| *s);
    let episodes: Vec<EpisodeStats> = results.into_iter().map(|(_, e)| e).collect();
    let times = times.into_inner().unwrap_or_default();
    let mut report = EvalReport::new(spec, name, &episodes, &times);
    report.wall_s = started.elapsed().as_secs_f64();
    report.peak_rss_kib = peak_rss_kib();
    Ok((report, episodes))
}

/// A trace file that agents write to one after another (a clone per agent).
#[derive(Clone)]
struct SharedFile(std::sync::Arc<Mutex<std::io::BufWriter<std::fs::File>>>);

impl SharedFile {
    fn create(path: &std::path::Path) -> Result<Self> {
        let f = std::fs::File::create(path).map_err(|e| {
            Error::new(
                ErrorKind::Io,
                format!("creating the trace file {}", path.display()),
            )
            .with_source(e)
        })?;
        Ok(Self(std::sync::Arc::new(Mutex::new(
            std::io::BufWriter::new(f),
        ))))
    }

    fn lock(
        &self,
    ) -> std::io::Result<std::sync::MutexGuard<'_, std::io::BufWriter<std::fs::File>>> {
        self.0
            .lock()
            .map_err(|_| std::io::Error::other("a thread writing the trace panicked"))
    }
}

impl std::io::Write for SharedFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.lock()?.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.lock()?.flush()
    }
}

/// `VmHWM` of `/proc/self/status`.
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::{Paired, standard_error};
    use evoharness_train::EpisodeStats;

    #[test]
    fn a_paired_comparison_is_the_mean_difference_and_its_standard_error() {
        let ep = |reward: f64| EpisodeStats {
            reward,
            ..EpisodeStats::default()
        };
        let mine = [ep(1.3), ep(1.5), ep(1.0), ep(-0.5)];
        let theirs = [ep(1.0), ep(1.5), ep(1.4), ep(-0.6)];
        let p = Paired::new("rule".into(), &mine, &theirs).unwrap();
        // Differences 0.3, 0, -0.4, 0.1: mean 0, one the same, two better, one worse.
        assert!(p.mean_reward_gain.abs() < 1e-12, "{p:?}");
        // Sample variance (0.09 + 0 + 0.16 + 0.01) / 3, over 4 episodes.
        let want = (0.26f64 / 3.0 / 4.0).sqrt();
        assert!((p.gain_se - want).abs() < 1e-12, "{p:?}");
        assert_eq!((p.episodes, p.better, p.worse, p.same), (4, 2, 1, 1));
        assert_eq!(p.against, "rule");
        // Rewards a few ulps apart (computed along different paths) are the same.
        let p = Paired::new("rule".into(), &[ep(1.3 + 1e-15)], &[ep(1.3)]).unwrap();
        assert_eq!((p.better, p.worse, p.same), (0, 0, 1));
        // Not the same episodes: refused, not truncated.
        assert!(Paired::new("rule".into(), &mine, &theirs[..3]).is_err());
        assert!(Paired::new("rule".into(), &[], &[]).is_err());
    }

    #[test]
    fn the_standard_error_is_the_sample_deviation_over_root_n() {
        assert_eq!(standard_error([].into_iter()), 0.0);
        assert_eq!(standard_error([0.7].into_iter()), 0.0);
        // 1, 2, 3, 4: sample variance 5/3, so the error is sqrt(5/3 / 4).
        let se = standard_error([1.0, 2.0, 3.0, 4.0].into_iter());
        assert!((se - (5.0f64 / 12.0).sqrt()).abs() < 1e-12, "{se}");
        assert_eq!(standard_error([2.5; 10].into_iter()), 0.0);
    }
}
