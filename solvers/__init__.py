"""littlestone's learner side: concept classes, the exact Opt(C) solver, certificates and the SOA.

The public surface is ``__all__``: build a class (``make("thresholds", N=8)``, ``ConceptClass.from_matrix``,
``load_class``), compute ``opt(C)`` (an :class:`OptResult` with its mistake tree and upper-bound certificate),
check certificates without the solver (``verify_tree`` -> :class:`TreeCheck`, ``verify_upper`` ->
:class:`UpperCheck`), run the learners of the lecture notes (``SOA``, ``Halving``, ``Winnow2``, ...) or bring
your own (``check_learner``, ``register``, a ``Citation`` of your work), and compute the parameters beside
Opt (``solvers.params.compute``). Classes, results and trees display themselves in a notebook.

Sources: the lecture notes of solvers.seeds ([Rivest94] for Opt(C) and the optimal
algorithm; [Mehta] and [OnlineAlgs] for the mistake-bound model).

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [Mehta] Mehta, "Machine Learning Theory (CSC 431/531), Lecture 2: Realizable case and the Mistake Bound
   Model"
.. [OnlineAlgs] "Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow)
"""

import importlib

from ._version import __version__  # (one line of text: the --version of the command and the store's rows)

#: Where each public name lives: the public surface (the API reference documents exactly these). They are
#: imported when first used (PEP 562), so that ``import solvers.x`` costs only what module x needs: the command
#: line's ``--version`` and ``families`` do not pay for the solver, joblib and the learners.
_HOMES = {
    # concept classes
    "ConceptClass": "solvers.classes", "make": "solvers.classes.families", "families": "solvers.classes",
    "load_class": "solvers.classes", "MarginHalfspaces": "solvers.classes",
    # Opt(C) and the games beyond it (``opt`` is the callable package solvers.opt: see __getattr__)
    "OptResult": "solvers.opt", "Control": "solvers.opt", "Tuning": "solvers.opt",
    "Solver": "solvers.opt", "SearchStop": "solvers.opt", "Game": "solvers.game_rules",
    # certificates and their checkers
    "MistakeTree": "solvers.certificates", "RandomizedTree": "solvers.certificates",
    "verify_tree": "solvers.certificates", "verify_upper": "solvers.certificates",
    "TreeCheck": "solvers.certificates", "UpperCheck": "solvers.certificates", "load_tree": "solvers.certificates",
    "TreeError": "solvers.certificates", "ClassMismatch": "solvers.certificates",
    "ProofTooLarge": "solvers.certificates",
    # learners, their bounds and citations, and bringing your own
    **{name: "solvers.learners" for name in (
        "SOA", "RandSOA", "Halving", "CON", "RandomizedHalving", "ELIM", "ConjunctionElimination", "Winnow",
        "Winnow1", "Winnow2", "BalancedWinnow", "WinnowR", "WinnowKofR", "Perceptron", "WeightedMajority",
        "RandomizedWeightedMajority", "Conservative", "OnlineLearner", "Bound", "Citation", "make_learner",
        "register", "registered", "check_learner", "LearnerCheck", "ConformanceError")},
    "cite": "solvers.seeds",
    # the parameters beside Opt (VC dimension, thresholds, teaching dimensions, ...)
    "ParamResult": "solvers.params",
}
_MODULES = {"params": "solvers.params"}  # public subpackages named in __all__

__all__ = ["opt", *_HOMES, *_MODULES]


def _learner_bounds(C) -> list:
    """The learners' proven bounds on Opt(C) (:func:`solvers.learners.bounds.learner_bounds`), the data
    ``solvers.opt(C)`` is given as its ``bounds``: the exact solver does not import the learners built on it."""
    from .learners.bounds import learner_bounds

    return learner_bounds(C)


def __getattr__(name: str):
    if name == "opt":  # the package, callable as opt(C) with its signature and docstring (see solvers.opt)
        return importlib.import_module("solvers.opt")
    if name in _MODULES:
        return importlib.import_module(_MODULES[name])
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'solvers' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))
