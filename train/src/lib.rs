//! The evoharness training kit, for any world: what a team uses to train a policy for its own
//! tools, and what the suite's training is built on. Hosts that embed the runtime do not link
//! this crate; products that train do, and link no simulator.
//!
//! A world is a runtime [`World`](evoharness_runtime::World) (written in Rust, or in C or
//! Python through the training C library). [`VecEnv`] steps many agents over such worlds in one
//! call, with decisions from the learner and observations, masks, rewards and done flags
//! written into caller-owned buffers; [`Score`] keeps an episode's [`EpisodeStats`] step by
//! step; [`reward`] is the learning signal; an [`Intent`] is a teacher's high-level action
//! ("pay invoice 101") mapped to the template that does it.
//!
//! ```
//! use evoharness_core::obs::Layout;
//! use evoharness_runtime::FixtureWorld;
//! use evoharness_runtime::fixture_world::TOOL_NAMES;
//! use evoharness_train::{VecEnv, WorldsConfig};
//!
//! # fn main() -> evoharness_runtime::Result<()> {
//! let config = WorldsConfig::new(TOOL_NAMES.len() as u16, 40);
//! let mut env = VecEnv::from_worlds((0..4).map(|_| FixtureWorld::new()).collect(), config)?;
//! let layout = env.layout();
//! let (mut obs, mut mask) = (vec![0.0; 4 * layout.obs_len()], vec![0; 4 * layout.actions()]);
//! let (mut reward, mut done) = (vec![0.0; 4], vec![0; 4]);
//! env.observe(&mut obs, &mut mask)?;
//! // The learner picks a legal template per environment; here the first legal one.
//! let actions: Vec<u32> = mask
//!     .chunks(layout.actions())
//!     .map(|m| m.iter().position(|&legal| legal == 1).unwrap() as u32)
//!     .collect();
//! env.step(&actions, &mut obs, &mut mask, &mut reward, &mut done)?;
//! # let _: &Layout = &layout;
//! # Ok(())
//! # }
//! ```
//!
//! # Layout
//!
//! | module | what |
//! | --- | --- |
//! | [`vec_env`] | [`VecEnv`], [`Hooks`], [`Buffers`], [`WorldsConfig`]: many environments stepped in one call |
//! | `score` (re-exported here) | [`Score`] and [`Account`]: an episode's stats kept step by step, for any world |
//! | `stats` (re-exported here) | [`EpisodeStats`] and [`Violations`]: what one episode did |
//! | [`reward`] | the learning signal |
//! | [`intent`] | high-level actions mapped to the template that does them |

pub mod intent;
pub mod reward;
mod score;
mod stats;
pub mod vec_env;

pub use intent::Intent;
pub use score::{Account, Score};
pub use stats::{EpisodeStats, HARNESS_VERBS, Violations, harness_index};
pub use vec_env::{Buffers, Hooks, VecEnv, WorldsConfig};

use evoharness_core::Capacities;

/// The workspace capacities a [`WorldsConfig`] starts from: 16 facts, 8 steps, 4 lessons (the
/// suite's policies' too, and what the C library's `evoharness_workspace_config_default`
/// gives), with the world's own number of tools.
pub const DEFAULT_CAPACITIES: Capacities = Capacities {
    facts: 16,
    steps: 8,
    lessons: 4,
    tools: 8,
};
