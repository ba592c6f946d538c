//! `evoharness tune`: the rule family's best setting for a set of deployments, and for each.

use evoharness_suite::eval::EvalSpec;
use evoharness_suite::tune::{self, TuneReport};
use evoharness_suite::{Scenario, TaskConfig};

use crate::args::{self, Flag, Usage};
use crate::eval::{parse_horizon, parse_organisations, parse_range, task_and_scenario, threads};
use crate::failure::Failure;
use crate::options::HELP_HELP;

const FLAGS: &[Flag] = &[
    Flag::value("--task", "migration, records or orchestration"),
    Flag::value("--scenario", "v1, v2 or v3"),
    Flag::value("--organisations", "a number N or a range A..B"),
    Flag::value("--seeds", "a range A..B"),
    Flag::value("--horizon", "a number of steps"),
    Flag::value("--threads", "a number of threads"),
    Flag::switch("--json"),
];

pub(crate) fn help() -> String {
    format!(
        "\
evoharness tune: tune the rule family's knobs to deployments, as an engineer would by hand

Usage:
  evoharness tune --task TASK --scenario v3 --organisations A..B --seeds C..D [OPTIONS]

Every setting of the tuned rule's knobs (recalls, favourite-first guesses, trusting the
acting model's remedy guess, notes, commit cadence: 96 rules) runs on the same episodes:
episode s in organisation A + s mod (B-A), an organisation's episodes in order on one agent.
Prints the best single setting over every organisation (the fixed-best of these
deployments), and per region of deployments the static, lean and v2 tuned rules' rewards,
the committed fixed-best setting's (tuned on training organisations), the best single setting
there, and the mean of each organisation's retuned setting (the most reward there). The
retuned figures are in-sample: `evoharness eval --against retuned` measures retuning on
episodes it did not tune on.

Options:
  --task TASK          migration, records or orchestration
  --scenario v1|v2|v3  the suite's version (default v3)
  --organisations N|A..B
                       organisations (default 0..16)
  --seeds A..B         episode seeds (default 0..160)
  --horizon H          the task's size in steps (default 100)
  --threads N          worker threads (default: one per core)
  --json               print one JSON object instead of a table
{HELP_HELP}"
    )
}

pub(crate) fn main(argv: impl Iterator<Item = String>) -> Result<(), Failure> {
    let p = args::parse("tune", FLAGS, argv)?;
    if p.help {
        print!("{}", help());
        return Ok(());
    }
    p.positionals::<0>([])?;
    let usage = |m: String| Usage::new("tune", m);
    let (kind, scenario) = task_and_scenario(&p, "tune", Scenario::V3)?;
    let organisations = match p.value("--organisations") {
        None => 0..16,
        Some(v) => parse_organisations(v).ok_or_else(|| {
            usage(format!(
                "`--organisations {v}`: expected a number above 0 or a range A..B with A < B"
            ))
        })?,
    };
    let seeds = match p.value("--seeds") {
        None => 0..160,
        Some(v) => parse_range(v)
            .ok_or_else(|| usage(format!("`--seeds {v}`: expected a range A..B with A < B")))?,
    };
    let horizon = match p.value("--horizon") {
        None => 100,
        Some(h) => parse_horizon(h).ok_or_else(|| {
            usage(format!(
                "`--horizon {h}`: expected a number of steps, 1 to 1000000"
            ))
        })?,
    };
    let threads = threads(&p, "tune")?;
    let spec = EvalSpec {
        organisations,
        threads,
        ..EvalSpec::new(TaskConfig::of(scenario, kind, horizon), seeds)
    };
    let report = tune::tune(&spec).map_err(|e| Failure::runtime(&e))?;
    if p.switch("--json") {
        let json = serde_json::to_string_pretty(&report)
            .map_err(|e| Failure::other(format!("writing JSON: {e}")))?;
        println!("{json}");
    } else {
        print!("{}", table(&report));
    }
    Ok(())
}

fn table(r: &TuneReport) -> String {
    let mut out = format!(
        "{} settings, {} episodes each\nfixed-best  {}  reward {:.4}, success {:.1}%\nretuning gains {:+.4} over it (in-sample)\n\n",
        r.settings,
        r.episodes,
        r.fixed_best.rule,
        r.fixed_best.mean_reward,
        100.0 * r.fixed_best.success_rate,
        r.retuning_gain
    );
    out.push_str(
        "region                orgs  static   lean     tuned    fixed-best  best there                                    reward   retuned\n",
    );
    for g in &r.regions {
        let rule = |k: &str| g.fixed_rules.get(k).copied().unwrap_or(f64::NAN);
        out.push_str(&format!(
            "{:<21} {:>4}  {:>7.4}  {:>7.4}  {:>7.4}  {:>10.4}  {:<44} {:>7.4}  {:>7.4}\n",
            if g.region.is_empty() { "-" } else { &g.region },
            g.organisations,
            rule("static-harness"),
            rule("lean-harness"),
            rule("tuned"),
            rule("fixed-best"),
            g.best.rule,
            g.best.mean_reward,
            g.retuned_reward
        ));
    }
    out.push_str(&format!(
        "\n(fixed-best: the committed setting {}; best there and retuned: tuned on these episodes)\n",
        evoharness_suite::tune::FIXED_BEST
    ));
    out
}
