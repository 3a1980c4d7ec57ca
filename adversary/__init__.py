"""littlestone's adversary side: the game, its referee, search strategies, attacks and the CLI.

:func:`attack` searches for the sequence that makes a learner err most on a class and holds the
verified result against the learner's proven bound (:class:`AttackResult`).
"""

from .attack import AttackResult, attack

__all__ = ["attack", "AttackResult"]
