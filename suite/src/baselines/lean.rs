//! The lean harness: the workspace only when it must, from what a policy sees.

use super::*;

/// Rules that see only what a policy sees; see the [module docs](super).
///
/// Unlike the [`Oracle`] it never reads the world's hidden state (only the task's kind, for the
/// names of keys), so every decision is a function of the structured-v1 observation: a policy
/// can imitate it exactly. It uses the workspace only for what must outlive the current event.
#[derive(Clone, Debug, Default)]
pub struct LeanHarness;

impl Controller<SuiteWorld> for LeanHarness {
    fn name(&self) -> String {
        "lean-harness".into()
    }

    fn capacities(&self) -> Capacities {
        CAPACITIES
    }

    fn needs(&self) -> Needs {
        RULES_NEED
    }

    fn decide(&mut self, view: &View<'_, SuiteWorld>, _: &mut SplitMix64) -> Result<Decision> {
        let (ws, layout) = (view.workspace, view.layout);
        let kind = view.world.config().kind;
        let e = current(view)?;
        let key = kind.item_key();
        let belief = |k: &str| ws.belief().get(k).map(|(i, f)| (i as u16, &f.value));
        let drifted = belief(kind.mode_key()).is_some_and(|(_, v)| drifted_value(kind, v));
        let land = if drifted { PUT_ALT } else { PUT };
        let item = field(e, key).map(Source::Field);
        let fetch = || act(layout, FETCH, None);
        let last = ws.last_act().unwrap_or(PUT);
        match classify(e, kind) {
            Ev::Done => finish(layout, true),
            Ev::Fetched | Ev::Again => {
                if let Some(m) = field(e, kind.mode_key())
                    && belief(kind.mode_key())
                        .is_none_or(|(_, v)| !v.same(&e.fields[m as usize].value))
                {
                    return index(layout, Template::Track { field: m });
                }
                if e.get("landed").is_some() {
                    // Delivered again after a crash, landed already: read on.
                    return fetch();
                }
                let tool = if e.get("dup_of").is_some() {
                    SPECIAL
                } else {
                    land
                };
                act(layout, tool, item)
            }
            Ev::Error("timeout") => act(layout, last, item),
            Ev::Error("duplicate") => act(layout, SPECIAL, item),
            Ev::Error("rejected") => act(layout, remedy_for(ws, e.get("code"), REMEDIES[0]), item),
            Ev::Error("remedy_failed") if e.get("retry_in").is_some() => {
                // v2: carry the item through the back-off, mark the remedy that failed, wait.
                let (Some(f), Some(v)) = (field(e, key), e.get(key)) else {
                    return act(layout, WAIT, None);
                };
                if belief(key).is_none_or(|(_, b)| !b.same(v)) {
                    return index(layout, Template::Track { field: f });
                }
                mark_failed_remedy(ws, e, layout).unwrap_or_else(|| act(layout, WAIT, None))
            }
            Ev::Error("remedy_failed") => {
                let i = REMEDIES.iter().position(|&t| t == last).unwrap_or(0);
                act(layout, REMEDIES[(i + 1) % REMEDIES.len()], item)
            }
            Ev::Error(err @ ("unavailable" | "expired")) => {
                let (Some(f), Some(v)) = (field(e, key), e.get(key)) else {
                    return fetch();
                };
                if belief(key).is_none_or(|(_, b)| !b.same(v)) {
                    index(layout, Template::Track { field: f })
                } else if err == "unavailable" {
                    act(layout, WAIT, None)
                } else {
                    act(layout, SPECIAL, None)
                }
            }
            Ev::Error("backoff") | Ev::Waiting => act(layout, WAIT, None),
            Ev::Ready | Ev::Token => match belief(key) {
                Some((slot, _)) => act(layout, land, Some(Source::Fact(slot))),
                None => fetch(),
            },
            Ev::Fixed => {
                let noted = noted(ws, e);
                match field(e, "code") {
                    Some(_) if !noted && needs_room(ws, e.get("code")) => {
                        index(layout, Template::Consolidate)
                    }
                    Some(f) if !noted => index(layout, Template::NoteField { field: f }),
                    _ => fetch(),
                }
            }
            _ => fetch(),
        }
    }
}
