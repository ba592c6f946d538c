//! `evoharness run`: drive a policy against a built-in world, with a progress line and a
//! summary.
//!
//! The worlds: `fixture` ([`FixtureWorld`]), a toy for the fixture policies, and the task
//! suite's three simulated workflows (`migration`, `records`, `orchestration`), which the
//! shipped policy is trained for. Either way the agent is the runtime's [`Agent`], as a host
//! embeds it.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

use evoharness_core::{Action, EventKind, Outcome, Verb};
use evoharness_runtime::fixture_world::{self, FixtureWorld};
use evoharness_runtime::{
    Agent, AgentConfig, CheckpointSchedule, ErrorKind, Selection, TraceSink, Verdict, World,
};
use evoharness_suite::{SuiteWorld, TaskConfig, TaskKind};

use crate::args::{self, Flag, Usage};
use crate::failure::Failure;
use crate::options;

const HELP: &str = "\
evoharness run: run a policy against a built-in world

Usage: evoharness run POLICY.onnx [OPTIONS]

Loads and checks the policy (structured-v1 or -v2, or a generative-v1 language model: the kind
follows from the file), then runs the agent loop (observe, run the policy, pick a legal
action, apply it or call a tool) until the agent finishes, the budget is spent or --steps
steps were taken. Shows progress on stderr when it is a terminal, then prints a summary: steps,
world and harness actions by verb, budget spent, whether the agent finished, backend, time per
step.

Options:
  --world NAME         the world: `fixture` (the default), a toy for the fixture policies in
                       runtime/tests/fixtures (three tools: copy, wait, verify), not a task; or a
                       task of the suite: `migration`, `records` or `orchestration` (eight
                       tools; the shipped policy examples/policies/generalist.onnx is trained
                       for them), which also judges the run
  --horizon H          a suite task's size: about how many steps an oracle needs (default 250)
  --organisation N     a suite task's organisation: it decides the error codes and their
                       remedies (default 0)
  --seed N             seeds the world and the sampler (default 0)
  --temperature T      sample from softmax(logits / T), T > 0; without it the agent takes the
                       legal template with the highest logit
  --budget N           the task's step budget (default: 1000, or a suite task's own budget);
                       every action but finish costs 1
  --steps N            stop after N steps even if the task goes on (default: no limit)
  --trace FILE         write one JSON line per step to FILE (the format: runtime/TRACE.md);
                       `evoharness view FILE` shows it, `--follow` while it runs
  --checkpoint FILE    keep a checkpoint of the whole agent in FILE (atomic replace, checksum)
                       after every step that commits progress and when the task ends;
                       `evoharness resume FILE POLICY.onnx` continues from it
  --every N            also checkpoint every N steps (needs --checkpoint)
  --json               print the summary as one JSON object instead
  -v, --verbose        also print the runtime's information messages
";

/// `evoharness run --help`.
pub(crate) fn help() -> String {
    format!(
        "{HELP}{}{}{}",
        options::BACKEND_HELP,
        options::DEVICE_HELP,
        options::HELP_HELP
    )
}

const FLAGS: &[Flag] = &[
    options::BACKEND_FLAGS[0],
    options::BACKEND_FLAGS[1],
    options::DEVICE_FLAGS[0],
    options::DEVICE_FLAGS[1],
    options::DEVICE_FLAGS[2],
    Flag::value("--world", "fixture, migration, records or orchestration"),
    // The name this flag had before worlds were worlds.
    Flag::value("--env", "fixture, migration, records or orchestration"),
    Flag::value("--horizon", "a number"),
    Flag::value("--organisation", "a number"),
    Flag::value("--seed", "a number"),
    Flag::value("--temperature", "a number above 0"),
    Flag::value("--budget", "a number"),
    Flag::value("--steps", "a number"),
    Flag::value("--trace", "a file"),
    Flag::value("--checkpoint", "a file"),
    Flag::value("--every", "a number"),
    Flag::switch("--json"),
    Flag::switch("--verbose"),
    Flag::switch("-v"),
];

/// One line about the fixture world, said wherever it is named.
const FIXTURE_IS: &str = "a toy world for the fixture policies, not a task";

/// Which world to run in.
#[derive(Clone, Copy)]
enum WorldChoice {
    Fixture,
    Suite(TaskConfig, u64),
}

impl WorldChoice {
    fn build(self) -> Box<dyn World + Send> {
        match self {
            WorldChoice::Fixture => Box::new(FixtureWorld::new()),
            WorldChoice::Suite(task, org) => Box::new(SuiteWorld::new(task, org)),
        }
    }

    fn describe(self) -> String {
        match self {
            WorldChoice::Fixture => format!("fixture: {FIXTURE_IS}"),
            WorldChoice::Suite(task, org) => format!(
                "{} (the task suite), horizon {}, organisation {org}",
                task.kind, task.horizon
            ),
        }
    }

    fn name(self) -> &'static str {
        match self {
            WorldChoice::Fixture => "fixture",
            WorldChoice::Suite(task, _) => task.kind.name(),
        }
    }

    fn tool_names(self) -> Vec<&'static str> {
        match self {
            WorldChoice::Fixture => fixture_world::TOOL_NAMES.to_vec(),
            WorldChoice::Suite(task, _) => task.kind.tool_names().to_vec(),
        }
    }
}

/// The run's settings, from the command line.
struct Settings {
    file: String,
    world: WorldChoice,
    config: AgentConfig,
    max_steps: Option<u64>,
    trace: Option<String>,
    json: bool,
    /// The checkpoint to resume from (`evoharness resume`).
    resume: Option<String>,
    checkpoint: Option<String>,
    every: Option<u64>,
}

const RESUME_HELP: &str = "\
evoharness resume: continue a run from its checkpoint

Usage: evoharness resume CHECKPOINT POLICY.onnx [OPTIONS]

Rebuilds the agent from CHECKPOINT (written by `evoharness run --checkpoint`): its workspace,
step counters, sampler, recurrent state and the world's state, then runs on as `run` does,
checkpointing to the same file unless --checkpoint names another. Give the same --world,
--horizon, --organisation, --budget, --seed and --temperature as the original run: a
checkpoint made with another budget, world or policy is refused.

Options: as `evoharness run` (see `evoharness run --help`).
";

/// `evoharness resume --help`.
pub(crate) fn resume_help() -> String {
    RESUME_HELP.to_string()
}

/// `evoharness resume CHECKPOINT POLICY.onnx ...`.
pub(crate) fn resume(argv: impl IntoIterator<Item = String>) -> Result<(), Failure> {
    main_as("resume", argv)
}

pub(crate) fn main(argv: impl IntoIterator<Item = String>) -> Result<(), Failure> {
    main_as("run", argv)
}

fn main_as(command: &'static str, argv: impl IntoIterator<Item = String>) -> Result<(), Failure> {
    let p = args::parse(command, FLAGS, argv)?;
    if p.help {
        print!(
            "{}",
            if command == "run" {
                help()
            } else {
                resume_help()
            }
        );
        return Ok(());
    }
    let policy_arg = ("POLICY", "the .onnx policy file to run");
    let (file, resume) = if command == "run" {
        let [file] = p.positionals([policy_arg])?;
        (file, None)
    } else {
        let [from, file] = p.positionals([
            ("CHECKPOINT", "the checkpoint file to continue from"),
            policy_arg,
        ])?;
        (file, Some(from.to_string()))
    };
    crate::init_log(p.switch("--verbose") || p.switch("-v"));
    let above_zero = "a whole number above 0";
    let positive = |name: &str| -> Result<Option<u64>, Usage> {
        match p.parse::<u64>(name, above_zero)? {
            Some(0) => Err(Usage::new(
                "run",
                format!("`{name} 0`: expected {above_zero}"),
            )),
            n => Ok(n),
        }
    };
    let world = match p.value("--world").or(p.value("--env")).unwrap_or("fixture") {
        "fixture" => WorldChoice::Fixture,
        other => {
            let kind: TaskKind = other.parse().map_err(|_| {
                Usage::new(
                    command,
                    format!(
                        "unknown world `{other}`: expected fixture ({FIXTURE_IS}), migration, \
                         records or orchestration"
                    ),
                )
            })?;
            let horizon = match positive("--horizon")? {
                Some(h) => u32::try_from(h).map_err(|_| {
                    Usage::new(command, format!("`--horizon {h}`: at most {}", u32::MAX))
                })?,
                None => 250,
            };
            let org = p
                .parse::<u64>("--organisation", "a whole number")?
                .unwrap_or(0);
            WorldChoice::Suite(TaskConfig::new(kind, horizon), org)
        }
    };
    if matches!(world, WorldChoice::Fixture)
        && (p.value("--horizon").is_some() || p.value("--organisation").is_some())
    {
        return Err(Usage::new(
            command,
            "`--horizon` and `--organisation` are for the suite's worlds, not `fixture`",
        )
        .into());
    }
    let defaults = match world {
        WorldChoice::Fixture => AgentConfig::default(),
        WorldChoice::Suite(task, _) => evoharness_suite::episode::agent_config(&task, 0),
    };
    let budget = match positive("--budget")? {
        Some(b) => u32::try_from(b)
            .map_err(|_| Usage::new("run", format!("`--budget {b}`: at most {}", u32::MAX)))?,
        None => defaults.budget,
    };
    let selection = match p.parse::<f32>("--temperature", "a number above 0")? {
        None => Selection::Argmax,
        Some(t) if t > 0.0 && t.is_finite() => Selection::Sample { temperature: t },
        Some(t) => {
            return Err(Usage::new(
                "run",
                format!("`--temperature {t}`: expected a number above 0"),
            )
            .into());
        }
    };
    let settings = Settings {
        file: file.to_string(),
        world,
        config: AgentConfig {
            budget,
            selection,
            seed: p
                .parse("--seed", "a whole number")?
                .unwrap_or(defaults.seed),
            ..defaults
        },
        max_steps: positive("--steps")?,
        trace: p.value("--trace").map(String::from),
        json: p.switch("--json"),
        checkpoint: p
            .value("--checkpoint")
            .map(String::from)
            .or_else(|| resume.clone()),
        every: positive("--every")?,
        resume,
    };
    if settings.every.is_some() && settings.checkpoint.is_none() {
        return Err(Usage::new(command, "`--every` needs `--checkpoint FILE`").into());
    }
    let choice = options::choice(&p, "run")?;
    run(&settings, &choice)
}

fn run(s: &Settings, choice: &options::Choice) -> Result<(), Failure> {
    let loading = Instant::now();
    let options::Loaded { policy, device } = options::load_any(choice, &s.file)?;
    let backend_phrase = options::backend_phrase(Some(policy.backend()));
    let load_time = loading.elapsed();
    let tool_names = policy.tool_names().to_vec();
    let world = s.world.build();
    let names = s.world.tool_names();
    if policy.capacities().tools != world.tools() {
        return Err(Failure::other(format!(
            "{}: the policy is made for {} tools, the {} world has {} ({})",
            s.file,
            policy.capacities().tools,
            s.world.name(),
            world.tools(),
            names.join(", ")
        )));
    }
    if !tool_names.is_empty() && tool_names != names {
        log::warn!(
            target: "evoharness",
            "the policy's tools ({}) are not the {} world's ({}): it runs, but its tool calls \
             mean something else here",
            tool_names.join(", "),
            s.world.name(),
            names.join(", ")
        );
    }
    let mut agent = match &s.resume {
        None => Agent::new(policy, world, s.config).map_err(|e| Failure::runtime(&e))?,
        Some(from) => Agent::resume(policy, world, s.config, from).map_err(|e| match e.kind() {
            ErrorKind::Io | ErrorKind::Checkpoint => Failure::about(from, &e),
            _ => Failure::runtime(&e),
        })?,
    };
    if let Some(path) = &s.checkpoint {
        let mut schedule = CheckpointSchedule::new(path);
        if let Some(n) = s.every {
            schedule = schedule.every_steps(n);
        }
        agent
            .set_checkpoints(Some(schedule))
            .map_err(|e| Failure::runtime(&e))?;
    }
    if let Some(path) = &s.trace {
        // Whole lines reach the file as the agent runs: `evoharness view --follow` shows them.
        let sink = TraceSink::file(path)
            .map_err(|e| Failure::io(path, "cannot create the trace file", &e))?;
        agent
            .set_trace(sink)
            .map_err(|e| Failure::about(path, &e))?;
    }

    let mut tally = Tally::new(names.len());
    let mut progress = Progress::new(std::io::stderr().is_terminal() && !s.json);
    let started = Instant::now();
    let limit = s.max_steps.unwrap_or(u64::MAX);
    while tally.steps < limit {
        let Some(report) = agent.step().map_err(|e| match e.kind() {
            ErrorKind::Io | ErrorKind::Checkpoint => Failure::runtime(&e),
            _ => Failure::runtime(&e),
        })?
        else {
            break;
        };
        let failed = matches!(report.outcome, Outcome::Call(_))
            && agent
                .workspace()
                .event()
                .is_some_and(|e| e.kind == EventKind::Error);
        tally.add(&report.action, failed);
        progress.show(&tally, agent.workspace().spent(), s.config.budget, started);
    }
    let elapsed = started.elapsed();
    progress.clear();
    // Flushes the trace file.
    agent
        .set_trace(TraceSink::Off)
        .map_err(|e| Failure::about(s.trace.as_deref().unwrap_or("trace"), &e))?;

    let ws = agent.workspace();
    let summary = agent.summary();
    let stop = match summary.finished {
        Some(true) => "the agent finished, claiming success",
        Some(false) => "the agent finished, giving up",
        None if tally.steps >= limit => "the --steps limit was reached",
        None if ws.budget_spent() => "the budget is spent",
        None => "no legal action was left",
    };
    let report = Report {
        s,
        backend: backend_phrase,
        device: &device,
        tool_names: &names,
        verdict: agent.verdict(),
        tally: &tally,
        finished: summary.finished,
        stop,
        spent: summary.spent,
        elapsed,
        load_time,
    };
    if s.json {
        println!("{}", report.json());
    } else {
        print!("{}", report.text());
    }
    Ok(())
}

/// Counts by verb and by tool.
struct Tally {
    steps: u64,
    verbs: [u64; 6],
    tools: Vec<u64>,
    tool_errors: u64,
}

const VERBS: [(Verb, &str); 6] = [
    (Verb::Act, "act"),
    (Verb::Track, "track"),
    (Verb::Commit, "commit"),
    (Verb::Recall, "recall"),
    (Verb::Note, "note"),
    (Verb::Finish, "finish"),
];

impl Tally {
    fn new(tools: usize) -> Self {
        Self {
            steps: 0,
            verbs: [0; 6],
            tools: vec![0; tools],
            tool_errors: 0,
        }
    }

    fn add(&mut self, action: &Action<'_>, failed: bool) {
        self.steps += 1;
        self.verbs[action.verb() as usize] += 1;
        if let Action::Act { tool, .. } = action
            && let Some(n) = self.tools.get_mut(usize::from(*tool))
        {
            *n += 1;
        }
        self.tool_errors += u64::from(failed);
    }

    fn verb(&self, v: Verb) -> u64 {
        self.verbs[v as usize]
    }

    fn world(&self) -> u64 {
        self.verb(Verb::Act)
    }

    fn harness(&self) -> u64 {
        [Verb::Track, Verb::Commit, Verb::Recall, Verb::Note]
            .iter()
            .map(|&v| self.verb(v))
            .sum()
    }
}

/// The `\r` progress line on a terminal, redrawn at most ten times a second.
struct Progress {
    on: bool,
    last: Option<Instant>,
}

impl Progress {
    fn new(on: bool) -> Self {
        Self { on, last: None }
    }

    fn show(&mut self, t: &Tally, spent: u32, budget: u32, started: Instant) {
        if !self.on
            || self
                .last
                .is_some_and(|l| l.elapsed() < Duration::from_millis(100))
        {
            return;
        }
        self.last = Some(Instant::now());
        let ms = started.elapsed().as_secs_f64() * 1e3 / t.steps.max(1) as f64;
        let mut err = std::io::stderr().lock();
        let _ = write!(
            err,
            "\r\x1b[K  step {}  budget {spent}/{budget}  world {}  harness {}  {ms:.3} ms/step",
            t.steps,
            t.world(),
            t.harness()
        );
        let _ = err.flush();
    }

    fn clear(&self) {
        if self.on && self.last.is_some() {
            let _ = write!(std::io::stderr().lock(), "\r\x1b[K");
        }
    }
}

/// `1 action`, `2 actions`.
fn count(n: u64, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

struct Report<'a> {
    s: &'a Settings,
    /// The backend the policy runs on, as a phrase.
    backend: String,
    device: &'a str,
    tool_names: &'a [&'a str],
    verdict: Option<Verdict>,
    tally: &'a Tally,
    finished: Option<bool>,
    stop: &'static str,
    spent: u32,
    elapsed: Duration,
    load_time: Duration,
}

impl Report<'_> {
    fn ms_per_step(&self) -> f64 {
        self.elapsed.as_secs_f64() * 1e3 / self.tally.steps.max(1) as f64
    }

    fn selection(&self) -> String {
        match self.s.config.selection {
            Selection::Argmax => "argmax (highest legal logit)".to_string(),
            Selection::Sample { temperature } => {
                format!("sampling at temperature {temperature}")
            }
        }
    }

    fn text(&self) -> String {
        let t = self.tally;
        let mut out = format!("evoharness run: {}\n", self.s.file);
        let mut row = |k: &str, v: String| out.push_str(&format!("  {k:<13}{v}\n"));
        row("world", self.s.world.describe());
        row("backend", format!("{} on {}", self.backend, self.device));
        row(
            "selection",
            format!("{}, seed {}", self.selection(), self.s.config.seed),
        );
        row("steps", format!("{} (stopped: {})", t.steps, self.stop));
        row(
            "finished",
            match self.finished {
                Some(true) => "yes, claiming success".to_string(),
                Some(false) => "yes, giving up".to_string(),
                None => "no".to_string(),
            },
        );
        if let Some(v) = self.verdict {
            row(
                "verdict",
                format!(
                    "{} ({}, as the world judges it)",
                    if v.success { "success" } else { "failure" },
                    count(u64::from(v.violations), "integrity violation")
                ),
            );
        }
        row(
            "budget",
            format!("{} of {} spent", self.spent, self.s.config.budget),
        );
        let tools: Vec<String> = self
            .tool_names
            .iter()
            .zip(&t.tools)
            .map(|(n, c)| format!("{n} {c}"))
            .collect();
        row(
            "tools",
            format!(
                "{}: {}; {}",
                count(t.world(), "action"),
                tools.join(", "),
                count(t.tool_errors, "tool error")
            ),
        );
        let verbs: Vec<String> = VERBS[1..5]
            .iter()
            .map(|(v, n)| format!("{n} {}", t.verb(*v)))
            .collect();
        row(
            "harness",
            format!("{}: {}", count(t.harness(), "action"), verbs.join(", ")),
        );
        row(
            "time",
            format!(
                "{:.3} ms per step ({} steps in {:.1} ms; policy loaded in {:.1} ms)",
                self.ms_per_step(),
                t.steps,
                self.elapsed.as_secs_f64() * 1e3,
                self.load_time.as_secs_f64() * 1e3
            ),
        );
        if let Some(path) = &self.s.trace {
            row("trace", format!("{path}, one JSON line per step"));
        }
        out
    }

    fn json(&self) -> serde_json::Value {
        let t = self.tally;
        let tools: serde_json::Map<String, serde_json::Value> = self
            .tool_names
            .iter()
            .zip(&t.tools)
            .map(|(n, c)| (n.to_string(), (*c).into()))
            .collect();
        let verbs: serde_json::Map<String, serde_json::Value> = VERBS
            .iter()
            .map(|(v, n)| (n.to_string(), t.verb(*v).into()))
            .collect();
        serde_json::json!({
            "policy": self.s.file,
            "world": self.s.world.name(),
            "verdict": self.verdict.map(|v| serde_json::json!({
                "success": v.success,
                "violations": v.violations,
            })),
            "backend": evoharness_runtime::backend::active().map(|a| a.name()),
            "device": self.device,
            "seed": self.s.config.seed,
            "temperature": match self.s.config.selection {
                Selection::Argmax => None,
                Selection::Sample { temperature } => Some(temperature),
            },
            "steps": t.steps,
            "stopped": self.stop,
            "finished": self.finished.is_some(),
            "success": self.finished,
            "budget": self.s.config.budget,
            "spent": self.spent,
            "world_actions": t.world(),
            "harness_actions": t.harness(),
            "verbs": verbs,
            "tools": tools,
            "tool_errors": t.tool_errors,
            "ms_per_step": self.ms_per_step(),
            "load_ms": self.load_time.as_secs_f64() * 1e3,
            "trace": self.s.trace,
        })
    }
}
