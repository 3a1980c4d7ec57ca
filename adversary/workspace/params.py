"""The workspace's ``params``: the parameters researchers compute beside Opt(C) (:mod:`solvers.params`), each
served from the store when a row there is solved and its witness replays, else computed within its share of the
time and recorded (sealed: its witness checked once, when written).

Its method is named in :data:`METHODS` (functions whose first argument is the workspace)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Sequence

from ._messages import WorkspaceError, note, speaking_to

if TYPE_CHECKING:
    from solvers.classes.protocol import ConceptClassProtocol

    from . import Workspace

__all__ = ["ParamsRun", "params", "param_keys", "share", "trivial_bounds", "METHODS"]

#: The functions of this module that are methods of :class:`~adversary.workspace.Workspace`.
METHODS: tuple = ("params",)


@dataclass
class ParamsRun:
    """What :func:`params` computed or served.

    Attributes
    ----------
    keys : list of str
        The parameters asked for, in order (those left out by a Ctrl-C are not in ``results``).
    results : dict
        Each key's JSON: ``value`` (or ``lower`` and ``upper`` when its search was stopped), ``witness``, and for
        every key but ``opt`` the ``check`` of its witness (the checker's text) and ``seconds``.
    checks : dict
        Each key but ``opt``: ``(ok, text)``, its witness replayed by :func:`solvers.certificates.params.check`.
    served : list of str
        The keys served from the store (their witnesses replayed), not computed.
    interrupted : bool
        A Ctrl-C (or SIGTERM) stopped the run: the keys not finished are left out (:attr:`missing`).
    """

    keys: list
    results: dict = field(default_factory=dict)
    checks: dict = field(default_factory=dict)
    served: list = field(default_factory=list)
    interrupted: bool = False

    @property
    def values(self) -> dict:
        """Each key's exact value (None when its search was stopped with bounds only)."""
        return {k: v.get("value") for k, v in self.results.items()}

    @property
    def missing(self) -> list:
        """The keys asked for that have no result (a Ctrl-C stopped the run before them), in order."""
        return [k for k in self.keys if k not in self.results]

    @property
    def stopped(self) -> list:
        """The keys whose search was stopped (by the time limit or a Ctrl-C) with bounds only, in order."""
        return [k for k in self.keys if k in self.results and "value" not in self.results[k]]

    @property
    def failed(self) -> list:
        """The keys whose witness did not check."""
        return [k for k, (ok, _) in self.checks.items() if not ok]

    @property
    def solved(self) -> bool:
        """Every key asked for has its exact value."""
        return len(self.results) == len(self.keys) and all("value" in v for v in self.results.values())


def param_keys(keys=None, *, option: str = "keys") -> list:
    """The parameters named by ``keys`` (None: ``opt`` and :data:`solvers.params.DEFAULT_KEYS`; ``"all"``: ``opt`` and
    every one of :data:`solvers.params.KEYS`; a comma list as text, or a list), checked: a :class:`WorkspaceError`
    naming ``option`` when they name none or an unknown one."""
    from solvers.params import DEFAULT_KEYS, KEYS

    if keys is None:
        return ["opt", *DEFAULT_KEYS]
    text = keys if isinstance(keys, str) else ",".join(map(str, keys))
    if text.strip() == "all":
        return ["opt", *KEYS]
    names = [k.strip() for k in text.split(",") if k.strip()]
    if not names:  # ',,,' would compute nothing
        raise WorkspaceError(f"{option} {text!r} names no parameter; give 'all' or a comma list of: opt, "
                             f"{', '.join(KEYS)}")
    bad = [k for k in names if k not in ("opt", *KEYS)]
    if bad:
        raise WorkspaceError(f"unknown parameter {bad[0]!r} in {option}; choose from: all, opt, {', '.join(KEYS)}")
    return list(dict.fromkeys(names))


#: The parameters that are at least 1 on a class of two distinct concepts, at a point where they differ: it is
#: shattered (vc; Opt >= VC), every concept needs it to be taught apart from the other (td, and rtd's first
#: peeling step), and the learner errs there in every order (best_order <= worst_order) and properly (proper >= Opt).
#: Likewise it is a chain, a path and an eluder sequence of one point (one concept is 0 there, the other 1), a star
#: around every labelling (min_star >= VC), a point every teaching, specifying or non-clashing set needs, and a
#: query or a mistake every learner of the games spends.
AT_LEAST_ONE = ("opt", "vc", "td", "rtd", "best_order", "worst_order", "proper", "threshold_chain", "path", "eluder",
                "min_star", "min_td", "xtd", "nctd", "self_directed", "mq", "peq", "mpeq", "meq", "majority", "req", "rpeq")


def trivial_bounds(C, key: str, lower: int, upper: int) -> tuple:
    """``(lower, upper, why)``: the bounds of a stopped search tightened by what holds for every class: 1 for the keys
    of :data:`AT_LEAST_ONE` when ``C`` has two distinct concepts (a point where its concepts disagree), at most the
    number of points for vc and td; ``why`` says which held (empty when none did)."""
    import numpy as np

    why = []
    if key in AT_LEAST_ONE and lower < 1 and C.n_points and C.n_concepts > 1:
        M = np.asarray(C.matrix)
        if bool((M.min(axis=0) != M.max(axis=0)).any()):
            lower, why = 1, ["lower 1: two concepts disagree at a point"]
    if key in ("vc", "td", "min_td", "xtd", "nctd") and upper > C.n_points:
        upper, why = C.n_points, [*why, f"upper {C.n_points}: the number of points"]
    return lower, max(upper, lower), "; ".join(why)


def share(deadline, left: int):
    """The seconds of the next of ``left`` parameters: an equal part of the time left (what a quick one leaves goes
    to the others), at least a twentieth of a second (a stopped search still reports its bounds); None without a
    time limit."""
    if deadline is None:
        return None
    return max((deadline - time.monotonic()) / max(left, 1), 0.05)


def params(ws: Workspace, C: ConceptClassProtocol, keys: str | Sequence[str] | None = None, *,
           time_limit: float | None = None, progress: Callable[[dict], None] | None = None,
           family: str | None = None, params: dict | None = None) -> ParamsRun:
    """The parameters ``keys`` of the class ``C``, each exact with its witness, served from the workspace's store or
    computed and recorded.

    ``opt`` is Opt(C) (:func:`solvers.opt.opt`, its mistake tree's depth as witness); every other key is one of
    :data:`solvers.params.KEYS`, looked up in the store first (a solved row whose witness replays is served),
    else computed by :func:`solvers.params.compute` within an equal share of the time left, its witness replayed
    by :func:`solvers.certificates.params.check`, and stored when it checks. A Ctrl-C ends the run between two
    parameters: those finished are returned.

    Parameters
    ----------
    ws : Workspace
    C : ConceptClass
        A class listed point by point (``C.finite``).
    keys : str or list of str, optional
        The parameters (a comma list or a list; default all: ``opt`` and :data:`solvers.params.KEYS`).
    time_limit : float, optional
        Seconds for the whole run, shared among the parameters (a stopped search gives its bounds).
    progress : callable, optional
        ``progress({"done": i, "total": n, "key": key})`` as the ``i``-th parameter (from 0) starts.
    family, params : optional
        What the store's rows say the class is (default ``C.family`` and ``C.params``).

    Returns
    -------
    ParamsRun
        ``results`` (each key's value or bounds, witness and check), ``checks``, ``served`` (the keys the store
        served), ``values``.

    Raises
    ------
    WorkspaceError
        A class not listed point by point, or ``keys`` naming no parameter or an unknown one (one line).

    Examples
    --------
    >>> from adversary.workspace import Workspace
    >>> from solvers.classes.families import make
    >>> with Workspace() as ws:
    ...     run = ws.params(make("thresholds", N=5), "vc,threshold")
    >>> run.values
    {'vc': 1, 'threshold': 5}
    """
    with speaking_to(ws.note):
        deadline = None if time_limit is None else time.monotonic() + time_limit
        if not getattr(C, "finite", False):
            raise WorkspaceError(f"params needs a class listed point by point, not {C}")
        run = ParamsRun(param_keys(keys))
        if "opt" in run.keys:
            from solvers.opt import opt

            r = opt(C, time_limit=share(deadline, len(run.keys)))
            if r.value is not None:
                run.results["opt"] = {"value": r.value}
            else:
                lo, hi, why = trivial_bounds(C, "opt", r.lower, r.upper)
                run.results["opt"] = {"lower": lo, "upper": hi, **({"bounds": why} if why else {})}
            run.results["opt"]["witness"] = {"tree_depth": r.lower}
        try:
            _each(ws, C, [k for k in run.keys if k != "opt"], deadline, run, progress, family, params)
        except KeyboardInterrupt:  # between two parameters (or in the progress line): what is finished is kept
            run.interrupted = True
        from solvers.interrupts import requested

        run.interrupted = run.interrupted or requested()
        return run


def _each(ws, C, keys: list, deadline, run: ParamsRun, progress, family, params) -> None:
    """Each parameter of ``keys`` served, or computed and stored, then put in ``run``."""
    from adversary.store import param_task, record_of_param
    from solvers.certificates.params import check
    from solvers.interrupts import requested
    from solvers.params import compute

    from .storage import lookup, put

    for i, key in enumerate(keys):
        if requested():  # Ctrl-C: the parameters not started are left out
            break
        if progress is not None:
            progress({"done": i, "total": len(keys), "key": key})
        try:
            found = lookup(ws.store, "param", C, param_task(key), trust=ws.trust, verify=ws.verify,
                           what=f"{key} of the class")
            if found.solved and found.record.lower_cert is not None:
                got = dict(found.record.lower_cert)
                checked = check(C, key, got)
                run.served.append(key)
            else:
                try:
                    p = compute(C, [key], time_limit=share(deadline, len(keys) - i))[key]
                except ValueError as e:
                    raise WorkspaceError(str(e)) from None
                got = p.to_json()
                checked = check(C, key, got) if p.witness else (True, "stopped: no witness")
                if p.value is None:  # stopped: its bounds, with those that hold for every class
                    lo, hi, why = trivial_bounds(C, key, p.lower, p.upper)
                    if (lo, hi) != (p.lower, p.upper):
                        got.update(lower=lo, upper=hi, bounds=why)
                if checked[0]:
                    failed = put(ws.store, record_of_param(C, p, family=family, params=params), C)  # sealed
                    if failed is not None:
                        note(f"{failed} (the {key} above was not stored)")
        except KeyboardInterrupt:  # between two looks of the searches at Ctrl-C: this parameter is left out
            run.interrupted = True
            break
        run.results[key], run.checks[key] = {**got, "check": checked[1]}, checked
