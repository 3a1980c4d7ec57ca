"""The compiled functions of :mod:`solvers.opt.kernel` (importing this module imports numba and compiles them,
or loads them from numba's cache).

The search of ``Solver._at_least`` written iteratively over arrays (see :mod:`solvers.opt.kernel`):

frame[f] = d, n, lo, hi, phase, good index, good count, own split count, inherited split count, which
child went first, level, whether ``Ks[f]`` holds the plain row of ``Gs[f]`` already (left by the parent's lookup).
``pool[f]`` holds the splits frame f inherits (indices into the root's splits; row 0: all of them), ``pool[f + 1]`` its own distinct splits (what its children inherit), ``goods[f]`` its splits
balanced enough to try, most balanced first. Phases: 0 entering, 1 trying the next good split, 2 waiting
for the first child, 3 waiting for the second.

The entry points (:data:`ENTRIES`) are C callbacks (``numba.cfunc``) over raw pointers, so that their machine
code needs nothing of numba at run time: every array is passed as a pointer and its sizes, nothing is
allocated (no numba runtime), and no error can be raised (``error_model="numpy"``, no bounds checks).
:mod:`solvers.opt._kernel_cache` saves that machine code once and loads it in later processes without
importing numba (llvmlite alone: about 0.05 s, where numba takes 0.5-0.7 s).
"""

import numpy as np
from numba import carray, cfunc, njit, types

from ._kernel_abi import SIGNATURES

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
_S63 = np.uint64(63)
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
def _narrow_row(V, L, levels, lconc, K, b16):
    """The narrow key row of V (given at level L: its first ``levels[L, 0]`` words) in K: its concepts' indices in
    the class, ascending, 16 bits each (``b16``; else 32), the rest of the row all ones. The same version space
    has the same row at every level (a level's concepts are numbered in the class's order), so that the narrow
    table is keyed by the version space itself, like the wide one."""
    per = 4 if b16 else 2
    bits = np.uint64(16) if b16 else _S32
    ones = (_S1 << bits) - _S1
    for w in range(K.shape[0]):
        K[w] = _MAXW
    off = levels[L, 5]
    i = 0
    for w in range(levels[L, 0]):
        x = V[w]
        while x != _ZERO:
            b = _tz(x)
            c = np.int64(64 * w + b)
            if L > 0:
                c = np.int64(lconc[off + c])
            sh = bits * np.uint64(i % per)
            q = i // per
            K[q] = (K[q] & ~(ones << sh)) | (np.uint64(c) << sh)
            i += 1
            x &= x - _S1


@njit(cache=True, inline="always")
def _is_narrow(n, S):
    """Whether a version space of n concepts keyed by itself is keyed in the narrow table (its concepts' indices):
    at most S concepts (whether a group is in use or not, so that an entry made before one came is still found)."""
    return n <= S


@njit(cache=True, inline="always")
def _needs_g(n, S, gmin):
    """Whether a version space of n concepts needs its words over the class (``Gs``): for a wide key, or for an
    orbit key (``gmin``: the least size keyed by its orbit once a group is adopted, whether it is yet or not). A
    down-set's complement in n, so that such a version space's parent has them too."""
    return n > S or n >= gmin


@njit(cache=True)
def _orbit_row(V, cols, tables, flips, wide, ties, scratch, K):
    """The key row of V's orbit: :meth:`Canonical.key <solvers.opt.canonical.Canonical.key>` (before its
    final ``~``) in words 0-1 (one word when ``wide`` is 0), last word 1.

    The key is the least (A, B) over the group, A the image of the closure's ones (its zeros under an element
    that complements labels) and B the other; A is computed first, from the mask's non-zero bytes only, and an
    element is dropped as soon as its partial A (an OR, so never larger than A) passes the least A so far; B
    is computed for the elements tied on the least A only (``ties``: room for every element; ``scratch``: room
    for 4 entries per byte of a mask)."""
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
    ob = scratch[0:nb]  # the non-zero bytes of ones: (position, value) pairs
    ov = scratch[nb:2 * nb]
    zb = scratch[2 * nb:3 * nb]
    zv = scratch[3 * nb:4 * nb]
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
def _orbit_narrow(K, NKW, wide):
    """Rewrite the orbit key row K (words 0-1, tagged in its last word) as a row of the narrow table in its first NKW
    words: all ones (which no row of concept indices starts with: they hold at least 4 concepts), then the key's words
    (the rest all ones)."""
    b = K[1] if wide else _MAXW
    K[1] = K[0]
    K[2] = b
    K[0] = _MAXW
    for w in range(3, NKW):
        K[w] = _MAXW


@njit(cache=True, inline="always")
def _kind_hash(kind, G, K):
    """The hash recorded with a move of a frame whose key is of ``kind`` (0: wide, its own or an orbit's; 2: narrow;
    3: an orbit's in the narrow table): Python's hash of its version space G under an orbit key, else 0."""
    if kind == 3:
        return _pyhash(G)
    if kind == 2:
        return np.int64(0)
    return _move_hash(G, K)


@njit(cache=True, inline="always")
def _popcount(x):
    x = x - ((x >> _S1) & _M1)
    x = (x & _M2) + ((x >> _S2) & _M2)
    x = (x + (x >> _S4)) & _M4
    return np.int64((x * _H01) >> _S56)


@njit(cache=True, inline="always")
def _tz(x):
    """The number of trailing zeros of a non-zero word."""
    return _popcount((x & (~x + _S1)) - _S1)


@njit(cache=True, inline="always")
def _mix(h, x):
    h = (h ^ x) * _MUL
    return h ^ (h >> _S31)


@njit(cache=True)
def _hash_row(row):
    """A key row's hash: four lanes over the words (w mod 4), mixed at the end, so that the multiplications of a
    wide row (intervals N=160 as a matrix: 203 words) do not wait on one another."""
    W = row.shape[0]
    h0 = _SEED
    h1 = _SEED ^ _MUL
    h2 = _SEED ^ _M1
    h3 = _SEED ^ _M2
    w = 0
    while w + 4 <= W:
        h0 = _mix(h0, row[w])
        h1 = _mix(h1, row[w + 1])
        h2 = _mix(h2, row[w + 2])
        h3 = _mix(h3, row[w + 3])
        w += 4
    while w < W:
        h0 = _mix(h0, row[w])
        w += 1
    h = _mix(_mix(_mix(h0, h1), h2), h3)
    return h ^ (h >> _S29)


@njit(cache=True)
def _find_h(keys, seqs, row, h):
    """The slot holding ``row`` (>= 0), or -(the empty slot where it would go) - 1; ``h``: the row's hash.

    A slot's row is its key's hash (word 0), then the key: a probe reads the hash first, so that keys that share
    their first words (version spaces missing the same first concepts) are told apart in one word."""
    mask = np.int64(seqs.shape[0] - 1)
    W = row.shape[0]
    i = np.int64(h & np.uint64(mask))
    while seqs[i] != EMPTY:
        if keys[i, 0] == h:
            same = True
            for w in range(W):
                if keys[i, w + 1] != row[w]:
                    same = False
                    break
            if same:
                return i
        i = (i + 1) & mask
    return -i - 1


@njit(cache=True)
def _find(keys, seqs, row):
    """:func:`_find_h` with the row's hash computed."""
    return _find_h(keys, seqs, row, _hash_row(row))


@njit(cache=True)
def _put(keys, lo, hi, move, mhash, seqs, row, l, h, mv, mh, count, seq):
    """Store (l, h) for ``row`` (and the move ``mv`` when >= 0, with ``mh``: the hash of the version space it
    was found for, under an orbit key): (count, seq) after."""
    hsh = _hash_row(row)
    i = _find_h(keys, seqs, row, hsh)
    if i < 0:
        i = -i - 1
        keys[i, 0] = hsh
        for w in range(row.shape[0]):
            keys[i, w + 1] = row[w]
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
    their numbers and hashes); their count."""
    count = 0
    mask = np.int64(seqs.shape[0] - 1)
    for k in range(oseqs.shape[0]):
        if oseqs[k] == EMPTY or oseqs[k] <= cut:
            continue
        i = np.int64(okeys[k, 0] & np.uint64(mask))
        while seqs[i] != EMPTY:
            i = (i + 1) & mask
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
def _sort_goods(g, m, ng, tg, tm):
    """Sort ``g[:ng]`` by ``m[:ng]`` ascending, stably (as Python's sort), with the scratch ``tg``, ``tm``:
    insertion sort for short lists, else a bottom-up merge sort."""
    if ng <= 24:
        for i in range(1, ng):
            kg = g[i]
            km = m[i]
            j = i - 1
            while j >= 0 and m[j] > km:
                g[j + 1] = g[j]
                m[j + 1] = m[j]
                j -= 1
            g[j + 1] = kg
            m[j + 1] = km
        return
    width = 1
    src_g = g
    src_m = m
    dst_g = tg
    dst_m = tm
    swapped = False
    while width < ng:
        i = 0
        while i < ng:
            a = i
            mid = min(i + width, ng)
            b = mid
            end = min(i + 2 * width, ng)
            k = i
            while a < mid and b < end:
                if src_m[b] < src_m[a]:
                    dst_g[k] = src_g[b]
                    dst_m[k] = src_m[b]
                    b += 1
                else:
                    dst_g[k] = src_g[a]
                    dst_m[k] = src_m[a]
                    a += 1
                k += 1
            while a < mid:
                dst_g[k] = src_g[a]
                dst_m[k] = src_m[a]
                a += 1
                k += 1
            while b < end:
                dst_g[k] = src_g[b]
                dst_m[k] = src_m[b]
                b += 1
                k += 1
            i += 2 * width
        src_g, dst_g = dst_g, src_g
        src_m, dst_m = dst_m, src_m
        swapped = not swapped
        width *= 2
    if swapped:  # the sorted run is in the scratch
        for i in range(ng):
            g[i] = src_g[i]
            m[i] = src_m[i]


@njit(cache=True, inline="always")
def _scan(roots, off, st, V, n, inherited, ninh, own, stab, sgen, stamp, need, good, gm):
    """The distinct splits of V among the ``ninh`` splits of ``inherited`` (indices into ``roots``), the first of
    each class of same-or-complementary splits of V, in order, written to ``own`` (split r: the words
    ``roots[off + r * st:]``); the positions in ``own`` of
    those with both sides of at least ``need`` concepts to ``good``, with minus their smaller side in ``gm``.
    Returns (own count, good count).
    ``stab``/``sgen``: a hash table (a power of two, over twice the splits) whose slots stamped ``stamp`` are
    this scan's."""
    W = V.shape[0]
    tmask = stab.shape[0] - 1
    # the lowest concept of V
    lw = 0
    while V[lw] == _ZERO:
        lw += 1
    lbit = V[lw] & (~V[lw] + _S1)
    cnt = 0
    ng = 0
    for q in range(ninh):
        r = inherited[q]
        # one pass: the split's size, and a hash of the side holding V's lowest concept (its words folded by
        # rotations and XORs, mixed once: a wide V's pass is not held up by a multiplication per word; the
        # hash only places the split in the table, where equal splits are found by comparing their words)
        flip = (roots[off + r * st + lw] & lbit) == _ZERO
        k1 = 0
        acc = _ZERO
        for w in range(W):
            x = roots[off + r * st + w] & V[w]
            k1 += _popcount(x)
            if flip:
                x ^= V[w]
            acc = ((acc << _S1) | (acc >> _S63)) ^ x
        if k1 == 0 or k1 == n:
            continue
        hsh = _mix(_mix(_SEED, acc), np.uint64(k1 if not flip else n - k1))
        t = np.int64(hsh & np.uint64(tmask))
        dup = False
        while sgen[t] == stamp:
            r2 = own[stab[t]]
            flip2 = (roots[off + r2 * st + lw] & lbit) == _ZERO
            same = True
            for w in range(W):
                a = roots[off + r * st + w] & V[w]
                if flip:
                    a ^= V[w]
                b = roots[off + r2 * st + w] & V[w]
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
        sgen[t] = stamp
        stab[t] = cnt
        own[cnt] = r
        cnt += 1
        m = k1 if k1 < n - k1 else n - k1
        if m >= need:
            good[ng] = cnt - 1
            gm[ng] = -m
            ng += 1
    return cnt, ng


@njit(cache=True)
def _compact(roots, levels, lsplit, lconc, L, V, n, own, cnt):
    """Make level L + 1 from the version space V of level L (n concepts) and its ``cnt`` distinct splits
    ``own`` (indices into level L): V's concepts renumbered 0..n-1 in order, each split a row of ceil(n / 64)
    words over them, split q of the new level being own[q], and concept i of the new level being concept
    ``lconc[levels[L + 1, 5] + i]`` of the class. Rewrites ``own`` as 0..cnt-1 and V as the new level's full set."""
    lw = levels[L, 0]
    off = levels[L, 1]
    nw = (n + 63) // 64
    Lc = L + 1
    start = off + levels[L, 2] * lw
    levels[Lc, 0] = nw
    levels[Lc, 1] = start
    levels[Lc, 2] = cnt
    coff = 0 if L == 0 else levels[L, 5] + 64 * lw  # (level L's concepts: at most 64 per word)
    levels[Lc, 5] = coff
    for q in range(cnt):
        r = own[q]
        lsplit[Lc, q] = r if L == 0 else lsplit[L, r]
    # V's concepts' positions in level L, in order (then their indices in the class, once the splits are copied)
    i = 0
    for w in range(lw):
        x = V[w]
        while x != _ZERO:
            lconc[coff + i] = 64 * w + _tz(x)
            i += 1
            x &= x - _S1
    # each split's bits at those positions, gathered in a register a word at a time (no branch, no store a bit)
    for q in range(cnt):
        src = off + own[q] * lw
        dst = start + q * nw
        acc = _ZERO
        for k in range(n):
            c = lconc[coff + k]
            acc |= ((roots[src + (c >> 6)] >> np.uint64(c & 63)) & _S1) << np.uint64(k & 63)
            if (k & 63) == 63:
                roots[dst + (k >> 6)] = acc
                acc = _ZERO
        if n & 63:
            roots[dst + (n >> 6)] = acc
    if L > 0:
        for k in range(n):
            lconc[coff + k] = lconc[levels[L, 5] + lconc[coff + k]]
    for q in range(cnt):
        own[q] = q
    for w in range(lw):
        V[w] = _ZERO
    for w in range(nw):
        left = n - 64 * w
        V[w] = _MAXW if left >= 64 else (_S1 << np.uint64(left)) - _S1
    return Lc


@njit(cache=True, inline="always")
def _get(nar, K, keys, lo, hi, seqs, nkeys, nlo, nhi, nseqs):
    """(found, lower, upper) of the entry of key row K: in the narrow table (``nar``: K's first words) or the wide."""
    if nar:
        i = _find(nkeys, nseqs, K[:nkeys.shape[1] - 1])
        if i >= 0:
            return True, np.int64(nlo[i]), np.int64(nhi[i])
    else:
        i = _find(keys, seqs, K)
        if i >= 0:
            return True, np.int64(lo[i]), np.int64(hi[i])
    return False, np.int64(0), np.int64(0)


@njit(cache=True, inline="always")
def _put2(nar, K, keys, lo, hi, move, mhash, seqs, nkeys, nlo, nhi, nmove, nmhash, nseqs, l, h, mv, mh, count,
          ncount, seq):
    """:func:`_put` into the narrow table (``nar``) or the wide one: (count, narrow count, seq) after."""
    if nar:
        ncount, seq = _put(nkeys, nlo, nhi, nmove, nmhash, nseqs, K[:nkeys.shape[1] - 1], l, h, mv, mh, ncount, seq)
    else:
        count, seq = _put(keys, lo, hi, move, mhash, seqs, K, l, h, mv, mh, count, seq)
    return count, ncount, seq


@njit(cache=True)
def search(roots, levels, lsplit, lconc, points, Vs, Gs, Ks, pool, goods, frame, stab, sgen, gm, sortg, sortm, state,
           keys, lo, hi, move, mhash, seqs, count, limit, nkeys, nlo, nhi, nmove, nmhash, nseqs, ncount, nlimit, S,
           b16, gmin, stop_at, canon, cmin, cols, tables, flips, wide, ties, scratch):
    """Run the query on the stack (``state`` = sp, last result, nodes, next insertion number) until it is
    decided (DONE), ``stop_at`` nodes have been expanded (PAUSED) or a memo table needs room (FULL); returns
    (status, the wide table's count, the narrow table's count).

    Levels. A version space far smaller than the class is searched over its own concepts: where V holds a
    sixteenth of its level's words or fewer, its distinct splits are copied onto V's concepts renumbered
    (:func:`_compact`), and its subtree works on those shorter rows. ``roots`` holds every level's splits: level L
    (``levels[L]`` = words per row, first word, number of splits, -, -, first entry of ``lconc``) has split r in
    ``roots[first + r * words:]``, ``lsplit[L, q]`` is the root split its split q is (level 0: the root's distinct
    splits, from word 0), and its concept i is the class's concept ``lconc[levels[L, 5] + i]`` (level 0: i). Frame
    f's version space ``Vs[f]`` is given at level ``frame[f, 10]`` (its first ``levels[L, 0]`` words), its splits
    ``pool[f]`` are indices into that level.

    Keys. ``Ks[f]`` is frame f's memo key row. A version space of at most S concepts (:func:`_is_narrow`) is
    keyed in the narrow table (``nkeys`` ...) by its concepts' indices in the class (:func:`_narrow_row`, made
    from its level's words); any other in the wide table by its words over the class, ``Gs[f]`` (kept for those
    frames only), or with ``canon`` = 1 and ``cmin`` concepts or more by its orbit (``cols``: the class's columns
    as word rows; ``tables``, ``flips``, ``wide``: the :class:`~solvers.opt.canonical.Canonical`'s; ``ties``:
    scratch, one slot per element; ``scratch``: 32 slots). ``sortg``, ``sortm``: scratch for sorting, one slot per
    root split."""
    W = Gs.shape[1]
    NKW = nkeys.shape[1] - 1
    LMAX = levels.shape[0] - 1
    sp = state[0]
    res = state[1]
    nodes = state[2]
    seq = state[3]
    status = DONE
    while sp >= 0:
        if count >= limit or ncount >= nlimit:
            status = FULL
            break
        f = sp
        ph = frame[f, 4]
        L = frame[f, 10]
        lw = levels[L, 0]
        V = Vs[f, :lw]
        d = frame[f, 0]
        n = frame[f, 1]
        kind = frame[f, 11]  # (once entered: its key's kind, see _kind_hash)
        nar = kind >= 2
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
                G = Gs[f]  # (set by the parent: its own AND the root split's, or by the caller; see _needs_g)
                K = Ks[f]
                nar = _is_narrow(n, S)
                kind = 2 if nar else 0
                if canon and n >= cmin:
                    _orbit_row(G, cols, tables, flips, wide, ties, scratch, K)
                    if S > 0 and NKW >= 3:  # (orbit keys go to the narrow table where there is one)
                        _orbit_narrow(K, NKW, wide)
                        kind = 3
                        nar = True
                    else:
                        kind = 0
                        nar = False
                elif frame[f, 11] != 1:  # (1: the parent left the row in K as it looked the child up)
                    if nar:
                        _narrow_row(V, L, levels, lconc, K[:NKW], b16)
                    else:
                        _plain_row(G, K)
                frame[f, 11] = kind  # (a group adopted at a later pause leaves the frame's key where it is)
                found, l, h = _get(nar, K, keys, lo, hi, seqs, nkeys, nlo, nhi, nseqs)
                if not found:
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
                    own = pool[f + 1]
                    cnt, ng = _scan(roots, levels[L, 1], lw, V, n, pool[f], frame[f, 8], own, stab, sgen, nodes,
                                    need, goods[f], gm)
                    if cnt < h:
                        h = cnt  # Opt(V) <= number of distinct splits of V
                    if h < d or ng == 0:
                        count, ncount, seq = _put2(nar, K, keys, lo, hi, move, mhash, seqs, nkeys, nlo, nhi, nmove,
                                                   nmhash, nseqs, l, min(h, d - 1), -1, 0, count, ncount, seq)
                        res = 0
                        popped = True
                    elif d == 2:  # both sides hold >= 2 concepts, so each has Opt >= 1
                        r = own[goods[f, 0]]
                        count, ncount, seq = _put2(nar, K, keys, lo, hi, move, mhash, seqs, nkeys, nlo, nhi, nmove,
                                                   nmhash, nseqs, 2, h, points[r if L == 0 else lsplit[L, r]],
                                                   _kind_hash(kind, G, K), count, ncount, seq)
                        res = 1
                        popped = True
                    else:
                        _sort_goods(goods[f], gm, ng, sortg, sortm)  # stable: as Python's sort
                        if L < LMAX and d >= levels[0, 3] and lw >= 4 and levels[0, 4] * ((n + 63) // 64) <= lw:
                            frame[f, 10] = _compact(roots, levels, lsplit, lconc, L, Vs[f], n, own, cnt)
                        frame[f, 2] = l
                        frame[f, 3] = h
                        frame[f, 4] = 1
                        frame[f, 5] = 0
                        frame[f, 6] = ng
                        frame[f, 7] = cnt
        elif ph == 1:
            gi = frame[f, 5]
            if gi >= frame[f, 6]:
                count, ncount, seq = _put2(nar, Ks[f], keys, lo, hi, move, mhash, seqs, nkeys, nlo, nhi, nmove,
                                           nmhash, nseqs, frame[f, 2], d - 1, -1, 0, count, ncount, seq)
                res = 0
                popped = True
            else:
                off = levels[L, 1]
                r = pool[f + 1, goods[f, gi]]
                r0 = r if L == 0 else lsplit[L, r]  # the root split it is: a wide child's words over the class
                G = Gs[f]                           # are V's AND (NOT) the root split's
                C = Vs[f + 1, :lw]
                CG = Gs[f + 1]
                d1 = d - 1
                k1 = 0
                for w in range(lw):
                    x = roots[off + r * lw + w] & V[w]
                    C[w] = x ^ V[w]
                    k1 += _popcount(x)
                k0 = n - k1
                # (the children's entries are looked up under their own keys, as in Python)
                CK = Ks[f + 1]
                nar0 = _is_narrow(k0, S)
                if _needs_g(k0, S, gmin):
                    for w in range(W):
                        CG[w] = G[w] & ~roots[r0 * W + w]
                if nar0:
                    _narrow_row(C, L, levels, lconc, CK[:NKW], b16)
                else:
                    _plain_row(CG, CK)
                found, l, h = _get(nar0, CK, keys, lo, hi, seqs, nkeys, nlo, nhi, nseqs)
                skip = found and h < d1
                if not skip:
                    for w in range(lw):
                        C[w] = roots[off + r * lw + w] & V[w]
                    if _needs_g(k1, S, gmin):
                        for w in range(W):
                            CG[w] = G[w] & roots[r0 * W + w]
                    if _is_narrow(k1, S):
                        _narrow_row(C, L, levels, lconc, CK[:NKW], b16)
                        found, l, h = _get(True, CK, keys, lo, hi, seqs, nkeys, nlo, nhi, nseqs)
                    else:
                        _plain_row(CG, CK)
                        found, l, h = _get(False, CK, keys, lo, hi, seqs, nkeys, nlo, nhi, nseqs)
                    skip = found and h < d1
                if skip:
                    frame[f, 5] = gi + 1
                else:
                    if k1 <= k0:  # the smaller child first: C (and CG) hold s
                        frame[f, 9] = 1
                        frame[f + 1, 1] = k1
                        frame[f + 1, 11] = 1  # (and CK its row)
                    else:
                        frame[f + 1, 11] = 0
                        frame[f, 9] = 0
                        for w in range(lw):
                            C[w] ^= V[w]
                        if _needs_g(k0, S, gmin):
                            for w in range(W):
                                CG[w] = G[w] & ~roots[r0 * W + w]
                        frame[f + 1, 1] = k0
                    frame[f + 1, 0] = d1
                    frame[f + 1, 4] = 0
                    frame[f + 1, 8] = frame[f, 7]
                    frame[f + 1, 10] = L
                    frame[f, 4] = 2
                    sp = f + 1
        elif ph == 2:
            if res == 0:
                frame[f, 5] += 1
                frame[f, 4] = 1
            else:
                off = levels[L, 1]
                r = pool[f + 1, goods[f, frame[f, 5]]]
                r0 = r if L == 0 else lsplit[L, r]
                G = Gs[f]
                C = Vs[f + 1, :lw]
                CG = Gs[f + 1]
                k1 = 0
                for w in range(lw):
                    x = roots[off + r * lw + w] & V[w]
                    if frame[f, 9] == 1:  # s went first: now V - s
                        x ^= V[w]
                    C[w] = x
                    k1 += _popcount(x)
                if _needs_g(k1, S, gmin):
                    for w in range(W):
                        x = G[w] & roots[r0 * W + w]
                        CG[w] = x ^ G[w] if frame[f, 9] == 1 else x
                frame[f + 1, 0] = d - 1
                frame[f + 1, 1] = k1
                frame[f + 1, 4] = 0
                frame[f + 1, 8] = frame[f, 7]
                frame[f + 1, 10] = L
                frame[f + 1, 11] = 0
                frame[f, 4] = 3
                sp = f + 1
        else:  # ph == 3
            if res == 0:
                frame[f, 5] += 1
                frame[f, 4] = 1
            else:
                r = pool[f + 1, goods[f, frame[f, 5]]]
                count, ncount, seq = _put2(nar, Ks[f], keys, lo, hi, move, mhash, seqs, nkeys, nlo, nhi, nmove,
                                           nmhash, nseqs, d, frame[f, 3], points[r if L == 0 else lsplit[L, r]],
                                           _kind_hash(kind, Gs[f], Ks[f]), count, ncount, seq)
                res = 1
                popped = True
        if popped:
            sp -= 1
    state[0] = sp
    state[1] = res
    state[2] = nodes
    state[3] = seq
    return status, count, ncount


ERROR = 3  # the tree walk found no split proving a depth (an internal error: the memo claimed too much)


@njit(cache=True)
def _launch(X, d, own, ncand, Vs, Gs, pool, frame, state):
    """Set the search's stack to decide Opt(X) >= d, X inheriting the ``ncand`` splits of ``own`` (level 0)."""
    W = X.shape[0]
    n = 0
    for w in range(W):
        Vs[0, w] = X[w]
        Gs[0, w] = X[w]
        n += _popcount(X[w])
    for k in range(frame.shape[1]):
        frame[0, k] = 0
    frame[0, 0] = d
    frame[0, 1] = n
    frame[0, 8] = ncand
    for q in range(ncand):
        pool[0, q] = own[q]
    state[0] = 0
    state[1] = -1


@njit(cache=True)
def _side(roots, r, V, which, X):
    """X = the side of V's split at root split r: V_x^1 (which = 1) or V_x^0 (which = 0)."""
    W = V.shape[0]
    for w in range(W):
        x = roots[r * W + w] & V[w]
        X[w] = x if which == 1 else x ^ V[w]


@njit(cache=True)
def _tree_order(roots, V, Tf, t, Tpool, Tord, Tgm, Tstab, Tsgen, sortg, sortm, wstate):
    """The walk's frame t tries V's distinct splits (found now, into Tpool[t + 1]) most balanced first
    (``Tord[t]``: positions among them, a stable order), and its subtrees inherit them."""
    W = V.shape[0]
    wstate[3] += 1
    cnt, ng = _scan(roots, 0, W, V, Tf[t, 1], Tpool[Tf[t, 3]], Tf[t, 4], Tpool[t + 1], Tstab, Tsgen, wstate[3], 1,
                    Tord[t], Tgm)
    _sort_goods(Tord[t], Tgm, ng, sortg, sortm)
    Tf[t, 5] = cnt
    Tf[t, 7] = 1
    Tf[t, 8] = 0
    Tf[t, 9] = t + 1


@njit(cache=True)
def tree(roots, levels, lsplit, lconc, points, Vs, Gs, Ks, pool, goods, frame, stab, sgen, gm, sortg, sortm, state,
         keys, lo, hi, move, mhash, seqs, count, limit, nkeys, nlo, nhi, nmove, nmhash, nseqs, ncount, nlimit, S,
         b16, gmin, stop_at, canon, cmin, cols, tables, flips, wide, ties, scratch, TV, Tf, Tpool, Tord, Tgm, Tstab,
         Tsgen, p2r, X, out, wstate):
    """Write a mistake tree of depth Tf[0, 0] for the version space TV[0] into ``out`` (its points in preorder:
    a node, its "0" subtree, its "1" subtree; a tree of depth d has 2^d - 1 nodes), as
    ``Solver._tree <solvers.opt.search.Solver._tree>`` builds it: at depth <= 2 the first inherited split leaving
    enough concepts on both sides; deeper, the move the memo recorded for V when both its children are proven
    deep enough, else the most balanced of V's distinct splits (a stable order) that is; each "proven" is a
    query of :func:`search`, which the walk runs to its end (DONE), or pauses with (PAUSED, FULL: the walk then
    resumes it on the next call). ERROR: no split proves the depth.

    Tf[t] = d, n, phase, inherited row of Tpool, inherited count, the subtrees' count, candidate split, candidate
    source (0: the memo's move, 1: Tord), candidate index, the subtrees' row of Tpool (the splits they inherit). wstate = sp, a search under way (1), nodes written, scan
    stamp, frames entered in this call (the walk pauses after 4,096 of them, so that a large tree is no longer
    than a pause of the search). Phases: 0 entering, 1 waiting for the candidate's "0" side, 2 for its "1"
    side, 3 the "0" subtree written, 4 both written."""
    W = TV.shape[1]
    wstate[4] = 0
    KW = Ks.shape[1]
    krow = Ks[Ks.shape[0] - 1]  # (a row the searches leave alone)
    while True:
        if wstate[1] == 1:  # a query under way: on with it
            status, count, ncount = search(roots, levels, lsplit, lconc, points, Vs, Gs, Ks, pool, goods, frame,
                                           stab, sgen, gm, sortg, sortm, state, keys, lo, hi, move, mhash, seqs,
                                           count, limit, nkeys, nlo, nhi, nmove, nmhash, nseqs, ncount, nlimit, S,
                                           b16, gmin, stop_at, canon, cmin, cols, tables, flips, wide, ties, scratch)
            if status != DONE:
                return status, count, ncount
            wstate[1] = 0
            t = wstate[0]
            V = TV[t]
            d = Tf[t, 0]
            r = Tf[t, 6]
            if state[1] == 1 and Tf[t, 2] == 1:  # the "0" side holds: now the "1" side
                Tf[t, 2] = 2
                _side(roots, r, V, 1, X)
                _launch(X, d - 1, Tpool[Tf[t, 9]], Tf[t, 5], Vs, Gs, pool, frame, state)
                wstate[1] = 1
                continue
            if state[1] == 1:  # both sides hold: r is the move; its "0" subtree next
                out[wstate[2]] = points[r]
                wstate[2] += 1
                Tf[t, 2] = 3
                _side(roots, r, V, 0, TV[t + 1])
                for k in range(Tf.shape[1]):
                    Tf[t + 1, k] = 0
                Tf[t + 1, 0] = d - 1
                Tf[t + 1, 3] = Tf[t, 9]
                Tf[t + 1, 4] = Tf[t, 5]
                wstate[0] = t + 1
                continue
            # the next candidate: after the memo's move, the most balanced splits in turn
            if Tf[t, 7] == 0:
                _tree_order(roots, V, Tf, t, Tpool, Tord, Tgm, Tstab, Tsgen, sortg, sortm, wstate)
            else:
                Tf[t, 8] += 1
            if Tf[t, 8] >= Tf[t, 5]:
                return ERROR, count, ncount
            r = Tpool[t + 1, Tord[t, Tf[t, 8]]]
            Tf[t, 6] = r
            Tf[t, 2] = 1
            _side(roots, r, V, 0, X)
            _launch(X, d - 1, Tpool[t + 1], Tf[t, 5], Vs, Gs, pool, frame, state)
            wstate[1] = 1
            continue
        t = wstate[0]
        if t < 0:
            return DONE, count, ncount
        V = TV[t]
        d = Tf[t, 0]
        ph = Tf[t, 2]
        if ph == 0:
            if wstate[4] >= 4096:
                return PAUSED, count, ncount
            wstate[4] += 1
            if d <= 0:
                wstate[0] = t - 1
                continue
            n = 0
            for w in range(W):
                n += _popcount(V[w])
            Tf[t, 1] = n
            inh = Tpool[Tf[t, 3]]
            ninh = Tf[t, 4]
            if d <= 2:  # any split with both sides non-empty (d = 1), or holding >= 2 concepts (d = 2)
                least = 1 if d == 1 else 2
                nz = 0  # V's non-zero words (a few: V holds 2 to 7 concepts here)
                for w in range(W):
                    if V[w] != _ZERO:
                        Tgm[nz] = w
                        nz += 1
                found = -1
                for q in range(ninh):
                    r = inh[q]
                    k1 = 0
                    for z in range(nz):
                        w = Tgm[z]
                        k1 += _popcount(roots[r * W + w] & V[w])
                    if least <= k1 and k1 <= n - least:
                        found = r
                        break
                if found < 0:
                    return ERROR, count, ncount
                out[wstate[2]] = points[found]
                wstate[2] += 1
                Tf[t, 6] = found
                Tf[t, 2] = 3
                _side(roots, found, V, 0, TV[t + 1])
                for k in range(Tf.shape[1]):
                    Tf[t + 1, k] = 0
                Tf[t + 1, 0] = d - 1
                Tf[t + 1, 3] = Tf[t, 3]
                Tf[t + 1, 4] = ninh
                wstate[0] = t + 1
                continue
            # the memo's move for V: under its orbit key with V's hash, else under V itself
            j = -1
            if canon and n >= cmin:
                _orbit_row(V, cols, tables, flips, wide, ties, scratch, krow)
                NKW = nkeys.shape[1] - 1
                if S > 0 and NKW >= 3:
                    _orbit_narrow(krow, NKW, wide)
                    i = _find(nkeys, nseqs, krow[:NKW])
                    if i >= 0 and nmove[i] >= 0 and nmhash[i] == _pyhash(V):
                        j = nmove[i]
                else:
                    i = _find(keys, seqs, krow)
                    if i >= 0 and move[i] >= 0 and mhash[i] == _pyhash(V):
                        j = move[i]
            if j < 0 and _is_narrow(n, S):
                NKW = nkeys.shape[1] - 1
                _narrow_row(V, 0, levels, lconc, krow[:NKW], b16)
                i = _find(nkeys, nseqs, krow[:NKW])
                if i >= 0 and nmove[i] >= 0:
                    j = nmove[i]
            elif j < 0:
                _plain_row(V, krow)
                i = _find(keys, seqs, krow)
                if i >= 0 and move[i] >= 0 and (KW == W or krow[KW - 1] == _ZERO):
                    j = move[i]
            r = p2r[j] if 0 <= j < p2r.shape[0] else -1
            if r >= 0:
                # The move first, proven with V's inherited splits (a superset of its distinct ones in the same
                # order: the searches and the subtrees come out the same, and V's own are found only if needed).
                Tf[t, 7] = 0
                Tf[t, 9] = Tf[t, 3]
                Tf[t, 5] = ninh
            else:
                _tree_order(roots, V, Tf, t, Tpool, Tord, Tgm, Tstab, Tsgen, sortg, sortm, wstate)
                if Tf[t, 5] == 0:
                    return ERROR, count, ncount
                r = Tpool[t + 1, Tord[t, 0]]
            Tf[t, 6] = r
            Tf[t, 2] = 1
            _side(roots, r, V, 0, X)
            _launch(X, d - 1, Tpool[Tf[t, 9]], Tf[t, 5], Vs, Gs, pool, frame, state)
            wstate[1] = 1
        elif ph == 3:  # the "0" subtree is written: the "1" subtree
            r = Tf[t, 6]
            Tf[t, 2] = 4
            _side(roots, r, V, 1, TV[t + 1])
            for k in range(Tf.shape[1]):
                Tf[t + 1, k] = 0
            Tf[t + 1, 0] = d - 1
            if d <= 2:
                Tf[t + 1, 3] = Tf[t, 3]
                Tf[t + 1, 4] = Tf[t, 4]
            else:
                Tf[t + 1, 3] = Tf[t, 9]
                Tf[t + 1, 4] = Tf[t, 5]
            wstate[0] = t + 1
        else:
            wstate[0] = t - 1


# ---------------------------------------------------------------------- the entry points (C callbacks)
_TYPES = {"u64*": types.CPointer(types.uint64), "i64*": types.CPointer(types.int64),
          "i32*": types.CPointer(types.int32), "i16*": types.CPointer(types.int16),
          "u8*": types.CPointer(types.uint8), "i64": types.int64}


def _entry(name):
    """``numba.cfunc`` with the signature :data:`solvers.opt._kernel_abi.SIGNATURES` gives ``name`` (all int64 results),
    cached, and with no error that could be raised (``error_model="numpy"``)."""
    return cfunc(types.int64(*[_TYPES[t] for t in SIGNATURES[name].split()]), cache=True, error_model="numpy")


@njit(cache=True)
def _search_args(roots_p, NL, W, levels_p, LM, lsplit_p, R, lconc_p, NC, points_p, vs_p, gs_p, ks_p, D, KW, pool_p,
           goods_p, frame_p, stab_p, sgen_p, ntab, gm_p, sortg_p, sortm_p, state, keys_p, lo_p, hi_p, move_p,
           mhash_p, seqs_p, cap, count, limit, nkeys_p, nlo_p, nhi_p, nmove_p, nmhash_p, nseqs_p, ncap, NKW, ncount,
           nlimit, S, b16, gmin, stop_at, canon, cmin, cols_p, ncols, tables_p, nb, order, flips_p, wide, ties_p,
           scratch_p):
    """The arguments of :func:`search` from the entry points' raw pointers (``state``: the state array itself,
    ``count``, ``ncount``: the tables' counts)."""
    return (carray(roots_p, (NL,)), carray(levels_p, (LM + 1, 6)), carray(lsplit_p, (LM + 1, R)),
            carray(lconc_p, (NC,)), carray(points_p, (R,)), carray(vs_p, (D, W)), carray(gs_p, (D, W)),
            carray(ks_p, (D, KW)), carray(pool_p, (D + 1, R)), carray(goods_p, (D, R)), carray(frame_p, (D, 12)),
            carray(stab_p, (ntab,)), carray(sgen_p, (ntab,)), carray(gm_p, (R,)), carray(sortg_p, (R,)),
            carray(sortm_p, (R,)), state, carray(keys_p, (cap, KW + 1)), carray(lo_p, (cap,)), carray(hi_p, (cap,)),
            carray(move_p, (cap,)), carray(mhash_p, (cap,)), carray(seqs_p, (cap,)), count, limit,
            carray(nkeys_p, (ncap, NKW + 1)), carray(nlo_p, (ncap,)), carray(nhi_p, (ncap,)),
            carray(nmove_p, (ncap,)), carray(nmhash_p, (ncap,)), carray(nseqs_p, (ncap,)), ncount, nlimit, S, b16,
            gmin, stop_at, canon, cmin, carray(cols_p, (ncols, W)), carray(tables_p, (nb, 256, order)),
            carray(flips_p, (order,)), wide, carray(ties_p, (order,)), carray(scratch_p, (32,)))


@_entry("search")
def search_c(roots_p, NL, W, levels_p, LM, lsplit_p, R, lconc_p, NC, points_p, vs_p, gs_p, ks_p, D, KW, pool_p,
             goods_p, frame_p, stab_p, sgen_p, ntab, gm_p, sortg_p, sortm_p, state_p, keys_p, lo_p, hi_p, move_p,
             mhash_p, seqs_p, cap, limit, nkeys_p, nlo_p, nhi_p, nmove_p, nmhash_p, nseqs_p, ncap, NKW, nlimit, S, b16,
             gmin, tstate_p, stop_at, canon, cmin, cols_p, ncols, tables_p, nb, order, flips_p, wide, ties_p,
             scratch_p):
    """:func:`search` over raw pointers (NL words of ``roots``, ``LM`` + 1 levels, R root splits, NC entries of
    ``lconc``; the wide table's ``cap`` slots of KW + 1 words, the narrow one's ``ncap`` of NKW + 1): ``state`` =
    sp, last result, nodes; ``tstate`` = the wide table's count, the next insertion number, the narrow table's
    count, read and written back here (so that a Ctrl-C landing as the call returns cannot leave them stale);
    returns the status."""
    state = carray(state_p, (5,))
    tstate = carray(tstate_p, (3,))
    state[3] = tstate[1]
    status, count, ncount = search(*_search_args(
        roots_p, NL, W, levels_p, LM, lsplit_p, R, lconc_p, NC, points_p, vs_p, gs_p, ks_p, D, KW, pool_p, goods_p,
        frame_p, stab_p, sgen_p, ntab, gm_p, sortg_p, sortm_p, state, keys_p, lo_p, hi_p, move_p, mhash_p, seqs_p,
        cap, tstate[0], limit, nkeys_p, nlo_p, nhi_p, nmove_p, nmhash_p, nseqs_p, ncap, NKW, tstate[2], nlimit, S,
        b16, gmin, stop_at, canon, cmin, cols_p, ncols, tables_p, nb, order, flips_p, wide, ties_p, scratch_p))
    tstate[0] = count
    tstate[1] = state[3]
    tstate[2] = ncount
    return status


@_entry("insert_many")
def insert_many_c(rows_p, n, KW, l_p, h_p, mv_p, mh_p, keys_p, lo_p, hi_p, move_p, mhash_p, seqs_p, cap, count_p,
                  seq_p):
    """Store n entries (rows of KW words, lower, upper, move, move hash) in a table (slots of KW + 1 words: the
    hash, the key); ``count_p``, ``seq_p``: its count and the next insertion number (read and written back)."""
    cnt = carray(count_p, (1,))
    sq = carray(seq_p, (1,))
    count, seq = insert_many(carray(rows_p, (n, KW)), carray(l_p, (n,)), carray(h_p, (n,)), carray(mv_p, (n,)),
                             carray(mh_p, (n,)), carray(keys_p, (cap, KW + 1)), carray(lo_p, (cap,)), carray(hi_p, (cap,)),
                             carray(move_p, (cap,)), carray(mhash_p, (cap,)), carray(seqs_p, (cap,)), cnt[0], sq[0])
    cnt[0] = count
    sq[0] = seq
    return 0


@_entry("rehash")
def rehash_c(okeys_p, olo_p, ohi_p, omove_p, omhash_p, oseqs_p, ocap, KW, cut, keys_p, lo_p, hi_p, move_p, mhash_p,
             seqs_p, cap, count_p):
    """:func:`rehash` over raw pointers: the number of entries copied (also written to ``count_p``)."""
    count = rehash(carray(okeys_p, (ocap, KW + 1)), carray(olo_p, (ocap,)), carray(ohi_p, (ocap,)), carray(omove_p, (ocap,)),
                  carray(omhash_p, (ocap,)), carray(oseqs_p, (ocap,)), cut, carray(keys_p, (cap, KW + 1)),
                  carray(lo_p, (cap,)), carray(hi_p, (cap,)), carray(move_p, (cap,)), carray(mhash_p, (cap,)),
                  carray(seqs_p, (cap,)))
    carray(count_p, (1,))[0] = count
    return count


@_entry("orbit_row")
def orbit_row_c(v_p, W, cols_p, ncols, tables_p, nb, order, flips_p, wide, ties_p, scratch_p, k_p, KW):
    """:func:`_orbit_row` over raw pointers (for tests)."""
    _orbit_row(carray(v_p, (W,)), carray(cols_p, (ncols, W)), carray(tables_p, (nb, 256, order)),
               carray(flips_p, (order,)), wide, carray(ties_p, (order,)), carray(scratch_p, (32,)), carray(k_p, (KW,)))
    return 0


@_entry("tree")
def tree_c(roots_p, NL, W, levels_p, LM, lsplit_p, R, lconc_p, NC, points_p, vs_p, gs_p, ks_p, D, KW, pool_p,
           goods_p, frame_p, stab_p, sgen_p, ntab, gm_p, sortg_p, sortm_p, state_p, keys_p, lo_p, hi_p, move_p,
           mhash_p, seqs_p, cap, limit, nkeys_p, nlo_p, nhi_p, nmove_p, nmhash_p, nseqs_p, ncap, NKW, nlimit, S, b16,
           gmin, tstate_p, stop_at, canon, cmin, cols_p, ncols, tables_p, nb, order, flips_p, wide, ties_p, scratch_p,
           tv_p, tf_p, DT, tpool_p, tord_p, tgm_p, tstab_p, tsgen_p, p2r_p, npoints, x_p, out_p, nout, wstate_p):
    """:func:`tree` over raw pointers (the arguments of :func:`search_c`, then the walk's arrays: ``DT`` frames)."""
    state = carray(state_p, (5,))
    tstate = carray(tstate_p, (3,))
    state[3] = tstate[1]
    status, count, ncount = tree(*_search_args(
        roots_p, NL, W, levels_p, LM, lsplit_p, R, lconc_p, NC, points_p, vs_p, gs_p, ks_p, D, KW, pool_p, goods_p,
        frame_p, stab_p, sgen_p, ntab, gm_p, sortg_p, sortm_p, state, keys_p, lo_p, hi_p, move_p, mhash_p, seqs_p,
        cap, tstate[0], limit, nkeys_p, nlo_p, nhi_p, nmove_p, nmhash_p, nseqs_p, ncap, NKW, tstate[2], nlimit, S,
        b16, gmin, stop_at, canon, cmin, cols_p, ncols, tables_p, nb, order, flips_p, wide, ties_p, scratch_p),
        carray(tv_p, (DT, W)), carray(tf_p, (DT, 10)), carray(tpool_p, (DT + 1, R)), carray(tord_p, (DT, R)),
        carray(tgm_p, (max(R, W),)), carray(tstab_p, (ntab,)), carray(tsgen_p, (ntab,)), carray(p2r_p, (npoints,)),
        carray(x_p, (W,)), carray(out_p, (nout,)), carray(wstate_p, (5,)))
    tstate[0] = count
    tstate[1] = state[3]
    tstate[2] = ncount
    return status


#: The entry points, by name.
ENTRIES = {"search": search_c, "insert_many": insert_many_c, "rehash": rehash_c, "orbit_row": orbit_row_c,
           "tree": tree_c}
