//! `evoharness bench`: agent-steps per second of a `Fleet` of N agents and of N independent
//! `Agent`s on one core, beside the arithmetic limit: the machine's measured single-core GEMM
//! throughput over the policy's FLOPs per decision.

use std::time::{Duration, Instant};

use evoharness_runtime::{Agent, Backend, Fleet, Policy, gemm, native};
use evoharness_suite::{SuiteWorld, TaskConfig, TaskKind, episode};
use serde::Serialize;

use crate::args::{self, Flag, Usage};
use crate::failure::Failure;
use crate::options;

const HELP: &str = "\
evoharness bench: agent-steps per second of a fleet, of independent agents, and the limit

Usage: evoharness bench --policy POLICY.onnx [--agents N] [OPTIONS]

On one core (ONNX Runtime with one intra-op thread; tract and native have one), measures:
  - a Fleet of N agents: one batched policy run per step for every agent that decides
    (one run per agent if the file has batch 1);
  - N independent Agents, each with its own copy of the policy, stepped in turn;
  - one Agent alone: the time of its step;
  - the machine's f32 GEMM throughput: an n x n MatMul (--gemm n) on ort's backend in use
    (for --backend native: the --compare backend, else auto);
and prints agent-steps per second, the lone agent's step, the policy's FLOPs per decision
(its matrix products) and the arithmetic limit that follows: GEMM FLOP/s / FLOPs per decision.
With --compare, the fleet and the lone agent are measured on a second backend in the same run
(native beside tract or onnxruntime), alternately, with the ratios. Each agent runs a suite
task (its own organisation and seed; a task that ends starts the next, inside the timed loop),
as `evoharness run --world` does.

Options:
  --policy FILE        the policy (required)
  --agents N           the number of agents (default 256)
  --world NAME         migration (default), records or orchestration
  --horizon H          the task's size (default 250)
  --seconds S          time each measurement for at least S seconds (default 2)
  --gemm N             the GEMM's side (default 1024)
  --no-independent     skip the independent agents (loading N policies takes memory and time)
  --compare NAME       also measure the fleet and the lone agent on backend NAME (one of
                       --backend's; it and --backend must not both be ort's)
  --json               print one JSON object instead
";

pub(crate) fn help() -> String {
    format!("{HELP}{}{}", options::BACKEND_HELP, options::HELP_HELP)
}

const FLAGS: &[Flag] = &[
    options::BACKEND_FLAGS[0],
    options::BACKEND_FLAGS[1],
    Flag::value("--policy", "a policy file"),
    Flag::value("--agents", "a number of agents"),
    Flag::value("--world", "migration, records or orchestration"),
    Flag::value("--horizon", "a number of steps"),
    Flag::value("--seconds", "a number of seconds"),
    Flag::value("--gemm", "a matrix side"),
    Flag::switch("--no-independent"),
    Flag::value("--compare", "tract, onnxruntime, native or auto"),
    Flag::switch("--json"),
];

#[derive(Debug, Serialize)]
struct Report {
    policy: String,
    backend: String,
    agents: usize,
    world: String,
    /// Whether the file has a dynamic batch dimension (one backend call per fleet step).
    batched: bool,
    fleet_agent_steps_per_s: f64,
    independent_agent_steps_per_s: Option<f64>,
    limit_agent_steps_per_s: f64,
    flops_per_decision: u64,
    gemm_flops_per_s: f64,
    gemm_n: usize,
    /// Fleet over independent agents.
    fleet_speedup: Option<f64>,
    /// Fleet over the limit (1 = at the limit).
    fleet_share_of_limit: f64,
    fleet_agent_steps: u64,
    independent_agent_steps: Option<u64>,
    /// One agent alone: microseconds per step.
    lone_agent_step_us: f64,
    /// The backend the GEMM ran on.
    gemm_backend: String,
    /// The same measurements on the `--compare` backend.
    compare: Option<Compared>,
}

/// The fleet and the lone agent on the `--compare` backend, and how the main backend fares
/// against it.
#[derive(Debug, Serialize)]
struct Compared {
    backend: String,
    batched: bool,
    fleet_agent_steps_per_s: f64,
    fleet_share_of_limit: f64,
    lone_agent_step_us: f64,
    /// The compared backend's lone step time over the main one's (above 1: main is faster).
    lone_step_speedup: f64,
    /// The main backend's fleet rate over the compared one's.
    fleet_speedup: f64,
}

struct Settings {
    policy: String,
    agents: usize,
    task: TaskConfig,
    seconds: f64,
    gemm_n: usize,
    independent: bool,
    json: bool,
    compare: Option<options::Choice>,
}

pub(crate) fn main(argv: impl Iterator<Item = String>) -> Result<(), Failure> {
    let p = args::parse("bench", FLAGS, argv)?;
    if p.help {
        print!("{}", help());
        return Ok(());
    }
    crate::init_log(false);
    let usage = |m: String| Usage::new("bench", m);
    let policy = p
        .value("--policy")
        .ok_or_else(|| usage("missing --policy FILE".into()))?
        .to_string();
    let positive = |name: &str, default: u64| -> Result<u64, Usage> {
        match p.parse::<u64>(name, "a whole number above 0")? {
            Some(0) => Err(usage(format!("`{name} 0`: expected a number above 0"))),
            Some(n) => Ok(n),
            None => Ok(default),
        }
    };
    let agents = usize::try_from(positive("--agents", 256)?)
        .map_err(|_| usage("--agents: too many".into()))?;
    let kind: TaskKind = p
        .value("--world")
        .unwrap_or("migration")
        .parse()
        .map_err(|_| usage("--world: expected migration, records or orchestration".into()))?;
    let horizon = u32::try_from(positive("--horizon", 250)?)
        .map_err(|_| usage(format!("--horizon: at most {}", u32::MAX)))?;
    let seconds = match p.parse::<f64>("--seconds", "a number of seconds above 0")? {
        Some(s) if s > 0.0 && s.is_finite() => s,
        Some(s) => return Err(usage(format!("`--seconds {s}`: expected a number above 0")).into()),
        None => 2.0,
    };
    let gemm_n = usize::try_from(positive("--gemm", 1024)?)
        .map_err(|_| usage("--gemm: too large".into()))?;
    let choice = options::choice(&p, "bench")?;
    let compare = match p.value("--compare") {
        Some(b) => Some(choice.with_backend(
            Backend::parse(b).map_err(|e| usage(format!("--compare: {}", e.message())))?,
        )),
        None => None,
    };
    let s = Settings {
        compare,
        policy,
        agents,
        task: TaskConfig::new(kind, horizon),
        seconds,
        gemm_n,
        independent: !p.switch("--no-independent"),
        json: p.switch("--json"),
    };
    bench(&s, &choice)
}

fn load(choice: &options::Choice, file: &str) -> Result<Policy, Failure> {
    // One core: one intra-op thread on ONNX Runtime (tract has one).
    let choice = choice.with_threads(1);
    Ok(options::load(&choice, file)?.policy)
}

/// The world and seed of agent `i` (and of its `k`-th task).
fn world(task: TaskConfig, i: usize) -> SuiteWorld {
    SuiteWorld::new(task, i as u64 % 64)
}

fn seed(i: usize, k: u64) -> u64 {
    (i as u64) << 20 | k
}

/// Steps a fleet of `s.agents` agents on `policy` for at least `time`; agent-steps and seconds.
fn fleet_run(s: &Settings, policy: Policy, time: Duration) -> Result<(u64, f64), Failure> {
    let failed = |e: evoharness_runtime::Error| Failure::runtime(&e);
    let mut fleet = Fleet::new(policy);
    for i in 0..s.agents {
        let config = episode::agent_config(&s.task, seed(i, 0));
        fleet.spawn(world(s.task, i), config).map_err(failed)?;
    }
    let mut tasks = vec![0u64; s.agents];
    let mut fleet_step = |fleet: &mut Fleet<SuiteWorld>| -> Result<u64, Failure> {
        let n = fleet.step().map_err(failed)?;
        for (i, k) in tasks.iter_mut().enumerate() {
            match fleet.report(i) {
                Some(Err(e)) => return Err(Failure::other(format!("agent {i}: {e}"))),
                Some(Ok(_)) => {}
                None => {
                    *k += 1;
                    fleet.agent_mut(i).start_task(seed(i, *k));
                }
            }
        }
        Ok(n as u64)
    };
    for _ in 0..3 {
        fleet_step(&mut fleet)?;
    }
    let (mut steps, started) = (0u64, Instant::now());
    while steps == 0 || started.elapsed() < time {
        steps += fleet_step(&mut fleet)?;
    }
    Ok((steps, started.elapsed().as_secs_f64()))
}

/// One agent alone on its own policy, stepped for at least `time`; steps and seconds.
fn lone_run(agent: &mut (Agent<SuiteWorld>, u64), time: Duration) -> Result<(u64, f64), Failure> {
    let (a, k) = agent;
    let (mut steps, started) = (0u64, Instant::now());
    while steps == 0 || started.elapsed() < time {
        if a.step().map_err(|e| Failure::runtime(&e))?.is_some() {
            steps += 1;
        } else {
            *k += 1;
            a.start_task(seed(0, *k));
        }
    }
    Ok((steps, started.elapsed().as_secs_f64()))
}

fn bench(s: &Settings, choice: &options::Choice) -> Result<(), Failure> {
    let failed = |e: evoharness_runtime::Error| Failure::runtime(&e);
    let first = load(choice, &s.policy)?;
    let backend = options::backend_phrase(Some(first.backend()));
    let batched = first.batched();
    // The policy file's matrix products, counted from its graph (0 when it cannot be read).
    let flops = std::fs::read(&s.policy).map_or(0, |bytes| {
        if native::is_native(&bytes) {
            native::describe(&bytes, &s.policy).map_or(0, |d| 2 * d.macs_per_row)
        } else {
            crate::flops::per_decision(&bytes)
        }
    });
    let time = Duration::from_secs_f64(s.seconds);
    let other = s.compare.as_ref().map(|c| load(c, &s.policy)).transpose()?;
    let other_phrase = other
        .as_ref()
        .map(|p| options::backend_phrase(Some(p.backend())));
    let other_batched = other.as_ref().is_some_and(Policy::batched);

    // One agent alone on each backend, alternately, so that both see the same machine.
    let lone_agent = |choice: &options::Choice| -> Result<(Agent<SuiteWorld>, u64), Failure> {
        let config = episode::agent_config(&s.task, seed(0, 0));
        Ok((
            Agent::new(load(choice, &s.policy)?, world(s.task, 0), config).map_err(failed)?,
            0,
        ))
    };
    let mut lone = lone_agent(choice)?;
    let mut lone_other = s.compare.as_ref().map(lone_agent).transpose()?;
    let rounds = 4;
    let slice = time / rounds;
    lone_run(&mut lone, Duration::from_millis(50))?;
    if let Some(o) = lone_other.as_mut() {
        lone_run(o, Duration::from_millis(50))?;
    }
    let (mut lone_t, mut other_t) = ((0u64, 0f64), (0u64, 0f64));
    for _ in 0..rounds {
        let (n, t) = lone_run(&mut lone, slice)?;
        lone_t = (lone_t.0 + n, lone_t.1 + t);
        if let Some(o) = lone_other.as_mut() {
            let (n, t) = lone_run(o, slice)?;
            other_t = (other_t.0 + n, other_t.1 + t);
        }
    }
    drop((lone, lone_other));
    let lone_us = 1e6 * lone_t.1 / lone_t.0 as f64;
    let other_us = 1e6 * other_t.1 / other_t.0.max(1) as f64;

    // The fleet (and on the other backend).
    let (fleet_steps, fleet_secs) = fleet_run(s, first, time)?;
    let fleet_rate = fleet_steps as f64 / fleet_secs;
    let other_rate = match other {
        Some(p) => {
            let (n, t) = fleet_run(s, p, time)?;
            Some(n as f64 / t)
        }
        None => None,
    };

    // N independent agents, each with its own policy.
    let independent = if s.independent {
        let mut agents = Vec::with_capacity(s.agents);
        for i in 0..s.agents {
            let config = episode::agent_config(&s.task, seed(i, 0));
            let agent =
                Agent::new(load(choice, &s.policy)?, world(s.task, i), config).map_err(failed)?;
            agents.push((agent, 0u64));
        }
        let round = |agents: &mut Vec<(Agent<SuiteWorld>, u64)>| -> Result<u64, Failure> {
            let mut n = 0;
            for (i, (a, k)) in agents.iter_mut().enumerate() {
                if a.step().map_err(failed)?.is_some() {
                    n += 1;
                } else {
                    *k += 1;
                    a.start_task(seed(i, *k));
                }
            }
            Ok(n)
        };
        round(&mut agents)?;
        let (mut steps, started) = (0u64, Instant::now());
        while steps == 0 || started.elapsed() < time {
            steps += round(&mut agents)?;
        }
        Some((steps, steps as f64 / started.elapsed().as_secs_f64()))
    } else {
        None
    };

    // ort's backend the policies run on (`auto` finds it initialised; after a native run
    // alone, it initialises ONNX Runtime if its library is found, else tract).
    let gemm = gemm::measure(&Backend::Auto, s.gemm_n, time).map_err(failed)?;
    let gemm_backend = options::backend_phrase(evoharness_runtime::backend::active());
    let limit = if flops > 0 {
        gemm.flops_per_s / flops as f64
    } else {
        f64::NAN
    };
    let r = Report {
        policy: s.policy.clone(),
        backend,
        agents: s.agents,
        world: format!("{} (horizon {})", s.task.kind, s.task.horizon),
        batched,
        fleet_agent_steps_per_s: fleet_rate,
        independent_agent_steps_per_s: independent.map(|x| x.1),
        limit_agent_steps_per_s: limit,
        flops_per_decision: flops,
        gemm_flops_per_s: gemm.flops_per_s,
        gemm_n: gemm.n,
        fleet_speedup: independent.map(|x| fleet_rate / x.1),
        fleet_share_of_limit: fleet_rate / limit,
        fleet_agent_steps: fleet_steps,
        independent_agent_steps: independent.map(|x| x.0),
        lone_agent_step_us: lone_us,
        gemm_backend,
        compare: other_rate.map(|rate| Compared {
            backend: other_phrase.clone().unwrap_or_default(),
            batched: other_batched,
            fleet_agent_steps_per_s: rate,
            fleet_share_of_limit: rate / limit,
            lone_agent_step_us: other_us,
            lone_step_speedup: other_us / lone_us,
            fleet_speedup: fleet_rate / rate,
        }),
    };
    if s.json {
        println!(
            "{}",
            serde_json::to_string(&r).map_err(|e| Failure::other(e.to_string()))?
        );
        return Ok(());
    }
    println!(
        "{} on {}, {} agents, {}",
        r.policy, r.backend, r.agents, r.world
    );
    println!(
        "  fleet          {:>12.0} agent-steps/s  ({} the batch)",
        r.fleet_agent_steps_per_s,
        if r.batched {
            "one backend call for"
        } else {
            "batch-1 file: one call per row of"
        }
    );
    match r.independent_agent_steps_per_s {
        Some(x) => println!(
            "  independent    {x:>12.0} agent-steps/s  (fleet: {:.2}x)",
            r.fleet_speedup.unwrap_or(f64::NAN)
        ),
        None => println!("  independent    (skipped)"),
    }
    println!(
        "  lone agent     {:>12.2} us per step",
        r.lone_agent_step_us
    );
    println!(
        "  limit          {:>12.0} agent-steps/s  (fleet: {:.0}% of it)",
        r.limit_agent_steps_per_s,
        100.0 * r.fleet_share_of_limit
    );
    println!(
        "  = GEMM {:.1} GFLOP/s ({n} x {n}, {}) / {} FLOPs per decision",
        r.gemm_flops_per_s / 1e9,
        r.gemm_backend,
        r.flops_per_decision,
        n = r.gemm_n
    );
    if let Some(c) = &r.compare {
        println!("  compared with {}:", c.backend);
        println!(
            "    fleet        {:>12.0} agent-steps/s  ({:.0}% of the limit; {} is {:.2}x)",
            c.fleet_agent_steps_per_s,
            100.0 * c.fleet_share_of_limit,
            r.backend,
            c.fleet_speedup
        );
        println!(
            "    lone agent   {:>12.2} us per step      ({} is {:.2}x faster)",
            c.lone_agent_step_us, r.backend, c.lone_step_speedup
        );
    }
    Ok(())
}
