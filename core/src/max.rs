//! The largest postcard encoding of a type: the trait and the pieces bounds are composed of.
//!
//! postcard's own `MaxSize` does not cover heapless 0.9 nor bounded borrowed strings, so each
//! wire type states its bound beside its definition, composed from the bounds of its fields
//! with the helpers here. The tests below encode a worst case of every type and require the
//! bound to be met *exactly*, so a bound can be neither short nor loose.

/// The largest postcard encoding of a type.
pub(crate) trait MaxEncoded {
    const BOUND: usize;
}

/// The longest varint of an unsigned integer of `bits` bits.
pub(crate) const fn varint_max(bits: usize) -> usize {
    bits.div_ceil(7)
}

/// The larger of two bounds (the bound of an enum is its tag plus its largest variant's).
pub(crate) const fn max(a: usize, b: usize) -> usize {
    if a > b { a } else { b }
}

/// Length prefix plus content of a string or sequence of at most `n` bytes/items of `item`.
pub(crate) const fn seq(n: usize, item: usize) -> usize {
    varint_max(usize::BITS as usize - n.leading_zeros() as usize) + n * item
}

/// A discriminant of an enum with fewer than 128 variants.
pub(crate) const TAG: usize = 1;

/// `MaxEncoded` impls with a fixed bound: `fixed! { Type = bound; ... }`.
macro_rules! fixed {
    ($($t:ty = $n:expr;)*) => { $(impl $crate::max::MaxEncoded for $t { const BOUND: usize = $n; })* };
}
pub(crate) use fixed;

fixed! {
    bool = 1;
    u8 = 1;
    u16 = varint_max(16);
    u32 = varint_max(32);
    i64 = varint_max(64);
    f32 = 4;
    f64 = 8;
}

impl<T: MaxEncoded> MaxEncoded for Option<T> {
    const BOUND: usize = 1 + T::BOUND;
}

impl<const N: usize> MaxEncoded for heapless::String<N> {
    const BOUND: usize = seq(N, 1);
}
impl<T: MaxEncoded, const N: usize> MaxEncoded for heapless::Vec<T, N> {
    const BOUND: usize = seq(N, T::BOUND);
}

#[cfg(test)]
#[cfg(test)]
mod tests {
    use super::*;
    use crate::action::{
        Action, ApplyError, Arg, Commit, Costs, KeyArg, Note, Outcome, StepRef, Track,
    };
    use crate::belief::{Fact, Provenance};
    use crate::event::{Event, EventKind};
    use crate::experience::Lesson;
    use crate::progress::{Status, Step, StepVerb};
    use crate::value::{KeyBuf, Value, ValueRef};
    use crate::wire::Message;
    use crate::workspace::Config;

    /// A value of each type whose encoding is as long as it gets.
    mod worst {
        use super::*;
        use crate::value::{Key, Text};

        pub(super) const LONG_KEY: &str = "kkkkkkkkkkkkkkkk";
        pub(super) const LONG_TEXT: &str = "tttttttttttttttttttttttttttttttt";

        pub(super) fn value() -> Value {
            Value::text(LONG_TEXT).unwrap()
        }
        pub(super) fn key() -> KeyBuf {
            crate::value::copy_key(LONG_KEY)
        }
        pub(super) fn arg() -> Arg<'static> {
            Arg::Lit(ValueRef::Text(Text::new(LONG_TEXT).unwrap()))
        }
        pub(super) fn key_arg() -> KeyArg<'static> {
            KeyArg::Lit(Key::new(LONG_KEY).unwrap())
        }
        pub(super) fn actions() -> [Action<'static>; 5] {
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
        pub(super) fn outcome() -> Outcome {
            let mut removed = heapless::Vec::new();
            while removed.push(value()).is_ok() {}
            Outcome::Consolidated {
                removed,
                over: u16::MAX,
            }
        }
        pub(super) fn event() -> Event<'static> {
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
        pub(super) fn fact() -> Fact {
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
        pub(super) fn step() -> Step {
            Step {
                label: value(),
                status: Status::Skipped,
                attempts: u16::MAX,
                cursor: Some(value()),
                last_error: Some(value()),
                updated_at: u32::MAX,
            }
        }
        pub(super) fn lesson() -> Lesson {
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
        pub(super) fn config() -> Config {
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
