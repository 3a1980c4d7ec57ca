"""
Tables, plots and LaTeX for a paper
===================================

``littlestone table`` computes a grid of classes (Opt, VC, floor(log2 |C|), and the other games or
parameters on request) and writes it as Markdown, CSV, JSON or a booktabs ``tabular``; ``littlestone plot``
draws a table, a mistake tree or the tightness of learners' bounds. Both run here in a temporary folder.
"""

import os
import tempfile
from pathlib import Path

import matplotlib.pyplot as plt

from adversary.cli import main

folder = tempfile.mkdtemp()  # every file is written here, by its name (each step below starts there)

# %%
# A table in LaTeX: exact values print as fractions (``\frac{13}{8}``), and a cell stopped by
# ``--time-limit`` prints its proven bounds.
assert main(["table", "thresholds", "--grid", "N=3..7", "--randomized", "--format", "latex", "--no-store",
             "--quiet"]) == 0

# %%
# The same grid as JSON, drawn with ``plot table``: Opt(C) against N, with the band
# VC .. floor(log2 |C|) around it.
os.chdir(folder)
assert main(["table", "monotone-disjunctions", "--grid", "n=2..6", "k=1,2", "--format", "json", "-o", "md.json",
             "--no-store", "--quiet"]) == 0
assert main(["plot", "table", "md.json", "--x", "n", "-o", "opt.png"]) == 0
plt.figure(figsize=(6, 4))
plt.imshow(plt.imread("opt.png"))
plt.axis("off")

# %%
# A mistake tree as TikZ (the ``forest`` package) for the paper, and as a picture.
os.chdir(folder)
assert main(["opt", "thresholds", "N=7", "--tree", "tree.tex", "--no-store", "--quiet"]) == 0
print(Path("tree.tex").read_text()[:400])
assert main(["opt", "thresholds", "N=7", "--tree", "t.json", "--no-store", "--quiet"]) == 0
assert main(["plot", "tree", "t.json", "thresholds", "N=7", "-o", "tree.png", "--quiet"]) == 0
plt.figure(figsize=(6, 4))
plt.imshow(plt.imread("tree.png"))
plt.axis("off")
