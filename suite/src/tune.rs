//! Tuning the rule family to deployments: what an engineer does by hand for each deployment
//! and each model upgrade, and what `evoharness tune` and `evoharness eval --against
//! fixed-best|retuned` run.
//!
//! Every setting of [`TunedHarness::knobs`] is evaluated on the same organisations and seeds
//! ([`eval::run`]: an organisation's episodes in seed order on one agent). The **fixed-best**
//! setting earns the most over all of them: one rule for every deployment. The **retuned**
//! setting of an organisation earns the most in that organisation alone: the rule an engineer
//! who retunes for each deployment would ship there. [`FIXED_BEST`] is the fixed-best setting
//! tuned on training organisations and committed, so that an evaluation on other
//! organisations compares against what a team would have shipped.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::PathBuf;
use std::str::FromStr;

use evoharness_runtime::{Error, ErrorKind, PolicyBuilder, Result};
use serde::Serialize;

use crate::baselines::{AppendOnly, TunedHarness};
use crate::eval::{self, AgentSpec, EvalSpec};
use crate::world::SuiteWorld;
use crate::{Deployment, TaskConfig};

/// The fixed-best setting on v3: `evoharness tune --task T --organisations 0..48 --seeds
/// 0..480 --horizon 100` (training organisations; ten episodes each) finds this one in each of
/// the three families (`docs/src/suite.md` shows the output).
pub const FIXED_BEST: &str = "tuned:plain:guess-unknown:no-note:commit-6";

/// Where retuning for an organisation takes its episodes: seeds from here on, apart from any
/// seed the suite's evaluations use.
pub const RETUNE_SEEDS: u64 = 900_000_000;

/// Episodes per organisation that retuning evaluates each setting on.
pub const RETUNE_EPISODES: u64 = 16;

/// One setting's mean reward.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Setting {
    /// The rule's name ([`TunedHarness::label`]).
    pub rule: String,
    /// Its mean reward per episode.
    pub mean_reward: f64,
    /// Its share of successful episodes.
    pub success_rate: f64,
}

/// An organisation's deployment and the settings tuned for it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Organisation {
    /// The organisation.
    pub organisation: u64,
    /// Its deployment's region ([`Deployment::region`](crate::Deployment::region)); empty
    /// for v1 and v2 tasks.
    pub region: String,
    /// The setting that earns the most here.
    pub retuned: Setting,
    /// The fixed-best setting, here.
    pub fixed_best: Setting,
    /// Every setting's mean reward here, in [`TuneReport::rules`] order: what a search over
    /// the settings (`scripts/v3-search-space.py`) reads.
    pub rewards: Vec<f64>,
}

/// A region of deployments: which setting is best there, and what each kind of rule earns.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Region {
    /// Its name.
    pub region: String,
    /// Organisations in it.
    pub organisations: u64,
    /// The single setting that earns the most over the region.
    pub best: Setting,
    /// The mean reward over the region of the best single setting over every organisation
    /// (the report's `fixed_best`).
    pub best_overall_reward: f64,
    /// The mean, over the region's organisations, of each one's retuned setting's reward.
    pub retuned_reward: f64,
    /// The fixed rules' mean rewards over the region: `static-harness`, `lean-harness`,
    /// `tuned` (the v2 rule) and `fixed-best` (the committed [`FIXED_BEST`]).
    pub fixed_rules: BTreeMap<String, f64>,
}

/// What `evoharness tune` prints.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TuneReport {
    /// Settings tried.
    pub settings: usize,
    /// Their names ([`TunedHarness::label`]), in [`TunedHarness::knobs`] order.
    pub rules: Vec<String>,
    /// Episodes per setting.
    pub episodes: u64,
    /// The best single setting over every organisation.
    pub fixed_best: Setting,
    /// The mean over organisations of the retuned setting's reward, less the fixed-best
    /// setting's. In-sample (tuned and measured on the same episodes), so it overstates what
    /// retuning gains on new episodes; `eval --against retuned` measures that.
    pub retuning_gain: f64,
    /// Per region, in name order.
    pub regions: Vec<Region>,
    /// Per organisation.
    pub organisations: Vec<Organisation>,
}

/// Evaluates every setting of [`TunedHarness::knobs`] (and the static and lean rules, for
/// comparison) on `spec`'s organisations and seeds.
pub fn tune(spec: &EvalSpec) -> Result<TuneReport> {
    let rules = TunedHarness::knobs();
    let norg = (spec.organisations.end - spec.organisations.start) as usize;
    // The knobs' settings, then the static and lean rules: each one's episodes by
    // organisation index (episode `s` runs in organisation index `s % norg`).
    let agents: Vec<AgentSpec> = rules
        .iter()
        .map(|r| AgentSpec::Tuned(*r))
        .chain([AgentSpec::StaticHarness, AgentSpec::LeanHarness])
        .collect();
    let mut runs = vec![vec![Vec::new(); norg]; agents.len()];
    for (a, agent) in agents.iter().enumerate() {
        let (_, episodes) = eval::run(spec, agent, &|_, _| {})?;
        for (s, e) in spec.seeds.clone().zip(episodes) {
            runs[a][(s % norg as u64) as usize].push(e);
        }
    }
    // Agent `a`'s setting over the organisation indices `orgs`.
    let setting = |a: usize, orgs: &[usize]| {
        let eps = || orgs.iter().flat_map(|&o| &runs[a][o]);
        let n = eps().count().max(1) as f64;
        Setting {
            rule: agents[a].name(),
            mean_reward: eps().map(|e| e.reward).sum::<f64>() / n,
            success_rate: eps().filter(|e| e.success).count() as f64 / n,
        }
    };
    // The first of the knobs' settings that earns the most over `orgs`.
    let best_over = |orgs: &[usize]| {
        (0..rules.len())
            .map(|r| setting(r, orgs))
            .reduce(|b, s| if s.mean_reward > b.mean_reward { s } else { b })
            .expect("at least one setting")
    };
    let position = |label: &str| agents.iter().position(|a| a.name() == label);
    let every: Vec<usize> = (0..norg).collect();
    let fixed_best = best_over(&every);
    let fixed = position(&fixed_best.rule).unwrap_or(0);
    let named = [
        ("static-harness", position("static-harness")),
        ("lean-harness", position("lean-harness")),
        ("tuned", position(&TunedHarness::default().label())),
        ("fixed-best", position(FIXED_BEST)),
    ];
    let organisations: Vec<Organisation> = every
        .iter()
        .map(|&o| {
            let organisation = organisation_of(&spec.organisations, o);
            Organisation {
                organisation,
                region: SuiteWorld::new(spec.task, organisation)
                    .config()
                    .deployment
                    .map(|d| d.region())
                    .unwrap_or_default(),
                retuned: best_over(&[o]),
                fixed_best: setting(fixed, &[o]),
                rewards: (0..rules.len())
                    .map(|r| setting(r, &[o]).mean_reward)
                    .collect(),
            }
        })
        .collect();
    let mean = |xs: &mut dyn Iterator<Item = f64>| {
        let (sum, n) = xs.fold((0.0, 0), |(s, n), x| (s + x, n + 1));
        sum / f64::from(n.max(1))
    };
    let retuning_gain = mean(
        &mut organisations
            .iter()
            .map(|o| o.retuned.mean_reward - o.fixed_best.mean_reward),
    );
    let mut by_region: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (o, org) in organisations.iter().enumerate() {
        by_region.entry(org.region.clone()).or_default().push(o);
    }
    let regions = by_region
        .into_iter()
        .map(|(region, orgs)| Region {
            organisations: orgs.len() as u64,
            best: best_over(&orgs),
            best_overall_reward: setting(fixed, &orgs).mean_reward,
            retuned_reward: mean(&mut orgs.iter().map(|&o| organisations[o].retuned.mean_reward)),
            fixed_rules: named
                .iter()
                .filter_map(|&(name, a)| Some((name.to_string(), setting(a?, &orgs).mean_reward)))
                .collect(),
            region,
        })
        .collect();
    Ok(TuneReport {
        settings: rules.len(),
        rules: rules.iter().map(TunedHarness::label).collect(),
        episodes: spec.seeds.end - spec.seeds.start,
        fixed_best,
        retuning_gain,
        regions,
        organisations,
    })
}

/// The organisation that index `o` of the organisations' range stands for. Episode `s` of an
/// evaluation runs in organisation `start + s % len` ([`eval`]), so index `o` collects the
/// seeds with `s % len == o`, which run in organisation `start + o`.
fn organisation_of(organisations: &Range<u64>, o: usize) -> u64 {
    organisations.start + o as u64
}

/// The setting retuned for `organisation`: the best of [`TunedHarness::knobs`] over
/// [`RETUNE_EPISODES`] episodes of that organisation from [`RETUNE_SEEDS`] on (seeds no
/// evaluation uses), on one thread.
pub fn retune(task: TaskConfig, organisation: u64, max_steps: u64) -> Result<TunedHarness> {
    retune_among(task, organisation, max_steps, &TunedHarness::knobs())
}

/// Where the `retuned` teacher of training ([`Teacher::Retuned`](crate::Teacher::Retuned))
/// searches each deployment: four settings that hold the retuning gain. Chosen on training
/// organisations alone (`scripts/v3-search-space.py`: forward selection from [`FIXED_BEST`],
/// each organisation of 0–599 tuned on 16 episodes and measured on 16 others): retuning over
/// these four gains +0.0251 ± 0.0026 over fixed-best there, over all 96 settings +0.0242 ±
/// 0.0026. Two decisions span them, memory (recall and note lessons, or neither) and
/// commits (every six landings or never), and a policy that must learn which fits a
/// deployment from its card learns two decisions, not 96 rules.
pub const SEARCH_SPACE: [&str; 4] = [
    FIXED_BEST,
    "tuned:recall:guess-unknown:commit-6",
    "tuned:plain:guess-unknown:no-note",
    "tuned:plain:no-note",
];

/// The `regional` rule and teacher: the setting of [`SEARCH_SPACE`] for a deployment whose card
/// says `model` and `machines` (`(model, machines, setting)`). Found by reward, like
/// [`FIXED_BEST`], on training organisations alone (`scripts/v3-search-space.py --regional`:
/// organisations 0–599, 16 episodes each, every setting of the space pooled over the
/// organisations whose cards agree on the model's and the machines' tier; the setting with the
/// most reward). Measured on 16 other episodes of each it gains +0.0243 ± 0.0026 over
/// fixed-best there, where retuning each organisation over the space gains +0.0251: the card's
/// two tiers carry the retuning gain. The one function from card to behaviour that reward
/// found, not written by hand; a policy that reads the card can learn it.
pub const REGIONAL: [(&str, &str, &str); 4] = [
    ("strong", "flaky", FIXED_BEST),
    ("strong", "stable", "tuned:plain:guess-unknown:no-note"),
    ("weak", "flaky", "tuned:recall:guess-unknown:commit-6"),
    ("weak", "stable", "tuned:plain:guess-unknown:no-note"),
];

/// The [`REGIONAL`] setting of `organisation`'s deployment, which keeps the card like
/// [`Teacher::FixedBest`](crate::Teacher::FixedBest) does (v1 and v2 tasks: the fixed-best
/// setting). Tunes nothing: `max_steps` is there to fit [`Retune`](crate::eval::Retune).
pub fn regional(task: TaskConfig, organisation: u64, _max_steps: u64) -> Result<TunedHarness> {
    regional_for(task.deployed(organisation).deployment)
}

/// The [`REGIONAL`] setting of a deployment (none: v1 and v2 tasks, the fixed-best setting),
/// keeping the card. A table lookup: the teacher asks it at every step of every environment.
pub fn regional_for(deployment: Option<Deployment>) -> Result<TunedHarness> {
    let rule = deployment
        .and_then(|d| {
            REGIONAL
                .iter()
                .find(|(m, c, _)| *m == d.model.name() && *c == d.machines.name())
        })
        .map_or(FIXED_BEST, |&(_, _, rule)| rule);
    TunedHarness::parse(rule)
        .map(TunedHarness::with_card)
        .ok_or_else(|| Error::new(ErrorKind::Config, "REGIONAL holds rules"))
}

/// [`SEARCH_SPACE`] as rules (every name in it parses: a test says so).
pub fn search_space() -> Vec<TunedHarness> {
    SEARCH_SPACE
        .iter()
        .filter_map(|r| TunedHarness::parse(r))
        .collect()
}

/// The best of `rules` for `organisation` (the first of equals), as [`retune`] measures it.
pub fn retune_among(
    task: TaskConfig,
    organisation: u64,
    max_steps: u64,
    rules: &[TunedHarness],
) -> Result<TunedHarness> {
    let spec = EvalSpec {
        organisations: organisation..organisation + 1,
        threads: 1,
        max_steps,
        ..EvalSpec::new(task, RETUNE_SEEDS..RETUNE_SEEDS + RETUNE_EPISODES)
    };
    let mut best = (f64::NEG_INFINITY, TunedHarness::default());
    for &rule in rules {
        let (report, _) = eval::run(&spec, &AgentSpec::Tuned(rule), &|_, _| {})?;
        if report.mean_reward > best.0 {
            best = (report.mean_reward, rule);
        }
    }
    Ok(best.1)
}

impl FromStr for AgentSpec {
    type Err = String;

    /// `append-only`, `append-only:W`, `static-harness`, `static-lean-harness`, `lean-harness`, `tuned` (or
    /// `tuned:plain`, `tuned:recall`, `tuned:favourite`, each with the v3 knobs and an
    /// optional hint as [`TunedHarness::label`] writes them), `fixed-best` (the committed
    /// [`FIXED_BEST`] setting), `retuned`, `regional` ([`REGIONAL`]), `oracle`, `random` or
    /// `policy:PATH` (loaded with the default [`PolicyBuilder`]).
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        Ok(match s {
            "append-only" => AgentSpec::AppendOnly(AppendOnly::DEFAULT_WINDOW),
            "static-harness" => AgentSpec::StaticHarness,
            "static-lean-harness" => AgentSpec::StaticLean,
            "lean-harness" => AgentSpec::LeanHarness,
            "oracle" => AgentSpec::Oracle,
            "random" => AgentSpec::Random,
            "retuned" => AgentSpec::Retuned(retune),
            "regional" => AgentSpec::Regional(regional),
            "fixed-best" => {
                AgentSpec::Tuned(TunedHarness::parse(FIXED_BEST).ok_or("FIXED_BEST is a rule")?)
            }
            _ => {
                if let Some(t) = TunedHarness::parse(s) {
                    AgentSpec::Tuned(t)
                } else if let Some(w) = s.strip_prefix("append-only:") {
                    let w = w.parse::<usize>().ok().filter(|&w| w >= 2).ok_or_else(|| {
                        format!("append-only:W needs a window W of at least 2, not {w:?}")
                    })?;
                    AgentSpec::AppendOnly(w)
                } else if let Some(p) = s.strip_prefix("policy:").filter(|p| !p.is_empty()) {
                    AgentSpec::Policy(PathBuf::from(p), PolicyBuilder::new())
                } else {
                    return Err(format!(
                        "unknown agent {s:?}: expected append-only[:W], static-harness, static-lean-harness, lean-harness, tuned[:plain|recall|favourite][:guess-unknown|guess-first][:no-note][:commit-K][:card][:hint-usual|drift|unknown|all], fixed-best, retuned, regional, oracle, random or policy:PATH"
                    ));
                }
            }
        })
    }
}
