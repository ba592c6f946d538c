//! A trace file read into what the page shows: per-step columns, the workspace parts as
//! interned JSON texts with the steps where each changed, episodes and bad lines.
//!
//! The trace is untrusted input: a line that is not a step record of the format
//! (`runtime/TRACE.md`) becomes an [`BadLine`] with its line number, and reading goes on. Nothing
//! here panics on any input. Lines are fed one at a time, so `--follow` reads a growing file
//! with the same code.

use std::collections::HashMap;

use serde::Deserialize;
use serde_json::{Value, json};

/// The trace format version this viewer reads (the runtime's `TRACE_VERSION`).
pub(crate) const VERSION: u32 = 1;

/// How many bad lines are kept with their message (the rest are counted).
const BAD_LINES_KEPT: usize = 1000;

/// The verbs, in the core's order (`Verb as u8`), as the action JSON names them.
const VERBS: [&str; 6] = ["Act", "Track", "Commit", "Recall", "Note", "Finish"];

/// Flag bits of a step.
const FLAG_ERROR_EVENT: u8 = 1;
const FLAG_NOTICE_EVENT: u8 = 2;

/// The workspace parts, in the order of [`Model::changes`].
const PARTS: [&str; 4] = ["event", "belief", "progress", "experience"];

/// One line of a trace, as the format has it. Unknown fields are ignored (a later minor
/// addition), missing required ones are a bad line.
#[derive(Deserialize)]
struct Line {
    step: u64,
    template: Option<u64>,
    action: Value,
    outcome: Value,
    cost: u32,
    spent: Option<u32>,
    clock: Option<u32>,
    event: Option<Value>,
    belief: Option<Vec<Value>>,
    progress: Option<Vec<Value>>,
    experience: Option<Vec<Value>>,
    begin: Option<Begin>,
    end: Option<Value>,
}

#[derive(Deserialize)]
struct Begin {
    trace: u32,
    seed: Option<u64>,
    budget: u32,
    steps: u64,
    clock: u32,
    spent: u32,
    #[serde(default)]
    tools: Vec<Option<String>>,
    event: Option<Value>,
    belief: Vec<Value>,
    progress: Vec<Value>,
    experience: Vec<Value>,
}

/// A line that could not be read as a step.
#[derive(Clone, Debug)]
pub(crate) struct BadLine {
    pub(crate) line: u64,
    pub(crate) message: String,
}

/// One episode (a task, or the part of one that was traced).
#[derive(Debug, Default)]
struct Episode {
    /// Index of its first step.
    first: usize,
    /// Its steps in the trace.
    count: usize,
    /// The trace line of its first step.
    line: u64,
    seed: Option<u64>,
    budget: Option<u32>,
    /// Task steps before its first traced step.
    steps0: u64,
    /// Workspace clock before its first traced step, if the trace says.
    clock0: Option<u32>,
    /// Budget spent before its first traced step.
    spent0: u32,
    tools: Vec<Option<String>>,
    end: Option<Value>,
    verbs: [u64; 6],
    error_events: u64,
    /// Whether it has a `begin` (the workspace is known from its start).
    begin: bool,
    /// The step number of its last step (to find where an unmarked episode ends).
    last_step: u64,
}

/// A trace read so far.
#[derive(Default)]
pub(crate) struct Model {
    /// Lines read.
    lines: u64,
    verb: Vec<u8>,
    cost: Vec<u32>,
    flag: Vec<u8>,
    /// The action and outcome of each step, as string ids.
    act: Vec<u32>,
    out: Vec<u32>,
    /// Template index per step, -1 for none.
    template: Vec<i64>,
    strings: Vec<String>,
    ids: HashMap<String, u32>,
    /// Per part: (position, string id), where position `2i` is before step `i` and `2i+1`
    /// after it.
    changes: [Vec<(u64, u32)>; 4],
    episodes: Vec<Episode>,
    bad: Vec<BadLine>,
    bad_count: u64,
    /// Lines that are not steps (bad or blank), in order, for line numbers of steps.
    skipped: Vec<u64>,
}

impl Model {
    /// Steps read.
    pub(crate) fn steps(&self) -> usize {
        self.verb.len()
    }

    /// Strings interned.
    pub(crate) fn strings(&self) -> usize {
        self.strings.len()
    }

    /// Bad lines, as many as are kept.
    pub(crate) fn bad_lines(&self) -> &[BadLine] {
        &self.bad
    }

    /// Reads the next line (without its end of line).
    pub(crate) fn feed(&mut self, text: &str) {
        self.lines += 1;
        let n = self.lines;
        if text.trim().is_empty() {
            self.skipped.push(n);
            return;
        }
        match serde_json::from_str::<Line>(text) {
            Ok(line) => {
                if let Err(message) = self.add(line) {
                    self.bad_line(n, message);
                }
            }
            Err(e) => {
                let message = if e.is_eof() {
                    format!("truncated: {e}")
                } else {
                    e.to_string()
                };
                self.bad_line(n, message);
            }
        }
    }

    /// Counts a line that is not text (not UTF-8).
    pub(crate) fn feed_binary(&mut self) {
        self.lines += 1;
        self.bad_line(self.lines, "not UTF-8 text".into());
    }

    /// Reads a whole trace.
    #[cfg(test)]
    pub(crate) fn read(text: &str) -> Model {
        let mut m = Model::default();
        for line in text.lines() {
            m.feed(line);
        }
        m
    }

    fn bad_line(&mut self, line: u64, message: String) {
        self.skipped.push(line);
        self.bad_count += 1;
        if self.bad.len() < BAD_LINES_KEPT {
            self.bad.push(BadLine { line, message });
        }
    }

    fn intern(&mut self, v: &Value) -> u32 {
        let s = v.to_string();
        if let Some(&id) = self.ids.get(&s) {
            return id;
        }
        let id = u32::try_from(self.strings.len()).unwrap_or(u32::MAX);
        self.strings.push(s.clone());
        self.ids.insert(s, id);
        id
    }

    fn change(&mut self, part: usize, pos: u64, v: &Value) {
        let id = self.intern(v);
        if let Some(list) = self.changes.get_mut(part) {
            list.push((pos, id));
        }
    }

    /// Checks a line and adds its step; an `Err` changes nothing.
    fn add(&mut self, line: Line) -> Result<(), String> {
        let verb = verb_of(&line.action)?;
        if let Some(b) = &line.begin
            && b.trace != VERSION
        {
            return Err(format!(
                "trace format version {} (this viewer reads version {VERSION})",
                b.trace
            ));
        }
        if line.step == 0 {
            return Err("`step` is 0; steps count from 1".into());
        }
        let i = self.steps();
        let pos = 2 * i as u64;
        let new_episode = match self.episodes.last() {
            None => true,
            Some(e) => line.begin.is_some() || e.end.is_some() || line.step <= e.last_step,
        };
        if new_episode {
            let mut e = Episode {
                first: i,
                line: self.lines,
                steps0: line.step - 1,
                clock0: line.clock.map(|c| c.wrapping_sub(1)),
                spent0: line.spent.map_or(0, |s| s.saturating_sub(line.cost)),
                ..Episode::default()
            };
            if let Some(b) = &line.begin {
                e.seed = b.seed;
                e.budget = Some(b.budget);
                e.steps0 = b.steps;
                e.clock0 = Some(b.clock);
                e.spent0 = b.spent;
                e.tools = b.tools.clone();
                e.begin = true;
            }
            self.episodes.push(e);
            if let Some(b) = line.begin {
                let event = b.event.unwrap_or(Value::Null);
                self.change(0, pos, &event);
                self.change(1, pos, &Value::Array(b.belief));
                self.change(2, pos, &Value::Array(b.progress));
                self.change(3, pos, &Value::Array(b.experience));
            }
        }
        let mut flag = 0;
        if let Some(ev) = &line.event {
            match ev.get("kind").and_then(Value::as_str) {
                Some("Error") => flag |= FLAG_ERROR_EVENT,
                Some("Notice") => flag |= FLAG_NOTICE_EVENT,
                _ => {}
            }
            self.change(0, pos + 1, ev);
        }
        for (part, table) in [(1, line.belief), (2, line.progress), (3, line.experience)] {
            if let Some(t) = table {
                self.change(part, pos + 1, &Value::Array(t));
            }
        }
        let act = self.intern(&line.action);
        let out = self.intern(&line.outcome);
        self.verb.push(verb);
        self.cost.push(line.cost);
        self.flag.push(flag);
        self.act.push(act);
        self.out.push(out);
        self.template
            .push(line.template.map_or(-1, |t| i64::try_from(t).unwrap_or(-1)));
        if let Some(e) = self.episodes.last_mut() {
            e.count += 1;
            e.last_step = line.step;
            if let Some(c) = e.verbs.get_mut(usize::from(verb)) {
                *c += 1;
            }
            if flag & FLAG_ERROR_EVENT != 0 {
                e.error_events += 1;
            }
            e.end = line.end;
        }
        Ok(())
    }

    /// What the page gets: the steps from `from`, the strings from `strings_from`, the change
    /// points from those steps on, and every episode and kept bad line.
    pub(crate) fn payload(&self, from: usize, strings_from: usize) -> Value {
        let from = from.min(self.steps());
        let strings_from = strings_from.min(self.strings.len());
        let changes: Vec<Value> = self
            .changes
            .iter()
            .map(|list| {
                let start = list.partition_point(|(p, _)| *p < 2 * from as u64);
                Value::Array(
                    list[start..]
                        .iter()
                        .flat_map(|(p, id)| [json!(p), json!(id)])
                        .collect(),
                )
            })
            .collect();
        let episodes: Vec<Value> = self
            .episodes
            .iter()
            .map(|e| {
                json!({
                    "first": e.first,
                    "count": e.count,
                    "line": e.line,
                    "seed": e.seed.map(|s| s.to_string()),
                    "budget": e.budget,
                    "steps0": e.steps0,
                    "clock0": e.clock0,
                    "spent0": e.spent0,
                    "tools": e.tools,
                    "end": e.end,
                    "verbs": e.verbs,
                    "errorEvents": e.error_events,
                    "begin": e.begin,
                })
            })
            .collect();
        let bad: Vec<Value> = self
            .bad
            .iter()
            .map(|b| json!({"line": b.line, "message": b.message}))
            .collect();
        json!({
            "version": VERSION,
            "from": from,
            "stringsFrom": strings_from,
            "lines": self.lines,
            "verb": &self.verb[from..],
            "cost": &self.cost[from..],
            "flag": &self.flag[from..],
            "act": &self.act[from..],
            "out": &self.out[from..],
            "template": &self.template[from..],
            "strings": &self.strings[strings_from..],
            "parts": PARTS,
            "changes": changes,
            "episodes": episodes,
            "bad": bad,
            "badCount": self.bad_count,
            "skipped": self.skipped,
        })
    }
}

/// The verb of an action in serde's JSON form (`{"Act":{..}}`), as the core numbers it.
fn verb_of(action: &Value) -> Result<u8, String> {
    let name = match action {
        Value::Object(m) if m.len() == 1 => m.keys().next().map(String::as_str),
        _ => None,
    };
    name.and_then(|n| VERBS.iter().position(|v| *v == n))
        .and_then(|i| u8::try_from(i).ok())
        .ok_or_else(|| {
            format!(
                "`action` is not one of {} (an object with one of those keys)",
                VERBS.join(", ")
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    const BEGIN: &str = r#""begin":{"trace":1,"seed":5,"budget":9,"steps":0,"clock":40,"spent":0,"tools":["read"],"event":null,"belief":[],"progress":[],"experience":[]}"#;

    fn act(step: u64) -> String {
        format!(
            r#"{{"step":{step},"template":1,"action":{{"Act":{{"tool":0,"args":[]}}}},"outcome":{{"Call":{{"tool":0,"args":[]}}}},"cost":1,"spent":{step},"clock":{},"event":{{"kind":"Error","source":0,"fields":[]}}}}"#,
            40 + step
        )
    }

    #[test]
    fn bad_lines_are_listed_by_number_and_the_rest_is_read() {
        let first = act(1).replacen('{', &format!("{{{BEGIN},"), 1);
        let text = [
            first.as_str(),
            "",
            "{not json",
            r#"{"step":2,"template":null,"action":{"Jump":{}},"outcome":{},"cost":1}"#,
            r#"{"step":2}"#,
            &act(2),
            r#"{"step":3,"template":null,"action":{"Finish":{"success":true}},"outcome":{"Finished":{"success":true}},"cost":0,"end":{"finished":true,"verdict":null}}"#,
            &act(1).replacen('{', r#"{"begin":{"trace":2,"seed":null,"budget":1,"steps":0,"clock":0,"spent":0,"belief":[],"progress":[],"experience":[]},"#, 1),
            &act(1)[..30],
        ]
        .join("\n");
        let m = Model::read(&text);
        let bad: Vec<(u64, &str)> = m.bad.iter().map(|b| (b.line, b.message.as_str())).collect();
        assert_eq!(bad.iter().map(|b| b.0).collect::<Vec<_>>(), [3, 4, 5, 8, 9]);
        assert!(
            bad[1].1.contains("`action` is not one of Act"),
            "{}",
            bad[1].1
        );
        assert!(bad[2].1.contains("missing field"), "{}", bad[2].1);
        assert!(bad[3].1.contains("version 2"), "{}", bad[3].1);
        assert!(bad[4].1.starts_with("truncated"), "{}", bad[4].1);
        assert_eq!(m.steps(), 3);
        assert_eq!(m.verb, [0, 0, 5]);
        assert_eq!(m.flag, [FLAG_ERROR_EVENT, FLAG_ERROR_EVENT, 0]);
        // Blank and bad lines are skipped lines: the page numbers the steps' lines from them.
        assert_eq!(m.skipped, [2, 3, 4, 5, 8, 9]);
        let p = m.payload(0, 0);
        assert_eq!(p["episodes"].as_array().unwrap().len(), 1);
        assert_eq!(p["episodes"][0]["seed"], "5");
        assert_eq!(p["episodes"][0]["clock0"], 40);
        assert_eq!(p["episodes"][0]["end"]["finished"], true);
        // The begin's parts sit before step 0 (position 0), the events after steps 0 and 1
        // (positions 1 and 3); equal texts are one string (`[]`, the same event twice).
        assert_eq!(p["changes"][0], serde_json::json!([0, 0, 1, 2, 3, 2]));
        assert_eq!(p["changes"][1], serde_json::json!([0, 1]));
        assert_eq!(p["changes"][3], serde_json::json!([0, 1]));
    }

    #[test]
    fn episodes_split_at_begin_end_or_a_step_that_goes_back() {
        let text = [act(1), act(2), act(1), act(5), act(3)].join("\n");
        let m = Model::read(&text);
        assert!(m.bad.is_empty());
        let p = m.payload(0, 0);
        let firsts: Vec<u64> = p["episodes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["first"].as_u64().unwrap())
            .collect();
        assert_eq!(firsts, [0, 2, 4]);
        assert_eq!(
            p["episodes"][2]["steps0"], 2,
            "traced from step 3 of its task"
        );
        assert_eq!(p["episodes"][0]["begin"], false);
    }

    #[test]
    fn a_payload_from_a_step_holds_what_came_after_it() {
        let mut m = Model::default();
        m.feed(&act(1).replacen('{', &format!("{{{BEGIN},"), 1));
        let (steps, strings) = (m.steps(), m.strings());
        m.feed(&act(2));
        let p = m.payload(steps, strings);
        assert_eq!(p["verb"], serde_json::json!([0]));
        assert_eq!(p["from"], 1);
        // Only step 1's change (position 3): the event, one string already sent.
        assert_eq!(p["changes"][0].as_array().unwrap().len(), 2);
        assert_eq!(p["strings"].as_array().unwrap().len(), 0);
        let p = m.payload(usize::MAX, usize::MAX);
        assert_eq!(p["verb"], serde_json::json!([]));
    }
}
