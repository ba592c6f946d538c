//! Writes the seed corpus into `corpus/` beside the fuzz crate's manifest, replacing what is
//! there; with `--check`, only reports how it differs (exit status 1 if it does).

use std::process::ExitCode;

use evoharness_fuzz::seeds;

fn main() -> ExitCode {
    let dir = seeds::corpus_dir();
    if std::env::args().nth(1).as_deref() == Some("--check") {
        let diff = seeds::stale(&dir).expect("the corpus is readable");
        for line in &diff {
            eprintln!("{line}");
        }
        return if diff.is_empty() {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        };
    }
    seeds::write(&dir).expect("the corpus is writable");
    let n = seeds::all().len();
    println!("wrote {n} seeds under {}", dir.display());
    ExitCode::SUCCESS
}
