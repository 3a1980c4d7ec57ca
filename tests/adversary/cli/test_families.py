"""``littlestone families``: every family, its parameters, size and known values, and the attack-only
margin-halfspaces."""

import json

from .checks import one_error_line, run


def test_families_lists_every_family(capsys):
    from solvers.classes import families

    code, out, err = run(capsys, "families")
    assert code == 0 and err == ""
    for name in ("thresholds", "parities", "singletons"):
        assert name in out
    for name in families.FAMILIES:
        assert name in out
    assert "|C| = N + 1" in out and "Opt(C) = floor(log2(N+1))" in out  # size formula, known value


def test_families_json(capsys):
    from solvers.classes import families

    code, out, _ = run(capsys, "families", "--json")
    assert code == 0
    data = json.loads(out)
    names = [f["name"] for f in data["families"]]
    assert names == [*families.FAMILIES, "margin-halfspaces"]  # the attack-only family last
    assert [f["attack_only"] for f in data["families"]] == [False] * len(families.FAMILIES) + [True]
    thresholds = data["families"][names.index("thresholds")]
    assert thresholds["size"] == "N + 1" and thresholds["opt"]  # the size formula and the known value
    assert [(p["name"], p["required"]) for p in thresholds["parameters"]] == [("N", True)]
    intervals = data["families"][names.index("intervals")]
    assert {"name": "empty", "default": 1} .items() <= intervals["parameters"][1].items()


def test_families_marks_margin_halfspaces_attack_only(capsys):
    code, out, _ = run(capsys, "families")
    assert code == 0 and "margin-halfspaces  d gamma R=1  (attack only)" in out
    for command in (["opt"], ["export"], ["table"]):
        code, out, err = run(capsys, *command, "margin-halfspaces", "d=3", "gamma=0.1")
        one_error_line(code, err, contains=["attack"])
