"""
Opt of your own class, and its certificates
===========================================

A concept class is a 0/1 matrix: a row per concept, a column per point. Here it is the class of thresholds
on 7 points (concept i labels the points j < i with 1), given as a numpy array, as a class of your own would
arrive from a file (``littlestone opt --matrix C.csv`` reads the same matrix from a CSV or ``.npy`` file).
"""

import json
import os
import tempfile

import numpy as np

from solvers import ConceptClass, opt, verify_tree
from solvers.certificates import verify_upper

matrix = np.tril(np.ones((8, 7), dtype=np.uint8), -1)
C = ConceptClass.from_matrix(matrix)
print(C.n_concepts, "concepts on", C.n_points, "points")

# %%
# ``opt`` returns the value with its proven bounds, and a mistake tree of depth Opt(C): every path of the
# tree is labelled by some concept, so any learner can be forced to err at every level.
r = opt(C)
print("Opt(C) =", r.value, " bounds:", r.lower, "..", r.upper, " tree depth:", r.tree.depth)
print(json.dumps(r.tree.to_json()["root"])[:120], "...")

# %%
# The lower bound's certificate is checked by a checker that does not call the solver. The upper bound
# has a certificate of its own: a refutation of every deeper tree, checked the same way.
print("the tree proves Opt(C) >=", verify_tree(r.tree.to_json(), C))
proof = r.solver.upper_proof(r.upper)
print("the refutation proves Opt(C) <=", verify_upper(proof, C))

# %%
# The command line does the same from a file, and ``verify`` checks each certificate from the class alone.
from adversary.cli import main  # noqa: E402

os.chdir(tempfile.mkdtemp())  # a folder of its own: the files below are written there
np.savetxt("C.csv", matrix, fmt="%d", delimiter=",")
assert main(["opt", "--matrix", "C.csv", "--tree", "t.json", "--proof", "p.json", "--no-store", "--quiet"]) == 0
assert main(["verify", "t.json", "--matrix", "C.csv"]) == 0
assert main(["verify", "p.json", "--matrix", "C.csv"]) == 0
