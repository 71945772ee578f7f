"""A Dask worker killed in the middle of a run (docs/distributed.md, "A dead
worker"): the scheduler runs the dead worker's partitions again elsewhere, and
because each partition's answers go to one file named by its index, written
whole (a rerun overwrites it), the output is complete and the same as the
single-process answers, every line answered once.
"""

import json
import os
import signal
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import exact_collision as ec

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))
from dask_cluster import OPS, make_lines  # noqa: E402

dask = pytest.importorskip("dask")
import dask.bag as db  # noqa: E402
from dask.distributed import Client, LocalCluster, wait  # noqa: E402

SHARDS = 12


def test_killed_worker_output_is_complete_and_answered_once(tmp_path):
    rng = np.random.default_rng(24)
    lines = []
    for op in OPS:
        lines += make_lines(op, 40, rng)
    lines += ["{not json", '{"id":"x","op":"distance","a":{"type":"box"}}']
    # Every line has a distinct id, so "answered once" can be counted.
    lines = [json.dumps({**json.loads(s), "id": f"q{i}"}) if s.startswith('{"op"') else s
             for i, s in enumerate(lines)]
    rng.shuffle(lines)
    logs = tmp_path / "logs"
    logs.mkdir()
    for k in range(SHARDS):
        (logs / f"{k:03d}.jsonl").write_text("".join(x + "\n" for x in lines[k::SHARDS]))
    single = []
    for k in range(SHARDS):
        with open(logs / f"{k:03d}.jsonl") as f:
            single += ec.answer_lines(f)

    out = tmp_path / "answers"
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        pids = client.run(os.getpid)  # worker address -> its process id

        def slow_answer(part):
            # A partition takes about a second, so the run is still going
            # when a worker is killed (defined here: pickled by value).
            import time

            import exact_collision.distributed as ecd

            time.sleep(1.0)
            return ecd.answer_partition(part, threads=1)

        bag = db.read_text(str(logs / "*.jsonl")).map_partitions(slow_answer)
        assert bag.npartitions == SHARDS
        # One file per partition, named by its index; each written whole.
        writes = bag.to_textfiles(str(out / "*.jsonl"), name_function=lambda i: f"{i:03d}",
                                  compute=False)
        futures = client.compute(writes)

        # Wait until a partition is finished and the victim is busy with one.
        victim = sorted(pids)[0]
        deadline = time.monotonic() + 60
        while True:
            busy = client.processing().get(victim, [])
            done = sum(f.done() for f in futures)
            if done >= 1 and busy:
                break
            assert time.monotonic() < deadline, "the run never got going"
            time.sleep(0.05)
        os.kill(pids[victim], signal.SIGKILL)
        done_at_kill = sum(f.done() for f in futures)
        assert done_at_kill < SHARDS, "killed in the middle of the run"

        wait(futures, timeout=120)
        assert all(f.status == "finished" for f in futures), [f.status for f in futures]
        # The killed process is gone (the nanny may have started a new one).
        assert pids[victim] not in client.run(os.getpid).values()

        # The scheduler counted a task as running on the worker that died
        # (`suspicious`) and ran it again elsewhere.
        def suspicious(dask_scheduler):
            return sum(ts.suspicious for ts in dask_scheduler.tasks.values())

        assert client.run_on_scheduler(suspicious) >= 1

    files = sorted(out.glob("*.jsonl"))
    assert [p.name for p in files] == [f"{k:03d}.jsonl" for k in range(SHARDS)]
    distributed = [a for p in files for a in p.read_text().splitlines()]
    assert distributed == single
    # Every line answered once: one answer per line, each id once.
    assert len(distributed) == len(lines)
    ids = [json.loads(a).get("id") for a in distributed]
    named = [i for i in ids if isinstance(i, str) and i.startswith("q")]
    assert len(named) == len(set(named)) == sum(s.startswith('{"op"') for s in lines)
