//! An agent's durability: when it writes its checkpoint ([`CheckpointSchedule`]), writing it,
//! and resuming from it. The file itself is [`crate::checkpoint`]'s; what is durable and why
//! is in the [`agent`](super) module docs.

use std::path::{Path, PathBuf};

use crate::checkpoint::{Checkpoint, CheckpointError, State};
use crate::controller::Controller;
use crate::error::{Error, ErrorKind, Result};
use crate::experience_store::ExperienceStore;
use crate::framed_file::{temp_path, write_atomic};
use crate::rng::SplitMix64;
use crate::world::World;

use super::{Agent, AgentConfig, Refused};

/// When an agent writes its checkpoint, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckpointSchedule {
    /// The checkpoint file, replaced atomically (a temporary file beside it is used).
    pub path: PathBuf,
    /// After every this many steps of a task (counted from its start); `None` for never.
    pub every_steps: Option<u64>,
    /// After every step that applied a `commit` action (a Progress change).
    pub on_commit: bool,
}

impl CheckpointSchedule {
    /// A checkpoint at `path` on every commit (and at the end of a task).
    pub fn new(path: impl Into<PathBuf>) -> Self {
        Self {
            path: path.into(),
            every_steps: None,
            on_commit: true,
        }
    }

    /// Also after every `n` steps.
    pub fn every_steps(mut self, n: u64) -> Self {
        self.every_steps = Some(n);
        self
    }

    /// Whether commits are boundaries.
    pub fn on_commit(mut self, yes: bool) -> Self {
        self.on_commit = yes;
        self
    }

    fn due(&self, steps: u64, committed: bool, finished: bool) -> bool {
        finished
            || (self.on_commit && committed)
            || self.every_steps.is_some_and(|n| steps.is_multiple_of(n))
    }
}

/// A schedule with the buffers its writes reuse.
pub(super) struct Durable {
    schedule: CheckpointSchedule,
    tmp: PathBuf,
    bufs: Buffers,
}

/// Reused between checkpoints, so that writing one allocates only when a part grows.
#[derive(Default)]
struct Buffers {
    file: Vec<u8>,
    workspace: Vec<u8>,
    state: Vec<u8>,
    world: Vec<u8>,
    store: Vec<u8>,
}

impl<W: World, C: Controller<W>> Agent<W, C> {
    /// Continues from the checkpoint in `path` (see [`crate::checkpoint`]): the workspace, step
    /// counters, sampler and recurrent state as they were when it was written, the experience
    /// store if it had one (a checkpoint of format 1 has none), and the world's resume point if
    /// it saved one ([`World::restore_resume_point`]). The task is not restarted and
    /// [`World::reset`] is not called.
    ///
    /// `controller` must have the contract of the one that wrote it (for a policy: the same
    /// ABI, capacities and tools), and `config` its budget and costs; the sampler's state comes
    /// from the checkpoint, not from `config.seed`, and `config.selection` applies from here on
    /// (the same one keeps the run deterministic). A file that is corrupted, truncated or
    /// foreign is refused with [`ErrorKind::Checkpoint`] (its [`CheckpointError`] as the
    /// source); a missing one with [`ErrorKind::Io`]. The schedule is not part of a
    /// checkpoint: set it again with [`Agent::set_checkpoints`].
    pub fn resume(
        controller: C,
        world: W,
        config: AgentConfig,
        path: impl AsRef<Path>,
    ) -> Result<Self> {
        Self::try_resume(controller, world, config, path).map_err(|r| r.error)
    }

    /// [`Agent::resume`] from checkpoint bytes ([`Agent::checkpoint_bytes`] wrote them).
    pub fn resume_from_bytes(
        controller: C,
        world: W,
        config: AgentConfig,
        bytes: &[u8],
    ) -> Result<Self> {
        Self::try_resume_from_bytes(controller, world, config, bytes).map_err(|r| r.error)
    }

    /// [`Agent::resume`] that hands the controller and the world back when it refuses (a
    /// missing file included), so that the caller can start afresh with them.
    pub fn try_resume(
        controller: C,
        world: W,
        config: AgentConfig,
        path: impl AsRef<Path>,
    ) -> Result<Self, Refused<C, W>> {
        let path = path.as_ref();
        match std::fs::read(path) {
            Ok(bytes) => Self::resume_named(
                controller,
                world,
                config,
                &bytes,
                &path.display().to_string(),
            ),
            Err(e) => Err(Refused {
                error: Error::new(
                    ErrorKind::Io,
                    format!("reading checkpoint {}", path.display()),
                )
                .with_source(e),
                controller,
                world,
            }),
        }
    }

    /// [`Agent::resume_from_bytes`] that hands the controller and the world back when it
    /// refuses.
    pub fn try_resume_from_bytes(
        controller: C,
        world: W,
        config: AgentConfig,
        bytes: &[u8],
    ) -> Result<Self, Refused<C, W>> {
        Self::resume_named(controller, world, config, bytes, "in memory")
    }

    fn resume_named(
        controller: C,
        world: W,
        config: AgentConfig,
        bytes: &[u8],
        name: &str,
    ) -> Result<Self, Refused<C, W>> {
        let refuse = |e: CheckpointError| {
            Error::new(ErrorKind::Checkpoint, format!("checkpoint {name} refused")).with_source(e)
        };
        let c = match Checkpoint::decode(bytes) {
            Ok(c) => c,
            Err(e) => {
                return Err(Refused {
                    error: refuse(e),
                    controller,
                    world,
                });
            }
        };
        let mut agent = Self::build(controller, world, config)?;
        match agent.restore(&c, &config, name, refuse) {
            Ok(()) => Ok(agent),
            Err(error) => {
                let (controller, world) = agent.into_parts();
                Err(Refused {
                    error,
                    controller,
                    world,
                })
            }
        }
    }

    /// Restores a fresh agent's state from a decoded checkpoint (the world's resume point last, so
    /// that a refusal leaves the world as it was).
    fn restore(
        &mut self,
        c: &Checkpoint<'_>,
        config: &AgentConfig,
        name: &str,
        refuse: impl Fn(CheckpointError) -> Error,
    ) -> Result<()> {
        if c.policy != self.identity {
            return Err(refuse(CheckpointError::ForeignPolicy {
                policy: self.identity,
                checkpoint: c.policy,
            }));
        }
        let state_len = self.controller.state().len();
        if c.state.len() != state_len {
            return Err(refuse(CheckpointError::StateLength {
                policy: state_len,
                checkpoint: c.state.len(),
            }));
        }
        self.ws
            .restore(c.workspace)
            .map_err(|e| refuse(CheckpointError::Workspace(e)))?;
        let restored = *self.ws.config();
        if restored.budget != config.budget {
            return Err(refuse(CheckpointError::ConfigMismatch("budget")));
        }
        if restored.costs != config.costs {
            return Err(refuse(CheckpointError::ConfigMismatch("costs")));
        }
        if let Some(bytes) = c.store {
            let store = ExperienceStore::from_bytes(bytes)
                .map_err(|e| refuse(CheckpointError::ExperienceStore(e)))?;
            self.store = Some(store);
        }
        let state: Vec<f32> = c.state.floats().collect();
        self.controller.set_state(&state)?;
        if let Some(resume_point) = c.world {
            self.world.restore_resume_point(resume_point).map_err(|e| {
                Error::new(
                    ErrorKind::Checkpoint,
                    format!("checkpoint {name} refused by the world"),
                )
                .with_source(e)
            })?;
        }
        self.steps = c.steps;
        self.world_actions = c.world_actions;
        self.harness = c.harness_actions;
        self.rng = SplitMix64(c.rng);
        Ok(())
    }

    /// Writes checkpoints on `schedule` from now on (see the [module docs](super)); `None`
    /// stops. `every_steps` of `Some(0)` is refused.
    pub fn set_checkpoints(&mut self, schedule: Option<CheckpointSchedule>) -> Result<()> {
        if let Some(s) = &schedule
            && s.every_steps == Some(0)
        {
            return Err(Error::new(
                ErrorKind::Config,
                "a checkpoint every 0 steps: use None for never",
            ));
        }
        let bufs = self.durable.take().map(|d| d.bufs).unwrap_or_default();
        self.durable = schedule.map(|schedule| Durable {
            tmp: temp_path(&schedule.path),
            schedule,
            bufs,
        });
        Ok(())
    }

    /// The checkpoint schedule, if one is set.
    pub fn checkpoints(&self) -> Option<&CheckpointSchedule> {
        self.durable.as_ref().map(|d| &d.schedule)
    }

    /// Writes a checkpoint of the agent as it is now to `path`, atomically.
    pub fn checkpoint(&self, path: impl AsRef<Path>) -> Result<()> {
        let path = path.as_ref();
        let mut bufs = Buffers::default();
        self.encode_checkpoint(&mut bufs)?;
        write_atomic(path, &temp_path(path), &bufs.file).map_err(|e| checkpoint_io(path, e))
    }

    /// The checkpoint of the agent as it is now, into `out` (cleared first).
    pub fn checkpoint_bytes(&self, out: &mut Vec<u8>) -> Result<()> {
        let mut bufs = Buffers {
            file: std::mem::take(out),
            ..Buffers::default()
        };
        let r = self.encode_checkpoint(&mut bufs);
        *out = bufs.file;
        r
    }

    fn encode_checkpoint(&self, b: &mut Buffers) -> Result<()> {
        b.workspace
            .resize(evoharness_core::snapshot::max_len(self.ws.capacities()), 0);
        let n = self
            .ws
            .snapshot(&mut b.workspace)
            .map_err(|e| {
                Error::new(
                    ErrorKind::Workspace,
                    format!("snapshotting the workspace: {e}"),
                )
            })?
            .len();
        b.world.clear();
        let saved = self.world.save_resume_point(&mut b.world);
        if let Some(e) = self.world.take_failure() {
            return Err(e);
        }
        Checkpoint {
            policy: self.identity,
            steps: self.steps,
            world_actions: self.world_actions,
            harness_actions: self.harness,
            rng: self.rng.0,
            state: State::encode_into(self.controller.state(), &mut b.state),
            world: saved.then_some(&b.world[..]),
            workspace: &b.workspace[..n],
            store: match &self.store {
                Some(s) => {
                    s.encode_into(&mut b.store);
                    Some(&b.store[..])
                }
                None => None,
            },
        }
        .encode(&mut b.file);
        Ok(())
    }

    /// Writes the scheduled checkpoint if this step reached a boundary.
    pub(super) fn checkpoint_if_due(&mut self, committed: bool) -> Result<()> {
        let finished = self.ws.finished().is_some();
        let Some(mut d) = self
            .durable
            .take_if(|d| d.schedule.due(self.steps, committed, finished))
        else {
            return Ok(());
        };
        let r = self.encode_checkpoint(&mut d.bufs).and_then(|()| {
            write_atomic(&d.schedule.path, &d.tmp, &d.bufs.file)
                .map_err(|e| checkpoint_io(&d.schedule.path, e))
        });
        self.durable = Some(d);
        r
    }
}

fn checkpoint_io(path: &Path, e: std::io::Error) -> Error {
    Error::new(
        ErrorKind::Io,
        format!("writing checkpoint {}", path.display()),
    )
    .with_source(e)
}
