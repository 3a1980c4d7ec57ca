"""``littlestone verify``: mistake trees, upper-bound certificates and witnesses re-checked from scratch;
tampered or nested-too-deep files fail in one line."""

import json
import subprocess
import sys

import pytest

from adversary.cli import main
from adversary.referee import target_words

from .checks import assert_one_clean_line, assert_usage_error, nested, run, run_cli


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


def test_tampered_proof_fails_in_one_line(tmp_path, capsys):
    proof = tmp_path / "proof.json"
    assert run(capsys, *["opt", "intervals", "N=100", "--proof", str(proof), "--quiet"])[0] == 0
    data = json.loads(proof.read_text())
    data["bound"] = 10
    for e in data["entries"]:
        e["bound"] = max(0, e["bound"] - 1)
    proof.write_text(json.dumps(data))
    code, out, err = run(capsys, *["verify", str(proof), "intervals", "N=100"])
    assert code == 1 and out.startswith("FAILED:") and len(out.strip().splitlines()) == 1


# ------------------------------------------------------------------------------------------ witnesses
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
    assert out.strip() == (f"OK: winnow2 makes {w['mistakes']} mistake{'s' * (w['mistakes'] != 1)} "
                           f"on 6 examples of monotone-disjunctions n=4 k=2 "
                           f"(target concept {w['target']} ({target_words(w['class'], w['target'])}))")


def test_verify_margin_witness(capsys, tmp_path):
    w = {"kind": "witness", "learner": {"name": "perceptron", "params": {"d": 2}},
         "class": {"family": "margin-halfspaces", "params": {"d": 2, "gamma": "1/10", "R": 1}},
         "sequence": [{"x": [0, -1], "y": 0}, {"x": [1, 0], "y": 1}, {"x": ["-3/5", "4/5"], "y": 1}],
         "target": {"w": ["3/5", "4/5"]}, "mistakes": 1}
    path = tmp_path / "m.json"
    path.write_text(json.dumps(w))
    code, out, err = run(capsys, "verify", path, "--exact")
    assert code == 0, out + err
    assert out.startswith("OK: perceptron makes 1 mistake on 3 examples of margin-halfspaces d=2 gamma=0.1 R=1 "
                          "(target w = (0.6, 0.8)")
    assert "records no class fingerprint" in err  # written by hand, without "made_for": checked, with a note
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


# ------------------------------------------------------------------------------------------ files at their limits
def deep_tree(n: int) -> str:
    return f'{{"depth": {n}, "root": ' + '{"point": 0, "0": ' * n + "null" + ', "1": null}' * n + "}"


def deep_proof(n: int) -> str:
    return '{"kind": "upper-bound", "bound": 2, "entries": [{"path": [' + nested(n) + '], "bound": 1}]}'


def deep_witness(n: int) -> str:
    return ('{"kind": "witness", "learner": {"name": "halving", "params": {}}, '
            '"class": {"family": "thresholds", "params": {"N": 7}}, '
            '"sequence": [{"x": ' + nested(n) + ', "y": 0}], "mistakes": 0}')


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


def test_verify_a_deep_but_readable_tree(tmp_path):
    """Nested 151 levels: read, then refused as deeper than any tree of an 8-concept class."""
    p = tmp_path / "t.json"
    p.write_text(deep_tree(150))
    line = assert_one_clean_line(run_cli("verify", p, "thresholds", "N=7"))
    assert line.startswith("FAILED: the tree claims depth 150")


def test_verify_an_unknown_huge_kind_in_a_short_line(tmp_path, capsys):
    p = tmp_path / "k.json"
    p.write_text('{"kind": "' + "x" * 100000 + '"}')
    assert main(["verify", str(p)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1 and len(err) < 300 and "has kind 'xxx" in err


BAD = {
    "verify missing tree": ["verify", "{d}/none.json", "thresholds", "N=7"],
    "verify non-json tree": ["verify", "{d}/notree.json", "thresholds", "N=7"],
    "verify dot": ["verify", "{d}/t.dot", "thresholds", "N=7"],
    "verify no class": ["verify", "{d}/tree.json"],
    "verify both": ["verify", "{d}/tree.json", "thresholds", "N=7", "--matrix", "{d}/two.json"],
    "verify bad class file": ["verify", "{d}/tree.json", "--matrix", "{d}/ragged.json"],
    "verify unknown kind": ["verify", "{d}/kind.json", "thresholds", "N=7"],
    "verify witness with a class": ["verify", "{d}/witness.json", "thresholds", "N=7"],
    "verify witness with a matrix": ["verify", "{d}/witness.json", "--matrix", "{d}/two.json"],
}


@pytest.mark.parametrize("case", list(BAD), ids=list(BAD))
def test_bad_input_is_one_line(capsys, bad_files, case):
    assert_usage_error(*run(capsys, *[a.format(d=bad_files) for a in BAD[case]]))
