//! The largest postcard encoding of each wire type, composed from its parts.
//!
//! postcard's own `MaxSize` does not cover heapless 0.9 nor bounded borrowed strings, so each
//! type states its bound here from the bounds of its fields; the tests encode a worst case of
//! every type and require the bound to be met *exactly*, so a bound can be neither short nor
//! loose.

use crate::action::{
    Action, ApplyError, Arg, Change, Commit, Costs, KeyArg, Note, Outcome, StepRef, ToolCall,
    Track, Verb,
};
use crate::belief::{Fact, Provenance};
use crate::event::{Event, EventBuf, EventKind, Field, FieldBuf};
use crate::experience::{Lesson, Recalled};
use crate::progress::{Status, Step, StepVerb};
use crate::value::{Blob, KeyBuf, Str, Value, ValueRef};
use crate::wire::Message;
use crate::workspace::Config;
use crate::{ARGS_MAX, FIELDS_MAX, RECALL_MAX, REMOVE_MAX, TEXT_MAX};

/// The largest postcard encoding of a type.
pub(crate) trait MaxEncoded {
    const BOUND: usize;
}

/// The longest varint of an unsigned integer of `bits` bits.
pub(crate) const fn varint_max(bits: usize) -> usize {
    bits.div_ceil(7)
}

const fn max(a: usize, b: usize) -> usize {
    if a > b { a } else { b }
}

/// Length prefix plus content of a string or sequence of at most `n` bytes/items of `item`.
const fn seq(n: usize, item: usize) -> usize {
    varint_max(usize::BITS as usize - n.leading_zeros() as usize) + n * item
}

/// A discriminant of an enum with fewer than 128 variants.
const TAG: usize = 1;

macro_rules! fixed {
    ($($t:ty = $n:expr;)*) => { $(impl MaxEncoded for $t { const BOUND: usize = $n; })* };
}

fixed! {
    bool = 1;
    u8 = 1;
    u16 = varint_max(16);
    u32 = varint_max(32);
    i64 = varint_max(64);
    f32 = 4;
    f64 = 8;
    EventKind = TAG;
    Status = TAG;
    StepVerb = TAG;
    Provenance = TAG;
    Change = TAG;
    Verb = TAG;
    StepRef = TAG + u16::BOUND;
}

impl<T: MaxEncoded> MaxEncoded for Option<T> {
    const BOUND: usize = 1 + T::BOUND;
}

impl<const N: usize> MaxEncoded for Str<'_, N> {
    const BOUND: usize = seq(N, 1);
}
impl<const N: usize> MaxEncoded for Blob<'_, N> {
    const BOUND: usize = seq(N, 1);
}
impl<const N: usize> MaxEncoded for heapless::String<N> {
    const BOUND: usize = seq(N, 1);
}
impl<T: MaxEncoded, const N: usize> MaxEncoded for heapless::Vec<T, N> {
    const BOUND: usize = seq(N, T::BOUND);
}

impl MaxEncoded for Value {
    const BOUND: usize = TAG
        + max(
            max(bool::BOUND, i64::BOUND),
            max(f64::BOUND, seq(TEXT_MAX, 1)),
        );
}
impl MaxEncoded for ValueRef<'_> {
    const BOUND: usize = Value::BOUND;
}
impl MaxEncoded for Arg<'_> {
    const BOUND: usize = TAG + max(Value::BOUND, u16::BOUND);
}
impl MaxEncoded for KeyArg<'_> {
    const BOUND: usize = TAG + max(KeyBuf::BOUND, u16::BOUND);
}

impl MaxEncoded for Track<'_> {
    const BOUND: usize = TAG + KeyArg::BOUND + Arg::BOUND + f32::BOUND;
}
impl MaxEncoded for Commit<'_> {
    const BOUND: usize = TAG
        + max(
            Arg::BOUND,
            StepRef::BOUND + StepVerb::BOUND + Option::<Arg<'_>>::BOUND,
        );
}
impl MaxEncoded for Note<'_> {
    const BOUND: usize = TAG + max(2 * Arg::BOUND, u16::BOUND + bool::BOUND);
}
impl MaxEncoded for Action<'_> {
    const BOUND: usize = TAG
        + max(
            max(u16::BOUND + seq(ARGS_MAX, Arg::BOUND), Track::BOUND),
            max(max(Commit::BOUND, Arg::BOUND + u8::BOUND), Note::BOUND),
        );
}

impl MaxEncoded for ToolCall {
    const BOUND: usize = u16::BOUND + seq(ARGS_MAX, Value::BOUND);
}
impl MaxEncoded for Recalled {
    const BOUND: usize = u16::BOUND + f32::BOUND;
}
impl MaxEncoded for Outcome {
    const BOUND: usize = TAG
        + max(
            max(ToolCall::BOUND, seq(REMOVE_MAX, KeyBuf::BOUND) + u16::BOUND),
            max(
                seq(RECALL_MAX, Recalled::BOUND),
                seq(REMOVE_MAX, Value::BOUND) + u16::BOUND,
            ),
        );
}
impl MaxEncoded for ApplyError {
    const BOUND: usize = TAG + Status::BOUND + StepVerb::BOUND;
}

impl MaxEncoded for Field<'_> {
    const BOUND: usize = KeyBuf::BOUND + Value::BOUND;
}
impl MaxEncoded for FieldBuf {
    const BOUND: usize = Field::BOUND;
}
impl MaxEncoded for Event<'_> {
    const BOUND: usize = EventKind::BOUND + u16::BOUND + seq(FIELDS_MAX, Field::BOUND);
}
impl MaxEncoded for EventBuf {
    const BOUND: usize = Event::BOUND;
}

impl MaxEncoded for Message<'_> {
    const BOUND: usize = TAG
        + max(
            max(Action::BOUND, TAG + max(Outcome::BOUND, ApplyError::BOUND)),
            Event::BOUND,
        );
}

impl MaxEncoded for Fact {
    const BOUND: usize =
        KeyBuf::BOUND + Value::BOUND + f32::BOUND + Provenance::BOUND + u16::BOUND + 2 * u32::BOUND;
}
impl MaxEncoded for Step {
    const BOUND: usize =
        Value::BOUND + Status::BOUND + u16::BOUND + 2 * Option::<Value>::BOUND + u32::BOUND;
}
impl MaxEncoded for Lesson {
    const BOUND: usize = 2 * Value::BOUND + 4 * u16::BOUND + u32::BOUND + bool::BOUND;
}
impl MaxEncoded for Costs {
    const BOUND: usize = 6 * u16::BOUND;
}
impl MaxEncoded for Config {
    const BOUND: usize = u16::BOUND + u32::BOUND + Costs::BOUND;
}

/// A value of each type whose encoding is as long as it gets, for the tests.
#[cfg(test)]
pub(crate) mod worst {
    use super::*;
    use crate::value::{Key, Text};

    pub(crate) const LONG_KEY: &str = "kkkkkkkkkkkkkkkk";
    pub(crate) const LONG_TEXT: &str = "tttttttttttttttttttttttttttttttt";

    pub(crate) fn value() -> Value {
        Value::text(LONG_TEXT).unwrap()
    }
    pub(crate) fn key() -> KeyBuf {
        crate::value::copy_key(LONG_KEY)
    }
    pub(crate) fn arg() -> Arg<'static> {
        Arg::Lit(ValueRef::Text(Text::new(LONG_TEXT).unwrap()))
    }
    pub(crate) fn key_arg() -> KeyArg<'static> {
        KeyArg::Lit(Key::new(LONG_KEY).unwrap())
    }
    pub(crate) fn actions() -> [Action<'static>; 5] {
        let mut args = heapless::Vec::new();
        while args.push(arg()).is_ok() {}
        [
            Action::Act {
                tool: u16::MAX,
                args,
            },
            Action::Track(Track::Set {
                key: key_arg(),
                value: arg(),
                confidence: 1.0,
            }),
            Action::Commit(Commit::Step {
                step: StepRef::Index(u16::MAX),
                verb: StepVerb::Fail,
                value: Some(arg()),
            }),
            Action::Recall {
                query: arg(),
                k: 200,
            },
            Action::Note(Note::Add {
                trigger: arg(),
                remedy: arg(),
            }),
        ]
    }
    pub(crate) fn outcome() -> Outcome {
        let mut removed = heapless::Vec::new();
        while removed.push(value()).is_ok() {}
        Outcome::Consolidated {
            removed,
            over: u16::MAX,
        }
    }
    pub(crate) fn event() -> Event<'static> {
        let mut e = Event::new(EventKind::Notice, u16::MAX);
        while e
            .push(
                Key::new(LONG_KEY).unwrap(),
                ValueRef::Text(Text::new(LONG_TEXT).unwrap()),
            )
            .is_ok()
        {}
        e
    }
    pub(crate) fn fact() -> Fact {
        Fact {
            key: key(),
            value: value(),
            confidence: 1.0,
            provenance: Provenance::Action,
            source: u16::MAX,
            set_at: u32::MAX,
            confirmed_at: u32::MAX,
        }
    }
    pub(crate) fn step() -> Step {
        Step {
            label: value(),
            status: Status::Skipped,
            attempts: u16::MAX,
            cursor: Some(value()),
            last_error: Some(value()),
            updated_at: u32::MAX,
        }
    }
    pub(crate) fn lesson() -> Lesson {
        Lesson {
            trigger: value(),
            remedy: value(),
            helpful: u16::MAX,
            harmful: u16::MAX,
            uses: u16::MAX,
            noted: u16::MAX,
            last_use: u32::MAX,
            recalled: true,
        }
    }
    pub(crate) fn config() -> Config {
        let m = u16::MAX;
        Config {
            tools: m,
            budget: u32::MAX,
            costs: Costs {
                act: m,
                track: m,
                commit: m,
                recall: m,
                note: m,
                finish: m,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::worst;
    use super::*;

    fn len<T: serde::Serialize>(v: &T) -> usize {
        postcard::experimental::serialized_size(v).unwrap()
    }

    #[test]
    fn bounds_are_exact() {
        assert_eq!(len(&worst::value()), Value::BOUND);
        assert_eq!(len(&Value::Int(i64::MIN)), TAG + i64::BOUND);
        assert_eq!(len(&worst::arg()), Arg::BOUND);
        assert_eq!(len(&worst::key_arg()), KeyArg::BOUND);
        let acts = worst::actions();
        assert_eq!(acts.iter().map(len).max().unwrap(), Action::BOUND);
        assert_eq!(len(&acts[1]), TAG + Track::BOUND);
        assert_eq!(len(&acts[2]), TAG + Commit::BOUND);
        assert_eq!(len(&acts[4]), TAG + Note::BOUND);
        assert_eq!(len(&worst::outcome()), Outcome::BOUND);
        assert_eq!(len(&worst::event()), Event::BOUND);
        assert_eq!(len(&Message::Event(worst::event())), Message::BOUND);
        assert_eq!(len(&worst::fact()), Fact::BOUND);
        assert_eq!(len(&worst::step()), Step::BOUND);
        assert_eq!(len(&worst::lesson()), Lesson::BOUND);
        assert_eq!(len(&worst::config()), Config::BOUND);
        let err = ApplyError::IllegalTransition {
            from: Status::Done,
            verb: StepVerb::Start,
        };
        assert_eq!(len(&err), ApplyError::BOUND);
    }

    #[test]
    fn every_message_fits_the_frame_bound() {
        use crate::wire::{COBS_FRAME_MAX, FRAME_MAX, Frame};
        let mut msgs = heapless::Vec::<Message<'static>, 8>::new();
        for a in worst::actions() {
            msgs.push(Message::Action(a)).unwrap();
        }
        msgs.push(Message::Outcome(Ok(worst::outcome()))).unwrap();
        msgs.push(Message::Event(worst::event())).unwrap();
        let mut longest = 0;
        for m in msgs {
            let f = Frame::new(u32::MAX, m);
            let mut buf = [0u8; FRAME_MAX];
            longest = longest.max(f.encode(&mut buf).unwrap().len());
            let mut cbuf = [0u8; COBS_FRAME_MAX];
            f.encode_cobs(&mut cbuf).unwrap();
        }
        assert_eq!(longest, FRAME_MAX);
    }
}
