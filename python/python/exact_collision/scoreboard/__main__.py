"""``python -m exact_collision.scoreboard``: see ``exact_collision.scoreboard``."""

import sys

from . import main

sys.exit(main())
