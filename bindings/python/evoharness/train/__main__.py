"""``python -m evoharness.train``: the command line of :mod:`evoharness.train.cli`."""

import sys

from .cli import main

sys.exit(main())
