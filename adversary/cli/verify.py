"""``littlestone verify FILE``: re-check a certificate from scratch: a mistake tree or an upper-bound
certificate against its class, or a witness (which names its own class and learner) by replaying it.

Every claim a file makes is derived again from the file and the class, or refused; a field verify does not
know is an error, never ignored.

* ``"made_for"`` (trees, proofs, witnesses): each field derived from the class
  (:func:`solvers.certificates.check_made_for`): its sizes, its fingerprint (that of a form of the class's family
  when matched by the family fingerprint), its family fingerprint and its words (a class file's path is not
  checked; its fingerprint is).
* A witness (:func:`adversary.referee.verify_witness`, then :func:`adversary.claims.check_claims`): its mistakes
  and their kinds by replaying it; its ``"bound"`` from the learner rebuilt by name (``bound_for``: the learner's
  own ``bound_on`` the class), field by field; its ``"verdict"`` from the replayed count against that bound, as the
  attack derives it (``below`` and ``stopped`` both mean under the bound: ``stopped`` only says the attack's search
  was cut short); its lemmas from the learner; its ``"strategy"`` and ``"maximize"`` must be names littlestone
  writes. Its ``"opt"`` (the game's optimum, with ``"opt_symbol"`` and ``"opt_fraction"``) is computed again by
  the solver within ``--time-limit`` (default :data:`WITNESS_SECONDS` seconds, shared with the bound, which for
  SOA is itself Opt(C)): a value the solver settles must be equal, one outside the bounds it proves fails, and one
  the time does not settle (a large class; a value an attack took from the results store) is not accepted: verify
  prints ``NOT CHECKED`` with the bounds found and exits 3, as a run cut short by its limits does. ``"opt": null``
  and a bound the attack could not compute (value null, "...: not computed within the time limit") claim nothing.
  A learner not in the registry (attacked as ``attack(MyLearner, ...)``) is given by ``--learner MODULE:CLASS``
  (:func:`import_learner`), registered while its witness is replayed (:class:`solvers.learners.registered`).

Exit codes: 0 every claim holds; 1 a certificate or witness fails its check; 2 bad input (a file that is not a
certificate at all, a missing class); 3 a witness's claim not settled within ``--time-limit``.
"""

from __future__ import annotations

import json
from pathlib import Path

from ._args import add_class_source, add_memory_guard, class_of_args, positive_seconds
from ._output import EXIT_FAILED, EXIT_OK, EXIT_UNSOLVED, CLIError, note, one_line

__all__ = ["HELP", "add", "run", "VERIFIERS"]

#: The default seconds to derive a witness's bound and Opt again (``--time-limit``).
WITNESS_SECONDS = 60.0

HELP = "re-check a certificate: a mistake tree or an upper-bound certificate against a class, or a witness"


def add(p) -> None:
    p.add_argument("file", metavar="FILE",
                   help="a certificate to re-check: a mistake tree (.json, with its class) or a witness (carries its class)")
    add_class_source(p, what="the class of a mistake tree (a witness names its own)")
    p.add_argument("--exact", action="store_true",
                   help="witnesses on margin-halfspaces: check |x| <= R and the margin in exact rational arithmetic")
    p.add_argument("--learner", metavar="MODULE:CLASS",
                   help="witnesses of a learner you attacked without registering it (adversary.attack(MyLearner, "
                        "...)): its class, imported from MODULE (the current directory first, then sys.path), "
                        "registered while the witness is replayed; an OnlineLearner subclass with the witness's "
                        "learner name")
    p.add_argument("--time-limit", type=positive_seconds, default=WITNESS_SECONDS, metavar="S",
                   help="witnesses: the seconds to derive their learner's bound and the class's Opt again "
                        f"(default {WITNESS_SECONDS:g}); a claim not settled in them exits 3")
    add_memory_guard(p)
    from ._store import add_no_store

    add_no_store(p, "verify")


#: What verify reads, for the message on a file that is none of them.
READS = ('verify reads a mistake tree ({"depth": d, "root": ...}, opt --tree), a certificate with a "kind" '
         "(upper-bound, upper-bound-states, randomized-tree, multiclass-trees: opt --proof, multiclass --tree) or a "
         "witness (attack --witness)")


def _check_is_certificate(path, data) -> None:
    """CLIError (bad input, exit 2) for JSON that is no certificate at all: not an object, or an object with
    neither a ``"kind"`` nor a tree's ``"depth"``. A file that is one and fails its check is exit 1."""
    if isinstance(data, dict) and ("kind" in data or "depth" in data):
        return
    if isinstance(data, dict) and set(data) == {"lower", "upper"}:
        raise CLIError(f"{path} holds a stored row's certificates (store show --certificates): write its \"lower\" "
                       f"or its \"upper\" to a file of its own and verify that; {READS}")
    what = "a JSON object with neither a \"kind\" nor a \"depth\"" if isinstance(data, dict) else \
        f"JSON: {_json_type(data)}"
    raise CLIError(f"{path} is not a certificate ({what}); {READS}")


def _json_type(v) -> str:
    """What a JSON value is, in words: ``an array``, ``a string``, ``a number``, ``true``, ``null``."""
    if v is None or isinstance(v, bool):
        return json.dumps(v)
    return {list: "an array", str: "a string"}.get(type(v), "a number")


#: The top-level fields each kind of certificate has (what littlestone's writers put there); any other is an
#: error (a claim verify cannot check), never ignored. A witness's are :data:`adversary.claims.WITNESS_KEYS`.
FIELDS = {
    "tree": ("kind", "made_for", "format", "rule", "depth", "root", "levels", "game", "concepts"),
    "randomized-tree": ("kind", "made_for", "format", "rule", "game", "value", "root"),
    "upper-bound": ("kind", "made_for", "format", "rule", "bound", "concepts", "entries", "symmetry", "game", "form",
                    "group", "family", "params", "opt_bound"),
    "upper-bound-states": ("kind", "made_for", "format", "rule", "family", "params", "bound", "entries", "concepts"),
    "multiclass-trees": ("kind", "class", "fingerprint", "k", "concepts", "points", "full", "bandit", "full_note",
                         "bandit_note"),
}


def _unknown_field(kind: str, data: dict):
    """The first top-level field of a certificate of ``kind`` that littlestone does not write, or None."""
    known = FIELDS.get(kind)
    return None if known is None else next((k for k in data if k not in known), None)


def _certificate_kind(data) -> str:
    """What a certificate file holds: ``"tree"`` or the file's ``"kind"``."""
    if isinstance(data, dict) and "kind" in data:
        return str(data["kind"])
    return "tree"


def _verify_against_class(args, data, check, what: str, ok_text, *, evaluated: bool = False) -> int:
    """Run a certificate checker that needs the class (a tree or an upper-bound certificate); with
    ``evaluated`` the checker also reads an EvaluatedClass (a family instance too large for a matrix).

    First the class the certificate records (``"made_for"``, :func:`solvers.certificates.check_made_for`):
    another class fails at once, in one line; a file that records none (written before certificates
    recorded their class) is checked as before, with a note. Then the checker; ``ok_text(value, C)``
    gives (what is proven, how), printed as ``OK: <what> for <class> (<how>)``."""
    from solvers.certificates import ClassMismatch, TreeError, check_made_for

    C, label, _, _ = class_of_args(args, implicit=True, evaluated=evaluated)
    try:
        matched = check_made_for(data, C, label, what=what)
        value = check(data, C)
    except ClassMismatch as e:
        print(f"FAILED: {one_line(e)} ({what} {args.file})", flush=True)
        return EXIT_FAILED
    except TreeError as e:
        print(f"FAILED: {one_line(e)} ({what} {args.file}, class {label})", flush=True)
        return EXIT_FAILED
    claim, how = ok_text(value, C)
    print(f"OK: {claim} for {label} ({how})", flush=True)
    if not matched:
        note(f"{args.file} records no class fingerprint (written before littlestone recorded one): it was checked "
             f"against {label}, but the class it was made for could not be matched")
    return EXIT_OK


def _verify_tree_file(args, data) -> int:
    from solvers.certificates import verify_tree
    from solvers.certificates.games import read_game, verify_error_tree

    G = read_game(data)  # TreeError (one line) for a malformed "game"
    if G.standard:
        return _verify_against_class(args, data, verify_tree, "tree",
                                     lambda d, C: (f"Opt(C) >= {d}", f"a mistake tree of depth {d}"), evaluated=True)
    if G.randomized:
        raise CLIError(f"{args.file} names a randomized game but is a mistake tree; a randomized game's tree has "
                       '"kind": "randomized-tree" (opt --randomized --tree OUT.json writes one)')
    errs = f" with {G.errors} label error{'s' if G.errors != 1 else ''}" if G.errors else ""
    return _verify_against_class(args, data, lambda t, C: verify_error_tree(t, C, G.errors, G.horizon), "tree",
                                 lambda d, C: (f"{G.symbol}(C) >= {d}", f"a mistake tree of depth {d}{errs}"))


def _verify_randomized_tree_file(args, data) -> int:
    """A shattered tree of the randomized game (solvers.certificates.games.verify_randomized_tree)."""
    from solvers.certificates.opt import tree_height
    from solvers.certificates.games import random_walk_value, read_game, verify_randomized_tree
    from solvers.game_rules import value_text

    G = read_game(data)

    def ok(v, C):
        how = f"a shattered tree of height {tree_height(data.get('root'))}"
        if G.errors == 0 and not _has_repeat(data.get("root")):
            how += f"; its random-walk average depth is {value_text(2 * random_walk_value(data))}"
        return f"{G.symbol}(C) >= {value_text(v)}", how

    return _verify_against_class(args, data, verify_randomized_tree, "tree", ok)


def _has_repeat(root) -> bool:
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if "repeat" in node:
                return True
            stack.extend(v for k, v in node.items() if k in ("0", "1", "exit"))
    return False


def _verify_witness_file(args, data) -> int:
    """A witness (adversary.game): replayed from scratch on the class and learner it names, then every claim it
    makes of itself derived again (:func:`adversary.claims.check_claims`: its bound from the learner, its verdict
    from the replayed count against that bound, its Opt(C) by the solver within ``--time-limit``); a claim that is
    wrong fails (exit 1), one the time limit does not settle is NOT CHECKED (exit 3)."""
    if list(args.target) or args.matrix is not None:
        given = "--matrix" if args.matrix is not None else repr(args.target[0])
        raise CLIError(f"{args.file} is a witness, which names its own class; drop {given} and the class arguments")
    if args.learner is None:
        return _check_witness(args, data, None)
    from solvers.learners import registered

    learner = import_learner(args.learner)
    named = data.get("learner", {}).get("name") if isinstance(data.get("learner"), dict) else data.get("learner")
    if isinstance(named, str) and named != learner.name:
        raise CLIError(f"{args.file} is a witness of the learner {named!r}, and {args.learner} is named "
                       f"{learner.name!r}; give the class the witness was made with")
    with registered(learner):  # (ValueError, one line: its name taken by another learner)
        return _check_witness(args, data, learner)


def import_learner(text: str) -> type:
    """The learner class ``MODULE:CLASS`` names, imported with the current directory first on ``sys.path`` (as
    ``python -m`` does); CLIError (one line) when it cannot be imported or is no OnlineLearner subclass."""
    import importlib
    import os
    import sys

    from solvers.learners.base import OnlineLearner

    module, sep, name = text.partition(":")
    if not sep or not module or not name or ":" in name:
        raise CLIError(f"--learner {text!r}: give MODULE:CLASS, e.g. --learner my_learners:MyLearner "
                       "(my_learners.py in the current directory)")
    here = os.getcwd()
    added = here not in sys.path and "" not in sys.path
    if added:
        sys.path.insert(0, here)
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as e:
        if e.name is not None and (module == e.name or module.startswith(e.name + ".")):  # the module itself
            raise CLIError(f"--learner {text}: no module {e.name!r} in the current directory ({here}) or on "
                           "sys.path; run verify where the module's file is, or set PYTHONPATH") from None
        raise CLIError(f"--learner {text}: importing {module} failed: {one_line(e)}") from None
    except Exception as e:  # noqa: BLE001 - the user's module raised while it was imported: one line
        raise CLIError(f"--learner {text}: importing {module} failed: {type(e).__name__}: {one_line(e)}") from None
    finally:
        if added:
            sys.path.remove(here)
    cls = getattr(mod, name, None)
    if cls is None:
        raise CLIError(f"--learner {text}: the module {module} has no {name!r}")
    if not (isinstance(cls, type) and issubclass(cls, OnlineLearner)):
        what = f"the class {cls.__name__}" if isinstance(cls, type) else f"an object of type {type(cls).__name__}"
        raise CLIError(f"--learner {text} is {what}, not an OnlineLearner subclass "
                       "(solvers.learners.base.OnlineLearner); give the learner's class")
    return cls


def _check_witness(args, data, learner) -> int:
    from adversary.claims import check_claims
    from adversary.referee import verify_witness

    r = verify_witness(data, exact=args.exact, learner=learner)
    if not r.ok:
        hint = ("; on the command line: --learner MODULE:CLASS" if learner is None and r.mistakes is None
                and "unknown learner" in r.message else "")
        print(f"FAILED: {one_line(r.message)}{hint} (witness {args.file})", flush=True)
        return EXIT_FAILED
    lemmas, why = _lemmas_again(data)
    if why is not None:
        print(f"FAILED: {why} (witness {args.file})", flush=True)
        return EXIT_FAILED
    claims = check_claims(data, r, time_limit=args.time_limit)
    if claims.status == "failed":
        print(f"FAILED: {one_line(claims.message)} (witness {args.file})", flush=True)
        return EXIT_FAILED
    if claims.status == "unchecked":
        print(f"NOT CHECKED: {one_line(claims.message)} (witness {args.file}; its replay holds: "
              f"{one_line(r.message)})", flush=True)
        return EXIT_UNSOLVED
    kinds = data.get("mistakes_by_kind")
    counted = (f"; u = {kinds['false_negative']} false negatives, v = {kinds['false_positive']} false positives"
               if isinstance(kinds, dict) else "")
    print(f"OK: {one_line(r.message)}{counted}")
    for line in claims.lines:
        print(f"  {line}")
    for L in lemmas:
        print(f"  lemma {L['formula']}: {L['count']} <= {L['bound']:g}  {L['verdict']}  ({L['source']})")
    if "made_for" not in data:
        note(f"{args.file} records no class fingerprint (written before littlestone recorded one): it was replayed "
             "on the class it names, which could not be matched against the class it was made for")
    return EXIT_OK


def _lemmas_again(w: dict):
    """(the learner's lemmas held against the witness's replayed counts, what disagrees with the witness's own
    "lemmas" or None). A verdict ``loose`` (the attack's exact search proved that kind's worst case) is checked
    as ``below``: the count is under the bound; that it is the worst case is the search's claim, not the replay's."""
    from adversary.attack import lemmas_for
    from adversary.referee import build_learner, learner_spec, witness_class

    if not isinstance(w.get("mistakes_by_kind"), dict) or "expected_mistakes" in w:
        return [], None
    try:
        name, params = learner_spec(w["learner"])
        C = witness_class(w["class"])
        again = lemmas_for(build_learner(name, params, C), C, w["mistakes_by_kind"], int(w.get("errors", 0)))
    except (ValueError, TypeError, KeyError) as e:
        return [], f"its lemmas cannot be derived again ({one_line(e)})"
    claimed = w.get("lemmas")
    if claimed is None:
        return again, None
    if not isinstance(claimed, list) or len(claimed) != len(again):
        return again, f'"lemmas" lists {len(claimed) if isinstance(claimed, list) else "no"} lemmas; the learner has {len(again)}'

    def plain(v):
        return "below" if v == "loose" else v

    for c, a in zip(claimed, again):
        if not isinstance(c, dict):
            return again, '"lemmas" must be a list of objects'
        for key in ("kind", "formula", "count", "bound"):
            if c.get(key) != a[key]:
                return again, f"lemma {a['formula']!r}: the witness says {key} {c.get(key)!r}, replay gives {a[key]!r}"
        if plain(c.get("verdict")) != plain(a["verdict"]):
            return again, (f"lemma {a['formula']!r}: the witness says {c.get('verdict')!r}, and {a['count']} against "
                           f"{a['bound']:g} gives {a['verdict']!r}")
        a["verdict"] = c["verdict"]
    return again, None


def _entries(data) -> int:
    return len(data["entries"]) if isinstance(data.get("entries"), list) else 0


def _halving(C, u) -> bool:
    """|C| < 2^(u+1): Opt(C) <= floor(log2 |C|) <= u by the Halving bound, whatever the entries say."""
    m = getattr(C, "n_concepts", None)
    return isinstance(m, int) and isinstance(u, int) and m.bit_length() <= u + 1


def _verify_upper_file(args, data) -> int:
    """An upper-bound certificate (solvers.certificates.verify_upper; solvers.certificates.games.verify_game_upper
    when it names a game), checked against its class."""
    from solvers.certificates import verify_upper
    from solvers.certificates.games import read_game, verify_game_upper
    from solvers.game_rules import value_text

    n = _entries(data)
    G = read_game(data)
    check = verify_upper if G.standard else verify_game_upper

    def ok(u, C):
        if G.standard and _halving(C, u):  # the checker needs no entry then: say what proves it
            how = f"|C| = {C.n_concepts} < 2^{u + 1}, so the Halving bound alone proves it"
        elif n == 0:
            how = "no entries: the game's cheap bounds (the volume bound, the rounds left) alone prove it"
        else:
            how = f"an upper-bound certificate of {n} entr{'y' if n == 1 else 'ies'}"
        return f"{G.symbol}(C) <= {value_text(u)}", how

    return _verify_against_class(args, data, check, "certificate", ok, evaluated=G.standard)


def _verify_state_upper_file(args, data) -> int:
    """An upper-bound certificate over compact states (solvers.certificates.states.verify_state_upper)."""
    from solvers.certificates.states import verify_state_upper

    n = _entries(data)

    def ok(u, C):
        if _halving(C, u):
            return f"Opt(C) <= {u}", f"|C| = {C.n_concepts} < 2^{u + 1}, so the Halving bound alone proves it"
        return f"Opt(C) <= {u}", f"an upper-bound certificate over states of {n} entr{'y' if n == 1 else 'ies'}"

    return _verify_against_class(args, data, verify_state_upper, "certificate", ok, evaluated=True)


def _verify_multiclass_file(args, data) -> int:
    """The mistake trees of ``littlestone multiclass --tree`` (full information and bandit feedback), each replayed
    against the multiclass class named (solvers.certificates.multiclass.check_tree), after its fingerprint."""
    from solvers.certificates.multiclass import check_tree

    from .multiclass import _load

    C, label = _load(args)
    if data.get("fingerprint") not in (None, C.fingerprint()):
        print(f"FAILED: {args.file} was made for another class (fingerprints differ), not {label}", flush=True)
        return EXIT_FAILED
    games = [g for g in ("full", "bandit") if isinstance(data.get(g), dict)]
    if not games:
        raise CLIError(f"{args.file} holds no tree ('full' or 'bandit'); littlestone multiclass --tree writes them")
    failed = False
    for game in games:
        ok, why = check_tree(C, data[game])
        print(f"{'OK' if ok else 'FAILED'}: {game}: {why} ({label})", flush=True)
        failed = failed or not ok
    return EXIT_FAILED if failed else EXIT_OK


#: kind -> checker (a file without "kind" is a mistake tree).
VERIFIERS = {"tree": _verify_tree_file, "randomized-tree": _verify_randomized_tree_file,
             "witness": _verify_witness_file, "upper-bound": _verify_upper_file,
             "upper-bound-states": _verify_state_upper_file, "multiclass-trees": _verify_multiclass_file}


def run(args) -> int:
    from solvers.certificates import load_tree

    suffix = Path(args.file).suffix.lower()
    if suffix in (".dot", ".gv", ".graphml", ".tex"):
        raise CLIError(f"{args.file} is a {suffix} drawing; verify reads the .json form of a tree (opt --tree OUT.json)")
    data = load_tree(args.file)  # TreeError (a ValueError) for a missing or non-JSON file
    _check_is_certificate(args.file, data)
    kind = _certificate_kind(data)
    check = VERIFIERS.get(kind)
    if check is None:
        shown = repr(kind) if len(kind) <= 60 else repr(kind[:57]) + "..."
        raise CLIError(f"{args.file} has kind {shown}; verify knows {', '.join(repr(k) for k in VERIFIERS)}")
    if getattr(args, "learner", None) is not None and kind != "witness":
        raise CLIError(f"--learner is for witnesses (attack --witness); {args.file} is a {kind.replace('-', ' ')}: "
                       "drop --learner")
    extra = _unknown_field(kind, data)
    if extra is not None:
        what = "certificate" if kind.startswith("upper") else kind.replace("-", " ")
        print(f"FAILED: the {what} has the field {json.dumps(extra)[:60]}, which littlestone does not write and verify "
              f"cannot check; drop it ({what} {args.file})", flush=True)
        return EXIT_FAILED
    return check(args, data)
