"""The exact solver for Opt(C), the Littlestone dimension of [Rivest94], with its certificates.

==========  ============================================================================================
module      holds
==========  ============================================================================================
search      :class:`Solver`: decision queries "Opt(V) >= d?" with a bounded memo, the root loop, the
            mistake tree and the upper-bound proof
subcube     :class:`SubcubeTable`: Opt of every subcube of a class with <= 17 distinct points, bottom-up
parallel    the root queries spread over joblib worker processes
driver      :func:`opt` and :class:`OptResult`: picks the engine, applies the limits, builds the tree
==========  ============================================================================================

Imports go one way: ``driver`` uses ``parallel``, ``search`` and ``subcube``; ``parallel`` uses
``search``; ``search`` uses ``subcube``.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
"""

from .driver import ENGINES, OptResult, opt
from .search import SearchStop, Solver, default_memo_bytes, physical_memory
from .subcube import MAX_TABLE_POINTS, SubcubeTable, TableStop

__all__ = [
    "opt",
    "OptResult",
    "Solver",
    "SearchStop",
    "SubcubeTable",
    "TableStop",
    "ENGINES",
    "MAX_TABLE_POINTS",
    "default_memo_bytes",
    "physical_memory",
]
