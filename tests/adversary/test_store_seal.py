"""The seal of a row (:mod:`adversary.store.trust`) in the library: what a write keeps, what a merge of two rows
keeps of it, and a row's certificates read only when used."""

import pickle
import sqlite3

import pytest
from hypothesis import example, given, settings, strategies as st

from adversary.store import Record, Store, Tampered, class_key, opt_task, record_of_opt, seal, served_bounds
from adversary.store.trust import digest, merged_proof
from solvers.classes.families import make
from solvers.opt import opt


def _sealed(C, **kw):
    return seal(record_of_opt(C, opt(C, **kw), certify=True), C)


def test_a_row_is_sealed_with_what_its_checker_proved(tmp_path):
    C = make("intervals", N=9)
    rec = _sealed(C)
    assert rec.proven == {"lower": "5", "upper": "5", "how": {"lower": "checked", "upper": "checked"}}
    with Store(tmp_path / "s.db") as S:
        S.put(rec)
        back = S.get("opt", class_key(C), opt_task())
    assert back.proven == rec.proven and not back.tampered and served_bounds(back, C)[:2] == (5, 5)
    assert "lower_cert" not in vars(back)  # not read to be served ...
    assert back.lower_cert["depth"] == 5 and back.upper_cert["bound"] == 5  # ... read when used
    again = pickle.loads(pickle.dumps(back))  # (a row sent to a worker takes its certificates along)
    assert again == back and again.upper_cert == back.upper_cert


def test_a_wrong_certificate_is_not_sealed():
    C = make("intervals", N=9)
    rec = record_of_opt(C, opt(C), certify=True)
    rec.value = rec.lower = rec.upper = "4"  # the certificates prove 5
    assert seal(rec, C).proven is None  # (written unsealed: checked when first served, and computed again then)


def test_the_digest_covers_every_column_and_the_proven_bounds():
    row = ("k", "opt", "c", "f", "{}", "{}", 3, 2, "1", "1", "1", 0.5, "e", "v", "t", b"{}", "{}")
    proven = {"lower": "1", "upper": "1", "how": {"lower": "checked", "upper": "checked"}}
    d = digest(row, proven)
    for i in range(len(row)):
        changed = list(row)
        changed[i] = None if row[i] is not None else "x"
        assert digest(tuple(changed), proven) != d, i
    assert digest(row, {**proven, "upper": "2"}) != d
    assert digest(row[:11] + (0.5000001,) + row[12:], proven) != d
    assert digest(row[:11] + (1,) + row[12:], proven) == digest(row[:11] + (1.0,) + row[12:], proven)  # a REAL's int


def test_a_merge_keeps_what_was_proven_of_each_side(tmp_path):
    """An unsolved row (2 <= Opt <= 5, sealed) written over by a solved one: the merged row is sealed with the
    solved bounds; a row written unsealed over a sealed one leaves the merge unsealed where it took its side."""
    C = make("intervals", N=9)
    solved = _sealed(C)
    low = Record(kind="opt", class_key=class_key(C), task=opt_task(), value=None, lower="2", upper="5",
                 lower_cert=None, upper_cert=None,
                 proven={"lower": "2", "upper": "5", "how": {"lower": "checked", "upper": "checked"}})
    assert merged_proof(low, solved) == {"lower": "2", "upper": "5", "how": {"lower": "checked", "upper": "checked"}}
    with Store(tmp_path / "s.db") as S:
        S.put(low)
        S.put(solved)
        row = S.get("opt", class_key(C), opt_task())
        assert row.value == "5" and row.proven["lower"] == "5" and row.proven["upper"] == "5" and not row.tampered
        unsealed = record_of_opt(C, opt(C), certify=True)
        unsealed.seconds = 123.0  # (another run's facts)
        S.put(unsealed)
        row = S.get("opt", class_key(C), opt_task())
    assert row.value == "5" and row.proven is None and not row.tampered  # checked when first served


@settings(max_examples=25, deadline=None)
@example(column="value", text=2)  # (the same text once stored: a TEXT column keeps 2 as '2')
@example(column="seconds", text=5)
@given(column=st.sampled_from(["value", "lower", "upper", "seconds", "engine", "version", "time", "params", "task",
                               "data", "extra", "seal", "concepts", "points", "family"]),
       text=st.one_of(st.text(max_size=8), st.integers(-5, 5), st.binary(max_size=8), st.none()))
def test_a_row_changed_in_any_column_is_never_served_as_sealed(tmp_path_factory, column, text):
    """Any value written by hand into any column of a sealed row: the row is either unreadable, or tampered (never
    served), or unsealed (its seal taken off: checked by its checker when served), or the write changed nothing."""
    C = make("thresholds", N=6)
    path = tmp_path_factory.mktemp("s") / "s.db"
    with Store(path) as S:
        S.put(_sealed(C))
    db = sqlite3.connect(path)
    before = db.execute(f"SELECT {column} FROM results").fetchone()[0]
    try:
        db.execute(f"UPDATE results SET {column} = ?", (text,))
        # (as stored: a TEXT column keeps the integer 2 as the text '2', a REAL column 2 as 2.0)
        after = db.execute(f"SELECT {column} FROM results").fetchone()[0]
    except sqlite3.IntegrityError:  # (a NOT NULL column)
        return
    finally:
        db.commit()
        db.close()
    from adversary.store import UnreadableRow

    with Store(path, readonly=True) as S:
        try:
            rec = S.get("opt", class_key(C), opt_task())
        except UnreadableRow:
            return
    if rec is None:
        return  # (a key column written over: another row's key)
    if type(after) is type(before) and after == before:  # the write changed nothing
        assert not rec.tampered
        return
    if column == "seal" and text is None:  # a seal taken off: the row is checked again when served
        assert rec.proven is None and not rec.tampered and served_bounds(rec, C)[:2] == (2, 2)
        return
    assert rec.tampered and rec.proven is None, (column, text, before)
    with pytest.raises(Tampered):
        served_bounds(rec, C)
