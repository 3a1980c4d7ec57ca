"""The store's seal (:mod:`adversary.store.trust`): a row's certificates are checked once, when it is written, and
it is served by its digest from then on. A row changed by hand (its value, its bounds, its certificate or witness,
its extra data, or the seal alone) is never served: it is computed again, with one note. A rerun of a grid serves
every cell and prints the same table, seconds included, writing nothing. ``store verify`` checks every row from
scratch; ``--verify-store`` does it on serve. A store written before the seals (schema version 1) is migrated
forward and served."""

import csv
import io
import json
import shutil
import sqlite3
import zlib
from pathlib import Path

import pytest

from adversary.store import Store, Tampered, class_key, served_bounds

from .checks import field, one_error_line, run

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "store_v1.db"
#: Commands that write a row of every kind (and a game's), each run twice in the tests below.
WRITERS = {
    "opt": ("opt", "thresholds", "N=9"),
    "game": ("opt", "intervals", "N=5", "--randomized"),
    "vc": ("table", "intervals", "--grid", "N=6", "--format", "csv", "--quiet"),
    "param": ("params", "thresholds", "N=6", "--only", "td"),
    "attack": ("attack", "halving", "--class", "thresholds", "N=7"),
}


def _db() -> str:
    import os

    return os.environ["LITTLESTONE_STORE"]


def _rows(kind: str, *, game: bool = False):
    with Store(_db(), readonly=True) as S:
        rows = [r for r in S.rows(kind) if r.kind != "opt" or (r.task.get("game") != "deterministic") == game]
    return rows


def _sql(sql: str, args=()) -> None:
    db = sqlite3.connect(_db())
    db.execute(sql, args)
    db.commit()
    db.close()


def _blob(key: str, change) -> None:
    """Change the certificates (the data blob) of the row ``key`` by hand: ``change(data)`` edits the JSON."""
    db = sqlite3.connect(_db())
    (blob,) = db.execute("SELECT data FROM results WHERE key = ?", (key,)).fetchone()
    data = json.loads(zlib.decompress(blob) if blob[:1] != b"{" else blob)
    change(data)
    db.execute("UPDATE results SET data = ? WHERE key = ?", (zlib.compress(json.dumps(data).encode()), key))
    db.commit()
    db.close()


def _first_leaf_flip(tree: dict) -> None:
    """A mistake tree with its root's point moved (the tree no longer follows the class)."""
    tree["root"]["point"] = (tree["root"]["point"] + 1) % 5


def _tampers(kind: str, rec):
    """(what, how): the hand changes of a row of ``kind``: its value, its bounds, its certificate or witness, its
    extra data, its seal's digest alone, and its seal's bounds alone."""
    key = rec.key
    up = str(int(rec.value.split("/")[0]) + 1) if rec.value is not None else "99"
    out = [("value", lambda: _sql("UPDATE results SET value = ? WHERE key = ?", (up, key))),
           ("bounds", lambda: _sql("UPDATE results SET lower = '0' WHERE key = ?", (key,)))]
    if kind in ("opt", "game"):
        out.append(("certificate", lambda: _blob(key, lambda d: d["upper_cert"].__setitem__("bound", 0))))
    elif kind == "vc":
        out.append(("certificate", lambda: _blob(key, lambda d: d["lower_cert"].__setitem__("points", [0]))))
    elif kind == "param":
        out.append(("witness", lambda: _blob(key, lambda d: d["lower_cert"].__setitem__("value", 1))))
    else:
        out.append(("witness", lambda: _blob(key, lambda d: d["lower_cert"].__setitem__("sequence", []))))
        out.append(("extra", lambda: _sql("UPDATE results SET extra = json_set(extra, '$.result.verdict', 'below') "
                                          "WHERE key = ?", (key,))))
    out.append(("digest", lambda: _sql("UPDATE results SET seal = json_set(seal, '$.digest', ?) WHERE key = ?",
                                       ("0" * 64, key))))
    out.append(("seal bounds", lambda: _sql("UPDATE results SET seal = json_set(seal, '$.lower', '0') WHERE key = ?",
                                            (key,))))
    return out


def _class_of(kind: str):
    from solvers.classes.families import make

    return {"opt": make("thresholds", N=9), "game": make("intervals", N=5), "vc": make("intervals", N=6),
            "param": make("thresholds", N=6), "attack": make("thresholds", N=7)}[kind]


@pytest.mark.parametrize("kind", list(WRITERS))
def test_every_hand_change_of_a_row_is_caught_and_the_row_computed_again(capsys, kind):
    """A row of each kind, sealed when written, changed by hand in each of its parts: read back it is
    ``tampered`` (its digest no longer matches), it is never served (:class:`Tampered`), and the command that
    wrote it computes it again, says so in one line and prints what it printed the first time."""
    code, first, _ = run(capsys, *WRITERS[kind])
    assert code == 0
    (rec,) = _rows("opt" if kind == "game" else kind, game=kind == "game")
    assert rec.proven is not None and not rec.tampered
    C = _class_of(kind)
    assert served_bounds(rec, C)[:2] == tuple(
        None if t is None else __import__("adversary.store", fromlist=["number"]).number(t)
        for t in (rec.proven["lower"], rec.proven["upper"]))
    code, again, err = run(capsys, *WRITERS[kind])  # served by its digest: the same output, no note
    assert code == 0 and "changed" not in err and "does not check" not in err
    for what, tamper in _tampers(kind, rec):
        tamper()
        (bad,) = _rows("opt" if kind == "game" else kind, game=kind == "game")
        assert bad.tampered and bad.proven is None, what
        with pytest.raises(Tampered):
            served_bounds(bad, C)
        with pytest.raises(Tampered):
            served_bounds(bad, C, trust=True)  # --trust-store serves no row changed by hand either
        code, out, err = run(capsys, *WRITERS[kind])
        assert code == 0 and err.count("changed after it was written") == 1, (what, err)
        assert _same_output(kind, out, first), (what, out, first)
        (fixed,) = _rows("opt" if kind == "game" else kind, game=kind == "game")
        assert fixed.proven is not None and not fixed.tampered, what  # written again, sealed


def _same_output(kind: str, out: str, first: str) -> bool:
    """The numbers a command printed (its time and seconds aside)."""
    if kind == "vc":
        strip = [{k: v for k, v in r.items() if k != "seconds"} for r in csv.DictReader(io.StringIO(out))]
        return strip == [{k: v for k, v in r.items() if k != "seconds"} for r in csv.DictReader(io.StringIO(first))]
    keep = {"opt": ["Opt(C)"], "game": ["RL(C)"], "param": [], "attack": ["mistakes", "verdict"]}[kind]
    if kind == "param":
        return out.splitlines()[1].split()[:2] == first.splitlines()[1].split()[:2]
    return all(field(out, k) == field(first, k) for k in keep)


def test_a_sealed_row_is_served_without_running_a_checker(capsys, monkeypatch):
    """Serving a sealed row compares its digest: no checker runs (each one is made to fail here)."""
    import adversary.store.trust as trust

    argv = ("table", "intervals", "--grid", "N=5..8", "--columns", "td", "--format", "csv")
    code, first, _ = run(capsys, *argv)
    assert code == 0

    def no_checker(*a, **kw):
        raise AssertionError("a checker ran on serve")

    monkeypatch.setattr(trust, "CHECKERS", {k: no_checker for k in trust.CHECKERS})
    code, again, err = run(capsys, *argv)
    assert code == 0 and again == first and "4 of 4 cells served" in err and "0 results written" in err, err


@pytest.mark.parametrize("fmt", ["md", "csv", "json", "latex"])
def test_a_rerun_of_a_table_prints_the_same_table_and_writes_nothing(capsys, fmt):
    """The second run serves every cell and prints the same table, seconds included (the rows keep them), and
    writes nothing; a third run likewise. A cell computed fast is stored with its certificates too."""
    argv = ("table", "intervals", "--grid", "N=5..9", "--randomized", "--columns", "td", "--format", fmt, "--quiet")
    code, first, err = run(capsys, *argv)
    assert code == 0 and "0 of 5 cells served" in err, err
    with Store(_db(), readonly=True) as S:
        rows = list(S.rows())
    assert len(rows) == 20 and all(r.proven is not None for r in rows)
    assert all(r.lower_cert is not None for r in rows if r.kind != "opt" or r.value != "0")  # certificates kept
    for _ in range(2):
        code, again, err = run(capsys, *argv)
        if fmt == "json":  # (a JSON row says also that it was served, and which of its parts)
            assert code == 0 and _unserved(again) == _unserved(first), (again, first)
        else:
            assert code == 0 and again == first, (again, first)
        assert "5 of 5 cells served from it (certificates checked when stored, digest matches), 0 results written" \
            in err, err
    with Store(_db(), readonly=True) as S:
        assert [(r.key, r.time) for r in S.rows()] == [(r.key, r.time) for r in rows]  # nothing written


def _unserved(text: str):
    table = json.loads(text)
    for row in table["rows"]:
        row.pop("stored", None)
        row.pop("served", None)
    return table


def test_a_rerun_of_an_attack_grid_and_of_params_serves_them(capsys):
    argv = ("attack", "halving", "--class", "thresholds", "--grid", "N=4..6", "--format", "csv", "--quiet")
    code, first, _ = run(capsys, *argv)
    assert code == 0
    code, again, err = run(capsys, *argv)  # (it writes the Opt(C) shown beside each attack: served next time)
    assert code == 0 and again == first and "3 of 3 cells served" in err, err
    code, again, err = run(capsys, *argv)
    assert code == 0 and again == first and "3 of 3 cells served" in err and "0 results written" in err, err
    argv = ("params", "thresholds", "N=6", "--only", "td,star", "--json")
    code, first, _ = run(capsys, *argv)
    code, again, err = run(capsys, *argv)
    assert code == 0 and json.loads(again) == json.loads(first)
    with Store(_db(), readonly=True) as S:
        assert all(r.proven is not None for r in S.rows())


def _forge(key: str, value: str) -> None:
    """A forger's change: the row's numbers set to ``value`` and its seal made again to match (the digest is no
    signature: a hand that computes it is not caught by it)."""
    from adversary.store.trust import digest

    db = sqlite3.connect(_db())
    db.execute("UPDATE results SET value = ?, lower = ?, upper = ? WHERE key = ?", (value, value, value, key))
    cols = "key, kind, class_key, family, params, task, concepts, points, value, lower, upper, seconds, engine, " \
           "version, time, data, extra"
    row = db.execute(f"SELECT {cols} FROM results WHERE key = ?", (key,)).fetchone()
    proven = {"lower": value, "upper": value, "how": {"lower": "checked", "upper": "checked"}}
    seal = json.dumps({**proven, "digest": digest(row, proven)}, sort_keys=True, separators=(",", ":"))
    db.execute("UPDATE results SET seal = ? WHERE key = ?", (seal, key))
    db.commit()
    db.close()


def test_store_verify_and_verify_store_catch_what_the_digest_cannot(capsys):
    """store verify checks every row from scratch (exit 1 and a FAILED line for a bad row, 0 when all check);
    a row forged with a digest made to match is served by default (documented: the digest is no signature), and
    caught by --verify-store and store verify."""
    run(capsys, "table", "thresholds", "--grid", "N=5..7", "--quiet")
    code, out, err = run(capsys, "store", "verify")
    assert code == 0 and len(out.splitlines()) == 6 and all(line.startswith("OK ") for line in out.splitlines())
    assert "6 OK, 0 FAILED" in err, err
    (rec,) = [r for r in _rows("opt") if r.params == {"N": 6}]
    _forge(rec.key, "5")  # Opt of thresholds N=6 is 2
    code, out, err = run(capsys, "opt", "thresholds", "N=6")
    assert field(out, "Opt(C)") == "5"  # the digest matches: served as written
    code, out, err = run(capsys, "opt", "thresholds", "N=6", "--verify-store")
    assert code == 0 and field(out, "Opt(C)") == "2" and "does not check" in err, err
    _forge(rec.key, "5")
    code, out, err = run(capsys, "store", "verify", "--kind", "opt")
    assert code == 1 and len(out.splitlines()) == 3, out
    (bad,) = [line for line in out.splitlines() if line.startswith("FAILED")]
    assert rec.key[:12] in bad and "1 FAILED" in err
    tampered = _rows("vc")[0]
    _sql("UPDATE results SET value = '3', upper = '3' WHERE key = ?", (tampered.key,))
    code, out, err = run(capsys, "store", "verify", "--kind", "vc")
    assert code == 1 and "changed after it was written" in out, out
    code, out, err = run(capsys, "opt", "thresholds", "N=7", "--verify-store")
    assert code == 0 and "certificates re-checked: --verify-store" in field(out, "time")
    code, _, err = run(capsys, "opt", "thresholds", "N=7", "--verify-store", "--trust-store")
    assert code == 2 and "not allowed with" in err
    code, _, err = run(capsys, "opt", "thresholds", "N=7", "--verify-store", "--no-store")
    one_error_line(code, err, contains=["--verify-store", "--no-store"])


def test_a_store_of_schema_version_1_is_migrated_forward_and_served(capsys, tmp_path):
    """The fixture was written by littlestone before the seals (schema 1; some rows without certificates). Read
    only, it is read as it is; opened to write, it is migrated (its rows kept), its rows are checked when first
    served (and sealed), and served by their digests after; store verify finds them all OK."""
    path = tmp_path / "old.db"
    shutil.copy(FIXTURE, path)
    before = path.read_bytes()
    with Store(path, readonly=True) as S:
        assert S.schema_version == 1
        old = {r.key: (r.value, r.lower, r.upper) for r in S.rows()}
    assert path.read_bytes() == before and len(old) == 9
    with Store(path) as S:
        assert S.schema_version == 2 and {r.key: (r.value, r.lower, r.upper) for r in S.rows()} == old
        assert all(r.proven is None and not r.tampered for r in S.rows())
        kinds = {r.kind for r in S.rows()}
    assert kinds == {"opt", "vc", "param", "attack"}
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == ("2",)
    argv = ("table", "thresholds", "--grid", "N=3..4", "--columns", "td", "--format", "csv", "--store", path)
    code, first, err = run(capsys, *argv)
    assert code == 0 and [r["Opt"] for r in csv.DictReader(io.StringIO(first))] == ["2", "2"], err
    code, again, err = run(capsys, *argv)
    assert code == 0 and "2 of 2 cells served" in err and "0 results written" in err, err
    assert [{k: v for k, v in r.items() if k != "seconds"} for r in csv.DictReader(io.StringIO(again))] == \
        [{k: v for k, v in r.items() if k != "seconds"} for r in csv.DictReader(io.StringIO(first))]
    code, third, err = run(capsys, *argv)
    assert code == 0 and third == again, (third, again)  # seconds included: the rows' (some older, some new)
    code, out, err = run(capsys, "opt", "intervals", "N=5", "--randomized", "--store", path)
    assert code == 0 and field(out, "RL(C)").startswith("63/32")  # kept without certificates: computed again
    code, out, err = run(capsys, "opt", "intervals", "N=5", "--randomized", "--store", path)
    assert code == 0 and field(out, "RL(C)").startswith("63/32") and "served from the store" in out
    code, out, err = run(capsys, "attack", "halving", "--class", "thresholds", "N=7", "--store", path)
    assert code == 0 and field(out, "mistakes").split()[0] == "3" and "served from the store" in out
    code, out, err = run(capsys, "store", "verify", "--store", path)
    assert code == 0 and " OK, 0 FAILED, 0 not checked" in err and len(out.splitlines()) >= 9, (out, err)
    assert all(line.startswith("OK ") for line in out.splitlines()), out
    with Store(path, readonly=True) as S:
        assert all(r.proven is not None for r in S.rows())
        C = __import__("solvers.classes.families", fromlist=["make"]).make("thresholds", N=7)
        (attack,) = S.rows("attack")
        assert attack.class_key == class_key(C) and served_bounds(attack, C)[0] == 3


def test_store_merge_imports_each_row_checked_and_refuses_a_wrong_one(capsys, tmp_path):
    """store merge OTHER.db: each row of the other store checked from scratch and written sealed (merged with the
    rows there); a row that fails is refused (one line, exit 1) and not imported; the rows served after."""
    source = tmp_path / "other.db"
    shutil.copy(FIXTURE, source)
    with sqlite3.connect(source) as db:  # a wrong VC dimension in the old store (its shattered set proves 1)
        db.execute("UPDATE results SET value = '5', lower = '5', upper = '5' WHERE kind = 'vc' AND params = ?",
                   (json.dumps({"N": 3}, separators=(",", ":")),))
    code, out, err = run(capsys, "store", "merge", source)
    lines = out.splitlines()
    assert code == 1 and len(lines) == 9 and sum(line.startswith("imported ") for line in lines) == 8, out
    (refused,) = [line for line in lines if line.startswith("refused")]
    assert " vc " in refused and "8 rows" in err and "1 refused" in err, err
    with Store(_db(), readonly=True) as S:
        rows = list(S.rows())
    assert len(rows) == 8 and all(r.proven is not None for r in rows) and not [r for r in rows if r.kind == "vc"
                                                                              and r.params == {"N": 3}]
    code, out, err = run(capsys, "table", "thresholds", "--grid", "N=4", "--columns", "td", "--format", "csv")
    assert code == 0 and "1 of 1 cells served" in err and "0 results written" in err, err
    code, _, err = run(capsys, "store", "merge", _db())
    assert code == 2 and "two different stores" in err
    code, _, err = run(capsys, "store", "merge")
    assert code == 2 and "needs the store to import" in err


def test_show_export_prune_and_plot_read_a_sealed_row_by_its_seal(capsys, monkeypatch, tmp_path):
    """store show, export, prune and plot --from-store read a sealed row by its seal, as the commands serve it: no
    checker runs (they used to re-check every row, seconds a row on a large store); --recheck (plot: --verify-store)
    re-checks every row; a row with no seal is re-checked; a row changed by hand, even in a column no checker reads
    (its seconds), is FAILED, pruned and never drawn."""
    from types import SimpleNamespace

    import adversary.store.trust as trust
    from adversary.cli.plot import _store_records
    from adversary.cli.store import _check_text

    for argv in (WRITERS["vc"], WRITERS["opt"], WRITERS["attack"]):
        assert run(capsys, *argv)[0] == 0
    calls = []

    def counted(kind):
        real = trust.CHECKERS[kind]

        def checker(rec, *args):
            calls.append(rec.key)
            return real(rec, *args)
        return checker

    for kind in ("opt", "vc", "attack"):
        monkeypatch.setitem(trust.CHECKERS, kind, counted(kind))
    with Store(_db(), readonly=True) as S:
        rows = list(S.rows())
    # the three writers' rows, and the Opt(C) the attack computed for its verdict
    assert len(rows) == 5 and all(r.proven is not None for r in rows)
    code, out, _ = run(capsys, "store", "export", "--format", "csv")
    checks = [r["check"] for r in csv.DictReader(io.StringIO(out))]
    assert code == 0 and len(checks) == 5 and all(c.startswith("OK") and "digest matches" in c for c in checks), checks
    assert run(capsys, "store", "show", rows[0].key[:12])[0] == 0
    assert "0 rows to remove" in run(capsys, "store", "prune", "--dry-run")[2]
    args = SimpleNamespace(store=_db(), no_store=False, verify_store=False)
    assert len(_store_records(args)) == 5
    assert calls == []  # nothing re-checked
    code, out, _ = run(capsys, "store", "export", "--format", "csv", "--recheck")
    assert code == 0 and all(r["check"].startswith("OK") and "digest" not in r["check"]
                             for r in csv.DictReader(io.StringIO(out)))
    assert sorted(calls) == sorted(r.key for r in rows)
    calls.clear()
    assert len(_store_records(SimpleNamespace(**{**vars(args), "verify_store": True}))) == 5
    assert sorted(calls) == sorted(r.key for r in rows)
    calls.clear()
    opt_row = next(r for r in rows if r.kind == "opt")
    db = sqlite3.connect(_db())
    db.execute("UPDATE results SET seal = NULL WHERE key = ?", (opt_row.key,))  # as an older littlestone wrote it
    db.commit()
    with Store(_db(), readonly=True) as S:
        assert _check_text(S.get_key(opt_row.key)).startswith("OK")
    assert calls == [opt_row.key]  # a row with no seal is re-checked
    db.execute("UPDATE results SET seconds = seconds + 1 WHERE kind = 'attack'")  # a column no checker reads
    db.commit()
    db.close()
    code, out, _ = run(capsys, "store", "export", "--format", "csv", "--kind", "attack")
    (row,) = csv.DictReader(io.StringIO(out))
    assert row["check"].startswith("FAILED") and "digest does not match" in row["check"]
    assert _store_records(args, kinds=("attack",)) == [] and "left out of the plot" in capsys.readouterr().err
    code, _, err = run(capsys, "store", "prune")
    assert code == 0 and "1 row removed; 4 left" in err
    code, _, err = run(capsys, "store", "list", "--recheck")
    one_error_line(code, err, contains=["--recheck", "store show"])


def _written(err: str) -> int:
    import re

    (n,) = re.findall(r"(\d+) results written", err)
    return int(n)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_grid_says_every_row_it_wrote(capsys, jobs):
    """'N results written' counts every row a grid's run writes: a rerun of an attack grid serves its attacks and
    writes the Opt(C) of each class, computed again to show beside them (it used to say 0 results written; with
    --jobs, the cells looked up before the first result came back were not counted); the next rerun writes nothing
    and says so. The table's count is the rows its cells wrote."""
    argv = ("attack", "halving", "--class", "thresholds", "--grid", "N=4..6", "--format", "csv", "--quiet",
            "--jobs", jobs)
    for served in (0, 3, 3):
        with Store(_db()) as S:
            before = S.count()
        code, _, err = run(capsys, *argv)
        with Store(_db()) as S:
            after = S.count()
        assert code == 0 and f"{served} of 3 cells served" in err, err
        assert _written(err) == after - before, (err, before, after)
    assert after == 6  # three attacks, three Opt(C)
    code, _, err = run(capsys, "table", "thresholds", "--grid", "N=7,8", "--quiet")
    assert code == 0 and _written(err) == 4  # (Opt and VC of two classes)


def test_store_verify_checks_state_certificates_and_classes_past_the_matrix(capsys):
    """Rows whose upper bound is a certificate over states (intervals N=150: free segments) and whose class is past
    make's matrix (intervals N=1000: made again as an evaluated class, as opt made it) check from scratch."""
    assert run(capsys, "opt", "intervals", "N=150", "--engine", "states")[0] == 0
    assert run(capsys, "opt", "intervals", "N=1000")[0] == 0
    (states,) = [r for r in _rows("opt") if r.params.get("N") == 150]
    assert states.upper_cert["kind"] == "upper-bound-states"
    code, out, err = run(capsys, "store", "verify", "--kind", "opt")
    assert code == 0 and "2 OK, 0 FAILED" in err, (out, err)
    assert all(line.startswith("OK ") for line in out.splitlines()), out
