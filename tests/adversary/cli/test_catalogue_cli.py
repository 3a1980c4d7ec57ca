"""``littlestone catalogue import`` and ``export`` (issue 38, part 2), on class records written here in the catalogue's
format (data/classes/NNN_name.json: id, name, short_name, definition), nothing fetched: a parametric class at a
size, a fixed class listed by 0/1 strings, the store's rows back as value records, and the errors."""

import json

import numpy as np
import pytest

from solvers.classes import ConceptClass
from solvers.classes.families import make

from .checks import assert_usage_error, run

HALF = {"id": 5, "name": "Half-intervals", "short_name": "halfintervals",
        "definition": "For $n\\ge1$, $I_n=\\{[i]:1\\le i\\le n\\}$ where $[i]=\\{1,\\ldots,i\\}$."}
GAP = {"id": 24, "name": "Projected RTD gap", "short_name": "projected_rtd_gap",
       "definition": "On three coordinates, let $C$ consist of the four strings 001, 010, 011, and 100."}
PROSE = {"id": 6, "name": "Tagged singletons", "short_name": "tagged_singletons",
         "definition": "For $n\\ge2$ put $r=\\lceil\\log_2 n\\rceil$ and ..."}


@pytest.fixture
def records(tmp_path):
    out = {}
    for rec in (HALF, GAP, PROSE):
        p = tmp_path / f"{rec['id']:03d}_{rec['short_name']}.json"
        p.write_text(json.dumps(rec))
        out[rec["short_name"]] = p
    return out


def test_import_a_parametric_class_at_a_size(capsys, tmp_path, records):
    code, out, err = run(capsys, "catalogue", "import", records["halfintervals"], "--n", 6, "-o", tmp_path / "h.json")
    assert code == 0 and "halfintervals n=6" in err
    data = json.loads((tmp_path / "h.json").read_text())
    assert data["family"] == "halfintervals" and data["params"] == {"n": 6}
    C = ConceptClass.from_file(tmp_path / "h.json")
    assert {tuple(r) for r in C.matrix.tolist()} == {tuple(r) for r in np.tri(6, dtype=bool).tolist()}


def test_import_a_fixed_class_listed_by_strings(capsys, records):
    code, out, _ = run(capsys, "catalogue", "import", records["projected_rtd_gap"])
    assert code == 0
    assert json.loads(out)["matrix"] == [[0, 0, 1], [0, 1, 0], [0, 1, 1], [1, 0, 0]]


@pytest.mark.parametrize("argv, says", [
    (["PROSE"], "cannot build the catalogue's class 'tagged_singletons'"),
    (["HALF"], "give the size with --n N"),
    (["GAP", "--n", "3"], "lists its 4 concepts: give no --n"),
    ([], "needs the catalogue's class record"),
    (["HALF", "--n", "4", "--dir", "x"], "takes no --dir"),
])
def test_import_errors_are_one_line(capsys, records, argv, says):
    names = {"PROSE": "tagged_singletons", "HALF": "halfintervals", "GAP": "projected_rtd_gap"}
    argv = [records[names[a]] if a in names else a for a in argv]
    code, out, err = run(capsys, "catalogue", "import", *argv)
    assert_usage_error(code, out, err)
    assert says in err


def test_import_never_writes_over_its_record(capsys, records):
    path = records["halfintervals"]
    before = path.read_text()
    code, out, err = run(capsys, "catalogue", "import", path, "--n", 3, "-o", path)
    assert_usage_error(code, out, err)
    assert path.read_text() == before


def test_export_the_stores_rows_as_value_records(capsys, tmp_path, records):
    store = tmp_path / "s.db"
    run(capsys, "catalogue", "import", records["halfintervals"], "--n", 5, "-o", tmp_path / "h.json")
    run(capsys, "catalogue", "import", records["projected_rtd_gap"], "-o", tmp_path / "g.json")
    assert run(capsys, "params", "--matrix", tmp_path / "h.json", "--only", "vc,threshold_chain,mq", "--store", store,
               "--quiet")[0] == 0
    assert run(capsys, "params", "--matrix", tmp_path / "g.json", "--only", "rtd_p", "--store", store, "--quiet")[0] == 0
    assert run(capsys, "params", "thresholds", "N=4", "--only", "vc", "--store", store, "--quiet")[0] == 0
    code, out, err = run(capsys, "catalogue", "export", "--store", store, "--classes", records["projected_rtd_gap"],
                         "-o", tmp_path / "v.json")
    assert code == 0, err
    recs = json.loads((tmp_path / "v.json").read_text())
    got = {(r["class_id"], r["parameter_id"]): r for r in recs}
    assert {k: r["value"] for k, r in got.items()} == {
        ("#classes/halfintervals", "#parameters/vc_dimension"): "$1$",
        ("#classes/halfintervals", "#parameters/threshold_dimension"): "$4$",  # the catalogue's n - 1
        ("#classes/halfintervals", "#parameters/membership_query_complexity"): "$3$",  # ceil(log2 5)
        ("#classes/projected_rtd_gap", "#parameters/monotone_recursive_teaching_dimension"): "$2$",
    }
    status = {k[1].split("/")[1]: r["status"] for k, r in got.items()}
    # established where the certificates prove both sides: the chain's bound of every class, mq's ceil(log2 |C|);
    # VC's and rtd_p's upper sides are the searches' (not replayed by a checker)
    assert status == {"threshold_dimension": "established", "membership_query_complexity": "established",
                      "vc_dimension": "needs_verification", "monotone_recursive_teaching_dimension":
                      "needs_verification"}
    for r in recs:
        assert r["proof"] and "littlestone" in r["details"]
        assert set(r) >= {"id", "name", "short_name", "class_id", "parameter_id", "value", "status", "proof"}
    assert "1 row not of the catalogue's" in err  # thresholds N=4 is not one of its classes
    mq = got[("#classes/halfintervals", "#parameters/membership_query_complexity")]
    assert "`littlestone params halfintervals n=5 --only mq`" in mq["details"]
    # one file a record
    code, _, err = run(capsys, "catalogue", "export", "--store", store, "--dir", tmp_path / "values")
    assert code == 0 and len(list((tmp_path / "values").glob("*.json"))) == 3  # the gap class unnamed without --classes
    code, out, err = run(capsys, "catalogue", "export", "--store", store, "--dir", tmp_path / "values")
    assert_usage_error(code, out, err, contains=None)
    assert "exists" in err


def test_the_imported_family_is_the_catalogues_class():
    """The families made for the catalogue's classes against their definitions."""
    assert {tuple(r) for r in make("majority-vote", n=2).matrix.astype(int).tolist()} == {
        (0, 0, 0), (0, 1, 0), (1, 0, 0), (1, 1, 1)}
    A = make("addressing", n=4).matrix.astype(int).tolist()
    assert sorted(A) == sorted([[1, 0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 1], [0, 0, 1, 0, 1, 0], [0, 0, 0, 1, 1, 1]])
    assert make("constants", n=3).n_concepts == 2


def test_a_record_whose_name_is_not_a_string_and_prose_with_numbers_are_refused(capsys, tmp_path):
    for i, rec in enumerate(({"short_name": ["x"]}, {"short_name": "iv", "definition":
                                                    "All intervals of a line of 10 points, with 11 endpoints"})):
        path = tmp_path / f"r{i}.json"
        path.write_text(json.dumps(rec))
        code, out, err = run(capsys, "catalogue", "import", path)
        assert_usage_error(code, out, err)
