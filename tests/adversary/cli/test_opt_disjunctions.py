"""``littlestone opt monotone-disjunctions`` past the listed domain (n > 12, loaded implicitly and solved
by the family's symmetric search), its certificates through ``littlestone verify`` and the store."""

import json

from .checks import run


def test_opt_implicit_writes_certificates_that_verify(capsys, tmp_path):
    tree, proof = tmp_path / "t.json", tmp_path / "p.json"
    code, out, err = run(capsys, "opt", "monotone-disjunctions", "n=16", "k=3", "--json", "--tree", tree,
                         "--proof", proof)
    assert code == 0, err
    r = json.loads(out)
    assert (r["opt"], r["lower"], r["upper"], r["concepts"], r["points"]) == (8, 8, 8, 697, 2**16)
    assert r["engine"] == "disjunctions"
    code, out, _ = run(capsys, "verify", tree, "monotone-disjunctions", "n=16", "k=3")
    assert code == 0 and out.startswith("OK: Opt(C) >= 8 for monotone-disjunctions n=16 k=3 (a mistake tree of depth 8)")
    code, out, _ = run(capsys, "verify", proof, "monotone-disjunctions", "n=16", "k=3")
    assert code == 0 and out.startswith("OK: Opt(C) <= 8 for monotone-disjunctions n=16 k=3 (an upper-bound certificate")
    # the other class: the same files fail, in one line
    code, out, _ = run(capsys, "verify", proof, "monotone-disjunctions", "n=16", "k=4")
    assert code == 1 and out.startswith("FAILED: ") and len(out.strip().splitlines()) == 1
    data = json.loads(proof.read_text())
    data["bound"] = 7
    data["entries"][0]["bound"] = 7
    proof.write_text(json.dumps(data))
    code, out, _ = run(capsys, "verify", proof, "monotone-disjunctions", "n=16", "k=3")
    assert code == 1 and out.startswith("FAILED: ")


def test_opt_implicit_is_served_from_the_store_rechecked(capsys, tmp_path):
    store = tmp_path / "s.db"
    argv = ["opt", "monotone-disjunctions", "n=14", "k=4", "--store", store]
    assert run(capsys, *argv)[0] == 0
    code, out, _ = run(capsys, *argv)
    assert code == 0 and "Opt(C):          9" in out and "served from the store" in out and "checked" in out


def test_listed_class_tree_names_columns(capsys, tmp_path):
    tree = tmp_path / "t.json"
    code, out, err = run(capsys, "opt", "monotone-disjunctions", "n=9", "k=2", "--tree", tree, "--json")
    assert code == 0 and json.loads(out)["opt"] == 5 and json.loads(out)["engine"] == "disjunctions"
    assert isinstance(json.loads(tree.read_text())["root"]["point"], int)
    code, out, _ = run(capsys, "verify", tree, "monotone-disjunctions", "n=9", "k=2")
    assert code == 0 and out.startswith("OK")


def test_opt_past_the_solvers_n_says_what_to_change(capsys):
    code, out, err = run(capsys, "opt", "monotone-disjunctions", "n=40", "k=5", "--no-store")
    assert code == 2 and "Traceback" not in err
    assert "takes n up to 32" in err and "lower n" in err and len(err.strip().splitlines()) == 1
