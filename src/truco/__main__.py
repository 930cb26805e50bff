"""``python -m truco``: the ``truco`` command (:mod:`truco.commands.cli`)."""

import sys

from truco.commands.cli import main

sys.exit(main())
