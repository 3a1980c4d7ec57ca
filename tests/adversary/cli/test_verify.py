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
    kinds = w["mistakes_by_kind"]
    first, *lemmas = out.strip().splitlines()
    assert first == (f"OK: winnow2 makes {w['mistakes']} mistake{'s' * (w['mistakes'] != 1)} "
                     f"on 6 examples of monotone-disjunctions n=4 k=2 "
                     f"(target concept {w['target']} ({target_words(w['class'], w['target'])})); "
                     f"u = {kinds['false_negative']} false negatives, v = {kinds['false_positive']} false positives")
    assert [line.split(":")[0].strip() for line in lemmas] == ["lemma u <= r(1 + lg n) (mistakes on positive examples)",
                                                                "lemma v <= 2 + 2u (mistakes on negative examples"]


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


# ------------------------------------------------------------------------------------------ the class a certificate is for
# (issue 18) Every certificate records the class it was made for ("made_for": the class's fingerprint); verify
# against another class says so in one line and exits 1, even where the certificate would also hold there.
def _made_for_failure(out: str, made: str, given: str) -> None:
    assert len(out.strip().splitlines()) == 1, out
    assert out.startswith("FAILED: this ") and f" was made for {made}" in out and f", not {given}" in out, out


def _with_extra_concept(tmp_path, *family) -> str:
    """A class file: the family's class and one concept more (a superclass, where its trees still hold)."""
    from solvers.classes.families import make

    C = make(family[0], **{k: int(v) for k, v in (p.split("=") for p in family[1:])})
    rows = C.matrix.astype(int).tolist()
    extra = next(r for r in ([(i >> j) & 1 for j in range(C.n_points)] for i in range(2 ** C.n_points)) if r not in rows)
    path = tmp_path / "bigger.json"
    path.write_text(json.dumps({"matrix": rows + [extra], "points": [list(p) for p in C.points]}))
    return str(path)


@pytest.mark.parametrize("game", [[], ["--errors", "1"], ["--randomized"]])
def test_a_tree_verified_against_another_class_fails(capsys, tmp_path, game):
    tree = tmp_path / "t.json"
    assert run(capsys, "opt", "thresholds", "N=7", *game, "--tree", tree, "--no-store")[0] == 0
    bigger = _with_extra_concept(tmp_path, "thresholds", "N=7")
    code, out, err = run(capsys, "verify", tree, "--matrix", bigger)  # the tree holds there too, but is not for it
    assert code == 1, out + err
    _made_for_failure(out, "thresholds N=7 (8 concepts, 7 points)", f"matrix {bigger} (9 concepts, 7 points)")


@pytest.mark.parametrize("game", [[], ["--errors", "1"], ["--randomized"], ["--horizon", "2"]])
def test_an_upper_bound_certificate_verified_against_another_class_fails(capsys, tmp_path, game):
    """The issue's case: a certificate of a larger class, whose bound the Halving bound gives on a smaller
    one, passed as "OK (0 entries)"."""
    proof = tmp_path / "p.json"
    assert run(capsys, "opt", "thresholds", "N=15", *game, "--proof", proof, "--no-store")[0] == 0
    code, out, err = run(capsys, "verify", proof, "thresholds", "N=7")
    assert code == 1, out + err
    _made_for_failure(out, "thresholds N=15 (16 concepts, 15 points)", "thresholds N=7 (8 concepts, 7 points)")


def test_an_older_upper_bound_certificate_is_matched_by_its_size(capsys, tmp_path):
    """A file from before "made_for": checked as before, with a note; one whose "concepts" says another class
    fails (a 58-concept class's certificate against thresholds N=7 passed as "OK (0 entries)")."""
    proof = tmp_path / "p.json"
    proof.write_text(json.dumps({"kind": "upper-bound", "bound": 5, "concepts": 58, "entries": []}))
    code, out, err = run(capsys, "verify", proof, "thresholds", "N=7")
    assert code == 1 and out.strip() == f"FAILED: this certificate was made for a class of 58 concepts, not thresholds " \
                                        f"N=7 (8 concepts, 7 points) (certificate {proof})"
    proof.write_text(json.dumps({"kind": "upper-bound", "bound": 3, "entries": []}))
    code, out, err = run(capsys, "verify", proof, "thresholds", "N=7")
    assert code == 0 and out.strip() == "OK: Opt(C) <= 3 for thresholds N=7 (|C| = 8 < 2^4, so the Halving bound alone " \
                                        "proves it)"
    assert "records no class fingerprint" in err and "could not be matched" in err


@pytest.mark.parametrize("target, other", [
    (["rectangles", "N=12", "--engine", "states"], ["rectangles", "N=11"]),  # entries, a state search's
    (["intervals", "N=400", "--engine", "states"], ["intervals", "N=399"]),  # a certificate over states
    (["monotone-disjunctions", "n=16", "k=3"], ["monotone-disjunctions", "n=16", "k=2"]),  # renaming symmetry
    (["monotone-conjunctions", "n=5"], ["monotone-disjunctions", "n=5"]),  # entries of the search, same sizes
])
def test_every_kind_of_certificate_names_its_class(capsys, tmp_path, target, other):
    tree, proof = tmp_path / "t.json", tmp_path / "p.json"
    code, out, err = run(capsys, "opt", *target, "--tree", tree, "--proof", proof, "--no-store", "--quiet")
    assert code == 0, err
    made = " ".join(t for t in target if not t.startswith("--") and t != "states")
    for path in (tree, proof):
        assert json.loads(path.read_text())["made_for"]["fingerprint"]
        code, out, err = run(capsys, "verify", path, *other)
        assert code == 1, out + err
        _made_for_failure(out, made, " ".join(other))
        code, out, err = run(capsys, "verify", path, *[t for t in target if t not in ("--engine", "states")])
        assert code == 0 and out.startswith(f"OK: Opt(C) {'>=' if path == tree else '<='} ") and err == "", out + err


def test_a_certificate_verifies_on_any_listing_of_its_class(capsys, tmp_path):
    """The fingerprint is of the concepts as a set: the exported class, its rows in another order, match."""
    tree, proof, exported = tmp_path / "t.json", tmp_path / "p.json", tmp_path / "c.json"
    assert run(capsys, "opt", "thresholds", "N=7", "--tree", tree, "--proof", proof, "--no-store")[0] == 0
    assert run(capsys, "export", "thresholds", "N=7", "-o", exported)[0] == 0
    data = json.loads(exported.read_text())
    data["matrix"] = data["matrix"][::-1]
    shuffled = tmp_path / "shuffled.json"
    shuffled.write_text(json.dumps(data))
    for path in (tree, proof):
        for cls in (exported, shuffled):
            code, out, err = run(capsys, "verify", path, "--matrix", cls)
            assert code == 0 and out.startswith("OK: Opt(C) ") and f"for matrix {cls} (" in out and err == "", out + err


def test_a_witness_whose_class_was_changed_fails(capsys, tmp_path):
    """A witness replays on the class it names; with that class changed by hand (thresholds N=15 to N=16) it
    no longer matches the fingerprint it records, and says so before any replay."""
    w = tmp_path / "w.json"
    assert run(capsys, "attack", "halving", "--class", "thresholds", "N=15", "--strategy", "exact", "--witness", w,
               "--no-store", "--quiet")[0] == 0
    data = json.loads(w.read_text())
    assert data["made_for"]["fingerprint"]
    code, out, err = run(capsys, "verify", w)
    assert code == 0 and out.startswith(f"OK: halving makes {data['mistakes']} mistakes on ") and err == "", out + err
    data["class"]["params"]["N"] = 16
    w.write_text(json.dumps(data))
    code, out, err = run(capsys, "verify", w)
    assert code == 1, out + err
    _made_for_failure(out, "thresholds N=15 (16 concepts, 15 points)", "thresholds N=16 (17 concepts, 16 points)")
    data["class"]["params"]["N"] = 15
    del data["made_for"]  # a witness from before: replayed on the class it names, with a note
    w.write_text(json.dumps(data))
    code, out, err = run(capsys, "verify", w)
    assert code == 0 and "thresholds N=15" in out and "records no class fingerprint" in err, out + err


# ------------------------------------------------------------------------------------------ a class over no points
@pytest.mark.parametrize("matrix", [[[]], [[], []]])
def test_a_class_over_no_points(capsys, tmp_path, matrix):
    """One concept (after merging duplicates), nothing to ask: Opt 0, with certificates that verify, and an
    attack that finds the learner's 0 mistakes (issue 18)."""
    cls, tree, proof, w = tmp_path / "empty.json", tmp_path / "t.json", tmp_path / "p.json", tmp_path / "w.json"
    cls.write_text(json.dumps({"matrix": matrix}))
    code, out, err = run(capsys, "opt", "--matrix", cls, "--json", "--tree", tree, "--proof", proof, "--no-store")
    assert code == 0, err
    r = json.loads(out)
    assert (r["opt"], r["lower"], r["upper"], r["concepts"], r["points"]) == (0, 0, 0, 1, 0)
    for path, claim in ((tree, ">= 0"), (proof, "<= 0")):
        code, out, err = run(capsys, "verify", path, "--matrix", cls)
        assert code == 0 and out.startswith(f"OK: Opt(C) {claim} for matrix {cls}"), out + err
    code, out, err = run(capsys, "attack", "halving", "--matrix", cls, "--witness", w, "--json", "--no-store", "--quiet")
    assert code == 0 and json.loads(out)["mistakes"] == 0, out + err
    code, out, err = run(capsys, "verify", w)
    assert code == 0 and out.startswith("OK: halving makes 0 mistakes on 0 examples"), out + err


# ------------------------------------------------------------------------------------------ every claim in a file checked
# (issue 39) verify derives every claim of a witness again (mistakes, kinds, bound, verdict, Opt, made_for) or refuses
# it; a witness with any of them changed by hand passed as "OK".
@pytest.fixture(scope="module")
def attack_witness(tmp_path_factory):
    path = tmp_path_factory.mktemp("w") / "w.json"
    code = main(["attack", "winnow2", "--class", "monotone-disjunctions", "n=5", "k=2", "--strategy", "exact",
                 "--witness", str(path), "--no-store", "--quiet"])
    assert code == 0
    return json.loads(path.read_text())


def test_an_attack_witness_verifies_with_its_claims_derived_again(capsys, tmp_path, attack_witness):
    path = tmp_path / "w.json"
    path.write_text(json.dumps(attack_witness))
    code, out, err = run(capsys, "verify", path)
    assert code == 0 and out.startswith("OK: winnow2 makes 10 mistakes on "), out + err
    assert "  bound 21.9316 (2 + 3r(1 + lg n)" in out and "derived again from winnow2" in out, out
    assert "  verdict below: 10 mistakes < the bound 21.9316" in out and "  Opt(C) = 3, computed again" in out, out


TAMPERED_CLAIMS = {
    "verdict violates": (lambda w: w.update(verdict="violates"), "the witness says verdict 'violates'"),
    "verdict tight": (lambda w: w.update(verdict="tight"), "the witness says verdict 'tight'"),
    "verdict unknown": (lambda w: w.update(verdict="great"), "verdict 'great' is not one of"),
    "bound 0": (lambda w: w["bound"].update(value=0), "the witness says bound value 0"),
    "bound formula": (lambda w: w["bound"].update(formula="x"), "the witness says bound formula 'x'"),
    "bound field": (lambda w: w["bound"].update(extra=1), '"bound" has the field "extra"'),
    "bound not an object": (lambda w: w.update(bound=20), '"bound" must be'),
    "opt 99": (lambda w: w.update(opt=99), "the witness says Opt(C) = 99, and it is 3"),
    "opt text": (lambda w: w.update(opt="3"), '"opt" must be a number'),
    "opt symbol": (lambda w: w.update(opt_symbol="RL"), "opt_symbol 'RL'"),
    "opt fraction": (lambda w: w.update(opt_fraction="5/2"), "\"opt_fraction\" '5/2' is not \"opt\" 3"),
    "opt fraction past a float": (lambda w: w.update(opt_fraction="1/" + "3" * 400), "is not \"opt\" 3"),
    "strategy": (lambda w: w.update(strategy="bogus"), "strategy 'bogus'"),
    "maximize": (lambda w: w.update(maximize="mistakes_by_kind"), "maximize 'mistakes_by_kind'"),
    "unknown field": (lambda w: w.update(zzz=1), 'the field "zzz"'),
    "made_for class": (lambda w: w["made_for"].update({"class": "foo"}), 'names the class "foo"'),
    "made_for concepts": (lambda w: w["made_for"].update(concepts=99), "records 99 concepts"),
    "made_for fingerprint": (lambda w: w["made_for"].update(fingerprint="00"), "fingerprint 00"),
}


@pytest.mark.parametrize("case", list(TAMPERED_CLAIMS), ids=list(TAMPERED_CLAIMS))
def test_a_witness_with_a_claim_changed_fails(capsys, tmp_path, attack_witness, case):
    import copy

    tamper, words = TAMPERED_CLAIMS[case]
    w = copy.deepcopy(attack_witness)
    tamper(w)
    path = tmp_path / "w.json"
    path.write_text(json.dumps(w))
    code, out, err = run(capsys, "verify", path)
    assert code == 1, out + err
    assert len(out.strip().splitlines()) == 1 and out.startswith("FAILED: ") and words in out, out
    assert out.rstrip().endswith(f"(witness {path})"), out


def test_a_witness_claiming_no_optimum_claims_nothing(capsys, tmp_path, attack_witness):
    path = tmp_path / "w.json"
    path.write_text(json.dumps(dict(attack_witness, opt=None)))
    code, out, err = run(capsys, "verify", path)
    assert code == 0 and "Opt(C)" not in out, out + err


@pytest.mark.parametrize("text, words", [
    ('{"a": 1}', "is not a certificate"),
    ("[1, 2]", "is not a certificate"),
    ('"tree"', "is not a certificate"),
    ('{"lower": null, "upper": {"kind": "upper-bound"}}', "store show --certificates"),
])
def test_json_that_is_no_certificate_is_bad_input(capsys, tmp_path, text, words):
    """(issue 39) A file that is no certificate at all said "FAILED" (exit 1, as a certificate failing its check)."""
    path = tmp_path / "x.json"
    path.write_text(text)
    code, out, err = run(capsys, "verify", path, "thresholds", "N=7")
    assert_usage_error(code, out, err)
    assert words in err and "verify reads" in err, err
    path.write_text('{"depth": 3}')  # a tree (it has a depth) that fails its check
    code, out, err = run(capsys, "verify", path, "thresholds", "N=7")
    assert code == 1 and out.startswith("FAILED: "), out + err


def test_an_optimum_not_settled_in_the_time_is_not_accepted(capsys, tmp_path):
    """A witness's Opt(C) is computed again within --time-limit; a value the time does not settle is NOT CHECKED (exit
    3, with the bounds found), one outside them fails, and with time enough it is checked."""
    import numpy as np

    from adversary.referee import make_witness

    M = np.random.default_rng(1).integers(0, 2, (2000, 24)).tolist()  # Opt 10, some 0.1 s to settle
    w = make_witness("halving", {}, {"matrix": M}, [{"x": [0], "y": M[0][0]}], extra={"opt": 10})
    path = tmp_path / "w.json"
    path.write_text(json.dumps(w))
    code, out, err = run(capsys, "verify", path, "--time-limit", "0.001")
    assert code == 3 and out.startswith("NOT CHECKED: the witness says Opt(C) = 10; within the time limit "), out + err
    assert "<= Opt(C) <=" in out and "--time-limit" in out and len(out.strip().splitlines()) == 1, out
    code, out, err = run(capsys, "verify", path)
    assert code == 0 and "  Opt(C) = 10, computed again" in out, out + err
    path.write_text(json.dumps(dict(w, opt=20)))  # more than log2 |C|: outside any bounds
    code, out, err = run(capsys, "verify", path, "--time-limit", "0.001")
    assert code == 1 and "the witness says Opt(C) = 20, and " in out, out + err


def test_a_randomized_learners_witness_claims_are_exact(capsys, tmp_path):
    """Randomized halving's witness: its expected mistakes, its bound H_|C| - 1 as a fraction, its verdict tight, and
    RL(C) with its fraction, all derived again; a changed fraction fails."""
    path = tmp_path / "w.json"
    assert run(capsys, "attack", "randomized-halving", "--class", "thresholds", "N=3", "--strategy", "exact",
               "--witness", path, "--no-store", "--quiet")[0] == 0
    w = json.loads(path.read_text())
    assert w["verdict"] == "tight" and w["opt_symbol"] == "RL", w
    code, out, err = run(capsys, "verify", path)
    assert code == 0 and "  verdict tight: 13/12 (1.083333) expected mistakes = the bound 13/12" in out, out + err
    assert "  RL(C) = 1, computed again" in out, out
    for key, value, words in (("opt_symbol", "Opt", "opt_symbol 'Opt' names another game"),
                              ("verdict", "below", "gives 'tight'")):
        path.write_text(json.dumps(dict(w, **{key: value})))
        code, out, err = run(capsys, "verify", path)
        assert code == 1 and words in out, out + err
    w["bound"]["fraction"] = "7/6"
    path.write_text(json.dumps(w))
    code, out, err = run(capsys, "verify", path)
    assert code == 1 and "the witness says bound fraction '7/6'" in out, out + err


@pytest.mark.parametrize("game", [[], ["--randomized"], ["--errors", "1"]])
def test_a_tree_or_proof_with_a_field_added_fails(capsys, tmp_path, game):
    """(issue 39) A field littlestone does not write is a claim verify cannot check: an error, not silence."""
    tree, proof = tmp_path / "t.json", tmp_path / "p.json"
    assert run(capsys, "opt", "thresholds", "N=7", *game, "--tree", tree, "--proof", proof, "--no-store")[0] == 0
    for path in (tree, proof):
        assert run(capsys, "verify", path, "thresholds", "N=7")[0] == 0
        data = json.loads(path.read_text())
        path.write_text(json.dumps(dict(data, checked_by="me")))
        code, out, err = run(capsys, "verify", path, "thresholds", "N=7")
        assert code == 1 and out.startswith("FAILED: the ") and 'has the field "checked_by"' in out, out + err
