"""The CLI at its limits: files nested deeper than Python's recursion limit, large class files (progress),
and the memo's memory limit (``opt --memory``).

Deep files are written as text (``json.dumps`` would itself recurse) and checked through a subprocess, the
way a user meets them: one line, exit code 1 or 2, never a traceback or an "internal error RecursionError".
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def nested(n: int) -> str:
    return "[" * n + "]" * n


def deep_tree(n: int) -> str:
    return f'{{"depth": {n}, "root": ' + '{"point": 0, "0": ' * n + "null" + ', "1": null}' * n + "}"


def deep_proof(n: int) -> str:
    return '{"kind": "upper-bound", "bound": 2, "entries": [{"path": [' + nested(n) + '], "bound": 1}]}'


def deep_witness(n: int) -> str:
    return ('{"kind": "witness", "learner": {"name": "halving", "params": {}}, '
            '"class": {"family": "thresholds", "params": {"N": 7}}, '
            '"sequence": [{"x": ' + nested(n) + ', "y": 0}], "mistakes": 0}')


def deep_class(n: int) -> str:
    return '{"matrix": [[0, 1], [1, ' + nested(n) + "]]}"


def run_cli(*argv):
    return subprocess.run([sys.executable, "-m", "adversary", *map(str, argv)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def assert_one_clean_line(r):
    assert r.returncode in (1, 2), (r.returncode, r.stdout[:300], r.stderr[:300])
    lines = (r.stdout + r.stderr).strip().splitlines()
    assert len(lines) == 1, lines[:5]
    for word in ("RecursionError", "Traceback", "internal error"):
        assert word not in lines[0]
    assert len(lines[0]) < 500, lines[0][:600]
    return lines[0]


@pytest.mark.parametrize("levels", [5000, 100000])
def test_verify_a_tree_nested_too_deep(tmp_path, levels):
    p = tmp_path / "deep.json"
    p.write_text(deep_tree(levels))
    line = assert_one_clean_line(run_cli("verify", p, "thresholds", "N=7"))
    assert "levels deep" in line


@pytest.mark.parametrize("make, extra", [(deep_proof, ["thresholds", "N=7"]), (deep_witness, [])])
def test_verify_a_proof_or_witness_nested_too_deep(tmp_path, make, extra):
    p = tmp_path / "deep.json"
    p.write_text(make(5000))
    line = assert_one_clean_line(run_cli("verify", p, *extra))
    assert "levels deep" in line


def test_a_class_file_nested_too_deep(tmp_path):
    p = tmp_path / "deep.json"
    p.write_text(deep_class(5000))
    line = assert_one_clean_line(run_cli("opt", "--matrix", p))
    assert "levels deep" in line


def test_verify_a_deep_but_readable_tree(tmp_path):
    """Nested 151 levels: read, then refused as deeper than any tree of an 8-concept class."""
    p = tmp_path / "t.json"
    p.write_text(deep_tree(150))
    line = assert_one_clean_line(run_cli("verify", p, "thresholds", "N=7"))
    assert line.startswith("FAILED: the tree claims depth 150")


def test_verify_an_unknown_huge_kind_in_a_short_line(tmp_path, capsys):
    from adversary.cli import main

    p = tmp_path / "k.json"
    p.write_text('{"kind": "' + "x" * 100000 + '"}')
    assert main(["verify", str(p)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1 and len(err) < 300 and "has kind 'xxx" in err


# ------------------------------------------------------------------------------------ large class files
def big_csv(path: Path, mb: float = 10.5) -> Path:
    """A .csv of more than ``mb`` MB whose rows repeat 4 thresholds over 2000 points (so the class,
    duplicates merged, has 4 concepts and solves at once)."""
    n = 2000
    patterns = [",".join("1" if j >= t else "0" for j in range(n)) + "\n" for t in (0, 500, 1000, 1500)]
    rows = int(mb * 1e6 / len(patterns[0])) + 1
    path.write_text("".join(patterns[i % 4] for i in range(rows)))
    return path


def test_reading_a_large_class_file_shows_progress_unless_quiet(tmp_path, capsys):
    from adversary.cli import main

    p = big_csv(tmp_path / "big.csv")
    assert main(["opt", "--matrix", str(p), "--json"]) == 0
    out, err = capsys.readouterr()
    assert '"opt": 2' in out and '"concepts": 4' in out
    lines = err.splitlines()
    assert lines and lines[0] == f"littlestone: reading {p} (10.5 MB)", err
    assert all(line.startswith(f"littlestone: reading {p}") for line in lines), err
    assert main(["opt", "--matrix", str(p), "--json", "--quiet"]) == 0  # --quiet: nothing on stderr
    out, err = capsys.readouterr()
    assert '"opt": 2' in out and err == ""


def test_progress_callback_of_from_file(tmp_path):
    """from_file reports (bytes so far, size) for .csv and .json, ending at the size."""
    from solvers.classes import ConceptClass

    p = big_csv(tmp_path / "big.csv", mb=3)
    q = tmp_path / "big.json"
    q.write_text(json.dumps({"matrix": ConceptClass.from_file(p).matrix.astype(int).tolist() * 700}))
    for path in (p, q):
        calls = []
        C = ConceptClass.from_file(path, progress=lambda done, total: calls.append((done, total)))
        size = path.stat().st_size
        assert len(C) == 4 and calls[0] == (0, size) and calls[-1] == (size, size) and len(calls) >= 3
        assert all(a[0] <= b[0] for a, b in zip(calls, calls[1:]))


# ------------------------------------------------------------------------------------ opt --memory
@pytest.mark.parametrize("value, needle", [("0", "positive"), ("-1", "positive"), ("nan", "positive"), ("inf", "finite"),
                                           ("abc", "not a number"), ("1e12", "more than this machine's memory")])
@pytest.mark.parametrize("command", [["opt", "thresholds", "N=7"], ["table", "thresholds", "--grid", "N=2..3"]])
def test_bad_memory_is_one_line(capsys, command, value, needle):
    from adversary.cli import main

    code = main([*command, f"--memory={value}"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and err.startswith("littlestone: error: "), err
    assert needle in err


def test_memory_help_states_the_default(capsys):
    from adversary.cli import main
    from solvers.opt import default_memo_bytes

    assert main(["opt", "--help"]) == 0
    out = " ".join(capsys.readouterr()[0].split())
    assert f"default {default_memo_bytes() / 2**30:.1f} GB, half of this machine's memory" in out


def test_small_memory_evicts_and_still_solves(capsys):
    """intervals N=100: about 20,000 memo entries when the memo is free; 1 MB holds fewer than 2,000."""
    from adversary.cli import main
    from solvers.classes.families import make
    from solvers.opt import opt

    assert main(["opt", "intervals", "N=100", "--memory", "0.001", "--json", "--quiet"]) == 0
    r = json.loads(capsys.readouterr()[0])
    assert r["memo_bytes"] == int(0.001 * 2**30) and r["evictions"] > 0
    assert r["opt"] == opt(make("intervals", N=100)).value == 11


def test_table_memory_per_cell(capsys, monkeypatch):
    import adversary.cli as cli

    limits = []
    solve = cli._solve
    monkeypatch.setattr(cli, "_solve", lambda C, **kw: limits.append(kw["memo_bytes"]) or solve(C, **kw))
    assert cli.main(["table", "thresholds", "--grid", "N=3..4", "--memory", "0.001", "--format", "json", "--quiet"]) == 0
    rows = json.loads(capsys.readouterr()[0])["rows"]
    assert [r["opt"] for r in rows] == [2, 2] and limits == [int(0.001 * 2**30)] * 2
