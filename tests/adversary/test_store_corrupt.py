"""A store with a row spoilt by hand (a random column of a random row set to random bytes, text or a number):
every ``littlestone store`` command and every lookup go on past it. The row is reported as one that cannot be
read, or re-checked and reported FAILED; no other row is lost, and ``store prune`` removes it."""

import json
import shutil
import sqlite3

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from adversary.cli import main
from adversary.store import Store, StoreError, opt_task, record_of_opt
from solvers.classes.families import make
from solvers.opt import opt

COLUMNS = ("key", "kind", "class_key", "family", "params", "task", "concepts", "points", "value", "lower", "upper",
           "seconds", "engine", "version", "time", "data")


def _attack_record(C):
    from adversary.attack import attack
    from adversary.store import Record, class_key, exact

    r = attack("halving", C, strategy="exact")
    summary = {k: v for k, v in r.to_json().items() if k != "witness"}
    return Record(kind="attack", class_key=class_key(C), task={"learner": "halving", "params": {}}, family=C.family,
                  params=dict(C.params), value=exact(r.mistakes), lower=exact(r.mistakes), lower_cert=r.witness,
                  extra={"result": summary})


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    """A store of four rows (Opt with its certificates, Opt kept without them, VC, an attack), and what each is
    of: ``(path, [(kind, class, task, key)])``."""
    from adversary.store import Record, class_key, exact
    from solvers.vc import vc_search

    path = tmp_path_factory.mktemp("template") / "t.db"
    C, D, H = make("intervals", N=6), make("thresholds", N=5), make("thresholds", N=7)
    v = vc_search(D)
    recs = [record_of_opt(C, opt(C), certify=True), record_of_opt(D, opt(D), certify=False),
            Record(kind="vc", class_key=class_key(D), task={}, family=D.family, params=dict(D.params),
                   value=exact(v.value), lower=exact(v.lower), upper=exact(v.upper),
                   lower_cert={"points": [int(j) for j in v.witness]}),
            _attack_record(H)]
    with Store(path) as S:
        for rec in recs:
            S.put(rec)
    return path, [(rec.kind, X, rec.task, rec.key, rec) for rec, X in zip(recs, (C, D, D, H))]


def _cli(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "internal error" not in err, (argv, err)
    return code, out, err


SPOILS = st.one_of(st.binary(max_size=40), st.text(max_size=20), st.integers(-2**63, 2**63 - 1),
                   st.floats(allow_nan=True), st.none(),
                   st.sampled_from(["[]", "{}", "null", "3", "\"x\"", "[1, 2]", "{\"a\": 1}", "7/0", "-1", "1e999"]))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(row=st.integers(0, 3), column=st.sampled_from(COLUMNS), spoil=SPOILS)
def test_every_store_command_and_lookup_go_on_past_a_spoilt_row(template, tmp_path, capsys, row, column, spoil):
    from adversary.workspace.storage import lookup

    source, rows = template
    path = tmp_path / f"s-{row}-{column}.db"
    shutil.copy(source, path)
    db = sqlite3.connect(path)
    try:
        db.execute(f"UPDATE results SET {column} = ? WHERE key = ?", (spoil, rows[row][3]))
        db.commit()
    except sqlite3.IntegrityError:  # a NOT NULL column set to NULL, a key that is another row's
        assume(False)
    finally:
        db.close()
    others = [r[3] for i, r in enumerate(rows) if i != row]
    code, out, err = _cli(capsys, "store", "list", "--store", path)
    assert code == 0 and all(k[:12] in out for k in others), (out, err)
    code, out, err = _cli(capsys, "store", "export", "--format", "json", "--store", path)
    assert code == 0 and {k for k in others} <= {r["key"] for r in json.loads(out)}
    code, out, err = _cli(capsys, "store", "export", "--format", "csv", "--store", path)
    assert code == 0
    for k in others + [rows[row][3]]:
        code, out, err = _cli(capsys, "store", "show", k[:12], "--store", path)
        assert code in (0, 2), err  # 2: a key spoilt, so no row's key starts with it
    code, out, err = _cli(capsys, "store", "prune", "--dry-run", "--store", path)
    assert code == 0
    code, out, err = _cli(capsys, "store", "prune", "--store", path)
    assert code == 0
    with Store(path) as S:
        assert S.unreadable == {}  # pruned
        found = {rec.key for rec in S.rows()}
        assert set(others) <= found
    shutil.copy(source, path)  # spoilt again, for the lookups
    db = sqlite3.connect(path)
    db.execute(f"UPDATE results SET {column} = ? WHERE key = ?", (spoil, rows[row][3]))
    db.commit()
    db.close()
    with Store(path, flush_seconds=0.5) as S:
        for kind, C, task, key, rec in rows:
            for trust in (False, True):
                found = lookup(S, kind, C, task, trust=trust)
                assert found.record is None or found.record.key == key
        for kind, C, task, key, rec in rows:  # written over it: replaces a row that cannot be read
            S.put(rec)
        S.flush()
        assert {r.key for r in S.rows()} >= {r[3] for r in rows}
    capsys.readouterr()


def test_a_row_that_cannot_be_read_is_skipped_reported_and_replaced(template, tmp_path):
    source, rows = template
    path = tmp_path / "s.db"
    shutil.copy(source, path)
    kind, C, task, key, rec = rows[0]
    db = sqlite3.connect(path)
    db.execute("UPDATE results SET data = x'7801deadbeef' WHERE key = ?", (key,))
    db.commit()
    db.close()
    with Store(path, readonly=True) as S:
        assert {r.key for r in S.rows()} == {r[3] for r in rows[1:]}
        assert list(S.unreadable) == [key] and "data" in S.unreadable[key]
        with pytest.raises(StoreError, match="cannot be read"):
            S.get(kind, rec.class_key, task)
    with Store(path) as S:
        S.put(rec)
        assert S.get(kind, rec.class_key, opt_task()).value == rec.value
        assert len(list(S.rows())) == 4 and S.unreadable == {}
