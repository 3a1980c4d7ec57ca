"""The adversary's search strategies, one module each behind the interface of :mod:`.base`.

==========  ====================================================================================
name        what it does
==========  ====================================================================================
exact       the true worst case on a finite class: depth-first search with a memo, per target over
            learner states (up to renaming the variables) or over (learner state, version space);
            finds cycles (no finite bound); the only one for randomized learners (their exact
            expected mistakes) and label errors
tree        plays the mistake tree of ``solvers.opt`` ([Rivest94]): >= Opt(C) mistakes on any learner
beam        beam search over sequences (anytime, seeded)
mcts        Monte Carlo tree search, UCT with random playouts (anytime, seeded)
local       local / evolutionary search over target and sequence (anytime, seeded)
geometric   Perceptron on margin halfspaces in R^d ([Mehta], section 3)
==========  ====================================================================================

Each module ``adversary/strategies/<name>.py`` exposes ``STRATEGY``, an instance of a
:class:`~.base.Strategy` subclass; :func:`get_strategy` imports it on first use, so a strategy that
needs more (or is not installed) costs nothing until it is asked for.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [Mehta] Mehta, "Machine Learning Theory (CSC 431/531), Lecture 2: Realizable case and the Mistake Bound
   Model"

Examples
--------
>>> get_strategy("exact").name
'exact'
>>> get_strategy("brute")
Traceback (most recent call last):
...
adversary.strategies.base.StrategyError: unknown strategy 'brute'; choose one of: exact, tree, beam, mcts, local, geometric (or auto)
"""

from __future__ import annotations

import importlib
import importlib.util

from .base import Found, Problem, Strategy, StrategyError, time_left

__all__ = ["STRATEGY_NAMES", "get_strategy", "available", "Problem", "Found", "Strategy", "StrategyError", "time_left"]

#: Every strategy, in the order ``auto`` considers them.
STRATEGY_NAMES = ("exact", "tree", "beam", "mcts", "local", "geometric")


def _module_name(name: str) -> str:
    return f"{__name__}.{name}"


def available(name: str) -> bool:
    """Whether the module of strategy ``name`` is present in this installation."""
    return name in STRATEGY_NAMES and importlib.util.find_spec(_module_name(name)) is not None


def get_strategy(name: str) -> Strategy:
    """The strategy called ``name`` (its module's ``STRATEGY``), imported on first use.

    Raises
    ------
    StrategyError
        An unknown name (one line listing the names), or a strategy whose module is not present.
    """
    if not isinstance(name, str) or name not in STRATEGY_NAMES:
        raise StrategyError(f"unknown strategy {name!r}; choose one of: {', '.join(STRATEGY_NAMES)} (or auto)")
    if not available(name):
        raise StrategyError(f"strategy {name} is not available in this installation; "
                            f"use one of: {', '.join(n for n in STRATEGY_NAMES if available(n))}")
    module = importlib.import_module(_module_name(name))
    strategy = getattr(module, "STRATEGY", None)
    if strategy is None:
        raise StrategyError(f"strategy {name} is not available in this installation "
                            f"(its module defines no STRATEGY)")
    return strategy
