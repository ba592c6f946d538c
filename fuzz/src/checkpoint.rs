//! The `checkpoint` target: untrusted bytes resumed as an agent checkpoint.
//!
//! The first byte chooses the world ([`Setup::from_byte`]): one of the suite's task kinds, a
//! horizon and the suite's version (v2 worlds' resume points also carry per-item attempts), for an agent of the suite's capacities whose controller is [`External`] (decisions
//! come from outside, so no inference: its checkpoints hold no policy identity and no recurrent
//! state, as those of the suite's rule-based baselines do). The rest is resumed as that agent's
//! checkpoint with `Agent::try_resume_from_bytes`. Checked, besides never panicking:
//!
//! - a refusal is an error of kind `Checkpoint`, `Config` or `Io` that hands back the
//!   controller and the world as they were given (the world's resume point bytes are unchanged);
//!   bytes that `Checkpoint::decode` refuses are refused with that very error as the source;
//! - an accepted checkpoint was decodable, and gives an agent whose step counters and world
//!   resume point are the checkpoint's (an accepted resume point saves back to the same bytes), whose own
//!   checkpoint decodes and resumes again to identical bytes;
//! - from there, up to [`STEPS`] legal templates (chosen by the input's last bytes) are
//!   applied with `Agent::step_with`, each accepted, and the checkpoint after them resumes to
//!   identical bytes too.
//!
//! An input whose checkpoint starts with the magic is also resumed *reframed* ([`reframe`]):
//! with its body length and CRC-32 made right, and the same for the workspace snapshot inside,
//! so that the fuzzer reaches the body's fields, the workspace restore and the world's resume point
//! without solving two checksums.

use evoharness_runtime::checkpoint::{self, Checkpoint};
use evoharness_runtime::{
    Agent, AgentConfig, CheckpointError, Decision, ErrorKind, External, Refused, World,
};
use evoharness_suite::{CAPACITIES, Scenario, SuiteWorld, TaskConfig, TaskKind, episode};

/// The horizons the first byte chooses from: a world's item count (and so its resume point's
/// length) follows from its horizon.
pub const HORIZONS: [u32; 4] = [50, 120, 400, 2_000];

/// The organisation of every world the target makes (a resume point may carry another).
pub const ORGANISATION: u64 = 7;

/// How many steps an accepted checkpoint is stepped.
pub const STEPS: usize = 4;

/// The world and agent a first byte chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The task kind: `TaskKind::ALL[b % 3]`.
    pub kind: TaskKind,
    /// The horizon: `HORIZONS[b / 3 % 4]`.
    pub horizon: u32,
    /// The suite's version: v2 if `b / 12` is odd.
    pub scenario: Scenario,
}

impl Setup {
    /// The setup byte `b` chooses; every byte chooses one.
    pub fn from_byte(b: u8) -> Self {
        Self {
            kind: TaskKind::ALL[usize::from(b) % TaskKind::ALL.len()],
            horizon: HORIZONS[usize::from(b) / TaskKind::ALL.len() % HORIZONS.len()],
            scenario: if usize::from(b) / (TaskKind::ALL.len() * HORIZONS.len()) % 2 == 1 {
                Scenario::V2
            } else {
                Scenario::V1
            },
        }
    }

    /// The byte that chooses this setup, for writing seeds; `None` if none does.
    pub fn byte(&self) -> Option<u8> {
        let k = TaskKind::ALL.iter().position(|&k| k == self.kind)?;
        let h = HORIZONS.iter().position(|&h| h == self.horizon)?;
        let s = usize::from(self.scenario == Scenario::V2);
        u8::try_from(k + TaskKind::ALL.len() * (h + HORIZONS.len() * s)).ok()
    }

    /// The task.
    pub fn task(&self) -> TaskConfig {
        TaskConfig::of(self.scenario, self.kind, self.horizon)
    }

    /// A fresh world of the task.
    pub fn world(&self) -> SuiteWorld {
        SuiteWorld::new(self.task(), ORGANISATION)
    }

    /// The agent configuration of the task (its budget and costs), seed 0.
    pub fn agent_config(&self) -> AgentConfig {
        episode::agent_config(&self.task(), 0)
    }
}

/// How far one resume got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resume {
    /// `Checkpoint::decode` refused the bytes, and so did the resume.
    Undecodable,
    /// The bytes decode, and the agent refused them (another workspace, budget or costs, a
    /// resume point of another task, a policy identity or recurrent state an external controller
    /// does not have).
    Refused,
    /// The agent resumed, and took this many steps from there.
    Resumed {
        /// Legal steps taken after the resume (fewer than [`STEPS`] when the task ended).
        steps: usize,
    },
}

/// What one input reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reached {
    /// The bytes as they are.
    pub plain: Resume,
    /// The bytes reframed ([`reframe`]); `None` when they need no reframing or do not start
    /// with the magic.
    pub reframed: Option<Resume>,
}

/// Runs one fuzz input; panics, naming what broke, if a check fails.
pub fn check(data: &[u8]) -> Reached {
    let (&head, bytes) = data.split_first().unwrap_or((&0, &[]));
    let setup = Setup::from_byte(head);
    Reached {
        plain: resume(setup, bytes),
        reframed: reframe(bytes).map(|fixed| resume(setup, &fixed)),
    }
}

/// The world's resume point.
fn resume_point(world: &SuiteWorld) -> Vec<u8> {
    let mut out = Vec::new();
    assert!(world.save_resume_point(&mut out), "a suite world saves a resume point");
    out
}

/// Resumes `bytes` into an agent of `setup`, and checks it; see the [module docs](self).
fn resume(setup: Setup, bytes: &[u8]) -> Resume {
    let world = setup.world();
    let before = resume_point(&world);
    let decoded = Checkpoint::decode(bytes);
    let controller = External(CAPACITIES);
    match Agent::try_resume_from_bytes(controller, world, setup.agent_config(), bytes) {
        Err(Refused {
            error,
            controller: back,
            world,
        }) => {
            assert!(
                matches!(
                    error.kind(),
                    ErrorKind::Checkpoint | ErrorKind::Config | ErrorKind::Io
                ),
                "a checkpoint refused with an error of kind {:?}: {error}",
                error.kind()
            );
            assert_eq!(
                back, controller,
                "a refused checkpoint changed the controller"
            );
            assert!(
                resume_point(&world) == before,
                "a refused checkpoint changed the world: {error}"
            );
            match decoded {
                Ok(_) => Resume::Refused,
                Err(e) => {
                    let source = std::error::Error::source(&error)
                        .and_then(|s| s.downcast_ref::<CheckpointError>());
                    assert_eq!(
                        source,
                        Some(&e),
                        "resume refused undecodable bytes, but not with decode's error: {error}"
                    );
                    Resume::Undecodable
                }
            }
        }
        Ok(agent) => {
            let c = match decoded {
                Ok(c) => c,
                Err(e) => panic!("resume accepted bytes that Checkpoint::decode refuses: {e}"),
            };
            resumed(setup, agent, &c, &before, bytes)
        }
    }
}

/// The checks of an accepted checkpoint `c`; returns what the steps after it did.
fn resumed(
    setup: Setup,
    mut agent: Agent<SuiteWorld, External>,
    c: &Checkpoint<'_>,
    fresh: &[u8],
    bytes: &[u8],
) -> Resume {
    let s = agent.summary();
    assert_eq!(
        (s.steps, s.world_actions, s.harness_actions),
        (c.steps, c.world_actions, c.harness_actions),
        "a resumed agent's counters are not the checkpoint's"
    );
    let now = resume_point(agent.world());
    assert!(
        now == c.world.unwrap_or(fresh),
        "an accepted world resume point saves back to other bytes"
    );
    let again = round_trip(setup, &agent);
    let d = Checkpoint::decode(&again).expect("round_trip decoded it");
    assert_eq!(
        (d.policy, d.steps, d.rng, d.state),
        (c.policy, c.steps, c.rng, c.state),
        "a resumed agent's checkpoint differs from the one it resumed"
    );

    // A few legal steps from the restored state, chosen by the checksum bytes (an accepted
    // checkpoint has them).
    let pick = &bytes[bytes.len().saturating_sub(STEPS)..];
    let mut mask = vec![0; agent.layout().actions()];
    let mut steps = 0;
    for &p in pick {
        if agent.is_over() {
            break;
        }
        let legal = agent
            .layout()
            .mask(agent.workspace(), &mut mask)
            .expect("the agent's own layout fits its workspace");
        if legal == 0 {
            break;
        }
        let t = mask
            .iter()
            .enumerate()
            .filter(|&(_, &m)| m == 1)
            .nth(usize::from(p) % legal)
            .map(|(i, _)| i)
            .expect("`legal` entries are 1");
        match agent.step_with(&Decision::Template(t)) {
            Ok(Some(_)) => steps += 1,
            Ok(None) => panic!("a task not over took no step"),
            Err(e) => panic!(
                "legal template {t} ({:?}) refused: {e}",
                agent.layout().template(t)
            ),
        }
    }
    round_trip(setup, &agent);
    Resume::Resumed { steps }
}

/// The agent's checkpoint, checked: it decodes, and resumes into a fresh world to an agent
/// whose checkpoint is the same bytes.
fn round_trip(setup: Setup, agent: &Agent<SuiteWorld, External>) -> Vec<u8> {
    let mut a = Vec::new();
    agent
        .checkpoint_bytes(&mut a)
        .expect("an agent's checkpoint encodes");
    if let Err(e) = Checkpoint::decode(&a) {
        panic!("an agent's own checkpoint does not decode: {e}");
    }
    let controller = External(CAPACITIES);
    let b = match Agent::try_resume_from_bytes(controller, setup.world(), setup.agent_config(), &a)
    {
        Ok(b) => b,
        Err(r) => panic!("an agent's own checkpoint is refused: {}", r.error),
    };
    let mut again = Vec::new();
    b.checkpoint_bytes(&mut again)
        .expect("an agent's checkpoint encodes");
    assert!(
        a == again,
        "checkpoint, resume, checkpoint gave other bytes"
    );
    a
}

/// Checkpoint framing (`runtime::checkpoint`): magic, format, body length, body, CRC-32.
const HEAD: usize = 4 + 2 + 4;
const TAIL: usize = 4;

/// `data` with the checkpoint's framing made right around its body, and then the framing of
/// the workspace snapshot inside (`decode::reframe`) if the body decodes; `None` if it does
/// not start with the magic or needs no change.
pub fn reframe(data: &[u8]) -> Option<Vec<u8>> {
    if data.len() < HEAD + TAIL || data[..4] != checkpoint::MAGIC {
        return None;
    }
    // A version this runtime reads keeps its body layout; anything else becomes the current.
    let version = u16::from_le_bytes([data[4], data[5]]);
    let version = if (1..=checkpoint::FORMAT).contains(&version) {
        version
    } else {
        checkpoint::FORMAT
    };
    let mut fixed = frame_version(version, &data[HEAD..data.len() - TAIL]);
    let inner = Checkpoint::decode(&fixed).ok().and_then(|c| {
        let ws = crate::decode::reframe(c.workspace);
        let store = c.store.and_then(reframe_store);
        if ws.is_none() && store.is_none() {
            return None;
        }
        let mut out = Vec::new();
        Checkpoint {
            workspace: ws.as_deref().unwrap_or(c.workspace),
            store: store.as_deref().or(c.store),
            ..c
        }
        .encode(&mut out);
        // `encode` writes the current version: a version-1 body gains the store flag.
        Some(out)
    });
    if let Some(out) = inner {
        fixed = out;
    }
    (fixed != data).then_some(fixed)
}

/// An experience store (inside a checkpoint) with its framing made right around its body;
/// `None` if it does not start with the store's magic or needs no change.
pub fn reframe_store(data: &[u8]) -> Option<Vec<u8>> {
    use evoharness_runtime::experience_store as store;
    if data.len() < HEAD + TAIL || data[..4] != store::MAGIC {
        return None;
    }
    let body = &data[HEAD..data.len() - TAIL];
    let len = u32::try_from(body.len()).expect("a body under 4 GiB");
    let mut out = store::MAGIC.to_vec();
    out.extend(store::FORMAT.to_le_bytes());
    out.extend(len.to_le_bytes());
    out.extend(body);
    out.extend(crate::decode::crc32(&out).to_le_bytes());
    (out != data).then_some(out)
}

/// A checkpoint around `body`: magic, the current format, length, body, checksum.
pub fn frame(body: &[u8]) -> Vec<u8> {
    frame_version(checkpoint::FORMAT, body)
}

/// A checkpoint of format `version` around `body`.
pub fn frame_version(version: u16, body: &[u8]) -> Vec<u8> {
    let len = u32::try_from(body.len()).expect("a body under 4 GiB");
    let mut out = Vec::with_capacity(HEAD + body.len() + TAIL);
    out.extend(checkpoint::MAGIC);
    out.extend(version.to_le_bytes());
    out.extend(len.to_le_bytes());
    out.extend(body);
    out.extend(crate::decode::crc32(&out).to_le_bytes());
    out
}

/// A seed: the setup byte, then the checkpoint of an agent of `setup` driven by `controller`
/// after `steps` steps (fewer if its task ends first). Rule-based baselines have no identity
/// and no recurrent state, so their checkpoints resume with [`External`].
pub fn seed<C: evoharness_runtime::Controller<SuiteWorld>>(
    setup: Setup,
    controller: C,
    steps: u64,
) -> Vec<u8> {
    let mut agent = Agent::new(controller, setup.world(), setup.agent_config())
        .expect("a suite controller suits a suite world");
    for _ in 0..steps {
        if agent.step().expect("a baseline steps").is_none() {
            break;
        }
    }
    let mut out = vec![setup.byte().expect("a setup some byte chooses")];
    let mut ckpt = Vec::new();
    agent
        .checkpoint_bytes(&mut ckpt)
        .expect("an agent's checkpoint encodes");
    out.extend(ckpt);
    out
}

/// A checkpoint whose body holds nothing but the fixed fields and `resume_point`, for seeds and tests
/// that reach the world without a workspace worth restoring (it is refused there).
pub fn with_resume_point(resume_point: &[u8]) -> Vec<u8> {
    let c = Checkpoint {
        policy: 0,
        steps: 0,
        world_actions: 0,
        harness_actions: 0,
        rng: 0,
        state: checkpoint::State::default(),
        world: Some(resume_point),
        workspace: &[],
        store: None,
    };
    let mut out = Vec::new();
    c.encode(&mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use evoharness_suite::baselines::LeanHarness;

    #[test]
    fn every_byte_chooses_a_setup_and_the_inverse_agrees() {
        for b in 0..=u8::MAX {
            let s = Setup::from_byte(b);
            let back = s.byte().expect("chosen by a byte");
            assert_eq!(Setup::from_byte(back), s);
        }
    }

    #[test]
    fn a_baseline_checkpoint_resumes_and_steps() {
        for b in [1, 13] {
            let setup = Setup::from_byte(b);
            assert_eq!(setup.scenario == Scenario::V2, b == 13);
            let input = seed(setup, LeanHarness, 60);
            let r = check(&input);
            assert!(
                matches!(r.plain, Resume::Resumed { steps } if steps > 0),
                "{setup:?}: {r:?}"
            );
        }
        let setup = Setup::from_byte(1);
        let input = seed(setup, LeanHarness, 30);
        let r = check(&input);
        assert!(
            matches!(r.plain, Resume::Resumed { steps } if steps > 0),
            "{r:?}"
        );
        assert_eq!(r.reframed, None, "a good checkpoint needs no reframing");
    }

    #[test]
    fn reframing_repairs_both_checksums() {
        let setup = Setup::from_byte(0);
        let input = seed(setup, LeanHarness, 12);
        let good = &input[1..];
        let c = Checkpoint::decode(good).expect("a good checkpoint");
        // Damage the workspace snapshot's checksum, then the outer frame's.
        let mut ws = c.workspace.to_vec();
        let n = ws.len();
        ws[n - 1] ^= 0x55;
        let mut bad = Vec::new();
        Checkpoint {
            workspace: &ws,
            ..c
        }
        .encode(&mut bad);
        let m = bad.len();
        bad[m - 2] ^= 0x01;
        bad[7] ^= 0x10; // body length
        let mut damaged = vec![input[0]];
        damaged.extend(&bad);
        let r = check(&damaged);
        assert_eq!(r.plain, Resume::Undecodable);
        assert!(
            matches!(r.reframed, Some(Resume::Resumed { steps }) if steps > 0),
            "{r:?}"
        );
        assert_eq!(reframe(&bad).as_deref(), Some(good));
        assert_eq!(reframe(b"EVHA"), None);
        assert_eq!(reframe(b"not a checkpoint at all"), None);
    }

    /// A records world of 20 items (not a multiple of its shuffle block of 8) fills the unused
    /// slots of its last block with indices 20 to 23 when it delivers that block, and its
    /// resume point check then refuses them (`block.iter().all(|&b| b < n)` in
    /// `SuiteWorld::decode_resume_point`): from then on the agent's own checkpoint does not resume.
    #[test]
    fn a_records_checkpoint_after_the_last_partial_block_resumes() {
        let setup = Setup {
            kind: TaskKind::Records,
            horizon: 50,
            scenario: Scenario::V1,
        };
        assert_eq!(setup.task().items() % 8, 4);
        let input = seed(setup, LeanHarness, u64::MAX);
        assert!(
            matches!(check(&input).plain, Resume::Resumed { .. }),
            "refused"
        );
    }

    /// Counters at their maximum: a checkpoint is untrusted, and the next step must not
    /// overflow them (found by this target within a second).
    #[test]
    fn a_checkpoint_with_counters_at_their_maximum_steps_on() {
        let input = seed(Setup::from_byte(0), LeanHarness, 10);
        let c = Checkpoint::decode(&input[1..]).expect("a good checkpoint");
        let mut ckpt = Vec::new();
        Checkpoint {
            steps: u64::MAX,
            world_actions: u64::MAX,
            harness_actions: u64::MAX,
            ..c
        }
        .encode(&mut ckpt);
        let mut maxed = vec![input[0]];
        maxed.extend(ckpt);
        assert!(matches!(check(&maxed).plain, Resume::Resumed { steps } if steps > 0));
    }

    /// A records resume point whose shuffle block repeats an item it has yet to deliver is
    /// accepted, and the world then delivers that item twice and saves a resume point it refuses
    /// (found by this target in 16 seconds, with the other bugs fixed).
    #[test]
    fn a_records_resume_point_that_repeats_an_item_in_its_block_is_refused() {
        let setup = Setup {
            kind: TaskKind::Records,
            horizon: 120,
            scenario: Scenario::V1,
        };
        // `SuiteWorld::save_resume_point`: version, kind, organisation, seed, n, then delivered
        // (offset 22) and the block of eight u32 (offset 26).
        let u32_at = |b: &[u8], i: usize| u32::from_le_bytes(b[i..i + 4].try_into().expect("4"));
        let (input, c, delivered) = (1..200)
            .find_map(|steps| {
                let input = seed(setup, LeanHarness, steps);
                let c = Checkpoint::decode(&input[1..])
                    .expect("a good checkpoint")
                    .world?;
                let d = u32_at(c, 22);
                (1..=6)
                    .contains(&(d % 8))
                    .then(|| (input.clone(), c.to_vec(), d))
            })
            .expect("a checkpoint inside a block");
        let mut resume_point = c;
        let pos = 26 + 4 * (delivered % 8) as usize;
        let next = resume_point[pos..pos + 4].to_vec();
        resume_point[26 + 4 * 7..26 + 4 * 8].copy_from_slice(&next);
        let good = Checkpoint::decode(&input[1..]).expect("a good checkpoint");
        let mut ckpt = Vec::new();
        Checkpoint {
            world: Some(&resume_point),
            ..good
        }
        .encode(&mut ckpt);
        let mut bad = vec![input[0]];
        bad.extend(ckpt);
        assert_eq!(check(&bad).plain, Resume::Refused);
    }

    #[test]
    fn a_resume_point_of_another_task_is_refused_and_changes_nothing() {
        let migration = seed(Setup::from_byte(0), LeanHarness, 20);
        let mut records = migration.clone();
        records[0] = 1;
        assert_eq!(check(&records).plain, Resume::Refused);
        // Garbage as a resume point, behind a framing that decodes.
        let mut input = vec![2];
        input.extend(with_resume_point(b"not a resume point"));
        assert_eq!(check(&input).plain, Resume::Refused);
        assert_eq!(check(&[]).plain, Resume::Undecodable);
    }
}
