"""ipctk's CCD (Tight-Inclusion, the IPC toolkit's default narrow phase) against the
exact answers, on the CCD queries of real simulations (shared/ccd-simulation) and
the degenerate benchmark scenes (shared/ccd-benchmark).

Run: ``python examples/ipctk_peer.py [DISAGREEMENTS.jsonl]`` prints the counts by
kind and the timings, and writes every disagreement as a protocol line with the
peer's answer as its claim (``exact-collision verify`` reads them). As a test
(pytest collects this file) it checks every query and that the lines it writes
are disagreements by the library's own judgement.

Kinds of disagreement:

* ``false_negative``: ipctk says no contact in [0, 1], the exact answer hits
  (the unsafe kind: a simulation would let the meshes pass through);
* ``false_positive``: ipctk reports a contact that does not happen (allowed by
  its conservative design, within its tolerance; counted apart);
* ``toi_late``: both hit, but ipctk's time of impact is after the exact first
  time (unsafe: its time is meant as a lower bound).

An earlier ipctk time than the exact one is its conservative design
(``conservative_rescaling``, default 0.8), not a disagreement.
"""

import json
import sys
import time
from collections import Counter
from fractions import Fraction
from pathlib import Path

import ipctk  # a test dependency: if it is missing, this test fails
import numpy as np

import exact_collision as ec
from exact_collision import ccd_csv

# ipctk warns on every query that starts in contact; the answers are what count.
ipctk.set_logger_level(ipctk.LoggerLevel.error)

KINDS = {"vertex-face": ("ccd_vf", ec.ccd_vf), "edge-edge": ("ccd_ee", ec.ccd_ee)}


def shared_dir() -> Path:
    """shared/ beside the repository (as CI lays it out), else /work/shared."""
    here = Path(__file__).resolve().parents[2]
    for p in (here.parent / "shared", Path("/work/shared")):
        if (p / "ccd-benchmark").is_dir():
            return p
    raise FileNotFoundError("shared/ccd-benchmark not found beside the repository")


def query_files():
    s = shared_dir()
    for root in ("ccd-simulation", "ccd-benchmark"):
        for kind in KINDS:
            for p in sorted((s / root).glob(f"*/{kind}/*.csv")):
                yield root, kind, p


def peer(kind, t0, t1):
    """ipctk's (hit, toi) for every row, and the seconds it took."""
    ccd = ipctk.TightInclusionCCD()
    f = ccd.point_triangle_ccd if kind == "vertex-face" else ccd.edge_edge_ccd
    start = time.perf_counter()
    out = [f(*t0[i], *t1[i]) for i in range(len(t0))]
    return out, time.perf_counter() - start


def protocol_line(op, t0, t1, claim, meta):
    pts = lambda x: [[float(c) for c in p] for p in x]
    return json.dumps({"op": op, "t0": pts(t0), "t1": pts(t1), "claim": claim, "meta": meta})


def compare(kind, t0, t1, where="", rows=None):
    """Counts by kind, disagreement lines, the exact answers, peer seconds;
    the peer is run on `rows` (an index array; default all)."""
    op, exact_fn = KINDS[kind]
    r = exact_fn(t0, t1, exact=True)
    rows = np.arange(len(t0)) if rows is None else rows
    answers, secs = peer(kind, t0[rows], t1[rows])
    counts, lines = Counter(), []
    for i, (hit, toi) in zip(rows, answers):
        counts["queries"] += 1
        e_hit = bool(r["hit"][i])
        what = None
        if hit and not e_hit:
            what = "false_positive"
        elif e_hit and not hit:
            what = "false_negative"
        elif hit and e_hit and Fraction(toi) > Fraction(r["toi_hi_exact"][i]):
            what = "toi_late"
        if what:
            counts[what] += 1
            claim = {"hit": bool(hit)}
            if what == "toi_late":
                claim = {"hit": True, "toi_f64": float(toi), "abs_tol": 0}
            lines.append(protocol_line(op, t0[i], t1[i], claim, {"kind": what, "where": f"{where}#{i}"}))
    return counts, lines, r, secs


def run_all(per_file_limit=None):
    """Every query file; the peer on at most `per_file_limit` queries of each
    (evenly spaced), or on all."""
    total, lines, per_file = Counter(), [], []
    for root, kind, path in query_files():
        q = ccd_csv.read(path)
        assert q.exact, f"{path}: not every value is a double"
        n = len(q.t0)
        rows = None
        if per_file_limit and n > per_file_limit:
            rows = np.unique(np.linspace(0, n - 1, per_file_limit).astype(int))
        where = f"{root}/{path.relative_to(shared_dir() / root)}"
        counts, ls, r, secs = compare(kind, q.t0, q.t1, where, rows)
        per_file.append((root, kind, path, q, r, secs))
        for k, v in counts.items():
            total[(root, kind, k)] += v
        lines += ls
    return total, lines, per_file


def test_ipctk_against_exact():
    # ipctk takes ~10 ms on some real queries (rod-twist edge-edge): the test
    # runs it on 50 evenly spaced queries per file, `main` on all of them.
    total, lines, per_file = run_all(per_file_limit=50)
    assert sum(v for (_, _, k), v in total.items() if k == "queries") > 2000
    # The exact answers equal the files' ground truth (Mathematica's, an
    # independent exact computation), query by query.
    for root, kind, path, q, r, _ in per_file:
        assert (r["hit"] == q.truth).all(), path
    # Every line written is a disagreement by the library's own judgement of
    # the claim (the protocol's verify semantics).
    for s, a in zip(lines, ec.answer_lines(lines)):
        assert json.loads(a)["verdict"] == "disagree", (s, a)
    # And a query where ipctk and the exact answer agree is judged "agree".
    _, kind, _, q, r, _ = per_file[0]
    agree = protocol_line(KINDS[kind][0], q.t0[0], q.t1[0], {"hit": bool(r["hit"][0])}, None)
    assert json.loads(ec.answer(agree))["verdict"] == "agree"


def main(out=None):
    total, lines, per_file = run_all()
    print("| set | kind | queries | false negatives | false positives | toi late |")
    print("|---|---|---:|---:|---:|---:|")
    for root in ("ccd-simulation", "ccd-benchmark"):
        for kind in KINDS:
            g = lambda k: total[(root, kind, k)]
            print(f"| {root} | {kind} | {g('queries')} | {g('false_negative')} | {g('false_positive')} | {g('toi_late')} |")
    for kind in KINDS:
        rows = [(q, s) for (_, k, _, q, _, s) in per_file if k == kind]
        n = sum(len(q.t0) for q, _ in rows)
        t0 = np.concatenate([q.t0 for q, _ in rows])
        t1 = np.concatenate([q.t1 for q, _ in rows])
        fn = KINDS[kind][1]
        times = {}
        for th in (1, 2):
            s = time.perf_counter()
            fn(t0, t1, threads=th)
            times[th] = time.perf_counter() - s
        peer_s = sum(s for _, s in rows)
        print(f"{kind}: {n} queries; exact {n / times[1]:.0f}/s (1 thread), {n / times[2]:.0f}/s (2 threads); "
              f"ipctk {n / peer_s:.0f}/s (a Python loop of single calls)")
    if out:
        Path(out).write_text("".join(s + "\n" for s in lines))
        print(f"{len(lines)} disagreement lines written to {out}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
