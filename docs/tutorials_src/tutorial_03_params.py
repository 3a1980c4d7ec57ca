"""
The parameters beside Opt
=========================

Learning theorists study Opt(C) together with combinatorial parameters: the VC dimension and its dual, the
threshold dimension, the star number, the teaching and recursive teaching dimensions, the offline mistake
bounds of the best and worst order, and Opt of the proper game. ``solvers.params.compute`` computes them
exactly, each with a witness that a checker replays without the search.
"""

from solvers import opt
from solvers.classes.families import make
from solvers.params import compute

C = make("intervals", N=5)
values = compute(C)
print("Opt(C) =", opt(C).value)
for key, result in values.items():
    print(f"{key:12s} {result.value}")

# %%
# Between them: VC <= Opt <= floor(log2 |C|), and the offline bounds lie between 1 and Opt(C); the proper
# game can cost more than Opt(C). The command line prints each value with its witness and the check.
from adversary.cli import main  # noqa: E402

assert main(["params", "thresholds", "N=6", "--only", "vc,threshold,star,td,rtd", "--no-store"]) == 0

# %%
# ``separate`` searches the classes on m points for the largest gap between two parameters: on 3 points,
# exhaustively up to isomorphism, the three singletons separate the proper game from Opt.
assert main(["separate", "proper", "opt", "--points", "3"]) == 0
