"""Training a structured policy for any world: ``python -m evoharness.train`` (the command line,
:mod:`evoharness.train.cli`; ``--help`` says every flag). Needs ``torch`` and ``onnx``
(``pip install "evoharness[train]"``); importing this package needs neither, its modules do.

A run has two stages on a *source* (a world written in Python, or the task suite's
simulations): imitation of a teacher (DAgger) or of recorded demonstrations, then stage 2
from the library's reward: with a world and a teacher, improving on the teacher by measured
per-decision gains (the default), else cost-aware RL (GRPO, PPO or branching rollouts); model
selection on validation seeds, then export with the layout's metadata.

Layout (one idea per module; the arrows of imports run up this table, never down):

==================  ===========================================================================
``seeds``           which seeds each stage runs on; held-out ones from ``TEST_SEED``
``layout``          reading the library's layout: feature offsets, harness templates, kinds
``net``             the policy network (``Net``, what is exported) and PPO's ``Critic``
``export``          ONNX export, weights read back, the one ``evoharness.*`` metadata writer
``log``             the training record: JSON lines and their plot
``selection``       model selection: checkpoints kept and the one chosen
``units``           rollouts in units (``unit_slices``) and the in-process pool
``sources``         what training runs on (``WorldSource``, ``SuiteSource``), validation
``imitation``       stage 1: DAgger, the sample buffer, the fit
``grpo``            stage 2 by GRPO, and the one GRPO ``update`` (the LM's too)
``ppo``             stage 2 by PPO: GAE, the critic's and policy's update
``rollouts``        stage 2 by branching rollouts, kept only if check episodes hold; the
                    ``Brancher`` that measures branch points for it and ``improve``
``improve``         stage 2 by improving on the teacher: gains regressed, checked as a rule
``distributed``     the rollout units on Ray workers (``--ray``)
``cli``             the command line: flags, the run, its record (``__main__`` runs it)
==================  ===========================================================================

What is not training lives beside this package: episode figures (:mod:`evoharness.figures`),
``MODULE:NAME`` specs (:mod:`evoharness.spec`) and a world's settings
(:func:`evoharness.world.world_settings`) are shared with ``python -m evoharness.evaluate`` and
``record``, which need no torch; the language-model policy's trainer is :mod:`evoharness.lm`.
"""


def main(argv=None) -> int:
    """``python -m evoharness.train`` with ``argv`` (default: the process's arguments); its
    exit status."""
    from .cli import main as run

    return run(argv)


__all__ = ["main"]
