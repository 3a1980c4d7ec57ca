"""littlestone's adversary side: the game, its referee, search strategies, attacks and the CLI.

:func:`adversary.attack.attack` searches for the sequence that makes a learner err most on a class and
holds the verified result against the learner's proven bound (:class:`~adversary.attack.AttackResult`).
``adversary.attack`` is the module (``import adversary.attack`` and ``from adversary.attack import attack``
both work); the package re-exports only :class:`~adversary.attack.AttackResult`, so that the function
never hides the module of the same name.
"""

import importlib

__all__ = ["attack", "AttackResult"]


def __getattr__(name: str):
    """``attack`` and ``AttackResult``, imported when first used (PEP 562): the command line's
    ``--version``, ``--help`` and ``families`` do not pay for the strategies and joblib."""
    if name == "attack":
        return importlib.import_module("adversary.attack")
    if name == "AttackResult":
        value = importlib.import_module("adversary.attack").AttackResult
        globals()[name] = value
        return value
    raise AttributeError(f"module 'adversary' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
