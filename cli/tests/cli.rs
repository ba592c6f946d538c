//! The `evoharness` command-line tool, run as a process: `inspect` on every fixture (one clear
//! line and exit status 2 for each broken one), `run` in the fixture world and in a suite
//! world, `eval` with traces, and argument mistakes.

use std::path::PathBuf;
use std::process::{Command, Output};

/// A policy fixture of the runtime's tests (`runtime/tests/fixtures`).
fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../runtime/tests/fixtures")
        .join(name)
}

fn evoharness(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_evoharness"))
        .args(args)
        // The default backend is `auto`; the tests pin tract so that they do not depend on
        // whether ONNX Runtime was fetched.
        .env_remove("EVOHARNESS_ORT_LIB")
        .output()
        .expect("the evoharness binary runs")
}

fn path(name: &str) -> String {
    fixture(name).display().to_string()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8 stdout")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("utf-8 stderr")
}

/// A fresh path in the temporary directory, removed first if it exists.
fn temp(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("evoharness-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

#[test]
fn inspect_prints_the_contract_of_the_good_fixtures() {
    for (name, state) in [("mlp.onnx", "none"), ("recurrent.onnx", "8 floats")] {
        let o = evoharness(&["inspect", &path(name), "--backend", "tract"]);
        let out = stdout(&o);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        assert!(stderr(&o).is_empty(), "{}", stderr(&o));
        for want in [
            "a valid structured-v1 policy",
            "layout version 1",
            "16 facts, 8 steps, 4 lessons, 3 tools",
            "534 floats",
            "223 templates",
            state,
            "copy, wait, verify",
            "make_fixtures.py",
            "tract",
            "logits finite",
        ] {
            assert!(out.contains(want), "{name}: `{want}` missing in\n{out}");
        }
    }
    let o = evoharness(&[
        "inspect",
        &path("recurrent.onnx"),
        "--backend=tract",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(j["abi"], "structured-v1");
    assert_eq!(j["layout_version"], 1);
    assert_eq!(j["obs_len"], 534);
    assert_eq!(j["actions"], 223);
    assert_eq!(j["state_len"], 8);
    assert_eq!(j["value"], false);
    assert_eq!(j["capacities"]["tools"], 3);
    assert_eq!(
        j["tool_names"],
        serde_json::json!(["copy", "wait", "verify"])
    );
    assert_eq!(j["backend"], "tract");
    // A structured-v2 policy: its own ABI and observation length.
    let o = evoharness(&["inspect", &path("mlp_v2.onnx"), "--backend=tract", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(j["abi"], "structured-v2");
    assert_eq!(j["layout_version"], 2);
    assert_eq!(j["obs_len"], 549);
    assert_eq!(j["actions"], 223);
}

#[test]
fn inspect_prints_a_language_models_contract_and_one_decision() {
    let o = evoharness(&["inspect", &path("generative.onnx"), "--backend", "tract"]);
    let out = stdout(&o);
    assert!(o.status.success(), "{}", stderr(&o));
    for want in [
        "a valid generative-v1 policy",
        "workspace-text-v1, action-text-v1",
        "16 facts, 8 steps, 4 lessons, 3 tools",
        "223 templates",
        "2 layers, 2 heads of 16, 256 tokens (bytes), context 8192",
        "decided once on a fresh workspace",
    ] {
        assert!(out.contains(want), "`{want}` missing in\n{out}");
    }
    let o = evoharness(&[
        "inspect",
        &path("generative.onnx"),
        "--backend",
        "tract",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["abi"], "generative-v1");
    assert_eq!(v["context"], 8192);
    let line = v["check"]["line"].as_str().unwrap();
    assert!(line.len() > 3 && !line.contains('\n'), "{line:?}");
}

#[test]
fn inspect_refuses_each_bad_fixture_with_one_line() {
    for (name, what) in [
        (
            "bad_obs_size.onnx",
            "input `obs`: has 535 columns, the layout needs 534",
        ),
        ("no_metadata.onnx", "no evoharness.abi metadata"),
        ("truncated.onnx", "not a valid ONNX model: "),
        (
            "wrong_abi.onnx",
            "missing evoharness.text_version metadata (generative-v1 requires it)",
        ),
        (
            "generative_short_context.onnx",
            "declares a context of 512 tokens; the longest prompt for its capacities and an \
             action take 5901",
        ),
        (
            "generative_bad_tokenizer.onnx",
            "uses tokenizer `sentencepiece`; this runtime knows `bytes`",
        ),
        (
            "mismatched_layout.onnx",
            "metadata says 534 observation floats and 223 actions, but the layout for 16 facts, \
             8 steps, 4 lessons and 4 tools has",
        ),
        (
            "v2_wrong_version.onnx",
            "was made for layout version 1 of `structured-v2`; this runtime's is 2",
        ),
    ] {
        let o = evoharness(&["inspect", &path(name), "--backend", "tract"]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{name}: {err}");
        assert!(o.stdout.is_empty(), "{name}: {}", stdout(&o));
        assert_eq!(err.lines().count(), 1, "{name}: one line, not\n{err}");
        let prefix = format!("error: {}: ", path(name));
        assert!(err.starts_with(&prefix), "{name}: {err}");
        assert!(err.contains(what), "{name}: `{what}` missing in {err}");
        assert!(
            err.contains("POLICY.md") || err.contains("ONNX file"),
            "{err}"
        );
        // The file is named once, at the start.
        assert_eq!(err.matches(name).count(), 1, "{err}");
    }
}

#[test]
fn other_failures_exit_1_with_one_line() {
    let missing = path("missing.onnx");
    let o = evoharness(&["inspect", &missing, "--backend", "tract"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o).trim_end(),
        format!("error: {missing}: cannot read it: No such file or directory (os error 2)")
    );
    let o = evoharness(&[
        "inspect",
        &path("mlp.onnx"),
        "--ort-lib",
        "/nonexistent/libonnxruntime.so",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("scripts/fetch-onnxruntime.sh"), "{err}");
}

#[test]
fn run_drives_the_fixture_world_and_summarises() {
    let o = evoharness(&[
        "run",
        &path("mlp.onnx"),
        "--backend",
        "tract",
        "--budget",
        "20",
    ]);
    let out = stdout(&o);
    assert!(o.status.success(), "{}", stderr(&o));
    // stderr is not a terminal here: no progress line, nothing at all.
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
    for want in [
        "fixture: a toy world for the fixture policies, not a task",
        "steps",
        "finished",
        "of 20 spent",
        "world",
        "harness",
        "track",
        "tract on cpu",
        "ms per step",
    ] {
        assert!(out.contains(want), "`{want}` missing in\n{out}");
    }

    let o = evoharness(&[
        "run",
        &path("recurrent.onnx"),
        "--backend",
        "tract",
        "--budget",
        "30",
        "--temperature",
        "1.5",
        "--seed",
        "4",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let n = |k: &str| j[k].as_u64().unwrap_or_else(|| panic!("{k} in {j}"));
    assert!(n("spent") <= 30);
    assert!(n("steps") > 0);
    assert_eq!(
        n("world_actions") + n("harness_actions") + j["verbs"]["finish"].as_u64().unwrap(),
        n("steps")
    );
    let tools: u64 = ["copy", "wait", "verify"]
        .iter()
        .map(|t| j["tools"][t].as_u64().unwrap())
        .sum();
    assert_eq!(tools, n("world_actions"));
    assert_eq!(j["world"], "fixture");
    assert_eq!(
        j["verdict"],
        serde_json::Value::Null,
        "the toy world judges nothing"
    );
    assert_eq!(j["backend"], "tract");
    assert_eq!(j["seed"], 4);

    let o = evoharness(&[
        "run",
        &path("mlp.onnx"),
        "--backend",
        "tract",
        "--steps",
        "7",
        "--json",
    ]);
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(j["steps"], 7);
    assert_eq!(j["stopped"], "the --steps limit was reached");
}

#[test]
fn run_writes_a_trace_of_json_lines_and_repeats_itself_for_a_seed() {
    let trace = |name: &str| -> (Vec<serde_json::Value>, u64) {
        let file = temp(name);
        let o = evoharness(&[
            "run",
            &path("mlp.onnx"),
            "--backend",
            "tract",
            "--budget",
            "40",
            "--temperature",
            "1",
            "--seed",
            "9",
            "--trace",
            &file.display().to_string(),
            "--json",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let summary: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        let text = std::fs::read_to_string(&file).unwrap();
        let _ = std::fs::remove_file(&file);
        let lines = text
            .lines()
            .map(|l| serde_json::from_str(l).expect("each line is JSON"))
            .collect();
        (lines, summary["steps"].as_u64().unwrap())
    };
    let (a, steps) = trace("a.jsonl");
    assert_eq!(a.len() as u64, steps);
    for (i, l) in a.iter().enumerate() {
        assert_eq!(l["step"], i as u64 + 1);
        for key in ["template", "action", "outcome", "cost", "latency_ns"] {
            assert!(l.get(key).is_some(), "{key} missing in {l}");
        }
    }
    let (b, _) = trace("b.jsonl");
    let without_time = |v: &[serde_json::Value]| -> Vec<serde_json::Value> {
        v.iter()
            .map(|l| {
                let mut l = l.clone();
                l.as_object_mut().unwrap().remove("latency_ns");
                l
            })
            .collect()
    };
    assert_eq!(without_time(&a), without_time(&b), "same seed, same run");
}

#[test]
fn devices_fail_clearly_or_fall_back_when_asked() {
    let mlp = path("mlp.onnx");
    let o = evoharness(&["run", &mlp, "--backend", "tract", "--device", "cuda:1"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: --device cuda:1: "), "{err}");
    assert!(err.contains("--cpu-fallback"), "{err}");
    let o = evoharness(&[
        "run",
        &mlp,
        "--backend",
        "tract",
        "--device",
        "cuda:1",
        "--cpu-fallback",
        "--steps",
        "3",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).starts_with("warning: --device cuda:1: "));
    assert!(stdout(&o).contains("tract on cpu (cuda:1 was not available)"));
}

#[test]
fn argument_mistakes_are_named_with_a_hint() {
    let mlp = path("mlp.onnx");
    for (args, what) in [
        (vec!["run", &mlp, "--sed", "3"], "did you mean `--seed`?"),
        (vec!["run"], "missing POLICY"),
        (vec!["run", &mlp, "extra"], "unexpected argument `extra`"),
        (
            vec!["run", &mlp, "--temperature", "0"],
            "expected a number above 0",
        ),
        (vec!["run", &mlp, "--budget", "many"], "`--budget many`"),
        (
            vec!["run", &mlp, "--world", "payroll"],
            "unknown world `payroll`",
        ),
        (
            vec!["run", &mlp, "--world", "migration"],
            "the policy is made for 3 tools, the migration world has 8",
        ),
        (
            vec!["run", &mlp, "--horizon", "100"],
            "are for the suite's worlds",
        ),
        (
            vec!["run", &mlp, "--device", "gpu"],
            "expected cpu, cuda[:N] or tensorrt[:N]",
        ),
        (
            vec!["inspect", &mlp, "--backend", "onnx"],
            "expected tract, onnxruntime, native or auto",
        ),
        (
            vec!["inspect", &mlp, "--seed", "1"],
            "unknown flag `--seed`",
        ),
        (
            vec!["inspect", &mlp, "--backend"],
            "`--backend` needs a value",
        ),
        (vec!["frobnicate"], "unknown command `frobnicate`"),
        (vec![&mlp], "evoharness inspect"),
        (vec![], "no command given"),
    ] {
        let o = evoharness(&args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(what), "{args:?}: `{what}` missing in {err}");
    }
}

#[test]
fn help_documents_each_command_and_the_exit_codes() {
    let top = evoharness(&["--help"]);
    assert!(top.status.success());
    let text = stdout(&top);
    for want in ["inspect", "run", "Exit status", "2  the policy file"] {
        assert!(text.contains(want), "`{want}` missing in\n{text}");
    }
    for (cmd, want) in [
        ("inspect", "--backend"),
        ("run", "--cpu-fallback"),
        ("run", "not a task"),
    ] {
        for args in [vec![cmd, "--help"], vec!["help", cmd]] {
            let o = evoharness(&args);
            assert!(o.status.success(), "{args:?}");
            assert!(stdout(&o).contains(want), "{args:?}: `{want}` missing");
        }
    }
}

/// Runs `policy` whole, then the same run stopped after 9 steps with a checkpoint every step
/// and resumed from it; asserts both give the same templates and returns the checkpoint.
fn stopped_and_resumed_runs_agree(policy: &str, common: &[&str], tag: &str) -> PathBuf {
    let templates = |trace: &PathBuf| -> Vec<u64> {
        std::fs::read_to_string(trace)
            .unwrap()
            .lines()
            .map(|l| {
                serde_json::from_str::<serde_json::Value>(l).unwrap()["template"]
                    .as_u64()
                    .unwrap()
            })
            .collect()
    };
    let run = |args: Vec<&str>| {
        let o = evoharness(&[args.as_slice(), common].concat());
        assert!(o.status.success(), "{}", stderr(&o));
    };
    // The whole run, uninterrupted.
    let full_trace = temp(&format!("{tag}-full.jsonl"));
    run(vec!["run", policy, "--trace", full_trace.to_str().unwrap()]);
    let full = templates(&full_trace);
    assert!(
        full.len() > 12,
        "the seed should give a run long enough to cut: {}",
        full.len()
    );
    // The same run stopped after 9 steps with a checkpoint every step, then resumed.
    let ck = temp(&format!("{tag}-run.ck"));
    let (t1, t2) = (
        temp(&format!("{tag}-1.jsonl")),
        temp(&format!("{tag}-2.jsonl")),
    );
    run(vec![
        "run",
        policy,
        "--steps",
        "9",
        "--checkpoint",
        ck.to_str().unwrap(),
        "--every",
        "1",
        "--trace",
        t1.to_str().unwrap(),
    ]);
    run(vec![
        "resume",
        ck.to_str().unwrap(),
        policy,
        "--trace",
        t2.to_str().unwrap(),
    ]);
    let mut both = templates(&t1);
    assert_eq!(both.len(), 9);
    both.extend(templates(&t2));
    assert_eq!(both, full, "resumed run differs from the uninterrupted one");
    ck
}

#[test]
fn a_run_killed_at_its_checkpoint_resumes_to_the_same_end() {
    let policy = path("recurrent.onnx");
    let common = [
        "--backend",
        "tract",
        "--seed",
        "5",
        "--temperature",
        "1",
        "--budget",
        "200",
    ];
    let ck = stopped_and_resumed_runs_agree(&policy, &common, "mlp");

    // Another budget is refused, with the file named, exit 1.
    let o = evoharness(&[
        "resume",
        ck.to_str().unwrap(),
        policy.as_str(),
        "--backend",
        "tract",
        "--budget",
        "7",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("another budget"), "{}", stderr(&o));
    let o = evoharness(&["run", policy.as_str(), "--every", "3"]);
    assert!(
        stderr(&o).contains("`--every` needs `--checkpoint FILE`"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn run_and_resume_take_a_language_model_as_they_take_a_structured_policy() {
    // The fixture decoder (generative-v1) in the toy world: the policy's kind follows from the
    // file. Greedy, so that the resumed run (its key/value cache rebuilt from one whole prompt)
    // picks what the uninterrupted one picked.
    let policy = path("generative.onnx");
    let ck =
        stopped_and_resumed_runs_agree(&policy, &["--backend", "tract", "--budget", "40"], "lm");
    // A structured policy cannot resume the language model's checkpoint.
    let o = evoharness(&[
        "resume",
        ck.to_str().unwrap(),
        &path("mlp.onnx"),
        "--backend",
        "tract",
        "--budget",
        "40",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("another policy"), "{}", stderr(&o));
}

#[test]
fn the_backend_can_come_from_the_environment() {
    let o = Command::new(env!("CARGO_BIN_EXE_evoharness"))
        .args(["inspect", &path("mlp.onnx"), "--json"])
        .env("EVOHARNESS_BACKEND", "tract")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("\"tract\""), "{}", stdout(&o));
    let o = Command::new(env!("CARGO_BIN_EXE_evoharness"))
        .args(["inspect", &path("mlp.onnx")])
        .env("EVOHARNESS_BACKEND", "gpu")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("EVOHARNESS_BACKEND"), "{}", stderr(&o));
}

#[test]
fn eval_prints_a_table_or_json_with_every_field() {
    let o = evoharness(&[
        "eval",
        "--task",
        "records",
        "--agent",
        "oracle",
        "--seeds",
        "0..6",
        "--horizon",
        "100",
        "--threads",
        "2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("success rate          100.0%"), "{out}");
    let o = evoharness(&[
        "eval",
        "--task",
        "migration",
        "--agent",
        "append-only:20",
        "--seeds",
        "3..9",
        "--horizon",
        "200",
        "--organisations",
        "10..12",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    for key in [
        "task",
        "agent",
        "episodes",
        "success_rate",
        "integrity_violations",
        "mean_steps",
        "mean_world_actions",
        "mean_harness_actions",
        "harness_actions_by_verb",
        "mean_cost",
        "mean_reward",
        "reward_se",
        "p50_step_us",
    ] {
        assert!(v.get(key).is_some(), "missing {key}: {v}");
    }
    // The standard error of the mean reward (0 only when every episode's reward is equal).
    let se = v["reward_se"].as_f64().expect("a number");
    assert!(se.is_finite() && se >= 0.0, "{v}");
    assert_eq!(v["task"], "migration");
    assert_eq!(v["episodes"], 6);
    assert_eq!(v["organisations"], 2);
    assert_eq!(v["mean_harness_actions"], 0.0);
    assert!(v["harness_actions_by_verb"]["track"].is_number());
    assert_eq!(v["scenario"], "v1");
    // v2, and the rule tuned for it: named in the table, and in the JSON.
    let args = [
        "eval",
        "--task",
        "orchestration",
        "--agent",
        "tuned",
        "--scenario",
        "v2",
        "--seeds",
        "0..4",
        "--horizon",
        "100",
    ];
    let o = evoharness(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("orchestration (v2), tuned:"),
        "{}",
        stdout(&o)
    );
    let o = evoharness(&[&args[..], &["--json"]].concat());
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        (&v["scenario"], &v["agent"]),
        (&"v2".into(), &"tuned".into())
    );
    assert_eq!(v["budget"], 2 * (4 * 100 + 256));
    assert!(v.get("paired").is_none(), "only with --against");
    // Against another agent on the same episodes: the paired gain, in the JSON and the table.
    // The rule against itself is the same in every episode.
    let o = evoharness(&[&args[..], &["--against", "tuned", "--json"]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let p = &v["paired"];
    assert_eq!(
        (&p["against"], &p["episodes"]),
        (&"tuned".into(), &4.into())
    );
    assert_eq!(
        (&p["same"], &p["mean_reward_gain"]),
        (&4.into(), &0.0.into())
    );
    // Told every remedy it is never worse than the rule, and better in some episode.
    let hinted = [
        "eval",
        "--task",
        "orchestration",
        "--agent",
        "tuned:hint-all",
    ];
    let rest = [
        "--against",
        "tuned",
        "--scenario",
        "v2",
        "--seeds",
        "0..8",
        "--horizon",
        "100",
    ];
    let o = evoharness(&[&hinted[..], &rest[..], &["--json"]].concat());
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let p = &v["paired"];
    assert_eq!(p["worse"], 0, "{p}");
    assert!(p["better"].as_u64().unwrap() > 0, "{p}");
    assert!(p["mean_reward_gain"].as_f64().unwrap() > 0.0, "{p}");
    let o = evoharness(&[&hinted[..], &rest[..]].concat());
    assert!(
        stdout(&o).contains("reward against tuned (standard error over 8 episodes"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn eval_sweep_writes_a_plot_with_a_line_per_agent() {
    let svg = temp("sweep.svg");
    let o = evoharness(&[
        "eval",
        "--sweep",
        "--task",
        "orchestration",
        "--seeds",
        "0..4",
        "--horizons",
        "50,200",
        "--agents",
        "oracle,random",
        "--out",
        svg.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("oracle") && out.contains("random"), "{out}");
    let plot = std::fs::read_to_string(&svg).unwrap();
    assert!(plot.starts_with("<svg"), "{plot}");
    assert_eq!(plot.matches("<polyline").count(), 2);
    let _ = std::fs::remove_file(svg);
}

#[test]
fn eval_mistakes_are_named() {
    let cases: [(&[&str], &str); 11] = [
        (&["eval", "--agent", "oracle"], "missing --task"),
        (
            &[
                "eval", "--task", "records", "--agent", "oracle", "--model", "weak",
            ],
            "--model goes with --scenario v3",
        ),
        (
            &[
                "eval",
                "--task",
                "records",
                "--agent",
                "oracle",
                "--scenario",
                "v3",
                "--model",
                "medium",
            ],
            "`--model medium`: expected weak or strong",
        ),
        (
            &[
                "eval",
                "--task",
                "records",
                "--agent",
                "oracle",
                "--scenario",
                "v4",
            ],
            "unknown scenario \"v4\": expected v1, v2 or v3",
        ),
        (
            &["eval", "--task", "payroll", "--agent", "oracle"],
            "unknown task \"payroll\"",
        ),
        (&["eval", "--task", "records"], "missing --agent"),
        (
            &["eval", "--task", "records", "--agent", "smart"],
            "unknown agent \"smart\"",
        ),
        (
            &[
                "eval", "--task", "records", "--agent", "oracle", "--seeds", "5..5",
            ],
            "expected a range A..B with A < B",
        ),
        (
            &["eval", "--sweep", "--task", "records"],
            "--sweep needs --out",
        ),
        (
            &[
                "eval",
                "--sweep",
                "--task",
                "records",
                "--against",
                "oracle",
                "--out",
                "x.svg",
            ],
            "--against goes with one evaluation",
        ),
        (
            &[
                "eval",
                "--task",
                "records",
                "--agent",
                "oracle",
                "--against",
                "wise",
            ],
            "unknown agent \"wise\"",
        ),
    ];
    for (args, want) in cases {
        let o = evoharness(args);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert!(stderr(&o).contains(want), "{args:?}: {}", stderr(&o));
    }
    // A policy made for other capacities than the suite's is refused by name.
    let o = evoharness(&[
        "eval",
        "--task",
        "records",
        "--agent",
        &format!("policy:{}", path("mlp.onnx")),
        "--backend",
        "tract",
        "--seeds",
        "0..2",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("the task suite needs"),
        "{}",
        stderr(&o)
    );
}

/// The shipped policy, trained for the suite's worlds.
fn shipped() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/policies/generalist.onnx")
        .display()
        .to_string()
}

#[test]
fn run_drives_the_shipped_policy_in_a_suite_world_and_reports_its_verdict() {
    let o = evoharness(&[
        "run",
        &shipped(),
        "--backend",
        "tract",
        "--world",
        "records",
        "--horizon",
        "80",
        "--organisation",
        "3",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(j["world"], "records");
    assert_eq!(j["budget"], 80 * 4 + 256, "the task's own budget");
    assert_eq!(j["verdict"]["success"], true, "{j}");
    assert_eq!(j["verdict"]["violations"], 0);
    assert!(j["tools"]["next"].as_u64().unwrap() > 0);
}

#[test]
fn eval_writes_a_trace_line_per_step() {
    let trace = temp("eval-trace.jsonl");
    let o = evoharness(&[
        "eval",
        "--task",
        "migration",
        "--agent",
        "lean-harness",
        "--seeds",
        "0..3",
        "--horizon",
        "60",
        "--organisations",
        "1",
        "--trace",
        trace.to_str().unwrap(),
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let lines = std::fs::read_to_string(&trace).unwrap();
    let n = lines.lines().count() as f64;
    assert_eq!(n, v["mean_steps"].as_f64().unwrap() * 3.0);
    let first: serde_json::Value = serde_json::from_str(lines.lines().next().unwrap()).unwrap();
    assert_eq!(first["step"], 1);
    assert!(first["template"].is_u64());
    let o = evoharness(&[
        "eval",
        "--task",
        "migration",
        "--sweep",
        "--out",
        "x.svg",
        "--trace",
        "t.jsonl",
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("--trace goes with one evaluation"),
        "{}",
        stderr(&o)
    );
    let _ = std::fs::remove_file(&trace);
}

#[test]
fn tune_finds_the_fixed_best_setting_and_one_per_organisation() {
    let o = evoharness(&[
        "tune",
        "--task",
        "migration",
        "--organisations",
        "0..3",
        "--seeds",
        "0..6",
        "--horizon",
        "50",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let r: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(r["settings"], 96);
    let fixed = r["fixed_best"]["rule"].as_str().unwrap();
    assert!(fixed.starts_with("tuned"), "{r}");
    let orgs = r["organisations"].as_array().unwrap();
    assert_eq!(orgs.len(), 3);
    for org in orgs {
        let (mine, fixed) = (
            org["retuned"]["mean_reward"].as_f64().unwrap(),
            org["fixed_best"]["mean_reward"].as_f64().unwrap(),
        );
        assert!(mine >= fixed - 1e-12, "{org}");
    }
    // The table names the fixed-best rule; mistakes are named.
    let o = evoharness(&[
        "tune",
        "--task",
        "migration",
        "--organisations",
        "0..2",
        "--seeds",
        "0..2",
        "--horizon",
        "50",
    ]);
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("fixed-best"),
        "{}",
        stderr(&o)
    );
    let o = evoharness(&["tune", "--task", "migration", "--seeds", "5..5"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("`--seeds 5..5`"), "{}", stderr(&o));
}

/// `fleet`: two agents' store files pushed to a SQLite database (one twice), pulled into a
/// third, shown; every lesson counted once.
#[test]
fn fleet_push_pull_and_show_count_each_lesson_once() {
    use evoharness_core::Value;
    use evoharness_runtime::ExperienceStore;
    let db = format!("sqlite:{}", temp("fleet.db").display());
    let e = Value::text("E429").unwrap();
    let mut files = Vec::new();
    for (id, helpful) in [(1, 1), (2, 2)] {
        let mut s = ExperienceStore::for_replica(8, id).unwrap();
        s.note(e.clone(), Value::Int(7));
        for _ in 0..helpful {
            s.rate(&e, true);
        }
        let f = temp(&format!("agent-{id}.evhe"));
        s.save(&f).unwrap();
        files.push(f.display().to_string());
    }
    for f in [&files[0], &files[1], &files[0]] {
        let o = evoharness(&["fleet", "push", "--db", &db, "--store", f]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let o = evoharness(&["fleet", "push", "--db", &db, "--store", &files[0]]);
    assert!(stdout(&o).contains("(0 rows changed"), "{}", stdout(&o));
    let third = temp("agent-3.evhe").display().to_string();
    for _ in 0..2 {
        let o = evoharness(&[
            "fleet",
            "pull",
            "--db",
            &db,
            "--store",
            &third,
            "--replica",
            "3",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let pulled = ExperienceStore::load(&third).unwrap();
    assert_eq!(pulled.replica(), 3);
    let l = pulled.get(&e).unwrap();
    assert_eq!((l.helpful, l.noted), (3, 2));
    let o = evoharness(&["fleet", "show", "--db", &db, "--json"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(json["replicas"].as_array().unwrap().len(), 2);
    assert_eq!(json["lessons"][0]["helpful"], 3);
    let o = evoharness(&["fleet", "show", "--db", "mysql://x"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("not a fleet database"),
        "{}",
        stderr(&o)
    );
    let o = evoharness(&["fleet", "push", "--db", &db]);
    assert!(stderr(&o).contains("missing --store"), "{}", stderr(&o));
}

/// `fleet worth` on a tiny fleet: the pairs it reports, and refusals.
#[test]
fn fleet_worth_pairs_new_agents_and_refuses_what_it_cannot_measure() {
    let db = format!("sqlite:{}", temp("worth.db").display());
    let args = [
        "fleet",
        "worth",
        "--db",
        &db,
        "--task",
        "migration",
        "--organisations",
        "0..2",
        "--train-seeds",
        "0..3",
        "--seeds",
        "10..13",
        "--json",
    ];
    let o = evoharness(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(json["pairs"], 6);
    assert_eq!(json["fleet_replicas"], 2);
    // The first episode of a new agent that pulled knows the remedies: it fails fewer.
    assert!(
        json["first_episode_gain"]["failed_remedies"]["mean"]
            .as_f64()
            .unwrap()
            < 0.0
    );
    // The database now holds the fleet: a second measurement would mix fleets.
    let o = evoharness(&args);
    assert!(
        stderr(&o).contains("holds replicas already"),
        "{}",
        stderr(&o)
    );
    let v1 = temp("worth-v1.db").display().to_string();
    let o = evoharness(&[
        "fleet",
        "worth",
        "--db",
        &format!("sqlite:{v1}"),
        "--task",
        "migration",
        "--scenario",
        "v1",
    ]);
    assert!(stderr(&o).contains("no experience store"), "{}", stderr(&o));
}

/// `bench` measures a fleet, independent agents and the limit, and prints them as JSON; a
/// batch-1 file works too (one run per agent); bad arguments are named.
#[test]
fn bench_reports_the_fleet_the_independent_agents_and_the_limit() {
    let shipped = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/policies/generalist.onnx")
        .display()
        .to_string();
    let int8 = shipped.replace("generalist.onnx", "generalist-int8.onnx");
    for (policy, batched) in [(&shipped, true), (&int8, false)] {
        let o = evoharness(&[
            "bench",
            "--policy",
            policy,
            "--agents",
            "3",
            "--seconds",
            "0.05",
            "--gemm",
            "64",
            "--backend",
            "tract",
            "--json",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let r: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        assert_eq!(r["agents"], 3);
        assert_eq!(r["batched"], batched, "{policy}");
        for field in [
            "fleet_agent_steps_per_s",
            "independent_agent_steps_per_s",
            "limit_agent_steps_per_s",
            "gemm_flops_per_s",
        ] {
            let x = r[field].as_f64().unwrap_or(0.0);
            assert!(x.is_finite() && x > 0.0, "{field}: {}", r[field]);
        }
        // The shipped MLP: 564·128 + 128·128 + 128·348 + 128·1 multiply-adds.
        if batched {
            assert_eq!(
                r["flops_per_decision"],
                2 * (564 * 128 + 128 * 128 + 128 * 348 + 128)
            );
        }
    }
    let o = evoharness(&["bench", "--agents", "2"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("--policy"), "{}", stderr(&o));
    let o = evoharness(&["bench", "--policy", &shipped, "--agents", "0"]);
    assert!(stderr(&o).contains("--agents 0"), "{}", stderr(&o));
}

/// `convert` writes a native file that `inspect` and `bench` run natively (the int8 policy
/// too), names the operator of a graph it cannot run, and `bench --compare` measures both
/// backends in one run.
#[test]
fn convert_writes_a_native_policy_and_bench_compares_backends() {
    let ehp = temp("mlp.ehp").display().to_string();
    let o = evoharness(&["convert", &path("mlp.onnx"), "-o", &ehp, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let r: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(r["obs_len"], 534);
    assert!(r["operations"].as_u64().unwrap() >= 4, "{r}");
    let o = evoharness(&["inspect", &ehp, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let r: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(r["backend"], "native");
    let o = evoharness(&[
        "inspect",
        &path("mlp.onnx"),
        "--backend",
        "native",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));

    let shipped = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples/policies");
    let int8 = shipped.join("generalist-int8.onnx").display().to_string();
    let o = evoharness(&["convert", &int8, "-o", &ehp]);
    assert!(o.status.success(), "{}", stderr(&o));
    // An operator the evaluator does not have: the fixture's first Gemm renamed.
    let mut bytes = std::fs::read(fixture("mlp.onnx")).unwrap();
    let at = bytes.windows(4).position(|w| w == b"Gemm").unwrap();
    bytes[at..at + 4].copy_from_slice(b"Gelu");
    let gelu = temp("gelu.onnx");
    std::fs::write(&gelu, &bytes).unwrap();
    let o = evoharness(&["convert", &gelu.display().to_string(), "-o", &ehp]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("operator `Gelu`"), "{}", stderr(&o));
    let o = evoharness(&["convert", &path("mlp.onnx")]);
    assert!(stderr(&o).contains("-o FILE"), "{}", stderr(&o));

    let generalist = shipped.join("generalist.onnx").display().to_string();
    let o = evoharness(&[
        "bench",
        "--policy",
        &generalist,
        "--agents",
        "3",
        "--seconds",
        "0.05",
        "--gemm",
        "64",
        "--backend",
        "native",
        "--compare",
        "tract",
        "--no-independent",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let r: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(r["backend"], "native");
    assert_eq!(r["compare"]["backend"], "tract");
    assert_eq!(r["gemm_backend"], "tract");
    for x in [
        &r["lone_agent_step_us"],
        &r["compare"]["lone_agent_step_us"],
        &r["compare"]["lone_step_speedup"],
        &r["compare"]["fleet_speedup"],
    ] {
        let x = x.as_f64().unwrap_or(0.0);
        assert!(x.is_finite() && x > 0.0, "{r}");
    }
}
