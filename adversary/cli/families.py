"""``littlestone families [--json]``: the concept-class families, their parameters, sizes and known
values (from ``solvers.classes.families.describe()``), then the attack-only families (their ``LISTING``)."""

from __future__ import annotations

import json

from ._args import families
from ._output import EXIT_OK, json_safe

__all__ = ["HELP", "add", "run"]

HELP = "list the concept-class families, their parameters, sizes and known values"

def add(p) -> None:
    p.add_argument("--json", action="store_true", help='print one JSON object {"families": [{name, params, size, opt, known, parameters, ...}]}')


def _family_rows() -> list[dict]:
    """``families.describe()``'s rows (name, params, size, opt, known, domain, description), each with
    ``parameters``: every parameter's name, type, default (None when required) and meaning."""
    fam = families()
    rows = [dict(r) for r in fam.describe()]
    for row in rows:
        row["parameters"] = [
            {"name": p.name, "type": p.type.__name__, "default": p.default, "required": p.required, "doc": p.doc}
            for p in fam.FAMILIES[row["name"]].params
        ]
        row["attack_only"] = False
    return [*rows, *(dict(fam.attack_only(name).LISTING) for name in fam.ATTACK_ONLY)]


def run(args) -> int:
    rows = _family_rows()
    if args.json:
        print(json.dumps({"families": json_safe(rows)}))
        return EXIT_OK
    for i, r in enumerate(rows):
        if i:
            print()
        params = ", ".join(
            (p["name"] if p["required"] else f"{p['name']}={p['default']}") + (f" ({p['doc']})" if p.get("doc") else "")
            for p in r["parameters"])
        print(f"{r['name']}  {r.get('params', '')}".rstrip() + ("  (attack only)" if r.get("attack_only") else ""))
        for key, label in (("description", ""), ("domain", "domain: "), ("size", "|C| = "),
                           ("opt", "Opt(C) = "), ("known", "known: ")):
            if r.get(key):
                print(f"    {label}{r[key]}")
        if params:
            print(f"    parameters: {params}")
    _multiclass_families()
    return EXIT_OK


def _multiclass_families() -> None:
    """The families of k-label classes, which 'littlestone multiclass' takes (not opt)."""
    from solvers.multiclass import FAMILIES

    print("\nmulticlass families (k labels; 'littlestone multiclass' takes them, not opt):")
    for name, f in FAMILIES.items():
        params = " ".join(k if default is None else f"{k}={default}" for k, (default, _) in f.params.items())
        print(f"  {name}  {params}\n    {f.text}")
