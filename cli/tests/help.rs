//! What `evoharness` says about itself: every command's `--help` answers, names its command and
//! fits a terminal, the tool's help names every kind of policy file the runtime loads, and
//! `eval`'s table counts what it ran.

use std::process::Command;

fn evoharness(args: &[&str]) -> (bool, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_evoharness"))
        .args(args)
        .env_remove("EVOHARNESS_ORT_LIB")
        .output()
        .unwrap();
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
    )
}

const COMMANDS: [&str; 9] = [
    "inspect", "run", "resume", "eval", "tune", "view", "fleet", "bench", "convert",
];

#[test]
fn every_help_answers_names_its_command_and_fits_100_columns() {
    let (ok, top) = evoharness(&["--help"]);
    assert!(ok);
    for c in COMMANDS {
        assert!(
            top.contains(&format!("evoharness {c} ")),
            "{c} is not in --help"
        );
        let (ok, help) = evoharness(&[c, "--help"]);
        assert!(ok, "{c} --help");
        assert!(help.starts_with(&format!("evoharness {c}: ")), "{help}");
        assert_eq!(
            help,
            evoharness(&["help", c]).1,
            "`help {c}` is `{c} --help`"
        );
    }
    for (c, help) in COMMANDS
        .iter()
        .map(|c| (*c, evoharness(&[c, "--help"]).1))
        .chain([("", top)])
    {
        for line in help.lines() {
            assert!(line.chars().count() <= 100, "{c} --help: {line:?}");
        }
    }
}

#[test]
fn the_help_names_every_kind_of_policy_file() {
    let (_, top) = evoharness(&["--help"]);
    for kind in ["structured v1 and v2", "generative v1"] {
        assert!(top.contains(kind), "{top}");
    }
    let (_, run) = evoharness(&["run", "--help"]);
    assert!(
        run.contains("structured-v1 or -v2, or a generative-v1"),
        "{run}"
    );
}

#[test]
fn eval_counts_the_episodes_and_the_organisations_they_ran_in() {
    for (seeds, orgs, want) in [
        ("0..3", "4", "3 episodes in 3 organisations"),
        ("0..1", "1", "1 episode in 1 organisation"),
        ("0..6", "0..2", "6 episodes in 2 organisations"),
    ] {
        let (ok, out) = evoharness(&[
            "eval",
            "--task",
            "migration",
            "--agent",
            "oracle",
            "--seeds",
            seeds,
            "--horizon",
            "50",
            "--organisations",
            orgs,
        ]);
        assert!(ok && out.lines().next().unwrap().ends_with(want), "{out}");
    }
}
