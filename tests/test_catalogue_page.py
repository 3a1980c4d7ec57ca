"""docs/catalogue.md's table of where littlestone differs from the catalogue of parameters, recomputed: each row's
class built as the catalogue defines it (or from the 0/1 strings it gives), its parameter computed exactly, the
witness replayed by the checker, and the value the page prints."""

from pathlib import Path

import numpy as np
import pytest

from solvers.catalogue import catalogue_class
from solvers.certificates.params import check
from solvers.classes import ConceptClass
from solvers.params import compute

PAGE = Path(__file__).resolve().parents[1] / "docs" / "catalogue.md"


def rows() -> list:
    text = PAGE.read_text()
    table = text.split("<!-- recomputed: begin -->")[1].split("<!-- recomputed: end -->")[0]
    out = []
    for line in table.strip().splitlines()[2:]:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        out.append(cells)
    return out


def test_the_page_has_its_table():
    assert len(rows()) >= 8


@pytest.mark.parametrize("row", rows(), ids=lambda r: f"{r[0][:20]}-{r[1]}-{r[2]}")
def test_each_row_is_recomputed(row):
    name, n, key, _, printed, _ = row
    if name.startswith("strings:"):
        C = ConceptClass.from_matrix(np.array([[int(ch) for ch in w] for w in name[8:].split(",")], dtype=np.uint8))
    else:
        C, _, _ = catalogue_class(name, int(n) if n else None)
    p = compute(C, [key])[key]
    assert p.value == int(printed), (name, n, key)
    ok, why = check(C, key, p.to_json())
    assert ok, why
