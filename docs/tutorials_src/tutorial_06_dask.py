"""
A grid on a Dask cluster
========================

``littlestone table --backend dask --scheduler ADDR`` runs a grid's cells on a Dask cluster; from Python the
same is a :class:`adversary.workspace.Workspace` given the scheduler's address. The rows come back to this
process, which writes them and the results store; the workers only compute. On a real cluster::

    pip install '.[dask]'                  # here, on the scheduler's machine and on every worker's
    dask scheduler                         # prints "Scheduler at: tcp://HOST:8786"
    dask worker tcp://HOST:8786 --nworkers -1 --nthreads 1   # one single-threaded process per core
    littlestone table monotone-disjunctions --grid n=2..10 k=1..4 --scheduler tcp://HOST:8786

Here a cluster inside this process stands in for it (one worker of one thread; on a real cluster start a
process per core, as above: a cell holds Python's GIL, so a worker process computes one cell at a time).
"""

from dask.distributed import LocalCluster

from adversary.workspace import Workspace

with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
    print("scheduler:", cluster.scheduler_address)
    with Workspace(backend="dask", scheduler=cluster.scheduler_address) as ws:  # no store: Workspace()
        run = ws.table("monotone-disjunctions", {"n": "2..5", "k": "1,2"})
        for row in run.rows:
            print(row["params"], "Opt =", row["opt"], " VC =", row["vc"], " |C| =", row["concepts"])

# %%
# The same rows computed here, cell by cell: they are equal.
with Workspace() as ws:
    local = ws.table("monotone-disjunctions", {"n": "2..5", "k": "1,2"})
cells = sorted((tuple(r["params"].values()), r["opt"], r["vc"]) for r in run.rows)
assert cells == sorted((tuple(r["params"].values()), r["opt"], r["vc"]) for r in local.rows)
print("the cluster's rows equal the local ones:", len(cells), "cells")
