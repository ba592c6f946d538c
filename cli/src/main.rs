//! `evoharness`: inspect and run policy files (structured v1 and v2, generative v1) from the
//! command line, evaluate agents on the task suite, and show traces.
//!
//! `evoharness --help` and `evoharness COMMAND --help` say how. Arguments are parsed by hand
//! (see `args`), to keep the tool's build small.

mod args;
mod bench;
mod convert;
mod eval;
mod failure;
mod fleet;
mod fleet_worth;
mod flops;
mod inspect;
mod options;
mod run;
mod tune;
mod view;

use std::process::ExitCode;

use args::Usage;
use failure::Failure;

const HELP: &str = "\
evoharness: inspect and run policy files (ONNX: structured v1 and v2, generative v1), evaluate
agents on the task suite, share their experience, and show what they did

Usage:
  evoharness inspect POLICY.onnx [OPTIONS]  print a policy's contract, check that it loads and runs
  evoharness run POLICY.onnx [OPTIONS]      run a policy in a built-in world (the fixture or a
                                            suite task), with a summary
  evoharness resume CHECKPOINT POLICY.onnx  continue a run from its checkpoint (run --checkpoint)
  evoharness eval --task TASK --agent AGENT
                                            evaluate an agent (a baseline or a policy) on the
                                            task suite
  evoharness tune --task TASK --scenario v3
                                            the best rule setting over deployments, and per
                                            region of them
  evoharness view TRACE.jsonl -o PAGE.html  a trace as a page for a browser (or --follow: live)
  evoharness convert POLICY.onnx -o POLICY.ehp
                                            an MLP policy for the native backend and devices
  evoharness bench --policy POLICY.onnx --agents N
                                            agent-steps/s of a fleet, of independent agents,
                                            and the arithmetic limit, on one core
  evoharness fleet push|pull|show|worth --db URL
                                            share experience stores through a database
  evoharness help [COMMAND]                 this help, or a command's
  evoharness --version

`evoharness COMMAND --help` lists a command's options.

Backends: tract (pure Rust, built in) or ONNX Runtime, loaded at run time from
$EVOHARNESS_ORT_LIB or third_party/onnxruntime/lib/libonnxruntime.so (scripts/fetch-onnxruntime.sh
puts it there). `--backend auto`, the default, takes ONNX Runtime when it is found, else tract.
`--backend native` runs MLP policies on the built-in evaluator (no ort; `evoharness convert`).

Exit status:
  0  success
  1  any other error: bad arguments, a file that cannot be read or written, a backend or
     device that is not available, a failure while running
  2  the policy file is not a valid policy, structured (v1, v2) or generative (v1): not ONNX,
     missing or wrong metadata, inputs or outputs that do not fit its layout
";

fn main() -> ExitCode {
    let mut argv = std::env::args_os().skip(1);
    let mut args = Vec::new();
    for a in argv.by_ref() {
        match a.into_string() {
            Ok(s) => args.push(s),
            Err(a) => {
                return Failure::other(format!(
                    "argument {} is not valid UTF-8",
                    a.to_string_lossy()
                ))
                .report();
            }
        }
    }
    match dispatch(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => f.report(),
    }
}

fn dispatch(args: Vec<String>) -> Result<(), Failure> {
    let mut args = args.into_iter();
    let Some(command) = args.next() else {
        print!("{HELP}");
        return Err(Failure::other(
            "no command given; try `evoharness inspect POLICY.onnx`",
        ));
    };
    match command.as_str() {
        "inspect" => inspect::main(args),
        "run" => run::main(args),
        "resume" => run::resume(args),
        "eval" => eval::main(args),
        "tune" => tune::main(args),
        "view" => view::main(args),
        "fleet" => fleet::main(args),
        "bench" => bench::main(args),
        "convert" => convert::main(args),
        "-h" | "--help" => {
            print!("{HELP}");
            Ok(())
        }
        "help" => match args.next().as_deref() {
            None => {
                print!("{HELP}");
                Ok(())
            }
            Some("inspect") => {
                print!("{}", inspect::help());
                Ok(())
            }
            Some("run") => {
                print!("{}", run::help());
                Ok(())
            }
            Some("resume") => {
                print!("{}", run::resume_help());
                Ok(())
            }
            Some("eval") => {
                print!("{}", eval::help());
                Ok(())
            }
            Some("tune") => {
                print!("{}", tune::help());
                Ok(())
            }
            Some("view") => {
                print!("{}", view::help());
                Ok(())
            }
            Some("fleet") => {
                print!("{}", fleet::help());
                Ok(())
            }
            Some("bench") => {
                print!("{}", bench::help());
                Ok(())
            }
            Some("convert") => {
                print!("{}", convert::help());
                Ok(())
            }
            Some(other) => Err(unknown_command(other).into()),
        },
        "-V" | "--version" => {
            println!("evoharness {}", env!("CARGO_PKG_VERSION"));
            Ok(())
        }
        other => Err(unknown_command(other).into()),
    }
}

fn unknown_command(name: &str) -> Usage {
    let hint = if name.ends_with(".onnx") {
        format!(" (to look at a policy: `evoharness inspect {name}`)")
    } else if name.starts_with('-') {
        " (options go after the command: `evoharness inspect --help`)".to_string()
    } else {
        String::new()
    };
    Usage::new(
        "",
        format!(
            "unknown command `{name}`: expected inspect, run, resume, eval, tune, view, fleet, bench or convert{hint}"
        ),
    )
}

/// Warnings (and with `--verbose`, information) from the runtime's `log` calls, on stderr.
struct StderrLog {
    verbose: bool,
}

impl log::Log for StderrLog {
    fn enabled(&self, m: &log::Metadata<'_>) -> bool {
        let max = if self.verbose {
            log::Level::Debug
        } else {
            log::Level::Warn
        };
        m.level() <= max && m.target().starts_with("evoharness")
    }

    fn log(&self, r: &log::Record<'_>) {
        if self.enabled(r.metadata()) {
            let level = match r.level() {
                log::Level::Error => "error",
                log::Level::Warn => "warning",
                log::Level::Info => "info",
                log::Level::Debug | log::Level::Trace => "debug",
            };
            eprintln!("{level}: {}", r.args());
        }
    }

    fn flush(&self) {}
}

/// Sends the runtime's log records to stderr; once per process.
pub(crate) fn init_log(verbose: bool) {
    let logger: &'static StderrLog = Box::leak(Box::new(StderrLog { verbose }));
    if log::set_logger(logger).is_ok() {
        log::set_max_level(log::LevelFilter::Debug);
    }
}
