"""One proof format: versioned certificates whose reductions are named rules, and the one :func:`verify`.

Every certificate littlestone writes is a JSON object checked against the class alone. Version 2 of the format
(``"format": "littlestone-proof/2"``) names, in ``"rule"``, the rule its entries are checked by; each rule has
one checker, registered in :data:`RULES`, and :func:`verify` is the one entry to all of them::

    {"kind": "upper-bound", "made_for": {...}, "format": "littlestone-proof/2", "rule": "orbit",
     "bound": u, "symmetry": {...}, "entries": [...]}

The parts every rule shares are said once, here: the version is read (:func:`version_of`), the rule found
(:func:`rule_of`), the class the certificate was made for matched (``"made_for"``,
:func:`solvers.certificates.binding.check_made_for`), and only then the rule's checker runs.

A certificate without ``"format"`` is version 1, what littlestone wrote before the rules were named: its rule
is read off its dialect exactly as the checkers dispatched it then (``"form": "packed"``, ``"symmetry":
"renaming"``, a ``"symmetry"`` group, a ``"game"``; the ``"kind"``), so every such certificate verifies as it
did, and nothing more. A version newer than this littlestone reads is refused in one line naming it.

Rules
-----
Upper bounds (the claims are checked by the recurrence Opt(V) = max over splitting x of
1 + min(Opt(V_x^0), Opt(V_x^1)) and the Halving bound, [Rivest94] sections 2.3.1-2.3.3):

==================  ====================  ==============================================================
rule                kind                  version spaces are
==================  ====================  ==============================================================
``paths``           ``upper-bound``       reached by labelled paths and named by the concepts they hold;
                                          an entry is refuted by its splits or used up to isomorphism
``orbit``           ``upper-bound``       the same, named up to a checked group of symmetries of C
``packed``          ``upper-bound``       truth tables over at most 64 points, matched by their closures
                                          up to the cube's signed permutations
``renaming``        ``upper-bound``       monotone disjunctions, matched up to renaming the variables
``states``          ``upper-bound-states``  intervals: multisets of free segments; rectangles: negatives, or
                                          boxes of extensions, up to the square's symmetries
``game-paths``      ``upper-bound``       budget states of the games RL, D_k, R_k, horizons
``game-orbit``      ``upper-bound``       the same, up to checked renamings of the points
``experts``         ``experts-upper``     count vectors of the experts game
==================  ====================  ==============================================================

Lower bounds: ``mistake-tree`` (a mistake tree, by nodes or by levels), ``error-tree`` (a mistake tree with k
label errors or a horizon), ``randomized-tree`` (a shattered tree of the randomized game), ``experts-tree``. Their
shape has not changed; a tree written before version 2 has no ``"format"`` and is read as version 1, by its
``"kind"`` and ``"game"``.

Within ``paths`` and ``orbit`` each entry has a rule of its own, told by its shape: ``split`` (refuted by its
splits, or small enough for the Halving bound) or ``isomorphism`` (an entry with ``"isomorphic"``, mapped onto
a refuted entry, :mod:`solvers.certificates.isomorphism`). They are in :data:`RULES` too, with ``level`` "entry".

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)

Examples
--------
>>> from solvers.classes.families import make
>>> C = make("thresholds", N=7)
>>> cert = {"kind": "upper-bound", "format": FORMAT, "rule": "paths", "bound": 3, "entries": []}
>>> verify(cert, C), rule_of(cert).name
(ProvenInt(3, claim='Opt(C) <= 3', rule='paths'), 'paths')
>>> rule_of({"kind": "upper-bound", "form": "packed", "bound": 3, "entries": []}).name  # version 1
'packed'
>>> verify({**cert, "format": "littlestone-proof/3"}, C)
Traceback (most recent call last):
...
solvers._errors.TreeError: certificate format 3 ("littlestone-proof/3") is newer than this littlestone reads (2); upgrade littlestone
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from .._errors import TreeError
from ._proven import ProvenFraction, ProvenInt
from ._reading import _show, read_game
from .binding import check_made_for

__all__ = ["FORMAT", "VERSION", "Rule", "RULES", "OPT_UPPER", "GAME_UPPER", "verify", "rule_of", "version_of",
           "stamp"]

#: The format this littlestone writes, and its version.
VERSION = 2
FORMAT = f"littlestone-proof/{VERSION}"
_PREFIX = "littlestone-proof/"


@dataclass(frozen=True)
class Rule:
    """A named rule of the proof format: the ``kind`` of the certificates it checks, whether it proves an
    ``"upper"`` or a ``"lower"`` bound, of which game (``"opt"``: Opt(C); ``"game"``: the games of
    :mod:`solvers.game_rules`; ``"experts"``), its ``level`` ("certificate", or "entry" for a rule an entry
    of a ``paths`` or ``orbit`` certificate follows), and its checker (``module:function`` in
    :mod:`solvers.certificates`, imported when first used: ``checker(cert, C)`` returns what it proves, or
    raises :class:`TreeError`). ``proves`` says in words what a certificate that passes proves."""

    name: str
    kind: str
    bound: str
    game: str
    checker: str
    proves: str
    level: str = "certificate"

    def check(self, cert, C=None):
        """Run this rule's checker on ``cert`` (no version, rule or class matching: :func:`verify` does those).
        The table names its checkers instead of importing them: their modules import this one (their old entry
        points call :func:`verify`), and a module is imported only when a certificate needs it. An entry rule is
        checked by the rule of its certificate (``paths`` or ``orbit``), entry by entry."""
        if self.level != "certificate":
            raise ValueError(f'the entry rule "{self.name}" is checked within a certificate of the rule "paths" or '
                             '"orbit"; verify the certificate')
        module, _, name = self.checker.partition(":")
        return getattr(importlib.import_module(f"solvers.certificates.{module}"), name)(cert, C)


#: The rules: name, the kind of certificate, the bound it proves, of which game, the checker, the level.
_TABLE = """
paths            upper-bound         upper  opt      opt:check_paths                certificate
orbit            upper-bound         upper  opt      opt:check_orbit                certificate
packed           upper-bound         upper  opt      packed:check_packed            certificate
renaming         upper-bound         upper  opt      disjunctions:check_renaming    certificate
states           upper-bound-states  upper  opt      states:check_states            certificate
game-paths       upper-bound         upper  game     games:check_game_paths         certificate
game-orbit       upper-bound         upper  game     games:check_game_orbit         certificate
experts          experts-upper       upper  experts  experts:check_experts_upper    certificate
mistake-tree     tree                lower  opt      opt:check_tree                 certificate
error-tree       tree                lower  game     games:check_error_tree         certificate
randomized-tree  randomized-tree     lower  game     games:check_randomized_tree    certificate
experts-tree     experts-tree        lower  experts  experts:check_experts_tree     certificate
split            upper-bound         upper  opt      opt:check_split                entry
isomorphism      upper-bound         upper  opt      isomorphism:check_isomorphic   entry
"""
_UPPER = "the claim of every entry, by the recurrence of Opt and the Halving bound"
_SPACES = "Opt(C) <= u: version spaces"
_PATHS = "reached by labelled paths"
_TREE = "every path of a complete tree of depth d is"
_COUNT = "in count space"
#: What a certificate that passes each rule's checker proves, in words.
_PROVES = {
    "paths": f"{_SPACES} {_PATHS}; {_UPPER}",
    "orbit": f"{_SPACES} named up to a group of symmetries of C, each generator checked; {_UPPER}",
    "packed": f"{_SPACES} over truth tables, matched by their closures up to the cube's signed permutations (the "
              "class checked closed under the group)",
    "renaming": f"{_SPACES} of monotone disjunctions, matched up to renaming the variables",
    "states": f"{_SPACES} of intervals, as multisets of free segments, or of rectangles, as negatives or boxes of "
              "extensions up to the square's symmetries",
    "game-paths": f"the game's value <= u: budget states {_PATHS}",
    "game-orbit": "the game's value <= u: budget states up to renamings of the points, each merge checked",
    "experts": f"the experts game's value <= u, {_COUNT}",
    "mistake-tree": f"Opt(C) >= d: {_TREE} realised by a concept",
    "error-tree": f"D_k(C) >= d: {_TREE} within k errors of a concept",
    "randomized-tree": "the randomized game's value >= the tree's value, computed bottom-up",
    "experts-tree": f"the experts game's value >= the tree's value, {_COUNT}",
    "split": "an entry's claim Opt(V) <= h: every point splitting V leaves a side with Opt <= h - 1 (Halving or a "
             "claim)",
    "isomorphism": "an entry's claim Opt(V) <= h: V is mapped one to one onto a refuted entry's version space "
                   "claiming no more, concept to concept and splitting point to point (with complement flags)",
}
#: rule name -> :class:`Rule`.
RULES: dict[str, Rule] = {
    name: Rule(name, kind, bound, game, checker, _PROVES[name], level)
    for name, kind, bound, game, checker, level in (line.split() for line in _TABLE.strip().splitlines())}

#: The rules whose certificates bound Opt(C) (what :func:`solvers.certificates.verify_upper` checks).
OPT_UPPER = frozenset({"paths", "orbit", "packed", "renaming", "states"})
#: The rules whose certificates bound a game's value (:func:`solvers.certificates.games.verify_game_upper`):
#: the game rules, and the Opt(C) rules, whose bound is one of the deterministic game without errors, with or
#: without a horizon.
GAME_UPPER = frozenset({"game-paths", "game-orbit"}) | OPT_UPPER


def version_of(cert) -> int:
    """The format version of ``cert``: 1 without ``"format"`` (what littlestone wrote before it was versioned),
    else the N of ``"littlestone-proof/N"``. :class:`TreeError` for a version newer than :data:`VERSION` ("...
    is newer than this littlestone reads; upgrade littlestone") or a ``"format"`` that is no littlestone proof
    format.

    >>> version_of({"kind": "upper-bound"}), version_of({"format": "littlestone-proof/2"})
    (1, 2)
    """
    if not isinstance(cert, dict) or "format" not in cert:
        return 1
    f = cert["format"]
    tail = f[len(_PREFIX):] if isinstance(f, str) and f.startswith(_PREFIX) else ""
    if tail.isascii() and tail.isdigit() and tail[0] != "0" and len(tail) <= 6:
        v = int(tail)
        if v > VERSION:
            raise TreeError(f'certificate format {v} ("{f}") is newer than this littlestone reads ({VERSION}); '
                            "upgrade littlestone")
        return v
    raise TreeError(f'"format" {_show(f)} is not a littlestone proof format; littlestone writes "{FORMAT}" (or, '
                    "before it was versioned, no \"format\")")


def _kind(cert: dict) -> str:
    return str(cert["kind"]) if "kind" in cert else "tree"


def _rule_v1(cert: dict, within) -> Rule:
    """The rule of a version-1 certificate: its dialect, read as the checkers of version 1 dispatched it."""
    kind = _kind(cert)
    if kind == "upper-bound":
        if within is not None and within <= GAME_UPPER and not within <= OPT_UPPER:
            game = True  # verify_game_upper: every version-1 upper bound is checked as a game's
        elif within is not None and within <= OPT_UPPER:
            game = False  # verify_upper: its "game", if any, was not read
        else:
            game = not read_game(cert).standard
        if game:
            return RULES["game-orbit" if "symmetry" in cert else "game-paths"]
        if cert.get("form") == "packed":
            return RULES["packed"]
        if cert.get("symmetry") == "renaming":
            return RULES["renaming"]
        return RULES["orbit" if "symmetry" in cert else "paths"]
    if kind == "tree":
        if within is not None and "error-tree" not in within:
            return RULES["mistake-tree"]  # verify_tree: its "game", if any, was not read
        return RULES["mistake-tree" if read_game(cert).standard else "error-tree"]
    for rule in RULES.values():
        if rule.kind == kind and rule.level == "certificate":
            return rule
    raise TreeError(f"a certificate of kind {_show(kind)} is none littlestone writes; it writes "
                    f"{', '.join(sorted({r.kind for r in RULES.values() if r.kind != 'tree'}))} and mistake trees")


#: The fields by which version 1 told its dialects apart, and which the rule replaces in version 2.
_DIALECT = {"form": "packed", "symmetry": "renaming"}


def rule_of(cert, *, within=None) -> Rule:
    """The :class:`Rule` ``cert`` is checked by: its ``"rule"`` (version 2), or its dialect (version 1,
    :func:`_rule_v1`). ``within``, a set of rule names, is what the caller asks to be proven (an Opt(C) bound,
    :data:`OPT_UPPER`; a game's, :data:`GAME_UPPER`): another rule is refused.

    Raises
    ------
    TreeError
        One line: a version too new, an unknown rule, a rule for another kind of certificate, or (version 2) a
        field of version 1's dialects.
    """
    if not isinstance(cert, dict):
        raise TreeError(f"a certificate is a JSON object, not {_show(cert)}")
    if version_of(cert) < 2:
        rule = _rule_v1(cert, within)
    else:
        name = cert.get("rule")
        rule = RULES.get(name) if isinstance(name, str) else None
        if rule is None or rule.level != "certificate":
            known = ", ".join(r.name for r in RULES.values() if r.level == "certificate")
            raise TreeError(f'"rule" {_show(name)} is not a rule of {FORMAT}; its rules are {known}')
        if rule.kind != _kind(cert):
            raise TreeError(f'the rule "{rule.name}" checks certificates of kind "{rule.kind}", and this one is of '
                            f'kind {_show(_kind(cert))}')
        for field, value in _DIALECT.items():
            if cert.get(field) == value:
                raise TreeError(f'a {FORMAT} certificate names its rule in "rule", not "{field}": "{value}"; drop '
                                f'"{field}"')
    if within is not None and rule.name not in within:
        wanted = "Opt(C)" if within <= OPT_UPPER else "a game's value"
        raise TreeError(f'this certificate follows the rule "{rule.name}" ({rule.proves.split(":")[0]}), which '
                        f"does not bound {wanted}")
    return rule


def verify(cert, C=None, *, within=None):
    """Check any certificate littlestone writes against the class ``C`` (none for the experts game's, which name
    their own class); return what it proves: a bound u (an upper bound), a depth or a value (a lower bound), an
    int or a Fraction.

    The one entry to every checker: read the version (:func:`version_of`), find the rule (:func:`rule_of`;
    ``within``, a set of rule names, says what the caller wants proven), match the class the certificate records
    (``"made_for"``), then run the rule's checker (:data:`RULES`). An Opt(C) rule's certificate that names a
    deterministic game without errors (a horizon T) proves min(Opt(C), T) <= u: a bound u >= T holds by the
    horizon alone, a smaller one by the rule. :func:`solvers.certificates.verify_upper`,
    :func:`solvers.certificates.verify_tree` and the checkers of :mod:`solvers.certificates.games`,
    :mod:`~solvers.certificates.states` and :mod:`~solvers.certificates.experts` are this, for their rules.

    Raises
    ------
    TreeError
        One line saying what fails (:class:`~solvers.certificates.ClassMismatch` for a certificate made for
        another class).
    """
    rule = rule_of(cert, within=within)
    if rule.game != "experts":
        if C is None:
            raise ValueError(f'a certificate of the rule "{rule.name}" is checked against its class; give the class')
        check_made_for(cert, C, what="tree" if rule.bound == "lower" else "certificate")
    if rule.game == "opt" and rule.bound == "upper" and within != OPT_UPPER and version_of(cert) >= 2:
        G = read_game(cert)
        if not G.standard:
            if G.randomized or G.errors:
                raise TreeError(f'the rule "{rule.name}" bounds Opt(C), and this certificate names the game '
                                f"{G.symbol}; only a horizon's bound is one of Opt(C)")
            u = cert.get("bound")
            if isinstance(u, int) and not isinstance(u, bool) and u >= G.horizon and isinstance(cert.get("entries"), list):
                # no game of T rounds makes more than T mistakes (a malformed one is the rule's to refuse)
                return proven(u, rule, cert)
    return proven(rule.check(cert, C), rule, cert)


def claim_of(value, rule: Rule, cert) -> str:
    """What a certificate of ``rule`` that checks with ``value`` proves, in words: ``"Opt(C) >= 3"``,
    ``"RL(C) <= 7/4"``, ``"D_1(C) >= 2"``, ``"Opt[T=3](C) <= 3"`` (Opt(C) in games of 3 rounds)."""
    from fractions import Fraction

    if rule.game == "experts":
        what = "the experts game's value"
    else:
        G = read_game(cert) if isinstance(cert, dict) else None
        what = "Opt(C)" if G is None or G.standard else f"{G.symbol}(C)"
    shown = value if not isinstance(value, Fraction) or value.denominator != 1 else value.numerator
    return f"{what} {'>=' if rule.bound == 'lower' else '<='} {shown}"


def proven(value, rule: Rule, cert):
    """``value``, the number a checker returned, as what was proven: an int stays an int and a Fraction a
    Fraction (every caller's arithmetic and comparisons hold), with ``claim`` (:func:`claim_of`), ``rule`` and
    ``ok`` (True: a certificate that fails raises :class:`TreeError` and never returns)."""
    from fractions import Fraction

    if isinstance(value, (ProvenInt, ProvenFraction)):
        return value
    claim = claim_of(value, rule, cert)
    if isinstance(value, int) and not isinstance(value, bool):
        return ProvenInt(value, claim, rule.name)
    if isinstance(value, Fraction):
        return ProvenFraction(value, claim, rule.name)
    return value


def stamp(cert: dict, rule: str) -> dict:
    """``cert`` in the format this littlestone writes: ``"format"`` and ``"rule"`` after its ``"kind"`` (and its
    ``"made_for"``), the rest as it was. The writers of :mod:`solvers.opt` call it on what they write.

    >>> list(stamp({"kind": "upper-bound", "bound": 3, "entries": []}, "paths"))
    ['kind', 'format', 'rule', 'bound', 'entries']
    """
    if RULES.get(rule) is None or RULES[rule].level != "certificate":
        raise ValueError(f"unknown rule {rule!r}; the rules are {', '.join(RULES)}")
    head = {k: cert[k] for k in ("kind", "made_for") if k in cert}
    return {**head, "format": FORMAT, "rule": rule,
            **{k: v for k, v in cert.items() if k not in head and k not in ("format", "rule")}}
