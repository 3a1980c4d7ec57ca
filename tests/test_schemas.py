"""The JSON Schemas of the package (solvers/schemas) hold for the files the commands write.

Each command runs as a user runs it (``opt --tree --proof``, ``attack --witness``, ``store export --format json``);
every file it writes is validated against its schema (jsonschema, draft 2020-12) and, for the certificates, still
verifies (``littlestone verify``). The schemas also refuse what the format forbids (a field littlestone does not
write, version 1's dialect markers in a certificate of version 2), so a test here fails when a writer and its
schema part ways.
"""

from __future__ import annotations

import json

import pytest

from solvers.schemas import NAMES, schema, schemas

from .adversary.cli.checks import run

jsonschema = pytest.importorskip("jsonschema")
referencing = pytest.importorskip("referencing")


def _validator(name: str):
    registry = referencing.Registry().with_resources(
        (s["$id"], referencing.Resource.from_contents(s)) for s in schemas().values())
    return jsonschema.Draft202012Validator(schema(name), registry=registry)


def _valid(name: str, data) -> None:
    errors = sorted(_validator(name).iter_errors(data), key=lambda e: list(e.absolute_path))
    assert not errors, [f"{list(e.absolute_path)}: {e.message[:200]}" for e in errors[:5]]


def _invalid(name: str, data) -> None:
    assert not _validator(name).is_valid(data)


def test_every_schema_is_a_valid_draft_2020_12_schema_with_its_id():
    for name in NAMES:
        s = schema(name)
        jsonschema.Draft202012Validator.check_schema(s)
        assert s["$id"] == f"urn:littlestone:schema:{name}"
    with pytest.raises(ValueError, match="no schema 'nope'"):
        schema("nope")


# ------------------------------------------------------------------------------------ opt --tree --proof
#: (what, the opt arguments): one of each certificate rule the command writes.
OPT_RUNS = [
    ("paths", ["intervals", "N=12"]),
    ("levels", ["thresholds", "N=7"]),
    ("orbit", ["halfspaces", "n=4", "--engine", "search"]),
    ("packed", ["decision-lists", "n=3", "--engine", "packed"]),
    ("renaming", ["monotone-disjunctions", "n=10", "k=3"]),
    ("states", ["intervals", "N=150", "--engine", "states"]),
    ("game-paths randomized", ["intervals", "N=6", "--randomized"]),
    ("game-paths errors", ["intervals", "N=6", "--errors", "1"]),
    ("horizon", ["halfspaces", "n=4", "--horizon", "6"]),
    ("horizon below", ["thresholds", "N=6", "--horizon", "3"]),  # Opt = 2 < T: the search's certificate
    ("game-paths horizon", ["thresholds", "N=6", "--horizon", "2"]),  # Opt >= T: the rounds alone bound it
    ("matrix", ["--matrix", None]),
]


@pytest.mark.parametrize("what, args", OPT_RUNS, ids=[w for w, _ in OPT_RUNS])
def test_the_tree_and_the_certificate_opt_writes_fit_their_schemas_and_verify(capsys, tmp_path, what, args):
    if what == "matrix":
        m = tmp_path / "m.json"
        m.write_text(json.dumps({"matrix": [[0, 0, 1, 1], [0, 1, 0, 1], [1, 1, 0, 0], [1, 0, 1, 1], [0, 0, 0, 0]]}))
        args = ["--matrix", m]
    tree, proof = tmp_path / "t.json", tmp_path / "p.json"
    code, out, err = run(capsys, "opt", *args, "--tree", tree, "--proof", proof, "--no-store")
    assert code == 0, err
    t, p = json.loads(tree.read_text()), json.loads(proof.read_text())
    _valid("tree", t)
    _valid("certificate", p)
    assert p.get("format") == "littlestone-proof/2", p  # every certificate opt writes names its version
    if what.split()[0] in ("paths", "orbit", "packed", "renaming", "states", "game-paths"):
        assert p["format"] == "littlestone-proof/2" and p["rule"] == what.split()[0], p.get("rule")
    klass = ["--matrix", args[1]] if what == "matrix" else [a for a in args if not a.startswith("--") and "=" in a]
    klass = [args[0], *klass] if what != "matrix" else klass
    for f in (tree, proof):
        code, out, err = run(capsys, "verify", f, *klass)
        assert code == 0 and out.startswith("OK: "), (out, err)


def test_the_rectangles_state_certificate_fits_its_schema_and_verifies(capsys, tmp_path, monkeypatch):
    """Rectangles write their states (A-states and B-states) past the path form's entries: N = 13 with that
    limit lowered to 100 (its path form has over a thousand)."""
    from solvers.opt import rectangles

    monkeypatch.setattr(rectangles, "PATH_ENTRIES", 100)
    proof = tmp_path / "p.json"
    assert run(capsys, "opt", "rectangles", "N=13", "--engine", "states", "--proof", proof, "--no-store")[0] == 0
    p = json.loads(proof.read_text())
    _valid("certificate", p)
    assert (p["kind"], p["rule"], p["family"]) == ("upper-bound-states", "states", "rectangles")
    assert {"negatives", "extensions"} <= {k for e in p["entries"] for k in e}
    _invalid("certificate", {**p, "entries": [{"negatives": [[1]], "bound": 2}]})
    _invalid("certificate", {**p, "entries": [{"extensions": [], "bound": 2}]})
    code, out, err = run(capsys, "verify", proof, "rectangles", "N=13")
    assert code == 0 and out.startswith("OK: "), (out, err)


@pytest.mark.parametrize("args", [["intervals", "N=8"], ["intervals", "N=6", "--errors", "1"],
                                  ["intervals", "N=6", "--randomized"]], ids=["mistake", "errors", "randomized"])
def test_the_tree_opt_writes_names_its_format_and_a_newer_one_is_refused_in_one_line(capsys, tmp_path, args):
    tree = tmp_path / "t.json"
    assert run(capsys, "opt", *args, "--tree", tree, "--no-store")[0] == 0
    t = json.loads(tree.read_text())
    assert t["format"] == "littlestone-proof/2" and t["rule"] in ("mistake-tree", "error-tree", "randomized-tree")
    _invalid("tree", {k: v for k, v in t.items() if k != "rule"})  # version 2 names its rule
    old = {k: v for k, v in t.items() if k not in ("format", "rule")}  # as written before the format
    _valid("tree", old)
    for data, good in ((old, True), ({**t, "format": "littlestone-proof/3"}, False)):
        tree.write_text(json.dumps(data))
        code, out, err = run(capsys, "verify", tree, *args[:2])
        if good:
            assert code == 0 and out.startswith("OK: "), (out, err)
        else:
            assert code == 1 and 'format 3 ("littlestone-proof/3") is newer than this littlestone reads' in out, (out, err)
            assert len(out.strip().splitlines()) == 1, out


def test_the_certificate_schema_refuses_what_the_format_forbids(capsys, tmp_path):
    proof = tmp_path / "p.json"
    assert run(capsys, "opt", "intervals", "N=12", "--proof", proof, "--no-store")[0] == 0
    p = json.loads(proof.read_text())
    _valid("certificate", p)
    _invalid("certificate", {**p, "form": "packed"})  # version 1's dialect in version 2
    _invalid("certificate", {**p, "rule": "bogus"})
    _invalid("certificate", {k: v for k, v in p.items() if k != "rule"})  # version 2 names its rule
    _invalid("certificate", {k: v for k, v in p.items() if k != "format"})  # a rule is version 2's
    _invalid("certificate", {**p, "extra": 1})
    _invalid("certificate", {**p, "entries": [{"path": [[0, 2]], "bound": 1}]})
    old = {k: v for k, v in p.items() if k not in ("format", "rule")}  # version 1, as it was written
    _valid("certificate", old)
    _invalid("certificate", {**p, "format": "littlestone-proof/2", "rule": "orbit"})  # orbit needs its group


def test_the_library_writes_the_experts_certificates_the_schemas_describe():
    from solvers.opt.experts import experts

    for e in (experts(3, 1, randomized=True), experts(4, 1)):
        _valid("tree", json.loads(json.dumps(e.lower_certificate())))
        _valid("certificate", json.loads(json.dumps(e.upper_certificate())))


# ------------------------------------------------------------------------------------ attack --witness
ATTACKS = [
    ["winnow2", "--class", "monotone-disjunctions", "n=5", "k=2", "--strategy", "exact"],
    ["halving", "--class", "thresholds", "N=7"],
    ["randomized-halving", "--class", "thresholds", "N=7"],
    ["soa", "--class", "intervals", "N=6", "--errors", "1"],
]


@pytest.mark.parametrize("args", ATTACKS, ids=[a[0] for a in ATTACKS])
def test_the_witness_attack_writes_fits_its_schema_and_verifies(capsys, tmp_path, args):
    w = tmp_path / "w.json"
    code, out, err = run(capsys, "attack", *args, "--witness", w, "--no-store")
    assert code in (0, 1), err  # (1: the learner's bound is violated, which the witness shows)
    data = json.loads(w.read_text())
    _valid("witness", data)
    _invalid("witness", {**data, "extra": 1})
    _invalid("witness", {**data, "verdict": "maybe"})
    code, out, err = run(capsys, "verify", w)
    assert code == 0 and out.startswith("OK: "), (out, err)


# ------------------------------------------------------------------------------------ store export
def test_the_rows_store_export_writes_fit_their_schema(capsys, tmp_path):
    db, out_file = tmp_path / "r.db", tmp_path / "e.json"
    for argv in (["opt", "thresholds", "N=7"], ["opt", "intervals", "N=6", "--randomized"],
                 ["attack", "halving", "--class", "thresholds", "N=7"], ["params", "thresholds", "N=7"]):
        code, _, err = run(capsys, *argv, "--store", db)
        assert code == 0, (argv, err)
    code, _, err = run(capsys, "store", "export", "--format", "json", "--store", db, "-o", out_file)
    assert code == 0, err
    rows = json.loads(out_file.read_text())
    assert {r["kind"] for r in rows} >= {"opt", "attack"} and len(rows) >= 3
    _valid("store-export", rows)
    for row in rows:
        _valid("store-row", row)
    _invalid("store-row", {**rows[0], "value": 3})  # exact numbers are text
    _invalid("store-row", {k: v for k, v in rows[0].items() if k != "key"})
