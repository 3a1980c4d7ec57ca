"""The former name of :mod:`solvers.game_rules` (the games' rules and proven bounds; their search is
:mod:`solvers.opt.games`), kept only while ``solvers/opt/games.py`` and ``solvers/game_certificates.py``,
edited on parallel branches of issue 19, still import it: delete it once they import ``solvers.game_rules``."""

from .game_rules import *  # noqa: F401,F403
from .game_rules import __all__  # noqa: F401
