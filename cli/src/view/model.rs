//! A trace file read into what the page shows: per-step columns, the workspace parts as
//! interned JSON texts with the steps where each changed, the numbers the records give each
//! step (kept only where they are not the ones the step before predicts), episodes and bad
//! lines.
//!
//! The trace is untrusted input: a line that is not a step record of the format
//! (`runtime/TRACE.md`) becomes an [`BadLine`] with its line number, and reading goes on. Nothing
//! here panics on any input. Lines are fed one at a time, so `--follow` reads a growing file
//! with the same code.
//!
//! Memory: what is held per step is its columns (18 bytes), the texts no step before had (the
//! event of a world action, usually, and its resolved call: one copy each, in one buffer), an
//! entry of the interning table per new text and a change point per workspace part the step
//! carried; a step's numbers (line, step, spent, clock) only where its record breaks the
//! sequence. On the suite's traces `view -o` holds about 220 bytes a step of resident memory
//! (`tests/viewer/check.sh` measures it and fails above 400; it was about 1.1 KB before this
//! layout), and the test `memory_per_step_is_bounded` keeps the containers under
//! [`HELD_PER_STEP`] bytes a step, growth slack included. The page is written from them as a
//! stream, never as a second copy, and the `--follow` server answers in pieces of at most
//! 50,000 steps.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::io::{self, Write};

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
/// The world's count of integrity violations rose at this step (the line's `violations`).
const FLAG_VIOLATION: u8 = 4;

/// The workspace parts, in the order of [`Model::changes`].
const PARTS: [&str; 4] = ["event", "belief", "progress", "experience"];

/// No template (a literal call), in [`Model::template`].
const NO_TEMPLATE: u32 = u32::MAX;

/// Steps the string count is remembered at (for [`Model::write_payload`]'s chunks).
const CHUNK: usize = 4096;

/// The most bytes a step of the suite's traces may hold (checked by a test; see the module
/// docs).
#[cfg(test)]
pub(crate) const HELD_PER_STEP: usize = 400;

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
    violations: Option<u32>,
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
    violations: Option<u32>,
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
    /// The world's count of integrity violations at its last step, if the trace says.
    violations: Option<u32>,
    /// Steps at which that count rose.
    violation_steps: u64,
}

/// The numbers a record gives its step, kept where they differ from what the step before
/// predicts (its line + 1, its step + 1, its spent + this step's cost, its clock + 1) and at
/// the first step of each episode: a cut line, a step the record numbers otherwise, a budget
/// spent that is not the sum of the costs.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Mark {
    /// The step's index in the trace.
    index: usize,
    line: u64,
    step: u64,
    spent: u32,
    clock: Option<u32>,
}

/// Interned texts: each once, in one buffer.
#[derive(Default)]
struct Strings {
    text: String,
    /// The end of each text in `text`.
    ends: Vec<usize>,
    /// A text's hash → its id.
    ids: HashMap<u64, u32>,
    /// Texts whose hash another text had first.
    collided: HashMap<String, u32>,
}

impl Strings {
    fn len(&self) -> usize {
        self.ends.len()
    }

    fn get(&self, id: usize) -> &str {
        let start = if id == 0 { 0 } else { self.ends[id - 1] };
        &self.text[start..self.ends[id]]
    }

    fn intern(&mut self, s: &str) -> u32 {
        let mut h = DefaultHasher::new();
        s.hash(&mut h);
        let h = h.finish();
        let new = u32::try_from(self.ends.len()).unwrap_or(u32::MAX);
        match self.ids.get(&h) {
            Some(&id) if self.get(id as usize) == s => return id,
            Some(_) => {
                if let Some(&id) = self.collided.get(s) {
                    return id;
                }
                self.collided.insert(s.to_string(), new);
            }
            None => {
                self.ids.insert(h, new);
            }
        }
        self.text.push_str(s);
        self.ends.push(self.text.len());
        new
    }

    #[cfg(test)]
    fn held_bytes(&self) -> usize {
        // hashbrown: a bucket per 7/8 of the capacity, each the entry and a control byte.
        self.text.capacity()
            + self.ends.capacity() * size_of::<usize>()
            + self.ids.capacity() * 8 / 7 * (size_of::<(u64, u32)>() + 1)
            + self
                .collided
                .keys()
                .map(|k| k.capacity() + size_of::<(String, u32)>() + 1)
                .sum::<usize>()
    }
}

/// The change points of one workspace part: (position, string id), where position `2i` is
/// before step `i` and `2i+1` after it.
#[derive(Default)]
struct Changes {
    pos: Vec<u64>,
    id: Vec<u32>,
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
    /// Template index per step, [`NO_TEMPLATE`] for none.
    template: Vec<u32>,
    strings: Strings,
    /// The number of strings after every [`CHUNK`] steps.
    strings_at: Vec<u32>,
    changes: [Changes; 4],
    marks: Vec<Mark>,
    /// What the last step's record said (for the next step's prediction).
    last: Option<Mark>,
    episodes: Vec<Episode>,
    bad: Vec<BadLine>,
    bad_count: u64,
}

impl Model {
    /// Steps read.
    pub(crate) fn steps(&self) -> usize {
        self.verb.len()
    }

    /// Episodes read.
    pub(crate) fn episodes(&self) -> usize {
        self.episodes.len()
    }

    /// Bad lines, as many as are kept.
    pub(crate) fn bad_lines(&self) -> &[BadLine] {
        &self.bad
    }

    /// Bytes of memory the model holds (its containers' capacities).
    #[cfg(test)]
    pub(crate) fn held_bytes(&self) -> usize {
        let cols = self.verb.capacity()
            + self.flag.capacity()
            + 4 * (self.cost.capacity()
                + self.act.capacity()
                + self.out.capacity()
                + self.template.capacity()
                + self.strings_at.capacity());
        let changes: usize = self
            .changes
            .iter()
            .map(|c| c.pos.capacity() * 8 + c.id.capacity() * 4)
            .sum();
        cols + changes
            + self.strings.held_bytes()
            + self.marks.capacity() * size_of::<Mark>()
            + self.episodes.capacity() * size_of::<Episode>()
            + self
                .bad
                .iter()
                .map(|b| b.message.capacity() + size_of::<BadLine>())
                .sum::<usize>()
    }

    /// Reads the next line (without its end of line).
    pub(crate) fn feed(&mut self, text: &str) {
        self.lines += 1;
        let n = self.lines;
        if text.trim().is_empty() {
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
        self.bad_count += 1;
        if self.bad.len() < BAD_LINES_KEPT {
            self.bad.push(BadLine { line, message });
        }
    }

    fn change(&mut self, part: usize, pos: u64, v: &Value) {
        let id = self.strings.intern(&v.to_string());
        if let Some(c) = self.changes.get_mut(part) {
            c.pos.push(pos);
            c.id.push(id);
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
        if i.is_multiple_of(CHUNK) {
            self.strings_at
                .push(u32::try_from(self.strings.len()).unwrap_or(u32::MAX));
        }
        let pos = 2 * i as u64;
        let new_episode = match (self.episodes.last(), self.last) {
            (Some(e), Some(last)) => {
                line.begin.is_some() || e.end.is_some() || line.step <= last.step
            }
            _ => true,
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
                e.violations = b.violations;
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
        // The step's numbers as its record gives them, kept where the step before does not
        // predict them.
        let (spent_before, clock_before) = match (new_episode, self.last, self.episodes.last()) {
            (false, Some(l), _) => (l.spent, l.clock),
            (_, _, Some(e)) => (e.spent0, e.clock0),
            _ => (0, None),
        };
        let mark = Mark {
            index: i,
            line: self.lines,
            step: line.step,
            spent: line.spent.unwrap_or(spent_before.saturating_add(line.cost)),
            clock: line.clock.or(clock_before.map(|c| c.wrapping_add(1))),
        };
        let predicted = self.last.filter(|_| !new_episode).map(|l| Mark {
            index: i,
            line: l.line + 1,
            step: l.step + 1,
            spent: l.spent.saturating_add(line.cost),
            clock: l.clock.map(|c| c.wrapping_add(1)),
        });
        if predicted != Some(mark) {
            self.marks.push(mark);
        }
        self.last = Some(mark);
        let act = self.strings.intern(&line.action.to_string());
        let out = self.strings.intern(&line.outcome.to_string());
        if let Some(e) = self.episodes.last_mut() {
            if let Some(v) = line.violations {
                if e.violations.is_some_and(|before| v > before) {
                    flag |= FLAG_VIOLATION;
                    e.violation_steps += 1;
                }
                e.violations = Some(v);
            }
            e.count += 1;
            if let Some(c) = e.verbs.get_mut(usize::from(verb)) {
                *c += 1;
            }
            if flag & FLAG_ERROR_EVENT != 0 {
                e.error_events += 1;
            }
            e.end = line.end;
        }
        self.verb.push(verb);
        self.cost.push(line.cost);
        self.flag.push(flag);
        self.act.push(act);
        self.out.push(out);
        self.template.push(
            line.template
                .and_then(|t| u32::try_from(t).ok())
                .unwrap_or(NO_TEMPLATE),
        );
        Ok(())
    }

    /// The first step [`Model::write_payload`] sends after `from`, bounded to about `max`
    /// steps (a multiple of [`CHUNK`], so the strings they need are known).
    pub(crate) fn chunk_end(&self, from: usize, max: usize) -> usize {
        let n = self.steps();
        if n - from.min(n) <= max {
            return n;
        }
        ((from + max.max(CHUNK)) / CHUNK * CHUNK).min(n)
    }

    /// What the page gets, as JSON written to `w`: the steps from `from` to `to`, the strings
    /// they need from `strings_from` on, the change points and the step numbers of those steps,
    /// the episodes from the one `from` is in, and every kept bad line. `to` is the number of
    /// steps or a value of [`Model::chunk_end`].
    pub(crate) fn write_payload(
        &self,
        from: usize,
        to: usize,
        strings_from: usize,
        w: &mut impl Write,
    ) -> io::Result<()> {
        let to = to.min(self.steps());
        let from = from.min(to);
        let strings_to = if to == self.steps() {
            self.strings.len()
        } else {
            self.strings_at
                .get(to / CHUNK)
                .map_or(self.strings.len(), |&s| s as usize)
        };
        let strings_from = strings_from.min(strings_to);
        let episodes_from = self.episodes.partition_point(|e| e.first + e.count <= from);
        let episodes_from = episodes_from.min(self.episodes.len().saturating_sub(1));
        let (p0, p1) = (2 * from as u64, 2 * to as u64);
        write!(
            w,
            r#"{{"version":{VERSION},"from":{from},"to":{to},"steps":{},"stringsFrom":{strings_from},"lines":{},"#,
            self.steps(),
            self.lines
        )?;
        let cols: [(&str, &dyn Fn(usize) -> i64); 6] = [
            ("verb", &|i| i64::from(self.verb[i])),
            ("cost", &|i| i64::from(self.cost[i])),
            ("flag", &|i| i64::from(self.flag[i])),
            ("act", &|i| i64::from(self.act[i])),
            ("out", &|i| i64::from(self.out[i])),
            ("template", &|i| match self.template[i] {
                NO_TEMPLATE => -1,
                t => i64::from(t),
            }),
        ];
        for (name, col) in cols {
            write!(w, r#""{name}":["#)?;
            for i in from..to {
                if i > from {
                    w.write_all(b",")?;
                }
                write!(w, "{}", col(i))?;
            }
            w.write_all(b"],")?;
        }
        w.write_all(br#""strings":["#)?;
        for id in strings_from..strings_to {
            if id > strings_from {
                w.write_all(b",")?;
            }
            serde_json::to_writer(&mut *w, self.strings.get(id))?;
        }
        write!(w, r#"],"parts":{},"changes":["#, json!(PARTS))?;
        for (k, c) in self.changes.iter().enumerate() {
            if k > 0 {
                w.write_all(b",")?;
            }
            let a = c.pos.partition_point(|p| *p < p0);
            let b = c.pos.partition_point(|p| *p < p1);
            w.write_all(b"[")?;
            for j in a..b {
                if j > a {
                    w.write_all(b",")?;
                }
                write!(w, "{},{}", c.pos[j], c.id[j])?;
            }
            w.write_all(b"]")?;
        }
        // Marks: [index, line, step, spent, clock or -1], flat.
        w.write_all(br#"],"marks":["#)?;
        let a = self.marks.partition_point(|m| m.index < from);
        let b = self.marks.partition_point(|m| m.index < to);
        for (j, m) in self.marks[a..b].iter().enumerate() {
            if j > 0 {
                w.write_all(b",")?;
            }
            let clock = m.clock.map_or(-1, i64::from);
            write!(w, "{},{},{},{},{clock}", m.index, m.line, m.step, m.spent)?;
        }
        write!(w, r#"],"episodesFrom":{episodes_from},"episodes":["#)?;
        for (k, e) in self.episodes.iter().enumerate().skip(episodes_from) {
            if k > episodes_from {
                if e.first >= to {
                    break;
                }
                w.write_all(b",")?;
            }
            // An episode as far as the steps sent so far go.
            let count = e.count.min(to.saturating_sub(e.first));
            let complete = count == e.count;
            let v = json!({
                "first": e.first,
                "count": count,
                "line": e.line,
                "seed": e.seed.map(|s| s.to_string()),
                "budget": e.budget,
                "steps0": e.steps0,
                "clock0": e.clock0,
                "spent0": e.spent0,
                "tools": e.tools,
                "end": if complete { e.end.clone() } else { None },
                "verbs": e.verbs,
                "errorEvents": e.error_events,
                "begin": e.begin,
                "violations": e.violations,
                "violationSteps": e.violation_steps,
            });
            serde_json::to_writer(&mut *w, &v)?;
        }
        let bad: Vec<Value> = self
            .bad
            .iter()
            .map(|b| json!({"line": b.line, "message": b.message}))
            .collect();
        write!(
            w,
            r#"],"bad":{},"badCount":{}}}"#,
            Value::Array(bad),
            self.bad_count
        )
    }

    /// [`Model::write_payload`] into a JSON value (for tests).
    #[cfg(test)]
    pub(crate) fn payload(&self, from: usize, strings_from: usize) -> Value {
        let mut out = Vec::new();
        self.write_payload(from, self.steps(), strings_from, &mut out)
            .unwrap();
        serde_json::from_slice(&out).unwrap()
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

    fn marks(p: &Value) -> Vec<Vec<i64>> {
        p["marks"]
            .as_array()
            .unwrap()
            .chunks(5)
            .map(|c| c.iter().map(|x| x.as_i64().unwrap()).collect())
            .collect()
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
        // The steps' numbers: the first from its line 1; the second on line 6 (the lines
        // between were not steps); the third (no spent or clock: predicted) on line 7.
        assert_eq!(marks(&p), [vec![0, 1, 1, 1, 41], vec![1, 6, 2, 2, 42]]);
    }

    #[test]
    fn step_numbers_are_the_records_after_a_cut_line() {
        // Step 3's line is cut: step 4 keeps its number, spent and clock, and its line.
        let lines: Vec<String> = (1..=5).map(act).collect();
        let text = [
            lines[0].clone(),
            lines[1].clone(),
            lines[2][..40].to_string(),
            lines[3].clone(),
            lines[4].clone(),
        ]
        .join("\n");
        let m = Model::read(&text);
        assert_eq!(m.steps(), 4);
        let p = m.payload(0, 0);
        assert_eq!(
            marks(&p),
            [vec![0, 1, 1, 1, 41], vec![2, 4, 4, 4, 44]],
            "step 4 on line 4; step 5 follows from it"
        );
    }

    #[test]
    fn a_rise_of_the_violations_marks_its_step() {
        let with =
            |step: u64, v: u32| act(step).replacen('{', &format!(r#"{{"violations":{v},"#), 1);
        let first = act(1).replacen(
            '{',
            &format!(
                "{{{},",
                BEGIN.replace(r#""trace":1"#, r#""violations":3,"trace":1"#)
            ),
            1,
        );
        let text = [first, with(2, 2), act(3), with(4, 3), with(5, 5)].join("\n");
        let m = Model::read(&text);
        assert_eq!(
            m.flag
                .iter()
                .map(|f| f & FLAG_VIOLATION)
                .collect::<Vec<_>>(),
            [0, 0, 0, FLAG_VIOLATION, FLAG_VIOLATION]
        );
        let p = m.payload(0, 0);
        assert_eq!(p["episodes"][0]["violations"], 5);
        assert_eq!(p["episodes"][0]["violationSteps"], 2);
        // A trace without the field (written before it was added): no marks, no count.
        let m = Model::read(&[act(1), act(2)].join("\n"));
        assert_eq!(m.payload(0, 0)["episodes"][0]["violations"], Value::Null);
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
        let (steps, strings) = (m.steps(), m.strings.len());
        m.feed(&act(2));
        let p = m.payload(steps, strings);
        assert_eq!(p["verb"], serde_json::json!([0]));
        assert_eq!(p["from"], 1);
        // Only step 1's change (position 3): the event, one string already sent.
        assert_eq!(p["changes"][0].as_array().unwrap().len(), 2);
        assert_eq!(p["strings"].as_array().unwrap().len(), 0);
        // The episode step 1 is in, and no mark (step 2 is what step 1 predicts).
        assert_eq!(p["episodesFrom"], 0);
        assert_eq!(p["marks"], serde_json::json!([]));
        let p = m.payload(usize::MAX, usize::MAX);
        assert_eq!(p["verb"], serde_json::json!([]));
    }

    #[test]
    fn chunks_carry_the_strings_their_steps_need() {
        let mut m = Model::default();
        // Every step's event is a new text.
        for s in 1..=10_000u64 {
            m.feed(&act(s).replace(
                r#""fields":[]"#,
                &format!(r#""fields":[{{"key":"n","value":{{"Int":{s}}}}}]"#),
            ));
        }
        let (mut from, mut strings) = (0, 0);
        let mut chunks = 0;
        while from < m.steps() {
            let to = m.chunk_end(from, 3000);
            let mut out = Vec::new();
            m.write_payload(from, to, strings, &mut out).unwrap();
            let p: Value = serde_json::from_slice(&out).unwrap();
            let n = p["verb"].as_array().unwrap().len();
            strings += p["strings"].as_array().unwrap().len();
            // Every id the chunk uses is sent by now.
            for k in 0..4 {
                for pair in p["changes"][k].as_array().unwrap().chunks(2) {
                    assert!((pair[1].as_u64().unwrap() as usize) < strings);
                }
            }
            for c in ["act", "out"] {
                assert!(
                    p[c].as_array()
                        .unwrap()
                        .iter()
                        .all(|x| (x.as_u64().unwrap() as usize) < strings)
                );
            }
            from += n;
            chunks += 1;
        }
        assert_eq!((from, strings, chunks), (10_000, m.strings.len(), 3));
    }

    /// Lines like the suite's: a world action with its event (a new item each time), a track
    /// every fourth step.
    fn suite_like(step: u64) -> String {
        let id = 1_000_000_007u64.wrapping_mul(step) % 4_294_967_291;
        if step.is_multiple_of(4) {
            format!(
                r#"{{"step":{step},"template":7,"action":{{"Track":{{"Set":{{"key":{{"Field":0}},"value":{{"Field":0}},"confidence":1.0}}}}}},"outcome":{{"Tracked":{{"slot":0,"change":"Revised"}}}},"cost":1,"latency_ns":4100,"spent":{step},"clock":{step},"belief":[{{"key":"batch","value":{{"Int":{id}}},"confidence":1.0,"provenance":"Event","set_at":{step},"confirmed_at":{step}}}]}}"#
            )
        } else {
            format!(
                r#"{{"step":{step},"template":44,"action":{{"Act":{{"tool":1,"args":[{{"Field":0}}]}}}},"outcome":{{"Call":{{"tool":1,"args":[{{"Int":{id}}}]}}}},"cost":1,"latency_ns":140700,"spent":{step},"clock":{step},"event":{{"kind":"Result","source":1,"fields":[{{"key":"written","value":{{"Int":{id}}}}}]}}}}"#
            )
        }
    }

    #[test]
    fn memory_per_step_is_bounded() {
        let mut m = Model::default();
        let n = 200_000u64;
        for s in 1..=n {
            m.feed(&suite_like(s));
        }
        let per_step = m.held_bytes() / m.steps();
        assert!(
            per_step <= HELD_PER_STEP,
            "{per_step} bytes a step (at most {HELD_PER_STEP})"
        );
    }
}
