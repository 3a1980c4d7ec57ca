"""What a caller gives every engine of :func:`solvers.opt.opt`: a :class:`Control` (when to stop, whom to tell, how
much memory and how many workers) and a :class:`Tuning` (the thresholds that pick and pace the engines).

A :class:`Control` is the caller's: the deadline, the cancel signal, the progress callback, the memo's memory budget,
the workers. A :class:`Tuning` is the solver's: the numbers measured on this kind of machine that decide which
engine runs and how long each step takes before the next. Both are frozen; an engine reads them and never changes
them. :meth:`Tuning.from_env` is the one place where the environment is read (the command line's entry, or
:func:`~solvers.opt.opt` when no tuning is given); tests and benchmarks pass a tuning of their own instead of
patching modules.

Examples
--------
>>> c = Control.within(30, jobs=2)
>>> c.jobs, 29 < c.remaining() <= 30, c.expired()
(2, True, False)
>>> Tuning().packed_from
100000
>>> Tuning.from_env({"LITTLESTONE_SPREAD_TRIAL": "0"}).spread_trial
0.0
"""

from __future__ import annotations

import dataclasses
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Optional

__all__ = ["Control", "Tuning"]


@dataclass(frozen=True)
class Control:
    """When an engine stops and whom it tells.

    Attributes
    ----------
    deadline : float or None
        A ``time.monotonic()`` instant; past it the engine returns the bounds proven so far
        (``stats["stopped"] == "time limit"``). None: no limit.
    cancel : threading.Event or None
        When set (from another thread), the engine stops as at its deadline, with its proven bounds and
        ``stats["stopped"] == "cancelled"``.
    progress : callable or None
        Called about once a second with ``{"lower", "upper", "nodes", "memo", ...}``.
    memo_bytes : int or None
        The memory the memo may use (default: half of the machine's, :func:`~solvers.opt.search.default_memo_bytes`).
    jobs : int
        Worker processes on this machine for one search (1: this process only).
    cluster : distributed.Client or None
        A Dask client whose workers take the search (``jobs`` is then not used).
    """

    deadline: Optional[float] = None
    cancel: Optional[threading.Event] = None
    progress: Optional[Callable[[dict], None]] = None
    memo_bytes: Optional[int] = None
    jobs: int = 1
    cluster: Any = None

    @classmethod
    def within(cls, time_limit: float | None = None, **kw) -> "Control":
        """The control of a run of ``time_limit`` seconds from now (None: no limit); ``kw`` the other fields."""
        return cls(deadline=None if time_limit is None else time.monotonic() + time_limit, **kw)

    def remaining(self) -> float | None:
        """Seconds left before the deadline (0 once past it, or once cancelled); None without a deadline."""
        if self.cancelled():
            return 0.0
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - time.monotonic())

    def expired(self) -> bool:
        """Whether the deadline has passed or the run was cancelled."""
        return self.cancelled() or (self.deadline is not None and time.monotonic() >= self.deadline)

    def cancelled(self) -> bool:
        """Whether the cancel signal is set."""
        return self.cancel is not None and self.cancel.is_set()

    def time_limit(self) -> float | None:
        """:meth:`remaining` as the positive time limit the implementation modules take (None: no limit)."""
        left = self.remaining()
        return None if left is None else max(left, 1e-6)

    def until(self, deadline: float | None) -> "Control":
        """This control with its deadline brought forward to ``deadline`` (when that is earlier)."""
        if deadline is None or (self.deadline is not None and self.deadline <= deadline):
            return self
        return dataclasses.replace(self, deadline=deadline)


@dataclass(frozen=True)
class Tuning:
    """The thresholds that decide the engines and pace the steps of :func:`~solvers.opt.plan.plan` (today's values,
    measured on a 2-core machine, are the defaults).

    Attributes
    ----------
    packed_from : int
        ``auto`` takes a listed class over at most 64 points with more concepts than this to the packed engine
        (decision lists n=6, 260,134 concepts: Opt = 16 in 79 s, where the search had not settled it in 300 s).
    disjunctions_from : int
        Monotone disjunctions over at least this many points go to their own search (over fewer points, n < 8, the
        generic search is faster).
    spread_local : bool
        Whether ``jobs > 1`` spreads the search as on a cluster (:mod:`solvers.opt.distributed`), rather than deal the
        root's splits to joblib's workers (:mod:`solvers.opt.parallel`).
    spread_trial : float
        Seconds a spread search runs in this process first (what it settles needs no worker);
        ``$LITTLESTONE_SPREAD_TRIAL``.
    tree_grace : float
        Seconds the lower-bound tree of a game may take past a search that used all of its time limit.
    table_factor : float
        The table engine's cost model: ``3^N * N * table_factor`` seconds for N distinct points (N=16: ~4 s).
    table_share : float
        ``auto`` on at most 17 distinct points gives the search this share of the table's estimated cost
        (at least :attr:`table_min_seconds`), then moves to the table.
    table_min_seconds : float
    anytime_share : float
        The share of a time limit the exact search leaves to the anytime pass (:mod:`solvers.opt.anytime`).
    anytime_min_concepts : int
        Listed classes with fewer concepts are left to the exact search alone under a time limit.
    anytime_packed_from : int
        The anytime pass runs the packed search's tree on classes over at most 64 points past this many concepts.
    shattered_from : int
        Without a time limit, the shattered-set settler looks at listed classes of at least this many concepts
        (smaller ones the search settles in milliseconds, with a mistake tree of its own); under a time limit with the
        anytime pass, at every listed class (a few passes over the matrix). It has no share of the time of its own: its work is bounded, at most
        floor(log2 |C|) passes over the matrix, and it stops at the first point that does not join (a fixed second
        for it let a loaded machine send all-functions n=22 to the packed engine for a minute).
    learners_from : int
        With a provider of learners' bounds, the plan asks it first on classes of at least this many concepts
        (each learner's bound costs up to a tenth of a second: the Perceptron's margins).
    symmetry : bool
        Key the searches' memos by orbits under the class's symmetry group (:func:`~solvers.opt.opt`'s ``symmetry``).
    isomorphism : bool
        Key large version spaces by canonical forms (:func:`~solvers.opt.opt`'s ``isomorphism``).
    """

    packed_from: int = 100_000
    disjunctions_from: int = 256
    spread_local: bool = True
    spread_trial: float = 0.5
    tree_grace: float = 1.0
    table_factor: float = 6e-9
    table_share: float = 0.25
    table_min_seconds: float = 0.02
    anytime_share: float = 0.1
    anytime_min_concepts: int = 4096
    anytime_packed_from: int = 20_000
    shattered_from: int = 4096
    learners_from: int = 100_000
    symmetry: bool = True
    isomorphism: bool = True

    #: The environment variables :meth:`from_env` reads, and the field each sets.
    ENV = {"LITTLESTONE_SPREAD_TRIAL": "spread_trial"}

    def table_seconds(self, N: int) -> float:
        """A rough cost of the table engine (:mod:`solvers.opt.subcube`) on ``N`` distinct points, in seconds."""
        return 3.0**N * N * self.table_factor

    def replace(self, **kw) -> "Tuning":
        """This tuning with the fields ``kw`` changed."""
        return dataclasses.replace(self, **kw)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **kw) -> "Tuning":
        """The default tuning with the variables of :data:`ENV` found in ``environ`` (``os.environ`` when None),
        then ``kw``. A value that does not parse is ignored (the default stays). ``LITTLESTONE_SPREAD_TRIAL``: the
        seconds a spread search runs here first, 0 spreads at once (as the tests do on classes a trial would
        settle)."""
        if environ is None:
            import os

            environ = os.environ
        values: dict = {}
        for var, name in cls.ENV.items():
            raw = environ.get(var)
            if raw is None or not str(raw).strip():
                continue
            try:
                values[name] = max(0.0, float(raw))
            except ValueError:
                continue
        return cls(**{**values, **kw})
