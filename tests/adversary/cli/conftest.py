"""Fixtures shared by the tests of :mod:`adversary.cli`: slow classes and files of bad input."""

import json

import numpy as np
import pytest



@pytest.fixture(scope="module")
def cluster():
    """A Dask LocalCluster of 2 worker processes of 1 thread each, on loopback, for one test module (they find this
    checkout: PYTHONPATH and sys.path are inherited)."""
    distributed = pytest.importorskip("distributed")
    c = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                                 host="127.0.0.1")
    try:
        yield c
    finally:
        c.close()


@pytest.fixture(scope="module")
def hard_npy(tmp_path_factory):
    """A class that takes minutes (intervals N=300 as a matrix, 13.5 MB: not solved in 20 s, where monotone
    disjunctions n=13 k=5 as a matrix, this fixture before, takes 2 s now)."""
    from solvers.classes.families import make

    path = tmp_path_factory.mktemp("hard") / "intervals300.npy"
    np.save(path, np.asarray(make("intervals", N=300).matrix, dtype=bool))
    return path


@pytest.fixture
def hard_matrix(tmp_path):
    """A class as a JSON file (the command's input, for the checks that an output never overwrites it); its search
    takes a second or more (tests that need a class far longer than their time limit take :func:`hard_npy`)."""
    from solvers.classes.families import make

    path = tmp_path / "hard.json"
    path.write_text(json.dumps({"matrix": make("monotone-disjunctions", n=12, k=5).matrix.astype(int).tolist()}))
    return path


@pytest.fixture
def bad_files(tmp_path):
    files = {
        "broken.json": '{"matrix": [[0, 1], ',
        "two.json": json.dumps({"matrix": [[0, 2], [1, 0]]}),
        "letters.csv": "0,1\n1,a\n",
        "ragged.json": json.dumps({"matrix": [[0, 1], [1]]}),
        "ragged.csv": "0,1\n1\n",
        "empty.json": json.dumps({"matrix": []}),
        "empty.csv": "",
        "nomatrix.json": json.dumps({"rows": [[0, 1]]}),
        "c.txt": "0,1\n",
        "notree.json": "{not json",
        "kind.json": json.dumps({"kind": "proof"}),
        "witness.json": json.dumps({"kind": "witness", "sequence": []}),
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    np.save(tmp_path / "three.npy", np.array([[0, 3], [1, 0]]))
    np.save(tmp_path / "vec.npy", np.array([0, 1, 1]))
    (tmp_path / "tree.json").write_text(json.dumps({"depth": 1, "root": {"point": 0, "0": None, "1": None}}))
    return tmp_path
