"""The certificates littlestone writes, and their checkers, each independent of the search that made them.

A value is only as good as its proof: every solver writes a lower-bound certificate (a tree the adversary
plays) and an upper-bound certificate (a refutation of every deeper tree), and these modules check them
against the class alone, never reading a solver's memo. One module per kind:

========================  ==================================================================================
module                    certificates
========================  ==================================================================================
:mod:`.opt`               Opt(C): mistake trees (lower), refutations over labelled paths (upper), the
                          shattered tree by levels, the record of the class a certificate was made for
:mod:`.games`             the randomized game RL, the k-error games D_k and R_k, horizons: their trees and
                          refutations over budget states (up to the class's renamings)
:mod:`.disjunctions`      monotone disjunctions: trees over point patterns, refutations up to renaming
                          the variables
:mod:`.states`            thresholds, intervals, rectangles: refutations over compact states
:mod:`.experts`           the experts game in count space
:mod:`.isomorphism`       the entries of an Opt(C) refutation used up to isomorphism (a concept map and a
                          point map with complement flags), checked in time linear in the matrix
:mod:`.packed`            Opt(C) refutations over 64-bit truth tables (the packed engine), version spaces
                          matched up to the cube's signed permutations and the complement
:mod:`.rules`             the proof format: its version, the rules and their checkers, :func:`verify`
:mod:`.binding`           the class a certificate was made for (``"made_for"``): recorded, bound, matched
========================  ==================================================================================

Every certificate is checked by one entry, :func:`verify` (:mod:`.rules`): the format is versioned
(``"format": "littlestone-proof/2"``), each reduction above is a named rule (``"rule"``) with one checker, and the
parts every rule shares (the version, the rule, the class the certificate was made for, :mod:`.binding`) are
read once there. The functions of each module (``verify_upper``, ``verify_game_upper``, ...) call it for their
rules. This package exports :func:`verify` and the Opt(C) certificates (:mod:`.opt`); import the others from
their modules.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
"""

from .opt import (ClassMismatch, MistakeTree, ProofTooLarge, RandomizedTree, TreeError, bind, check_made_for,
                  TreeCheck, UpperCheck, load_tree, made_for, verify_tree, verify_upper)
from .rules import FORMAT, RULES, rule_of, verify

__all__ = ["MistakeTree", "RandomizedTree", "verify_tree", "verify_upper", "TreeCheck", "UpperCheck", "load_tree", "TreeError", "ProofTooLarge",
           "ClassMismatch", "made_for", "bind", "check_made_for", "verify", "rule_of", "RULES", "FORMAT"]
