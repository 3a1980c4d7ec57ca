"""The compiled functions of :mod:`solvers.opt.kernel` (importing this module imports numba).

The search of ``Solver._at_least`` written iteratively over arrays (see :mod:`solvers.opt.kernel`):

frame[f] = d, n, lo, hi, phase, good index, good count, own split count, inherited split count, which
child went first. ``pool[f]`` holds the splits frame f inherits (indices into the root's splits; row 0:
all of them), ``pool[f + 1]`` its own distinct splits (what its children inherit), ``goods[f]`` its splits
balanced enough to try, most balanced first. Phases: 0 entering, 1 trying the next good split, 2 waiting
for the first child, 3 waiting for the second.
"""

import numpy as np
from numba import njit

PAUSED, DONE, FULL = 0, 1, 2
EMPTY = -1

_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)
_S1 = np.uint64(1)
_S2 = np.uint64(2)
_S4 = np.uint64(4)
_S56 = np.uint64(56)
_S31 = np.uint64(31)
_S29 = np.uint64(29)
_SEED = np.uint64(0x9E3779B97F4A7C15)
_MUL = np.uint64(0xBF58476D1CE4E5B9)
_ZERO = np.uint64(0)


_P61 = np.uint64((1 << 61) - 1)
_S3 = np.uint64(3)
_S8 = np.uint64(8)
_S32 = np.uint64(32)
_S61 = np.uint64(61)
_B255 = np.uint64(255)
_MAXW = np.uint64(0xFFFFFFFFFFFFFFFF)


@njit(cache=True)
def _pyhash(V):
    """Python's ``hash`` of the int whose words are V: the int modulo 2**61 - 1 (64-bit CPython)."""
    h = _ZERO
    for w in range(V.shape[0] - 1, -1, -1):
        x = V[w]
        r = (x & _P61) + (x >> _S61)
        if r >= _P61:
            r -= _P61
        t = h << _S3  # h * 2**64 = h * 8 (mod 2**61 - 1)
        t = (t & _P61) + (t >> _S61)
        if t >= _P61:
            t -= _P61
        h = t + r
        if h >= _P61:
            h -= _P61
    return np.int64(h)


@njit(cache=True)
def _plain_row(V, K):
    """The key row of V by itself (a tagged row's last word, 0, says so)."""
    W = V.shape[0]
    for w in range(W):
        K[w] = V[w]
    for w in range(W, K.shape[0]):
        K[w] = _ZERO


@njit(cache=True)
def _orbit_row(V, cols, tables, flips, wide, ties, K):
    """The key row of V's orbit: :meth:`Canonical.key <solvers.opt.canonical.Canonical.key>` (before its
    final ``~``) in words 0-1 (one word when ``wide`` is 0), last word 1.

    The key is the least (A, B) over the group, A the image of the closure's ones (its zeros under an element
    that complements labels) and B the other; A is computed first, from the mask's non-zero bytes only, and an
    element is dropped as soon as its partial A (an OR, so never larger than A) passes the least A so far; B
    is computed for the elements tied on the least A only (``ties``: room for every element)."""
    W = V.shape[0]
    ones = _ZERO
    zeros = _ZERO
    for x in range(cols.shape[0]):
        all1 = True
        none = True
        for w in range(W):
            s = cols[x, w] & V[w]
            if s != V[w]:
                all1 = False
                if not none:
                    break
            if s != _ZERO:
                none = False
                if not all1:
                    break
        if all1:
            ones |= _S1 << np.uint64(x)
        elif none:
            zeros |= _S1 << np.uint64(x)
    nb = tables.shape[0]
    ob = np.empty(nb, dtype=np.int64)  # the non-zero bytes of ones: (position, value) pairs
    ov = np.empty(nb, dtype=np.int64)
    zb = np.empty(nb, dtype=np.int64)
    zv = np.empty(nb, dtype=np.int64)
    no = 0
    nz = 0
    for k in range(nb):
        sh = np.uint64(8 * k)
        v = np.int64((ones >> sh) & _B255)
        if v:
            ob[no] = k
            ov[no] = v
            no += 1
        v = np.int64((zeros >> sh) & _B255)
        if v:
            zb[nz] = k
            zv[nz] = v
            nz += 1
    best_a = _MAXW
    nt = 0
    for g in range(tables.shape[2]):
        a = _ZERO
        over = False
        if flips[g]:
            for q in range(nz):
                a |= tables[zb[q], zv[q], g]
                if a > best_a:
                    over = True
                    break
        else:
            for q in range(no):
                a |= tables[ob[q], ov[q], g]
                if a > best_a:
                    over = True
                    break
        if over:
            continue
        if a < best_a:
            best_a = a
            nt = 0
        ties[nt] = g
        nt += 1
    best_b = _MAXW
    for t in range(nt):
        g = ties[t]
        b = _ZERO
        if flips[g]:
            for q in range(no):
                b |= tables[ob[q], ov[q], g]
        else:
            for q in range(nz):
                b |= tables[zb[q], zv[q], g]
        if b < best_b:
            best_b = b
    for w in range(K.shape[0]):
        K[w] = _ZERO
    if wide:
        K[0] = best_a
        K[1] = best_b
    else:
        K[0] = (best_a << _S32) | best_b
    K[K.shape[0] - 1] = _S1


@njit(cache=True, inline="always")
def _move_hash(V, K):
    """The hash recorded with a move under an orbit key (0 under a plain key)."""
    if K.shape[0] > V.shape[0] and K[K.shape[0] - 1] == _S1:
        return _pyhash(V)
    return np.int64(0)


@njit(cache=True, inline="always")
def _popcount(x):
    x = x - ((x >> _S1) & _M1)
    x = (x & _M2) + ((x >> _S2) & _M2)
    x = (x + (x >> _S4)) & _M4
    return np.int64((x * _H01) >> _S56)


@njit(cache=True, inline="always")
def _mix(h, x):
    h = (h ^ x) * _MUL
    return h ^ (h >> _S31)


@njit(cache=True)
def _hash_row(row):
    h = _SEED
    for w in range(row.shape[0]):
        h = _mix(h, row[w])
    return h ^ (h >> _S29)


@njit(cache=True)
def _find(keys, seqs, row):
    """The slot holding ``row`` (>= 0), or -(the empty slot where it would go) - 1."""
    mask = np.uint64(seqs.shape[0] - 1)
    W = row.shape[0]
    i = np.int64(_hash_row(row) & mask)
    while seqs[i] != EMPTY:
        same = True
        for w in range(W):
            if keys[i, w] != row[w]:
                same = False
                break
        if same:
            return i
        i = (i + 1) & np.int64(mask)
    return -i - 1


@njit(cache=True)
def _put(keys, lo, hi, move, mhash, seqs, row, l, h, mv, mh, count, seq):
    """Store (l, h) for ``row`` (and the move ``mv`` when >= 0, with ``mh``: the hash of the version space it
    was found for, under an orbit key): (count, seq) after."""
    i = _find(keys, seqs, row)
    if i < 0:
        i = -i - 1
        for w in range(row.shape[0]):
            keys[i, w] = row[w]
        seqs[i] = seq
        seq += 1
        count += 1
        move[i] = -1
    lo[i] = l
    hi[i] = h
    if mv >= 0:
        move[i] = mv
        mhash[i] = mh
    return count, seq


@njit(cache=True)
def insert_many(rows, l, h, mv, mh, keys, lo, hi, move, mhash, seqs, count, seq):
    for k in range(rows.shape[0]):
        count, seq = _put(keys, lo, hi, move, mhash, seqs, rows[k], l[k], h[k], mv[k], mh[k], count, seq)
    return count, seq


@njit(cache=True)
def rehash(okeys, olo, ohi, omove, omhash, oseqs, cut, keys, lo, hi, move, mhash, seqs):
    """Copy the entries of the old table whose insertion number is > ``cut`` into the new one (keeping
    their numbers); their count."""
    count = 0
    for k in range(oseqs.shape[0]):
        if oseqs[k] == EMPTY or oseqs[k] <= cut:
            continue
        i = -_find(keys, seqs, okeys[k]) - 1
        for w in range(okeys.shape[1]):
            keys[i, w] = okeys[k, w]
        lo[i] = olo[k]
        hi[i] = ohi[k]
        move[i] = omove[k]
        mhash[i] = omhash[k]
        seqs[i] = oseqs[k]
        count += 1
    return count


@njit(cache=True)
def search(roots, points, Vs, Ks, pool, goods, frame, stab, sgen, gm, state,
           keys, lo, hi, move, mhash, seqs, count, limit, stop_at, canon, cmin, cols, tables, flips, wide, ties):
    """Run the query on the stack (``state`` = sp, last result, nodes, next insertion number) until it is
    decided (DONE), ``stop_at`` nodes have been expanded (PAUSED) or the memo needs room (FULL).

    ``Ks[f]`` is frame f's memo key row; with ``canon`` = 1, version spaces of ``cmin`` concepts or more are
    keyed by their orbit (``cols``: the class's columns as word rows; ``tables``, ``flips``, ``wide``: the
    :class:`~solvers.opt.canonical.Canonical`'s; ``ties``: scratch, one slot per element)."""
    W = Vs.shape[1]
    sp = state[0]
    res = state[1]
    nodes = state[2]
    seq = state[3]
    tmask = stab.shape[0] - 1
    status = DONE
    while sp >= 0:
        if count >= limit:
            status = FULL
            break
        f = sp
        ph = frame[f, 4]
        V = Vs[f]
        d = frame[f, 0]
        n = frame[f, 1]
        popped = False
        if ph == 0:
            if d <= 1:
                if d <= 0:
                    res = 1 if n >= 1 else 0
                else:
                    res = 1 if n >= 2 else 0
                popped = True
            elif d >= 62 or n < (np.int64(1) << d):
                res = 0
                popped = True
            else:
                K = Ks[f]
                if canon and n >= cmin:
                    _orbit_row(V, cols, tables, flips, wide, ties, K)
                else:
                    _plain_row(V, K)
                i = _find(keys, seqs, K)
                if i >= 0:
                    l = np.int64(lo[i])
                    h = np.int64(hi[i])
                else:
                    l = 1
                    h = 0
                    x = n
                    while x > 1:
                        x >>= 1
                        h += 1
                if l >= d:
                    res = 1
                    popped = True
                elif h < d:
                    res = 0
                    popped = True
                else:
                    if nodes >= stop_at:
                        status = PAUSED
                        break
                    nodes += 1
                    need = np.int64(1) << (d - 1)
                    # the lowest concept of V
                    lw = 0
                    while V[lw] == _ZERO:
                        lw += 1
                    lbit = V[lw] & (~V[lw] + _S1)
                    own = pool[f + 1]
                    cnt = 0
                    ng = 0
                    inherited = frame[f, 8]
                    for q in range(inherited):
                        r = pool[f, q]
                        # one pass: the split's size, and the hash of the side holding V's lowest concept
                        flip = (roots[r, lw] & lbit) == _ZERO
                        k1 = 0
                        hsh = _SEED
                        for w in range(W):
                            x = roots[r, w] & V[w]
                            k1 += _popcount(x)
                            if flip:
                                x ^= V[w]
                            hsh = _mix(hsh, x)
                        if k1 == 0 or k1 == n:
                            continue
                        t = np.int64(hsh & np.uint64(tmask))
                        dup = False
                        while sgen[t] == nodes:
                            r2 = own[stab[t]]
                            flip2 = (roots[r2, lw] & lbit) == _ZERO
                            same = True
                            for w in range(W):
                                a = roots[r, w] & V[w]
                                if flip:
                                    a ^= V[w]
                                b = roots[r2, w] & V[w]
                                if flip2:
                                    b ^= V[w]
                                if a != b:
                                    same = False
                                    break
                            if same:
                                dup = True
                                break
                            t = (t + 1) & tmask
                        if dup:
                            continue
                        sgen[t] = nodes
                        stab[t] = cnt
                        own[cnt] = r
                        cnt += 1
                        m = k1 if k1 < n - k1 else n - k1
                        if m >= need:
                            goods[f, ng] = r
                            gm[ng] = -m
                            ng += 1
                    if cnt < h:
                        h = cnt  # Opt(V) <= number of distinct splits of V
                    if h < d or ng == 0:
                        count, seq = _put(keys, lo, hi, move, mhash, seqs, K, l, min(h, d - 1), -1, 0, count, seq)
                        res = 0
                        popped = True
                    elif d == 2:  # both sides hold >= 2 concepts, so each has Opt >= 1
                        count, seq = _put(keys, lo, hi, move, mhash, seqs, K, 2, h, points[goods[f, 0]],
                                          _move_hash(V, K), count, seq)
                        res = 1
                        popped = True
                    else:
                        order = np.argsort(gm[:ng], kind="mergesort")  # stable: as Python's sort
                        sorted_goods = goods[f, :ng][order]
                        goods[f, :ng] = sorted_goods
                        frame[f, 2] = l
                        frame[f, 3] = h
                        frame[f, 4] = 1
                        frame[f, 5] = 0
                        frame[f, 6] = ng
                        frame[f, 7] = cnt
        elif ph == 1:
            gi = frame[f, 5]
            if gi >= frame[f, 6]:
                count, seq = _put(keys, lo, hi, move, mhash, seqs, Ks[f], frame[f, 2], d - 1, -1, 0, count, seq)
                res = 0
                popped = True
            else:
                r = goods[f, gi]
                C = Vs[f + 1]
                d1 = d - 1
                k1 = 0
                for w in range(W):
                    x = roots[r, w] & V[w]
                    C[w] = x ^ V[w]
                    k1 += _popcount(x)
                skip = False
                CK = Ks[f + 1]  # (the children's entries are looked up under their own keys, as in Python)
                _plain_row(C, CK)
                i = _find(keys, seqs, CK)
                if i >= 0 and hi[i] < d1:
                    skip = True
                if not skip:
                    for w in range(W):
                        C[w] = roots[r, w] & V[w]
                    _plain_row(C, CK)
                    i = _find(keys, seqs, CK)
                    if i >= 0 and hi[i] < d1:
                        skip = True
                if skip:
                    frame[f, 5] = gi + 1
                else:
                    if k1 <= n - k1:  # the smaller child first: C holds s
                        frame[f, 9] = 1
                        frame[f + 1, 1] = k1
                    else:
                        frame[f, 9] = 0
                        for w in range(W):
                            C[w] ^= V[w]
                        frame[f + 1, 1] = n - k1
                    frame[f + 1, 0] = d1
                    frame[f + 1, 4] = 0
                    frame[f + 1, 8] = frame[f, 7]
                    frame[f, 4] = 2
                    sp = f + 1
        elif ph == 2:
            if res == 0:
                frame[f, 5] += 1
                frame[f, 4] = 1
            else:
                r = goods[f, frame[f, 5]]
                C = Vs[f + 1]
                k1 = 0
                for w in range(W):
                    x = roots[r, w] & V[w]
                    if frame[f, 9] == 1:  # s went first: now V - s
                        x ^= V[w]
                    C[w] = x
                    k1 += _popcount(x)
                frame[f + 1, 0] = d - 1
                frame[f + 1, 1] = k1
                frame[f + 1, 4] = 0
                frame[f + 1, 8] = frame[f, 7]
                frame[f, 4] = 3
                sp = f + 1
        else:  # ph == 3
            if res == 0:
                frame[f, 5] += 1
                frame[f, 4] = 1
            else:
                r = goods[f, frame[f, 5]]
                count, seq = _put(keys, lo, hi, move, mhash, seqs, Ks[f], d, frame[f, 3], points[r],
                                  _move_hash(V, Ks[f]), count, seq)
                res = 1
                popped = True
        if popped:
            sp -= 1
    state[0] = sp
    state[1] = res
    state[2] = nodes
    state[3] = seq
    return status, count


def warm_up() -> None:
    """Compile (or load from numba's cache) the functions for the argument types the kernel uses."""
    W, R = 1, 1
    roots = np.zeros((R, W), dtype=np.uint64)
    keys = np.zeros((16, W), dtype=np.uint64)
    lo = np.zeros(16, dtype=np.int16)
    hi = np.zeros(16, dtype=np.int16)
    move = np.full(16, -1, dtype=np.int32)
    mhash = np.zeros(16, dtype=np.int64)
    seqs = np.full(16, EMPTY, dtype=np.int64)
    Vs = np.ones((3, W), dtype=np.uint64)
    frame = np.zeros((3, 10), dtype=np.int64)
    frame[0, 0] = 5
    frame[0, 1] = 1
    state = np.array([0, -1, 0, 0], dtype=np.int64)
    search(roots, np.zeros(R, dtype=np.int32), Vs, Vs.copy(), np.zeros((4, R), dtype=np.int32),
           np.zeros((3, R), dtype=np.int32), frame, np.zeros(4, dtype=np.int32), np.zeros(4, dtype=np.int64),
           np.zeros(R, dtype=np.int64), state, keys, lo, hi, move, mhash, seqs, 0, 8, 10,
           1, 2, np.zeros((1, W), dtype=np.uint64), np.zeros((1, 256, 1), dtype=np.uint64), np.zeros(1, dtype=np.uint8), 0,
           np.zeros(1, dtype=np.int32))
    count, seq = insert_many(Vs[:1], lo[:1], hi[:1], move[:1], mhash[:1], keys, lo, hi, move, mhash, seqs, 0, 0)
    rehash(keys, lo, hi, move, mhash, seqs, -1, keys.copy(), lo.copy(), hi.copy(), move.copy(), mhash.copy(),
           np.full(16, EMPTY, dtype=np.int64))
