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

from .classes import ConceptClass, families
from .certificate import MistakeTree, TreeError, verify_tree
from .opt import OptResult, Solver
from . import opt  # the package, callable as opt(C) (see solvers.opt)
from .learners import SOA, RandSOA
from .games import Game

__all__ = ["ConceptClass", "MistakeTree", "TreeError", "verify_tree", "OptResult", "Solver", "opt", "SOA", "RandSOA",
           "Game", "families"]
