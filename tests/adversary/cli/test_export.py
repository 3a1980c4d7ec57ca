"""``littlestone export``: a class as JSON that loads back with ``--matrix``."""

import json

import pytest

from .checks import assert_usage_error, run


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


BAD = {
    "export extension": ["export", "thresholds", "N=7", "-o", "{d}/c.csv"],
    "export unknown family": ["export", "nothing", "n=3"],
}


@pytest.mark.parametrize("case", list(BAD), ids=list(BAD))
def test_bad_input_is_one_line(capsys, bad_files, case):
    assert_usage_error(*run(capsys, *[a.format(d=bad_files) for a in BAD[case]]))
