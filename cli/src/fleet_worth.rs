//! `evoharness fleet worth`: what sharing lessons through a fleet database is worth, measured
//! on the task suite. A fleet of agents, one per organisation, learns on its organisation and
//! pushes its store; then on each organisation a new agent that pulls the fleet's store
//! before its first episode and a new agent that starts empty run the same episodes, paired.

use evoharness_fleet::FleetDb;
use evoharness_runtime::Agent;
use evoharness_suite::eval::AgentSpec;
use evoharness_suite::{Scenario, SuiteWorld, TaskConfig, episode};
use serde::Serialize;

use crate::args::{Parsed, Usage};
use crate::eval::{parse_horizon, parse_organisations, parse_range, task_and_scenario};
use crate::failure::Failure;

/// A mean and the half-width of its 95% interval (normal approximation).
#[derive(Clone, Copy, Debug, Serialize)]
struct Mean {
    mean: f64,
    ci95: f64,
}

fn mean(xs: &[f64]) -> Mean {
    let n = xs.len() as f64;
    let m = xs.iter().sum::<f64>() / n;
    let var = if xs.len() > 1 {
        xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    Mean {
        mean: m,
        ci95: 1.96 * (var / n).sqrt(),
    }
}

/// One side of the pairs: the agent that pulled, or the one that started empty.
#[derive(Debug, Serialize)]
struct Side {
    reward: Mean,
    failed_remedies: Mean,
    success_rate: f64,
}

/// Pulled minus empty, episode by episode.
#[derive(Debug, Serialize)]
struct Gain {
    reward: Mean,
    failed_remedies: Mean,
}

#[derive(Debug, Serialize)]
struct Report {
    task: String,
    agent: String,
    organisations: u64,
    fleet_episodes_per_organisation: u64,
    pairs: usize,
    fleet_replicas: usize,
    fleet_lessons: usize,
    pulled: Side,
    empty: Side,
    gain: Gain,
    /// The same, on each organisation's first episode only (where an empty agent knows least).
    first_episode_gain: Gain,
}

/// One episode's reward and failed remedies.
fn episode<C: evoharness_runtime::controller::Controller<SuiteWorld>>(
    agent: &mut Agent<SuiteWorld, C>,
    seed: u64,
) -> Result<(f64, f64, bool), Failure> {
    let stats = episode::run(agent, seed, u64::MAX, None).map_err(|e| Failure::runtime(&e))?;
    let failed = f64::from(agent.world().failed_remedies());
    Ok((stats.reward, failed, stats.success))
}

pub(crate) fn main(p: &Parsed, url: &str) -> Result<(), Failure> {
    let usage = |m: String| Usage::new("fleet", m);
    let (kind, scenario) = task_and_scenario(p, "fleet", Scenario::V2)?;
    let horizon = match p.value("--horizon") {
        None => 100,
        Some(h) => parse_horizon(h)
            .ok_or_else(|| usage(format!("`--horizon {h}`: expected 1 to 1000000 steps")))?,
    };
    let range = |flag: &str, default: std::ops::Range<u64>| match p.value(flag) {
        None => Ok(default),
        Some(v) => parse_range(v)
            .ok_or_else(|| usage(format!("`{flag} {v}`: expected a range A..B with A < B"))),
    };
    let organisations = match p.value("--organisations") {
        None => 0..16,
        Some(v) => parse_organisations(v)
            .ok_or_else(|| usage(format!("`--organisations {v}`: expected N or A..B")))?,
    };
    let train = range("--train-seeds", 0..20)?;
    let seeds = range("--seeds", 100_000..100_040)?;
    let spec: AgentSpec = p
        .value("--agent")
        .unwrap_or("tuned")
        .parse()
        .map_err(|m: String| usage(m))?;
    if matches!(spec, AgentSpec::Policy(..)) {
        return Err(usage(
            "`fleet worth --agent` takes a baseline (tuned, lean-harness, ...)".into(),
        )
        .into());
    }
    let task = TaskConfig::of(scenario, kind, horizon);
    if task.store().is_none() {
        return Err(usage(format!(
            "{scenario:?} agents have no experience store: sharing needs --scenario v2 or v3"
        ))
        .into());
    }
    let sync = |e: evoharness_fleet::SyncError| Failure::other(format!("{url}: {e}"));
    let mut db = FleetDb::open(url).map_err(sync)?;
    if !db.rows().map_err(sync)?.is_empty() {
        return Err(Failure::other(format!(
            "{url}: the database holds replicas already; measure with an empty one"
        )));
    }
    let new_agent = |organisation: u64, replica: u64| -> Result<_, Failure> {
        let world = SuiteWorld::new(task, organisation);
        let config = episode::agent_config(world.config(), replica);
        let ctl = spec.build().map_err(|e| Failure::runtime(&e))?;
        let mut agent = Agent::new(ctl, world, config).map_err(|e| Failure::runtime(&e))?;
        let mut store = task.store().expect("checked above");
        store.become_replica(replica);
        agent.set_experience_store(store);
        Ok(agent)
    };
    // The fleet: one agent per organisation learns there, then pushes.
    for o in organisations.clone() {
        let mut a = new_agent(o, o + 1)?;
        for s in train.clone() {
            episode(&mut a, s)?;
        }
        db.push(a.experience_store().expect("given above"))
            .map_err(sync)?;
    }
    // New agents, paired: one pulls the fleet before its first episode, one starts empty.
    let (mut pulled, mut empty, mut first_pulled, mut first_empty) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut fleet_replicas = 0;
    let mut fleet_lessons = 0;
    for o in organisations.clone() {
        let mut a = new_agent(o, 1_000_000 + o)?;
        let pull = db
            .pull(a.experience_store_mut().expect("given above"))
            .map_err(sync)?;
        fleet_replicas = pull.replicas;
        fleet_lessons = a.experience_store().map_or(0, |s| s.len());
        let mut b = new_agent(o, 2_000_000 + o)?;
        for (i, s) in seeds.clone().enumerate() {
            let x = episode(&mut a, s)?;
            let y = episode(&mut b, s)?;
            if i == 0 {
                first_pulled.push(x);
                first_empty.push(y);
            }
            pulled.push(x);
            empty.push(y);
        }
    }
    let side = |v: &[(f64, f64, bool)]| Side {
        reward: mean(&v.iter().map(|e| e.0).collect::<Vec<_>>()),
        failed_remedies: mean(&v.iter().map(|e| e.1).collect::<Vec<_>>()),
        success_rate: v.iter().filter(|e| e.2).count() as f64 / v.len() as f64,
    };
    let gain = |a: &[(f64, f64, bool)], b: &[(f64, f64, bool)]| Gain {
        reward: mean(&a.iter().zip(b).map(|(x, y)| x.0 - y.0).collect::<Vec<_>>()),
        failed_remedies: mean(&a.iter().zip(b).map(|(x, y)| x.1 - y.1).collect::<Vec<_>>()),
    };
    let report = Report {
        task: format!("{kind:?} {scenario:?} horizon {horizon}"),
        agent: spec.name(),
        organisations: organisations.end - organisations.start,
        fleet_episodes_per_organisation: train.end - train.start,
        pairs: pulled.len(),
        fleet_replicas,
        fleet_lessons,
        gain: gain(&pulled, &empty),
        first_episode_gain: gain(&first_pulled, &first_empty),
        pulled: side(&pulled),
        empty: side(&empty),
    };
    if p.switch("--json") {
        let json = serde_json::to_string_pretty(&report)
            .map_err(|e| Failure::other(format!("writing JSON: {e}")))?;
        println!("{json}");
    } else {
        let r = &report;
        let m = |x: Mean| format!("{:+.4} ± {:.4}", x.mean, x.ci95);
        println!(
            "{} ({}): a fleet of {} agents, {} episodes each, pushed {} replicas ({} lessons)",
            r.task,
            r.agent,
            r.organisations,
            r.fleet_episodes_per_organisation,
            r.fleet_replicas,
            r.fleet_lessons
        );
        println!(
            "{} pairs of new agents: pulled the fleet's store / started empty",
            r.pairs
        );
        println!(
            "  reward           {:.4} / {:.4}   gain {}   (first episode: {})",
            r.pulled.reward.mean,
            r.empty.reward.mean,
            m(r.gain.reward),
            m(r.first_episode_gain.reward)
        );
        println!(
            "  failed remedies  {:.3} / {:.3}   gain {}   (first episode: {})",
            r.pulled.failed_remedies.mean,
            r.empty.failed_remedies.mean,
            m(r.gain.failed_remedies),
            m(r.first_episode_gain.failed_remedies)
        );
        println!(
            "  success          {:.1}% / {:.1}%",
            100.0 * r.pulled.success_rate,
            100.0 * r.empty.success_rate
        );
    }
    Ok(())
}
