"""The exact solver for Opt(C), the Littlestone dimension of [Rivest94], with its certificates.

============  ============================================================================================
module        holds
============  ============================================================================================
driver        :func:`opt`: checks the arguments, asks the plan, runs its steps
plan          :func:`~solvers.opt.plan.plan`: ``auto`` as a pure function from the class's facts to the steps
control       :class:`Control` (deadline, cancel, progress, memory, workers), :class:`Tuning` (the thresholds)
engines       the engines behind one contract (``NAME``, ``takes``, ``solve``) and their ``REGISTRY``
result        :class:`OptResult`, the one result of every engine, with its typed :class:`Stats`
oracle        :class:`VersionSpaceOracle`, what the SOA asks of a solver, and :func:`oracle_for`, which picks one
search        :class:`Solver`: decision queries "Opt(V) >= d?" with a bounded memo, the root loop, the
              mistake tree and the upper-bound proof
subcube       :class:`SubcubeTable`: Opt of every subcube of a class with <= 17 distinct points, bottom-up
distributed   one search spread over worker processes or a Dask cluster: parts, their answers, certificates
parallel      the root's splits dealt to joblib worker processes (``jobs > 1`` with ``Tuning(spread_local=False)``)
games         :class:`GameSolver`: the games beyond Opt (randomized learner, k label errors, horizon)
experts       :func:`~solvers.opt.experts.experts`: D_k(n), R_k(n) of n experts with k errors, in count space
states        :class:`~solvers.opt.states.StateSearch`: the root loop of a search over compact states
compact       the searches over states as engines of ``opt``: picks one for a class, runs its root loop
intervals     thresholds (one chain) and intervals (multisets of free segments; two chains after a positive)
rectangles    rectangles on the grid (negatives up to symmetry; the down-set of extensions after a positive)
disjunctions  monotone disjunctions (variables and positive examples, up to renaming the variables)
============  ============================================================================================

The package is callable, ``solvers.opt(C)`` being :func:`opt` (whose default ``bounds="learners"`` takes the
learners' proven bounds the top package ``solvers`` wires in; this package imports nothing of
:mod:`solvers.learners`, which is built on it): so ``from solvers import opt`` gives the function the README uses,
with its signature and docstring (``inspect.signature``, ``help``), while ``import solvers.opt`` still names this
package (a package and a function of one name cannot otherwise both be ``solvers.opt``).

Imports go one way: ``driver`` uses ``plan``, ``control``, ``result`` and ``engines``; the engines use
``search``, ``subcube``, ``distributed``, ``parallel``, ``compact``, ``packed_exact`` and ``games``; ``distributed``
and ``parallel`` use ``search``; ``search`` uses ``subcube``; ``compact`` uses ``intervals``, ``rectangles`` and
``disjunctions``, which build on ``states``.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
"""

import inspect
import sys
import types

from .control import Control, Tuning
from .driver import ENGINES, opt
from .engines import REGISTRY
from .oracle import VersionSpaceOracle, oracle_for
from .plan import ClassFacts, Plan, plan
from .result import OptResult, Stats
from .search import SearchStop, Solver, default_memo_bytes, physical_memory
from .subcube import MAX_TABLE_POINTS, SubcubeTable, TableStop

__all__ = [
    "opt",
    "OptResult",
    "Stats",
    "Control",
    "Tuning",
    "plan",
    "Plan",
    "ClassFacts",
    "REGISTRY",
    "VersionSpaceOracle",
    "oracle_for",
    "Solver",
    "SearchStop",
    "SubcubeTable",
    "TableStop",
    "ENGINES",
    "MAX_TABLE_POINTS",
    "default_memo_bytes",
    "physical_memory",
]


class _CallablePackage(types.ModuleType):
    """This package's module type: calling the package calls :func:`opt`."""

    def __call__(self, *args, **kwargs):
        return opt(*args, **kwargs)


_package = sys.modules[__name__]
_package.__class__ = _CallablePackage
_package.__signature__ = inspect.signature(opt)  # what inspect.signature(solvers.opt) shows
_package.__doc__ = (f"opt{inspect.signature(opt)}\n\n{inspect.getdoc(opt)}\n\n"
                    f"The package solvers.opt\n-----------------------\n{__doc__}")
