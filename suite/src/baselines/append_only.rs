//! The append-only transcript: memory outside the workspace, seen through a window.

use super::*;

/// One transcript entry of the append-only baseline.
#[derive(Clone, Debug, PartialEq)]
#[expect(
    clippy::large_enum_variant,
    reason = "half the entries are events; boxing them would add an allocation to each"
)]
enum Entry {
    Event(EventBuf),
    Call { tool: u16, arg: Option<Value> },
}

/// The append-only memory; see the [module docs](super).
#[derive(Clone, Debug)]
pub struct AppendOnly {
    window: usize,
    transcript: Vec<Entry>,
    kind: Option<TaskKind>,
}

impl AppendOnly {
    /// The default window: 48 entries (a call and its event are two).
    pub const DEFAULT_WINDOW: usize = 48;

    /// An append-only agent that sees the last `window` entries (at least 2).
    pub fn new(window: usize) -> Self {
        Self {
            window: window.max(2),
            transcript: Vec::new(),
            kind: None,
        }
    }

    /// The transcript's length: it only grows within an episode.
    pub fn transcript_len(&self) -> usize {
        self.transcript.len()
    }

    fn window(&self) -> &[Entry] {
        &self.transcript[self.transcript.len().saturating_sub(self.window)..]
    }

    /// Whether the setting has drifted, as far as the window shows: the latest mention of
    /// the setting, or else the latest landing call's tool.
    fn drifted(&self, kind: TaskKind) -> bool {
        for entry in self.window().iter().rev() {
            match entry {
                Entry::Event(e) => {
                    if let Some(v) = e.get(kind.mode_key()) {
                        return drifted_value(kind, v);
                    }
                }
                Entry::Call { tool, .. } if *tool == PUT || *tool == PUT_ALT => {
                    return *tool == PUT_ALT;
                }
                Entry::Call { .. } => {}
            }
        }
        false
    }

    /// The tool to land `id` with: `merge` if the window shows it is a duplicate.
    fn land(&self, kind: TaskKind, id: &Value) -> Decision {
        let dup = self.window().iter().any(|entry| {
            matches!(entry, Entry::Event(e) if e.source == FETCH
                && e.get("dup_of").is_some()
                && e.get(kind.item_key()).is_some_and(|v| v.same(id)))
        });
        let tool = if dup {
            SPECIAL
        } else if self.drifted(kind) {
            PUT_ALT
        } else {
            PUT
        };
        Decision::Call { tool, arg: int(id) }
    }

    /// The item of the latest refusal in the window, if it has not landed since.
    fn pending(&self, kind: TaskKind) -> Option<&Value> {
        for entry in self.window().iter().rev() {
            if let Entry::Event(e) = entry {
                if e.get(kind.ok_key()).is_some() || e.get("merged").is_some() {
                    return None;
                }
                if e.get("error").is_some()
                    && let Some(v) = e.get(kind.item_key())
                {
                    return Some(v);
                }
            }
        }
        None
    }

    /// The remedy that fixed `code` in the window: the call just before its `fixed` event.
    fn known_remedy(&self, code: &Value) -> Option<u16> {
        let w = self.window();
        w.windows(2).rev().find_map(|pair| match pair {
            [Entry::Call { tool, .. }, Entry::Event(e)]
                if e.get("fixed").is_some() && e.get("code").is_some_and(|c| c.same(code)) =>
            {
                Some(*tool)
            }
            _ => None,
        })
    }

    fn last_call(&self) -> Option<(u16, Option<&Value>)> {
        self.window().iter().rev().find_map(|entry| match entry {
            Entry::Call { tool, arg } => Some((*tool, arg.as_ref())),
            Entry::Event(_) => None,
        })
    }
}

impl Default for AppendOnly {
    fn default() -> Self {
        Self::new(Self::DEFAULT_WINDOW)
    }
}

impl Controller<SuiteWorld> for AppendOnly {
    fn name(&self) -> String {
        format!("append-only(window {})", self.window)
    }

    fn capacities(&self) -> Capacities {
        CAPACITIES
    }

    fn needs(&self) -> Needs {
        RULES_NEED
    }

    fn begin(&mut self, view: &View<'_, SuiteWorld>) {
        // A new episode starts a new transcript; the old one's memory is released.
        self.transcript = Vec::new();
        self.kind = Some(view.world.config().kind);
        if let Some(e) = view.workspace.event() {
            self.transcript.push(Entry::Event(e.clone()));
        }
    }

    fn decide(&mut self, view: &View<'_, SuiteWorld>, _: &mut SplitMix64) -> Result<Decision> {
        let kind = view.world.config().kind;
        let fetch = Decision::Call {
            tool: FETCH,
            arg: None,
        };
        let call = |tool| Decision::Call { tool, arg: None };
        let Some(Entry::Event(e)) = self.transcript.last() else {
            return Ok(fetch);
        };
        let item = e.get(kind.item_key());
        Ok(match (classify(e, kind), item) {
            (Ev::Done, _) => finish(view.layout, true)?,
            (Ev::Fetched, Some(id)) => self.land(kind, id),
            (Ev::Error("timeout"), Some(id)) => match self.last_call() {
                Some((tool, Some(arg))) if arg.same(id) => Decision::Call { tool, arg: int(id) },
                _ => self.land(kind, id),
            },
            (Ev::Error("unavailable" | "backoff") | Ev::Waiting, _) => call(WAIT),
            (Ev::Error("expired"), _) => call(SPECIAL),
            (Ev::Error("duplicate"), Some(id)) => Decision::Call {
                tool: SPECIAL,
                arg: int(id),
            },
            (Ev::Ready | Ev::Token, _) => match self.pending(kind) {
                Some(id) => self.land(kind, &id.clone()),
                None => fetch,
            },
            (Ev::Error("rejected"), Some(id)) => {
                let tool = e
                    .get("code")
                    .and_then(|c| self.known_remedy(c))
                    .unwrap_or(REMEDIES[0]);
                Decision::Call { tool, arg: int(id) }
            }
            (Ev::Error("remedy_failed"), Some(id)) => {
                let last = self.last_call().map_or(REMEDIES[0], |(t, _)| t);
                let i = REMEDIES.iter().position(|&t| t == last).unwrap_or(0);
                Decision::Call {
                    tool: REMEDIES[(i + 1) % REMEDIES.len()],
                    arg: int(id),
                }
            }
            // A step whose predecessor was lost: ids are opaque, so the lost step cannot be
            // named again. Nothing can succeed any more; give up.
            (Ev::Error("dependency"), _) => finish(view.layout, false)?,
            _ => fetch,
        })
    }

    fn observe(&mut self, action: &Action<'_>, event: Option<&EventBuf>) {
        if let Action::Act { tool, args } = action {
            let arg = match args.first() {
                Some(Arg::Lit(v)) => Some(v.to_owned()),
                _ => None,
            };
            self.transcript.push(Entry::Call { tool: *tool, arg });
        }
        if let Some(e) = event {
            self.transcript.push(Entry::Event(e.clone()));
        }
    }
}
