"""The benchmark scripts: the naive and careful baselines' values and smoke runs of the benchmarks."""

import importlib.util
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "scripts"


def _load(name):
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


baseline_opt = _load("baseline_opt").baseline_opt


def thresholds(N):
    """N points 1..N, the N + 1 concepts x >= t for t = 1..N+1."""
    return [[int(x >= t) for x in range(1, N + 1)] for t in range(1, N + 2)]


def all_functions(n):
    return [[(f >> j) & 1 for j in range(n)] for f in range(2**n)]


def singletons(N):
    return [[int(i == j) for j in range(N)] for i in range(N)]


def test_baseline_hand_known_values():
    assert baseline_opt(thresholds(7)) == 3
    assert baseline_opt(all_functions(3)) == 3
    assert baseline_opt(singletons(5)) == 1
    assert baseline_opt(np.array(singletons(5), dtype=bool)) == 1


def test_baseline_small_cases():
    assert baseline_opt([]) == -1
    assert baseline_opt([[0, 1, 1]]) == 0
    assert baseline_opt([[0, 1], [0, 1]]) == 0  # duplicate rows: nothing splits them
    assert baseline_opt([[0], [1]]) == 1
    assert baseline_opt(thresholds(2)) == 1  # 3 concepts: floor(log2 3) = 1
    assert baseline_opt(singletons(5) + [[0] * 5]) == 1  # singletons plus the empty concept


def test_baseline_agrees_with_opt_on_random_classes():
    from solvers.classes import ConceptClass
    from solvers.opt import opt

    rng = np.random.default_rng(0)
    for _ in range(20):
        m = rng.integers(0, 2, size=(int(rng.integers(1, 12)), int(rng.integers(1, 6)))).astype(bool)
        assert baseline_opt(m) == opt(ConceptClass.from_matrix(m)).value


def test_baseline_time_limit():
    with pytest.raises(TimeoutError):
        baseline_opt(all_functions(5), time_limit=1e-9)


careful = _load("careful_opt")


def test_careful_hand_known_values():
    assert careful.careful_opt(thresholds(7)) == 3
    assert careful.careful_opt(all_functions(3)) == 3
    assert careful.careful_opt(singletons(5)) == 1
    assert careful.careful_opt(np.array(singletons(5), dtype=bool)) == 1
    assert careful.careful_opt([]) == -1
    assert careful.careful_opt(np.zeros((0, 4), dtype=bool)) == -1
    assert careful.careful_opt([[0, 1, 1]]) == 0
    assert careful.careful_opt([[0, 1], [0, 1]]) == 0  # duplicate rows are one concept
    assert careful.careful_opt([[1], [1], [0]]) == 1
    assert careful.careful_opt(singletons(5) + [[0] * 5]) == 1


def test_careful_takes_a_concept_class_and_its_cli_prints_the_value(capsys):
    from solvers.classes.families import make

    assert careful.careful_opt(make("thresholds", N=7)) == 3
    assert careful.main(["thresholds", "N=7"]) == 0
    assert capsys.readouterr().out == "3\n"


def test_careful_time_limit():
    with pytest.raises(TimeoutError):
        careful.careful_opt(all_functions(12), time_limit=1e-9)


@given(st.integers(1, 12).flatmap(lambda n: st.integers(1, 6).flatmap(
    lambda m: st.lists(st.lists(st.integers(0, 1), min_size=m, max_size=m), min_size=n, max_size=n))))
@settings(deadline=None)
def test_careful_agrees_with_the_naive_baseline(matrix):
    assert careful.careful_opt(matrix) == baseline_opt(matrix)


@pytest.mark.parametrize("family,params", [
    ("thresholds", {"N": 30}), ("intervals", {"N": 12}), ("monotone-disjunctions", {"n": 6, "k": 2}),
    ("conjunctions", {"n": 3}), ("halfspaces", {"n": 3}), ("rectangles", {"N": 4}), ("parities", {"n": 4}),
    ("random", {"m": 60, "N": 8, "seed": 3}),
])
def test_careful_agrees_with_opt_on_families(family, params):
    from solvers.classes.families import make
    from solvers.opt import opt

    C = make(family, **params)
    assert careful.careful_opt(C.matrix) == opt(C).value


def test_bench_raw_smoke(tmp_path):
    """scripts/bench_raw.py on one small class (thresholds N=100, shuffled and complemented): both searches
    agree, the row and the geometric mean are printed, the CSV is written (no timing is asserted)."""
    out = tmp_path / "raw.csv"
    proc = subprocess.run(
        [sys.executable, str(SCRIPTS / "bench_raw.py"), "--only", "thresholds", "--params", "N=100",
         "--repeats", "1", "--time-limit", "120", "--csv", str(out)],
        capture_output=True, text=True, timeout=300, cwd=str(ROOT),
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "MISMATCH" not in proc.stdout
    assert "| thresholds N=100 | 101 | 100 | 6 |" in proc.stdout
    assert "geometric mean of careful/opt over the 1 classes both solved" in proc.stdout
    assert out.read_text().startswith("class,concepts,points,opt,")


def test_bench_raw_matrix_is_the_class_shuffled_and_complemented():
    raw = _load("bench_raw")
    M = raw.raw_matrix("intervals", {"N": 9}, seed=0)
    from solvers.classes.families import make

    A = np.asarray(make("intervals", N=9).matrix, dtype=bool)
    assert M.shape == A.shape and (raw.raw_matrix("intervals", {"N": 9}, seed=0) == M).all()
    assert not (M == A).all() and not (raw.raw_matrix("intervals", {"N": 9}, seed=1) == M).all()
    assert sorted(M.sum(axis=0)) != sorted(A.sum(axis=0))  # some columns complemented (a permutation keeps these)
    assert careful.careful_opt(M) == careful.careful_opt(A)


@pytest.mark.slow
def test_bench_quick_smoke():
    """The quick run ends, agrees with the baseline and with the pinned solvers, and prints its tables (the
    raw-matrix part among them); a generous timeout only catches a hang (no timing is asserted)."""
    proc = subprocess.run(
        [sys.executable, str(SCRIPTS / "bench_opt.py"), "--quick", "--skip-frontier", "--rounds", "2"],
        capture_output=True, text=True, timeout=600, cwd=str(ROOT),
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "MISMATCH" not in proc.stdout
    assert "| instance |" in proc.stdout and "## Raw matrices" in proc.stdout
    assert "s in one tree: the median of 2 rounds" in proc.stdout  # (the quick suite's instances are all short)
    assert "cores" in proc.stdout


def test_readme_learners_table_is_the_generated_one():
    """docs/guide/learners.md holds exactly the table scripts/learners_table.py prints from the registry."""
    table = _load("learners_table").table()
    readme = (ROOT / "docs" / "guide" / "learners.md").read_text()
    assert table in readme
    start = readme.index("| CLI name | learner | proven bound | source |")
    assert readme[start:readme.index("\n\n", start) + 1] == table


@pytest.mark.slow
def test_bench_experts_quick_smoke():
    r = subprocess.run([sys.executable, str(SCRIPTS / "bench_experts.py"), "--quick", "--k", "1"],
                       capture_output=True, text=True, timeout=600)  # (a hang guard; no timing is asserted)
    assert r.returncode == 0, r.stderr
    assert "D_1(10^9) = 35 (volume bound 35)" in r.stdout
    assert "R_1(25) = 509/128" in r.stdout and "R_1: largest n within 0.2 s:" in r.stdout


@pytest.mark.slow
def test_bench_store_quick_runs():
    """scripts/bench_store.py --quick serves three stored classes, each re-checked (its asserts)."""
    import subprocess
    import sys

    p = subprocess.run([sys.executable, str(ROOT / "scripts" / "bench_store.py"), "--quick"], capture_output=True,
                       text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert sum(line.startswith("| ") for line in p.stdout.splitlines()) == 4 and "thresholds N=9999" in p.stdout


def test_conservative_table_runs_and_every_a_prime_is_within_its_bound(monkeypatch, capsys):
    mod = _load("conservative_table")
    monkeypatch.setattr(mod, "CLASSES", [("thresholds", {"N": 7}), ("monotone-disjunctions", {"n": 3, "k": 2})])
    monkeypatch.setattr(mod, "LEARNERS", ["halving", "winnow2", "conjunction-elimination"])
    assert mod.main(["--time-limit", "20"]) == 0
    out = capsys.readouterr().out
    assert "| thresholds N=7 | halving | 3 | 3 | 3 |" in out and "unbounded (a cycle)" in out


def test_bench_params_smoke(capsys):
    """scripts/bench_params.py --quick: every key on the small classes, the naive baselines agreeing (it asserts)."""
    assert _load("bench_params").main(["--quick"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[0].startswith("| class |") and len(rows) == 2 + 3


@pytest.mark.slow
def test_bench_params_targets_smoke(capsys):
    """scripts/bench_params.py --targets --quick: the targets' small stand-ins, today's code (git archive of the
    baseline revision) against this tree's in fresh processes, every row exact and the two agreeing."""
    assert _load("bench_params").main(["--targets", "--quick", "--seeds", "1", "--time-limit", "20", "--sat"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[0].startswith("| target |") and len(rows) == 2 + 3 + 1 + 6
    assert all(row.endswith("| yes |") for row in rows[2:]) and "MISMATCH" not in "\n".join(rows)


def test_results_regenerates_the_disjunctions_grid_from_the_store(tmp_path, capsys):
    """disjunctions_table.py --store fills a store (a second run serves every cell, certificates re-checked), and
    results.py --check writes the same grid back from it."""
    store = str(tmp_path / "r.db")
    table = _load("disjunctions_table")
    assert table.main(["--n", "3..5", "--k", "1..2", "--store", store]) == 0
    first = capsys.readouterr().out
    assert table.main(["--n", "3..5", "--k", "1..2", "--store", store]) == 0
    assert "6 served from" in capsys.readouterr().out
    assert _load("results").main(["--store", store, "--check"]) == 0
    grid = capsys.readouterr().out
    rows = [line for line in grid.splitlines() if line.startswith("| 1 |") or line.startswith("| 2 |")]
    assert rows == [line for line in first.splitlines() if line.startswith(("| 1 |", "| 2 |"))][:2]


def test_bench_spread_overlap_counts_the_workers_entries():
    """``bench_spread.py --overlap`` asks the spread's workers for their memos (spread at once: the trial in the
    driver would settle the small instance alone)."""
    import os
    import re

    done = subprocess.run([sys.executable, str(SCRIPTS / "bench_spread.py"), "--overlap", "--quick"],
                          capture_output=True, text=True, cwd=ROOT, env={**os.environ, "LITTLESTONE_SPREAD_TRIAL": "0"},
                          timeout=600)
    assert done.returncode == 0, done.stderr
    line = done.stdout.strip().splitlines()[-1]
    assert line.startswith("intervals N=90: opt 11,")
    entries = int(re.search(r"workers' entries (\d+)", line).group(1))
    again = int(re.search(r"another worker also holds (\d+)", line).group(1))
    assert entries > 0 and 0 <= again <= entries


def test_catalogue_queue_smoke():
    """scripts/catalogue_queue.py: a row per relation of the witness queue, its families' values exact."""
    r = subprocess.run([sys.executable, str(SCRIPTS / "catalogue_queue.py"), "--points", "3", "--max-n", "2"],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    rows = [line for line in r.stdout.splitlines() if line.startswith("| ") and line[2:4].strip().isdigit()]
    assert [int(line.split("|")[1]) for line in rows] == [38, 53, 87, 96, 298]
    assert "| 87 |" in r.stdout and "3/2; 6/4" in r.stdout  # W and W^2: Opt 3, 6; meq 2, 4


@pytest.mark.slow
def test_bench_disjunctions_smoke(capsys):
    """scripts/bench_disjunctions.py on two small cells: the earlier commit, the Python points and today's engine
    agree (it returns 1 on a mismatch)."""
    if not (ROOT / ".git").exists():
        pytest.skip("not a git clone: the baseline cannot be extracted")
    assert _load("bench_disjunctions").main(["--cells", "10:3,14:2"]) == 0
    assert "| n=14 k=2 |" in capsys.readouterr().out
