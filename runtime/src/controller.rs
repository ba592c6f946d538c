//! Who decides an agent's next action: a [`Controller`].
//!
//! The [`Agent`](crate::Agent) loop is the same whoever decides: it encodes the workspace and
//! the current event, computes the legal-action mask, asks its controller for a [`Decision`],
//! resolves and applies it, and dispatches a tool call to the [`World`](crate::World). A
//! trained [`Policy`] is the controller hosts run; the task suite's baselines (hand-written
//! rules, an oracle, random) are controllers too, so an evaluation measures exactly the loop a
//! host embeds. A learner outside the process (Python training) decides through
//! [`Agent::step_with`](crate::Agent::step_with) instead.

use evoharness_core::obs::Layout;
use evoharness_core::{Action, Capacities, EventBuf, HeapWorkspace};

use crate::error::{Error, ErrorKind, Result};
use crate::policy::{Policy, policy_identity};
use crate::rng::SplitMix64;

/// What a controller does next.
#[derive(Clone, Debug, PartialEq)]
pub enum Decision {
    /// Apply this template of the structured-v1 action space (what a policy outputs).
    Template(usize),
    /// Call a world tool with a literal integer argument (an id), or none: for controllers
    /// that keep their memory outside the workspace (the suite's append-only baseline). Such a
    /// step has no template ([`StepReport::template`](crate::StepReport) is `None`).
    Call {
        /// The tool.
        tool: u16,
        /// Its argument.
        arg: Option<i64>,
    },
}

/// How a policy's logits become a template.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Selection {
    /// The highest logit (ties: the lowest index).
    Argmax,
    /// A sample from `softmax(logits / temperature)` with the agent's seeded generator.
    Sample {
        /// Above 0; lower is greedier.
        temperature: f32,
    },
}

/// What a controller sees when it decides.
pub struct View<'a, W: ?Sized> {
    /// The workspace, with the current event.
    pub workspace: &'a HeapWorkspace,
    /// The action space.
    pub layout: &'a Layout,
    /// The world. Only an oracle may look at its hidden state.
    pub world: &'a W,
    /// The encoded observation, if the controller asked for it ([`Controller::needs`]); else
    /// empty.
    pub obs: &'a [f32],
    /// Which templates are legal (1) now, if the controller asked for it; else empty.
    pub mask: &'a [u8],
    /// How logits become a choice.
    pub selection: Selection,
}

/// What a controller needs computed before it decides: each costs a fraction of a
/// microsecond a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Needs {
    /// The encoded observation ([`View::obs`]).
    pub obs: bool,
    /// The legal-action mask ([`View::mask`]).
    pub mask: bool,
}

/// Decides an agent's actions; see the [module docs](self).
pub trait Controller<W: ?Sized> {
    /// A short name for reports.
    fn name(&self) -> String {
        "controller".into()
    }

    /// The workspace capacities it was made for: the agent's workspace is sized from them.
    fn capacities(&self) -> Capacities;

    /// The observation layout it reads (its version and [`Controller::capacities`]): the
    /// structured-v1 layout by default.
    fn layout(&self) -> Layout {
        Layout::new(self.capacities())
    }

    /// What to compute before [`Controller::decide`]. The default: both.
    fn needs(&self) -> Needs {
        Needs {
            obs: true,
            mask: true,
        }
    }

    /// A task has started: the first event is in the workspace (reset recurrent state here).
    fn begin(&mut self, view: &View<'_, W>) {
        let _ = view;
    }

    /// The next action. `rng` is the agent's seeded generator (checkpointed with it).
    fn decide(&mut self, view: &View<'_, W>, rng: &mut SplitMix64) -> Result<Decision>;

    /// What the decision did: the action applied, and the event a world call returned (before
    /// the workspace observes it).
    fn observe(&mut self, action: &Action<'_>, event: Option<&EventBuf>) {
        let _ = (action, event);
    }

    /// What a checkpoint records to refuse a resume by another controller; 0 by default.
    fn identity(&self) -> u64 {
        0
    }

    /// Recurrent state a checkpoint keeps; none by default.
    fn state(&self) -> &[f32] {
        &[]
    }

    /// Restores what [`Controller::state`] returned; the default accepts only none.
    fn set_state(&mut self, state: &[f32]) -> Result<()> {
        if state.is_empty() {
            Ok(())
        } else {
            Err(Error::new(
                ErrorKind::Checkpoint,
                format!(
                    "the checkpoint holds {} floats of recurrent state; this controller keeps none",
                    state.len()
                ),
            ))
        }
    }
}

/// A trained policy decides from the observation and mask, by its logits and the agent's
/// [`Selection`].
impl<W: ?Sized> Controller<W> for Policy {
    fn name(&self) -> String {
        "policy".into()
    }

    fn capacities(&self) -> Capacities {
        self.abi().capacities
    }

    fn layout(&self) -> Layout {
        Policy::layout(self)
    }

    fn begin(&mut self, _: &View<'_, W>) {
        self.reset_state();
    }

    fn decide(&mut self, view: &View<'_, W>, rng: &mut SplitMix64) -> Result<Decision> {
        let logits = self.run(view.obs, view.mask)?;
        Ok(Decision::Template(select(
            logits,
            view.mask,
            view.selection,
            rng,
        )))
    }

    fn identity(&self) -> u64 {
        policy_identity(self.abi(), self.fingerprint())
    }

    fn state(&self) -> &[f32] {
        Policy::state(self)
    }

    fn set_state(&mut self, state: &[f32]) -> Result<()> {
        Policy::set_state(self, state)
    }
}

impl<W: ?Sized, C: Controller<W> + ?Sized> Controller<W> for Box<C> {
    fn name(&self) -> String {
        (**self).name()
    }

    fn capacities(&self) -> Capacities {
        (**self).capacities()
    }

    fn layout(&self) -> Layout {
        (**self).layout()
    }

    fn needs(&self) -> Needs {
        (**self).needs()
    }

    fn begin(&mut self, view: &View<'_, W>) {
        (**self).begin(view);
    }

    fn decide(&mut self, view: &View<'_, W>, rng: &mut SplitMix64) -> Result<Decision> {
        (**self).decide(view, rng)
    }

    fn observe(&mut self, action: &Action<'_>, event: Option<&EventBuf>) {
        (**self).observe(action, event);
    }

    fn identity(&self) -> u64 {
        (**self).identity()
    }

    fn state(&self) -> &[f32] {
        (**self).state()
    }

    fn set_state(&mut self, state: &[f32]) -> Result<()> {
        (**self).set_state(state)
    }
}

/// A controller that never decides: for agents stepped only by
/// [`Agent::step_with`](crate::Agent::step_with), with decisions made elsewhere (a learner in
/// another process or language).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct External(pub Capacities);

impl<W: ?Sized> Controller<W> for External {
    fn name(&self) -> String {
        "external".into()
    }

    fn capacities(&self) -> Capacities {
        self.0
    }

    fn needs(&self) -> Needs {
        Needs {
            obs: false,
            mask: false,
        }
    }

    fn decide(&mut self, _: &View<'_, W>, _: &mut SplitMix64) -> Result<Decision> {
        Err(Error::new(
            ErrorKind::Config,
            "this agent's decisions come from outside: step it with Agent::step_with",
        ))
    }
}

/// Picks a legal template: see [`Selection`]. `mask` has at least one legal entry; NaN logits
/// rank below everything, and ties go to the lowest index.
pub fn select(logits: &[f32], mask: &[u8], how: Selection, rng: &mut SplitMix64) -> usize {
    let legal = || {
        logits
            .iter()
            .zip(mask)
            .enumerate()
            .filter(|(_, (_, m))| **m == 1)
    };
    let key = |l: f32| if l.is_nan() { f32::NEG_INFINITY } else { l };
    let mut best = None::<(usize, f32)>;
    for (i, (&l, _)) in legal() {
        if best.is_none_or(|(_, b)| key(l) > b) {
            best = Some((i, key(l)));
        }
    }
    let best = best.map_or(0, |(i, _)| i);
    let Selection::Sample { temperature } = how else {
        return best;
    };
    let top = logits[best];
    let weight = |l: f32| {
        if l.is_nan() {
            0.0
        } else {
            (f64::from(l - top) / f64::from(temperature)).exp()
        }
    };
    let total: f64 = legal().map(|(_, (&l, _))| weight(l)).sum();
    let mut target = rng.next_f64() * total;
    for (i, (&l, _)) in legal() {
        target -= weight(l);
        if target <= 0.0 {
            return i;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn argmax_picks_the_best_legal_and_breaks_ties_low() {
        let mut r = SplitMix64(1);
        let logits = [5.0, 1.0, 3.0, 3.0];
        assert_eq!(select(&logits, &[0, 1, 1, 1], Selection::Argmax, &mut r), 2);
        assert_eq!(select(&logits, &[1, 1, 1, 1], Selection::Argmax, &mut r), 0);
        assert_eq!(
            select(&[f32::NAN, 1.0], &[1, 1], Selection::Argmax, &mut r),
            1
        );
    }

    #[test]
    fn sampling_is_seeded_and_stays_legal() {
        let logits = [0.0, 0.5, 0.2, 9.0];
        let mask = [1, 1, 1, 0];
        let run = |seed| {
            let mut r = SplitMix64(seed);
            (0..200)
                .map(|_| {
                    select(
                        &logits,
                        &mask,
                        Selection::Sample { temperature: 1.0 },
                        &mut r,
                    )
                })
                .collect::<Vec<_>>()
        };
        let a = run(7);
        assert_eq!(a, run(7));
        assert_ne!(a, run(8));
        assert!(a.iter().all(|&i| i < 3), "never the masked template");
        for i in 0..3 {
            assert!(a.contains(&i), "template {i} never sampled");
        }
        // A cold temperature is greedy.
        let mut r = SplitMix64(3);
        let cold = Selection::Sample { temperature: 1e-3 };
        assert!((0..50).all(|_| select(&logits, &mask, cold, &mut r) == 1));
    }
}
