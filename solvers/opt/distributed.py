"""One Opt(C) search spread over workers: processes on this machine, or the workers of a Dask cluster.

The root query "Opt(C) >= d?" of [Rivest94]'s recurrence is an AND-OR tree: an OR over the points that split C
(with a symmetry group known, one point per orbit), each an AND of its two children "Opt(C_x^b) >= d - 1?". The
driver (this process) unfolds that tree one or :data:`DEPTH` examples deep; each version space at the bottom, a
*part*, is decided by a worker (its own :class:`~solvers.opt.search.Solver`, whose memo it keeps from one part to
the next), with a mistake tree when the answer is yes. The driver

* sends the parts in the order the sequential search would take them: splits most balanced first, in a split
  the smaller child first, and the larger one once the smaller proved ``>= d - 1``, at once while most smaller
  children of the query come back proven, or when a worker would otherwise be idle (speculatively);
* keeps the most urgent parts (the first of that order, one per worker) running: a worker busy with a part that
  is not among them gives way (its part is cancelled; its memo keeps what it proved), so that a part the query
  needs never waits behind a speculative one;
* settles the root as soon as the answers do, and cancels the parts in flight that no longer matter (a worker
  checks about ten times a second whether its part was cancelled);
* routes a version space to the same worker each time it is asked (by the hash of its key, orbit or set), so
  that the question at d - 1 after a refutation at d finds that worker's memo warm; an idle worker takes
  another's part rather than wait;
* keeps every answer across the root's queries (a refutation at d is a bound for the query at d - 1 too), and
  hands each one to ``on_part`` as it arrives (the results store keeps them: a run stopped or killed resumes
  from them);
* assembles the certificates of the whole class: the mistake tree of depth Opt(C) (the driver's splits above
  the parts' trees) and the upper-bound certificate (the driver's refutations, each naming one refuted child per
  split, above the entries each worker writes at the end, in one walk, for the refuted parts it answered:
  :meth:`Spread.certify`), checked by ``verify`` as any other.

Workers share what they prove through the driver only: a part's answer and bounds (no table of proven bounds is
shared between them). Measured (``scripts/bench_spread.py --overlap``, 2 workers), the version spaces a second
worker searched again are 4 % of the workers' memo entries on rectangles N=28 and 23 % on intervals N=200, the
most a shared table could save; a look-up costs about 1.3 ms in a Dask actor and 36 us in SQLite
(``--latency``), against 60-220 us a node of these searches.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
"""

from __future__ import annotations

import time
import uuid
from contextlib import contextmanager
from typing import Callable

from ..certificates.opt import cut_tree
from ..interrupts import spawning, worker_args, worker_init

__all__ = ["Spread", "LocalPool", "DaskPool", "Lost", "Contradicted", "DEPTH", "CANCEL_POLL", "dask_part"]

#: How many examples deep the driver unfolds the root query before it hands version spaces to the workers (where
#: the root has fewer than MANY splits per worker, after symmetry; else one example)
DEPTH = 2
MANY = 8
#: The parts sent to a worker at a time: one running, the next waiting (so that a worker never waits for the driver)
QUEUE = 2
#: The cancelled tasks a local worker is told of at a time: more than can be flagged between a task's flag and its
#: first look (the parts its executor holds as running, QUEUE + 1, a batch of certificates, and the parts the driver
#: drops for more urgent ones), with room to spare (a worker reads them ten times a second)
SLOTS = 32
#: Seconds between a worker's looks at whether its part was cancelled (or past the deadline).
CANCEL_POLL = 0.1
#: The largest group whose orbits the driver takes at the root (the checker lists its elements to name orbits, at a
#: cost of the group's order times the points for every version space it names)
GROUP_LIMIT = 10_000
#: The most entries a part's upper-bound certificate may have.
PART_LIMIT = 1_000_000


class Lost(Exception):
    """The workers cannot go on (a Dask scheduler that went away, worker processes that keep dying): the
    message says which; the bounds proven so far stand."""


class Contradicted(RuntimeError):
    """A part answered "no" before (by a worker, or from a stored run) is proven now, when its certificate is
    written."""


# ---------------------------------------------------------------------------------------------- in the workers
_SOLVERS: dict = {}  # in a worker: (the class object's id, the options) -> its Solver (kept from part to part)


def _solver(C, opts: dict):
    """This worker's solver of C: the same class object comes with every part (a fork's copy, or the scattered one
    a Dask worker holds), so its id names it without hashing the matrix; the Solver keeps C alive, so the id is
    not reused while the entry stands."""
    from .search import Solver

    key = (id(C), tuple(sorted(opts.items())))
    S = _SOLVERS.get(key)
    if S is None or S.C is not C:
        _SOLVERS.clear()
        S = _SOLVERS[key] = Solver(C, **opts)
    return S


@contextmanager
def _limits(S, seconds: float | None, cancelled: Callable[[], bool]):
    """``S.limits`` for a part: its deadline ``seconds`` from now, and a look at ``cancelled()`` every
    :data:`CANCEL_POLL` seconds (the search's progress hook, called more often than its once a second)."""
    from .search import SearchStop

    def look(info) -> None:
        S._next_report = time.monotonic() + CANCEL_POLL
        if cancelled():
            raise SearchStop()

    with S.limits(deadline=None if seconds is None else time.monotonic() + seconds, progress=look):
        S._next_report = time.monotonic() + CANCEL_POLL
        yield S


def solve_part(C, opts: dict, W: int, d: int, seconds: float | None, cancelled: Callable[[], bool]) -> dict:
    """Decide "Opt(W) >= d?" for the version space W (a bitset of C's concepts) with this process's solver:
    ``{"answer": True, "tree": ...}`` (a mistake tree of depth d from W, points as C's indices; cheap, from the
    memo) or ``{"answer": False}`` (the refutation's certificate is written later, for the parts the whole
    certificate needs only, by :func:`solve_proofs`: a walk of the memo that can cost more than the decision).
    ``{"answer": None}`` when ``seconds`` ran out or ``cancelled()`` said so. Also ``nodes`` (the search's nodes)
    and ``seconds`` (the time it took)."""
    from .search import SearchStop

    S = _solver(C, opts)
    t0, nodes = time.monotonic(), S.nodes
    out = {"answer": None}
    try:
        with _limits(S, seconds, cancelled):
            ok = S.decide(W, d)
            out = {"answer": True, "tree": S.mistake_tree(W, d)} if ok else {"answer": False}
    except SearchStop:
        out = {"answer": None}
    out["nodes"] = S.nodes - nodes
    out["seconds"] = time.monotonic() - t0
    return out


def solve_proofs(C, opts: dict, items: list, seconds: float | None, cancelled: Callable[[], bool]) -> dict:
    """The certificates of refuted parts at once, ``items`` a list of ``(W, b, path)`` ("Opt(W) <= b", W reached
    from the class by ``path``), each decided again first (a memo hit where this process refuted it):
    ``{"entries": [...], "symmetry": ...}`` with paths from the class (one entry for what the parts share), or
    ``{"entries": None}`` when ``seconds`` ran out or ``cancelled()`` said so."""
    from .search import SearchStop

    S = _solver(C, opts)
    t0, nodes = time.monotonic(), S.nodes
    out = {"entries": None}
    try:
        with _limits(S, seconds, cancelled):
            for W, b, path in items:
                if S.decide(W, b + 1):
                    raise Contradicted(f"a part refuted before is proven now: Opt >= {b + 1} after the examples {path}")
            cert = S.upper_proof(0, roots=items, limit=PART_LIMIT)
            out = {"entries": cert["entries"], "symmetry": cert.get("symmetry")}
    except SearchStop:
        pass
    out["nodes"] = S.nodes - nodes
    out["seconds"] = time.monotonic() - t0
    return out


# ------------------------------------------------------------------------------------- processes on this machine
_LOCAL: dict = {}  # in a local worker: {"C", "opts", "flags", "index"}


def _local_init(C, opts, flags, index, parent) -> None:
    worker_init(*parent)  # Ctrl-C is the driver's: it cancels the parts and stops us; we end with it
    _LOCAL.update(C=C, opts=opts, flags=flags, index=index)


def _local_part(task: int, W, d: int, seconds: float | None, proof: bool) -> dict:
    flags, i = _LOCAL["flags"], _LOCAL["index"]

    def cancelled() -> bool:
        return task in flags[i * SLOTS:(i + 1) * SLOTS]

    if cancelled():  # dropped while it waited in the executor's queue: no search at all
        return {"answer": None} if not proof else {"entries": None}
    if proof:
        return solve_proofs(_LOCAL["C"], _LOCAL["opts"], W, seconds, cancelled)
    return solve_part(_LOCAL["C"], _LOCAL["opts"], W, d, seconds, cancelled)


def _quiet_broken_pools() -> None:
    """Keep the executors' own threads from printing a traceback as :meth:`LocalPool.close` ends their processes:
    Python 3.11's ProcessPoolExecutor, finding its processes gone, sets an exception on every pending future,
    cancelled ones too, and its thread dies on the InvalidStateError that raises (a race with the cancel, fixed in
    later Pythons); nothing is lost, the parts were cancelled. Installed once; every other thread's exception is
    reported as before."""
    import threading
    from concurrent.futures import InvalidStateError

    previous = threading.excepthook
    if getattr(previous, "_littlestone_quiet", False):
        return

    def hook(args):
        tb = args.exc_traceback
        while tb is not None and tb.tb_next is not None:
            tb = tb.tb_next
        where = tb.tb_frame.f_code.co_filename if tb is not None else ""
        if args.exc_type is InvalidStateError and where.replace("\\", "/").endswith("concurrent/futures/_base.py"):
            return
        previous(args)

    hook._littlestone_quiet = True
    threading.excepthook = hook


class LocalPool:
    """``jobs`` worker processes on this machine, one executor each (so a part can be sent to a given one), forked
    from this process where the system forks (the class and its bitsets come without a copy), else spawned."""

    def __init__(self, C, opts: dict, jobs: int):
        import multiprocessing as mp
        from concurrent.futures import ProcessPoolExecutor

        ctx = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
        self.flags = ctx.Array("q", jobs * SLOTS, lock=False)  # per worker, the last SLOTS tasks cancelled
        self._slot = [0] * jobs
        self._make = lambda i: ProcessPoolExecutor(1, mp_context=ctx, initializer=_local_init,
                                                   initargs=(C, opts, self.flags, i, worker_args()))
        self.executors = [self._make(i) for i in range(jobs)]
        self.size = jobs
        self.restarts = 0

    def submit(self, worker: int, task: int, W: int, d: int, seconds, proof: bool = False):
        from concurrent.futures.process import BrokenProcessPool

        with spawning():  # (a worker started here holds a Ctrl-C until its initializer ignores it)
            try:
                f = self.executors[worker].submit(_local_part, task, W, d, seconds, proof)
            except (BrokenProcessPool, RuntimeError):
                self._restart(worker, self.executors[worker])
                f = self.executors[worker].submit(_local_part, task, W, d, seconds, proof)
        f.executor = self.executors[worker]  # (a death it reports restarts this executor only, not its successor)
        return f

    def cancel(self, worker: int, task: int, future) -> None:
        if future.done():
            return
        if not future.cancel():  # running (or about to): it sees its id among its worker's slots
            self.flags[worker * SLOTS + self._slot[worker] % SLOTS] = task
            self._slot[worker] += 1

    def wait(self, futures, timeout: float):
        from concurrent.futures import FIRST_COMPLETED, wait

        return wait(futures, timeout=timeout, return_when=FIRST_COMPLETED)[0]

    def result(self, worker: int, future) -> dict:
        """The part's answer; a worker process that died is started again (the part is then sent again by
        the driver: None here), at most twice per worker in all."""
        from concurrent.futures.process import BrokenProcessPool

        try:
            return future.result()
        except BrokenProcessPool:
            self._restart(worker, getattr(future, "executor", None))
            return None

    def _restart(self, worker: int, dead) -> None:
        """Start the worker's process again, once per death: only while ``dead`` (the executor that reported it)
        is still the worker's."""
        if dead is not self.executors[worker]:
            return
        self.restarts += 1
        if self.restarts > 2 * self.size:
            raise Lost("the worker processes keep dying (out of memory?); give --memory less or run with fewer "
                       "jobs")
        self.executors[worker].shutdown(wait=False, cancel_futures=True)
        self.executors[worker] = self._make(worker)

    def close(self) -> None:
        """Stop the workers at once (a part still running is of no use any more)."""
        _quiet_broken_pools()
        procs, ends = [], []
        for ex in self.executors:
            procs += list((getattr(ex, "_processes", None) or {}).values())
            ends.append(getattr(ex, "_result_queue", None))
            ex.shutdown(wait=False, cancel_futures=True)
        for p in procs:
            if p.is_alive():
                p.terminate()
        for p in procs:
            p.join(timeout=5)
        # A worker ended while it wrote a result leaves its executor's thread reading the rest of the message for
        # ever (this process holds the pipe's writing end too), and Python joins that thread at exit: a process
        # that never ends. With this end closed as well, the thread reads the end of the pipe and stops.
        for q in ends:
            if q is not None:
                q._writer.close()


# ------------------------------------------------------------------------------------------------ a Dask cluster
def dask_part(C, opts: dict, W, d: int, seconds, proof: bool = False) -> dict:
    """:func:`solve_part` as a Dask task: cancelled when its future is (the client let it go)."""
    from distributed import get_worker
    from distributed.worker import thread_state

    worker, key = get_worker(), thread_state.key

    def cancelled() -> bool:
        task = worker.state.tasks.get(key)
        return task is None or task.state in ("cancelled", "released", "forgotten")

    if opts.get("memo_bytes") is None:  # half of this worker's memory limit (its nanny restarts it past the limit)
        limit = getattr(getattr(worker, "memory_manager", None), "memory_limit", None)
        opts = {**opts, "memo_bytes": max(2**24, int(limit) // 2) if limit else None}

    if proof:
        return solve_proofs(C, opts, W, seconds, cancelled)
    return solve_part(C, opts, W, d, seconds, cancelled)


class DaskPool:
    """The workers of a ``distributed.Client``: the class is sent to each once (scattered), every part is a task
    pinned to one worker (another may take it if that one leaves)."""

    def __init__(self, client, C, opts: dict):
        self.client = client
        self.addresses = sorted(client.scheduler_info()["workers"])
        if not self.addresses:
            raise Lost("the dask cluster has no worker; start workers with 'dask worker ADDR'")
        self.size = len(self.addresses)
        self.C = client.scatter(C, broadcast=True, hash=False)
        self.opts = opts
        self.run = uuid.uuid4().hex  # the tasks' keys are this run's own (another client's never answer for them)

    def submit(self, worker: int, task: int, W: int, d: int, seconds, proof: bool = False):
        return self.client.submit(dask_part, self.C, self.opts, W, d, seconds, proof, pure=False,
                                  workers=[self.addresses[worker]], allow_other_workers=True,
                                  key=f"littlestone-part-{self.run}-{task}")

    def cancel(self, worker: int, task: int, future) -> None:
        future.cancel()

    def wait(self, futures, timeout: float):
        """The futures done within ``timeout`` seconds (looked at every few milliseconds: ``distributed.wait``
        needs a default client, which this one is not)."""
        end = time.monotonic() + timeout
        pause = 0.001
        while True:
            done = {f for f in futures if f.done()}
            if done:
                return done
            if self.client.status not in ("running", "connecting"):
                raise Lost(f"the dask scheduler went away (the client is {self.client.status}); the bounds above are "
                           "proven: start the scheduler again and run the command again to go on from the store")
            if time.monotonic() >= end:
                return set()
            time.sleep(pause)
            pause = min(0.02, pause * 2)

    def result(self, worker: int, future) -> dict:
        from distributed import KilledWorker

        try:
            return future.result()
        except KilledWorker as e:
            raise Lost(f"the dask workers died running a part ({e}); a worker past its memory limit is restarted "
                       "by its nanny (the workers' logs say why): give the workers more memory") from None
        except OSError as e:
            raise Lost(f"the dask scheduler went away ({e})") from None

    def close(self) -> None:
        try:
            self.client.cancel([self.C])
        except Exception:  # noqa: BLE001 - a scheduler already gone
            pass


# ------------------------------------------------------------------------------------------------------ the driver
class Spread:
    """The driver of one search over a pool (:class:`LocalPool` or :class:`DaskPool`).

    Version spaces are numbered as the driver meets them (a big integer is hashed once, when it is numbered).

    Parameters
    ----------
    S : Solver
        The driver's solver of C (its splits, its group when it has found one).
    pool
        Where the parts run.
    depth : int, optional
        The examples the driver unfolds; default: 1 when the root has at least :data:`MANY` splits per worker (after
        symmetry), else :data:`DEPTH`.
    on_part : callable, optional
        ``on_part(path, d, result)`` for each part answered (True or False), as it arrives.
    known : iterable, optional
        Parts answered before (a resumed run): ``(path, d, result)`` as ``on_part`` had them.
    progress : callable, optional
        Called about once a second with ``{"lower", "upper", "nodes", "memo", "parts", "in_flight"}``.
    """

    def __init__(self, S, pool, *, depth: int | None = None, on_part=None, known=(), progress=None):
        self.S, self.pool = S, pool
        self.on_part, self.progress = on_part, progress
        self.C = S.C
        self.cols = S.C.columns
        self.sets: list = []  # vid -> the version space (a bitset)
        self.size: list = []  # vid -> its number of concepts
        self.lob: list = []  # vid -> the best lower bound proven on Opt
        self.hib: list = []  # vid -> the best upper bound
        self.path: list = []  # vid -> the examples by which the driver reached it
        self.home: list = []  # vid -> the worker it is sent to first
        self.vid: dict = {}  # bitset -> vid
        self.nodes: dict = {}  # (vid, d) -> its splits [(point, smaller child, its label, larger child)]
        self.ptree: dict = {}  # vid -> (d, a part's mistake tree of depth d)
        self.yes: dict = {}  # vid -> (d, j): the split at j proves Opt >= d
        self.no: dict = {}  # vid -> (h, [(j, refuted child, its label)]): Opt >= h + 1 refuted split by split
        self.in_flight: dict = {}  # future -> (worker, task, vid, d)
        self.busy: dict = {}  # (vid, d) -> future
        self._with_busy = False  # whether _walk lists the parts in flight too
        self.preempted = 0  # parts cancelled to make way for more urgent ones
        self.ran: dict = {}  # (vid, d) -> the worker a part dropped for a more urgent one ran on
        self.where: dict = {}  # vid -> the worker that answered about it last
        self.task = 0
        self.parts = 0
        self.resumed = 0
        self.cancelled = 0
        self.hi0 = S.root_bounds[1]  # the upper bound before any part
        self.certificates: list | None = None  # the workers' entries of the refuted parts: [(entries, group)]
        self._certified: int | None = None  # the bound they certify
        self.stopped: str | None = None  # why certify did not end: "time limit" or "interrupted"
        self._smaller: set = set()  # the parts sent as the smaller child of a split
        self._small_answers = [0, 0]
        self._orbit_rep = self._orbit_reps()
        self._next_report = 0.0
        self.root = self._number(S.full, ())
        if depth is None:
            wide = len(self._splits(self.root, 2)) >= MANY * pool.size
            depth = 1 if wide else DEPTH
        self.depth = depth
        for path, d, result in known:
            v = self._number(self._at(path), tuple(tuple(x) for x in path))
            self.resumed += self._take(v, d, result, tell=False)

    # ----------------------------------------------------------------- version spaces
    def _number(self, W: int, path: tuple) -> int:
        v = self.vid.get(W)
        if v is not None:
            return v
        v = self.vid[W] = len(self.sets)
        n = W.bit_count()
        self.sets.append(W)
        self.size.append(n)
        self.lob.append(1 if n >= 2 else n - 1)
        self.hib.append(n.bit_length() - 1 if n >= 2 else n - 1)
        self.path.append(path)
        S = self.S
        key = S.memo_key(W) if S.canonical is not None and n >= 2 and S.reached(W) else W
        self.home.append(hash(key) % self.pool.size)
        return v

    def _at(self, path) -> int:
        W = self.S.full
        for j, b in path:
            col = self.cols[j]
            W = W & col if b else W & ~col
        return W

    def status(self, v: int, d: int):
        """True / False when "Opt(v) >= d" is settled by what the driver knows, else None."""
        if d <= self.lob[v]:
            return True
        if d > self.hib[v]:
            return False
        return None

    def _take(self, v: int, d: int, r: dict, tell: bool = True) -> bool:
        """Keep a part's answer (and its certificate); False when it says nothing."""
        if r["answer"] is True:
            self.lob[v] = max(self.lob[v], d)
            if self.ptree.get(v, (0,))[0] < d:
                self.ptree[v] = (d, r["tree"])
        elif r["answer"] is False:
            self.hib[v] = min(self.hib[v], d - 1)
        else:
            return False
        if tell and self.on_part is not None:
            self.on_part([list(x) for x in self.path[v]], d, r)
        return True

    # ----------------------------------------------------------------- the AND-OR tree
    def _orbit_reps(self):
        """``find(point)``: the point's orbit under the group the driver knows (the one its solver keys the memo by,
        else the one the class declares, checked; even past the points the canonical keys cover, a root split per
        orbit is enough: the upper-bound certificate then carries the group), None without one."""
        from ..classes.automorphisms import group_limit

        S = self.S
        group = S.group
        if group is None and S.C.symmetry is not None:  # no larger than the workers' canonical keys take it
            try:
                group = S.C.checked_symmetry()
                if group is not None and (group.trivial or group.order > min(GROUP_LIMIT, group_limit(S.C.n_points))):
                    group = None
            except (ValueError, TypeError):
                group = None
        self.group = group
        if group is None or group.trivial:
            self.group = None
            return None
        parent = list(range(S.C.n_points))

        def find(x):
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        for perm, _ in group.generators:
            for x, y in enumerate(perm):
                a, b = find(x), find(y)
                if a != b:
                    parent[a] = b
        return find

    def _splits(self, v: int, d: int) -> list:
        node = self.nodes.get((v, d))
        if node is not None:
            return node
        S = self.S
        W, n = self.sets[v], self.size[v]
        need = 1 << (d - 1)
        masks, idxs = S._distinct_splits(W, S.root_masks)
        find = self._orbit_rep if v == self.root else None
        seen = set()
        splits = []
        for s, i in zip(masks, idxs):
            j = S.root_points[i]
            k1 = s.bit_count()
            if min(k1, n - k1) < need:
                continue
            if find is not None:
                o = find(j)
                if o in seen:
                    continue
                seen.add(o)
            splits.append((min(k1, n - k1), j, s, k1 <= n - k1))
        splits.sort(key=lambda t: -t[0])
        node = []
        path = self.path[v]
        for _, j, W1, one_small in splits:
            W0 = W ^ W1
            a = self._number(W1, path + ((j, 1),))
            b = self._number(W0, path + ((j, 0),))
            node.append((j, a, 1, b) if one_small else (j, b, 0, a))
        self.nodes[(v, d)] = node
        return node

    def _walk(self, v: int, d: int, depth: int, out, spec: bool, as_smaller: bool = False):
        """The status of "Opt(v) >= d?" (True, False, None) by the driver's depth. With ``out`` a list, unfold what
        is not unfolded yet and append the parts still needed, until there are ``self._want`` of them (a larger
        child whose smaller sibling is not yet settled only when ``spec``); with ``out`` a set, walk only what is
        unfolded and add every part still open."""
        st = self.status(v, d)
        if st is not None:
            return st
        if depth >= self.depth:
            if out is not None:
                if isinstance(out, set):
                    out.add((v, d))
                elif self._with_busy or (v, d) not in self.busy:
                    out.append((v, d))
                    if as_smaller:
                        self._smaller.add((v, d))
            return None
        gather = isinstance(out, list)
        node = self.nodes.get((v, d)) if not gather else self._splits(v, d)
        if node is None:
            return None
        refuted = []
        open_ = False
        for j, small, lab, large in node:
            if gather and len(out) >= self._want:
                return None
            s1 = self._walk(small, d - 1, depth + 1, out, spec, True)
            if s1 is False:
                refuted.append((j, small, lab))
                continue
            both = s1 is True or spec or not gather or self._pairs()
            s2 = self._walk(large, d - 1, depth + 1, out if both else None, spec)
            if s2 is False:
                refuted.append((j, large, 1 - lab))
                continue
            if s1 is True and s2 is True:
                self.lob[v] = max(self.lob[v], d)
                if self.yes.get(v, (0,))[0] < d:
                    self.yes[v] = (d, j)
                return True
            open_ = True
        if open_:
            return None
        self.hib[v] = min(self.hib[v], d - 1)
        if v not in self.no or self.no[v][0] > d - 1:
            self.no[v] = (d - 1, refuted)
        return False

    def _schedule(self, d: int, deadline):
        """Fill the workers' queues with the parts of "Opt(C) >= d?" still wanted, most urgent first (the order of
        :meth:`_walk`: the sequential search's, then the speculative parts). The ``pool.size`` most urgent
        parts run now: a worker running a part that is not among them gives way to one that is (its part is
        cancelled; its memo keeps what it proved, and the part goes out again when it is wanted). Returns the root's
        status when the walk settles it (the caller walks again), else None."""
        pool = self.pool
        slots = QUEUE * pool.size
        self._want = slots
        order: list = []
        self._with_busy = True
        try:
            st = self._walk(self.root, d, 0, order, False)
            if st is None and len(order) < slots:
                more: list = []
                self._walk(self.root, d, 0, more, True)
                first = set(order)
                order += [t for t in more if t not in first]
        finally:
            self._with_busy = False
        if st is not None:
            return st
        order = order[:slots]
        live: list = [[] for _ in range(pool.size)]  # per worker, its parts in the order sent (the first runs)
        for f, (w, _, v, dd) in self.in_flight.items():
            if not f.done():  # (an answer not collected yet is collected at the next look, not dropped)
                live[w].append((v, dd))
        urgent = order[:pool.size]
        taken = set()  # workers running an urgent part (or given one here)
        for w, parts in enumerate(live):
            if parts and parts[0] in urgent:
                taken.add(w)
        for t in urgent:
            if any(parts and parts[0] == t for parts in live):
                continue
            home = self.ran.get(t, self.where.get(t[0], self.home[t[0]]))
            free = [w for w in range(pool.size) if not live[w] and w not in taken]
            if not free:  # a worker running a part that is not urgent gives way
                free = [w for w in range(pool.size) if w not in taken and live[w] and live[w][0] not in urgent]
            at = next((w for w, parts in enumerate(live) if t in parts), None)
            if at is not None:
                if at not in taken:  # waiting behind others on its worker: none urgent, they give way
                    ahead = live[at][:live[at].index(t)]
                    self._drop(at, ahead)
                    live[at] = live[at][len(ahead):]
                    taken.add(at)
                    continue
                if not free:  # behind an urgent part, and no other worker to run it now
                    continue
                self._drop(at, [t])  # behind an urgent part: to a worker of its own
                live[at].remove(t)
            elif not free:
                continue
            w = home if home in free else free[0]
            self._drop(w, live[w])  # (an urgent part waiting there goes out again, to a worker of its own)
            self._submit(w, t, deadline)
            live[w] = [t]
            taken.add(w)
        self._send([t for t in order if t not in self.busy], deadline)
        return None

    def _drop(self, w: int, parts: list) -> None:
        """Cancel these parts in flight on worker ``w``, as :meth:`_cancel` does (they may go out again at once)."""
        for f, (w2, _, v, dd) in list(self.in_flight.items()):
            if w2 == w and (v, dd) in parts and not f.done():
                self._let_go(f)
                self.ran[(v, dd)] = w  # (sent again, it goes back to the memo that kept its progress)
                self.preempted += 1

    def _pairs(self) -> bool:
        """Whether to send a split's two children together: when the smaller children of this query mostly prove
        their bound (a query the splits answer yes to, or whose splits fail on their larger child), the larger one
        is needed anyway, and the two run side by side; else (most splits refuted by their smaller child, as in a
        query refuted at the root) the larger one waits for its sibling's answer, as in the sequential search."""
        yes, no = self._small_answers
        return yes > no

    # ----------------------------------------------------------------- one root query
    def decide(self, d: int, deadline: float | None) -> bool:
        """Decide "Opt(C) >= d?"; raises :class:`~solvers.opt.search.SearchStop` past ``deadline``."""
        from .search import SearchStop

        pool = self.pool
        self._small_answers = [0, 0]  # the smaller children answered in this query: [proven, refuted]
        while True:
            reach: set = set()
            st = self._walk(self.root, d, 0, reach, False)
            if st is not None:
                self._cancel(set())
                return st
            self._cancel(reach)
            if self._schedule(d, deadline) is not None:
                continue
            if not self.in_flight:
                raise RuntimeError("internal error: the root query is open and no part is in flight")
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise SearchStop()
            done = pool.wait(list(self.in_flight), timeout=0.5 if left is None else max(0.01, min(0.5, left)))
            self._collect(done, deadline)
            self._report()

    def _collect(self, done, deadline) -> None:
        from .search import SearchStop

        for f in done:
            worker, task, v, dd = self.in_flight.pop(f)
            self.busy.pop((v, dd), None)
            if f.cancelled():
                continue
            r = self.pool.result(worker, f)
            if r is None:
                continue  # its worker died and was started again: the part is sent again
            self.S.add_nodes(r.get("nodes", 0))
            if r["answer"] is None:
                if deadline is not None and time.monotonic() >= deadline:
                    raise SearchStop()
                continue  # cancelled
            self.parts += 1
            self.where[v] = worker
            self._take(v, dd, r)
            if (v, dd) in self._smaller:
                self._small_answers[0 if r["answer"] else 1] += 1

    def certify(self, h: int, deadline: float | None = None) -> bool:
        """Ask the workers for the certificates of the refuted parts that "Opt(C) <= h" rests on: each worker, in one
        task, those it refuted (its memo holds them; what they share gets one entry). Returns :attr:`certified`;
        past ``deadline`` or on Ctrl-C it stops, and :attr:`stopped` says why."""
        from .search import SearchStop

        try:
            self._certify(h, deadline)
        except SearchStop:
            self.stopped = "time limit"
        except KeyboardInterrupt:
            self.stopped = "interrupted"
        return self.certified

    @property
    def certified(self) -> bool:
        """Whether the workers wrote the certificate of the driver's upper bound (:meth:`certify`)."""
        return self._certified is not None and self._certified == self.upper

    def _certify(self, h: int, deadline) -> None:
        from .search import SearchStop

        todo: dict = {}
        self._proof(self.root, h, todo=todo)
        pool = self.pool
        batches: dict = {}
        for v, b in todo.items():
            batches.setdefault(self.where.get(v, self.home[v]), []).append(v)
        certificates = []
        while batches:
            sent = {}
            for w, vs in batches.items():
                self.task += 1
                seconds = None if deadline is None else max(0.0, deadline - time.monotonic())
                items = [(self.sets[v], todo[v], [list(x) for x in self.path[v]]) for v in vs]
                sent[pool.submit(w, self.task, items, 0, seconds, True)] = (w, vs, self.task)
            batches = {}
            while sent:
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    for f, (w, _, task) in sent.items():
                        pool.cancel(w, task, f)
                    raise SearchStop()
                for f in pool.wait(list(sent), timeout=0.5 if left is None else max(0.01, min(0.5, left))):
                    w, vs, _ = sent.pop(f)
                    r = pool.result(w, f)
                    if r is None:  # the worker died and was started again: the batch is sent again
                        batches[w] = vs
                        continue
                    if r["entries"] is None:
                        raise SearchStop()
                    self.S.add_nodes(r.get("nodes", 0))
                    certificates.append((r["entries"], r.get("symmetry")))
        self.certificates, self._certified = certificates, h

    def _send(self, ready: list, deadline) -> None:
        pool = self.pool
        load = [0] * pool.size
        for x in self.in_flight.values():
            load[x[0]] += 1
        idle = [w for k in range(QUEUE) for w in range(pool.size) if load[w] <= k]
        prefer: dict = {}
        for t in ready:
            prefer.setdefault(self.ran.get(t, self.home[t[0]]), t)
        taken = set()
        for w in idle:
            t = prefer.get(w)
            if t is None or t in taken:
                t = next((u for u in ready if u not in taken), None)
                if t is None:
                    break
            taken.add(t)
            self._submit(w, t, deadline)

    def _submit(self, w: int, t: tuple, deadline) -> None:
        v, d = t
        self.task += 1
        seconds = None if deadline is None else max(0.0, deadline - time.monotonic())
        f = self.pool.submit(w, self.task, self.sets[v], d, seconds)
        self.in_flight[f] = (w, self.task, v, d)
        self.busy[t] = f

    def _cancel(self, needed: set) -> None:
        for f, (_, _, v, d) in list(self.in_flight.items()):
            if (v, d) not in needed:
                self._let_go(f)
                self.cancelled += 1

    def _let_go(self, f) -> None:
        """Cancel the part in flight ``f`` and forget it (its worker stops at its next look; its answer is not
        collected, and the part may go out again at once)."""
        w, task, v, d = self.in_flight.pop(f)
        self.pool.cancel(w, task, f)
        self.busy.pop((v, d), None)

    def _report(self) -> None:
        if self.progress is None:
            return
        now = time.monotonic()
        if now < self._next_report:
            return
        self._next_report = now + 1.0
        lo, hi = self.S.root_bounds
        self.progress({"lower": lo, "upper": hi, "nodes": self.S.nodes, "memo": self.S.memo_entries,
                       "parts": self.parts, "in_flight": len(self.in_flight)})

    def close(self) -> None:
        self._cancel(set())

    # ----------------------------------------------------------------- certificates
    @property
    def lower(self) -> int:
        """The lower bound on Opt(C) the driver and the parts prove."""
        return self.lob[self.root]

    @property
    def upper(self) -> int | None:
        """The upper bound on Opt(C) the driver's refutations prove (None: none yet)."""
        e = self.no.get(self.root)
        return None if e is None else e[0]

    def tree(self, d: int, v: int | None = None):
        """The mistake tree of depth d from v (default: the class) that the driver's splits and the parts prove."""
        v = self.root if v is None else v
        if d <= 0:
            return None
        y = self.yes.get(v)
        if y is not None and y[0] >= d:
            j = y[1]
            W = self.sets[v]
            W1 = W & self.cols[j]
            return {"point": j, "0": self.tree(d - 1, self.vid[W ^ W1]), "1": self.tree(d - 1, self.vid[W1])}
        e = self.ptree.get(v)
        if e is not None and e[0] >= d:
            return cut_tree(e[1], d)
        if d == 1 and self.size[v] >= 2:
            W = self.sets[v]
            for j, col in enumerate(self.cols):
                s = col & W
                if s and s != W:
                    return {"point": j, "0": None, "1": None}
        raise RuntimeError(f"internal error: nothing proves depth {d} here")

    def upper_proof(self, h: int, *, limit: int = 100_000) -> dict:
        """The upper-bound certificate "Opt(C) <= h" from the driver's refutations and the parts' certificates
        (:meth:`certify` first)."""
        from .search import Solver

        if self._certified != h:
            raise RuntimeError(f"internal error: the parts of Opt(C) <= {h} are not certified")
        entries: list = []
        self._proof(self.root, h, entries, limit)
        group = self.group.to_json() if self._orbit_rep is not None else None
        for part, sym in self.certificates:
            group = _joined(group, sym)
            base = len(entries)
            for x in part:
                if "isomorphic" in x:
                    x = {**x, "isomorphic": {**x["isomorphic"], "entry": x["isomorphic"]["entry"] + base}}
                entries.append(x)
            Solver._check_size(entries, limit)
        from ..certificates.rules import stamp

        out = {"kind": "upper-bound", "bound": h, "concepts": self.C.n_concepts, "entries": entries}
        if group is not None:
            out["symmetry"] = group
        return stamp(out, "orbit" if group is not None else "paths")

    def _proof(self, v: int, h: int, entries=None, limit: int = 0, todo: dict | None = None) -> None:
        """Append the driver's entries of "Opt(v) <= h" to ``entries``; with ``todo`` a dict, list there instead the
        parts it rests on (vid -> bound), whose entries the workers write (:meth:`certify`)."""
        from .search import Solver

        if self.size[v] < (1 << (h + 1)):
            return
        e = self.no.get(v)
        if e is not None and e[0] <= h:
            b, refuted = e
            if todo is None:
                entries.append({"path": [list(x) for x in self.path[v]], "bound": b})
                Solver._check_size(entries, limit)
            for j, child, lab in refuted:
                self._proof(child, b - 1, entries, limit, todo)
        elif todo is not None:
            if self.hib[v] > h:
                raise RuntimeError(f"internal error: nothing proves Opt <= {h} here")
            todo[v] = min(h, todo.get(v, h))


def _joined(a: dict | None, b: dict | None) -> dict | None:
    """The certificate's group from two ("symmetry" JSON, or None): one of them when they are the same, else the
    group both generate (each generator maps the class onto itself, which the checker checks: so do all their
    products; every name either part relied on is then an orbit of a larger group, still one Opt)."""
    if a is None or a == b:
        return b
    if b is None:
        return a
    gens = list(a["generators"]) + [g for g in b["generators"] if g not in a["generators"]]
    return {**a, "generators": gens}
