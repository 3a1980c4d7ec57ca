"""littlestone's learner side: concept classes, the exact Opt(C) solver, certificates and the SOA.

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

__all__ = ["ConceptClass", "MistakeTree", "TreeError", "verify_tree", "OptResult", "Solver", "opt", "SOA", "RandSOA",
           "Game", "families"]

#: Where each name of ``__all__`` lives. They are imported when first used (PEP 562), so that ``import
#: solvers.x`` costs only what module x needs: the command line's ``--version`` and ``families`` do not
#: pay for the solver, joblib and the learners.
_HOMES = {"ConceptClass": "solvers.classes", "families": "solvers.classes", "MistakeTree": "solvers.certificates",
          "TreeError": "solvers.certificates", "verify_tree": "solvers.certificates", "OptResult": "solvers.opt",
          "Solver": "solvers.opt", "SOA": "solvers.learners", "RandSOA": "solvers.learners", "Game": "solvers.game_rules"}


def _learner_bounds(C) -> list:
    """The learners' proven bounds on Opt(C) (:func:`solvers.learners.bounds.learner_bounds`), the data
    ``solvers.opt(C)`` is given as its ``bounds``: the exact solver does not import the learners built on it."""
    from .learners.bounds import learner_bounds

    return learner_bounds(C)


def __getattr__(name: str):
    if name == "opt":  # the package, callable as opt(C) with its signature and docstring (see solvers.opt)
        return importlib.import_module("solvers.opt")
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'solvers' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))
