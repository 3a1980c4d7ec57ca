"""littlestone's adversary side: the game, its referee, search strategies, attacks and the CLI.

:func:`adversary.attack.attack` searches for the sequence that makes a learner err most on a class and
holds the verified result against the learner's proven bound (:class:`~adversary.attack.AttackResult`).
``adversary.attack`` is the module (``import adversary.attack`` and ``from adversary.attack import attack``
both work); the package re-exports only :class:`~adversary.attack.AttackResult`, so that the function
never hides the module of the same name.
"""

from . import attack
from .attack import AttackResult

__all__ = ["attack", "AttackResult"]
