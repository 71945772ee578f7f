"""Engine-neutral shapes: what a case holds, and the exact protocol shape of it.

Every shape is a set defined by doubles: a sphere (center ``c``, radius ``r``),
a capsule (the segment ``c ± h·R[:, 2]`` grown by ``r``), a box
(``{c + R·diag(e)·s : |s|∞ ≤ 1}``), a convex hull of points given in world
coordinates (``flat``: coplanar, listed in convex order), a triangle. ``R`` is
used as given (a double matrix); the protocol form is computed from it exactly
(capsule end points and box half-axes as exact rational strings), so the exact
judge sees the very set the engines are given, never a rounded copy.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

KINDS = ("box", "sphere", "capsule", "convex", "triangle")


def _fs(f: Fraction) -> str:
    return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"


class Shape:
    """One shape of a case (see the module's docstring for the sets)."""

    def __init__(self, kind, center=None, R=None, half=None, h=0.0, radius=0.0, points=None, flat=False,
                 margin=0.0, exact_points=None):
        assert kind in KINDS, kind
        self.kind = kind
        self.center = None if center is None else np.array(center, dtype=float)
        self.R = np.eye(3) if R is None else np.array(R, dtype=float)
        self.half = None if half is None else np.array(half, dtype=float)
        self.h = float(h)
        self.radius = float(radius)
        self.points = None if points is None else np.array(points, dtype=float)
        self.flat = bool(flat)
        # a box or hull grown by a ball of this radius (an engine's collision
        # margin, set by the adapter that models it; 0 for the cases)
        self.margin = float(margin)
        # a hull's points as exact strings, when an adapter states a set that
        # doubles cannot (MuJoCo's float32 mesh moved by a double pose);
        # ``points`` then holds their nearest doubles, for drawing
        self.exact_points = exact_points

    def protocol(self) -> dict:
        """The exact protocol shape of this set."""
        k = self.kind
        if k == "sphere":
            return {"type": "sphere", "center": [float(x) for x in self.center], "radius": self.radius}
        if k == "capsule":
            def end(s):
                return [_fs(Fraction(float(c)) + s * Fraction(self.h) * Fraction(float(u)))
                        for c, u in zip(self.center, self.R[:, 2])]
            return {"type": "capsule", "a": end(-1), "b": end(1), "radius": self.radius}
        if k == "box":
            out = {"type": "box", "center": [float(x) for x in self.center],
                   "half_axes": [[_fs(Fraction(float(self.half[i])) * Fraction(float(self.R[j, i])))
                                  for j in range(3)] for i in range(3)]}
        elif k == "convex" and self.exact_points is not None:
            out = {"type": "convex", "points": [list(p) for p in self.exact_points]}
        elif k == "convex":
            out = {"type": "convex", "points": [[float(x) for x in p] for p in self.points]}
        else:
            out = {"type": "triangle", "v": [[float(x) for x in p] for p in self.points]}
        if self.margin:
            out["radius"] = self.margin
        return out

    def corners(self) -> np.ndarray:
        """Points whose hull is the shape's core (drawing only: floats)."""
        if self.kind == "box":
            s = np.array([(x, y, z) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], dtype=float)
            return self.center + (s * self.half) @ self.R.T
        if self.kind == "capsule":
            u = self.R[:, 2] * self.h
            return np.array([self.center - u, self.center + u])
        if self.kind == "sphere":
            return self.center[None, :]
        return self.points

    def with_(self, **kw) -> "Shape":
        d = dict(kind=self.kind, center=self.center, R=self.R, half=self.half, h=self.h, radius=self.radius,
                 points=self.points, flat=self.flat, margin=self.margin, exact_points=self.exact_points)
        d.update(kw)
        return Shape(**d)


def sphere(c, r) -> Shape:
    return Shape("sphere", center=c, radius=r)


def capsule(c, h, R, r) -> Shape:
    """The segment c ± h·R[:, 2] grown by r."""
    return Shape("capsule", center=c, R=R, h=h, radius=r)


def box(c, e, R) -> Shape:
    return Shape("box", center=c, R=R, half=e)


def convex(points, flat=False) -> Shape:
    return Shape("convex", points=points, flat=flat)


def triangle(v) -> Shape:
    return Shape("triangle", points=v)
