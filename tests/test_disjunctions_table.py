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
    readme = "\n".join(p.read_text() for p in sorted((ROOT / "docs").rglob("*.md")))  # the pages the grid is on
    assert "| 3 | | | 3 | 3 | 4 | 4 | 5 | 5 | 6 | 6 | 7 | 7 | 7 | 8 |" in readme
    assert "| 14 | 3 | 470 | 8 | 8 |" in cells.read_text()


def test_sigterm_prints_the_cells_proven(tmp_path):
    """Stopped by SIGTERM after its first cell, the script prints the grid of the cells proven (the cell under way
    as its bounds, or empty), one line on stderr, and exits 143; nothing is lost from the store."""
    import os
    import signal

    store = tmp_path / "table.db"
    p = subprocess.Popen([sys.executable, str(ROOT / "scripts" / "disjunctions_table.py"), "--n", "14..32", "--k", "4",
                          "--store", str(store)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = p.stderr.readline()  # the first cell, proven
    assert first.startswith("n=14 k=4: Opt = 9 "), first
    os.kill(p.pid, signal.SIGTERM)
    out, err = p.communicate(timeout=300)
    assert p.returncode == 143, err
    assert "interrupted by SIGTERM" in err and "Traceback" not in err
    assert any(line.startswith("| 4 | 9 | ") for line in out.splitlines()), out
    again = subprocess.run([sys.executable, str(ROOT / "scripts" / "disjunctions_table.py"), "--n", "14..14", "--k",
                            "4", "--store", str(store)], capture_output=True, text=True, timeout=300)
    assert again.returncode == 0 and "1 served from" in again.stdout, again.stdout + again.stderr
