"""The ``littlestone`` command line: every command's happy path, and one-line errors for bad input.

Most tests run the CLI in-process through ``main([...])``; a few run the installed executable (and
``python -m adversary``) in a subprocess, and one sends it Ctrl-C.
"""

import csv
import io
import itertools
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from adversary.cli import main
from adversary.referee import target_words
from solvers.seeds import cite, is_citation


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def assert_usage_error(code, out, err, *, contains=None):
    """Exit 2, nothing on stdout, exactly one stderr line ``littlestone: error: ...``, no traceback."""
    assert code == 2, (code, out, err)
    assert "Traceback" not in err and "Traceback" not in out
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("littlestone: error: "), err
    assert out == ""
    if contains is not None:
        assert contains.lower() in lines[0].lower(), lines[0]
    return lines[0]


def field(out: str, key: str) -> str:
    """The value of a ``key: value`` line of opt's human output."""
    for line in out.splitlines():
        if line.startswith(key + ":"):
            return line[len(key) + 1:].strip()
    raise AssertionError(f"no {key!r} line in {out!r}")


def monotone_disjunctions(n: int, k: int) -> np.ndarray:
    """OR of at most k of n variables over {0,1}^n: a class the solver cannot finish in a second."""
    X = np.array(list(itertools.product([0, 1], repeat=n)), dtype=bool)
    rows = [X[:, list(S)].any(axis=1) if S else np.zeros(len(X), dtype=bool)
            for r in range(k + 1) for S in itertools.combinations(range(n), r)]
    return np.array(rows)


@pytest.fixture(scope="module")
def hard_npy(tmp_path_factory):
    path = tmp_path_factory.mktemp("hard") / "md13_5.npy"
    np.save(path, monotone_disjunctions(13, 5))
    return path


def executable():
    """The installed console script of this environment (or on PATH)."""
    sibling = Path(sys.executable).with_name("littlestone")
    if sibling.exists():
        return str(sibling)
    return shutil.which("littlestone")


# ------------------------------------------------------------------------------------------ families
def test_families_lists_every_family(capsys):
    from solvers.classes import families

    code, out, err = run(capsys, "families")
    assert code == 0 and err == ""
    for name in ("thresholds", "parities", "singletons"):
        assert name in out
    for name in families.FAMILIES:
        assert name in out
    assert "|C| = N + 1" in out and "Opt(C) = floor(log2(N+1))" in out  # size formula, known value


def test_families_json(capsys):
    from solvers.classes import families

    code, out, _ = run(capsys, "families", "--json")
    assert code == 0
    data = json.loads(out)
    names = [f["name"] for f in data["families"]]
    assert names == [*families.FAMILIES, "margin-halfspaces"]  # the attack-only family last
    assert [f["attack_only"] for f in data["families"]] == [False] * len(families.FAMILIES) + [True]
    thresholds = data["families"][names.index("thresholds")]
    assert thresholds["size"] == "N + 1" and thresholds["opt"]  # the size formula and the known value
    assert [(p["name"], p["required"]) for p in thresholds["parameters"]] == [("N", True)]
    intervals = data["families"][names.index("intervals")]
    assert {"name": "empty", "default": 1} .items() <= intervals["parameters"][1].items()


# ------------------------------------------------------------------------------------------ opt
def test_opt_thresholds_human(capsys):
    code, out, err = run(capsys, "opt", "thresholds", "N=7")
    assert code == 0, err
    assert field(out, "Opt(C)") == "3"
    assert field(out, "floor(log2 |C|)") == "3"
    assert field(out, "size") == "|C| = 8 concepts, |X| = 7 points"
    assert field(out, "class") == "thresholds N=7"
    assert field(out, "time").endswith("search nodes)")
    # under a second: no progress; one note on how to get the certificate (the README's first command)
    assert err.splitlines() == [l for l in err.splitlines() if l.startswith("littlestone: note: add --tree tree.json")]
    assert len(err.splitlines()) == 1


def test_opt_json(capsys):
    code, out, err = run(capsys, "opt", "thresholds", "N=7", "--json")
    assert code == 0, err
    assert len(out.strip().splitlines()) == 1
    r = json.loads(out)
    assert {"opt", "lower", "upper", "concepts", "points", "seconds", "log2_size", "family", "params",
            "nodes", "stopped"} <= set(r)
    assert (r["opt"], r["lower"], r["upper"]) == (3, 3, 3)
    assert (r["concepts"], r["points"], r["log2_size"]) == (8, 7, 3)
    assert r["family"] == "thresholds" and r["params"]["N"] == 7
    assert r["stopped"] is None and r["seconds"] >= 0


def test_opt_tree_then_verify(capsys, tmp_path):
    tree = tmp_path / "t.json"
    code, out, err = run(capsys, "opt", "thresholds", "N=7", "--tree", tree)
    assert code == 0, err
    assert str(tree) in field(out, "tree")
    assert json.loads(tree.read_text())["depth"] == 3
    code, out, err = run(capsys, "verify", tree, "thresholds", "N=7")
    assert code == 0, err
    assert out.strip() == "OK: mistake tree of depth 3 verified, so Opt(C) >= 3"


def test_opt_jobs(capsys):
    code, out, err = run(capsys, "opt", "thresholds", "N=100", "--jobs", "2", "--json")
    assert code == 0, err
    assert json.loads(out)["opt"] == 6


@pytest.mark.parametrize("ext", [".dot", ".graphml"])
def test_opt_tree_formats(capsys, tmp_path, ext):
    out_file = tmp_path / f"t{ext}"
    code, _, err = run(capsys, "opt", "thresholds", "N=7", "--tree", out_file, "--quiet")
    assert code == 0, err
    text = out_file.read_text()
    assert ("digraph" in text) if ext == ".dot" else ("graphml" in text)


def test_opt_time_limit_reports_bounds_progress_and_tree(capsys, tmp_path, hard_npy):
    tree = tmp_path / "partial.json"
    code, out, err = run(capsys, "opt", "--matrix", hard_npy, "--time-limit", "2.5", "--json", "--tree", tree)
    assert code == 3  # not solved within the limit: the bounds, and exit code 3
    r = json.loads(out)
    assert r["lower"] <= r["upper"] <= r["log2_size"]
    if r["stopped"] is not None:  # the usual case: the time limit stops the search
        assert r["stopped"] == "time limit" and r["opt"] is None
        progress = [l for l in err.splitlines() if l.startswith("littlestone opt: ")]
        assert progress and "<= Opt <=" in progress[0]  # plain lines: stderr is not a terminal
    assert json.loads(tree.read_text())["depth"] == r["lower"]
    code, out, err = run(capsys, "verify", tree, "--matrix", hard_npy)
    assert code == 0, err
    assert out.startswith(f"OK: mistake tree of depth {r['lower']} verified")


def test_opt_quiet_and_human_bounds(capsys, hard_npy):
    code, out, err = run(capsys, "opt", "--matrix", hard_npy, "--time-limit", "1", "--quiet")
    assert code == 3 and err == ""
    value = field(out, "Opt(C)")
    if "<=" in value:
        assert "<= Opt <=" in value and "time limit" in value


# ------------------------------------------------------------------------------------------ export
def test_export_round_trip(capsys, tmp_path):
    code, out, err = run(capsys, "export", "thresholds", "N=7")
    assert code == 0, err
    data = json.loads(out)
    assert len(data["matrix"]) == 8 and len(data["points"]) == 7
    f = tmp_path / "c.json"
    f.write_text(out)
    code, out, err = run(capsys, "opt", "--matrix", f, "--json")
    assert code == 0, err
    r = json.loads(out)
    assert (r["opt"], r["concepts"], r["points"]) == (3, 8, 7)


def test_export_to_file(capsys, tmp_path):
    f = tmp_path / "c.json"
    code, out, err = run(capsys, "export", "thresholds", "N=5", "-o", f)
    assert code == 0 and out == ""
    code, out, _ = run(capsys, "opt", "--matrix", f, "--json")
    assert json.loads(out)["opt"] == 2


# ------------------------------------------------------------------------------------------ verify
def test_verify_rejects_tampered_tree(capsys, tmp_path):
    tree = tmp_path / "t.json"
    assert run(capsys, "opt", "thresholds", "N=7", "--tree", tree)[0] == 0
    data = json.loads(tree.read_text())
    data["depth"] = 4  # claims more than it proves
    tree.write_text(json.dumps(data))
    code, out, err = run(capsys, "verify", tree, "thresholds", "N=7")
    assert code == 1
    assert len((out + err).strip().splitlines()) == 1 and out.startswith("FAILED: ")
    # A tree over the wrong class: a path no concept realises.
    data["depth"] = 3
    tree.write_text(json.dumps(data))
    code, out, err = run(capsys, "verify", tree, "singletons", "N=7")
    assert code == 1 and out.startswith("FAILED: ") and len(out.strip().splitlines()) == 1


# ------------------------------------------------------------------------------------------ learners
def test_learners_lists_every_learner(capsys):
    from solvers.learners import LEARNERS

    code, out, err = run(capsys, "learners")
    assert code == 0 and err == ""
    blocks = out.strip().split("\n\n")
    names = list(dict.fromkeys(s.name for s in LEARNERS.values()))
    assert [b.split()[0] for b in blocks] == names  # one block per learner, aliases folded in
    winnow2 = blocks[names.index("winnow2")]
    assert winnow2.splitlines()[0].split() == ["winnow2", "n"]
    assert "bound: 2 + 3r(1 + lg n)" in winnow2 and "source: " + cite("15-859B", 'section "Winnow algorithm"') in winnow2
    assert "bound arguments (the target's parameters): r" in winnow2
    perceptron = blocks[names.index("perceptron")]
    assert "margin=0" in perceptron and "R^2 / gamma^2" in perceptron and cite("Mehta", "section 3, Theorem 2") in perceptron
    assert "(also: hal)" in blocks[names.index("halving")]
    for b in blocks:
        assert "    bound: " in b
        assert is_citation(next(line for line in b.splitlines() if line.startswith("    source: "))[12:])


def test_learners_json(capsys):
    from solvers.learners import LEARNERS

    code, out, err = run(capsys, "learners", "--json")
    assert code == 0 and err == ""
    assert len(out.strip().splitlines()) == 1
    rows = json.loads(out)["learners"]
    assert [r["name"] for r in rows] == list(dict.fromkeys(s.name for s in LEARNERS.values()))
    by_name = {r["name"]: r for r in rows}
    assert {"name", "params", "needs_class", "bound", "bound_params", "source", "aliases"} <= set(by_name["winnow2"])
    assert by_name["halving"]["needs_class"] is True and by_name["perceptron"]["needs_class"] is False
    assert by_name["perceptron"]["params"][0] == {"name": "d", "default": None, "doc": "the dimension"}
    assert {"name": "margin", "default": 0} .items() <= by_name["perceptron"]["params"][1].items()
    assert by_name["winnow1"]["bound_params"] == ["k"] and by_name["winnow1"]["source"].startswith(cite("Rivest94"))


# ------------------------------------------------------------------------------------------ verify a witness
@pytest.fixture
def witness_file(tmp_path):
    from adversary.referee import make_witness

    points = [(1, 1, 1, 1), (0, 1, 0, 1), (1, 0, 0, 0), (0, 0, 1, 0), (0, 1, 0, 0), (0, 0, 0, 1)]
    seq = [{"x": list(p), "y": int(p[0] or p[2])} for p in points]
    w = make_witness("winnow2", {"n": 4}, {"family": "monotone-disjunctions", "params": {"n": 4, "k": 2}}, seq)
    path = tmp_path / "w.json"
    path.write_text(json.dumps(w))
    return path, w


def test_verify_witness_ok(capsys, witness_file):
    path, w = witness_file
    code, out, err = run(capsys, "verify", path)
    assert code == 0, err
    assert err == ""
    assert out.strip() == (f"OK: witness verified: winnow2 makes {w['mistakes']} mistake{'s' * (w['mistakes'] != 1)} "
                           f"on this sequence (target concept {w['target']} ({target_words(w['class'], w['target'])}))")


def test_verify_margin_witness(capsys, tmp_path):
    w = {"kind": "witness", "learner": {"name": "perceptron", "params": {"d": 2}},
         "class": {"family": "margin-halfspaces", "params": {"d": 2, "gamma": "1/10", "R": 1}},
         "sequence": [{"x": [0, -1], "y": 0}, {"x": [1, 0], "y": 1}, {"x": ["-3/5", "4/5"], "y": 1}],
         "target": {"w": ["3/5", "4/5"]}, "mistakes": 1}
    path = tmp_path / "m.json"
    path.write_text(json.dumps(w))
    code, out, err = run(capsys, "verify", path, "--exact")
    assert code == 0, out + err
    assert out.startswith("OK: witness verified: perceptron makes 1 mistake on this sequence (target w = (0.6, 0.8)")
    w["sequence"].append({"x": [2, 0], "y": 1})
    path.write_text(json.dumps(w))
    code, out, err = run(capsys, "verify", path)
    assert code == 1 and out.startswith("FAILED: example 4 has |x| = 2 > R = 1")


@pytest.mark.parametrize("tamper, message", [
    (lambda w: w.update(mistakes=w["mistakes"] + 1), "claims"),
    (lambda w: w["sequence"][0].update(y=2), "label 2 is not 0 or 1"),
    (lambda w: w["sequence"][0].update(y=0), "target concept"),
    (lambda w: w.update(learner={"name": "winnow9", "params": {}}), "unknown learner 'winnow9'"),
    (lambda w: w.update({"class": {"family": "nope", "params": {}}}), "unknown family 'nope'"),
    (lambda w: w["sequence"][0].update(x=[1, 1, 1, 5]), "not in the domain"),
    (lambda w: w.pop("sequence"), 'missing key "sequence"'),
])
def test_verify_tampered_witness_fails_in_one_line(capsys, witness_file, tamper, message):
    path, w = witness_file
    tamper(w)
    path.write_text(json.dumps(w))
    code, out, err = run(capsys, "verify", path)
    assert code == 1, (out, err)
    assert err == "" and "Traceback" not in out
    lines = out.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("FAILED: ") and message in lines[0], out
    assert lines[0].endswith(f"(witness {path})")


def test_verify_witness_in_a_subprocess(witness_file):
    path, w = witness_file
    w["mistakes"] += 1
    path.write_text(json.dumps(w))
    r = subprocess.run([sys.executable, "-m", "adversary", "verify", str(path)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 1 and r.stderr == ""
    assert r.stdout.startswith("FAILED: claims") and len(r.stdout.strip().splitlines()) == 1


# ------------------------------------------------------------------------------------------ table
def _table(capsys, fmt, *extra):
    code, out, err = run(capsys, "table", "thresholds", "--grid", "N=1..4", "--format", fmt, "--quiet", *extra)
    assert code == 0, err
    return out, err


def test_table_md(capsys):
    out, _ = _table(capsys, "md")
    lines = out.strip().splitlines()
    assert len(lines) == 2 + 4
    assert [c.strip() for c in lines[0].strip("|").split(" | ")] == [
        "N", "\\|C\\|", "\\|X\\|", "Opt", "floor(log2 \\|C\\|)", "VC", "seconds"]
    cells = [c.strip() for c in lines[-1].strip("|").split("|")]
    assert cells[:6] == ["4", "5", "4", "2", "2", "1"]


def test_table_csv(capsys):
    out, _ = _table(capsys, "csv")
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["N", "|C|", "|X|", "Opt", "floor(log2 |C|)", "VC", "seconds"]
    assert [r[3] for r in rows[1:]] == ["1", "1", "2", "2"]  # Opt(thresholds N) = floor(log2(N + 1))


def test_table_json_two_params_and_skips(capsys):
    code, out, err = run(capsys, "table", "monotone-disjunctions", "--grid", "n=2,3", "k=1..3",
                         "--format", "json", "--quiet")
    assert code == 0, err
    data = json.loads(out)
    cells = {(r["params"]["n"], r["params"]["k"]) for r in data["rows"]}
    assert cells == {(2, 1), (2, 2), (3, 1), (3, 2), (3, 3)}
    assert [s["params"]["k"] for s in data["skipped"]] == [3]  # k > n is skipped with a note
    assert "skipped" in err and "n=2 k=3" in err
    for r in data["rows"]:
        assert r["vc_lower"] <= r["lower"] <= r["upper"] <= r["log2_size"]


def test_table_cell_text():
    from adversary.cli import _range_text

    assert (_range_text(3, 3), _range_text(2, 4)) == ("3", "2..4")  # a cell that ran out of time


def test_table_fixed_param_and_jobs(capsys):
    code, out, err = run(capsys, "table", "monotone-disjunctions", "n=3", "--grid", "k=1,2",
                         "--format", "csv", "--jobs", "2")
    assert code == 0, err
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0][:2] == ["k", "n"] and sorted(r[:2] for r in rows[1:]) == [["1", "3"], ["2", "3"]]  # as cells finish


# ------------------------------------------------------------------------------------------ bad input
@pytest.fixture
def bad_files(tmp_path):
    files = {
        "broken.json": '{"matrix": [[0, 1], ',
        "two.json": json.dumps({"matrix": [[0, 2], [1, 0]]}),
        "letters.csv": "0,1\n1,a\n",
        "ragged.json": json.dumps({"matrix": [[0, 1], [1]]}),
        "ragged.csv": "0,1\n1\n",
        "empty.json": json.dumps({"matrix": []}),
        "empty.csv": "",
        "nomatrix.json": json.dumps({"rows": [[0, 1]]}),
        "c.txt": "0,1\n",
        "notree.json": "{not json",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    np.save(tmp_path / "three.npy", np.array([[0, 3], [1, 0]]))
    np.save(tmp_path / "vec.npy", np.array([0, 1, 1]))
    (tmp_path / "tree.json").write_text(json.dumps({"depth": 1, "root": {"point": 0, "0": None, "1": None}}))
    return tmp_path


BAD = {
    # files
    "missing file": ["opt", "--matrix", "{d}/nope.json"],
    "malformed json": ["opt", "--matrix", "{d}/broken.json"],
    "no matrix key": ["opt", "--matrix", "{d}/nomatrix.json"],
    "non-0/1 json": ["opt", "--matrix", "{d}/two.json"],
    "non-0/1 csv": ["opt", "--matrix", "{d}/letters.csv"],
    "non-0/1 npy": ["opt", "--matrix", "{d}/three.npy"],
    "1-d npy": ["opt", "--matrix", "{d}/vec.npy"],
    "ragged json": ["opt", "--matrix", "{d}/ragged.json"],
    "ragged csv": ["opt", "--matrix", "{d}/ragged.csv"],
    "empty json": ["opt", "--matrix", "{d}/empty.json"],
    "empty csv": ["opt", "--matrix", "{d}/empty.csv"],
    "unknown file type": ["opt", "--matrix", "{d}/c.txt"],
    "directory": ["opt", "--matrix", "{d}"],
    # families and parameters
    "unknown family": ["opt", "treshold", "N=7"],
    "unknown parameter": ["opt", "thresholds", "N=7", "M=3"],
    "non-number value": ["opt", "thresholds", "N=x"],
    "no value": ["opt", "thresholds", "N"],
    "empty value": ["opt", "thresholds", "N="],
    "no name": ["opt", "thresholds", "=3"],
    "repeated parameter": ["opt", "thresholds", "N=3", "N=4"],
    "negative size": ["opt", "thresholds", "N=-3"],
    "k > n": ["opt", "monotone-disjunctions", "n=2", "k=5"],
    "parameter first": ["opt", "N=7"],
    "family and matrix": ["opt", "thresholds", "N=7", "--matrix", "{d}/two.json"],
    "neither family nor matrix": ["opt"],
    # options
    "time limit 0": ["opt", "thresholds", "N=7", "--time-limit", "0"],
    "time limit -1": ["opt", "thresholds", "N=7", "--time-limit", "-1"],
    "time limit abc": ["opt", "thresholds", "N=7", "--time-limit", "abc"],
    "time limit nan": ["opt", "thresholds", "N=7", "--time-limit", "nan"],
    "jobs 0": ["opt", "thresholds", "N=7", "--jobs", "0"],
    "jobs -2": ["opt", "thresholds", "N=7", "--jobs", "-2"],
    "jobs abc": ["opt", "thresholds", "N=7", "--jobs", "two"],
    "tree extension": ["opt", "thresholds", "N=7", "--tree", "{d}/t.png"],
    "tree directory missing": ["opt", "thresholds", "N=7", "--tree", "{d}/no/such/t.json"],
    "unknown option": ["opt", "thresholds", "N=7", "--fast"],
    "unknown command": ["solve", "thresholds", "N=7"],
    "no command": [],
    # export
    "export extension": ["export", "thresholds", "N=7", "-o", "{d}/c.csv"],
    "export unknown family": ["export", "nothing", "n=3"],
    # verify
    "verify missing tree": ["verify", "{d}/none.json", "thresholds", "N=7"],
    "verify non-json tree": ["verify", "{d}/notree.json", "thresholds", "N=7"],
    "verify dot": ["verify", "{d}/t.dot", "thresholds", "N=7"],
    "verify no class": ["verify", "{d}/tree.json"],
    "verify both": ["verify", "{d}/tree.json", "thresholds", "N=7", "--matrix", "{d}/two.json"],
    "verify bad class file": ["verify", "{d}/tree.json", "--matrix", "{d}/ragged.json"],
    "verify unknown kind": ["verify", "{d}/kind.json", "thresholds", "N=7"],
    "verify witness with a class": ["verify", "{d}/witness.json", "thresholds", "N=7"],
    "verify witness with a matrix": ["verify", "{d}/witness.json", "--matrix", "{d}/two.json"],
    # learners
    "learners unknown option": ["learners", "--xml"],
    # table
    "grid no range": ["table", "thresholds", "--grid", "N"],
    "grid empty": ["table", "thresholds", "--grid", "N="],
    "grid no name": ["table", "thresholds", "--grid", "=1..3"],
    "grid letters": ["table", "thresholds", "--grid", "N=a..c"],
    "grid open range": ["table", "thresholds", "--grid", "N=1.."],
    "grid reversed": ["table", "thresholds", "--grid", "N=5..2"],
    "grid empty item": ["table", "thresholds", "--grid", "N=1,,3"],
    "grid repeated": ["table", "thresholds", "--grid", "N=1..2", "N=3"],
    "grid and fixed": ["table", "thresholds", "N=3", "--grid", "N=1..2"],
    "grid all impossible": ["table", "thresholds", "--grid", "N=-5..-3"],
    "grid unknown family": ["table", "nothing", "--grid", "n=1..2"],
    "grid unknown param": ["table", "thresholds", "--grid", "M=1..2"],
    "table format": ["table", "thresholds", "--grid", "N=1..2", "--format", "xls"],
    "table jobs": ["table", "thresholds", "--grid", "N=1..2", "--jobs", "0"],
    "table time limit": ["table", "thresholds", "--grid", "N=1..2", "--time-limit", "-1"],
    "table no family": ["table"],
}


@pytest.mark.parametrize("case", list(BAD), ids=list(BAD))
def test_bad_input_is_one_line(capsys, bad_files, case):
    (bad_files / "kind.json").write_text(json.dumps({"kind": "proof"}))
    (bad_files / "witness.json").write_text(json.dumps({"kind": "witness", "sequence": []}))
    argv = [a.format(d=bad_files) for a in BAD[case]]
    code, out, err = run(capsys, *argv)
    assert_usage_error(code, out, err)


def test_error_messages_say_what_to_change(capsys, bad_files):
    d = bad_files
    assert "0 or 1" in assert_usage_error(*run(capsys, "opt", "--matrix", d / "two.json"))
    assert "ragged" in assert_usage_error(*run(capsys, "opt", "--matrix", d / "ragged.json"))
    assert "does not exist" in assert_usage_error(*run(capsys, "opt", "--matrix", d / "nope.json"))
    assert "thresholds" in assert_usage_error(*run(capsys, "opt", "treshold", "N=7"))  # did you mean
    assert "N=8" in assert_usage_error(*run(capsys, "opt", "thresholds", "N"))
    assert "not both" in assert_usage_error(*run(capsys, "opt", "thresholds", "N=7", "--matrix", d / "two.json"))
    assert "2..5" in assert_usage_error(*run(capsys, "table", "thresholds", "--grid", "N=5..2"))
    assert "time-limit" in assert_usage_error(*run(capsys, "opt", "thresholds", "N=7", "--time-limit", "0"))


# ------------------------------------------------------------------------------------------ subprocesses
def test_installed_executable(tmp_path):
    exe = executable()
    if exe is None:
        pytest.skip("the littlestone console script is not installed")
    r = subprocess.run([exe, "opt", "thresholds", "N=7", "--json"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["opt"] == 3
    r = subprocess.run([exe, "opt", "thresholds", "N=x"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and r.stdout == ""
    assert len(r.stderr.strip().splitlines()) == 1 and r.stderr.startswith("littlestone: error: ")
    assert "Traceback" not in r.stderr


def test_python_m_adversary():
    r = subprocess.run([sys.executable, "-m", "adversary", "export", "thresholds", "N=2"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["matrix"] == [[1, 1], [0, 1], [0, 0]]


@pytest.mark.skipif(os.name != "posix", reason="sends SIGINT")
def test_ctrl_c_prints_bounds_writes_tree_exits_130(tmp_path, hard_npy):
    tree = tmp_path / "t.json"
    # A background process may inherit SIGINT ignored; restore Python's handler (what a terminal gives).
    code = ("import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
            "from adversary.cli import main; sys.exit(main())")
    p = subprocess.Popen([sys.executable, "-c", code, "opt", "--matrix", str(hard_npy), "--json", "--tree", str(tree)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(2.0)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    if p.returncode == 0:
        pytest.skip("the solver finished before the interrupt")
    assert p.returncode == 130, err
    assert "Traceback" not in err
    r = json.loads(out)
    assert r["stopped"] == "interrupted" and r["lower"] <= r["upper"]
    assert json.loads(tree.read_text())["depth"] == r["lower"]


# ------------------------------------------------------------------------------------------ attack
def test_attack_human_output(capsys, tmp_path):
    wfile = tmp_path / "w.json"
    code, out, err = run(capsys, "attack", "winnow2", "--class", "monotone-disjunctions", "n=4", "k=2",
                         "--strategy", "exact", "--witness", wfile, "--quiet")
    assert code == 0, err
    assert field(out, "learner") == "winnow2 n=4"
    assert field(out, "mistakes") == "7"
    assert field(out, "bound").startswith("20  (2 + 3r(1 + lg n)") and cite("15-859B") in field(out, "bound")
    assert field(out, "Opt(C)") == "3"
    assert field(out, "verdict") == "below: 7 mistakes < the bound 20"
    assert field(out, "strategy").startswith("exact (the exact worst case")
    lines = [l for l in out.splitlines() if l.lstrip()[:1].isdigit() and " -> " in l]
    assert len(lines) == 7 and all("*  predicted" in l for l in lines)
    assert code == main(["verify", str(wfile)]) == 0
    assert "witness verified: winnow2 makes 7 mistakes" in capsys.readouterr().out


def test_attack_json(capsys):
    code, out, err = run(capsys, "attack", "halving", "--class", "thresholds", "N=7", "--json")
    assert code == 0, err
    r = json.loads(out)
    assert {"mistakes", "bound", "verdict", "opt", "witness"} <= set(r)
    assert (r["mistakes"], r["opt"], r["verdict"], r["strategy"], r["exact"]) == (3, 3, "tight", "exact", True)
    assert r["bound"] == {"value": 3, "formula": "floor(log2 |C|)", "source": cite("OnlineAlgs", 'slide "HAL - halving algorithm"')}
    from adversary.referee import verify_witness

    assert verify_witness(r["witness"]).ok


def test_attack_unbounded_perceptron_and_verify(capsys, tmp_path):
    wfile = tmp_path / "cycle.json"
    code, out, err = run(capsys, "attack", "perceptron", "--class", "monotone-disjunctions", "n=2", "k=1",
                         "--witness", wfile, "--quiet")
    assert code == 0, err
    assert field(out, "verdict").startswith("unbounded: no finite mistake bound")
    assert field(out, "bound").startswith("none  (no bound proven for perceptron")
    assert "(0, 0) -> 0  *  predicted 1" in out
    code, out, err = run(capsys, "verify", wfile)
    assert code == 0 and "can be repeated for ever" in out
    w = json.loads(wfile.read_text())
    w["sequence"].insert(0, {"x": [1, 0], "y": 0})  # w becomes (-1, 0) first: the cycle no longer starts at 0
    w["mistakes"] = 2
    wfile.write_text(json.dumps(w))
    code, out, err = run(capsys, "verify", wfile)
    assert code == 1 and out.startswith("FAILED: cycle:")


def test_attack_matrix_file(capsys, tmp_path):
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"matrix": [[0, 0, 0], [0, 0, 1], [0, 1, 1], [1, 1, 1]]}))
    code, out, err = run(capsys, "attack", "con", "--matrix", path, "--json")
    assert code == 0, err
    r = json.loads(out)
    assert r["mistakes"] == 3 and r["verdict"] == "tight" and r["witness"]["class"]["matrix"]


def test_attack_margin_halfspaces_parses(capsys):
    import importlib.util

    code, out, err = run(capsys, "attack", "perceptron", "--class", "margin-halfspaces", "d=2", "gamma=0.5",
                         "--time-limit", "3", "--json", "--quiet")
    if importlib.util.find_spec("adversary.strategies.geometric") is None:
        assert_usage_error(code, out, err, contains="geometric")
        return
    assert code == 0, err
    r = json.loads(out)
    assert r["class"] == {"family": "margin-halfspaces", "params": {"d": 2, "gamma": 0.5, "R": 1}}
    assert r["bound"]["value"] == 4 and r["learner"]["params"]["d"] == 2 and r["opt"] is None


@pytest.mark.parametrize("argv,needle", [
    (["attack", "winnow3", "--class", "thresholds", "N=3"], "unknown learner 'winnow3'"),
    (["attack", "halving", "--class", "thresholds", "N=3", "--strategy", "brute"], "unknown strategy 'brute'"),
    (["attack", "winnow2", "n=4", "--class", "monotone-disjunctions", "n=3"], "give n=3"),
    (["attack", "winnow2", "n", "--class", "monotone-disjunctions", "n=3"], "not name=value"),
    (["attack", "halving", "--class", "thresholds", "N=0"], "N"),
    (["attack", "halving", "--class", "threshold", "N=3"], "did you mean 'thresholds'"),
    (["attack", "halving"], "give a class"),
    (["attack", "perceptron", "--class", "margin-halfspaces", "d=2", "gamma=-1"], "gamma must be > 0"),
    (["attack", "perceptron", "--class", "margin-halfspaces", "d=2", "gamma=0.5", "--strategy", "exact"], "finite class"),
    (["attack", "halving", "--class", "margin-halfspaces", "d=2", "gamma=0.5"], "needs a finite concept class"),
    (["attack", "randomized-halving", "--class", "thresholds", "N=3", "--strategy", "exact"], "deterministic learner"),
    (["attack", "halving", "--class", "thresholds", "N=3", "--time-limit", "0"], "positive number of seconds"),
    (["attack", "halving", "--class", "thresholds", "N=3", "--witness", "w.txt"], "extension"),
])
def test_attack_errors_are_one_line(capsys, argv, needle):
    code, out, err = run(capsys, *argv)
    assert_usage_error(code, out, err, contains=needle)


def test_attack_time_limit_reports_best_so_far(capsys):
    code, out, err = run(capsys, "attack", "winnow2", "--class", "monotone-disjunctions", "n=12", "k=3",
                         "--strategy", "exact", "--time-limit", "1", "--json", "--quiet")
    assert code == 0, err
    r = json.loads(out)
    assert r["stats"]["stopped"] == "time limit" and not r["exact"] and r["mistakes"] >= 1


@pytest.mark.skipif(os.name != "posix", reason="sends SIGINT")
def test_attack_ctrl_c_prints_the_best_verified_sequence(tmp_path):
    code = ("import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
            "from adversary.cli import main; sys.exit(main())")
    p = subprocess.Popen([sys.executable, "-c", code, "attack", "winnow2", "--class", "monotone-disjunctions", "n=12",
                          "k=3", "--strategy", "exact", "--json"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(2.5)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130, err
    assert "Traceback" not in err
    r = json.loads(out)
    assert r["stats"]["stopped"] == "interrupted" and r["mistakes"] >= 1
    from adversary.referee import verify_witness

    assert verify_witness(r["witness"]).ok


def test_attack_time_limit_holds_for_geometric_in_high_dimension():
    # d = 1000, gamma = 0.01: 10,000 moves of 1,000 coordinates each; it used to give no output in 100 s.
    t0 = time.monotonic()
    r = subprocess.run([sys.executable, "-m", "adversary", "attack", "perceptron", "--class", "margin-halfspaces",
                        "d=1000", "gamma=0.01", "--time-limit", "3", "--json", "--quiet"],
                       capture_output=True, text=True, timeout=60)
    wall = time.monotonic() - t0
    assert r.returncode == 0, r.stderr
    assert wall < 10, wall
    out = json.loads(r.stdout)
    assert out["strategy"] == "geometric" and out["stats"]["stopped"] == "time limit" and not out["exact"]
    assert 1 <= out["mistakes"] < 10_000 and out["verdict"] == "below"
    from adversary.referee import verify_witness

    v = verify_witness(out["witness"])
    assert v.ok and v.mistakes == out["mistakes"], v.message


# ------------------------------------------------------------------------------------------ no silent zero
@pytest.mark.parametrize("argv, named, needle", [
    # Winnow reads 0/1 vectors, not the points (1,), (2,), ... of thresholds
    (["attack", "winnow2", "--class", "thresholds", "N=5"], ["--strategy", "exact"], "cannot read the points"),
    # a learner of another dimension than the class
    (["attack", "perceptron", "d=4", "--class", "margin-halfspaces", "d=3", "gamma=0.5"], ["--strategy", "geometric"],
     "give d=3"),
    # gamma > R: no point has the margin
    (["attack", "perceptron", "--class", "margin-halfspaces", "d=3", "gamma=2", "R=1"], ["--strategy", "exact"],
     "is empty"),
    (["attack", "perceptron", "--class", "margin-halfspaces", "d=3", "gamma=2", "R=1"], ["--strategy", "geometric"],
     "is empty"),
])
def test_attack_auto_fails_as_the_named_strategy_does(capsys, argv, named, needle):
    code, out, err = run(capsys, *argv, "--quiet", "--time-limit", "5")
    line = assert_usage_error(code, out, err, contains=needle)
    code, out, err = run(capsys, *argv, *named, "--quiet", "--time-limit", "5")
    assert assert_usage_error(code, out, err) == line


def test_attack_auto_error_in_a_subprocess():
    r = subprocess.run([sys.executable, "-m", "adversary", "attack", "winnow2", "--class", "thresholds", "N=5"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and r.stdout == "" and "Traceback" not in r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("littlestone: error: winnow2 cannot read the points"), r.stderr


def test_attack_help_states_the_default_time_limit(capsys):
    from adversary.attack import AUTO_SECONDS

    code, out, err = run(capsys, "attack", "--help")
    assert code == 0
    text = " ".join(out.split())
    assert f"default: {AUTO_SECONDS:g} s for auto, no limit for a strategy named with --strategy" in text
