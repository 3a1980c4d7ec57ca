"""``littlestone opt`` on thresholds, intervals and rectangles too large for a matrix (the states engine), and
``littlestone verify`` on what it writes, against the family's own labels."""

import json
from pathlib import Path

import pytest

from .checks import assert_usage_error, run


def _verify(capsys, path, *target):
    code, out, err = run(capsys, "verify", path, *target)
    return code, out.strip()


@pytest.mark.parametrize("target, value", [(("thresholds", "N=100000"), 16), (("intervals", "N=1000"), 18)])
def test_opt_beyond_the_matrix_with_certificates(capsys, tmp_path, target, value):
    tree, proof = tmp_path / "tree.json", tmp_path / "proof.json"
    code, out, err = run(capsys, "opt", *target, "--json", "--tree", tree, "--proof", proof, "--time-limit", "60")
    assert code == 0, err
    r = json.loads(out)
    assert (r["opt"], r["lower"], r["upper"], r["engine"], r["served"]) == (value, value, value, "states", False)
    assert r["concepts"] == {"thresholds": 100001, "intervals": 500501}[target[0]]
    label = " ".join(target) + (" empty=1" if target[0] == "intervals" else "")  # the defaults filled in
    assert _verify(capsys, tree, *target) == (0, f"OK: Opt(C) >= {value} for {label} (a mistake tree of depth {value})")
    code, text = _verify(capsys, proof, *target)
    assert code == 0 and text.startswith(f"OK: Opt(C) <= {value} for {label} (")


def test_state_certificate_verifies_and_tampered_fails(capsys, tmp_path):
    proof = tmp_path / "proof.json"
    code, out, err = run(capsys, "opt", "intervals", "N=3000", "--proof", proof, "--quiet")
    assert code == 0 and "Opt(C):          21" in out and "states searched" in out
    data = json.loads(proof.read_text())
    assert data["kind"] == "upper-bound-states"
    code, text = _verify(capsys, proof, "intervals", "N=3000")
    assert code == 0 and text.startswith("OK: Opt(C) <= 21 for intervals N=3000 empty=1 (an upper-bound certificate over states")
    data["entries"] = data["entries"][:-1]
    proof.write_text(json.dumps(data))
    code, text = _verify(capsys, proof, "intervals", "N=3000")
    assert code == 1 and text.startswith("FAILED: ") and len(text.splitlines()) == 1
    code, text = _verify(capsys, proof, "intervals", "N=2999")
    assert code == 1 and text.startswith("FAILED: this certificate was made for intervals N=3000 empty=1 (4501501 "
                                         "concepts, 3000 points), not intervals N=2999 empty=1")
    del data["made_for"]  # a file from before certificates recorded their class: the checker's own test of the class
    proof.write_text(json.dumps(data))
    code, text = _verify(capsys, proof, "intervals", "N=2999")
    assert code == 1 and "the class given is intervals N=2999" in text


def test_tampered_tree_fails(capsys, tmp_path):
    tree = tmp_path / "tree.json"
    assert run(capsys, "opt", "thresholds", "N=100000", "--tree", tree, "--quiet")[0] == 0
    data = json.loads(tree.read_text())
    data["root"]["0"]["point"] = 0  # every threshold left after x=...=0 labels point 1 with 0
    tree.write_text(json.dumps(data))
    code, text = _verify(capsys, tree, "thresholds", "N=100000")
    assert code == 1 and text.startswith("FAILED: ") and "realised by no concept" in text


def test_engine_states_on_a_small_class(capsys):
    code, out, err = run(capsys, "opt", "intervals", "N=20", "--engine", "states", "--json")
    assert code == 0 and json.loads(out)["opt"] == 7 and json.loads(out)["engine"] == "states"


@pytest.mark.parametrize("argv, word", [
    (["opt", "intervals", "N=1000", "--randomized"], "matrix cells"),
    (["opt", "thresholds", "N=100000", "--engine", "search"], "matrix cells"),
    (["opt", "intervals", "N=20", "--engine", "states", "--errors", "1"], "Opt(C) only"),
    (["opt", "intervals", "N=0", "--engine", "states"], "N must be at least 1"),
    (["opt", "rectangles", "N=33", "M=2"], "unknown parameter"),
])
def test_bad_input_is_one_line(capsys, argv, word):
    assert_usage_error(*run(capsys, *argv), contains=word)


def test_matrix_with_engine_states_is_one_line(capsys, tmp_path):
    m = tmp_path / "m.json"
    m.write_text(json.dumps({"matrix": [[0, 1], [1, 0]]}))
    assert_usage_error(*run(capsys, "opt", "--matrix", m, "--engine", "states"), contains="made by its family")


def test_rectangles_with_engine_states(capsys, tmp_path):
    tree, proof = tmp_path / "tree.json", tmp_path / "proof.json"
    code, out, err = run(capsys, "opt", "rectangles", "N=12", "--engine", "states", "--tree", tree, "--proof", proof)
    assert code == 0 and "Opt(C):          11" in out
    assert _verify(capsys, tree, "rectangles", "N=12")[0] == 0
    assert _verify(capsys, proof, "rectangles", "N=12") == (0, "OK: Opt(C) <= 11 for rectangles N=12 (an upper-bound "
                                                              "certificate of 1 entry)")


@pytest.mark.slow
def test_rectangles_32(capsys, tmp_path):
    tree, proof = tmp_path / "tree.json", tmp_path / "proof.json"
    code, out, err = run(capsys, "opt", "rectangles", "N=32", "--json", "--tree", tree, "--proof", proof)
    r = json.loads(out)
    assert code == 0 and (r["opt"], r["concepts"], r["log2_size"], r["engine"]) == (17, 278785, 18, "states")
    assert _verify(capsys, tree, "rectangles", "N=32") == (0, "OK: Opt(C) >= 17 for rectangles N=32 (a mistake tree of "
                                                             "depth 17)")
    assert _verify(capsys, proof, "rectangles", "N=32")[0] == 0
    data = json.loads(proof.read_text())
    data["bound"] = data["entries"][0]["bound"] = 16
    proof.write_text(json.dumps(data))
    code, text = _verify(capsys, proof, "rectangles", "N=32")
    assert code == 1 and text.startswith("FAILED: ") and len(text.splitlines()) == 1


def test_the_states_engine_writes_its_result_to_the_store(capsys, tmp_path):
    """A states-engine run (rectangles) writes its bounds and mistake tree to the store, and scripts/results.py
    lists the row: what a long run proves is not lost."""
    import importlib.util

    from adversary.store import Store

    store = tmp_path / "s.db"
    code, out, err = run(capsys, "opt", "rectangles", "N=8", "--engine", "states", "--store", store, "--quiet")
    assert code == 0, err
    with Store(store, readonly=True) as S:
        rows = list(S.rows(kind="opt"))
    assert [(r.family, r.params, r.value, r.lower_cert["depth"]) for r in rows] == [("rectangles", {"N": 8}, "9", 9)]
    spec = importlib.util.spec_from_file_location("results", Path(__file__).resolve().parents[3] / "scripts" / "results.py")
    results = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(results)
    assert results.main(["--store", str(store)]) == 0
    assert "| rectangles N=8 | 9 |" in capsys.readouterr().out


@pytest.mark.slow
def test_halfspaces_on_six_variables(capsys, tmp_path):
    """halfspaces n=6 (15,028,134 concepts, no matrix): the packed engine stopped by its time limit prints proven
    bounds (exit 3) under Halving's 23, its tree and certificate verify against the class, and scripts/results.py
    --check re-checks the stored row against the class without a matrix."""
    import importlib.util

    tree, proof, store = tmp_path / "tree.json", tmp_path / "proof.json", tmp_path / "s.db"
    code, out, err = run(capsys, "opt", "halfspaces", "n=6", "--json", "--tree", tree, "--proof", proof,
                         "--time-limit", "2", "--store", store)
    r = json.loads(out)
    assert (r["engine"], r["concepts"], r["points"], r["upper"]) == ("packed", 15028134, 64, 23)
    assert code == 3 and r["opt"] is None and 0 <= r["lower"] < 23 and r["stopped"] == "time limit"
    d = r["lower"]
    assert _verify(capsys, tree, "halfspaces", "n=6") == (0, f"OK: Opt(C) >= {d} for halfspaces n=6 (a mistake tree of "
                                                              f"depth {d})")
    code, text = _verify(capsys, proof, "halfspaces", "n=6")
    assert code == 0 and text.startswith("OK: Opt(C) <= 23 for halfspaces n=6")
    spec = importlib.util.spec_from_file_location("results", Path(__file__).resolve().parents[3] / "scripts" / "results.py")
    results = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(results)
    assert results.main(["--store", str(store), "--check"]) == 0
    row = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| halfspaces n=6 |")]
    assert len(row) == 1 and row[0].startswith(f"| halfspaces n=6 | {d}..23 |") and row[0].endswith("| checked |")
    assert_usage_error(*run(capsys, "opt", "halfspaces", "n=6", "--randomized", "--no-store"), contains="at most 5")


def test_the_packed_engine_on_a_listed_class(capsys, tmp_path):
    """`--engine packed` on decision lists n=4 (a listed class over 16 points): the exact value, the cube's group
    with the complement in the plain output, and both certificates verify; a class over more than 64 points or a
    game gets a one-line error."""
    tree, proof = tmp_path / "t.json", tmp_path / "p.json"
    code, out, err = run(capsys, "opt", "decision-lists", "n=4", "--engine", "packed", "--tree", tree, "--proof", proof,
                         "--no-store")
    assert code == 0, err
    fields = dict(line.split(":", 1) for line in out.splitlines() if ":" in line)
    assert fields["Opt(C)"].strip() == "9"
    assert fields["symmetry"].strip().startswith("group of order 768 (the cube's signed permutations and the complement")
    assert json.loads(proof.read_text())["rule"] == "packed"  # (littlestone-proof/2; version 1 said "form": "packed")
    assert _verify(capsys, tree, "decision-lists", "n=4") == (0, "OK: Opt(C) >= 9 for decision-lists n=4 (a mistake "
                                                                 "tree of depth 9)")
    code, text = _verify(capsys, proof, "decision-lists", "n=4")
    assert code == 0 and text.startswith("OK: Opt(C) <= 9 for decision-lists n=4")
    assert_usage_error(*run(capsys, "opt", "thresholds", "N=70", "--engine", "packed", "--no-store"),
                       contains="at most 64 points")
    assert_usage_error(*run(capsys, "opt", "decision-lists", "n=3", "--engine", "packed", "--randomized", "--no-store"),
                       contains="packed engine computes Opt(C)")
