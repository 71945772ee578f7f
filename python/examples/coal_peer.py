"""coal (the successor of FCL, from the Pinocchio/HPP family) against the exact
answers: collisions and distances of boxes and triangles, and of spheres,
capsules and convex hulls (with boxes and with each other), hard cases included
(touching, one ulp apart, coplanar, shared features, degenerate capsules,
radius 0, 2^±40 scales).

Run: ``python examples/coal_peer.py [DISAGREEMENTS.jsonl]`` prints the counts by
kind and timings, and writes every disagreement as a protocol line with coal's
answer as its claim (``exact-collision verify`` reads them). As a test (pytest
collects this file) it checks that each line written is a disagreement by the
library's own judgement of the claim, and that each agreeing pair is judged
"agree".

The same sets both engines see: a coal box is ``Box(2e)`` under
``Transform3s(R, c)``, the set { c + R·diag(e)·s : |s| ≤ 1 }, so the exact box
has center c and half-axes e_i·(column i of R); the e_i are powers of two, so
those products are exact. R is used as given (a double matrix, orthogonal only
to rounding) by both. Triangles are ``TriangleP`` for collisions (coal has no
triangle-triangle distance between shapes) and one-triangle ``BVHModelOBBRSS``
meshes for distances.

Kinds of disagreement: ``collide_false_positive`` / ``collide_false_negative``
(coal's collide against the exact intersect), and for distances (coal's value,
negative penetration taken as 0, judged with the claim's relative tolerance
REL_TOL) ``distance_zero_when_apart``, ``distance_positive_when_touching``,
``distance_off`` (both positive, relative error above REL_TOL), and
``distance_far_negative_when_apart`` (coal returns a penetration below -1, down
to -1.8e308, for shapes that are apart).

Spheres, capsules and convex hulls (``run_rounded``): the same kinds, counted per
family; the families are the engine scoreboard's
(``exact_collision.scoreboard.cases``) and how coal's shapes map to the exact
ones is in the scoreboard's coal adapter (note that ``coal.Capsule(r, lz)`` takes the full
length lz). Every hard row's expected intersect is known by construction and
asserted; the results are in docs/python.md.
"""

import json
import sys
import time
from collections import Counter
from fractions import Fraction
from pathlib import Path

import coal  # a test dependency: if it is missing, this test fails
import numpy as np

import exact_collision as ec

REL_TOL = 1e-6  # coal's default GJK tolerance; the claims carry it
UP, DOWN = np.inf, -np.inf


def rotation(rng):
    q, _ = np.linalg.qr(rng.normal(size=(3, 3)))
    return q * np.sign(np.linalg.det(q))


def box_cases(rng, n):
    """(R, e, c) pairs as coal holds them, hard cases every other row."""
    out = []
    I = np.eye(3)
    s = np.sqrt(0.5)
    r45 = np.array([[s, -s, 0.0], [s, s, 0.0], [0.0, 0.0, 1.0]])
    for i in range(n):
        e1 = 2.0 ** rng.integers(-2, 1, 3)
        e2 = 2.0 ** rng.integers(-2, 1, 3)
        k = i % 8
        if k < 3:  # random
            a = (rotation(rng), e1, rng.uniform(-1, 1, 3))
            b = (rotation(rng), e2, rng.uniform(-1, 1, 3))
        elif k == 3:  # faces touching exactly
            a = (I, e1, np.zeros(3))
            b = (I, e2, np.array([e1[0] + e2[0], 0.0, 0.0]))
        elif k == 4:  # a small gap: one ulp, or 2^-j
            a = (I, e1, np.zeros(3))
            x = e1[0] + e2[0]
            x = np.nextafter(x, UP) if i % 16 < 8 else x + 2.0 ** -rng.integers(10, 45)
            b = (I, e2, np.array([x, rng.integers(-4, 5) / 8, rng.integers(-4, 5) / 8]))
        elif k == 5:  # one ulp overlap
            a = (I, e1, np.zeros(3))
            b = (I, e2, np.array([np.nextafter(e1[0] + e2[0], DOWN), 0.0, 0.0]))
        elif k == 6:  # a 45-degree box's edge near a face
            a = (I, e1, np.zeros(3))
            b = (r45, e2, np.array([e1[0] + e2[0] * 2 * s, 0.0, 0.0]))
        else:  # rotated, centers at a random distance around contact
            ra, rb = rotation(rng), rotation(rng)
            a = (ra, e1, np.zeros(3))
            b = (rb, e2, rng.normal(size=3) * rng.uniform(0.5, 2))
        out.append((a, b))
    return out


def exact_box(R, e, c):
    return np.vstack([c, (R * e).T])  # rows: center, e0·R[:,0], e1·R[:,1], e2·R[:,2]


def triangle_cases(rng, n):
    out = []
    for i in range(n):
        t = rng.integers(-8, 9, (3, 3)) / 8.0
        k = i % 6
        if k == 0:
            u = rng.uniform(-1, 1, (3, 3))
        elif k == 1:  # coplanar
            t[:, 2] = 0.25
            u = rng.integers(-8, 9, (3, 3)) / 8.0
            u[:, 2] = 0.25
        elif k == 2:  # a vertex on an edge's midpoint
            u = rng.integers(-8, 9, (3, 3)) / 8.0
            u[0] = (t[0] + t[1]) / 2
        elif k == 3:  # a vertex one ulp, or 2^-j, above the plane z = 1
            t = np.array([[-1.0, -1, 1], [1, -1, 1], [0, 1, 1]])
            z = np.nextafter(1.0, UP) if i % 12 < 6 else 1 + 2.0 ** -rng.integers(10, 45)
            x, y = rng.integers(-3, 4) / 8, rng.integers(-3, 2) / 8
            u = np.array([[x, y, z], [0.5, 0.5, 2.0], [-0.5, 0.5, 1.5]])
        elif k == 4:  # shared vertex
            u = rng.integers(-8, 9, (3, 3)) / 8.0
            u[0] = t[1]
        else:  # random, near
            u = t + rng.normal(size=(3, 3)) * 0.1
        out.append((t, u))
    return out


def tri_shape(t):
    return {"type": "triangle", "v": [[float(c) for c in p] for p in t]}


def box_shape(b):
    return {"type": "box", "center": [float(c) for c in b[0]], "half_axes": [[float(c) for c in p] for p in b[1:]]}


def coal_boxes(cases):
    """coal's answers and its seconds for collide and for distance (the
    objects built outside the timed calls)."""
    objs = [(coal.Box(*(2 * ea)), coal.Transform3s(ra, ca), coal.Box(*(2 * eb)), coal.Transform3s(rb, cb))
            for (ra, ea, ca), (rb, eb, cb) in cases]
    return _coal_loops(objs, objs)


def _coal_loops(coll_objs, dist_objs):
    creq, dreq = coal.CollisionRequest(), coal.DistanceRequest()
    start = time.perf_counter()
    coll = [coal.collide(ga, ta, gb, tb, creq, coal.CollisionResult()) > 0 for ga, ta, gb, tb in coll_objs]
    mid = time.perf_counter()
    dist = [coal.distance(ga, ta, gb, tb, dreq, coal.DistanceResult()) for ga, ta, gb, tb in dist_objs]
    return coll, dist, (mid - start, time.perf_counter() - mid)


def mesh(t):
    m = coal.BVHModelOBBRSS()
    m.beginModel(1, 3)
    m.addTriangle(*[np.array(p, dtype=float) for p in t])
    m.endModel()
    return m


def coal_triangles(cases):
    identity = coal.Transform3s()
    tri = lambda t: coal.TriangleP(*[np.array(p) for p in t])
    coll_objs = [(tri(t), identity, tri(u), identity) for t, u in cases]
    dist_objs = [(mesh(t), identity, mesh(u), identity) for t, u in cases]
    return _coal_loops(coll_objs, dist_objs)


def compare(what, a, b, shape, coll, dist):
    """Counts by kind and the disagreement lines, judged by the library."""
    n = len(a)
    inter = ec.intersect_triangles(a, b) if what == "triangle" else ec.intersect_boxes(a, b)
    d = ec.distance_triangles(a, b) if what == "triangle" else ec.distance_boxes(a, b)
    lines_i = [json.dumps({"op": "intersect", "a": shape(a[i]), "b": shape(b[i]),
                           "claim": {"intersect": bool(coll[i])}, "meta": {"peer": "coal", "row": i}}) for i in range(n)]
    lines_d = [json.dumps({"op": "distance", "a": shape(a[i]), "b": shape(b[i]),
                           "claim": {"distance_f64": max(float(dist[i]), 0.0), "rel_tol": REL_TOL},
                           "meta": {"peer": "coal", "row": i, "coal_distance": float(dist[i])}}) for i in range(n)]
    counts, out = Counter(), []
    for i, (s, ans) in enumerate(zip(lines_i, ec.answer_lines(lines_i))):
        v = json.loads(ans)["verdict"]
        counts[f"{what} collide"] += 1
        if v == "disagree":
            kind = "collide_false_positive" if coll[i] else "collide_false_negative"
            assert bool(coll[i]) != bool(inter[i])
            counts[f"{what} {kind}"] += 1
            out.append(s)
        else:
            assert bool(coll[i]) == bool(inter[i])
    for i, (s, ans) in enumerate(zip(lines_d, ec.answer_lines(lines_d))):
        v = json.loads(ans)["verdict"]
        counts[f"{what} distance"] += 1
        exact = Fraction(d["distance_squared"][i])
        claimed = max(float(dist[i]), 0.0)
        if v == "disagree":
            if float(dist[i]) < -1:
                kind = "distance_far_negative_when_apart"  # coal's EPA failing
            elif claimed == 0:
                kind = "distance_zero_when_apart"
            elif exact == 0:
                kind = "distance_positive_when_touching"
            else:
                kind = "distance_off"
            counts[f"{what} {kind}"] += 1
            out.append(s)
    return counts, out


def arrays(cases, make):
    a = np.array([make(*x) for x, _ in cases])
    b = np.array([make(*y) for _, y in cases])
    return a, b


def run(n=2000, seed=20261124):
    rng = np.random.default_rng(seed)
    boxes = box_cases(rng, n)
    tris = triangle_cases(rng, n)
    ba, bb = arrays(boxes, exact_box)
    ta = np.array([t for t, _ in tris])
    tb = np.array([u for _, u in tris])
    bc, bd, bsecs = coal_boxes(boxes)
    tc, td, tsecs = coal_triangles(tris)
    c1, l1 = compare("box", ba, bb, box_shape, bc, bd)
    c2, l2 = compare("triangle", ta, tb, tri_shape, tc, td)
    return c1 + c2, l1 + l2, {"box": (ba, bb, bsecs), "triangle": (ta, tb, tsecs)}


def test_coal_against_exact():
    counts, lines, _ = run(n=600)
    assert counts["box collide"] == counts["triangle collide"] == 600
    # a one-ulp gap between axis-aligned boxes is a case coal is known to call
    # a collision (its GJK/EPA works to a tolerance): disagreements occur, and
    # each written line is judged "disagree" again when read back.
    assert counts["box collide_false_positive"] > 0
    for a in ec.answer_lines(lines):
        assert json.loads(a)["verdict"] == "disagree", a


def main(out=None, n=2000):
    counts, lines, data = run(n)
    for k in sorted(counts):
        print(f"{k}: {counts[k]}")
    print("| op | exact, 1 thread (pairs/s) | exact, 2 threads | coal (Python loop of single calls) |")
    print("|---|---:|---:|---:|")
    for what in ("box", "triangle"):
        a, b, peer_secs = data[what]
        fi = ec.intersect_triangles if what == "triangle" else ec.intersect_boxes
        fd = ec.distance_triangles if what == "triangle" else ec.distance_boxes
        for (name, fn), peer in zip((("intersect", fi), ("distance", fd)), peer_secs):
            rates = []
            for th in (1, 2):
                best = min(_timed(fn, a, b, th) for _ in range(3))
                rates.append(len(a) / best)
            print(f"| {what} {name} | {rates[0]:.0f} | {rates[1]:.0f} | {len(a) / peer:.0f} |")
    rcounts, rlines, _ = run_rounded()
    print_rounded(rcounts, rlines)
    lines = lines + rlines
    if out:
        Path(out).write_text("".join(s + "\n" for s in lines))
        print(f"{len(lines)} disagreement lines written to {out}")


KINDS = ["collide_false_positive", "collide_false_negative", "distance_zero_when_apart",
         "distance_far_negative_when_apart", "distance_positive_when_touching", "distance_off"]


def print_rounded(counts, lines):
    """The rounded shapes' counts: by family and kind, then by case and scale."""
    print("| family | pairs | " + " | ".join(KINDS) + " |")
    print("|---|---:|" + "---:|" * len(KINDS))
    for fam in FAMILIES:
        print(f"| {fam} | {counts[fam + ': pairs']} | " + " | ".join(str(counts[f"{fam}: {k}"]) for k in KINDS) + " |")
    by = Counter()
    for line in lines:
        q = json.loads(line)
        m = q["meta"]
        by[(q["op"], m["case"], m["scale"])] += 1
    print("disagreement lines by op, constructed case and scale:")
    for k in sorted(by):
        print(f"  {k}: {by[k]}")


def _timed(fn, a, b, threads):
    s = time.perf_counter()
    fn(a, b, threads=threads)
    return time.perf_counter() - s



# ---------------------------------------------------------------------------
# Spheres, capsules and convex hulls
#
# The case families live in exact_collision.scoreboard.cases (the engine
# scoreboard judges every engine on them) and coal's shapes are made by the
# scoreboard's coal adapter (exact_collision.scoreboard.adapters.coal_adapter,
# whose docstring says how coal's shapes map to the exact ones; note that
# ``coal.Capsule(r, lz)`` takes the full length lz, and that a flat convex
# polygon is given to coal as a fan: convexHull crashes coal 3.0.3 on coplanar
# input). R is a signed permutation matrix (exactly orthogonal as doubles) on
# the hard cases; on the random ones a random rotation, orthogonal only to
# rounding, used as given by both sides.

from exact_collision.scoreboard.adapters.coal_adapter import geometry as coal_geometry  # noqa: E402
from exact_collision.scoreboard.cases import ROUNDED_FAMILIES as FAMILIES  # noqa: E402


def rounded_cases(rng, n_each):
    """(family, expected, a, b, scale) rows, a and b scoreboard shapes;
    `expected` is known by construction: "touch" and "overlap" meet, "apart"
    does not, None is not known."""
    return [(name, *gen(rng, i), _scale_label(name, i)) for name, gen in FAMILIES.items() for i in range(n_each)]


def _scale_label(family, i):
    """The scale `_scale` gives row i of a hard family: "2^40", "2^-40" or "1"."""
    if "random" in family or (family == "convex-convex" and i % 3 == 0) or i % 4 != 3:
        return "1"
    return "2^40" if i % 8 == 3 else "2^-40"


def compare_rounded(cases):
    """coal against the exact answers on the rounded cases: (counts by family
    and kind, disagreement lines, the exact answers)."""
    creq, dreq = coal.CollisionRequest(), coal.DistanceRequest()
    coll, dist = [], []
    for _, _, sa, sb, _ in cases:
        ga, ta = coal_geometry(sa)
        gb, tb = coal_geometry(sb)
        coll.append(coal.collide(ga, ta, gb, tb, creq, coal.CollisionResult()) > 0)
        dist.append(coal.distance(ga, ta, gb, tb, dreq, coal.DistanceResult()))
    exact = [json.loads(a) for a in ec.answer_lines(
        [json.dumps({"op": "distance", "a": a.protocol(), "b": b.protocol()}) for _, _, a, b, _ in cases])]
    counts, out = Counter(), []
    for i, ((fam, expected, sa, sb, scale), ans) in enumerate(zip(cases, exact)):
        a, b = sa.protocol(), sb.protocol()
        meet = ans["intersect"]
        if expected is not None:  # the construction's answer, independent of the library
            assert meet == (expected != "apart"), (fam, expected, ans)
        meta = {"peer": "coal", "family": fam, "case": expected or "random", "scale": scale, "row": i,
                "coal_distance": float(dist[i])}
        li = json.dumps({"op": "intersect", "a": a, "b": b,
                         "claim": {"intersect": bool(coll[i])}, "meta": meta})
        ld = json.dumps({"op": "distance", "a": a, "b": b,
                         "claim": {"distance_f64": max(float(dist[i]), 0.0), "rel_tol": REL_TOL}, "meta": meta})
        vi, vd = (json.loads(v)["verdict"] for v in ec.answer_lines([li, ld]))
        counts[f"{fam}: pairs"] += 1
        assert (vi == "agree") == (bool(coll[i]) == meet), (vi, li)
        if vi == "disagree":
            counts[f"{fam}: collide_false_{'positive' if coll[i] else 'negative'}"] += 1
            out.append(li)
        else:
            assert vi == "agree", li
        if vd == "disagree":
            if float(dist[i]) < -1 and not meet:
                kind = "distance_far_negative_when_apart"
            elif max(float(dist[i]), 0.0) == 0:
                kind = "distance_zero_when_apart"
            elif meet:
                kind = "distance_positive_when_touching"
            else:
                kind = "distance_off"
            counts[f"{fam}: {kind}"] += 1
            out.append(ld)
        else:
            assert vd == "agree", ld
    return counts, out, exact


def run_rounded(n_each=60, seed=20261128):
    return compare_rounded(rounded_cases(np.random.default_rng(seed), n_each))


def test_coal_rounded_against_exact():
    counts, lines, _ = run_rounded(n_each=24)
    assert all(counts[f"{f}: pairs"] == 24 for f in FAMILIES)
    # coal 3.0.3 calls shapes one ulp apart colliding (its GJK works to a
    # tolerance): disagreements occur, each judged "disagree" when read back.
    assert sum(v for k, v in counts.items() if k.endswith("collide_false_positive")) > 0
    for a in ec.answer_lines(lines):
        assert json.loads(a)["verdict"] == "disagree", a


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
