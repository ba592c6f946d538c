//! How the tool fails: one line on stderr, `error: <file>: <what is wrong>: <cause>: ...`, and
//! an exit code that tells a bad policy (2) from everything else (1).

use std::process::ExitCode;

use evoharness_runtime::{Error, ErrorKind};

use crate::args::Usage;

/// Exit code of a policy file that is not a valid policy (structured v1 or v2, generative v1).
pub(crate) const EXIT_BAD_POLICY: u8 = 2;
/// Exit code of every other failure: usage, I/O, backend, device, inference.
pub(crate) const EXIT_OTHER: u8 = 1;

/// A failure, ready to print.
#[derive(Debug)]
pub(crate) struct Failure {
    pub(crate) line: String,
    pub(crate) code: u8,
}

impl Failure {
    /// Prints the line and turns into the exit code.
    pub(crate) fn report(self) -> ExitCode {
        eprintln!("error: {}", self.line);
        ExitCode::from(self.code)
    }

    /// A runtime error about `file` (a policy, a trace, a checkpoint), with its cause chain.
    pub(crate) fn about(file: &str, e: &Error) -> Self {
        let what = describe(e, file);
        let hint = if e.kind() == ErrorKind::Policy {
            policy_hint(&what)
        } else {
            ""
        };
        Self {
            line: format!("{file}: {what}{hint}"),
            code: code(e),
        }
    }

    /// A runtime error that concerns no one file (backend, device, configuration).
    pub(crate) fn runtime(e: &Error) -> Self {
        Self {
            line: describe(e, ""),
            code: code(e),
        }
    }

    /// An I/O error about `file`.
    pub(crate) fn io(file: &str, doing: &str, e: &std::io::Error) -> Self {
        Self {
            line: format!("{file}: {doing}: {e}"),
            code: EXIT_OTHER,
        }
    }

    /// Anything else, already phrased.
    pub(crate) fn other(line: impl Into<String>) -> Self {
        Self {
            line: line.into(),
            code: EXIT_OTHER,
        }
    }
}

impl From<Usage> for Failure {
    fn from(u: Usage) -> Self {
        Self {
            line: u.to_string(),
            code: EXIT_OTHER,
        }
    }
}

fn code(e: &Error) -> u8 {
    match e.kind() {
        ErrorKind::Policy => EXIT_BAD_POLICY,
        _ => EXIT_OTHER,
    }
}

/// The error's message without the file name the runtime puts in front of it (the line starts
/// with the file already), then each cause, joined with ": ".
pub(crate) fn describe(e: &Error, file: &str) -> String {
    let mut parts = vec![strip_file(e.message(), file)];
    let mut cause = std::error::Error::source(e);
    while let Some(c) = cause {
        let next = c.source();
        // A runtime error's Display already ends with its cause; other errors may do the same.
        let text = match c.downcast_ref::<Error>() {
            Some(r) => r.message().to_string(),
            None => {
                let t = c.to_string();
                match next.map(|n| n.to_string()) {
                    Some(n) if t.ends_with(&format!(": {n}")) => {
                        t[..t.len() - n.len() - 2].to_string()
                    }
                    _ => t,
                }
            }
        };
        let text = text.trim().to_string();
        if !text.is_empty() && parts.last() != Some(&text) {
            parts.push(text);
        }
        cause = next;
    }
    parts.join(": ")
}

/// What to do about a policy file the runtime refused, for someone who did not write the
/// runtime: where the contract is written down, and where the sizes come from.
fn policy_hint(what: &str) -> &'static str {
    if what.contains("POLICY.md") {
        ""
    } else if what.contains("not a valid ONNX model") {
        " (is the file cut short, or not an ONNX file at all?)"
    } else if what.contains("layout") || what.contains("columns") {
        "; take obs_len and actions from `cargo run -p evoharness-core --example layout -- FACTS \
         STEPS LESSONS TOOLS [VERSION]` (runtime/POLICY.md, \"Sizes\")"
    } else {
        " (runtime/POLICY.md says what a policy file must contain)"
    }
}

/// `"FILE: what"` → `"what"`; `"FILE is not X"` → `"not X"`; `"doing X FILE"` stays.
fn strip_file(msg: &str, file: &str) -> String {
    if file.is_empty() {
        return msg.to_string();
    }
    match msg.strip_prefix(file) {
        Some(rest) => rest
            .strip_prefix(": ")
            .or_else(|| rest.strip_prefix(" is "))
            .unwrap_or(rest)
            .trim_start()
            .to_string(),
        None => msg.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_name_is_said_once() {
        assert_eq!(strip_file("a.onnx: no metadata", "a.onnx"), "no metadata");
        assert_eq!(
            strip_file("a.onnx is not a valid ONNX model", "a.onnx"),
            "not a valid ONNX model"
        );
        assert_eq!(strip_file("reading b.onnx", "a.onnx"), "reading b.onnx");
        let e = Error::new(ErrorKind::Policy, "a.onnx: bad").with_source(
            Error::new(ErrorKind::Io, "inner").with_source(std::io::Error::other("deep")),
        );
        assert_eq!(describe(&e, "a.onnx"), "bad: inner: deep");
        assert_eq!(Failure::about("a.onnx", &e).code, EXIT_BAD_POLICY);
    }
}
