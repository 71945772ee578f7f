"""Every NumPy batch function equals the protocol's answer for the same inputs."""

import json
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import exact_collision as ec
from exact_collision import ccd_csv
from conftest import box_shape, nearest, protocol, protocol_ccd, tri_shape
import hard


def check_intersect(fn, shape, a, b):
    want = protocol("intersect", a, b, shape)
    if any("error" in w for w in want):
        i = next(i for i, w in enumerate(want) if "error" in w)
        with pytest.raises(ec.QueryError, match=f"row {i}"):
            fn(a, b)
        return 0
    hits, certs = fn(a, b, certificates=True)
    assert hits.dtype == np.bool_ and hits.shape == (len(a),)
    assert (fn(a, b) == hits).all()
    for i, w in enumerate(want):
        assert hits[i] == w["intersect"], i
        cert = w["witness"] if w["intersect"] else w["separating_axis"]
        assert certs[i] == tuple(cert), i
    return int(hits.sum())


def check_distance(fn, shape, a, b):
    want = protocol("distance", a, b, shape)
    if any("error" in w for w in want):
        i = next(i for i, w in enumerate(want) if "error" in w)
        with pytest.raises(ec.QueryError, match=f"row {i}"):
            fn(a, b)
        return
    d = fn(a, b)
    for i, w in enumerate(want):
        assert d["distance_squared"][i] == w["distance_squared"], i
        assert d["distance_squared_f64"][i] == nearest(w["distance_squared"]), i
        assert d["distance_squared_f64"][i] == w["distance_squared_f64"], i
        assert d["distance_f64"][i] == w["distance_f64"], i
        pa, pb = w["closest"]
        assert d["closest_a"][i].tolist() == [nearest(s) for s in pa], i
        assert d["closest_b"][i].tolist() == [nearest(s) for s in pb], i


def check_ccd(fn, op, t0, t1):
    want = protocol_ccd(op, t0, t1)
    r = fn(t0, t1, exact=True)
    for i, w in enumerate(want):
        assert "error" not in w, w
        assert r["hit"][i] == w["hit"], i
        if not w["hit"]:
            assert np.isnan(r["toi"][i]) and r["toi_lo_exact"][i] is None
            continue
        toi = w["toi"]
        assert r["toi_lo_exact"][i] == toi["lo"] and r["toi_hi_exact"][i] == toi["hi"], i
        assert r["toi"][i] == toi["f64"], i
        assert r["start"][i] == (toi["kind"] == "start"), i
        lo, hi = Fraction(toi["lo"]), Fraction(toi["hi"])
        # outward rounding: the doubles enclose [lo, hi], each the tightest
        assert Fraction(r["toi_lo"][i]) <= lo < Fraction(np.nextafter(r["toi_lo"][i], np.inf))
        assert Fraction(np.nextafter(r["toi_hi"][i], -np.inf)) < hi <= Fraction(r["toi_hi"][i])
    return int(r["hit"].sum())


def test_triangles_hard_cases(rng):
    a, b = hard.triangle_pairs(rng)
    hits = check_intersect(ec.intersect_triangles, tri_shape, a, b)
    assert 0 < hits < len(a)  # both answers occur
    check_distance(ec.distance_triangles, tri_shape, a, b)


def test_triangle_hard_cases_by_hand():
    """Answers known without the library: touching counts, one ulp apart does not."""
    t = np.array([[0.0, 0, 0], [1, 0, 0], [0, 1, 0]])
    below = np.nextafter(0.0, -1)
    cases = [  # (b, intersects, exact squared distance)
        ([[0.5, 0, 0], [0.5, -1, 0], [1.5, -1, 0]], True, "0"),  # coplanar, vertex on edge
        ([[0.5, below, 0], [0.5, -1, 0], [1.5, -1, 0]], False, str(Fraction(below) ** 2)),
        ([[0.25, 0.25, 2.0**-60], [0.25, 0.25, 1], [1, 1, 1]], False, str(Fraction(2) ** -120)),
        ([[0.25, 0.25, 0], [0.25, 0.25, 1], [1, 1, 1]], True, "0"),  # vertex in the face
    ]
    a = np.array([t] * len(cases))
    b = np.array([c[0] for c in cases], dtype=float)
    assert ec.intersect_triangles(a, b).tolist() == [c[1] for c in cases]
    assert ec.distance_triangles(a, b)["distance_squared"] == [c[2] for c in cases]


def test_boxes_hard_cases(rng):
    a, b = hard.box_pairs(rng)
    hits = check_intersect(ec.intersect_boxes, box_shape, a, b)
    assert 0 < hits < len(a)
    check_distance(ec.distance_boxes, box_shape, a, b)


def test_box_hard_cases_by_hand():
    h = np.diag([0.5, 0.5, 0.5])
    up = np.nextafter(1.0, 2)
    a = np.array([np.vstack([[0.0, 0, 0], h])] * 3)
    b = np.array([np.vstack([[x, 0.25, 0], h]) for x in (1.0, up, np.nextafter(1.0, 0))])
    assert ec.intersect_boxes(a, b).tolist() == [True, False, True]
    gap = Fraction(up) - 1
    assert ec.distance_boxes(a, b)["distance_squared"] == ["0", str(gap * gap), "0"]


def test_ccd_hard_cases(rng):
    t0, t1 = hard.ccd_pairs(rng)
    assert check_ccd(ec.ccd_vf, "ccd_vf", t0, t1) > 0
    check_ccd(ec.ccd_ee, "ccd_ee", t0, t1)


@pytest.mark.parametrize("kind,fn,op", [("vertex-face", ec.ccd_vf, "ccd_vf"), ("edge-edge", ec.ccd_ee, "ccd_ee")])
def test_ccd_benchmark_unit_tests(kind, fn, op):
    """The benchmark's hand-made degenerate queries (unit-tests), every one a double."""
    d = hard.shared_dir() / "ccd-benchmark" / "unit-tests" / kind
    for path in sorted(d.glob("*.csv")):
        t0, t1, truth, exact = ccd_csv.read(path)
        assert exact, path
        check_ccd(fn, op, t0, t1)


# Coordinates drawn from few values, so that degeneracies are common.
coord = st.one_of(
    st.sampled_from([0.0, 1.0, -1.0, 0.5, 0.25, 0.1, np.nextafter(0.0, 1), np.nextafter(1.0, 2), np.nextafter(1.0, 0)]),
    st.floats(-4, 4, allow_nan=False, allow_infinity=False, width=64),
)


def rows(r):
    return st.lists(st.lists(st.lists(coord, min_size=3, max_size=3), min_size=r, max_size=r), min_size=1, max_size=8)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_property_triangles(data):
    a = np.array(data.draw(rows(3)), dtype=np.float64)
    # b: a with some vertices replaced by fresh ones (shared features are common)
    fresh = np.array(data.draw(st.lists(st.lists(st.lists(coord, min_size=3, max_size=3), min_size=3, max_size=3), min_size=len(a), max_size=len(a))))
    mask = np.array(data.draw(st.lists(st.booleans(), min_size=len(a) * 3, max_size=len(a) * 3))).reshape(len(a), 3)
    b = np.where(mask[:, :, None], fresh, a)
    check_intersect(ec.intersect_triangles, tri_shape, a, b)
    check_distance(ec.distance_triangles, tri_shape, a, b)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_property_boxes(data):
    a = np.array(data.draw(rows(4)), dtype=np.float64)
    b = np.array(data.draw(st.lists(st.lists(st.lists(coord, min_size=3, max_size=3), min_size=4, max_size=4), min_size=len(a), max_size=len(a))))
    check_intersect(ec.intersect_boxes, box_shape, a, b)
    check_distance(ec.distance_boxes, box_shape, a, b)


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_property_ccd(data):
    t0 = np.array(data.draw(rows(4)), dtype=np.float64)
    t1 = np.array(data.draw(st.lists(st.lists(st.lists(coord, min_size=3, max_size=3), min_size=4, max_size=4), min_size=len(t0), max_size=len(t0))))
    check_ccd(ec.ccd_vf, "ccd_vf", t0, t1)
    check_ccd(ec.ccd_ee, "ccd_ee", t0, t1)


def test_threads_and_layouts_agree(rng):
    a, b = hard.triangle_pairs(rng, 100)
    base = ec.distance_triangles(a, b)
    one = ec.distance_triangles(a, b, threads=1)
    assert one["distance_squared"] == base["distance_squared"]
    # float32 inputs are widened exactly: the same as their float64 values
    a32, b32 = a.astype(np.float32), b.astype(np.float32)
    assert ec.distance_triangles(a32, b32)["distance_squared"] == ec.distance_triangles(
        a32.astype(np.float64), b32.astype(np.float64)
    )["distance_squared"]
    # a strided (non-contiguous) view reads the same values as its copy
    big = np.concatenate([a, a], axis=0)[::2]
    assert not big.flags.c_contiguous
    assert ec.intersect_triangles(big, b[: len(big)]).tolist() == ec.intersect_triangles(
        np.ascontiguousarray(big), b[: len(big)]
    ).tolist()
    # empty batches
    e = np.zeros((0, 3, 3))
    assert ec.intersect_triangles(e, e).shape == (0,)
    assert ec.distance_triangles(e, e)["distance_squared"] == []


def test_answer_lines_equals_answer():
    lines = [
        json.dumps({"id": 1, "op": "distance", "a": tri_shape([[0, 0, 0], [1, 0, 0], [0, 1, 0]]), "b": tri_shape([[0, 0, 2], [1, 0, 2], [0, 1, 2]])}),
        "{not json",
        "",
        '{"id":3,"op":"intersect"}',
    ]
    out = ec.answer_lines([s + "\n" for s in lines], first_line=10)
    assert out == [ec.answer(s, n) for n, s in enumerate(lines, start=10)]
    assert out[0].startswith('{"id":1,"distance_squared":"4",')  # the planes z = 0 and z = 2
    assert json.loads(out[1]) ["line"] == 11
    assert ec.answer_lines([s.encode() for s in lines], first_line=10) == out
