//! Durability: an agent killed with SIGKILL at random points, many times, and resumed each time
//! from its last checkpoint, completes its task with no committed work lost or done twice, and
//! ends exactly where a run that was never killed ends. Also: resuming in process, and the
//! checkpoints a resume refuses. The kill test runs twice: with a recurrent policy, and with a
//! language model (`generative-v1`, the fixture decoder) deciding.
//!
//! The test binary is its own child: `the_task_survives_sigkill` re-runs this executable with
//! only `child_entry` selected and `EVOHARNESS_CRASH_CHILD` naming the task's directory;
//! without that variable `child_entry` does nothing. Set `EVOHARNESS_CRASH_SEED` to replay a
//! kill schedule.
//!
//! The same machinery, at full size, is the soak: the ignored test `soak` runs an agent for
//! `EVOHARNESS_SOAK_STEPS` steps (10⁶ by default) with a checkpoint every
//! `EVOHARNESS_SOAK_EVERY` steps (100) and kills it `EVOHARNESS_SOAK_KILLS` times (100) at
//! random points spread over the whole run. `scripts/soak.sh` runs it in release.
//!
//! The task: copy source records, in order, into a target log (`target.log`, the "committed
//! work"). The [`Ledger`] environment does the copying. The fixture policies have random
//! weights, so the host, not the policy, says when the task is done (every record copied, or,
//! in the soak, a number of steps taken), and `finish` is made unaffordable so a policy cannot
//! claim it early.
//!
//! Exactly-once: every tool call carries a sequence number (the ledger's call count, part of
//! its resume point, saved in the agent's checkpoint). The target log stores each copy with its
//! number and ignores a number it already holds, as an idempotent store does. After a resume
//! the agent repeats the steps since its last checkpoint deterministically, so those calls come
//! again with the same numbers and the same records, and are not applied twice.

#![cfg(unix)]

mod common;

use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::io::{BufRead as _, BufReader, Write as _};
use std::os::unix::process::ExitStatusExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::fixture;
use evoharness_core::{Costs, EventBuf, EventKind, ToolCall, Value};
use evoharness_runtime::{
    Agent, AgentConfig, AnyPolicy, Backend, CheckpointError, CheckpointSchedule, ErrorKind,
    FileError, PolicyBuilder, Selection, World,
};

const CHILD_VAR: &str = "EVOHARNESS_CRASH_CHILD";
const ON_COMMIT_VAR: &str = "EVOHARNESS_CRASH_ON_COMMIT";
/// The child's [`Plan`], as [`Plan::to_env`] writes it.
const PLAN_VAR: &str = "EVOHARNESS_CRASH_PLAN";
const RECORDS: u64 = 40;
/// The policies a plan can run: a recurrent network, or a language model (`generative-v1`).
const MODELS: [&str; 2] = ["recurrent.onnx", "generative.onnx"];

/// What a crash run does: the task, when it checkpoints, how often it is killed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Plan {
    /// The task ends when this many records are copied...
    records: u64,
    /// ...or when the agent has taken this many steps.
    steps: u64,
    /// A checkpoint every this many steps (and on every commit in the processes where the
    /// parent says so).
    every: u64,
    /// SIGKILLs.
    kills: u32,
    /// Kills at random points spread over the whole task, and no checkpoints on commits: the
    /// soak. Otherwise kills come a few steps or copies into each process.
    spread: bool,
    /// Which of [`MODELS`] decides.
    model: u8,
}

impl Plan {
    /// `the_task_survives_sigkill`: 40 records, a checkpoint every 10 steps, 40 kills.
    const DEFAULT: Plan = Plan {
        records: RECORDS,
        steps: u64::MAX,
        every: 10,
        kills: 40,
        spread: false,
        model: 0,
    };

    /// `the_task_survives_sigkill_with_a_language_model`: the default task, smaller (a debug
    /// build's language-model step takes tens of milliseconds on tract).
    const LANGUAGE_MODEL: Plan = Plan {
        records: 12,
        every: 5,
        kills: 12,
        model: 1,
        ..Plan::DEFAULT
    };

    /// The soak: `steps` steps (the records never run out: a step copies at most one), a
    /// checkpoint every `every`, `kills` kills.
    fn soak(steps: u64, every: u64, kills: u32) -> Plan {
        Plan {
            records: steps,
            steps,
            every,
            kills,
            spread: true,
            model: 0,
        }
    }

    fn to_env(self) -> String {
        format!(
            "{} {} {} {} {} {}",
            self.records,
            self.steps,
            self.every,
            self.kills,
            u8::from(self.spread),
            self.model
        )
    }

    fn from_env(s: &str) -> Plan {
        let n: Vec<u64> = s
            .split(' ')
            .map(|x| x.parse().expect("a plan is numbers"))
            .collect();
        let [records, steps, every, kills, spread, model] = n[..] else {
            panic!("a plan has six numbers: {s:?}");
        };
        Plan {
            records,
            steps,
            every,
            kills: u32::try_from(kills).expect("kills fit u32"),
            spread: spread == 1,
            model: u8::try_from(model).expect("a model index"),
        }
    }

    /// The task's configuration: sampling (so the sampler's state matters), a recurrent policy
    /// (so its state does), a budget no run reaches, and `finish` dearer than the whole budget.
    /// A soak's steps would spend any budget `finish` can exceed (a cost is a `u16`), so there
    /// nothing but `finish` costs anything.
    fn config(self) -> AgentConfig {
        let costs = if self.spread {
            Costs {
                act: 0,
                track: 0,
                commit: 0,
                recall: 0,
                note: 0,
                finish: u16::MAX,
            }
        } else {
            Costs {
                finish: u16::MAX,
                ..Costs::default()
            }
        };
        AgentConfig {
            budget: 60_000,
            costs,
            selection: Selection::Sample { temperature: 1.0 },
            seed: 2024,
        }
    }

    /// Every `every` steps, and on every commit when `on_commit`. The parent flips `on_commit`
    /// between processes (a schedule is not part of a checkpoint): the fixture policies commit
    /// on about 40% of their steps, which leaves a crash almost nothing to repeat, while every
    /// 10 steps alone leaves a few steps after each checkpoint whose calls a resume repeats.
    fn schedule(self, dir: &Path, on_commit: bool) -> CheckpointSchedule {
        CheckpointSchedule::new(dir.join("agent.ckpt"))
            .every_steps(self.every)
            .on_commit(on_commit)
    }
}

/// The default task's configuration (see [`Plan::config`]).
fn config() -> AgentConfig {
    Plan::DEFAULT.config()
}

/// A durable toy environment with the fixtures' three tools. Tools 0 and 2 (`copy` and
/// `verify` in the fixtures' names; here both copy, so that work is frequent) append the next
/// source record to the target log; tool 1 (`wait`) clears the rate limit that every fourth
/// call (offset by the seed) sets.
struct Ledger {
    /// Records in the source.
    records: u64,
    /// The next source record; with the counters below, the resume point saved in checkpoints.
    next: u64,
    calls: u64,
    limited: bool,
    seed: u64,
    /// The target store: what it holds, by sequence number, and its append-only file.
    applied: BTreeMap<u64, u64>,
    target: File,
    /// One line per repeated call the store recognised: the evidence that crashes did make
    /// the agent repeat work.
    repeats: File,
}

impl Ledger {
    /// Opens the target log in `dir`, with `RECORDS` records to copy.
    fn open(dir: &Path) -> Self {
        Self::with_records(dir, RECORDS)
    }

    /// Opens the target log in `dir`. A line cut short by a kill (no newline) is dropped.
    fn with_records(dir: &Path, records: u64) -> Self {
        let path = dir.join("target.log");
        let text = fs::read_to_string(&path).unwrap_or_default();
        let whole = text.rfind('\n').map_or(0, |i| i + 1);
        let mut applied = BTreeMap::new();
        for line in text[..whole].lines() {
            let (seq, record) = line.split_once(' ').expect("a `seq record` line");
            let record = record.strip_prefix("record-").expect("a record");
            applied.insert(seq.parse().unwrap(), record.parse().unwrap());
        }
        let target = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .unwrap();
        target.set_len(whole as u64).unwrap();
        let repeats = OpenOptions::new()
            .create(true)
            .append(true)
            .open(dir.join("repeats.log"))
            .unwrap();
        Self {
            records,
            repeats,
            next: 0,
            calls: 0,
            limited: false,
            seed: 0,
            applied,
            target,
        }
    }

    fn done(&self) -> bool {
        self.next == self.records
    }

    /// The store's side of exactly-once: a sequence number it holds is not applied again, and
    /// must carry the same record (a replay that diverged would be a bug).
    fn store(&mut self, seq: u64, record: u64) {
        if let Some(&had) = self.applied.get(&seq) {
            assert_eq!(had, record, "call {seq} replayed with another record");
            self.repeats
                .write_all(format!("{seq}\n").as_bytes())
                .unwrap();
            return;
        }
        if let Some((&last, _)) = self.applied.last_key_value() {
            assert!(seq > last, "call {seq} is new but the store is at {last}");
        }
        self.target
            .write_all(format!("{seq} record-{record}\n").as_bytes())
            .unwrap();
        self.applied.insert(seq, record);
    }
}

fn event(kind: EventKind, source: u16, fields: &[(&str, Value)]) -> EventBuf {
    EventBuf::from_fields(kind, source, fields).unwrap()
}

impl World for Ledger {
    fn tools(&self) -> u16 {
        3
    }

    fn reset(&mut self, seed: u64) -> EventBuf {
        // A new task starts the resume point over; the store is the world and keeps what it holds.
        (self.next, self.calls, self.limited, self.seed) = (0, 0, false, seed);
        event(
            EventKind::Notice,
            0,
            &[
                ("records", Value::Int(self.records as i64)),
                ("next", Value::Int(0)),
            ],
        )
    }

    fn call(&mut self, call: &ToolCall) -> EventBuf {
        self.calls += 1;
        let seq = self.calls;
        match call.tool {
            1 => {
                self.limited = false;
                event(EventKind::Result, 1, &[("waited", Value::Bool(true))])
            }
            _ if self.limited || (seq + self.seed).is_multiple_of(4) => {
                self.limited = true;
                event(EventKind::Error, call.tool, &[("code", Value::Int(429))])
            }
            tool if self.done() => event(EventKind::Error, tool, &[("code", Value::Int(416))]),
            tool => {
                self.store(seq, self.next);
                self.next += 1;
                event(
                    EventKind::Result,
                    tool,
                    &[("next", Value::Int(self.next as i64))],
                )
            }
        }
    }

    fn save_resume_point(&self, out: &mut Vec<u8>) -> bool {
        out.extend_from_slice(&self.next.to_le_bytes());
        out.extend_from_slice(&self.calls.to_le_bytes());
        out.extend_from_slice(&self.seed.to_le_bytes());
        out.push(u8::from(self.limited));
        true
    }

    fn restore_resume_point(&mut self, resume_point: &[u8]) -> evoharness_runtime::Result<()> {
        let bad =
            || evoharness_runtime::Error::new(ErrorKind::Checkpoint, "not a ledger resume point");
        let [n @ .., limited] = resume_point else {
            return Err(bad());
        };
        let words: Vec<u64> = n
            .chunks(8)
            .map(|c| c.try_into().map(u64::from_le_bytes))
            .collect::<Result<_, _>>()
            .map_err(|_| bad())?;
        let [next, calls, seed] = words[..] else {
            return Err(bad());
        };
        if next > self.records || *limited > 1 {
            return Err(bad());
        }
        (self.next, self.calls, self.seed, self.limited) = (next, calls, seed, *limited == 1);
        Ok(())
    }
}

fn policy(model: &str) -> evoharness_runtime::Policy {
    PolicyBuilder::new()
        .backend(Backend::Tract)
        .commit_from_file(fixture(model))
        .unwrap()
}

/// The plan's policy, of either kind. A language model runs without reusing its key/value
/// cache here: a resumed agent rebuilds the cache from its first prompt, and logits computed
/// through a cache differ from whole-prompt ones in the last bits (within 1e-6), which a
/// sampled choice can in rare cases fall on; without reuse, every run computes the same bits,
/// so the killed run must end bit for bit where the reference ends.
fn plan_policy(plan: Plan) -> AnyPolicy {
    let mut p = PolicyBuilder::new()
        .backend(Backend::Tract)
        .commit_any_from_file(fixture(MODELS[usize::from(plan.model)]))
        .unwrap();
    if let AnyPolicy::Generative(g) = &mut p {
        g.set_kv_reuse(false);
    }
    p
}

/// Runs (or resumes) the task of `plan` in `dir` to completion, then writes a final
/// checkpoint. With `child`, checkpoints on the plan's schedule and prints `step N` after every
/// step for the parent to time its kills by; without, it is the reference run, which needs no
/// checkpoints on the way (writing one changes nothing in the agent) and is the faster for it.
fn run_task(dir: &Path, plan: Plan, child: bool) {
    let ckpt = dir.join("agent.ckpt");
    let env = Ledger::with_records(dir, plan.records);
    let mut agent = if ckpt.exists() {
        Agent::resume(plan_policy(plan), env, plan.config(), &ckpt).unwrap()
    } else {
        Agent::new(plan_policy(plan), env, plan.config()).unwrap()
    };
    if child {
        let on_commit = std::env::var_os(ON_COMMIT_VAR).is_some();
        agent
            .set_checkpoints(Some(plan.schedule(dir, on_commit)))
            .unwrap();
    }
    let mut out = std::io::stdout().lock();
    while !agent.world().done() && agent.summary().steps < plan.steps {
        let before = agent.world().next;
        agent
            .step()
            .unwrap()
            .expect("finish is unaffordable and the budget is never reached");
        if child {
            let copied = if agent.world().next > before {
                " copied"
            } else {
                ""
            };
            writeln!(out, "step {}{copied}", agent.summary().steps).unwrap();
            out.flush().unwrap();
        }
    }
    agent.checkpoint(&ckpt).unwrap();
    if child {
        writeln!(out, "done").unwrap();
    }
}

/// The child process's entry; a no-op in a normal test run.
#[test]
fn child_entry() {
    if let Some(dir) = std::env::var_os(CHILD_VAR) {
        let plan = std::env::var(PLAN_VAR).map_or(Plan::DEFAULT, |s| Plan::from_env(&s));
        run_task(Path::new(&dir), plan, true);
    }
}

/// What the child printed on a line, without the test harness's `test child_entry ... ` that
/// shares the child's first line (a resumed child whose task was already complete prints only
/// `done`, and it lands there).
fn payload(line: &str) -> &str {
    line.rsplit_once(" ... ").map_or(line, |(_, p)| p)
}

/// A small seeded generator for the kill schedule.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        let mut g = evoharness_runtime::rng::SplitMix64(self.0);
        let x = g.next_u64();
        self.0 = g.0;
        x % n
    }
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("evoharness-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// The target log's records, in order.
fn records(dir: &Path) -> Vec<u64> {
    fs::read_to_string(dir.join("target.log"))
        .unwrap()
        .lines()
        .map(|l| l.split_once(" record-").unwrap().1.parse().unwrap())
        .collect()
}

/// When the parent kills a child.
#[derive(Clone, Copy, Debug)]
enum Kill {
    /// This long after it was started: often during start-up or the resume itself.
    After(Duration),
    /// After the `at`-th line it prints that `counts` accepts, plus a random delay.
    Lines { at: u64, counts: fn(&str) -> bool },
    /// After it reports step `n` or a later one, plus a random delay.
    Step(u64),
}

impl Kill {
    /// A random number of steps in, or just after a random copy (so that the copy is often
    /// not yet in a checkpoint and a resume repeats it), or at a random instant: a few steps
    /// into each process, as `the_task_survives_sigkill` kills.
    fn near(rng: &mut Rng) -> Kill {
        match rng.below(5) {
            0 => Kill::After(Duration::from_micros(rng.below(40_000))),
            1 | 2 => Kill::Lines {
                at: 1 + rng.below(30),
                counts: |l| l.starts_with("step "),
            },
            _ => Kill::Lines {
                at: 1 + rng.below(3),
                counts: |l| l.ends_with(" copied"),
            },
        }
    }

    /// `kills` kills spread over a task of `steps` steps: one in five at a random instant
    /// after a start, the others at uniformly random steps, in order.
    fn spread(rng: &mut Rng, kills: u32, steps: u64) -> Vec<Kill> {
        let mut plan: Vec<Kill> = (0..kills)
            .map(|_| match rng.below(5) {
                0 => Kill::After(Duration::from_micros(rng.below(40_000))),
                _ => Kill::Step(1 + rng.below(steps)),
            })
            .collect();
        let mut at: Vec<u64> = plan
            .iter()
            .filter_map(|k| match k {
                Kill::Step(n) => Some(*n),
                _ => None,
            })
            .collect();
        at.sort_unstable();
        let mut at = at.into_iter();
        for k in &mut plan {
            if let Kill::Step(n) = k {
                *n = at.next().expect("as many as were drawn");
            }
        }
        plan
    }
}

/// Whether a child's line is the step `kill` waits for; counts lines for [`Kill::Lines`].
fn reached(kill: Kill, seen: &mut u64, line: &str) -> bool {
    match kill {
        Kill::After(_) => false,
        Kill::Lines { at, counts } => {
            *seen += u64::from(counts(line));
            *seen == at
        }
        Kill::Step(n) => line
            .strip_prefix("step ")
            .and_then(|l| l.split(' ').next())
            .is_some_and(|s| s.parse::<u64>().expect("a step number") >= n),
    }
}

/// `EVOHARNESS_CRASH_SEED`, or the default kill schedule.
fn kill_seed() -> u64 {
    std::env::var("EVOHARNESS_CRASH_SEED").map_or(0x5eed, |s| {
        let s = s.trim();
        s.strip_prefix("0x")
            .map_or_else(|| s.parse(), |h| u64::from_str_radix(h, 16))
            .expect("EVOHARNESS_CRASH_SEED is a number (decimal, or hex after 0x)")
    })
}

/// Runs `plan`'s task once without a kill, then as child processes killed with SIGKILL
/// `plan.kills` times, and checks that the killed run copied every record exactly once and
/// ended in the very checkpoint the other one did.
fn survive(name: &str, plan: Plan, seed: u64) {
    let t0 = Instant::now();

    // The run that is never killed.
    let reference = temp_dir(&format!("{name}-reference"));
    run_task(&reference, plan, false);
    let want = fs::read(reference.join("agent.ckpt")).unwrap();
    let t_reference = t0.elapsed();

    let dir = temp_dir(&format!("{name}-killed"));
    let mut rng = Rng(seed);
    let mut spread = if plan.spread {
        Kill::spread(&mut rng, plan.kills, plan.steps)
    } else {
        Vec::new()
    }
    .into_iter();
    let (mut kills, mut mid_write, mut before_first, mut incarnations) = (0, 0, 0, 0);
    loop {
        incarnations += 1;
        assert!(incarnations <= plan.kills + 1, "the child never finished");
        let mut cmd = Command::new(std::env::current_exe().unwrap());
        cmd.args(["child_entry", "--exact", "--nocapture", "--test-threads=1"])
            .env(CHILD_VAR, &dir)
            .env(PLAN_VAR, plan.to_env())
            .env_remove(ON_COMMIT_VAR);
        if !plan.spread && rng.below(3) == 0 {
            cmd.env(ON_COMMIT_VAR, "1");
        }
        let mut child = cmd
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let mut finished = false;
        let kill = if plan.spread {
            spread.next()
        } else {
            (kills < plan.kills).then(|| Kill::near(&mut rng))
        };
        if let Some(kill) = kill {
            // Kills land anywhere in a step or a checkpoint write: at a random instant, or
            // after a line plus a random delay.
            if let Kill::After(d) = kill {
                std::thread::sleep(d);
            } else {
                let mut seen = 0;
                for line in lines.by_ref() {
                    let line = line.unwrap();
                    let line = payload(&line);
                    finished |= line == "done";
                    if reached(kill, &mut seen, line) {
                        break;
                    }
                }
                std::thread::sleep(Duration::from_micros(rng.below(300)));
            }
            if !finished {
                child.kill().unwrap();
            }
        }
        for line in lines {
            finished |= payload(&line.unwrap()) == "done";
        }
        let status = child.wait().unwrap();
        if status.signal() == Some(9) {
            kills += 1;
            mid_write += u32::from(dir.join("agent.ckpt.tmp").exists());
            before_first += u32::from(!dir.join("agent.ckpt").exists());
            continue;
        }
        assert!(status.success() && finished, "the child failed: {status}");
        break;
    }
    let elapsed = t0.elapsed();
    let got = fs::read(dir.join("agent.ckpt")).unwrap();
    let (g, w) = (
        evoharness_runtime::checkpoint::Checkpoint::decode(&got).unwrap(),
        evoharness_runtime::checkpoint::Checkpoint::decode(&want).unwrap(),
    );
    let repeats = fs::read_to_string(dir.join("repeats.log"))
        .unwrap()
        .lines()
        .count();
    let copied = records(&dir);
    println!(
        "seed {seed:#x}: a task of {} steps and {} records, a checkpoint every {} steps; \
         {kills} SIGKILLs ({mid_write} left a temporary checkpoint file, {before_first} came \
         before the first checkpoint), {incarnations} processes, {repeats} repeated copies \
         recognised by the store; {elapsed:.2?} in all ({t_reference:.2?} for the reference \
         run)",
        w.steps,
        copied.len(),
        plan.every,
    );
    assert!(
        kills >= plan.kills / 2,
        "only {kills} kills: the task is too short"
    );
    assert!(
        repeats > 0,
        "no crash made the agent repeat a copy, so exactly-once went untested"
    );

    // The task completed, and every record is in the target exactly once, in order.
    let want_records = records(&reference);
    if plan.steps == u64::MAX {
        assert_eq!(want_records.len() as u64, plan.records);
    } else {
        assert_eq!(w.steps, plan.steps);
    }
    assert_eq!(copied, (0..want_records.len() as u64).collect::<Vec<_>>());
    assert_eq!(
        fs::read_to_string(dir.join("target.log")).unwrap(),
        fs::read_to_string(reference.join("target.log")).unwrap(),
        "the same copies under the same sequence numbers"
    );
    // And the agent ended exactly where the run that was never killed ended: workspace
    // (Progress, Belief, Experience), step counts, sampler, recurrent state, ledger resume point.
    assert_eq!(
        (g.steps, g.world_actions, g.harness_actions),
        (w.steps, w.world_actions, w.harness_actions)
    );
    assert_eq!(g.workspace, w.workspace, "the workspaces differ");
    assert_eq!(got, want);
    fs::remove_dir_all(&dir).unwrap();
    fs::remove_dir_all(&reference).unwrap();
}

#[test]
fn the_task_survives_sigkill() {
    survive("crash", Plan::DEFAULT, kill_seed());
}

/// The same with a language model deciding (the fixture decoder, constrained decoding).
#[test]
fn the_task_survives_sigkill_with_a_language_model() {
    survive("crash-lm", Plan::LANGUAGE_MODEL, kill_seed());
}

/// A number from the environment variable `var`, or `default`.
fn env_or<T: std::str::FromStr>(var: &str, default: T) -> T {
    std::env::var(var).map_or(default, |s| {
        s.trim()
            .replace('_', "")
            .parse()
            .unwrap_or_else(|_| panic!("{var} is a whole number, not {s:?}"))
    })
}

/// The soak: 10⁶ steps, a checkpoint every 100, 100 SIGKILLs spread over the whole run (see
/// the module docs for the variables that change these). Minutes in release:
/// `scripts/soak.sh`.
#[test]
#[ignore = "minutes in release; scripts/soak.sh runs it"]
fn soak() {
    let plan = Plan::soak(
        env_or("EVOHARNESS_SOAK_STEPS", 1_000_000),
        env_or("EVOHARNESS_SOAK_EVERY", 100),
        env_or("EVOHARNESS_SOAK_KILLS", 100),
    );
    assert!(plan.steps > 0 && plan.every > 0, "{plan:?}");
    survive("soak", plan, kill_seed());
}

/// A checkpoint taken mid-task and resumed in another agent continues exactly as the original
/// does, for a feed-forward and a recurrent policy, with and without a world resume point.
#[test]
fn a_resumed_agent_continues_exactly() {
    let dir = temp_dir("crash-inproc");
    for model in ["mlp.onnx", "recurrent.onnx"] {
        // Each agent has its own store; the resumed one starts from a copy of the original's.
        let (da, db) = (
            dir.join(format!("{model}-a")),
            dir.join(format!("{model}-b")),
        );
        fs::create_dir_all(&da).unwrap();
        fs::create_dir_all(&db).unwrap();
        let mut a = Agent::new(policy(model), Ledger::open(&da), config()).unwrap();
        a.run(157).unwrap();
        let path = dir.join(format!("{model}.ckpt"));
        a.checkpoint(&path).unwrap();
        fs::copy(da.join("target.log"), db.join("target.log")).unwrap();
        let mut b = Agent::resume(policy(model), Ledger::open(&db), config(), &path).unwrap();
        assert_eq!(a.summary(), b.summary());
        assert_eq!(a.policy().state(), b.policy().state());
        for _ in 0..300 {
            let (x, y) = (a.step().unwrap(), b.step().unwrap());
            assert_eq!(x, y, "{model}");
        }
        let (mut x, mut y) = (Vec::new(), Vec::new());
        a.checkpoint_bytes(&mut x).unwrap();
        b.checkpoint_bytes(&mut y).unwrap();
        assert_eq!(x, y);
        assert_eq!(records(&da), records(&db));
        assert!(!records(&da).is_empty(), "{model} copied nothing");
    }
    // An environment without a resume point: the checkpoint holds none, and resuming leaves the
    // environment as the host made it.
    let mut a = Agent::new(policy("mlp.onnx"), NoResumePoint::default(), config()).unwrap();
    a.run(20).unwrap();
    let mut bytes = Vec::new();
    a.checkpoint_bytes(&mut bytes).unwrap();
    let c = evoharness_runtime::checkpoint::Checkpoint::decode(&bytes).unwrap();
    assert_eq!(c.world, None);
    assert!(c.state.is_empty());
    let b = Agent::resume_from_bytes(
        policy("mlp.onnx"),
        NoResumePoint::default(),
        config(),
        &bytes,
    )
    .unwrap();
    assert_eq!(b.summary(), a.summary());
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn scheduled_checkpoints_land_on_their_boundaries() {
    let dir = temp_dir("crash-schedule");
    let path = dir.join("agent.ckpt");
    let mut a = Agent::new(policy("mlp.onnx"), Ledger::open(&dir), config()).unwrap();
    assert!(
        a.set_checkpoints(Some(CheckpointSchedule::new(&path).every_steps(0)))
            .is_err()
    );
    a.set_checkpoints(Some(
        CheckpointSchedule::new(&path)
            .on_commit(false)
            .every_steps(5),
    ))
    .unwrap();
    let steps_in = |p: &Path| {
        let b = fs::read(p).unwrap();
        evoharness_runtime::checkpoint::Checkpoint::decode(&b)
            .unwrap()
            .steps
    };
    for i in 1..=23 {
        a.step().unwrap().unwrap();
        assert_eq!(path.exists(), i >= 5, "step {i}");
        if i >= 5 {
            assert_eq!(steps_in(&path), i - i % 5);
        }
    }
    // On every commit instead.
    a.set_checkpoints(Some(CheckpointSchedule::new(&path)))
        .unwrap();
    let mut commits = 0;
    for _ in 0..100 {
        let r = a.step().unwrap().unwrap();
        if matches!(r.action, evoharness_core::Action::Commit(_)) {
            commits += 1;
            assert_eq!(steps_in(&path), a.summary().steps);
        }
    }
    assert!(commits > 0, "the fixture policy never committed");
    a.set_checkpoints(None).unwrap();
    a.step().unwrap();
    assert!(
        steps_in(&path) < a.summary().steps,
        "no schedule, no checkpoint"
    );
    assert!(!dir.join("agent.ckpt.tmp").exists());
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn resume_refuses_foreign_corrupt_and_mismatched_checkpoints() {
    let dir = temp_dir("crash-refuse");
    let path = dir.join("agent.ckpt");
    let mut a = Agent::new(policy("mlp.onnx"), Ledger::open(&dir), config()).unwrap();
    a.run(10).unwrap();
    a.checkpoint(&path).unwrap();
    let bytes = fs::read(&path).unwrap();
    let reason = |e: evoharness_runtime::Error| {
        assert_eq!(e.kind(), ErrorKind::Checkpoint, "{e}");
        *std::error::Error::source(&e)
            .and_then(|s| s.downcast_ref::<CheckpointError>())
            .unwrap_or_else(|| panic!("no CheckpointError under {e}"))
    };
    let resume = |model: &str, config: AgentConfig, bytes: &[u8]| {
        Agent::resume_from_bytes(policy(model), Ledger::open(&dir), config, bytes)
            .err()
            .expect("refused")
    };

    // Another policy's contract.
    assert!(matches!(
        reason(resume("recurrent.onnx", config(), &bytes)),
        CheckpointError::ForeignPolicy { .. }
    ));
    // Corruption anywhere.
    let mut flipped = bytes.clone();
    flipped[bytes.len() / 2] ^= 0x10;
    assert_eq!(
        reason(resume("mlp.onnx", config(), &flipped)),
        CheckpointError::File(FileError::Checksum)
    );
    for n in [0, 3, 13, bytes.len() - 1] {
        assert!(matches!(
            reason(resume("mlp.onnx", config(), &bytes[..n])),
            CheckpointError::File(FileError::Truncated { .. })
        ));
    }
    // Another budget or other costs than the checkpoint was made with.
    let other = AgentConfig {
        budget: 500,
        ..config()
    };
    assert_eq!(
        reason(resume("mlp.onnx", other, &bytes)),
        CheckpointError::ConfigMismatch("budget")
    );
    let other = AgentConfig {
        costs: Costs {
            track: 2,
            ..config().costs
        },
        ..config()
    };
    assert_eq!(
        reason(resume("mlp.onnx", other, &bytes)),
        CheckpointError::ConfigMismatch("costs")
    );
    // A resume point for an environment that cannot take one.
    let e = Agent::resume_from_bytes(
        policy("mlp.onnx"),
        NoResumePoint::default(),
        config(),
        &bytes,
    )
    .err()
    .unwrap();
    assert_eq!(e.kind(), ErrorKind::Checkpoint);
    assert!(e.to_string().contains("cannot restore"), "{e}");
    // A missing file is an I/O error that names it.
    let e = Agent::resume(
        policy("mlp.onnx"),
        Ledger::open(&dir),
        config(),
        dir.join("none.ckpt"),
    )
    .err()
    .unwrap();
    assert_eq!(e.kind(), ErrorKind::Io);
    assert!(e.to_string().contains("none.ckpt"), "{e}");
    fs::remove_dir_all(&dir).unwrap();
}

/// The fixture environment without a resume point: a host environment that does not implement
/// resume, as most stateless ones need not.
#[derive(Default)]
struct NoResumePoint(evoharness_runtime::FixtureWorld);

impl World for NoResumePoint {
    fn tools(&self) -> u16 {
        self.0.tools()
    }
    fn reset(&mut self, seed: u64) -> EventBuf {
        self.0.reset(seed)
    }
    fn call(&mut self, call: &ToolCall) -> EventBuf {
        self.0.call(call)
    }
}

#[test]
fn a_retrained_policy_of_the_same_shape_cannot_resume_another_s_run() {
    // Same contract, other weights: flip the low bit of a byte in the middle of the file, inside
    // the first layer's weights (two thirds of the file).
    let mut bytes = fs::read(fixture("mlp.onnx")).unwrap();
    let n = bytes.len();
    bytes[n / 2] ^= 0x01;
    let load = |b: &[u8]| {
        PolicyBuilder::new()
            .backend(Backend::Tract)
            .commit_from_memory(b)
            .unwrap()
    };
    let original = load(&fs::read(fixture("mlp.onnx")).unwrap());
    let retrained = load(&bytes);
    assert_eq!(original.abi(), retrained.abi());
    assert_ne!(original.fingerprint(), retrained.fingerprint());
    let mut a = Agent::new(original, NoResumePoint::default(), config()).unwrap();
    a.run(5).unwrap();
    let mut ck = Vec::new();
    a.checkpoint_bytes(&mut ck).unwrap();
    let e = Agent::resume_from_bytes(retrained, NoResumePoint::default(), config(), &ck)
        .err()
        .unwrap();
    assert_eq!(e.kind(), ErrorKind::Checkpoint);
    assert!(e.to_string().contains("another policy"), "{e}");
}
