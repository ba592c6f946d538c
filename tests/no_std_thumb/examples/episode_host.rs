//! The host's run of the scripted episode (`src/episode.rs`), for both capacity sets: prints
//! the same `episode ...` lines as the Cortex-M images do under qemu-system-arm, which
//! `check.sh` compares.
//!
//! ```sh
//! cargo run --release --example episode_host --target "$(rustc -vV | sed -n 's/^host: //p')"
//! ```

use std::process::ExitCode;

use evoharness_no_std_thumb::episode::{self, Run, large, suite};

fn main() -> ExitCode {
    let sets: [(&str, Run); 2] = [(suite::NAME, suite::run), (large::NAME, large::run)];
    for (name, run) in sets {
        match run() {
            Ok(d) => println!("episode {name}: {d}"),
            Err(e) => {
                eprintln!("episode {name}: failed at {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    if cfg!(feature = "_changed_script") {
        eprintln!(
            "(built with _changed_script: the first event from step {} on differs)",
            episode::CHANGED_STEP
        );
    }
    ExitCode::SUCCESS
}
