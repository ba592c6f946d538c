"""``python -m evoharness.lm``: the command line of :mod:`evoharness.lm.cli`."""

import sys

from .cli import main

sys.exit(main())
