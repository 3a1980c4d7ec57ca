"""The VC dimension, the dual VC dimension, the threshold dimension and the star number as constraint problems:
CP-SAT (OR-Tools) finds each structure and refutes the next size, and a CDCL solver of python-sat checks the
refutation on a CNF written separately from the definition.

Each of the four is *hereditary*: a subset of a shattered set is shattered, dropping a pair (c_i, x_i) from a half
graph leaves a half graph, a subset of a star (with the same centre and neighbours) is a star. So "the value is at
least k" is a decision problem, monotone in k, and the driver climbs: from a lower bound L with its witness it asks
for a structure of size L + 1 (CP-SAT may return a larger one), and stops at the first size it refutes, which
proves the value is L (``"upper": {"by": "cp-sat", ...}`` in the witness). That refutation is then checked by a
second route: a CNF of the same question written from the definition (no reduction of the matrix, no shared code
with the CP-SAT model), refuted by :data:`CHECKER`; the witness says so (``"checked_by": "glucose4"``), or why not
(``"unchecked": ...``: over :data:`CNF_MAX_CLAUSES` clauses, or no time left). The witness itself is replayed by
:mod:`solvers.certificates.params` as every witness is.

The models, for a 0/1 matrix M (concepts x points):

* **VC >= d** (``vc_model``): positions k = 1..d each hold one point, in increasing order (columns that are
  constant, or equal or complementary to an earlier one, dropped: such a point is never in a shattered set with
  its twin); u[k, c] = M[c, point at k]; for each of the 2^d patterns b some concept c realises it
  (w[b, c] implies u[k, c] = b_k for every k). The CNF has the same positions over every column.
* **threshold >= t** (``threshold_model``): positions i = 1..t each hold a concept c_i and a point x_i; u[j, c] =
  M[c, x_j] and c_i implies u[j, c_i] = [i <= j]. A concept or point is allowed only at the positions its count of
  ones and zeros fits (c_i has t - i + 1 ones among the x's, x_j has j ones among the c's). The CNF forbids every
  pair (c at i, x at j) with M[c, x] != [i <= j] directly.
* **star >= s around the centre c** (``star_model``, one model per centre): d_h is the set of points where h differs
  from c; the points chosen S (at least s), and a flag per concept h "h meets S at most once"; every chosen point
  needs a flagged h that differs from c there (so h differs from c on S at that point alone). The CNF gives each
  chosen point x a neighbour h (differing from c at x) and forbids every other chosen point where h differs.

CP-SAT runs with one worker and a fixed seed (:func:`cpsat_parameters`), so a run gives the same witness every
time; a time limit is honoured by CP-SAT's ``max_time_in_seconds`` and by interrupting the CDCL solver, and each
solve runs in a thread while the caller looks at the clock and at Ctrl-C (:func:`solvers.interrupts.check`):
a stopped run keeps its proven bounds, as the searches do.

References
----------
Hanneke and Yang, "Minimax analysis of active learning" (2015): the star number. Alon, Beimel, Moran and Stemmer,
"Closure properties for private classification and online prediction" (2020), after Shelah and Hodges: the
threshold dimension and its tie with the Littlestone dimension.

Examples
--------
>>> from solvers.classes.families import make
>>> r = star(make("thresholds", N=5).matrix)
>>> r.lower, r.upper, r.witness["upper"]
(2, 2, {'by': 'cp-sat', 'refuted': 3, 'checked_by': 'glucose4'})
>>> r = star(make("singletons", N=5).matrix)   # |C| - 1 = 5: no refutation needed
>>> r.lower, r.upper, r.witness["upper"]["by"]
(5, 5, 'bound')
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Optional

import numpy as np

from .. import interrupts

__all__ = ["vc", "threshold", "star", "SatResult", "CHECKER", "CNF_MAX_CLAUSES", "MODEL_MAX_TERMS", "vc_size",
           "threshold_size", "star_size", "cpsat_parameters"]

#: The CDCL solver of python-sat that checks CP-SAT's refutations (one that python-sat can interrupt at a deadline).
CHECKER = "glucose4"
#: The largest CNF (in clauses) the second route builds; past it the refutation is left unchecked, and says so.
CNF_MAX_CLAUSES = 1_000_000
#: The largest CP-SAT model (in terms of its constraints, :func:`vc_size` etc.) that ``method="auto"`` builds.
MODEL_MAX_TERMS = 2_000_000

FOUND, REFUTED, UNKNOWN = "found", "refuted", "unknown"


@dataclass
class SatResult:
    """The bounds a driver proved: ``lower`` (its witness in ``witness``), ``upper`` and how (``witness["upper"]``),
    ``stopped`` when the time limit or a Ctrl-C ended it before the bounds met, and the ``solves`` it made."""

    lower: int
    upper: int
    witness: dict = field(default_factory=dict)
    stopped: Optional[str] = None
    solves: int = 0


class _Clock:
    def __init__(self, deadline: Optional[float]):
        self.deadline = deadline

    def left(self) -> Optional[float]:
        return None if self.deadline is None else self.deadline - time.monotonic()

    def out(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline


def _wait(solve: Callable, stop: Callable, clock: _Clock):
    """``solve()`` in a thread (both solvers let Python run meanwhile) while this thread looks at Ctrl-C and at the
    clock: ``stop()`` past the deadline (the solve then returns its 'unknown'), and on Ctrl-C, which is raised again
    once the solve has returned."""
    out: dict = {}

    def run() -> None:
        try:
            out["value"] = solve()
        except BaseException as e:  # noqa: BLE001 - handed to the caller's thread
            out["error"] = e

    worker = threading.Thread(target=run, name="littlestone-sat", daemon=True)
    worker.start()
    stopped = False
    try:
        while worker.is_alive():
            worker.join(0.05)
            interrupts.check()
            if not stopped and clock.out():
                stop()
                stopped = True
    except KeyboardInterrupt:
        stop()
        worker.join()
        raise
    if "error" in out:
        raise out["error"]
    return out["value"]


# ------------------------------------------------------------------------------------------------ CP-SAT
def cpsat_parameters(solver, seconds: Optional[float]) -> None:
    """One worker and seed 0 (the same answer on every run), the time left, and no SIGINT handler of its own (the
    caller's thread sees Ctrl-C and stops the search)."""
    p = solver.parameters
    p.num_workers = 1
    p.random_seed = 0
    p.catch_sigint_signal = False
    if seconds is not None:
        p.max_time_in_seconds = max(seconds, 0.001)


def _solve_cpsat(model, clock: _Clock):
    """(status, solver): FOUND, REFUTED or UNKNOWN."""
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    cpsat_parameters(solver, clock.left())
    status = _wait(lambda: solver.solve(model), solver.stop_search, clock)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return FOUND, solver
    if status == cp_model.INFEASIBLE:
        return REFUTED, solver
    if status == cp_model.MODEL_INVALID:  # a bug in the model, never a bound
        raise RuntimeError(f"CP-SAT says the model is invalid: {model.validate()}")
    return UNKNOWN, solver


def _vc_points(M) -> list:
    """The columns a shattered set may use, one per class of equal-or-complementary non-constant columns."""
    from . import distinct_columns

    split = np.flatnonzero(M.min(axis=0) != M.max(axis=0))
    flipped = M[:, split] ^ M[0, split]  # each column with its first row 0: complementary columns become equal
    return [int(split[i]) for i in distinct_columns(flipped)]


def vc_size(m: int, n: int, d: int) -> int:
    """The terms of the VC model at size d on m concepts and n points (the channel u and the 2^d patterns)."""
    return d * m * n + (1 << d) * m * d


def vc_model(M, d: int):
    """(model, read): CP-SAT's model of "M shatters d points", and ``read(solver)`` -> the points (column indices)."""
    from ortools.sat.python import cp_model

    cols = _vc_points(M)
    m = M.shape[0]
    model = cp_model.CpModel()
    p = [[model.new_bool_var(f"p{k}_{x}") for x in cols] for k in range(d)]
    for k in range(d):
        model.add_exactly_one(p[k])
    index = [sum(i * v for i, v in enumerate(p[k])) for k in range(d)]
    for k in range(d - 1):  # the points in increasing order: each set once
        model.add(index[k] + 1 <= index[k + 1])
    sub = M[:, cols]
    u = [[model.new_bool_var(f"u{k}_{c}") for c in range(m)] for k in range(d)]
    for k in range(d):
        for c in range(m):
            model.add(u[k][c] == sum(p[k][i] for i in np.flatnonzero(sub[c])))
    for b in range(1 << d):
        w = [model.new_bool_var(f"w{b}_{c}") for c in range(m)]
        for c in range(m):
            for k in range(d):
                model.add_implication(w[c], u[k][c] if b >> k & 1 else ~u[k][c])
        model.add_bool_or(w)

    def read(solver) -> list:
        return sorted(cols[i] for k in range(d) for i, v in enumerate(p[k]) if solver.boolean_value(v))

    return model, read


def threshold_size(m: int, n: int, t: int) -> int:
    """The terms of the threshold model at size t (the channel u and the pattern's implications)."""
    return t * m * n + t * t * m


def threshold_model(M, t: int, lasts=None):
    """(model, read): "a half graph of size t in M" (its last point x_t among ``lasts``, default any);
    ``read(solver)`` -> (points, concepts), c_1 and x_1 first."""
    from ortools.sat.python import cp_model

    m, n = M.shape
    ones_c = M.sum(axis=1)
    ones_x = M.sum(axis=0)
    # c_i (0-based i) is 1 on x_i..x_t and 0 on x_1..x_{i-1}; x_j is 1 under c_1..c_j and 0 under the rest
    can_c = [[c for c in range(m) if ones_c[c] >= t - i and n - ones_c[c] >= i] for i in range(t)]
    can_x = [[x for x in range(n) if ones_x[x] >= j + 1 and m - ones_x[x] >= t - 1 - j] for j in range(t)]
    if lasts is not None:
        can_x[t - 1] = [x for x in can_x[t - 1] if x in set(lasts)]
    model = cp_model.CpModel()
    if any(not a for a in can_c) or any(not a for a in can_x):
        model.add_bool_or([])  # no concept or no point fits some position
        return model, None
    r = [{c: model.new_bool_var(f"r{i}_{c}") for c in can_c[i]} for i in range(t)]
    p = [{x: model.new_bool_var(f"p{j}_{x}") for x in can_x[j]} for j in range(t)]
    for i in range(t):
        model.add_exactly_one(r[i].values())
        model.add_exactly_one(p[i].values())
    used = sorted({c for i in range(t) for c in can_c[i]})
    for j in range(t):
        for c in used:
            u = model.new_bool_var(f"u{j}_{c}")
            model.add(u == sum(v for x, v in p[j].items() if M[c, x]))
            for i in range(t):
                if c in r[i]:
                    model.add_implication(r[i][c], u if i <= j else ~u)

    def read(solver) -> tuple:
        xs = [next(x for x, v in p[j].items() if solver.boolean_value(v)) for j in range(t)]
        cs = [next(c for c, v in r[i].items() if solver.boolean_value(v)) for i in range(t)]
        return xs, cs

    return model, read


def star_size(m: int, n: int) -> int:
    """The terms of the star model: every concept as the neighbour at every point, against every other point."""
    return m * n * n


def star_model(M, s: int, centres=None):
    """(model, read) of "a star of s points around one of ``centres`` (default every concept)";
    ``read(solver)`` -> (centre, points).

    The centre enters only through its labels v[x] on the points (z[c] implies v[x] = M[c, x]), so the model has
    m n^2 terms, not one model per centre: a[h, x] (h is the neighbour at x) implies v[x] != M[h, x], and for every
    other point y, chosen y implies v[y] = M[h, y]; a chosen point has a neighbour."""
    from ortools.sat.python import cp_model

    m, n = M.shape
    centres = list(range(m)) if centres is None else [int(c) for c in centres]
    split = [x for x in range(n) if M[:, x].any() and not M[:, x].all()]  # elsewhere no concept differs from any
    model = cp_model.CpModel()
    if len(split) < s or m - 1 < s:
        model.add_bool_or([])
        return model, None
    S = {x: model.new_bool_var(f"s{x}") for x in split}
    V = {x: model.new_bool_var(f"v{x}") for x in split}
    Z = {c: model.new_bool_var(f"z{c}") for c in centres}
    model.add_exactly_one(Z.values())
    for c, z in Z.items():
        for x in split:
            model.add_implication(z, V[x] if M[c, x] else ~V[x])
    model.add(sum(S.values()) >= s)
    for x in split:
        options = []
        for h in range(m):
            a = model.new_bool_var(f"a{h}_{x}")
            options.append(a)
            model.add_implication(a, ~V[x] if M[h, x] else V[x])
            for y in split:
                if y != x:
                    model.add_bool_or([~a, ~S[y], V[y] if M[h, y] else ~V[y]])
        model.add_bool_or([~S[x], *options])

    def read(solver) -> tuple:
        centre = next(c for c, z in Z.items() if solver.boolean_value(z))
        return centre, [x for x in split if solver.boolean_value(S[x])]

    return model, read


# ------------------------------------------------------------------------------------------------ the CNF route
class _Vars:
    def __init__(self):
        self.top = 0

    def new(self, count: int = 1):
        first = self.top + 1
        self.top += count
        return first if count == 1 else list(range(first, first + count))


def _exactly_one(lits: list, pool: _Vars, out: list) -> None:
    from pysat.card import CardEnc, EncType
    from pysat.formula import IDPool

    enc = CardEnc.equals(lits=lits, bound=1, vpool=IDPool(start_from=pool.top + 1), encoding=EncType.seqcounter)
    pool.top = max([pool.top, *(abs(v) for cl in enc.clauses for v in cl)])
    out.extend(enc.clauses)


def _at_least(lits: list, k: int, pool: _Vars, out: list) -> None:
    from pysat.card import CardEnc, EncType
    from pysat.formula import IDPool

    enc = CardEnc.atleast(lits=lits, bound=k, vpool=IDPool(start_from=pool.top + 1), encoding=EncType.seqcounter)
    pool.top = max([pool.top, *(abs(v) for cl in enc.clauses for v in cl)])
    out.extend(enc.clauses)


def vc_cnf(M, d: int) -> list:
    """Clauses of "some d columns of M, in increasing order, take all 2^d patterns on the rows"."""
    m, n = M.shape
    pool, out = _Vars(), []
    P = [pool.new(n) if n > 1 else [pool.new()] for _ in range(d)]  # P[k][x]: the k-th point is x
    for k in range(d):
        _exactly_one(P[k], pool, out)
    for k in range(d - 1):
        for x in range(n):
            out.extend([-P[k][x], -P[k + 1][y]] for y in range(x + 1))
    V = [pool.new(m) if m > 1 else [pool.new()] for _ in range(d)]  # V[k][c]: concept c is 1 at the k-th point
    for k in range(d):
        for x in range(n):
            out.extend([-P[k][x], V[k][c] if M[c, x] else -V[k][c]] for c in range(m))
    for b in range(1 << d):
        W = pool.new(m) if m > 1 else [pool.new()]  # W[c]: concept c shows the pattern b
        out.append(list(W))
        for c in range(m):
            out.extend([-W[c], V[k][c] if b >> k & 1 else -V[k][c]] for k in range(d))
    return out


def vc_cnf_size(m: int, n: int, d: int) -> int:
    return d * n * (n + 1) // 2 + d * n * m + (1 << d) * m * d + d * n


def threshold_cnf(M, t: int, lasts=None) -> list:
    """Clauses of "concepts c_1..c_t and points x_1..x_t of M with M[c_i, x_j] = 1 exactly when i <= j" (x_t among
    ``lasts``, default any)."""
    m, n = M.shape
    pool, out = _Vars(), []
    R = [pool.new(m) if m > 1 else [pool.new()] for _ in range(t)]
    P = [pool.new(n) if n > 1 else [pool.new()] for _ in range(t)]
    for i in range(t):
        _exactly_one(R[i], pool, out)
        _exactly_one(P[i], pool, out)
    if lasts is not None:
        out.extend([-P[t - 1][x]] for x in sorted(set(range(n)) - {int(v) for v in lasts}))
    ones = [np.flatnonzero(M[c]) for c in range(m)]
    zeros = [np.flatnonzero(~M[c]) for c in range(m)]
    for i in range(t):
        for j in range(t):
            for c in range(m):  # concept c at i and point x at j disagree with the pattern
                out.extend([-R[i][c], -P[j][x]] for x in (zeros[c] if i <= j else ones[c]))
    return out


def threshold_cnf_size(m: int, n: int, t: int) -> int:
    return t * t * m * n + 2 * t * (m + n)


def star_cnf(M, c: int, s: int) -> list:
    """Clauses of "s points, each with a concept that differs from concept c there and at no other of them"."""
    m, n = M.shape
    pool, out = _Vars(), []
    S = pool.new(n) if n > 1 else [pool.new()]
    differs = M != M[c]  # differs[h, x]: concept h differs from c at x (never for h = c)
    for x in range(n):
        A = {}
        for h in np.flatnonzero(differs[:, x]):
            A[int(h)] = pool.new()  # h is the neighbour of x
            out.extend([-A[int(h)], -S[y]] for y in np.flatnonzero(differs[h]) if y != x)
        out.append([-S[x], *A.values()])
    _at_least(list(S), s, pool, out)
    return out


def star_cnf_size(m: int, n: int) -> int:
    """About the clauses of one centre's CNF (each concept forbids the other points where it differs)."""
    return m * n * n // 2 + m * n + 2 * n * n


def _refuted_by_cnf(clauses: list, clock: _Clock):
    """True when :data:`CHECKER` proves the clauses unsatisfiable, False when it satisfies them, None when the time
    ran out."""
    from pysat.solvers import Solver

    with Solver(name=CHECKER, bootstrap_with=clauses) as solver:
        got = _wait(lambda: solver.solve_limited(expect_interrupt=True), solver.interrupt, clock)
    return None if got is None else not got


class Disagreement(RuntimeError):
    """CP-SAT refuted what the CNF of the second route satisfies: one of the two encodings is wrong."""


def _check(proof: dict, cnfs: list, size: int, clock: _Clock) -> dict:
    """Run the second route on ``cnfs`` (callables giving the clauses), recording the outcome in ``proof``."""
    if size > CNF_MAX_CLAUSES:
        return {**proof, "unchecked": f"the CNF would have about {size} clauses, over {CNF_MAX_CLAUSES}"}
    for make in cnfs:
        if clock.out():
            return {**proof, "unchecked": "no time left for the second route"}
        got = _refuted_by_cnf(make(), clock)
        if got is None:
            return {**proof, "unchecked": "the second route did not finish in the time left"}
        if got is False:
            raise Disagreement(f"CP-SAT refuted size {proof['refuted']}, but {CHECKER} satisfies the CNF of it: "
                               "an encoding is wrong (please report it)")
    return {**proof, "checked_by": CHECKER}


# ------------------------------------------------------------------------------------------------ the drivers
def _finder(model_of: Callable, clock: _Clock, found: Callable = lambda w: w) -> Callable:
    """``find(k)`` for :func:`_climb`: CP-SAT on ``model_of(k)`` -> (model, read) (read None: no such structure, by
    counting), the structure it finds as ``found(read(solver))``."""
    def find(k):
        model, read = model_of(k)
        if read is None:
            return REFUTED, None
        status, solver = _solve_cpsat(model, clock)
        return status, (found(read(solver)) if status == FOUND else None)
    return find


def _climb(find: Callable, refute_cnfs: Callable, cnf_size: Callable, lower: int, witness, upper: int,
           upper_by: dict, clock: _Clock, check: bool) -> SatResult:
    """From ``lower`` (``witness``), ask ``find(k)`` -> (status, witness): first k = lower + 1 (where a search's lower
    bound usually is the value), then, once a structure is found, bisect between the largest found and the smallest
    refuted (or ``upper``). A refuted k proves upper = k - 1 (the structures are hereditary); the smallest refuted,
    lower + 1 at the end, is checked by ``refute_cnfs(k)`` (callables giving the clauses, about ``cnf_size(k)``)."""
    solves, stopped, proof = 0, None, dict(upper_by)
    k = lower + 1
    try:
        while lower < upper:
            if clock.out():
                stopped = "time limit"
                break
            status, got = find(k)
            solves += 1
            if status == UNKNOWN:
                stopped = "time limit"
                break
            if status == FOUND:
                lower, witness = len(got[0] if isinstance(got, tuple) else got), got
            else:
                upper, proof = k - 1, {"by": "cp-sat", "refuted": k}
            k = (lower + upper + 1) // 2 if lower + 1 < upper else lower + 1
    except KeyboardInterrupt:
        stopped = "interrupted"
    if check and proof.get("by") == "cp-sat":
        try:
            proof = _check(proof, refute_cnfs(proof["refuted"]), cnf_size(proof["refuted"]), clock)
        except KeyboardInterrupt:
            proof, stopped = {**proof, "unchecked": "interrupted"}, "interrupted"
    return SatResult(lower, max(upper, lower), {"found": witness, "upper": proof}, stopped, solves)


def vc(M, *, witness=(), upper: Optional[int] = None, upper_by: Optional[dict] = None,
       deadline: Optional[float] = None, check: bool = True) -> SatResult:
    """The VC dimension of the rows of the 0/1 matrix ``M`` (pass ``M.T`` for the dual), from a shattered set
    ``witness`` (column indices) up to a proven ``upper`` (default min(floor(log2 m), distinct points); how it was
    proven in ``upper_by``). ``witness["points"]``: the shattered set; ``witness["upper"]``: how the upper bound
    is proven."""
    M = np.asarray(M, dtype=bool)
    m, n = M.shape
    clock = _Clock(deadline)
    trivial = min(max(m.bit_length() - 1, 0), int((M.min(axis=0) != M.max(axis=0)).sum()) if m else 0)
    if upper is None or trivial < upper:
        upper, upper_by = trivial, {"by": "bound", "text": "floor(log2 |C|) and the points where concepts differ"}

    find = _finder(lambda d: vc_model(M, d), clock)
    r = _climb(find, lambda d: [lambda: vc_cnf(M, d)], lambda d: vc_cnf_size(m, n, d), len(witness), list(witness), upper,
               upper_by or {"by": "bound"}, clock, check)
    r.witness = {"points": [int(j) for j in r.witness["found"]], "upper": r.witness["upper"]}
    return r


def threshold(M, *, witness=((), ()), upper: Optional[int] = None, upper_by: Optional[dict] = None,
              deadline: Optional[float] = None, check: bool = True, lasts=None) -> SatResult:
    """The threshold dimension of the 0/1 matrix ``M``, from a half graph ``witness`` = (points, concepts); the
    result's ``witness["points"]``, ``["concepts"]`` (x_1 and c_1 first) and ``["upper"]``. ``lasts``: the points a
    largest half graph's last point may be taken among (default all; one per orbit of the symmetries that keep the
    labels: :func:`solvers.params.orbits.point_representatives`)."""
    M = np.asarray(M, dtype=bool)
    m, n = M.shape
    clock = _Clock(deadline)
    # distinct points that some concept labels 1 (a half graph never uses two equal columns, nor an all-0 one)
    from . import distinct_columns

    cols = distinct_columns(M, nonzero=True)
    sub = M[:, cols]
    sub_lasts = None
    if lasts is not None:  # each last point allowed stands for the first column equal to it
        kept = {M[:, x].tobytes(): i for i, x in enumerate(cols)}
        sub_lasts = sorted({kept[M[:, int(x)].tobytes()] for x in lasts if M[:, int(x)].any()})
    trivial = min(m, len(cols))
    if upper is None or trivial < upper:
        upper, upper_by = trivial, {"by": "bound", "text": "|C| and the distinct points some concept labels 1"}

    find = _finder(lambda t: threshold_model(sub, t, sub_lasts), clock, lambda w: ([cols[x] for x in w[0]], w[1]))
    start = (list(witness[0]), list(witness[1]))
    r = _climb(find, lambda t: [lambda: threshold_cnf(M, t, lasts)], lambda t: threshold_cnf_size(m, n, t),
               len(start[0]), start,
               upper, upper_by or {"by": "bound"}, clock, check)
    xs, cs = r.witness["found"]
    r.witness = {"points": [int(x) for x in xs], "concepts": [int(c) for c in cs], "upper": r.witness["upper"]}
    return r


def star(M, *, witness: Optional[dict] = None, upper: Optional[int] = None, upper_by: Optional[dict] = None,
         deadline: Optional[float] = None, check: bool = True, centres=None) -> SatResult:
    """The star number of the 0/1 matrix ``M``, from the star ``witness`` (``{"centre", "points"}``) up to a proven
    ``upper`` (default min(|C| - 1, the points where concepts differ)). ``centres``: the concepts a largest star's
    centre may be taken among (default all; :func:`solvers.params.orbits.concept_representatives` gives one per
    orbit of a symmetry group, which maps stars to stars). The refutation is checked one centre at a time."""
    M = np.asarray(M, dtype=bool)
    m, n = M.shape
    clock = _Clock(deadline)
    centres = list(range(m)) if centres is None else [int(c) for c in centres]
    trivial = min(max(m - 1, 0), int((M.min(axis=0) != M.max(axis=0)).sum()) if m else 0)
    if upper is None or trivial < upper:
        upper, upper_by = trivial, {"by": "bound", "text": "|C| - 1 and the points where two concepts differ"}
    best = dict(witness or {"centre": centres[0] if centres else 0, "points": []})

    find = _finder(lambda s: star_model(M, s, centres), clock, lambda w: (w[1], w[0]))  # (read gives centre, points)

    def cnfs(s):
        return [(lambda c=c: star_cnf(M, c, s)) for c in centres]

    r = _climb(find, cnfs, lambda s: star_cnf_size(m, n), len(best["points"]),
               (list(best["points"]), best["centre"]), upper, upper_by or {"by": "bound"}, clock, check)
    points, c = r.witness["found"]
    r.witness = {"centre": int(c), "points": sorted(int(x) for x in points), "upper": r.witness["upper"]}
    return r


