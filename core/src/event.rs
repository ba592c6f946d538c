//! Events: what the world tells the agent.

use serde::{Deserialize, Serialize};

use crate::FIELDS_MAX;
use crate::max::{MaxEncoded, TAG, fixed, seq};
use crate::value::{Key, KeyBuf, TooLong, Value, ValueRef, copy_key};

/// What kind of event this is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[repr(u8)]
pub enum EventKind {
    /// A tool ran and returned a result.
    Result = 0,
    /// A tool failed (or could not be called); its fields describe the failure.
    Error = 1,
    /// The environment says something unprompted (a start, a change, a deadline).
    Notice = 2,
}

impl EventKind {
    /// How many kinds there are (the width of a one-hot encoding).
    pub const COUNT: usize = 3;
}

/// A field of a borrowed event.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Field<'a> {
    /// The field's name.
    #[serde(borrow)]
    pub key: Key<'a>,
    /// The field's value.
    #[serde(borrow)]
    pub value: ValueRef<'a>,
}

/// An event that borrows its keys and values (from a decoded frame, or from the host).
///
/// An event is a kind, the tool (or other source) it came from, and up to [`FIELDS_MAX`]
/// fields, each a short key and a typed [`crate::Value`]. A tool call returns an event; a
/// failing tool returns an [`EventKind::Error`] event, never an abort. Harness actions point at
/// fields of the *current* event by index ("track field 3"), so the workspace keeps an owned copy
/// of it ([`EventBuf`]); [`Event`] is the borrowed form a decoded frame hands out.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Event<'a> {
    /// What kind of event this is.
    pub kind: EventKind,
    /// The tool index it answers, or the environment's own source number for notices.
    pub source: u16,
    /// Up to [`FIELDS_MAX`] fields, in the order the tool wrote them.
    #[serde(borrow)]
    pub fields: heapless::Vec<Field<'a>, FIELDS_MAX>,
}

impl<'a> Event<'a> {
    /// An event with no fields yet.
    pub const fn new(kind: EventKind, source: u16) -> Self {
        Self {
            kind,
            source,
            fields: heapless::Vec::new(),
        }
    }

    /// Adds a field; hands it back when the event already has [`FIELDS_MAX`] fields.
    pub fn push(&mut self, key: Key<'a>, value: ValueRef<'a>) -> Result<(), Field<'a>> {
        self.fields.push(Field { key, value })
    }

    /// Adds a field from plain strings, checking the key's bound.
    pub fn with(mut self, key: &'a str, value: ValueRef<'a>) -> Result<Self, EventError> {
        let key = Key::new(key).map_err(EventError::KeyTooLong)?;
        self.push(key, value)
            .map_err(|_| EventError::TooManyFields)?;
        Ok(self)
    }
}

/// Building an event failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EventError {
    /// A key was longer than [`crate::KEY_MAX`].
    KeyTooLong(TooLong),
    /// The event already had [`FIELDS_MAX`] fields.
    TooManyFields,
}

impl core::fmt::Display for EventError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            EventError::KeyTooLong(e) => write!(f, "event field key: {e}"),
            EventError::TooManyFields => write!(f, "an event has at most {FIELDS_MAX} fields"),
        }
    }
}

impl core::error::Error for EventError {}

/// A field of an owned event.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FieldBuf {
    /// The field's name.
    pub key: KeyBuf,
    /// The field's value.
    pub value: Value,
}

/// An event that owns its keys and values inline: the workspace's copy of the current event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EventBuf {
    /// What kind of event this is.
    pub kind: EventKind,
    /// The tool index it answers, or the environment's own source number for notices.
    pub source: u16,
    /// The fields, in order.
    pub fields: heapless::Vec<FieldBuf, FIELDS_MAX>,
}

impl EventBuf {
    /// An event with no fields yet; add them with [`EventBuf::with`] or [`EventBuf::push`].
    pub const fn new(kind: EventKind, source: u16) -> Self {
        Self {
            kind,
            source,
            fields: heapless::Vec::new(),
        }
    }

    /// An event with these fields, in order. Fails, building nothing, on a key longer than
    /// [`crate::KEY_MAX`] or more than [`FIELDS_MAX`] fields.
    pub fn from_fields(
        kind: EventKind,
        source: u16,
        fields: &[(&str, Value)],
    ) -> Result<Self, EventError> {
        let mut e = Self::new(kind, source);
        for (key, value) in fields {
            e.push(key, value.clone())?;
        }
        Ok(e)
    }

    /// Adds a field, checking the key's bound; on an error the event is unchanged.
    pub fn push(&mut self, key: &str, value: Value) -> Result<(), EventError> {
        let key = KeyBuf::try_from(key).map_err(|_| {
            EventError::KeyTooLong(TooLong {
                len: key.len(),
                max: crate::KEY_MAX,
            })
        })?;
        self.fields
            .push(FieldBuf { key, value })
            .map_err(|_| EventError::TooManyFields)
    }

    /// [`EventBuf::push`], by value, for chaining.
    pub fn with(mut self, key: &str, value: Value) -> Result<Self, EventError> {
        self.push(key, value)?;
        Ok(self)
    }

    /// Copies a borrowed event. Cannot fail: the bounds are the same.
    pub fn from_event(e: &Event<'_>) -> Self {
        let mut fields = heapless::Vec::new();
        for f in &e.fields {
            // Same capacity on both sides: this push cannot fail.
            let _ = fields.push(FieldBuf {
                key: copy_key(f.key.as_str()),
                value: f.value.to_owned(),
            });
        }
        Self {
            kind: e.kind,
            source: e.source,
            fields,
        }
    }

    /// The first field with this key.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.fields.iter().find(|f| f.key == key).map(|f| &f.value)
    }
}

fixed! {
    EventKind = TAG;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::KEY_MAX;

    #[test]
    fn the_builder_checks_keys_and_field_count_and_changes_nothing_on_error() {
        let e = EventBuf::new(EventKind::Result, 3)
            .with("id", Value::Int(7))
            .unwrap()
            .with("ok", Value::Bool(true))
            .unwrap();
        assert_eq!(
            (e.kind, e.source, e.fields.len()),
            (EventKind::Result, 3, 2)
        );
        assert_eq!(e.get("id"), Some(&Value::Int(7)));
        let same = EventBuf::from_fields(
            EventKind::Result,
            3,
            &[("id", Value::Int(7)), ("ok", Value::Bool(true))],
        )
        .unwrap();
        assert_eq!(e, same);

        let long = "k".repeat(KEY_MAX + 1);
        let mut f = e.clone();
        assert_eq!(
            f.push(&long, Value::Int(1)),
            Err(EventError::KeyTooLong(TooLong {
                max: KEY_MAX,
                len: KEY_MAX + 1
            }))
        );
        assert_eq!(f, e, "a refused field changes nothing");

        let mut full = EventBuf::new(EventKind::Notice, 0);
        for i in 0..FIELDS_MAX {
            full.push(if i % 2 == 0 { "a" } else { "b" }, Value::Int(i as i64))
                .unwrap();
        }
        let before = full.clone();
        assert_eq!(
            full.push("c", Value::Int(0)),
            Err(EventError::TooManyFields)
        );
        assert_eq!(full, before);
    }
}
