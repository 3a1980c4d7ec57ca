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
        deadline = None if time_limit is None else time.monotonic() + time_limit
        if cls is not Control or (kw and (not kw.keys() <= _NO_CONTROL.keys() or "deadline" in kw)):
            return cls(deadline=deadline, **kw)
        control = object.__new__(Control)  # (the fields set at once: the frozen __init__ sets them one by one)
        control.__dict__.update(_NO_CONTROL, **kw, deadline=deadline)
        return control

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
        brought = object.__new__(type(self))  # (a copy with one field changed: dataclasses.replace costs ~1.5 us)
        brought.__dict__.update(self.__dict__, deadline=deadline)
        return brought


@dataclass(frozen=True)
class Tuning:
    """The thresholds that decide the engines and pace the steps of :func:`~solvers.opt.plan.plan`, and those the
    engines' implementations read: the search and its compiled kernel (``kernel_*``, ``iso_*``, ``detect_alongside``,
    ``wide_from``: :class:`~solvers.opt.search.Solver`), the packed searches (``packed_*``: :mod:`solvers.opt.packed`,
    :mod:`solvers.opt.packed_exact`), the games' search (``games_*``: :class:`~solvers.opt.games.GameSolver`).
    Today's values, measured on a 2-core machine, are the defaults.

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
    kernel_after_seconds : float
        The least time the Python search spends in root queries before it hands them to the compiled kernel
        (:mod:`solvers.opt.kernel`) in "auto" mode: about what setting up the kernel's state for a search costs
        (a search that ends sooner never loads it). Past it the rule is one: the Python search runs on as long as
        loading the kernel would take (:func:`solvers.opt.kernel.load_seconds`: nothing once loaded, 0.3 ms from
        its shared object, about 0.04 s from its machine code through llvmlite, :attr:`kernel_numba_after_seconds`
        through numba), then hands over: never more than about twice the time of the better of the two
        (measured on issue 37's raw classes: monotone disjunctions n=12 k=2 0.091 s handing over at 0.05 s, 0.049
        s at 0.002 s; thresholds N=1000 0.022 s, 0.009 s; monotone disjunctions n=8 k=2, which Python settles in 3
        ms, 0.0031 and 0.0046 s).
    kernel_after : int
        The nodes it expands at least before that (0: time alone decides). In a process that has loaded the kernel
        already, a search hands over after this many nodes or :attr:`kernel_loaded_after_seconds`, whichever comes
        first.
    kernel_loaded_after_seconds : float
    kernel_wide : int
        A class whose root splits times words per version space reach this is *wide*: a node costs some 0.1-5 ms in
        Python, and the kernel is worth loading at once where that is cheap.
    kernel_numba_after_seconds : float
        Where numba loads the kernel itself (no machine code saved: not Linux, or no writable cache folder), loading
        takes 0.5-0.7 s: the Python search runs this long first.
    kernel_compile_after_seconds : float
        The same when nothing is compiled yet and the machine code cannot be built in the background (the first
        compilation takes 15-25 s, in this process then): only a search that has run this long pays for it. Where it
        can, the first search that runs :attr:`kernel_after_seconds` starts that build in a process of its own and
        goes on in Python, handing over when the machine code lands (looked for every :attr:`kernel_build_poll`
        seconds).
    kernel_build_poll : float
    kernel_over_symmetry : bool
        Whether a search with a symmetry group (found or still to come) may hand over to the compiled kernel, which
        then keys version spaces by their orbits as the Python search does -- in "auto" mode only in a process that
        has loaded the kernel already. Measured on the raw matrices of scripts/bench_opt.py (2-CPU machine): with the
        group, the search left after the hand-over is small (decision lists n=5: about 1,000 nodes of some 16,000,
        the rest before detection; halfspaces n=4: about 100), and an orbit key costs the same in the kernel as in
        numpy (about 30 us for the 7,680 elements of decision-lists n=5), so loading the kernel (0.45 s) for it
        lost: halfspaces n=4 0.22 -> 0.60 s. In a process that has it loaded: halfspaces n=4 0.16 -> 0.12 s,
        decision-lists n=5 2.2 -> 2.3 s (noise: +-0.2 s).
    kernel_before_group : bool
        With the above, whether the hand-over also happens while the class's group is still to be found (its
        detection waits until the search has spent what it would cost): the kernel then adopts the orbit keys at
        the pause where the group comes. Measured (kernel loaded): halfspaces n=4 0.12 s, against 0.20 s waiting
        for the group.
    kernel_tree_depth : int
        The deepest mistake tree the kernel walks (2^d - 1 nodes); deeper ones are built in Python.
    kernel_share : int
        The kernel's table may take 1/kernel_share of the memo's byte budget while a search runs in it (its entries
        are copied into the memo when the search ends, where they count again).
    detect_alongside : float or None
        Where processes fork, the class's group is found by a child process while the search goes on, started this
        many seconds after the search's ``symmetry_after``-th node (None: the search finds it itself, once it has
        spent what detection is expected to cost, :func:`~solvers.classes.automorphisms.estimated_seconds`). The
        child costs a fork, a kill and the pages this process writes being copied (copy-on-write): 20-30 ms on a
        search that ends before the child answers, so a search that ends within the delay never starts one.
        Measured (2-CPU machine, raw matrices, medians of 3-5, against the search finding it itself): halfspaces
        n=4 0.12-0.16 s -> 0.07-0.09 s; decision lists n=5 1.9-2.2 s -> 1.06-1.10 s.
    wide_from : int
        Candidate lists of the search longer than this are filtered with numpy (``Solver._filter_wide``).
    iso_min, iso_max, iso_after : int
        The version spaces keyed up to isomorphism by default: from ``iso_min`` concepts to ``iso_max`` (0: no
        limit), after the search's first ``iso_after`` nodes; smaller ones have subtrees too small for a form to
        pay (the :class:`~solvers.opt.search.Solver` arguments of the same names override them).
    iso_share : float
        The most the forms may cost beyond what they save, as a share of the search's own time (measured, Python
        search on raw matrices: at 0.1, with igraph's core loading in 3 ms, forms made on rectangles N=14,
        intervals N=100, random 10,000 x 16 cost 5-10 % and merged too little to pay; at 0.02 they are few and the
        times those without).
    iso_max_entries : int
        The largest version spaces keyed up to isomorphism: |V| times the class's distinct splits (the reduced
        matrix is at most that large).
    iso_credit : float
        The share of a merged key's first subtree counted as saved (the plain search would have found part of it
        in the memo: subtrees of version spaces overlap).
    iso_form_seconds, iso_entry_seconds : float
        A form's cost before one of its size is measured: a fixed part and a part per entry of |V| x the class's
        distinct splits (measured: about 0.1 ms, and up to 1 microsecond per entry).
    iso_import_seconds : float
        What loading igraph costs when nothing has yet (its compiled core alone, 3 ms:
        ``automorphisms.load_igraph``).

    packed_leaf : int
        Version spaces of at most this many concepts go to the exact search (measured on halfspaces on {0,1}^6:
        with 20,000 the depth-21 tree took 34 s, 1,054 leaves of 15 ms on average).
    packed_width : int
        Splits tried per version space above the leaves, the most balanced first.
    packed_exact_leaf : int
        In the exact packed search, version spaces of at most this many concepts go to the exact search of
        :mod:`solvers.opt.search`.
    packed_exact_widths : tuple of int
        The widths of the narrow searches ``ExactSearch.decide`` runs before the complete one (splits per version
        space, the most balanced first).

    games_precision : int
        Bits of the scaled integers of the randomized values at first (grown when a halving is not exact).
    games_universal_moves : int
        The randomized experts table (its moves) a solver with k >= 1 errors fills to bound its states.
    games_tree_nodes : int
        The most nodes a lower-bound tree is built with (a deterministic one of depth d has 2^d - 1 of them): past
        it ``GameSolver.lower_tree`` raises ``TreeTooLarge`` (D_10 of thresholds N=7 is 24 or more).
    games_key_entries : int
        The largest matrix (concepts x points) whose game states get canonical keys: a key is a canonical labelling
        of the whole class's graph, whose cost grows with the matrix (about 40 microseconds on a 38 x 37 class).
    games_min_order, games_min_order_errors : int
        The least group order worth a canonical key per state, without label errors and with them (a key costs a
        few nodes of the search; a group of order g merges at most g states into one). Measured (seconds with /
        without): RL of rectangles N=4 (order 8) 0.80 / 0.32, conjunctions n=4 (order 384) 0.32 / 0.89; R_1 of
        intervals N=8 (order 2) 0.91 / 0.58, rectangles N=3 (order 8) 1.36 / 2.08, halfspaces n=3 (order 48)
        2.2 / 5.3.
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
    # the search and its compiled kernel
    kernel_after_seconds: float = 0.002
    kernel_after: int = 0
    kernel_loaded_after_seconds: float = 0.002
    kernel_wide: int = 1 << 14
    kernel_numba_after_seconds: float = 0.3
    kernel_compile_after_seconds: float = 10.0
    kernel_build_poll: float = 0.1
    kernel_over_symmetry: bool = True
    kernel_before_group: bool = True
    kernel_tree_depth: int = 24
    kernel_share: int = 3
    detect_alongside: Optional[float] = 0.003
    wide_from: int = 2048
    iso_min: int = 32
    iso_max: int = 0
    iso_after: int = 2_000
    iso_share: float = 0.02
    iso_max_entries: int = 2**18
    iso_credit: float = 0.25
    iso_form_seconds: float = 1e-4
    iso_entry_seconds: float = 1e-6
    iso_import_seconds: float = 0.005
    # the packed search
    packed_leaf: int = 20_000
    packed_width: int = 3
    packed_exact_leaf: int = 4_000
    packed_exact_widths: tuple = (1, 3)
    # the games' search
    games_precision: int = 64
    games_universal_moves: int = 5_000_000
    games_tree_nodes: int = 1_000_000
    games_key_entries: int = 20_000
    games_min_order: int = 16
    games_min_order_errors: int = 4

    #: The environment variables :meth:`from_env` reads, and the field each sets. They pace the spread search only
    #: (fields ``spread_*``): :func:`~solvers.opt.opt` reads them for a search spread over workers.
    ENV = {"LITTLESTONE_SPREAD_TRIAL": "spread_trial"}

    def table_seconds(self, N: int) -> float:
        """A rough cost of the table engine (:mod:`solvers.opt.subcube`) on ``N`` distinct points, in seconds."""
        return 3.0**N * N * self.table_factor

    def replace(self, **kw: Any) -> "Tuning":
        """This tuning with the fields ``kw`` changed."""
        return dataclasses.replace(self, **kw)

    @classmethod
    def default(cls) -> "Tuning":
        """``Tuning()``, the defaults, as one shared (frozen) object: building one sets its ~60 fields one by one
        (5 us or more), which a call of :func:`~solvers.opt.opt` on a small class would pay several times."""
        return _DEFAULT_TUNING if cls is Tuning else cls()

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
        if not kw and cls is Tuning:
            for var in cls.ENV:
                if environ.get(var):
                    break
            else:
                return _DEFAULT_TUNING  # (frozen: one default shared, built once; opt() asks for it on every call)
        for var, name in cls.ENV.items():
            raw = environ.get(var)
            if raw is None or not str(raw).strip():
                continue
            try:
                values[name] = max(0.0, float(raw))
            except ValueError:
                continue
        return cls(**{**values, **kw})


_DEFAULT_TUNING = Tuning()
_NO_CONTROL = dict(Control().__dict__)  # the fields of a Control with no deadline, signal, report or limit
