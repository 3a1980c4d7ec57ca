"""littlestone's adversary side: the game, its referee, search strategies, attacks and the CLI.

The public surface is ``__all__``: :func:`attack` searches for the sequence that makes a learner (a name,
or a learner class or object of your own) err most on a class and holds the verified result against the
learner's proven bound (:class:`AttackResult`, which a notebook displays with its witness);
:func:`verify_witness` re-checks a witness from scratch (:class:`VerifyResult`); :class:`Workspace` and
:class:`Store` keep results; :func:`plot_tree` and :func:`plot_table` draw them (the ``plot`` extra).
``adversary.attack`` is a module that is also callable as :func:`adversary.attack.attack` (with its
signature and docstring), so ``from adversary import attack`` and ``from adversary.attack import attack``
give the same function's behaviour.
"""

import importlib

#: Where each public name lives; imported when first used (PEP 562): the command line's ``--version``,
#: ``--help`` and ``families`` do not pay for the strategies and joblib.
_HOMES = {
    "AttackResult": "adversary.attack", "bound_for": "adversary.attack",
    "verify_witness": "adversary.referee", "VerifyResult": "adversary.referee", "make_witness": "adversary.referee",
    "WitnessError": "adversary.referee",
    "Workspace": "adversary.workspace", "Store": "adversary.store", "StoreError": "adversary.store",
    "plot_tree": "adversary.plot", "plot_table": "adversary.plot",
    "LearnerGame": "adversary.play", "AdversaryGame": "adversary.play",
}

__all__ = ["attack", *_HOMES]


def __getattr__(name: str):
    """The names of ``__all__``, imported when first used."""
    if name == "attack":  # the module, callable as attack(learner, C, ...) (see adversary.attack)
        return importlib.import_module("adversary.attack")
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'adversary' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))
