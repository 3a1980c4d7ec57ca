"""``littlestone learners [--json]``: the online learners of ``solvers.learners``, their parameters,
proven mistake bounds and sources."""

from __future__ import annotations

import json

from ._output import EXIT_OK, json_safe

__all__ = ["HELP", "add", "run"]

HELP = "list the online learners, their parameters and proven mistake bounds"


# solvers.learners: LEARNERS (CLI name -> LearnerSpec with name, cls, params [(name, default, doc)],
# needs_class, bound_params, bound_formula, source) and make_learner(name, params, C).
def add(p) -> None:
    p.add_argument("--json", action="store_true",
                   help='print one JSON object {"learners": [{name, params, needs_class, bound, bound_params, source, ...}]}')


def _learner_rows() -> list[dict]:
    """One row per learner: its CLI name, class, one-line description, parameters with defaults,
    whether it needs a finite class, its proven bound (formula, and the target parameters
    ``mistake_bound`` takes) and the seed it comes from."""
    from solvers.learners import LEARNERS

    rows = []
    for spec in dict.fromkeys(LEARNERS.values()):  # each learner once, in registry order
        doc = (getattr(spec.cls, "__doc__", None) or "").strip()
        summary = getattr(spec, "summary", "") or (doc.splitlines()[0].strip() if doc else "")
        rows.append({
            "name": spec.name,
            "aliases": [key for key, s in LEARNERS.items() if s is spec and key != spec.name],
            "class": getattr(spec.cls, "__name__", str(spec.cls)),
            "description": summary,
            "params": [{"name": n, "default": d, "doc": text} for n, d, text in spec.params],
            "needs_class": bool(spec.needs_class),
            "bound": spec.bound_formula,
            "bound_params": list(spec.bound_params),
            "source": spec.source,
        })
    return rows


def _param_text(p: dict) -> str:
    """``n`` for a required parameter, ``alpha=2`` (``strict=false``) for one with a default."""
    if p["default"] is None:
        return p["name"]
    default = str(p["default"]).lower() if isinstance(p["default"], bool) else p["default"]
    return f"{p['name']}={default}"


def run(args) -> int:
    rows = _learner_rows()
    if args.json:
        print(json.dumps({"learners": json_safe(rows)}))
        return EXIT_OK
    for i, r in enumerate(rows):
        if i:
            print()
        signature = " ".join(_param_text(p) for p in r["params"])
        aliases = f"  (also: {', '.join(r['aliases'])})" if r["aliases"] else ""
        print(f"{r['name']}  {signature}".rstrip() + aliases)
        if r["description"]:
            print(f"    {r['description']}")
        if r["params"]:
            width = max(len(_param_text(p)) for p in r["params"]) + 2
            print("    parameters:")
            for p in r["params"]:
                print(f"      {_param_text(p):<{width}}{p['doc'] or ''}".rstrip())
        print("    plays on: " + ("a finite class, which it is built from" if r["needs_class"]
                                   else "0/1 or real vectors of its dimension"))
        print(f"    bound: {r['bound']}")
        if r["bound_params"]:
            print(f"    bound arguments (the target's parameters): {', '.join(r['bound_params'])}")
        print(f"    source: {r['source']}")
    return EXIT_OK
