"""scripts/tightness.py: the quick table runs, in Markdown and CSV, and every row it reports is verified."""

from __future__ import annotations

import contextlib
import csv
import importlib.util
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "tightness.py"


def _attack_available() -> bool:
    try:
        from adversary.attack import attack  # noqa: F401
    except ImportError:
        return False
    return True


needs_attack = pytest.mark.skipif(not _attack_available(), reason="adversary.attack is not available yet")


def _load():
    spec = importlib.util.spec_from_file_location("tightness", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["tightness"] = mod  # its dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


def run(*args):
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=120, cwd=ROOT)


@needs_attack
def test_quick_markdown():
    p = run("--quick")
    assert p.returncode == 0, p.stderr
    out = p.stdout
    assert out.startswith("# Tightness of the proven mistake bounds")
    assert "| learner | class | mistakes | worst case | bound | Opt(C) | verdict |" in out
    assert "| halving | thresholds N=7 | 3 | exact | 3 | 3 | tight |" in out
    assert "| perceptron | margin-halfspaces d=3 gamma=0.3 R=1 | 11 | exact |" in out
    assert "`littlestone attack winnow2 --class monotone-disjunctions n=4 k=2 --strategy exact" in out
    assert "[6/6]" in p.stderr  # progress on stderr, one line per row


@needs_attack
def test_quick_csv_to_a_file(tmp_path):
    out = tmp_path / "t.csv"
    p = run("--quick", "--format", "csv", "--out", str(out))
    assert p.returncode == 0, p.stderr
    assert p.stdout == ""
    records = list(csv.DictReader(io.StringIO(out.read_text())))
    assert len(records) == 6
    mod = _load()
    assert list(records[0]) == list(mod.COLUMNS)
    for r in records:
        assert r["status"] in ("exact", "best found")
        assert r["verdict"] in ("below", "tight")            # never "violates": the bounds are theorems
        assert int(r["mistakes"]) <= float(r["bound"])
        assert r["command"].startswith(f"littlestone attack {r['learner']} --class ")
    perceptron = [r for r in records if r["learner"] == "perceptron"]
    assert [r["ratio"] for r in perceptron] == ["0.540", "0.990"]   # 6 / 11.1 in d = 2, 11 / 11.1 in d = 3


@needs_attack
def test_commands_reproduce_a_row():
    """The command of a row, run through the CLI, gives the row's mistakes."""
    mod = _load()
    row = mod.rows(quick=True)[3]
    rec = mod.run_row(row, 5.0, 0)
    argv = rec["command"].split()[1:] + ["--json", "--quiet"]
    from adversary.cli import main

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(argv) == 0
    assert json.loads(buf.getvalue())["mistakes"] == rec["mistakes"]


def test_rows_and_skips_without_running_attack():
    mod = _load()
    full = mod.rows()
    learners = {r.learner for r in full}
    assert learners == {"halving", "soa", "winnow1", "winnow2", "perceptron"}
    winnow_exact = {(r.learner, r.params["n"], r.params["k"]) for r in full if r.section == "winnow" and "exact" in r.plan}
    assert ("winnow2", 8, 2) in winnow_exact and ("winnow1", 8, 1) in winnow_exact
    assert {r.params["n"] for r in full if r.plan == ("heuristics",)} == {12, 16, 32}
    geo = {(r.params["d"], r.params["gamma"]) for r in full if r.learner == "perceptron"}
    assert geo == {(d, g) for d in (2, 3, 5) for g in (0.3, 0.2, 0.1)}
    # a row whose strategy is not installed is kept and marked skipped, with a note
    row = mod.Row("winnow", "winnow2", "monotone-disjunctions", {"n": 3, "k": 1}, ("no-such-strategy",))
    rec = mod.run_row(row, 1.0, 0, attack=lambda *a, **k: pytest.fail("attack must not run"))
    assert rec["status"] == "skipped" and "not available yet" in rec["note"]
    # an error in one row is reported in that row, not raised
    row = mod.Row("winnow", "winnow2", "monotone-disjunctions", {"n": 3, "k": 1}, ("exact",))

    def broken(*a, **k):
        raise ValueError("boom\nsecond line")

    rec = mod.run_row(row, 1.0, 0, attack=broken)
    assert rec["status"] == "error" and rec["note"] == "exact: ValueError: boom second line"
