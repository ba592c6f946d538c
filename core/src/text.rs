//! The generative policy ABI's text (`generative-v1`): the workspace rendered as a prompt
//! (`workspace-text-v1`, [`render`]) and the actions a language model writes
//! (`action-text-v1`, [`action`], [`parse`]).
//!
//! A language-model policy reads its workspace as compact text, not a transcript: one line per
//! item of each table and a few lines of state, so the prompt is bounded by the capacities
//! ([`max_len`]) however long the task runs. The parts change at different rates, and the
//! rendering puts the stable ones first (the task's configuration, then Experience, Progress,
//! Belief, then the clock and the current event) so that a decoder's key/value cache of the
//! unchanged prefix is reused from one decision to the next.
//!
//! The model answers with one action template of the structured ABIs' table
//! ([`Layout::template`]) written as a short line: `track X2`, `act 3 F0`, `step S1 complete`,
//! `finish ok`. Each line ends with `\n`, which never occurs inside one, so no action's text is
//! a prefix of another's: a decoder that only produces prefixes of the legal actions' texts
//! (the grammar built from [`Layout::mask`]) can only stop on a legal action. `PROTOCOL.md`
//! (§11) specifies both formats.
//!
//! Everything here writes into a [`core::fmt::Write`] and allocates nothing.

use core::fmt::{self, Write};

use crate::belief::Provenance;
use crate::event::EventKind;
use crate::obs::{Layout, Source, Template};
use crate::progress::{Status, StepVerb};
use crate::value::Value;
use crate::workspace::{Capacities, Storage, Workspace};
use crate::{FIELDS_MAX, KEY_MAX, TEXT_MAX, Verb};

/// The ABI name a generative policy file declares.
pub const ABI: &str = "generative-v1";
/// The version of the workspace rendering ([`render`]), `workspace-text-v1`.
pub const TEXT_VERSION: u32 = 1;
/// The version of the action grammar ([`action`], [`parse`]), `action-text-v1`.
pub const GRAMMAR_VERSION: u32 = 1;
/// What the prompt ends with: the model writes its action after it.
pub const PROMPT_END: &str = "> ";
/// The longest action text, its final `\n` included (`step S1023 complete\n`).
pub const ACTION_MAX: usize = 20;

// Widest renderings of the variable parts, in bytes.
const U16_W: usize = 5;
const U32_W: usize = 10;
const INDEX_W: usize = 4; // a table index is below CAPACITY_MAX = 1024
/// Bytes as `0x` and two hex digits each; wider than text (quoted) and every number.
const VALUE_W: usize = 2 + 2 * TEXT_MAX;

/// The longest rendering ([`render`]) of a workspace with these capacities, in bytes.
///
/// Every line's widest form (its literal words plus the widest value, key and number each
/// place can hold) summed over full tables and a full event; see `PROTOCOL.md` §11.2.
pub const fn max_len(caps: Capacities) -> usize {
    let (f, s, l) = (
        caps.facts as usize,
        caps.steps as usize,
        caps.lessons as usize,
    );
    let config = "tools  budget  costs      \n".len() + U16_W + U32_W + 6 * U16_W;
    let lesson =
        "L when  do  good  bad  uses  recalled\n".len() + INDEX_W + 2 * VALUE_W + 3 * U16_W;
    let step =
        "S   tries  cursor  error \n".len() + INDEX_W + "pending".len() + 3 * VALUE_W + U16_W;
    let fact = "F  =  conf 0.00 from : seen \n".len()
        + INDEX_W
        + KEY_MAX
        + VALUE_W
        + "literal".len()
        + U16_W
        + U32_W;
    let now = "now clock  spent  left  streak  last  tool \n".len()
        + 3 * U32_W
        + U16_W
        + "commit".len()
        + U16_W;
    let event = "event  from \n".len() + "result".len() + U16_W;
    let field = "X  =  changed\n".len() + 1 + KEY_MAX + VALUE_W;
    config
        + header("lessons".len())
        + l * lesson
        + header("plan".len())
        + s * step
        + header("facts".len())
        + f * fact
        + now
        + event
        + FIELDS_MAX * field
        + PROMPT_END.len()
}

/// A table's header line: `word n/cap\n`.
const fn header(word: usize) -> usize {
    word + 1 + INDEX_W + 1 + INDEX_W + 1
}

/// A writer that counts what it writes and passes it on.
struct Counting<'w, W: Write> {
    out: &'w mut W,
    len: usize,
}

impl<W: Write> Write for Counting<'_, W> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.len += s.len();
        self.out.write_str(s)
    }
}

/// Writes a value: `true`, `-12`, `0.250` (three decimals; `1.500e9` outside ±10^6), `"text"`
/// (control characters as `?`, `"` as `'`), `0x0aff` (bytes in hex).
fn value<W: Write>(out: &mut W, v: &Value) -> fmt::Result {
    match v {
        Value::Bool(b) => write!(out, "{b}"),
        Value::Int(x) => write!(out, "{x}"),
        Value::Float(x) if x.is_nan() => out.write_str("nan"),
        Value::Float(x) if x.is_infinite() => out.write_str(if *x > 0.0 { "inf" } else { "-inf" }),
        Value::Float(x) if x.abs() < 1e6 => write!(out, "{x:.3}"),
        Value::Float(x) => write!(out, "{x:.3e}"),
        Value::Text(t) => {
            out.write_char('"')?;
            clean(out, t, '"', '\'')?;
            out.write_char('"')
        }
        Value::Bytes(b) => {
            out.write_str("0x")?;
            b.iter().try_for_each(|x| write!(out, "{x:02x}"))
        }
    }
}

/// Writes `s` with control characters as `?` and `from` as `to`: one byte out per byte in.
fn clean<W: Write>(out: &mut W, s: &str, from: char, to: char) -> fmt::Result {
    for c in s.chars() {
        if c.is_control() && c.is_ascii() {
            out.write_char('?')?;
        } else if c == from {
            out.write_char(to)?;
        } else {
            out.write_char(c)?;
        }
    }
    Ok(())
}

/// Writes a key: spaces and `=` as `_`, control characters as `?`.
fn key<W: Write>(out: &mut W, k: &str) -> fmt::Result {
    for c in k.chars() {
        match c {
            ' ' | '=' => out.write_char('_')?,
            c if c.is_control() && c.is_ascii() => out.write_char('?')?,
            c => out.write_char(c)?,
        }
    }
    Ok(())
}

const fn status(s: Status) -> &'static str {
    match s {
        Status::Pending => "pending",
        Status::Active => "active",
        Status::Done => "done",
        Status::Failed => "failed",
        Status::Blocked => "blocked",
        Status::Skipped => "skipped",
    }
}

const fn provenance(p: Provenance) -> &'static str {
    match p {
        Provenance::Literal => "literal",
        Provenance::Event => "event",
        Provenance::Belief => "belief",
        Provenance::Action => "action",
    }
}

const fn verb(v: Verb) -> &'static str {
    match v {
        Verb::Act => "act",
        Verb::Track => "track",
        Verb::Commit => "commit",
        Verb::Recall => "recall",
        Verb::Note => "note",
        Verb::Finish => "finish",
    }
}

/// Renders `ws` as a `workspace-text-v1` prompt, ending with [`PROMPT_END`]; returns the
/// bytes written (at most [`max_len`] of the workspace's capacities).
///
/// The same workspace always renders to the same text. The lines, in order: the task's
/// configuration; `lessons n/cap` and a line per lesson; `plan n/cap` and a line per step;
/// `facts n/cap` and a line per fact; `now …` (clock, budget, the last action); `event …` and a
/// line per field of the current event. Items are named by their slot with a letter (`L0`,
/// `S2`, `F5`, `X1`), the names the action texts use.
pub fn render<S: Storage, W: Write>(ws: &Workspace<S>, out: &mut W) -> Result<usize, fmt::Error> {
    let mut w = Counting { out, len: 0 };
    let out = &mut w;
    let cfg = ws.config();
    let c = cfg.costs;
    writeln!(
        out,
        "tools {} budget {} costs {} {} {} {} {} {}",
        cfg.tools, cfg.budget, c.act, c.track, c.commit, c.recall, c.note, c.finish
    )?;

    let ex = ws.experience();
    writeln!(out, "lessons {}/{}", ex.len(), ex.capacity())?;
    for (i, l) in ex.lessons().iter().enumerate() {
        write!(out, "L{i} when ")?;
        value(out, &l.trigger)?;
        out.write_str(" do ")?;
        value(out, &l.remedy)?;
        write!(out, " good {} bad {} uses {}", l.helpful, l.harmful, l.uses)?;
        if l.recalled {
            out.write_str(" recalled")?;
        }
        out.write_char('\n')?;
    }

    let pr = ws.progress();
    writeln!(out, "plan {}/{}", pr.len(), pr.capacity())?;
    for (i, s) in pr.steps().iter().enumerate() {
        write!(out, "S{i} {} ", status(s.status))?;
        value(out, &s.label)?;
        write!(out, " tries {}", s.attempts)?;
        if let Some(c) = &s.cursor {
            out.write_str(" cursor ")?;
            value(out, c)?;
        }
        if let Some(e) = &s.last_error {
            out.write_str(" error ")?;
            value(out, e)?;
        }
        out.write_char('\n')?;
    }

    let be = ws.belief();
    writeln!(out, "facts {}/{}", be.len(), be.capacity())?;
    for (i, f) in be.facts().iter().enumerate() {
        write!(out, "F{i} ")?;
        key(out, &f.key)?;
        out.write_str(" = ")?;
        value(out, &f.value)?;
        // Confidence is kept in [0, 1]; anything else (NaN) shows as 0.
        let conf = if f.confidence >= 0.0 {
            f.confidence.min(1.0)
        } else {
            0.0
        };
        writeln!(
            out,
            " conf {conf:.2} from {}:{} seen {}",
            provenance(f.provenance),
            f.source,
            f.confirmed_at
        )?;
    }

    write!(
        out,
        "now clock {} spent {} left {} streak {}",
        ws.clock(),
        ws.spent(),
        ws.remaining(),
        ws.harness_streak()
    )?;
    if let Some(v) = ws.last_verb() {
        write!(out, " last {}", verb(v))?;
    }
    if let Some(t) = ws.last_act() {
        write!(out, " tool {t}")?;
    }
    out.write_char('\n')?;

    match ws.event() {
        None => out.write_str("event none\n")?,
        Some(e) => {
            let kind = match e.kind {
                EventKind::Result => "result",
                EventKind::Error => "error",
                EventKind::Notice => "notice",
            };
            writeln!(out, "event {kind} from {}", e.source)?;
            for (j, fb) in e.fields.iter().enumerate() {
                write!(out, "X{j} ")?;
                key(out, &fb.key)?;
                out.write_str(" = ")?;
                value(out, &fb.value)?;
                match be.get(&fb.key) {
                    Some((_, f)) if f.value.same(&fb.value) => out.write_str(" known")?,
                    Some(_) => out.write_str(" changed")?,
                    None => {}
                }
                out.write_char('\n')?;
            }
        }
    }
    out.write_str(PROMPT_END)?;
    Ok(w.len)
}

const fn step_verb(v: StepVerb) -> &'static str {
    match v {
        StepVerb::Start => "start",
        StepVerb::Complete => "complete",
        StepVerb::Fail => "fail",
        StepVerb::Block => "block",
        StepVerb::Skip => "skip",
        StepVerb::Retry => "retry",
        StepVerb::Cursor => "cursor",
    }
}

/// Writes a template's `action-text-v1` line, its final `\n` included (at most
/// [`ACTION_MAX`] bytes).
pub fn action<W: Write>(t: Template, out: &mut W) -> fmt::Result {
    match t {
        Template::Finish { success } => {
            out.write_str(if success { "finish ok" } else { "finish fail" })?
        }
        Template::Act { tool, arg: None } => write!(out, "act {tool}")?,
        Template::Act {
            tool,
            arg: Some(Source::Fact(f)),
        } => write!(out, "act {tool} F{f}")?,
        Template::Act {
            tool,
            arg: Some(Source::Field(x)),
        } => write!(out, "act {tool} X{x}")?,
        Template::Track { field } => write!(out, "track X{field}")?,
        Template::Confirm { fact } => write!(out, "confirm F{fact}")?,
        Template::Retract { fact } => write!(out, "retract F{fact}")?,
        Template::Compress => out.write_str("compress")?,
        Template::Plan { field } => write!(out, "plan X{field}")?,
        Template::Step { step, verb } => write!(out, "step S{step} {}", step_verb(verb))?,
        Template::Cursor { field } => write!(out, "cursor X{field}")?,
        Template::Recall { field } => write!(out, "recall X{field}")?,
        Template::NoteFact { fact } => write!(out, "note F{fact}")?,
        Template::NoteField { field } => write!(out, "note X{field}")?,
        Template::Rate { lesson, helpful } => write!(
            out,
            "rate L{lesson} {}",
            if helpful { "good" } else { "bad" }
        )?,
        Template::Consolidate => out.write_str("consolidate")?,
    }
    out.write_char('\n')
}

/// The template index of an action text (with or without its final `\n`) in `layout`'s
/// table, or `None` when the text is not exactly one of its templates' ([`action`]).
pub fn parse(layout: &Layout, text: &str) -> Option<usize> {
    let text = text.strip_suffix('\n').unwrap_or(text);
    let mut words = text.split(' ');
    let mut next = || words.next();
    // A decimal number in canonical form (no sign, no leading zero but "0").
    fn num<T: TryFrom<u32>>(s: &str) -> Option<T> {
        let ok = !s.is_empty()
            && s.len() <= 5
            && s.bytes().all(|b| b.is_ascii_digit())
            && (s == "0" || !s.starts_with('0'));
        ok.then(|| s.parse::<u32>().ok())
            .flatten()
            .and_then(|n| T::try_from(n).ok())
    }
    let tagged = |s: &str, tag: char| s.strip_prefix(tag).and_then(num::<u16>);
    let field = |s: &str| s.strip_prefix('X').and_then(num::<u8>);
    let t = match next()? {
        "finish" => Template::Finish {
            success: match next()? {
                "ok" => true,
                "fail" => false,
                _ => return None,
            },
        },
        "act" => {
            let tool = num::<u16>(next()?)?;
            let arg = match next() {
                None => None,
                Some(a) if a.starts_with('F') => Some(Source::Fact(tagged(a, 'F')?)),
                Some(a) => Some(Source::Field(field(a)?)),
            };
            Template::Act { tool, arg }
        }
        "track" => Template::Track {
            field: field(next()?)?,
        },
        "confirm" => Template::Confirm {
            fact: tagged(next()?, 'F')?,
        },
        "retract" => Template::Retract {
            fact: tagged(next()?, 'F')?,
        },
        "compress" => Template::Compress,
        "plan" => Template::Plan {
            field: field(next()?)?,
        },
        "step" => {
            let step = tagged(next()?, 'S')?;
            let w = next()?;
            let verb = crate::obs::STEP_TEMPLATE_VERBS
                .into_iter()
                .find(|&v| step_verb(v) == w)?;
            Template::Step { step, verb }
        }
        "cursor" => Template::Cursor {
            field: field(next()?)?,
        },
        "recall" => Template::Recall {
            field: field(next()?)?,
        },
        "note" => {
            let a = next()?;
            if a.starts_with('F') {
                Template::NoteFact {
                    fact: tagged(a, 'F')?,
                }
            } else {
                Template::NoteField { field: field(a)? }
            }
        }
        "rate" => {
            let lesson = tagged(next()?, 'L')?;
            let helpful = match next()? {
                "good" => true,
                "bad" => false,
                _ => return None,
            };
            Template::Rate { lesson, helpful }
        }
        "consolidate" => Template::Consolidate,
        _ => return None,
    };
    if next().is_some() {
        return None;
    }
    layout.index(t)
}

#[cfg(test)]
mod tests {
    use std::string::String;

    use super::*;
    use crate::{Action, Arg, Commit, Config, Event, HeapWorkspace, KeyArg, Note, Track, ValueRef};

    fn caps(f: u16, s: u16, l: u16, t: u16) -> Capacities {
        Capacities {
            facts: f,
            steps: s,
            lessons: l,
            tools: t,
        }
    }

    #[test]
    fn every_template_round_trips_through_its_text() {
        // The largest table (about 70,000 templates) is too slow under Miri; its widest line
        // is checked below either way.
        let largest = if cfg!(miri) {
            caps(2, 2, 2, 2)
        } else {
            caps(1024, 1024, 1024, 64)
        };
        for c in [caps(1, 1, 1, 1), caps(16, 8, 4, 8), largest] {
            let layout = Layout::new(c);
            for i in 0..layout.actions() {
                let t = layout.template(i).unwrap();
                let mut s = String::new();
                action(t, &mut s).unwrap();
                assert!(s.len() <= ACTION_MAX, "{s:?} is longer than ACTION_MAX");
                assert!(s.ends_with('\n') && s.matches('\n').count() == 1);
                assert_eq!(parse(&layout, &s), Some(i), "{s:?}");
                assert_eq!(parse(&layout, s.trim_end()), Some(i));
            }
        }
        // ACTION_MAX is reached.
        let mut s = String::new();
        action(
            Template::Step {
                step: 1023,
                verb: StepVerb::Complete,
            },
            &mut s,
        )
        .unwrap();
        assert_eq!(s.len(), ACTION_MAX);
    }

    #[test]
    fn parse_refuses_what_is_not_exactly_a_template() {
        let layout = Layout::new(caps(4, 2, 2, 3));
        for bad in [
            "",
            "finish",
            "finish yes",
            "act",
            "act 3",
            "act 01",
            "act 1 F4",
            "act 1 X8",
            "act 1 Y0",
            "act 1 F0 X0",
            "track 2",
            "track X",
            "track X-1",
            "track X+1",
            "step S0 cursor",
            "step S2 start",
            "rate L0 meh",
            "note 3",
            "compress now",
            " finish ok",
            "finish  ok",
            "finish ok\n\n",
            "consolidate\r",
            "act 99999999 F0",
        ] {
            assert_eq!(parse(&layout, bad), None, "{bad:?}");
        }
        assert!(parse(&layout, "act 2 F3").is_some());
        assert!(parse(&layout, "act 2 X7").is_some());
    }

    fn render_string<S: Storage>(ws: &Workspace<S>) -> String {
        let mut s = String::new();
        let n = render(ws, &mut s).unwrap();
        assert_eq!(n, s.len());
        assert!(
            n <= max_len(ws.capacities()),
            "{n} > {}",
            max_len(ws.capacities())
        );
        s
    }

    #[test]
    fn renders_a_small_workspace_deterministically() {
        let mut ws = HeapWorkspace::with_capacities(4, 2, 2, Config::new(3, 100)).unwrap();
        let ev = Event::new(EventKind::Result, 1)
            .with("id", ValueRef::Int(42))
            .unwrap()
            .with(
                "note",
                ValueRef::Text(crate::Text::new("a \"b\"\n").unwrap()),
            )
            .unwrap();
        ws.observe(&ev);
        let track = Action::Track(Track::Set {
            key: KeyArg::Field(0),
            value: Arg::Field(0),
            confidence: 0.9,
        });
        ws.apply(&track).unwrap();
        ws.apply(&Action::Commit(Commit::Plan {
            label: Arg::Field(0),
        }))
        .unwrap();
        let s = render_string(&ws);
        assert_eq!(
            s,
            "tools 3 budget 100 costs 1 1 1 1 1 0\n\
             lessons 0/2\n\
             plan 1/2\n\
             S0 pending 42 tries 0\n\
             facts 1/4\n\
             F0 id = 42 conf 0.90 from event:1 seen 1\n\
             now clock 2 spent 2 left 98 streak 2 last commit\n\
             event result from 1\n\
             X0 id = 42 known\n\
             X1 note = \"a 'b'?\"\n\
             > "
        );
        assert_eq!(s, render_string(&ws.clone()));
    }

    #[test]
    fn the_stable_parts_come_first() {
        // A new event changes only the lines after `now`; the prefix up to there is kept.
        let mut ws = HeapWorkspace::with_capacities(4, 2, 2, Config::new(2, 50)).unwrap();
        ws.observe(
            &Event::new(EventKind::Result, 0)
                .with("a", ValueRef::Int(1))
                .unwrap(),
        );
        ws.apply(&Action::Track(Track::Set {
            key: KeyArg::Field(0),
            value: Arg::Field(0),
            confidence: 1.0,
        }))
        .unwrap();
        let before = render_string(&ws);
        ws.observe(
            &Event::new(EventKind::Error, 1)
                .with("b", ValueRef::Int(2))
                .unwrap(),
        );
        let after = render_string(&ws);
        let keep = before.find("now ").unwrap();
        assert_eq!(before[..keep], after[..keep]);
        assert_ne!(before[keep..], after[keep..]);
    }

    #[test]
    fn the_widest_workspace_stays_within_max_len() {
        // Full tables of the widest values, keys and numbers the format can show.
        let (f, s, l) = (6u16, 5u16, 4u16);
        let mut cfg = Config::new(64, u32::MAX);
        cfg.costs = crate::Costs {
            act: u16::MAX,
            track: u16::MAX,
            commit: u16::MAX,
            recall: u16::MAX,
            note: u16::MAX,
            finish: u16::MAX,
        };
        let mut ws = HeapWorkspace::with_capacities(f, s, l, cfg).unwrap();
        let blobs: [[u8; TEXT_MAX]; FIELDS_MAX] =
            core::array::from_fn(|i| [0xf0 + i as u8; TEXT_MAX]);
        let keys = [
            "kkkkkkkkkkkkkkk0",
            "kkkkkkkkkkkkkkk1",
            "kkkkkkkkkkkkkkk2",
            "kkkkkkkkkkkkkkk3",
            "kkkkkkkkkkkkkkk4",
            "kkkkkkkkkkkkkkk5",
            "kkkkkkkkkkkkkkk6",
            "kkkkkkkkkkkkkkk7",
        ];
        let mut ev = Event::new(EventKind::Result, u16::MAX);
        for (k, b) in keys.iter().zip(&blobs) {
            ev.push(
                crate::Key::new(k).unwrap(),
                ValueRef::Bytes(crate::Blob::new(b).unwrap()),
            )
            .unwrap();
        }
        ws.observe(&ev);
        for i in 0..FIELDS_MAX as u8 {
            let _ = ws.apply(&Action::Track(Track::Set {
                key: KeyArg::Field(i),
                value: Arg::Field(i),
                confidence: 0.5,
            }));
            let _ = ws.apply(&Action::Commit(Commit::Plan {
                label: Arg::Field(i),
            }));
            let _ = ws.apply(&Action::Note(Note::Add {
                trigger: Arg::Field(i),
                remedy: Arg::Field(7 - i),
            }));
        }
        // A new event with the same keys and other values: every field shows `changed`.
        let mut ev = Event::new(EventKind::Notice, u16::MAX);
        for (k, b) in keys.iter().zip(blobs.iter().rev()) {
            ev.push(
                crate::Key::new(k).unwrap(),
                ValueRef::Bytes(crate::Blob::new(b).unwrap()),
            )
            .unwrap();
        }
        ws.observe(&ev);
        let text = render_string(&ws);
        assert_eq!(ws.belief().len(), usize::from(f), "{text}");
        assert_eq!(ws.progress().len(), usize::from(s), "{text}");
        assert_eq!(ws.experience().len(), usize::from(l), "{text}");
        // The bound is not loose: a full workspace of wide values takes most of it (steps
        // carry no cursor or error here, lessons no counts).
        let bound = max_len(ws.capacities());
        assert!(
            text.len() * 10 >= bound * 6,
            "{} of {bound}\n{text}",
            text.len()
        );
    }
}
