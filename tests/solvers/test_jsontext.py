"""Reading JSON without running into the recursion limit: nesting_depth and loads."""

import json

import pytest

from solvers.jsontext import MAX_NESTING, loads, nesting_depth


@pytest.mark.parametrize("text", ['{"a": [[1], "]]]"], "b": {}}', "7", '"[["', "[]", "{}", '[{"k": "\\\\"}, [[]]]',
                                  '["\\"[[[", ["\\u005b"]]', '{"a": "{{{\\\\\\"}}}"}', "  [ [ 1 ] ]  "])
def test_nesting_depth_agrees_with_a_recursive_count(text):
    def depth(v):
        if isinstance(v, list):
            return 1 + max((depth(x) for x in v), default=0)
        if isinstance(v, dict):
            return 1 + max((depth(x) for x in v.values()), default=0)
        return 0

    assert nesting_depth(text) == depth(json.loads(text))
    assert nesting_depth(text.encode()) == depth(json.loads(text))


def test_loads_reads_up_to_the_limit_and_refuses_beyond():
    ok = "[" * MAX_NESTING + "]" * MAX_NESTING
    assert nesting_depth(ok) == MAX_NESTING
    loads(ok, "ok.json")
    for n in (MAX_NESTING + 1, 5000, 200000):
        with pytest.raises(ValueError, match=f"deep.json is nested {n} levels deep.*at most {MAX_NESTING}\\); hint"):
            loads("[" * n + "]" * n, "deep.json", hint="hint")


def test_loads_passes_decode_errors_through():
    with pytest.raises(json.JSONDecodeError):
        loads("[1, ", "bad.json")


def test_loads_refuses_a_key_given_twice_naming_the_file_and_the_key():
    # json.loads keeps the last of two equal keys: a class file with two "matrix" keys read as the second
    with pytest.raises(ValueError, match='^c.json: the key "matrix" appears twice in one object'):
        loads('{"matrix": [[0, 1], [1, 0]], "matrix": [[0, 0]]}', "c.json")
    with pytest.raises(KeyError):  # the caller's own error type, and deep inside the text too
        loads('{"a": [{"b": 1, "c": {"x": 1, "x": 2}}]}', "w.json", error=KeyError)
    assert loads('{"a": {"x": 1}, "b": {"x": 2}}', "ok.json") == {"a": {"x": 1}, "b": {"x": 2}}
