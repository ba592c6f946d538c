//! The oracle: an upper bound that reads the hidden state.

use super::*;

/// Sees the hidden state; uses the workspace only to carry an item through an outage or a
/// token renewal. See the [module docs](super).
#[derive(Clone, Debug, Default)]
pub struct Oracle;

impl Oracle {
    /// Renews a token that has fewer landing calls left than this before fetching.
    const RENEW_BELOW: u32 = 4;
}

impl Controller<SuiteWorld> for Oracle {
    fn name(&self) -> String {
        "oracle".into()
    }

    fn capacities(&self) -> Capacities {
        CAPACITIES
    }

    fn needs(&self) -> Needs {
        RULES_NEED
    }

    fn decide(&mut self, view: &View<'_, SuiteWorld>, _: &mut SplitMix64) -> Result<Decision> {
        let (ws, w, layout) = (view.workspace, view.world, view.layout);
        let kind = w.config().kind;
        let e = current(view)?;
        let key = kind.item_key();
        let tool_for = |id: &Value| {
            let i = match id {
                Value::Int(i) => w.index_of(*i),
                _ => None,
            };
            i.map_or(PUT, |i| w.remedy(i).unwrap_or_else(|| w.right_tool(i)))
        };
        let fetch = || {
            if kind == TaskKind::Orchestration && w.token_left() < Self::RENEW_BELOW {
                act(layout, SPECIAL, None)
            } else {
                act(layout, FETCH, None)
            }
        };
        match classify(e, kind) {
            Ev::Done => finish(layout, true),
            Ev::Fetched | Ev::Error("timeout" | "rejected") => match field(e, key) {
                Some(f) => act(
                    layout,
                    tool_for(&e.fields[f as usize].value),
                    Some(Source::Field(f)),
                ),
                None => fetch(),
            },
            Ev::Error(err @ ("unavailable" | "expired")) => {
                let (Some(f), item) = (field(e, key), e.get(key)) else {
                    return fetch();
                };
                let known = ws
                    .belief()
                    .get(key)
                    .is_some_and(|(_, fact)| item.is_some_and(|v| v.same(&fact.value)));
                if !known {
                    index(layout, Template::Track { field: f })
                } else if err == "unavailable" {
                    act(layout, WAIT, None)
                } else {
                    act(layout, SPECIAL, None)
                }
            }
            Ev::Error("backoff") | Ev::Waiting => act(layout, WAIT, None),
            Ev::Ready | Ev::Token => {
                let pending = ws.belief().get(key).and_then(|(s, fact)| match fact.value {
                    Value::Int(id) => w
                        .index_of(id)
                        .filter(|&i| !w.is_landed(i))
                        .map(|_| (s as u16, fact.value.clone())),
                    _ => None,
                });
                match pending {
                    Some((s, id)) => act(layout, tool_for(&id), Some(Source::Fact(s))),
                    None => fetch(),
                }
            }
            _ => fetch(),
        }
    }
}
