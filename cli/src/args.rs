//! A small, strict command-line parser: `--flag VALUE`, `--flag=VALUE`, switches, positionals,
//! `--` to end flags. Every mistake is a [`Usage`] error that names the flag and, for a typo,
//! the flag that was probably meant.

use std::str::FromStr;

/// A flag a subcommand accepts.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Flag {
    /// With its dashes: `--seed`.
    pub(crate) name: &'static str,
    /// What its value is, for messages (`a number`); `None` for a switch.
    pub(crate) value: Option<&'static str>,
}

impl Flag {
    /// A flag that takes a value.
    pub(crate) const fn value(name: &'static str, what: &'static str) -> Self {
        Self {
            name,
            value: Some(what),
        }
    }

    /// A switch.
    pub(crate) const fn switch(name: &'static str) -> Self {
        Self { name, value: None }
    }
}

/// A mistake on the command line, reported with a pointer to the subcommand's `--help`.
#[derive(Debug)]
pub(crate) struct Usage {
    /// `inspect`, `run`, ... or empty for the top level.
    pub(crate) command: &'static str,
    pub(crate) message: String,
}

impl Usage {
    pub(crate) fn new(command: &'static str, message: impl Into<String>) -> Self {
        Self {
            command,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for Usage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let help = if self.command.is_empty() {
            "evoharness --help".to_string()
        } else {
            format!("evoharness {} --help", self.command)
        };
        write!(f, "{}; see `{help}`", self.message)
    }
}

/// A subcommand's parsed arguments.
#[derive(Debug, Default)]
pub(crate) struct Parsed {
    command: &'static str,
    pub(crate) positionals: Vec<String>,
    values: Vec<(&'static str, Option<String>)>,
    /// `-h` or `--help` was given.
    pub(crate) help: bool,
}

/// Parses `args` (after the subcommand's name) against `flags`.
pub(crate) fn parse(
    command: &'static str,
    flags: &'static [Flag],
    args: impl IntoIterator<Item = String>,
) -> Result<Parsed, Usage> {
    let mut out = Parsed {
        command,
        ..Parsed::default()
    };
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        if arg == "--" {
            out.positionals.extend(args.by_ref());
            break;
        }
        if arg == "-h" || arg == "--help" {
            out.help = true;
            continue;
        }
        if !arg.starts_with('-') || arg == "-" {
            out.positionals.push(arg);
            continue;
        }
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (arg.as_str(), None),
        };
        let Some(flag) = flags.iter().find(|f| f.name == name) else {
            return Err(Usage::new(command, unknown_flag(command, name, flags)));
        };
        if out.values.iter().any(|(n, _)| *n == flag.name) {
            return Err(Usage::new(
                command,
                format!("`{}` is given twice", flag.name),
            ));
        }
        let value = match (flag.value, inline) {
            (None, None) => None,
            (None, Some(_)) => {
                return Err(Usage::new(
                    command,
                    format!("`{}` is a switch and takes no value", flag.name),
                ));
            }
            (Some(_), Some(v)) => Some(v),
            (Some(what), None) => match args.next() {
                Some(v) if !v.starts_with("--") => Some(v),
                _ => {
                    return Err(Usage::new(
                        command,
                        format!("`{}` needs a value ({what})", flag.name),
                    ));
                }
            },
        };
        out.values.push((flag.name, value));
    }
    Ok(out)
}

fn unknown_flag(command: &str, name: &str, flags: &[Flag]) -> String {
    let mut msg = if command.is_empty() {
        format!("unknown flag `{name}`")
    } else {
        format!("unknown flag `{name}` for `evoharness {command}`")
    };
    let close = flags
        .iter()
        .map(|f| (distance(name, f.name), f.name))
        .filter(|(d, _)| *d <= 2)
        .min();
    if let Some((_, near)) = close {
        msg.push_str(&format!(" (did you mean `{near}`?)"));
    }
    msg
}

/// Levenshtein distance, for "did you mean".
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

impl Parsed {
    /// Whether switch `name` was given.
    pub(crate) fn switch(&self, name: &str) -> bool {
        self.values.iter().any(|(n, _)| *n == name)
    }

    /// The value of flag `name`, if given.
    pub(crate) fn value(&self, name: &str) -> Option<&str> {
        self.values
            .iter()
            .find(|(n, _)| *n == name)
            .and_then(|(_, v)| v.as_deref())
    }

    /// The value of flag `name` parsed as `T`; `what` describes a good value.
    pub(crate) fn parse<T: FromStr>(&self, name: &str, what: &str) -> Result<Option<T>, Usage> {
        self.value(name)
            .map(|v| {
                v.parse()
                    .map_err(|_| Usage::new(self.command, format!("`{name} {v}`: expected {what}")))
            })
            .transpose()
    }

    /// Exactly the positionals `names` (for messages: `POLICY`, `CHECKPOINT`), in order.
    pub(crate) fn positionals<const N: usize>(
        &self,
        names: [(&str, &str); N],
    ) -> Result<[&str; N], Usage> {
        if let Some((name, what)) = names.get(self.positionals.len()) {
            return Err(Usage::new(self.command, format!("missing {name} ({what})")));
        }
        if let Some(extra) = self.positionals.get(N) {
            let hint = if extra.starts_with('-') {
                String::new()
            } else {
                format!(
                    " (`evoharness {}` takes {})",
                    self.command,
                    names.map(|(n, _)| n).join(" ")
                )
            };
            return Err(Usage::new(
                self.command,
                format!("unexpected argument `{extra}`{hint}"),
            ));
        }
        Ok(std::array::from_fn(|i| self.positionals[i].as_str()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FLAGS: &[Flag] = &[
        Flag::value("--seed", "a number"),
        Flag::switch("--cpu-fallback"),
    ];

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn values_switches_and_positionals() {
        let p = parse("run", FLAGS, args("a.onnx --seed 3 --cpu-fallback")).unwrap();
        assert!(p.positionals([("POLICY", ""), ("MORE", "")]).is_err());
        assert_eq!(p.positionals([("POLICY", "")]).unwrap(), ["a.onnx"]);
        assert_eq!(p.parse::<u64>("--seed", "a number").unwrap(), Some(3));
        assert!(p.switch("--cpu-fallback"));
        let p = parse("run", FLAGS, args("--seed=4 -- --odd")).unwrap();
        assert_eq!(p.value("--seed"), Some("4"));
        assert_eq!(p.positionals, ["--odd"]);
    }

    #[test]
    fn mistakes_are_named() {
        let e = parse("run", FLAGS, args("--sed 3")).unwrap_err();
        assert!(e.to_string().contains("did you mean `--seed`"), "{e}");
        assert!(e.to_string().contains("evoharness run --help"), "{e}");
        let e = parse("run", FLAGS, args("--seed")).unwrap_err();
        assert!(e.to_string().contains("needs a value"), "{e}");
        let e = parse("run", FLAGS, args("--seed 1 --seed 2")).unwrap_err();
        assert!(e.to_string().contains("twice"), "{e}");
        let e = parse("run", FLAGS, args("--cpu-fallback=yes")).unwrap_err();
        assert!(e.to_string().contains("takes no value"), "{e}");
        let p = parse("run", FLAGS, args("--seed x")).unwrap();
        assert!(p.parse::<u64>("--seed", "a number").is_err());
        assert_eq!(distance("kitten", "sitting"), 3);
    }
}
