"""The compiled functions of :mod:`solvers.opt.kernel` (importing this module imports numba and compiles them,
or loads them from numba's cache).

The search of ``Solver._at_least`` written iteratively over arrays (see :mod:`solvers.opt.kernel`):

frame[f] = d, n, lo, hi, phase, good index, good count, own split count, inherited split count, which
child went first. ``pool[f]`` holds the splits frame f inherits (indices into the root's splits; row 0:
all of them), ``pool[f + 1]`` its own distinct splits (what its children inherit), ``goods[f]`` its splits
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

from .kernel import SIGNATURES

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


@njit(cache=True)
def search(roots, points, Vs, Ks, pool, goods, frame, stab, sgen, gm, sortg, sortm, state,
           keys, lo, hi, move, mhash, seqs, count, limit, stop_at, canon, cmin, cols, tables, flips, wide, ties,
           scratch):
    """Run the query on the stack (``state`` = sp, last result, nodes, next insertion number) until it is
    decided (DONE), ``stop_at`` nodes have been expanded (PAUSED) or the memo needs room (FULL).

    ``Ks[f]`` is frame f's memo key row; with ``canon`` = 1, version spaces of ``cmin`` concepts or more are
    keyed by their orbit (``cols``: the class's columns as word rows; ``tables``, ``flips``, ``wide``: the
    :class:`~solvers.opt.canonical.Canonical`'s; ``ties``: scratch, one slot per element; ``scratch``: 32 slots;
    ``sortg``, ``sortm``: scratch for sorting, one slot per root split)."""
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
                    _orbit_row(V, cols, tables, flips, wide, ties, scratch, K)
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
                        _sort_goods(goods[f], gm, ng, sortg, sortm)  # stable: as Python's sort
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



# ---------------------------------------------------------------------- the entry points (C callbacks)
_TYPES = {"u64*": types.CPointer(types.uint64), "i64*": types.CPointer(types.int64),
          "i32*": types.CPointer(types.int32), "i16*": types.CPointer(types.int16),
          "u8*": types.CPointer(types.uint8), "i64": types.int64}


def _entry(name):
    """``numba.cfunc`` with the signature :data:`solvers.opt.kernel.SIGNATURES` gives ``name`` (all int64 results),
    cached, and with no error that could be raised (``error_model="numpy"``)."""
    return cfunc(types.int64(*[_TYPES[t] for t in SIGNATURES[name].split()]), cache=True, error_model="numpy")


@_entry("search")
def search_c(roots_p, R, W, points_p, vs_p, ks_p, D, KW, pool_p, goods_p, frame_p, stab_p, sgen_p, ntab, gm_p, sortg_p,
             sortm_p, state_p, keys_p, lo_p, hi_p, move_p, mhash_p, seqs_p, cap, limit, stop_at, canon, cmin, cols_p,
             ncols, tables_p, nb, order, flips_p, wide, ties_p, scratch_p):
    """:func:`search` over raw pointers: ``state`` = sp, last result, nodes, next insertion number, memo count
    (the count is read and written back); returns the status."""
    state = carray(state_p, (5,))
    status, count = search(carray(roots_p, (R, W)), carray(points_p, (R,)), carray(vs_p, (D, W)), carray(ks_p, (D, KW)),
                           carray(pool_p, (D + 1, R)), carray(goods_p, (D, R)), carray(frame_p, (D, 10)),
                           carray(stab_p, (ntab,)), carray(sgen_p, (ntab,)), carray(gm_p, (R,)), carray(sortg_p, (R,)),
                           carray(sortm_p, (R,)), state, carray(keys_p, (cap, KW)), carray(lo_p, (cap,)),
                           carray(hi_p, (cap,)), carray(move_p, (cap,)), carray(mhash_p, (cap,)),
                           carray(seqs_p, (cap,)), state[4], limit, stop_at, canon, cmin, carray(cols_p, (ncols, W)),
                           carray(tables_p, (nb, 256, order)), carray(flips_p, (order,)), wide,
                           carray(ties_p, (order,)), carray(scratch_p, (32,)))
    state[4] = count
    return status


@_entry("insert_many")
def insert_many_c(rows_p, n, KW, l_p, h_p, mv_p, mh_p, keys_p, lo_p, hi_p, move_p, mhash_p, seqs_p, cap, state_p):
    """Store n entries (rows, lower, upper, move, move hash) in the table; ``state`` = count, next insertion
    number (read and written back)."""
    state = carray(state_p, (2,))
    count, seq = insert_many(carray(rows_p, (n, KW)), carray(l_p, (n,)), carray(h_p, (n,)), carray(mv_p, (n,)),
                             carray(mh_p, (n,)), carray(keys_p, (cap, KW)), carray(lo_p, (cap,)), carray(hi_p, (cap,)),
                             carray(move_p, (cap,)), carray(mhash_p, (cap,)), carray(seqs_p, (cap,)), state[0], state[1])
    state[0] = count
    state[1] = seq
    return 0


@_entry("rehash")
def rehash_c(okeys_p, olo_p, ohi_p, omove_p, omhash_p, oseqs_p, ocap, KW, cut, keys_p, lo_p, hi_p, move_p, mhash_p,
             seqs_p, cap):
    """:func:`rehash` over raw pointers: the number of entries copied."""
    return rehash(carray(okeys_p, (ocap, KW)), carray(olo_p, (ocap,)), carray(ohi_p, (ocap,)), carray(omove_p, (ocap,)),
                  carray(omhash_p, (ocap,)), carray(oseqs_p, (ocap,)), cut, carray(keys_p, (cap, KW)),
                  carray(lo_p, (cap,)), carray(hi_p, (cap,)), carray(move_p, (cap,)), carray(mhash_p, (cap,)),
                  carray(seqs_p, (cap,)))


@_entry("orbit_row")
def orbit_row_c(v_p, W, cols_p, ncols, tables_p, nb, order, flips_p, wide, ties_p, scratch_p, k_p, KW):
    """:func:`_orbit_row` over raw pointers (for tests)."""
    _orbit_row(carray(v_p, (W,)), carray(cols_p, (ncols, W)), carray(tables_p, (nb, 256, order)),
               carray(flips_p, (order,)), wide, carray(ties_p, (order,)), carray(scratch_p, (32,)), carray(k_p, (KW,)))
    return 0


#: The entry points, by name.
ENTRIES = {"search": search_c, "insert_many": insert_many_c, "rehash": rehash_c, "orbit_row": orbit_row_c}
