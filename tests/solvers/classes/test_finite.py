"""ConceptClass: construction, duplicate merging, points, version spaces, files, and invalid input."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solvers.classes import ConceptClass

from tests.oracles import matrices, rows_of

SETTINGS = settings(max_examples=60, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])


def distinct_in_order(rows):
    seen, out = set(), []
    for r in rows:
        t = tuple(r)
        if t not in seen:
            seen.add(t)
            out.append(t)
    return out


# ---------------------------------------------------------------------------------------- construction
def test_basic_construction():
    C = ConceptClass.from_matrix([[0, 1, 1], [1, 0, 1]])
    assert len(C) == 2 == C.n_concepts
    assert C.n_points == 3
    assert C.points == ((0,), (1,), (2,))
    assert C.matrix.dtype == bool
    assert C.matrix.shape == (2, 3)
    assert C.matrix.tolist() == [[False, True, True], [True, False, True]]
    assert C.full == 0b11


def test_matrix_is_read_only():
    C = ConceptClass.from_matrix([[0, 1], [1, 0]])
    with pytest.raises(ValueError):
        C.matrix[0, 0] = True


def test_input_array_not_aliased():
    a = np.array([[0, 1], [1, 0]], dtype=bool)
    C = ConceptClass.from_matrix(a)
    a[0, 0] = True
    assert C.matrix.tolist() == [[False, True], [True, False]]


@pytest.mark.parametrize(
    "matrix",
    [
        [[0, 1], [1, 0]],
        ((0, 1), (1, 0)),
        np.array([[0, 1], [1, 0]]),
        np.array([[0, 1], [1, 0]], dtype=bool),
        np.array([[0.0, 1.0], [1.0, 0.0]]),
        [[False, True], [True, False]],
    ],
)
def test_accepted_matrix_forms(matrix):
    C = ConceptClass.from_matrix(matrix)
    assert C.matrix.tolist() == [[False, True], [True, False]]


def test_duplicate_rows_merged_keeping_first():
    C = ConceptClass.from_matrix([[1, 0], [0, 1], [1, 0], [0, 1], [1, 1]])
    assert len(C) == 3
    assert C.matrix.astype(int).tolist() == [[1, 0], [0, 1], [1, 1]]


def test_duplicate_rows_merge_names():
    C = ConceptClass.from_matrix([[1, 0], [0, 1], [1, 0]], names=["a", "b", "c"])
    assert C.names == ("a", "b")


@SETTINGS
@given(matrices())
def test_duplicates_merged_random(rows):
    C = ConceptClass.from_matrix(rows)
    expected = distinct_in_order(rows)
    assert len(C) == len(expected)
    assert [tuple(int(v) for v in r) for r in C.matrix] == expected
    assert rows_of(C.matrix) == rows_of(rows)


def test_points_default_and_given():
    C = ConceptClass.from_matrix([[0, 1, 0]])
    assert C.points == ((0,), (1,), (2,))
    D = ConceptClass.from_matrix([[0, 1, 0]], points=[5, (1, 2), [3, 4]])
    assert D.points == ((5,), (1, 2), (3, 4))
    assert D.index_of((1, 2)) == 1
    assert D.index_of(5) == 0
    assert D.index_of(np.array([3, 4])) == 2
    assert D.label(0, (1, 2)) == 1
    with pytest.raises(ValueError):
        D.index_of((9, 9))


@pytest.mark.parametrize("points", [["a", "b"], [(0, "x"), (1,)], [None, (1,)], [True, False], [0.5, 1]])
def test_points_must_be_integer_tuples(points):
    with pytest.raises(ValueError) as ei:
        ConceptClass.from_matrix([[0, 1], [1, 0]], points=points)
    assert "\n" not in str(ei.value)


def test_full_and_concepts_of():
    C = ConceptClass.from_matrix([[0, 0], [0, 1], [1, 0], [1, 1]])
    assert C.full == 0b1111
    assert C.concepts_of(0b1010) == [1, 3]
    assert C.concepts_of(0) == []


@SETTINGS
@given(matrices())
def test_columns_agree_with_matrix(rows):
    C = ConceptClass.from_matrix(rows)
    M = C.matrix
    assert len(C.columns) == C.n_points
    for j, col in enumerate(C.columns):
        assert col >> C.n_concepts == 0
        for c in range(C.n_concepts):
            assert bool((col >> c) & 1) == bool(M[c, j])


@SETTINGS
@given(matrices(), st.data())
def test_split_random(rows, data):
    C = ConceptClass.from_matrix(rows)
    V = data.draw(st.integers(0, C.full), label="V")
    j = data.draw(st.integers(0, C.n_points - 1), label="j")
    V0, V1 = C.split_index(V, j)
    assert (V0, V1) == C.split(V, C.points[j])
    assert V0 & V1 == 0
    assert V0 | V1 == V
    for c in range(C.n_concepts):
        if (V >> c) & 1:
            side = V1 if C.matrix[c, j] else V0
            assert (side >> c) & 1


@SETTINGS
@given(matrices(), st.data())
def test_version_space_random(rows, data):
    C = ConceptClass.from_matrix(rows)
    k = data.draw(st.integers(0, 6), label="k")
    examples = [
        (C.points[data.draw(st.integers(0, C.n_points - 1))], data.draw(st.integers(0, 1))) for _ in range(k)
    ]
    V = C.version_space(examples)
    expected = 0
    for c in range(C.n_concepts):
        if all(int(C.matrix[c, C.points.index(x)]) == y for x, y in examples):
            expected |= 1 << c
    assert V == expected
    # starting from a given version space intersects with it
    W = data.draw(st.integers(0, C.full), label="W")
    assert C.version_space(examples, W) == expected & W


def test_version_space_examples():
    C = ConceptClass.from_matrix([[0, 0], [0, 1], [1, 0], [1, 1]], points=[(10,), (20,)])
    assert C.version_space([]) == C.full
    assert C.version_space([((10,), 1)]) == 0b1100
    assert C.version_space([((10,), 1), ((20,), 0)]) == 0b0100
    assert C.version_space([((10,), 1), ((20,), 0), ((20,), 1)]) == 0


@SETTINGS
@given(matrices(), st.data())
def test_restrict_random(rows, data):
    C = ConceptClass.from_matrix(rows)
    idx = data.draw(st.lists(st.integers(0, C.n_concepts - 1), min_size=1, max_size=12))
    D = C.restrict(idx)
    assert D.points == C.points
    keep = sorted(set(idx))
    assert D.matrix.tolist() == C.matrix[keep].tolist()
    assert len(D) == len(keep)


def test_restrict_empty_raises():
    C = ConceptClass.from_matrix([[0, 1], [1, 0]])
    with pytest.raises(ValueError):
        C.restrict([])


def test_restrict_keeps_names_and_points():
    C = ConceptClass.from_matrix([[0, 1], [1, 0], [1, 1]], points=[7, 8], names=["a", "b", "c"])
    D = C.restrict([2, 0])
    assert D.names == ("a", "c")
    assert D.points == ((7,), (8,))


def test_log2_size():
    for n in range(1, 40):
        rows = [[(i >> b) & 1 for b in range(6)] for i in range(n)]
        assert ConceptClass.from_matrix(rows).log2_size() == n.bit_length() - 1


def test_equality_and_hash():
    A = ConceptClass.from_matrix([[0, 1], [1, 0]])
    B = ConceptClass.from_matrix(np.array([[0, 1], [1, 0], [0, 1]]))
    assert A == B and hash(A) == hash(B)
    assert A.fingerprint() == B.fingerprint()
    C = ConceptClass.from_matrix([[0, 1], [1, 0]], points=[3, 4])
    assert A != C


def _fingerprint_as_written(C) -> str:
    """The fingerprint as first written (sorted opaque packed rows): stores and certificates name classes by
    it, so the faster sort must give the same digest."""
    import hashlib

    M = np.asarray(C.matrix, dtype=bool)
    h = hashlib.sha256()
    h.update(np.asarray(M.shape, dtype=np.int64).tobytes())
    if M.shape[1]:
        packed = np.ascontiguousarray(np.packbits(M, axis=1))
        h.update(np.sort(packed.view(np.dtype((np.void, packed.shape[1]))).ravel()).tobytes())
    h.update(repr(C.points).encode())
    return h.hexdigest()[:32]


@SETTINGS
@given(st.integers(1, 80).flatmap(lambda n: st.lists(st.lists(st.booleans(), min_size=n, max_size=n), min_size=1,
                                                     max_size=40)))
def test_the_fingerprint_is_the_one_first_written(rows):
    C = ConceptClass.from_matrix(rows)
    assert C.fingerprint() == _fingerprint_as_written(C)
    assert ConceptClass.from_matrix(rows[::-1]).fingerprint() == C.fingerprint()


def test_from_callable():
    C = ConceptClass.from_callable(range(1, 5), [1, 2, 3], lambda t, x: x[0] >= t)
    assert C.points == ((1,), (2,), (3,))
    assert C.matrix.astype(int).tolist() == [[1, 1, 1], [0, 1, 1], [0, 0, 1], [0, 0, 0]]


# ---------------------------------------------------------------------------------------- files
@SETTINGS
@given(matrices())
def test_json_round_trip(tmp_path_factory, rows):
    tmp = tmp_path_factory.mktemp("json")
    C = ConceptClass.from_matrix(rows, points=[(j, j + 1) for j in range(len(rows[0]))])
    p = tmp / "c.json"
    p.write_text(json.dumps(C.to_json()))
    D = ConceptClass.from_file(p)
    assert D == C
    assert D.points == C.points


def test_json_round_trip_with_names_family(tmp_path):
    C = ConceptClass.from_matrix([[0, 1], [1, 1]], names=["a", "b"], family="fam", params={"n": 2})
    p = tmp_path / "c.json"
    p.write_text(json.dumps(C.to_json()))
    D = ConceptClass.from_file(p)
    assert D == C and D.names == ("a", "b") and D.family == "fam" and D.params == {"n": 2}


def test_json_matrix_only_and_bare_list(tmp_path):
    p = tmp_path / "m.json"
    p.write_text('{"matrix": [[0, 1], [1, 0], [0, 1]]}')
    C = ConceptClass.from_file(p)
    assert C.matrix.astype(int).tolist() == [[0, 1], [1, 0]]
    assert C.points == ((0,), (1,))
    q = tmp_path / "l.json"
    q.write_text("[[0, 1], [1, 0]]")
    assert ConceptClass.from_file(q) == C


def test_csv_load(tmp_path):
    p = tmp_path / "c.csv"
    p.write_text("0,1,1\n1,0,1\n\n0,1,1\n")
    C = ConceptClass.from_file(p)
    assert C.matrix.astype(int).tolist() == [[0, 1, 1], [1, 0, 1]]
    q = tmp_path / "d.CSV"
    q.write_text(" 0 , 1 \n1,0\n")
    assert ConceptClass.from_file(q).matrix.astype(int).tolist() == [[0, 1], [1, 0]]


@pytest.mark.parametrize("dtype", [bool, np.int64, np.uint8, np.float64])
def test_npy_load(tmp_path, dtype):
    p = tmp_path / "c.npy"
    np.save(p, np.array([[0, 1, 1], [1, 0, 1], [0, 1, 1]], dtype=dtype))
    C = ConceptClass.from_file(p)
    assert C.matrix.astype(int).tolist() == [[0, 1, 1], [1, 0, 1]]


@SETTINGS
@given(matrices())
def test_csv_and_npy_random(tmp_path_factory, rows):
    tmp = tmp_path_factory.mktemp("files")
    C = ConceptClass.from_matrix(rows)
    (tmp / "c.csv").write_text("\n".join(",".join(str(v) for v in r) for r in rows) + "\n")
    np.save(tmp / "c.npy", np.array(rows, dtype=np.uint8))
    assert ConceptClass.from_file(tmp / "c.csv") == C
    assert ConceptClass.from_file(tmp / "c.npy") == C


# ---------------------------------------------------------------------------------------- invalid input
def _one_line_value_error(fn, *args, **kw):
    with pytest.raises(ValueError) as ei:
        fn(*args, **kw)
    msg = str(ei.value)
    assert msg and "\n" not in msg, repr(msg)
    return msg


@pytest.mark.parametrize(
    "matrix",
    [
        [[0, 2], [1, 0]],
        [[0, -1], [1, 0]],
        [[0, 0.5], [1, 0]],
        [[0, "a"], [1, 0]],
        [[0, "1"], [1, 0]],
        [[0, None], [1, 0]],
        [[0, float("nan")]],
        np.array([[0, 2], [1, 0]]),
        np.array([[0, -1], [1, 0]]),
        np.array([[0, 0.5], [1, 0]]),
        np.array([["0", "1"]]),
    ],
)
def test_non_01_entries(matrix):
    _one_line_value_error(ConceptClass.from_matrix, matrix)


@pytest.mark.parametrize(
    "matrix",
    [
        [[0, 1], [1]],
        [[0], [1, 0]],
        [[0, 1], [1, 0, 1], [1, 1]],
    ],
)
def test_ragged(matrix):
    msg = _one_line_value_error(ConceptClass.from_matrix, matrix)
    assert "ragged" in msg


@pytest.mark.parametrize("matrix", [[], (), np.zeros((0, 3)), np.zeros((0, 0))])
def test_empty_matrix(matrix):
    _one_line_value_error(ConceptClass.from_matrix, matrix)


@pytest.mark.parametrize("matrix", [[[]], [[], []], np.zeros((3, 0))])
def test_zero_columns(matrix):
    """A class over no points: every row is the one empty function, so one concept after merging
    duplicates, nothing to ask, and Opt 0 (issue 18)."""
    from solvers.opt import opt

    C = ConceptClass.from_matrix(matrix)
    assert (C.n_concepts, C.n_points, C.points) == (1, 0, ())
    r = opt(C)
    assert (r.value, r.lower, r.upper, r.tree.depth) == (0, 0, 0, 0)


@pytest.mark.parametrize("matrix", [[0, 1], np.array([0, 1]), np.zeros((2, 2, 2)), [[[0], [1]]], "01", 5, None, [0]])
def test_not_two_dimensional(matrix):
    _one_line_value_error(ConceptClass.from_matrix, matrix)


@pytest.mark.parametrize("points", [[0], [0, 1, 2], []])
def test_wrong_number_of_points(points):
    _one_line_value_error(ConceptClass.from_matrix, [[0, 1], [1, 0]], points=points)


@pytest.mark.parametrize("points", [[0, 0], [(1, 2), (1, 2)], [3, (3,)]])
def test_repeated_points(points):
    _one_line_value_error(ConceptClass.from_matrix, [[0, 1], [1, 0]], points=points)


def test_names_wrong_length_without_duplicates():
    _one_line_value_error(ConceptClass.from_matrix, [[0, 1], [1, 0]], names=["a"])


def test_names_too_short_with_duplicates():
    _one_line_value_error(ConceptClass.from_matrix, [[0], [0], [1]], names=["a", "b"])


def test_names_too_long_with_duplicates():
    _one_line_value_error(ConceptClass.from_matrix, [[0], [0]], names=["a", "b", "c", "d"])


def test_missing_file(tmp_path):
    msg = _one_line_value_error(ConceptClass.from_file, tmp_path / "nope.json")
    assert "nope.json" in msg


def test_directory_path(tmp_path):
    d = tmp_path / "dir.json"
    d.mkdir()
    _one_line_value_error(ConceptClass.from_file, d)


@pytest.mark.parametrize("text", ["{", "{'matrix': [[0]]}", "[[0, 1],", "", "nan nan"])
def test_malformed_json(tmp_path, text):
    p = tmp_path / "bad.json"
    p.write_text(text)
    _one_line_value_error(ConceptClass.from_file, p)


@pytest.mark.parametrize("text", ['{"rows": [[0, 1]]}', "{}", "3", '"matrix"', "null"])
def test_json_without_matrix(tmp_path, text):
    p = tmp_path / "nomatrix.json"
    p.write_text(text)
    _one_line_value_error(ConceptClass.from_file, p)


@pytest.mark.parametrize(
    "data",
    [
        {"matrix": [[0, 2]]},
        {"matrix": [[0, -1]]},
        {"matrix": [[0, 0.5]]},
        {"matrix": [[0, "a"]]},
        {"matrix": [[0, 1], [1]]},
        {"matrix": []},
        {"matrix": "0101"},
        {"matrix": [[0, 1]], "points": [[0]]},
        {"matrix": [[0, 1]], "points": [[0], [0]]},
        {"matrix": [[0, 1]], "points": [["a"], [0]]},
        {"matrix": [[0, 1]], "points": 5},  # issue 39: an internal error
        {"matrix": [[0, 1]], "points": [[0, 1], [1]]},  # ragged points: accepted silently before
        {"matrix": [[0, 1]], "points": [0, [1, 2]]},
        {"matrix": [[0, 1]], "names": 5},
        {"matrix": [[0, 1]], "names": "a"},
        {"matrix": [[0, 1]], "family": 5},
        {"matrix": [[0, 1]], "params": 5},
        {"matrix": [[0, 1]], "params": [1, 2]},
    ],
)
def test_json_invalid_contents(tmp_path, data):
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(data))
    msg = _one_line_value_error(ConceptClass.from_file, p)
    assert "bad.json" in msg


@pytest.mark.parametrize("text", ["0,2\n1,0\n", "0,-1\n", "0,0.5\n", "0,a\n", "0,1\n1\n", "", "\n\n", "0,1,\n1,0,\n"])
def test_csv_invalid(tmp_path, text):
    p = tmp_path / "bad.csv"
    p.write_text(text)
    _one_line_value_error(ConceptClass.from_file, p)


def test_csv_binary_garbage(tmp_path):
    p = tmp_path / "bin.csv"
    p.write_bytes(b"\xff\xfe\x00\x81\n")
    _one_line_value_error(ConceptClass.from_file, p)


@pytest.mark.parametrize(
    "arr",
    [np.array([[0, 2]]), np.array([0, 1]), np.zeros((0, 2)), np.array([[0.5, 1.0]])],
)
def test_npy_invalid(tmp_path, arr):
    p = tmp_path / "bad.npy"
    np.save(p, arr)
    _one_line_value_error(ConceptClass.from_file, p)


def test_npy_object_array_refused(tmp_path):
    p = tmp_path / "obj.npy"
    np.save(p, np.array([[0, 1], [1, 0]], dtype=object), allow_pickle=True)
    _one_line_value_error(ConceptClass.from_file, p)


def test_json_with_a_number_of_5000_digits(tmp_path):
    """Python refuses to read an int of more than 4300 digits: said with the file's name, without its advice to
    raise sys.set_int_max_str_digits."""
    p = tmp_path / "huge.json"
    p.write_text('{"matrix": [[0, 1' + "0" * 5000 + "]]}")
    msg = _one_line_value_error(ConceptClass.from_file, p)
    assert "huge.json" in msg and "4300 digits" in msg and "sys." not in msg


def test_npy_structured_array(tmp_path):
    """A structured .npy (records) was an internal error (numpy's TypeError in comparing records to numbers)."""
    p = tmp_path / "rec.npy"
    np.save(p, np.zeros((2, 2), dtype=[("a", "i4")]))
    assert "records" in _one_line_value_error(ConceptClass.from_file, p)


def test_csv_with_a_byte_order_mark(tmp_path):
    p = tmp_path / "bom.csv"
    p.write_text("0,1\n1,0\n", encoding="utf-8-sig")
    assert ConceptClass.from_file(p).matrix.astype(int).tolist() == [[0, 1], [1, 0]]


def test_npy_empty_file(tmp_path):
    """An empty .npy file is a one-line ValueError naming it (it was an EOFError, an internal error)."""
    p = tmp_path / "empty.npy"
    p.write_bytes(b"")
    assert "empty.npy" in _one_line_value_error(ConceptClass.from_file, p)


def _npy_header(shape, dtype="<f8") -> bytes:
    header = f"{{'descr': '{dtype}', 'fortran_order': False, 'shape': {shape!r}, }}"
    header += " " * (118 - len(header)) + "\n"
    return b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode()


@pytest.mark.parametrize("shape", [(100000, 100000), (10**9, 10**9), (3, 4)])
def test_npy_header_larger_than_the_file(tmp_path, shape):
    """A .npy whose header names more data than the file holds is truncated or corrupt, said before any
    array is allocated (a 200-byte file claiming 10^5 x 10^5 floats said "out of memory")."""
    p = tmp_path / "cut.npy"
    p.write_bytes(_npy_header(shape) + bytes(72))
    msg = _one_line_value_error(ConceptClass.from_file, p)
    assert "cut.npy" in msg and "truncated or corrupt" in msg


def test_npy_garbage(tmp_path):
    p = tmp_path / "garbage.npy"
    p.write_bytes(b"not an npy file at all")
    _one_line_value_error(ConceptClass.from_file, p)


@pytest.mark.parametrize("name", ["c.txt", "c.xlsx", "c", "c.json.gz"])
def test_unknown_extension(tmp_path, name):
    p = tmp_path / name
    p.write_text("0,1\n1,0\n")
    _one_line_value_error(ConceptClass.from_file, p)


def test_restrict_negative_index_rejected():
    C = ConceptClass.from_matrix([[0, 1], [1, 0], [1, 1]])
    with pytest.raises((ValueError, IndexError)):
        C.restrict([-1])


def test_restrict_out_of_range_index_is_value_error():
    C = ConceptClass.from_matrix([[0, 1], [1, 0], [1, 1]])
    with pytest.raises(ValueError):
        C.restrict([5])


# ---------------------------------------------------------------------------------------- label errors
@SETTINGS
@given(matrices(max_rows=6, max_cols=4), st.data())
def test_check_target_with_label_errors(rows, data):
    """With errors=k a target passes iff it disagrees with at most k labels; without one, the class passes
    iff some concept does, and the concept returned has the fewest disagreements; ``levels`` holds exactly
    the concepts within k - j errors at level j (from the definitions, counting disagreements)."""
    C = ConceptClass.from_matrix(rows)
    M = C.matrix.astype(int).tolist()
    k = data.draw(st.integers(0, 2))
    ex = [(C.points[j], y) for j, y in data.draw(st.lists(st.tuples(st.integers(0, C.n_points - 1),
                                                                    st.integers(0, 1)), max_size=6))]
    wrong = [sum(M[c][C.index_of(x)] != y for x, y in ex) for c in range(len(C))]
    for c in range(len(C)):
        if wrong[c] <= k:
            assert C.check_target(ex, c, errors=k) == c
        else:
            with pytest.raises(ValueError, match="more than the" if k else "labels example"):
                C.check_target(ex, c, errors=k)
    if min(wrong) <= k:
        c = C.check_target(ex, errors=k)
        assert wrong[c] == min(wrong) and c == wrong.index(min(wrong))
    else:
        with pytest.raises(ValueError, match="no concept of the class"):
            C.check_target(ex, errors=k)
    levels = C.levels(ex, k)
    assert len(levels) == k + 1
    for j, A in enumerate(levels):
        assert A == sum(1 << c for c in range(len(C)) if wrong[c] <= k - j)
    assert C.levels(ex, 0) == (C.consistent(ex),)


def test_label_errors_are_refused_where_the_points_are_not_listed():
    from solvers.classes import ImplicitFamily, MarginHalfspaces

    F = ImplicitFamily("monotone-disjunctions", {"n": 13, "k": 1})
    with pytest.raises(ValueError, match="need a finite class listed point by point"):
        F.check_target([], 0, errors=1)
    H = MarginHalfspaces.from_params({"d": 2, "gamma": "1/2"})
    with pytest.raises(ValueError, match="not supported on margin-halfspaces"):
        H.check_target([], {"w": [1, 0]}, errors=1)
    with pytest.raises(ValueError, match="errors=-1"):
        ConceptClass.from_matrix([[0, 1]]).check_target([], errors=-1)


@settings(max_examples=80, deadline=None, database=None)
@given(st.integers(1, 140), st.integers(1, 80), st.integers(0, 2**32 - 1), st.floats(0.0, 1.0))
def test_column_words_and_bitsets_against_the_matrix(m, n, seed, p):
    """The packed columns (words and bitsets) hold bit c of column j exactly when the matrix says 1 there, for
    every shape (partial bytes and words included)."""
    M = np.random.default_rng(seed).random((m, n)) < p
    C = ConceptClass.from_matrix(M)
    words = C.column_words
    assert words.shape == (C.n_points, (C.n_concepts + 63) // 64) and words.dtype == np.uint64
    bits = np.unpackbits(words.view(np.uint8), axis=1, bitorder="little")[:, :C.n_concepts]
    assert (bits.T.astype(bool) == C.matrix).all()
    for j in range(C.n_points):
        assert C.columns[j] == sum(1 << int(c) for c in np.flatnonzero(C.matrix[:, j]))


@settings(max_examples=80, deadline=None, database=None)
@given(st.integers(1, 40), st.integers(1, 30), st.integers(0, 2**32 - 1), st.floats(0.0, 1.0))
def test_distinct_splits_against_the_matrix(m, n, seed, p):
    """``distinct_splits``: the first point of each class of equal-or-complementary columns that is not constant,
    in order, with its column's bitset, from the matrix's columns read as tuples."""
    M = np.random.default_rng(seed).random((m, n)) < p
    C = ConceptClass.from_matrix(M)
    M = C.matrix.astype(bool)
    expected, seen = [], set()
    for j in range(C.n_points):
        col = tuple(M[:, j])
        if all(col) or not any(col):
            continue
        if col in seen:
            continue
        seen.update({col, tuple(not v for v in col)})
        expected.append(j)
    masks, points = C.distinct_splits()
    assert list(points) == expected
    assert list(masks) == [C.columns[j] for j in expected]
    assert C.distinct_splits() is C.distinct_splits()  # (computed once)


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 9), st.integers(1, 70), st.data())
def test_row_keys_are_the_rows_read_as_big_endian_integers(rows, cols, data):
    """(issue 39) the keys are built from the packed rows (the 64-bit copy of the matrix they were computed
    from took 8 s on all-functions n=23, past a --time-limit): the same integers, by the definition."""
    from solvers.classes.finite import row_keys

    M = np.array(data.draw(st.lists(st.lists(st.booleans(), min_size=cols, max_size=cols), min_size=rows,
                                    max_size=rows)), dtype=bool).reshape(rows, cols)
    keys = row_keys(M)
    if cols <= 64:
        assert keys.dtype == np.uint64
        assert [int(k) for k in keys] == [sum(int(b) << (63 - j) for j, b in enumerate(r)) for r in M]
    else:
        assert [bytes(k) for k in keys] == [np.packbits(r).tobytes() for r in M]
