"""littlestone's learner side: concept classes, the exact Opt(C) solver, certificates and the SOA.

Sources: the lecture notes in shared/seeds (000_a63ee94629bf251e.txt for Opt(C) and the optimal
algorithm; 001 and 004 for the mistake-bound model).
"""

from .concept_class import ConceptClass
from .certificate import MistakeTree, TreeError, verify_tree
from .opt import OptResult, Solver, opt
from .soa import SOA
from . import families

__all__ = ["ConceptClass", "MistakeTree", "TreeError", "verify_tree", "OptResult", "Solver", "opt", "SOA", "families"]
