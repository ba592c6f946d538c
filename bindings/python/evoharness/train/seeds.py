"""Which seeds each stage of training runs on, so that no two stages share an episode and
the held-out evaluation shares none with training.

Training episodes use seeds from :data:`TRAIN_SEED`, GRPO, PPO and branching rollouts from
:data:`RL_SEED`, the rollouts' update checks from :data:`CHECK_SEED`, validation (model
selection) from :data:`VALID_SEED`; :data:`TEST_SEED` and up are never used by training, for
the held-out evaluation (``python -m evoharness.evaluate``)."""

#: DAgger's environments (each kind and round further on).
TRAIN_SEED = 0
#: GRPO's groups, PPO's environments and the branching rollouts' environments.
RL_SEED = 200_000
#: Seeds (on training organisations) of the episodes that decide whether a rollout update is
#: kept (:func:`evoharness.train.rollouts.rollouts`): neither validation's nor the held-out
#: evaluation's.
CHECK_SEED = 300_000
#: Validation: the episodes model selection compares checkpoints on.
VALID_SEED = 500_000
#: The first held-out seed: training never runs an episode from here on.
TEST_SEED = 1_000_000
