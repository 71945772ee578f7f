#!/usr/bin/env python3
"""The minimum-separation table of docs/ccd.md ("Figures"), in one run.

For each shared scene family (../shared/ccd-simulation scenes; ../shared/ccd-benchmark
with the erleben scenes pooled and the unit tests apart), both kinds, and
δ = 1e-4 and 1e-3 of each file's scale (the diagonal of the box of all its points at
t = 0 and t = 1, as python/examples/ipctk_peer.py computes it):

* ours: `exact-collision ccd-csv --min-distance δ` on every query of the file
  (δ passed as the exact value of the double ipctk gets), single-threaded
  (RAYON_NUM_THREADS=1), per-query µs as ccd-csv measures them (around the query
  alone), the exact-path count of its summary, false negatives against the files'
  ground truth (δ = 0: a hit at 0 is a hit at every δ);
* ipctk's `TightInclusionCCD().point_triangle_ccd` / `edge_edge_ccd` with the same
  `min_distance`, each call timed with `perf_counter` (~1 µs of Python call overhead is
  in its figures). Where ipctk is slow it is sampled: per file, the queries are taken in
  an evenly spreading order (0, n/2, n/4, 3n/4, …) until `--ipctk-budget` seconds of
  ipctk time are spent (every query if they fit); the row says how many it ran.
* ipctk's answers against ours on the queries it ran: earlier (its time before our
  certified interval: conservative), same (inside it), later (after it: an error), miss
  (it misses, we hit: an error), extra hit (it hits, the distance never drops to δ).
* per row: ours median / mean / p99 over every query, ours mean over ipctk's queries,
  and whether our mean is below ipctk's and our median within 2× of ipctk's, both on the
  queries ipctk ran.

Run from the project root after `cargo build --release`, with numpy and ipctk
installed (`pip install ipctk numpy`):

    python3 scripts/minsep_table.py [--bin target/release/exact-collision]
        [--shared ../shared] [--ipctk-budget 8] [--fractions 1e-4 1e-3]

Prints the markdown table (and the machine's load average before and after) on stdout.
"""

import argparse
import json
import os
import subprocess
import sys
import time
from collections import Counter, defaultdict
from fractions import Fraction
from pathlib import Path

import numpy as np

KINDS = ("vertex-face", "edge-edge")


def shared_dir(given):
    if given:
        return Path(given)
    here = Path(__file__).resolve().parents[1]
    for p in (here.parent / "shared", Path("/work/shared")):
        if (p / "ccd-benchmark").is_dir():
            return p
    sys.exit("shared/ccd-benchmark not found: give --shared")


def family(root, scene):
    if root == "ccd-benchmark":
        return "unit-tests" if scene == "unit-tests" else "erleben (all scenes)"
    return scene


def query_files(shared):
    for root in ("ccd-simulation", "ccd-benchmark"):
        for kind in KINDS:
            for p in sorted((shared / root).glob(f"*/{kind}/*.csv")):
                yield root, kind, p


def read_csv(path):
    """The queries' points as doubles, shape (n, 8, 3); every value must be a double."""
    vals = []
    for line in path.read_text().split("\n"):
        if not line.strip():
            continue
        c = [int(x) for x in line.split(",")]
        row = []
        for k in range(3):
            q = Fraction(c[2 * k], c[2 * k + 1])
            f = float(q)
            if Fraction(f) != q:
                sys.exit(f"{path}: {q} is not a double")
            row.append(f)
        vals.append(row)
    a = np.array(vals, dtype=np.float64)
    return a.reshape(-1, 8, 3)


def scene_scale(pts):
    """The diagonal of the box of every point of the file (t = 0 and t = 1)."""
    p = pts.reshape(-1, 3)
    return float(np.linalg.norm(p.max(axis=0) - p.min(axis=0)))


def spread_order(n):
    """0, n/2, n/4, 3n/4, …: every prefix is spread evenly over range(n)."""
    seen, out, m = set(), [], 1
    while len(out) < n:
        for j in range(m):
            i = (j * n) // m
            if i not in seen:
                seen.add(i)
                out.append(i)
        m *= 2
    return out


def ours(binary, path, kind, delta):
    """Our answers (hit, lo, hi as Fractions), per-query µs, and the file's summary."""
    env = dict(os.environ, RAYON_NUM_THREADS="1")
    d = Fraction(delta)
    cmd = [binary, "ccd-csv", "--kind", "vf" if kind == "vertex-face" else "ee",
           "--min-distance", f"{d.numerator}/{d.denominator}", str(path)]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if out.returncode not in (0, 1):
        sys.exit(f"{' '.join(cmd)}: exit {out.returncode}: {out.stderr}")
    answers, us, summary = [], [], None
    for line in out.stdout.splitlines():
        v = json.loads(line)
        if "file" in v:
            summary = v
            continue
        if "error" in v:
            sys.exit(f"{path}: {v}")
        if v["hit"]:
            t = v["toi"]
            answers.append((True, Fraction(t["lo"]), Fraction(t["hi"])))
        else:
            answers.append((False, None, None))
        us.append(v["us"])
    return answers, np.array(us), summary


def peer(kind, pts, delta, budget):
    """ipctk's answers {row: (hit, toi)} and per-call µs {row: µs}, sampled."""
    import ipctk

    ipctk.set_logger_level(ipctk.LoggerLevel.error)
    ccd = ipctk.TightInclusionCCD()
    f = ccd.point_triangle_ccd if kind == "vertex-face" else ccd.edge_edge_ccd
    got, us, spent = {}, {}, 0.0
    for i in spread_order(len(pts)):
        q = pts[i]
        s = time.perf_counter()
        got[i] = f(*q[:4], *q[4:], min_distance=delta)
        e = time.perf_counter() - s
        us[i] = e * 1e6
        spent += e
        if spent > budget:
            break
    return got, us


def compare(answers, got):
    c = Counter()
    for i, (hit, toi) in got.items():
        e_hit, lo, hi = answers[i]
        if hit and not e_hit:
            c["extra_hit"] += 1
        elif e_hit and not hit:
            c["miss"] += 1
        elif hit and e_hit:
            t = Fraction(toi)
            c["earlier" if t < lo else "later" if t > hi else "same"] += 1
    return c


def stats(x):
    x = np.asarray(x, dtype=np.float64)
    return np.median(x), x.mean(), np.percentile(x, 99)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default="target/release/exact-collision")
    ap.add_argument("--shared", default=None)
    ap.add_argument("--ipctk-budget", type=float, default=8.0,
                    help="seconds of ipctk time per file and δ (default 8)")
    ap.add_argument("--fractions", type=float, nargs="+", default=[1e-4, 1e-3])
    a = ap.parse_args()
    shared = shared_dir(a.shared)
    import ipctk

    t_start = time.time()
    load0 = os.getloadavg()
    files = [(root, kind, p, read_csv(p)) for root, kind, p in query_files(shared)]
    rows = []
    for frac in a.fractions:
        acc = defaultdict(lambda: {"us": [], "us_s": [], "peer": [], "c": Counter(),
                                   "n": 0, "hits": 0, "exact": 0, "fneg": 0, "files": 0})
        for root, kind, p, pts in files:
            delta = frac * scene_scale(pts)
            answers, us, summary = ours(a.bin, p, kind, delta)
            got, pus = peer(kind, pts, delta, a.ipctk_budget)
            g = acc[(family(root, p.parent.parent.name), kind)]
            g["files"] += 1
            g["n"] += len(answers)
            g["hits"] += sum(h for h, _, _ in answers)
            g["exact"] += summary["exact"]
            g["fneg"] += (summary.get("truth") or {}).get("false_negatives", 0)
            g["us"].extend(us)
            g["us_s"].extend(us[i] for i in got)
            g["peer"].extend(pus.values())
            g["c"].update(compare(answers, got))
            print(f"# {frac:g} {p.relative_to(shared)}: {len(answers)} queries, ipctk {len(got)}",
                  file=sys.stderr, flush=True)
        order = ["armadillo-rollers", "cloth-funnel", "n-body-simulation", "rod-twist",
                 "unit-tests", "erleben (all scenes)"]
        for key in sorted(acc, key=lambda k: (order.index(k[0]) if k[0] in order else 99, k[1])):
            rows.append((frac, key, acc[key]))
    load1 = os.getloadavg()

    print(f"ipctk {ipctk.__version__ if hasattr(ipctk, '__version__') else '?'}; "
          f"load average {load0[0]:.1f} at the start, {load1[0]:.1f} at the end; "
          f"{time.time() - t_start:.0f} s; ipctk budget {a.ipctk_budget:g} s per file and δ")
    print()
    print("| δ / scale | family | kind | queries | exact hits | exact path | false neg. "
          "| ours µs median / mean / p99 | ipctk queries | ipctk µs median / mean / p99 "
          "| ours mean on those | mean < ipctk | median ≤ 2× ipctk "
          "| earlier | same | later | miss | extra hit |")
    print("|---|---|---|---:|---:|---:|---:|---|---:|---|---:|---|---|---:|---:|---:|---:|---:|")
    for frac, (fam, kind), g in rows:
        om, oa, op = stats(g["us"])
        pm, pa, pp = stats(g["peer"])
        sm, sa, _ = stats(g["us_s"])
        c = g["c"]
        print(f"| {frac:g} | {fam} | {kind} | {g['n']} | {g['hits']} | {g['exact']} | {g['fneg']} "
              f"| {om:.1f} / {oa:.1f} / {op:.1f} | {len(g['peer'])} | {pm:.1f} / {pa:.1f} / {pp:.1f} "
              f"| {sa:.1f} | {'yes' if sa < pa else 'NO'} | {'yes' if sm <= 2 * pm else 'NO'} "
              f"| {c['earlier']} | {c['same']} | {c['later']} | {c['miss']} | {c['extra_hit']} |")


if __name__ == "__main__":
    main()
