"""
Attacking Winnow and the Perceptron, and reading the verdicts
=============================================================

An attack searches for the realizable sequence of examples that makes a learner err most, and holds the
count against the learner's proven mistake bound and against Opt(C). The sequence found is a *witness* that
the referee has replayed; anyone can replay it again with ``littlestone verify``.
"""

from adversary.attack import attack
from solvers.classes.families import make

C = make("monotone-disjunctions", n=4, k=2)
a = attack("winnow2", C, strategy="exact")
print("mistakes:", a.mistakes, " bound:", a.bound.value, f"({a.bound.formula})")
print("verdict:", a.verdict)

# %%
# The verdicts: ``tight`` (the worst case meets the bound), ``below`` (under it), ``violates`` (more mistakes
# than the stated bound: the bound is wrong), ``unbounded`` (a cycle of learner states with a mistake on it)
# and ``stopped`` (a time limit ended the search below the bound: only a lower bound on the worst case).
# Winnow's proof counts promotions u (false negatives) and demotions v (false positives) separately; each
# lemma gets its own verdict.
print(a.mistakes_by_kind)
for lemma in a.lemmas:
    print(lemma)

# %%
# The Perceptron with a bias term on the same Boolean class: its bound R^2/gamma^2 is computed exactly from
# each concept's margin. Without the bias the point 0 labelled 0 has no margin and the attack finds a cycle.
p = attack("perceptron", C, strategy="exact", learner_params={"bias": True})
print("perceptron bias=true:", p.mistakes, "mistakes, bound", p.bound.value, "->", p.verdict)
q = attack("perceptron", C, strategy="exact")
print("perceptron without a bias:", q.verdict)

# %%
# The command line prints the same report, and writes the witness for ``verify``.
import os  # noqa: E402
import tempfile  # noqa: E402

from adversary.cli import main  # noqa: E402

os.chdir(tempfile.mkdtemp())  # a folder of its own for the witness
assert main(["attack", "halving", "--class", "thresholds", "N=15", "--witness", "w.json", "--no-store"]) == 0
assert main(["verify", "w.json"]) == 0
