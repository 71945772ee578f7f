"""Sharded JSON Lines logs answered on a Dask distributed cluster.

Run: ``python examples/dask_cluster.py [LINES_PER_OP]`` measures lines per
second per op on a LocalCluster of 1 and of 2 single-threaded workers (the
table of docs/distributed.md). As a test (pytest collects this file): on a
LocalCluster with 2 worker processes, the answers equal the single-process
run, line for line.
"""

import json
import sys
import tempfile
import time
from pathlib import Path

import dask.bag as db
import numpy as np
from dask.distributed import Client, LocalCluster

import exact_collision as ec
import exact_collision.distributed as ecd


def pts(x):
    return [[float(c) for c in p] for p in x]


def make_lines(op, n, rng):
    """n query lines of one op, hard cases mixed in (touching, one ulp apart)."""
    out = []
    for i in range(n):
        if op in ("intersect_triangles", "distance_triangles"):
            a = rng.integers(-8, 9, (3, 3)) / 8
            b = rng.integers(-8, 9, (3, 3)) / 8
            if i % 3 == 0:
                b[0] = a[1]  # shared vertex
            if i % 7 == 0:
                b[1, 2] = np.nextafter(b[1, 2], np.inf)
            q = {"op": op.split("_")[0], "a": {"type": "triangle", "v": pts(a)}, "b": {"type": "triangle", "v": pts(b)}}
        elif op in ("intersect_boxes", "distance_boxes"):
            h = np.diag(2.0 ** rng.integers(-2, 1, 3))
            c = rng.uniform(-1, 1, 3)
            if i % 4 == 0:
                c = np.array([h[0, 0] * 2, 0.0, 0.0])  # faces touching
            q = {"op": op.split("_")[0], "a": {"type": "box", "center": [0, 0, 0], "half_axes": pts(h)},
                 "b": {"type": "box", "center": pts([c])[0], "half_axes": pts(h)}}
        else:
            t0 = rng.uniform(-1, 1, (4, 3))
            t1 = t0 + rng.uniform(-1, 1, (4, 3))
            q = {"op": op, "t0": pts(t0), "t1": pts(t1)}
        q["id"] = i
        out.append(json.dumps(q))
    return out


OPS = ["intersect_triangles", "distance_triangles", "intersect_boxes", "distance_boxes", "ccd_vf", "ccd_ee"]


def write_shards(root, op, n, shards, rng):
    lines = make_lines(op, n, rng)
    d = Path(root) / op
    d.mkdir(parents=True, exist_ok=True)
    for k in range(shards):
        (d / f"{k:03d}.jsonl").write_text("".join(s + "\n" for s in lines[k::shards]))
    return d


def test_dask_equals_single_process(tmp_path):
    rng = np.random.default_rng(7)
    lines = []
    for op in OPS:
        lines += make_lines(op, 60, rng)
    lines += ["{not json", "", '{"id":"x","op":"distance","a":{"type":"box"}}']  # errors are answers too
    rng.shuffle(lines)
    shards = [lines[k::5] for k in range(5)]
    for k, s in enumerate(shards):
        (tmp_path / f"log-{k}.jsonl").write_text("".join(x + "\n" for x in s))
    # single process: each shard answered in this process, files in name order
    single = []
    for k in range(5):
        with open(tmp_path / f"log-{k}.jsonl") as f:
            single += ec.answer_lines(f)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        bag = db.read_text(str(tmp_path / "log-*.jsonl"))
        assert bag.npartitions == 5
        distributed = ecd.answer_bag(bag).compute()
        # both workers answered something
        assert len(client.scheduler_info()["workers"]) == 2
    assert len(distributed) == len(lines) == len(single)
    assert distributed == single
    # the malformed lines were answered as errors, in place
    assert sum('"error"' in a for a in single) >= 3


def measure(n_per_op=20000, shards=8):
    """Lines/s per op: the logs read by the workers, answered, and the answers
    written by the workers (to_textfiles), as on a real cluster. Gathering the
    answers into the client instead (bag.compute()) costs more than answering
    them here: Python strings pickled one by one through the scheduler."""
    rng = np.random.default_rng(1)
    with tempfile.TemporaryDirectory() as root:
        dirs = {op: write_shards(root, op, n_per_op, shards, rng) for op in OPS}
        print("| op | lines | 1 worker (lines/s) | 2 workers (lines/s) | single process, 1 thread (lines/s) |")
        print("|---|---:|---:|---:|---:|")
        for op in OPS:
            rates = []
            for workers in (1, 2):
                with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, Client(cluster):
                    bag = ecd.answer_bag(db.read_text(str(dirs[op] / "*.jsonl")), threads=1)
                    bag.count().compute()  # warm the workers (imports)
                    best = 1e9
                    for k in range(3):
                        out = Path(root) / f"answers-{op}-{workers}-{k}"
                        s = time.perf_counter()
                        bag.to_textfiles(str(out / "*.jsonl"))
                        best = min(best, time.perf_counter() - s)
                    assert sum(1 for p in out.glob("*.jsonl") for _ in open(p)) == n_per_op
                    rates.append(n_per_op / best)
            lines = [l for p in sorted(dirs[op].glob("*.jsonl")) for l in p.read_text().splitlines()]
            s = time.perf_counter()
            ec.answer_lines(lines, threads=1)
            single = n_per_op / (time.perf_counter() - s)
            print(f"| {op} | {n_per_op} | {rates[0]:.0f} | {rates[1]:.0f} | {single:.0f} |")


if __name__ == "__main__":  # the guard matters: LocalCluster starts processes
    measure(int(sys.argv[1]) if len(sys.argv) > 1 else 20000)
