"""scripts/disjunctions_table.py: the grid of Opt(monotone-disjunctions n k), every cell's certificates
checked, on a small grid (the README's table is its default grid)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_small_grid(tmp_path):
    cells = tmp_path / "cells.md"
    p = subprocess.run([sys.executable, str(ROOT / "scripts" / "disjunctions_table.py"), "--n", "1..14", "--k", "2..3",
                        "--cells", str(cells)], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    rows = p.stdout.splitlines()
    assert "| 2 | =1 | 2 | 2 | 3 | 3 | 4 | 4 | 4 | 5 | 5 | 5 | 6 | 6 | 6 |" in rows
    assert "| 3 | =1 | =2 | 3 | 3 | 4 | 4 | 5 | 5 | 6 | 6 | 7 | 7 | 7 | 8 |" in rows
    readme = (ROOT / "README.md").read_text()
    assert "| 3 | | | 3 | 3 | 4 | 4 | 5 | 5 | 6 | 6 | 7 | 7 | 7 | 8 |" in readme
    assert "| 14 | 3 | 470 | 8 | 8 |" in cells.read_text()
