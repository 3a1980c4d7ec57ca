"""The README's small tables of values, held equal to a fresh computation (issue 23: results users can cite are
regenerated and compared, never copied by hand)."""

import re
from pathlib import Path

import pytest

from solvers.classes.families import make
from solvers.classes.spec import load_class
from solvers.opt import opt

_ROOT = Path(__file__).resolve().parent.parent
# The README and the documentation pages (docs/), where the tables of values live.
README = "\n\n".join(p.read_text() for p in [_ROOT / "README.md", *sorted((_ROOT / "docs").rglob("*.md"))])


def markdown_table(after: str) -> list:
    """The rows (lists of cell texts) of the first Markdown table after the line containing ``after``."""
    lines = README[README.index(after):].splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    return [r for r in rows if not all(re.fullmatch(r"-*:?-*:?", c) for c in r)]


def test_the_disjunctions_grid_is_opt():
    """The grid of Opt(monotone-disjunctions n k) the README prints (k = 1..5, n = 1..20): every cell with
    n <= 14 computed again (the rest takes half a minute: scripts/disjunctions_table.py)."""
    head, *rows = markdown_table("prints Opt for k = 1..5, n = 1..20")
    ns = [int(n) for n in head[1:]]
    assert ns == list(range(1, 21)) and len(rows) == 5
    for row in rows:
        k = int(row[0])
        for n, text in zip(ns, row[1:]):
            if text and n <= 14:
                C = load_class({"family": "monotone-disjunctions", "params": {"n": n, "k": k}})
                assert opt(C).value == int(text), (n, k)
            elif not text:
                assert k > n  # an empty cell is a k larger than n


@pytest.mark.parametrize("line", ["| 3 |     1 |   7 |   3 |   2 |", "| 7 |     1 |  29 |   7 |   4 |"])
def test_the_parameters_table_is_computed(line):
    """The rows of 'table intervals --columns threshold,best_order,worst_order,proper' the README shows."""
    from solvers.params import compute

    block = README[README.index("$ littlestone table intervals --grid N=3..7"):]
    row = next(r.strip() for r in block.splitlines() if r.strip().startswith(line))
    cells = [c.strip() for c in row.strip().strip("|").split("|")]
    N = int(cells[0])
    C = make("intervals", N=N)
    r = compute(C, ["vc", "threshold", "best_order", "worst_order", "proper"])
    assert cells[2:] == [str(C.n_concepts), str(N), str(opt(C).value), str(C.log2_size()), str(r["vc"].value),
                         str(r["threshold"].value), str(r["best_order"].value), str(r["worst_order"].value),
                         str(r["proper"].value)]


def test_the_disjunctions_grid_past_20_is_opt():
    """The README's grid for n = 21..32: rows k = 1 and 2 computed again (a second or two; the other rows take
    minutes a cell, and scripts/results.py writes them back from the store they were computed into)."""
    head, *rows = markdown_table("Opt(monotone-disjunctions n k) past n = 20")
    ns = [int(n) for n in head[1:]]
    assert ns == list(range(21, 33))
    for row in rows[:2]:
        k = int(row[0])
        for n, text in zip(ns, row[1:]):
            C = load_class({"family": "monotone-disjunctions", "params": {"n": n, "k": k}})
            assert opt(C).value == int(text), (n, k)
