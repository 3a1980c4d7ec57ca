"""Multiclass concept classes and the two multiclass mistake-bound games: full information and bandit feedback.

A :class:`MulticlassClass` is a finite set of functions from points to the labels 0..k-1
(:mod:`.classes`, with the families ``multiclass-singletons``, ``k-label-thresholds`` and
``random-multiclass``). :mod:`.games` computes, exactly and with mistake trees, Opt under full
information (the multiclass Littlestone dimension) and under bandit feedback (the bandit Littlestone
dimension), and the learners that meet them; :mod:`solvers.certificates.multiclass` checks the trees
and the learners without the search.

This is a class kind of its own beside the 0/1 classes of :mod:`solvers.classes`: the binary solvers,
learners and adversaries read 0/1 labels and are not given these classes.

References
----------
.. [DSBS] Daniely, Sabato, Ben-David and Shalev-Shwartz, "Multiclass learnability and the ERM principle",
   COLT 2011; JMLR 16 (2015).
.. [AL99] Auer and Long, "Structural results about on-line learning models with and without queries",
   Machine Learning 36 (1999).
.. [DH13] Daniely and Helbertal, "The price of bandit information in multiclass online classification",
   COLT 2013.
.. [Long20] Long, "New bounds on the price of bandit feedback for mistake-bounded online multiclass
   learning", ALT 2017; Theoretical Computer Science 808 (2020).

Examples
--------
>>> C = make("multiclass-singletons", N=2, k=3)
>>> opt_full(C).value, opt_bandit(C).value
(1, 2)
"""

from .classes import FAMILIES, MAX_CONCEPTS, MAX_LABELS, MulticlassClass, MulticlassFamily, make, parse_params
from .games import GAMES, GameResult, MulticlassSolver, OptimalLearner, bandit_upper_bound, opt_bandit, opt_full, solve

__all__ = [
           "FAMILIES",
           "GAMES",
           "MAX_CONCEPTS",
           "MAX_LABELS",
           "GameResult",
           "MulticlassClass",
           "MulticlassFamily",
           "MulticlassSolver",
           "OptimalLearner",
           "bandit_upper_bound",
           "make",
           "opt_bandit",
           "opt_full",
           "parse_params",
           "solve",
]
