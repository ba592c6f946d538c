//! `evoharness eval`: run an agent on the task suite and report, or sweep horizons into a plot.

use std::io::{IsTerminal, Write};
use std::ops::Range;
use std::sync::Mutex;
use std::time::Instant;

use evoharness_suite::eval::{self, AgentSpec, EvalReport, EvalSpec, Paired};
use evoharness_suite::{ModelTier, Scenario, TaskConfig, TaskKind};

use crate::args::{self, Flag, Parsed, Usage};
use crate::failure::Failure;
use crate::options::{self, BACKEND_FLAGS, BACKEND_HELP, DEVICE_FLAGS, DEVICE_HELP, HELP_HELP};

const FLAGS: &[Flag] = &[
    Flag::value("--task", "migration, records or orchestration"),
    Flag::value(
        "--agent",
        "append-only[:W], static-harness, lean-harness, tuned[:KNOBS], fixed-best, retuned, regional, oracle, random or policy:PATH",
    ),
    Flag::value("--against", "an agent, as --agent takes"),
    Flag::value("--seeds", "a range A..B"),
    Flag::value("--horizon", "a number of steps"),
    Flag::value("--scenario", "v1, v2 or v3"),
    Flag::value("--model", "weak or strong"),
    Flag::value("--organisations", "a number N or a range A..B"),
    // The name this flag had before organisations were called so.
    Flag::value("--families", "a number N or a range A..B"),
    Flag::value("--trace", "a file"),
    Flag::value("--threads", "a number of threads"),
    Flag::switch("--json"),
    Flag::switch("--sweep"),
    Flag::value("--horizons", "a comma-separated list of horizons"),
    Flag::value("--agents", "a comma-separated list of agents"),
    Flag::value("--out", "an SVG file to write"),
    BACKEND_FLAGS[0],
    BACKEND_FLAGS[1],
    DEVICE_FLAGS[0],
    DEVICE_FLAGS[1],
    Flag::value("--policy-threads", "a number of threads"),
];

/// The default horizons of a sweep.
const SWEEP_HORIZONS: [u32; 6] = [50, 100, 300, 1_000, 3_000, 10_000];

pub(crate) fn help() -> String {
    format!(
        "\
evoharness eval: run an agent on the task suite and report what it did

Usage:
  evoharness eval --task TASK --agent AGENT --seeds A..B --horizon H [OPTIONS]
  evoharness eval --sweep --task TASK --seeds A..B --out PLOT.svg [OPTIONS]

Options:
  --task TASK          migration, records or orchestration
  --agent AGENT        append-only (or append-only:W for a window of W entries; default 48),
                       static-harness, static-lean-harness (its bookkeeping around the lean
                       rule), lean-harness, tuned (the best rule for v2; variants
                       tuned:plain, tuned:recall, tuned:favourite; v3 knobs after it:
                       :guess-unknown or :guess-first, :no-note, :commit-K, :card (the
                       deployment card kept in Belief); any of them with
                       :hint-usual, :hint-drift, :hint-unknown or :hint-all reads that
                       part of the hidden remedies: a bound, not a rule), fixed-best (the
                       committed best single setting for v3), retuned (v3: in each
                       organisation the setting `evoharness tune` finds best on episodes of
                       its own the evaluation does not use), regional (v3: the setting
                       reward found for the deployment card's model and machines tiers,
                       on training organisations), oracle, random, or
                       policy:PATH (a policy made for the suite: 16 facts, 8 steps, 4 lessons,
                       8 tools)
  --against AGENT      also run AGENT (any --agent) on the same episodes and report the mean
                       gain in reward over it, episode by episode, with its standard error:
                       far tighter than the two agents' own intervals (not with --sweep)
  --seeds A..B         episode seeds A to B-1 (default 0..100)
  --horizon H          the task's size in steps, 1 to 1000000 (the suite is made for about 50
                       to 100000; default 1000)
  --scenario v1|v2|v3  the suite's version (default v1): v2 has twelve error codes per
                       organisation, remedies that drift, a back-off after a failed remedy, an
                       experience store behind each agent's working set, world calls and
                       commits that cost two units of budget, and per-item fault draws; v3 is
                       v2 in a deployment each organisation draws (memory prices, back-off,
                       store lifetime, the acting model's remedy guesses, machine crashes)
  --model weak|strong  v3: every deployment's acting model in this tier, in place of the one
                       it draws, the rest of the deployment as drawn: the same organisations
                       before and after a model upgrade (the card says the new tier)
  --organisations N|A..B
                       episode s runs in organisation A + s mod (B-A) (an organisation decides
                       the error codes and their remedies), and an organisation's episodes run
                       in order on one agent, keeping what it noted (default 4, i.e. 0..4)
  --trace FILE         write every step's trace record (JSON lines, the agent's own format),
                       organisations in order, episodes in seed order; runs on one thread
  --threads N          worker threads (default: one per core; organisations run in parallel)
  --json               print one JSON object (a JSON array with --sweep) instead of a table
  --sweep              run every agent at every horizon and plot success rate against horizon
  --horizons H,H,...   the sweep's horizons (default {})
  --agents A,A,...     the sweep's agents (default: the five baselines oracle, static-harness,
                       lean-harness, append-only and random, plus --agent if given)
  --out FILE           where the sweep writes its SVG plot (required with --sweep)
{BACKEND_HELP}{DEVICE_HELP_SHORT}  --policy-threads N   intra-op threads of a policy (ONNX Runtime)
{HELP_HELP}
A progress bar is drawn on stderr when it is a terminal.
",
        SWEEP_HORIZONS.map(|h| h.to_string()).join(",")
    )
}

const DEVICE_HELP_SHORT: &str =
    "  --device DEVICE      where a policy runs: cpu (default), cuda[:N] or tensorrt[:N]
  --cpu-fallback       run a policy on the CPU when the device is not available
";

pub(crate) fn main(argv: impl Iterator<Item = String>) -> Result<(), Failure> {
    let p = args::parse("eval", FLAGS, argv)?;
    if p.help {
        print!("{}", help());
        return Ok(());
    }
    let _ = DEVICE_HELP;
    p.positionals::<0>([])?;
    let usage = |m: String| Usage::new("eval", m);
    let (kind, scenario) = task_and_scenario(&p, "eval", Scenario::default())?;
    let seeds = range(&p, "--seeds")?.unwrap_or(0..100);
    let (flag, given) = match p.value("--organisations") {
        Some(v) => ("--organisations", Some(v)),
        None => ("--families", p.value("--families")),
    };
    let organisations = match given {
        None => 0..4,
        Some(v) => parse_organisations(v).ok_or_else(|| {
            usage(format!(
                "`{flag} {v}`: expected a number above 0 or a range A..B with A < B"
            ))
        })?,
    };
    let threads = threads(&p, "eval")?;
    let json = p.switch("--json");
    let model = match p.value("--model") {
        None => None,
        Some(_) if scenario != Scenario::V3 => {
            return Err(usage("--model goes with --scenario v3".into()).into());
        }
        Some(m) => Some(
            ModelTier::parse(m)
                .ok_or_else(|| usage(format!("`--model {m}`: expected weak or strong")))?,
        ),
    };
    let agent = p.value("--agent").map(|a| parse_agent(&p, a)).transpose()?;
    if p.switch("--sweep") && p.value("--trace").is_some() {
        return Err(usage("--trace goes with one evaluation, not --sweep".into()).into());
    }
    if p.switch("--sweep") && p.value("--against").is_some() {
        return Err(usage("--against goes with one evaluation, not --sweep".into()).into());
    }
    let against = p
        .value("--against")
        .map(|a| parse_agent(&p, a))
        .transpose()?;
    if p.switch("--sweep") {
        let out = p
            .value("--out")
            .ok_or_else(|| usage("--sweep needs --out FILE.svg".into()))?;
        let horizons = match p.value("--horizons") {
            None => SWEEP_HORIZONS.to_vec(),
            Some(v) => v
                .split(',')
                .map(|h| parse_horizon(h.trim()))
                .collect::<Option<Vec<_>>>()
                .filter(|v| !v.is_empty())
                .ok_or_else(|| {
                    usage(format!(
                        "`--horizons {v}`: expected horizons 1 to 1000000, comma-separated"
                    ))
                })?,
        };
        let mut agents = match p.value("--agents") {
            None => AgentSpec::baselines().to_vec(),
            Some(v) => v
                .split(',')
                .map(|a| parse_agent(&p, a.trim()))
                .collect::<Result<Vec<_>, _>>()?,
        };
        if let Some(a) = agent
            && p.value("--agents").is_none()
        {
            agents.push(a);
        }
        return sweep(
            TaskConfig {
                model,
                ..TaskConfig::of(scenario, kind, 1)
            },
            &agents,
            &horizons,
            seeds,
            organisations,
            threads,
            json,
            out,
        );
    }
    if p.value("--horizons").is_some()
        || p.value("--agents").is_some()
        || p.value("--out").is_some()
    {
        return Err(usage("--horizons, --agents and --out go with --sweep".into()).into());
    }

    let agent = agent.ok_or_else(|| usage("missing --agent (or --sweep)".into()))?;
    let horizon = match p.value("--horizon") {
        None => 1_000,
        Some(h) => parse_horizon(h).ok_or_else(|| {
            usage(format!(
                "`--horizon {h}`: expected a number of steps, 1 to 1000000"
            ))
        })?,
    };
    let spec = EvalSpec {
        task: TaskConfig {
            model,
            ..TaskConfig::of(scenario, kind, horizon)
        },
        seeds,
        organisations,
        threads,
        max_steps: u64::MAX,
        trace: p.value("--trace").map(std::path::PathBuf::from),
    };
    let (mut report, mine) = evaluate(&spec, &agent)?;
    if let Some(other) = against {
        // The same episodes for the other agent; the trace is the first agent's alone.
        let spec = EvalSpec {
            trace: None,
            ..spec
        };
        let (theirs, episodes) = evaluate(&spec, &other)?;
        report.paired =
            Some(Paired::new(theirs.agent, &mine, &episodes).map_err(|e| Failure::runtime(&e))?);
    }
    if json {
        println!("{}", serde_json::to_string(&report).unwrap_or_default());
    } else {
        print!("{}", table(&report));
    }
    Ok(())
}

fn parse_agent(p: &Parsed, a: &str) -> Result<AgentSpec, Failure> {
    let spec: AgentSpec = a.parse().map_err(|m| Usage::new("eval", m))?;
    Ok(match spec {
        AgentSpec::Policy(path, _) => {
            let choice = options::choice(p, "eval")?;
            // --threads is the number of workers here; each runs its own policy with
            // --policy-threads (default 1) so that they do not compete for cores.
            let n = p.parse::<usize>("--policy-threads", "a number of threads above 0")?;
            AgentSpec::Policy(path, choice.builder().threads(n.unwrap_or(1).max(1)))
        }
        other => other,
    })
}

/// `--task` (required) and `--scenario` (else `default`) of command `cmd`.
pub(crate) fn task_and_scenario(
    p: &Parsed,
    cmd: &'static str,
    default: Scenario,
) -> Result<(TaskKind, Scenario), Usage> {
    let usage = |m: String| Usage::new(cmd, m);
    let kind: TaskKind = p
        .value("--task")
        .ok_or_else(|| usage("missing --task (migration, records or orchestration)".into()))?
        .parse()
        .map_err(usage)?;
    let scenario = p
        .value("--scenario")
        .map(str::parse)
        .transpose()
        .map_err(usage)?
        .unwrap_or(default);
    Ok((kind, scenario))
}

/// `--threads` of command `cmd`: above 0; one per core if not given.
pub(crate) fn threads(p: &Parsed, cmd: &'static str) -> Result<usize, Failure> {
    match p.parse::<usize>("--threads", "a number of threads above 0")? {
        Some(0) => Err(Usage::new(cmd, "`--threads 0`: expected a number above 0").into()),
        Some(n) => Ok(n),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

pub(crate) fn parse_horizon(h: &str) -> Option<u32> {
    h.parse().ok().filter(|h| (1..=1_000_000).contains(h))
}

pub(crate) fn parse_range(v: &str) -> Option<Range<u64>> {
    let (a, b) = v.split_once("..")?;
    let (a, b) = (a.parse().ok()?, b.parse().ok()?);
    (a < b).then_some(a..b)
}

pub(crate) fn parse_organisations(v: &str) -> Option<Range<u64>> {
    parse_range(v).or_else(|| v.parse::<u64>().ok().filter(|&n| n > 0).map(|n| 0..n))
}

fn range(p: &Parsed, flag: &str) -> Result<Option<Range<u64>>, Usage> {
    p.value(flag)
        .map(|v| {
            parse_range(v).ok_or_else(|| {
                Usage::new(
                    "eval",
                    format!("`{flag} {v}`: expected a range A..B with A < B"),
                )
            })
        })
        .transpose()
}

/// A progress bar on stderr, when it is a terminal and the run is not trivial.
struct Progress {
    on: bool,
    label: String,
    last: Mutex<Instant>,
}

impl Progress {
    fn new(label: String) -> Self {
        Self {
            on: std::io::stderr().is_terminal(),
            label,
            last: Mutex::new(Instant::now()),
        }
    }

    fn tick(&self, done: u64, total: u64) {
        if !self.on {
            return;
        }
        let Ok(mut last) = self.last.lock() else {
            return;
        };
        if done < total && last.elapsed().as_millis() < 100 {
            return;
        }
        *last = Instant::now();
        let width = 30;
        let filled = (done * width / total.max(1)) as usize;
        let mut err = std::io::stderr().lock();
        let _ = write!(
            err,
            "\r{} [{}{}] {done}/{total} episodes",
            self.label,
            "#".repeat(filled),
            " ".repeat(width as usize - filled)
        );
        if done == total {
            let _ = write!(
                err,
                "\r{}\r",
                " ".repeat(self.label.len() + width as usize + 40)
            );
        }
        let _ = err.flush();
    }
}

fn evaluate(
    spec: &EvalSpec,
    agent: &AgentSpec,
) -> Result<(EvalReport, Vec<evoharness_train::EpisodeStats>), Failure> {
    let bar = Progress::new(format!(
        "{} {} h={}",
        spec.task.kind,
        agent.name(),
        spec.task.horizon
    ));
    eval::run(spec, agent, &|d, t| bar.tick(d, t)).map_err(|e| match agent {
        AgentSpec::Policy(path, _) => Failure::about(&path.display().to_string(), &e),
        _ => Failure::runtime(&e),
    })
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// `1 episode`, `3 episodes`.
fn counted(n: u64, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

fn table(r: &EvalReport) -> String {
    let v = &r.harness_actions_by_verb;
    let paired = r.paired.as_ref().map_or(String::new(), |p| {
        format!(
            "  paired                {:+.4} ± {:.4} reward against {} (standard error over {} \
             episodes: better in {}, worse in {}, the same in {})\n",
            p.mean_reward_gain, p.gain_se, p.against, p.episodes, p.better, p.worse, p.same
        )
    });
    format!(
        "\
{task}, {agent}: horizon {h}, budget {b}, {n} in {f}
  success rate          {succ}
  integrity violations  {iv} (duplicates {d}, gaps {g}, wrong writes {w})
  steps                 {steps:.1} per episode
  world actions         {world:.1}
  harness actions       {harness:.2} (track {t:.2}, commit {c:.2}, recall {rc:.2}, note {no:.2})
  cost                  {cost:.1}
  reward                {rew:.3} ± {se:.3} (standard error)
  step time             {p50:.2} us median, {p99:.2} us p99
  wall time             {wall:.2} s
{paired}",
        task = match r.scenario {
            Scenario::V1 => r.task.clone(),
            v => format!("{} ({v})", r.task),
        },
        agent = r.agent,
        h = r.horizon,
        b = r.budget,
        n = counted(r.episodes, "episode"),
        f = counted(r.organisations, "organisation"),
        succ = pct(r.success_rate),
        iv = r.integrity_violations,
        d = r.duplicates,
        g = r.gaps,
        w = r.wrong_writes,
        steps = r.mean_steps,
        world = r.mean_world_actions,
        harness = r.mean_harness_actions,
        t = v.track,
        c = v.commit,
        rc = v.recall,
        no = v.note,
        cost = r.mean_cost,
        rew = r.mean_reward,
        se = r.reward_se,
        p50 = r.p50_step_us,
        p99 = r.p99_step_us,
        wall = r.wall_s,
    )
}

#[allow(
    clippy::too_many_arguments,
    reason = "one call site, every argument a flag"
)]
fn sweep(
    task: TaskConfig,
    agents: &[AgentSpec],
    horizons: &[u32],
    seeds: Range<u64>,
    organisations: Range<u64>,
    threads: usize,
    json: bool,
    out: &str,
) -> Result<(), Failure> {
    let kind = task.kind;
    let mut reports = Vec::new();
    for agent in agents {
        for &h in horizons {
            let spec = EvalSpec {
                task: TaskConfig { horizon: h, ..task },
                seeds: seeds.clone(),
                organisations: organisations.clone(),
                trace: None,
                threads,
                max_steps: u64::MAX,
            };
            reports.push(evaluate(&spec, agent)?.0);
        }
    }
    let svg = plot(kind, agents, horizons, &reports);
    std::fs::write(out, svg).map_err(|e| Failure::io(out, "writing the plot", &e))?;
    if json {
        println!("{}", serde_json::to_string(&reports).unwrap_or_default());
        return Ok(());
    }
    print!(
        "{kind}: success rate by horizon ({} episodes each)\n{:<24}",
        seeds.end - seeds.start,
        "agent"
    );
    for h in horizons {
        print!("{h:>9}");
    }
    println!();
    for (i, agent) in agents.iter().enumerate() {
        print!("{:<24}", agent.name());
        for r in &reports[i * horizons.len()..(i + 1) * horizons.len()] {
            print!("{:>9}", pct(r.success_rate));
        }
        println!();
    }
    println!("plot: {out}");
    Ok(())
}

/// Success rate against horizon (log scale), one line per agent, as a standalone SVG.
fn plot(kind: TaskKind, agents: &[AgentSpec], horizons: &[u32], reports: &[EvalReport]) -> String {
    const COLOURS: [&str; 8] = [
        "#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d", "#666666",
    ];
    let (w, h, left, right, top, bottom) = (640.0, 400.0, 60.0, 190.0, 40.0, 50.0);
    let (pw, ph) = (w - left - right, h - top - bottom);
    let lo = f64::from(*horizons.iter().min().unwrap_or(&1)).log10();
    let hi = f64::from(*horizons.iter().max().unwrap_or(&10)).log10();
    let span = if hi > lo { hi - lo } else { 1.0 };
    let x = |hz: u32| left + pw * (f64::from(hz).log10() - lo) / span;
    let y = |rate: f64| top + ph * (1.0 - rate);
    let mut s = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">
<rect width="{w}" height="{h}" fill="white"/>
<text x="{left}" y="22" font-size="14">{kind}: success rate against horizon</text>
"#
    );
    for i in 0..=4 {
        let r = f64::from(i) / 4.0;
        s += &format!(
            "<line x1=\"{left}\" x2=\"{:.1}\" y1=\"{:.1}\" y2=\"{:.1}\" stroke=\"#ddd\"/><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}%</text>\n",
            left + pw,
            y(r),
            y(r),
            left - 6.0,
            y(r) + 4.0,
            i * 25
        );
    }
    for &hz in horizons {
        s += &format!(
            "<line x1=\"{0:.1}\" x2=\"{0:.1}\" y1=\"{1:.1}\" y2=\"{2:.1}\" stroke=\"#ddd\"/><text x=\"{0:.1}\" y=\"{3:.1}\" text-anchor=\"middle\">{hz}</text>\n",
            x(hz),
            top,
            top + ph,
            top + ph + 16.0
        );
    }
    s += &format!(
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">horizon (steps, log scale)</text>\n",
        left + pw / 2.0,
        h - 10.0
    );
    for (i, agent) in agents.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let points: Vec<String> = reports[i * horizons.len()..(i + 1) * horizons.len()]
            .iter()
            .map(|r| format!("{:.1},{:.1}", x(r.horizon), y(r.success_rate)))
            .collect();
        s += &format!(
            "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" points=\"{}\"/>\n",
            points.join(" ")
        );
        for p in &points {
            let (px, py) = p.split_once(',').unwrap_or(("0", "0"));
            s += &format!("<circle cx=\"{px}\" cy=\"{py}\" r=\"3\" fill=\"{colour}\"/>\n");
        }
        let ly = top + 10.0 + 18.0 * i as f64;
        s += &format!(
            "<line x1=\"{0:.1}\" x2=\"{1:.1}\" y1=\"{ly:.1}\" y2=\"{ly:.1}\" stroke=\"{colour}\" stroke-width=\"2\"/><text x=\"{2:.1}\" y=\"{3:.1}\">{4}</text>\n",
            w - right + 15.0,
            w - right + 35.0,
            w - right + 40.0,
            ly + 4.0,
            escape(&agent.name())
        );
    }
    s += "</svg>\n";
    s
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
