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
