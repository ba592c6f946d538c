//! A small deterministic environment with the fixtures' three tools (copy, wait, verify): each
//! copy moves the cursor on, every fourth call is rate-limited until a wait.

use evoharness_core::{EventBuf, EventKind, FieldBuf, ToolCall, Value};

#[derive(Clone, Debug, Default)]
pub(crate) struct Toy {
    pub(crate) cursor: i64,
    pub(crate) calls: u64,
    pub(crate) limited: bool,
    pub(crate) seed: u64,
}

fn event(kind: EventKind, source: u16, fields: &[(&str, Value)]) -> EventBuf {
    let mut e = EventBuf {
        kind,
        source,
        fields: Default::default(),
    };
    for (k, v) in fields {
        let key = (*k).try_into().expect("short key");
        e.fields
            .push(FieldBuf {
                key,
                value: v.clone(),
            })
            .expect("few fields");
    }
    e
}

impl evoharness_runtime::Environment for Toy {
    fn tools(&self) -> u16 {
        3
    }

    fn reset(&mut self, seed: u64) -> EventBuf {
        *self = Toy {
            seed,
            ..Toy::default()
        };
        event(
            EventKind::Notice,
            0,
            &[("job", Value::Int(seed as i64)), ("cursor", Value::Int(0))],
        )
    }

    fn call(&mut self, call: &ToolCall) -> EventBuf {
        self.calls += 1;
        match call.tool {
            1 => {
                self.limited = false;
                event(EventKind::Result, 1, &[("waited", Value::Bool(true))])
            }
            _ if self.limited || (self.calls + self.seed).is_multiple_of(4) => {
                self.limited = true;
                event(EventKind::Error, call.tool, &[("code", Value::Int(429))])
            }
            0 => {
                self.cursor += 4;
                event(EventKind::Result, 0, &[("cursor", Value::Int(self.cursor))])
            }
            _ => event(EventKind::Result, 2, &[("copied", Value::Int(self.cursor))]),
        }
    }
}
