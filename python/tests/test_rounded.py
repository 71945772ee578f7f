"""Sphere and capsule batches against values worked by hand and the protocol."""

import json
from fractions import Fraction

import numpy as np
import pytest

import exact_collision as ec


def test_capsules_by_hand():
    # Parallel axes one apart, radii 1/2 and 1/4: distance 1/4, apart.
    a = np.array([[[0, 0, 0], [1, 0, 0]], [[0, 0, 0], [1, 0, 0]]], dtype=float)
    b = a + [0, 1, 0]
    d = ec.distance_capsules(a, np.array([0.5, 0.5]), b, np.array([0.25, 0.5]))
    assert d["distance_f64"].tolist() == [0.25, 0.0]
    assert d["intersect"].tolist() == [False, True]  # the second pair touches
    assert d["distance_sqrt"] == ["1", "1"]
    assert d["distance_minus"] == ["3/4", "1"]


def test_spheres_irrational_distance_is_the_nearest_double():
    d = ec.distance_spheres(
        np.zeros((1, 3)), np.array([1.0]), np.array([[1.0, 1.0, 0.0]]), np.array([0.0])
    )
    # sqrt(2) - 1 = 0.41421356237309504880...: its nearest double.
    assert float(d["distance_f64"][0]) == float("0.41421356237309504880168872420969807856967")
    assert (d["distance_sqrt"], d["distance_minus"]) == (["2"], ["1"])


def test_batches_equal_the_protocol():
    rng = np.random.default_rng(5)
    a = rng.uniform(-2, 2, (50, 2, 3))
    b = rng.uniform(-2, 2, (50, 2, 3))
    ra, rb = rng.uniform(0, 0.5, 50), rng.uniform(0, 0.5, 50)
    d = ec.distance_capsules(a, ra, b, rb)
    for i in range(50):
        line = json.dumps(
            {
                "op": "distance",
                "a": {"type": "capsule", "a": a[i, 0].tolist(), "b": a[i, 1].tolist(), "radius": ra[i]},
                "b": {"type": "capsule", "a": b[i, 0].tolist(), "b": b[i, 1].tolist(), "radius": rb[i]},
            }
        )
        ans = json.loads(ec.answer(line, 1))
        assert ans["distance_f64"] == d["distance_f64"][i]
        assert ans["intersect"] == bool(d["intersect"][i])
        assert ans["distance"] == {"sqrt": d["distance_sqrt"][i], "minus": d["distance_minus"][i]}
        # R is the exact sum of the two doubles.
        assert Fraction(d["distance_minus"][i]) == Fraction(ra[i]) + Fraction(rb[i])


def test_bad_radii_are_errors():
    a = np.zeros((1, 2, 3))
    with pytest.raises(ValueError, match="radius must be finite and at least 0"):
        ec.distance_capsules(a, np.array([-1.0]), a, np.array([0.0]))
    with pytest.raises(ValueError, match=r"expected shape \(1,\)"):
        ec.distance_capsules(a, np.array([1.0, 2.0]), a, np.array([0.0]))


# An independent exact reference for the capsule batches: the squared distance
# of two closed segments in Fractions, by minimising |p(s) - q(t)|² over the
# unit square (a convex quadratic): its minimum is at the interior stationary
# point when that lies inside, else on an edge, where it is a point-segment
# distance (a clamped one-dimensional minimum).


def _sub(p, q):
    return [x - y for x, y in zip(p, q)]


def _dot(p, q):
    return sum(x * y for x, y in zip(p, q))


def _point_segment(p, a, b):
    d = _sub(b, a)
    dd = _dot(d, d)
    t = Fraction(0) if dd == 0 else min(Fraction(1), max(Fraction(0), _dot(_sub(p, a), d) / dd))
    x = _sub(p, [ai + t * di for ai, di in zip(a, d)])
    return _dot(x, x)


def _segment_segment(a0, a1, b0, b1):
    cands = [_point_segment(a0, b0, b1), _point_segment(a1, b0, b1), _point_segment(b0, a0, a1), _point_segment(b1, a0, a1)]
    u, v, w = _sub(a1, a0), _sub(b1, b0), _sub(a0, b0)
    a, b, c, d, e = _dot(u, u), _dot(u, v), _dot(v, v), _dot(u, w), _dot(v, w)
    den = a * c - b * b
    if den != 0:
        s, t = (b * e - c * d) / den, (a * e - b * d) / den
        if 0 <= s <= 1 and 0 <= t <= 1:
            x = [wi + s * ui - t * vi for wi, ui, vi in zip(w, u, v)]
            cands.append(_dot(x, x))
    return min(cands)


def _fr(points):
    """(2, 3) end points as two exact points."""
    return [[Fraction(float(x)) for x in p] for p in points]


def _hard_capsules():
    """Rows (a, ra, b, rb) whose answers are known by construction: touching
    exactly (q = R²), one ulp apart, one ulp overlapping; parallel, collinear
    and crossing axes; length 0 and radius 0."""
    seg = [[0, 0, 0], [1, 0, 0]]
    rows = []
    for step, meet in [(0, True), (-1, False), (1, True)]:
        ulp = lambda x: x if step == 0 else np.nextafter(x, np.inf * step)
        rows.append((seg, 0.5, [[0.25, 1, 0], [2, 1, 0]], ulp(0.5), meet))  # parallel, 1 apart
        rows.append((seg, 0.5, [[2, 0, 0], [3, 0, 0]], ulp(0.5), meet))  # collinear, 1 apart
        rows.append((seg, 0.5, [[0.5, -1, 1], [0.5, 1, 1]], ulp(0.5), meet))  # crossing, 1 above
        # radius 0 (a segment) and a sphere 5/4 = |(3/4, 1)| off it
        rows.append((seg, 0.0, [[0.5, 0.75, 1], [0.5, 0.75, 1]], ulp(1.25), meet))
        # length 0 and a sphere: centers |(3, 4, 12)| = 13 apart
        rows.append(([[0, 0, 0], [0, 0, 0]], 0.5, [[3, 4, 12], [3, 4, 12]], ulp(12.5), meet))
    return rows


def test_intersect_capsules_against_an_independent_reference():
    rng = np.random.default_rng(21)
    hard = _hard_capsules()
    rand = [(rng.uniform(-1, 1, (2, 3)), rng.uniform(0, 1), rng.uniform(-1, 1, (2, 3)), rng.uniform(0, 1), None)
            for _ in range(80)]
    rows = hard + rand
    a = np.array([r[0] for r in rows], dtype=float)
    ra = np.array([r[1] for r in rows], dtype=float)
    b = np.array([r[2] for r in rows], dtype=float)
    rb = np.array([r[3] for r in rows], dtype=float)
    hits, certs = ec.intersect_capsules(a, ra, b, rb, certificates=True)
    assert ec.intersect_capsules(a, ra, b, rb, threads=1).tolist() == hits.tolist()
    d = ec.distance_capsules(a, ra, b, rb)
    for i, row in enumerate(rows):
        q = _segment_segment(*_fr(a[i]), *_fr(b[i]))
        R = Fraction(float(ra[i])) + Fraction(float(rb[i]))
        assert Fraction(d["distance_sqrt"][i]) == q
        assert bool(hits[i]) == (q <= R * R) == bool(d["intersect"][i])
        if row[4] is not None:  # the answer known by construction
            assert bool(hits[i]) == row[4], i
        c = certs[i]
        if hits[i]:
            # the witness lies in both capsules, exactly
            w = [Fraction(x) for x in c["witness"]]
            assert _point_segment(w, *_fr(a[i])) <= Fraction(float(ra[i])) ** 2
            assert _point_segment(w, *_fr(b[i])) <= Fraction(float(rb[i])) ** 2
        else:
            pa, pb = ([Fraction(x) for x in p] for p in c["core_closest"])
            assert _point_segment(pa, *_fr(a[i])) == 0 and _point_segment(pb, *_fr(b[i])) == 0
            assert _dot(_sub(pa, pb), _sub(pa, pb)) == q == Fraction(c["core_distance_squared"])
            assert Fraction(c["radius"]) == R and q > R * R


def test_intersect_spheres_by_hand():
    # Centers 13 apart (3, 4, 12): touching at radii 6 + 7, one ulp apart or overlapping.
    c = np.zeros((4, 3))
    d = np.array([[3.0, 4.0, 12.0]] * 4)
    ra = np.array([6.0, 6.0, 6.0, 0.0])
    rb = np.array([7.0, np.nextafter(7.0, 0), np.nextafter(7.0, 8), 13.0])  # last: a point on b's sphere
    hits, certs = ec.intersect_spheres(c, ra, d, rb, certificates=True)
    assert hits.tolist() == [True, False, True, True]
    # witness c + (ra/R)(d - c): 6/13 of the way
    assert certs[0] == {"witness": ("18/13", "24/13", "72/13")}
    assert certs[3] == {"witness": ("0", "0", "0")}
    assert certs[1]["core_closest"] == (("0", "0", "0"), ("3", "4", "12"))
    assert certs[1]["core_distance_squared"] == "169"
    assert Fraction(certs[1]["radius"]) == 6 + Fraction(float(rb[1]))
    assert ec.intersect_spheres(c[:0], ra[:0], d[:0], rb[:0]).shape == (0,)


def test_intersect_batches_equal_the_protocol():
    rng = np.random.default_rng(8)
    a = rng.integers(-4, 5, (40, 2, 3)) / 4.0
    b = rng.integers(-4, 5, (40, 2, 3)) / 4.0
    ra, rb = rng.integers(0, 5, 40) / 8.0, rng.integers(0, 5, 40) / 8.0
    hits, certs = ec.intersect_capsules(a, ra, b, rb, certificates=True)
    shp = lambda p, r: {"type": "capsule", "a": p[0].tolist(), "b": p[1].tolist(), "radius": r}
    lines = [json.dumps({"op": "intersect", "a": shp(a[i], ra[i]), "b": shp(b[i], rb[i])}) for i in range(40)]
    for i, ans in enumerate(ec.answer_lines(lines)):
        ans = json.loads(ans)
        assert ans["intersect"] == bool(hits[i])
        if hits[i]:
            assert ans["witness"] == list(certs[i]["witness"])
        else:
            assert ans["core_closest"] == [list(p) for p in certs[i]["core_closest"]]
            assert ans["core_distance_squared"] == certs[i]["core_distance_squared"]
            assert ans["radius"] == certs[i]["radius"]
    sh, sc = ec.intersect_spheres(a[:, 0], ra, b[:, 0], rb, certificates=True)
    lines = [json.dumps({"op": "intersect", "a": {"type": "sphere", "center": a[i, 0].tolist(), "radius": ra[i]},
                         "b": {"type": "sphere", "center": b[i, 0].tolist(), "radius": rb[i]}}) for i in range(40)]
    for i, ans in enumerate(ec.answer_lines(lines)):
        ans = json.loads(ans)
        assert ans["intersect"] == bool(sh[i])
        assert ans.get("witness") == (list(sc[i]["witness"]) if sh[i] else None)


def test_intersect_errors_name_the_field_and_row():
    c = np.zeros((3, 3))
    ok = np.ones(3)
    with pytest.raises(ValueError, match=r"row 2: rb\[2\] is -0.5 \(a radius must be finite and at least 0\)"):
        ec.intersect_spheres(c, ok, c, np.array([1.0, 0.0, -0.5]))
    with pytest.raises(ValueError, match=r"row 1: ra\[1\] is NaN"):
        ec.intersect_capsules(np.zeros((3, 2, 3)), np.array([1.0, np.nan, 1.0]), np.zeros((3, 2, 3)), ok)
    with pytest.raises(ValueError, match=r"ca: expected shape \(n, 3\), got \[3, 2\]"):
        ec.intersect_spheres(np.zeros((3, 2)), ok, c, ok)
    with pytest.raises(ValueError, match="ca has 3 rows but cb has 2"):
        ec.intersect_spheres(c, ok, c[:2], ok)
    with pytest.raises(ValueError, match=r"b: expected shape \(n, 2, 3\)"):
        ec.intersect_capsules(np.zeros((3, 2, 3)), ok, np.zeros((3, 3, 3)), ok)
    with pytest.raises(TypeError, match="rb: expected a numpy.ndarray"):
        ec.intersect_capsules(np.zeros((3, 2, 3)), ok, np.zeros((3, 2, 3)), [1.0, 1.0, 1.0])


def test_sphere_centers_errors_name_the_element():
    c = np.zeros((2, 3))
    c[1, 2] = np.inf
    r = np.ones(2)
    with pytest.raises(ValueError, match=r"row 1: cb\[1, 2\] is inf \(inputs must be finite\)"):
        ec.distance_spheres(np.zeros((2, 3)), r, c, r)
    with pytest.raises(TypeError, match=r"ca: expected a numpy.ndarray of float64 with shape \(n, 3\), got list"):
        ec.intersect_spheres([[0.0, 0.0, 0.0]], r[:1], c[:1], r[:1])
    with pytest.raises(ValueError, match=r"cb: expected shape \(n, 3\), got \[2, 1, 3\]"):
        ec.intersect_spheres(np.zeros((2, 3)), r, np.zeros((2, 1, 3)), r)
