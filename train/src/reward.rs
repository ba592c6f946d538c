//! The learning signal.
//!
//! - **Every step** costs `STEP_PENALTY × cost / budget`: an action's share of the budget, so
//!   the whole budget costs `STEP_PENALTY` (0.1) whatever the horizon. Harness actions cost
//!   budget like world actions, so a needless `track` or `recall` lowers the return.
//! - **At the end**, a success earns `1 + EFFICIENCY × (1 − spent / budget)`: success gates
//!   the efficiency bonus (at most `EFFICIENCY`, 0.5), as in cost-aware RL. A failure with an
//!   integrity violation earns `VIOLATION` (−0.5); any other failure 0.
//!
//! `reward(cost, budget, end)` is one step's reward; `end` is `Some(stats)` on the last step.

use crate::stats::EpisodeStats;

/// What spending the whole budget costs.
pub const STEP_PENALTY: f64 = 0.1;
/// The largest efficiency bonus.
pub const EFFICIENCY: f64 = 0.5;
/// A failure that damaged data.
pub const VIOLATION: f64 = -0.5;

/// One step's reward.
pub fn step(cost: u32, budget: u32, end: Option<&EpisodeStats>) -> f64 {
    let budget = f64::from(budget.max(1));
    let mut r = -STEP_PENALTY * f64::from(cost) / budget;
    if let Some(s) = end {
        if s.success {
            r += 1.0 + EFFICIENCY * (1.0 - (f64::from(s.cost) / budget).min(1.0));
        } else if s.violations.total() > 0 {
            r += VIOLATION;
        }
    }
    r
}
