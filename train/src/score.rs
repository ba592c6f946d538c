//! Keeping an episode's stats step by step ([`Score`]), for any world through an [`Account`]
//! of it.

use evoharness_core::Action;
use evoharness_runtime::{Agent, Controller, StepReport, World};

use crate::reward;
use crate::stats::{EpisodeStats, Violations, harness_index};

/// How an episode of a world is accounted beyond what every world tells (its judge's
/// verdict): the items of its task, its landings and its violations by kind. `()` accounts any
/// world by its judge alone.
pub trait Account<W> {
    /// Items in the task `world` has just started (0 for worlds without items).
    fn items(&self, _world: &W) -> u32 {
        0
    }

    /// Fills in `stats.success`, `stats.violations` and `stats.landed` for the episode that
    /// has just ended in `world` (`stats.finished` is already set).
    fn judge(&self, world: &W, stats: &mut EpisodeStats)
    where
        W: World,
    {
        let v = world.judge(stats.finished).unwrap_or_default();
        stats.success = v.success;
        stats.violations = Violations {
            other: v.violations,
            ..Violations::default()
        };
    }
}

impl<W> Account<W> for () {}

/// One episode's stats, kept up to date step by step.
///
/// Works for any world, through an [`Account`] of it: `()` takes its judge's verdict
/// ([`World::judge`]: success, and its violation count as [`Violations::other`]), with no
/// items; the suite's worlds give their items, landings and violations by kind
/// (`SuiteAccount`, in the `evoharness-suite` crate's `episode`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Score {
    stats: EpisodeStats,
    budget: u32,
    closed: bool,
}

impl Score {
    /// A score for the episode `agent` has just started.
    pub fn begin<W, C>(agent: &Agent<W, C>, account: &impl Account<W>) -> Self
    where
        W: World,
        C: Controller<W>,
    {
        Self {
            stats: EpisodeStats {
                items: account.items(agent.world()),
                ..EpisodeStats::default()
            },
            budget: agent.config().budget,
            closed: false,
        }
    }

    /// Counts one step the agent took; returns its reward ([`reward::step`]), which on the
    /// step that ends the episode includes the final one (then the stats are final).
    pub fn step<W, C>(
        &mut self,
        agent: &Agent<W, C>,
        report: &StepReport,
        account: &impl Account<W>,
    ) -> f64
    where
        W: World,
        C: Controller<W>,
    {
        let s = &mut self.stats;
        s.steps += 1;
        if let Some(i) = harness_index(report.action.verb()) {
            s.harness[i] += 1;
        } else if matches!(report.action, Action::Act { .. }) {
            s.world_actions += 1;
        }
        s.cost = agent.workspace().spent();
        let over = agent.is_over();
        if over {
            self.close(agent, account);
        }
        let r = reward::step(report.cost, self.budget, over.then_some(&self.stats));
        self.stats.reward += r;
        r
    }

    /// Ends the episode where it stands (a step limit, or no legal action): the stats become
    /// final. Does nothing if it has ended already. A world that fails to judge
    /// ([`World::take_failure`]) keeps its failure for the caller to take; the episode then
    /// counts as failed.
    pub fn close<W, C>(&mut self, agent: &Agent<W, C>, account: &impl Account<W>)
    where
        W: World,
        C: Controller<W>,
    {
        if self.closed {
            return;
        }
        self.closed = true;
        self.stats.finished = agent.workspace().finished();
        account.judge(agent.world(), &mut self.stats);
    }

    /// The stats so far; final once the episode has ended.
    pub fn stats(&self) -> &EpisodeStats {
        &self.stats
    }
}
