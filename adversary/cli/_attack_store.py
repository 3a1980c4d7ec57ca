"""What ``attack``, ``attack --grid`` and ``pac`` share on the command line: the parsing of ``k=v`` items. An
attack's row in the results store (its task key, its record, serving a stored one again) is the workspace's
(:mod:`adversary.workspace.attack`); its names are re-exported here under the names the commands import."""

from __future__ import annotations

from adversary.workspace.attack import attack_record as _attack_record  # noqa: F401
from adversary.workspace.attack import known_opt
from adversary.workspace.attack import served_attack as _served_attack  # noqa: F401
from adversary.workspace.attack import stopped_row as _stopped_row  # noqa: F401
from adversary.workspace.attack import task_of as _task_of  # noqa: F401
from adversary.workspace.attack import trusted_attack as _trusted_attack  # noqa: F401

from ._output import CLIError

__all__ = []


def _known_opt(store, C, args):
    """Opt(C) as the store knows it, for these arguments (:func:`adversary.workspace.attack.known_opt`)."""
    return known_opt(store, C, errors=args.errors, trust=args.trust_store)


# ---------------------------------------------------------------------------------------- k=v items
def _kv_items(items, what: str) -> dict:
    """``["n=5", "alpha=3/2"]`` -> ``{"n": "5", "alpha": "3/2"}`` (the library reads the strings)."""
    out = {}
    for item in items:
        key, eq, value = str(item).partition("=")
        key, value = key.strip(), value.strip()
        if not eq or not key or not value:
            raise CLIError(f"{what} {item!r} is not name=value; write e.g. n=5")
        if key in out:
            raise CLIError(f"{what} {key!r} is given twice; give it once")
        out[key] = value
    return out


def _whole_numbers(params: dict) -> dict:
    """Values that are whole numbers as ints (``n=06`` is n=6, ``alpha=4/2`` is 2); the rest as given (the
    learner reads its own strings exactly)."""
    from adversary.store import canonical_value

    out = {}
    for k, v in params.items():
        c = canonical_value(v)
        out[k] = c if isinstance(c, int) and not isinstance(c, bool) else v
    return out
