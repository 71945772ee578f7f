#!/usr/bin/env python3
"""Wall-clock scaling of `query` and `step` over thread counts (docs/step.md, docs/protocol.md).

    scripts/measure_scaling.py BIN --throughput DIR --steps DIR [--threads 1 2 4 8 16]
        [--lines 1000000] [--rotating-lines 100000] [--runs 3] [--work DIR]

- `query`: every `*.jsonl` in the throughput folder, its lines repeated to `--lines`
  (`ccd_rotating` to `--rotating-lines`: 20 times the others' cost per line), answered with
  `query --jobs N FILE > /dev/null`. The output's SHA-256 at every thread count is taken on a
  separate untimed run of the first 100,000 lines and must equal the one-thread output's.
- `step`: every folder under `--steps` holding `frames/` with two meshes, answered with
  `RAYON_NUM_THREADS=N step --json A B`; the answer (all but `time_ms`) must be the same at
  every thread count. Its phase timers give the time outside the pool (`broad_serial`,
  `narrow_serial`) and the time outside every phase (start-up, output, exit). Each timed
  step run follows an untimed run of the same command.

Each figure is the minimum over `--runs` rounds; in a round every thread count runs once, in
turn, so that a slow spell of the machine touches all of them. Prints Markdown tables. The
standard library only, so that it runs on a bare machine beside the release binary.
"""

import argparse
import glob
import hashlib
import json
import os
import subprocess
import sys
import time


def repeat_to(src, dst, lines):
    with open(src, "rb") as f:
        body = [ln if ln.endswith(b"\n") else ln + b"\n" for ln in f.read().splitlines()]
    if not body:
        raise SystemExit(f"{src}: empty")
    with open(dst, "wb") as out:
        full, rest = divmod(lines, len(body))
        block = b"".join(body)
        for _ in range(full):
            out.write(block)
        out.write(b"".join(body[:rest]))


def timed(cmd, env=None, stdout=subprocess.DEVNULL):
    t0 = time.perf_counter()
    p = subprocess.run(cmd, env=env, stdout=stdout, stderr=subprocess.PIPE)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)}: exit {p.returncode}: {p.stderr.decode()[-500:]}")
    return wall, p


def sha_of_query(binary, path, jobs):
    h = hashlib.sha256()
    p = subprocess.Popen([binary, "query", "--jobs", str(jobs), path], stdout=subprocess.PIPE)
    while True:
        chunk = p.stdout.read(1 << 20)
        if not chunk:
            break
        h.update(chunk)
    if p.wait() != 0:
        raise SystemExit(f"query --jobs {jobs} {path}: exit {p.returncode}")
    return h.hexdigest()


def fmt_row(cells):
    return "| " + " | ".join(cells) + " |"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("binary")
    ap.add_argument("--throughput", required=True)
    ap.add_argument("--steps", required=True)
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2, 4, 8, 16])
    ap.add_argument("--lines", type=int, default=1_000_000)
    ap.add_argument("--rotating-lines", type=int, default=100_000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--work", default="scaling-work")
    ap.add_argument("--skip-query", action="store_true")
    ap.add_argument("--skip-step", action="store_true")
    a = ap.parse_args()
    binary = os.path.abspath(a.binary)
    threads = a.threads
    if threads[0] != 1:
        threads = [1] + [t for t in threads if t != 1]
    os.makedirs(a.work, exist_ok=True)
    print(f"machine: {os.cpu_count()} logical CPUs; threads {threads}; runs {a.runs}")
    print(f"binary: {binary}")
    print()

    if not a.skip_query:
        files = sorted(glob.glob(os.path.join(a.throughput, "*.jsonl")))
        if not files:
            raise SystemExit(f"no *.jsonl in {a.throughput}")
        big, small = {}, {}
        for src in files:
            name = os.path.basename(src)[: -len(".jsonl")]
            n = a.rotating_lines if name == "ccd_rotating" else a.lines
            big[name] = (os.path.join(a.work, f"{name}.{n}.jsonl"), n)
            if not os.path.exists(big[name][0]):
                repeat_to(src, big[name][0], n)
            small[name] = os.path.join(a.work, f"{name}.identity.jsonl")
            if not os.path.exists(small[name]):
                repeat_to(src, small[name], min(n, 100_000))
        same = {}
        for name in big:
            shas = {t: sha_of_query(binary, small[name], t) for t in threads}
            same[name] = all(s == shas[1] for s in shas.values())
        best = {}
        for _ in range(a.runs):
            for name, (path, _) in big.items():
                for t in threads:
                    w, _ = timed([binary, "query", "--jobs", str(t), path])
                    key = (name, t)
                    best[key] = min(best.get(key, w), w)
        print("## query: wall seconds (minimum of the rounds), speed-up over one thread")
        print()
        print(fmt_row(["file", "lines"] + [f"{t} thr" for t in threads]
                      + [f"{t}×" for t in threads[1:]] + ["output identical"]))
        print(fmt_row(["---"] * (3 + 2 * (len(threads) - 1) + 1)))
        for name, (_, n) in big.items():
            w = [best[(name, t)] for t in threads]
            print(fmt_row([name, f"{n:,}"] + [f"{x:.3f}" for x in w]
                          + [f"{w[0] / x:.2f}" for x in w[1:]]
                          + ["yes" if same[name] else "NO"]))
        print()
        sys.stdout.flush()

    if not a.skip_step:
        scenes = []
        for d in sorted(glob.glob(os.path.join(a.steps, "*", "frames"))):
            meshes = sorted(glob.glob(os.path.join(d, "*.ply")))
            if len(meshes) == 2:
                scenes.append((os.path.basename(os.path.dirname(d)), meshes))
        if not scenes:
            raise SystemExit(f"no */frames/ with two .ply files under {a.steps}")
        best, phases, answers = {}, {}, {}
        for _ in range(a.runs):
            for name, meshes in scenes:
                for t in threads:
                    env = dict(os.environ, RAYON_NUM_THREADS=str(t))
                    cmd = [binary, "step", "--json"] + meshes
                    # An untimed run first: the first process to touch memory
                    # just freed by another can take page faults several
                    # times slower (seen on a virtual machine: n-body's
                    # `samples` part 260 ms instead of 40 ms).
                    timed(cmd, env=env)
                    w, p = timed(cmd, env=env, stdout=subprocess.PIPE)
                    j = json.loads(p.stdout)
                    times = j.pop("time_ms")
                    answers.setdefault(name, set()).add(json.dumps(j, sort_keys=True))
                    key = (name, t)
                    if w < best.get(key, float("inf")):
                        best[key] = w
                        phases[key] = times
        print("## step: wall seconds (minimum of the rounds), speed-up over one thread")
        print()
        print(fmt_row(["scene"] + [f"{t} thr" for t in threads]
                      + [f"{t}×" for t in threads[1:]] + ["answer identical"]))
        print(fmt_row(["---"] * (1 + 2 * len(threads) - 1 + 1)))
        for name, _ in scenes:
            w = [best[(name, t)] for t in threads]
            print(fmt_row([name] + [f"{x:.3f}" for x in w]
                          + [f"{w[0] / x:.2f}" for x in w[1:]]
                          + ["yes" if len(answers[name]) == 1 else "NO"]))
        print()
        print("## step: where the fastest run's time went (ms): read / broad / narrow;"
              " on one thread (broad_serial + narrow_serial); outside every phase")
        print()
        print(fmt_row(["scene", "threads", "wall", "read", "broad", "narrow",
                       "serial in phases", "outside phases", "serial share"]))
        print(fmt_row(["---"] * 9))
        for name, _ in scenes:
            for t in threads:
                ph = phases[(name, t)]
                wall = best[(name, t)] * 1e3
                serial = ph["broad_serial"] + ph["narrow_serial"]
                outside = wall - ph["read"] - ph["broad"] - ph["narrow"]
                share = (serial + outside) / wall
                print(fmt_row([name, str(t), f"{wall:.1f}", f"{ph['read']:.1f}",
                               f"{ph['broad']:.1f}", f"{ph['narrow']:.1f}", f"{serial:.2f}",
                               f"{outside:.1f}", f"{100 * share:.1f} %"]))
        print()


if __name__ == "__main__":
    main()
