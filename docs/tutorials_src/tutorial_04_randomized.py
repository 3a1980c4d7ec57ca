"""
Randomized learners and label errors
====================================

Three changes to the rules of the game give the quantities of Filmus, Hanneke, Mehalel and Moran
("Optimal prediction using expert advice and randomized Littlestone dimension", COLT 2023): a randomized
learner that pays its expected mistakes (RL), labels that may disagree k times with the best concept (D_k,
and R_k for a randomized learner), and a horizon. All values are exact fractions, with certificates.
"""

from solvers import RandSOA, opt
from solvers.classes.families import make

C = make("thresholds", N=7)
for game, errors in [("deterministic", 0), ("randomized", 0), ("deterministic", 1), ("randomized", 1)]:
    r = opt(C, game=game, errors=errors)
    print(f"{game:13s} errors={errors}: {r.value}")

# %%
# RandSOA, the optimal randomized learner, predicts 1 with probability
# clip((1 + RL(V_x^1) - RL(V_x^0)) / 2, 0, 1): exactly, as a fraction.
learner = RandSOA(C, errors=1)
print([str(learner.probability(tuple(x))) for x in C.points])

# %%
# An attack charges a randomized learner its expected mistakes, computed exactly, against its bound.
from adversary.attack import attack  # noqa: E402

a = attack("rand-soa", make("intervals", N=4))
print("expected mistakes:", a.mistakes, " RL(C):", a.opt, " verdict:", a.verdict)

# %%
# The experts game: n experts, the best errs at most k times, solved in count space.
from adversary.cli import main  # noqa: E402

assert main(["experts", "n=1..6", "k=0..1"]) == 0
