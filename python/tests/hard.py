"""Generated hard cases: touching, coplanar, one-ulp gaps, shared features."""

from pathlib import Path

import numpy as np

UP, DOWN = np.inf, -np.inf


def ulp(x, toward):
    return np.nextafter(x, toward)


def triangle_pairs(rng, n=400):
    a, b = [], []
    grid = lambda *s: rng.integers(-8, 9, size=s) / 8.0  # dyadic: midpoints exact
    for i in range(n):
        k = i % 10
        t = grid(3, 3)
        if k == 0:  # random
            u = rng.uniform(-1, 1, (3, 3))
        elif k == 1:  # coplanar (z = const), overlapping or not
            t[:, 2] = 0.25
            u = grid(3, 3)
            u[:, 2] = 0.25
        elif k == 2:  # sharing a vertex
            u = grid(3, 3)
            u[0] = t[rng.integers(3)]
        elif k == 3:  # a vertex of u at the midpoint of an edge of t
            u = grid(3, 3)
            j = rng.integers(3)
            u[0] = (t[j] + t[(j + 1) % 3]) / 2
        elif k == 4:  # one ulp above / below the plane z = 1 of t
            t[:, 2] = 1.0
            u = grid(3, 3)
            u[:, 2] = rng.uniform(1, 2, 3)
            u[0] = [0.0, 0.0, ulp(1.0, UP) if i % 20 < 10 else 1.0]
            t[0, :2], t[1, :2], t[2, :2] = [-1, -1], [1, -1], [0, 1]
        elif k == 5:  # a vertex one ulp inside / outside an edge of a coplanar triangle
            t = np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
            y = ulp(0.0, DOWN) if i % 20 < 10 else ulp(0.0, UP)
            u = np.array([[0.5, y, 0.0], [0.5, -1.0, 0.0], [1.5, -1.0, 0.0]])
        elif k == 6:  # identical
            u = t.copy()
        elif k == 7:  # shared edge, folded
            u = grid(3, 3)
            u[0], u[1] = t[0], t[1]
        elif k == 8:  # crossing, far from the origin (large exponents)
            t = rng.uniform(-1, 1, (3, 3)) * 1e30
            u = t + rng.uniform(-1, 1, (3, 3)) * 1e29
        else:  # tiny
            t = rng.uniform(-1, 1, (3, 3)) * 1e-30
            u = t + rng.uniform(-1, 1, (3, 3)) * 1e-31
        a.append(t)
        b.append(u)
    return np.array(a, dtype=np.float64), np.array(b, dtype=np.float64)


def rotation(rng):
    q, _ = np.linalg.qr(rng.normal(size=(3, 3)))
    return q


def box_pairs(rng, n=400):
    a, b = [], []
    for i in range(n):
        k = i % 6
        if k == 0:  # random rotated boxes
            x = np.vstack([rng.uniform(-1, 1, 3), rotation(rng) * rng.uniform(0.1, 1, 3)[:, None]])
            y = np.vstack([rng.uniform(-1, 1, 3), rotation(rng) * rng.uniform(0.1, 1, 3)[:, None]])
        elif k in (1, 2):  # axis-aligned faces touching, or one ulp apart
            h = np.diag([0.5, 0.5, 0.5])
            x = np.vstack([[0.0, 0.0, 0.0], h])
            gap = 1.0 if k == 1 else ulp(1.0, UP)
            y = np.vstack([[gap, rng.uniform(-0.9, 0.9), rng.uniform(-0.9, 0.9)], h])
        elif k == 3:  # one ulp overlap
            h = np.diag([0.5, 0.5, 0.5])
            x = np.vstack([[0.0, 0.0, 0.0], h])
            y = np.vstack([[ulp(1.0, DOWN), 0.25, 0.0], h])
        elif k == 4:  # a 45-degree box whose edge touches a face (dyadic half-axes)
            x = np.vstack([[0.0, 0.0, 0.0], np.diag([0.5, 0.5, 0.5])])
            y = np.vstack([[1.0, 0.0, 0.0], [[0.5, 0.5, 0.0], [-0.5, 0.5, 0.0], [0.0, 0.0, 0.25]]])
            if i % 12 >= 6:
                y[0, 0] = ulp(1.0, UP)
        else:  # parallelepipeds (sheared), random
            x = np.vstack([rng.uniform(-1, 1, 3), rng.uniform(-1, 1, (3, 3))])
            y = np.vstack([rng.uniform(-1, 1, 3), rng.uniform(-1, 1, (3, 3))])
        a.append(x)
        b.append(y)
    return np.array(a, dtype=np.float64), np.array(b, dtype=np.float64)


SHARED = Path(__file__).resolve().parents[2] / ".." / "shared"


def shared_dir():
    """../shared beside the repository (as in CI), else /work/shared."""
    for p in (SHARED.resolve(), Path("/work/shared")):
        if (p / "ccd-benchmark").is_dir():
            return p
    raise FileNotFoundError("shared/ccd-benchmark not found beside the repository")


def ccd_pairs(rng, n=200):
    """Random and hard vertex-face / edge-edge motions."""
    t0 = rng.uniform(-1, 1, (n, 4, 3))
    t1 = t0 + rng.uniform(-1, 1, (n, 4, 3))
    for i in range(0, n, 4):
        # a vertex falling exactly onto a face vertex / edge at t = 1, or one ulp short
        t0[i, 1:] = [[0, 0, 0], [1, 0, 0], [0, 1, 0]]
        t1[i, 1:] = t0[i, 1:]
        t0[i, 0] = [0.5, 0.0, 1.0]
        t1[i, 0] = [0.5, 0.0, 0.0 if i % 8 == 0 else ulp(0.0, UP)]
    return t0, t1
