"""The faces of the exact convex hull of a few dozen double points, for an
engine that wants a hull as vertices and faces (python-fcl's ``Convex``).

Exact: every double is a dyadic rational, so the points, scaled by one common
power of two, are integers, and every orientation test below is an integer
determinant (Python ints), never a float. The hull is found by brute force,
which suits the scoreboard's inputs (at most a few dozen points): a triple of
points spans a face plane when no point lies strictly on one side of it; the
points on the plane are wrapped into the face's polygon (its corners only:
points inside the face or on an edge are dropped), counterclockwise seen from
outside, and the polygon is fanned into triangles. A flat input (all points
coplanar) gives its polygon twice, once per side. A segment or a point (no
three points span a plane) has no faces: ``None``.
"""

from __future__ import annotations

from fractions import Fraction
from math import gcd


def _ints(points):
    """The points as integer triples, all scaled by one power of two."""
    fr = [[Fraction(float(x)) for x in p] for p in points]
    den = 1
    for p in fr:
        for x in p:
            den = max(den, x.denominator)  # all powers of two: the max is the lcm
    return [tuple(int(x * den) for x in p) for p in fr]


def _sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def _cross(u, v):
    return (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])


def _dot(u, v):
    return u[0] * v[0] + u[1] * v[1] + u[2] * v[2]


def _wrap(P, idx, n):
    """The corners of the convex polygon of the coplanar points ``idx`` (in
    the plane of normal ``n``), counterclockwise seen from the side ``n``
    points to (gift wrapping with exact turns)."""
    idx = sorted(set(idx), key=lambda i: P[i])
    start = idx[0]  # the lexicographic least point is a corner
    out, cur = [start], start
    while True:
        nxt = None
        for q in idx:
            if q == cur:
                continue
            if nxt is None:
                nxt = q
                continue
            t = _dot(n, _cross(_sub(P[nxt], P[cur]), _sub(P[q], P[cur])))
            # q right of cur→nxt: q wraps tighter; collinear: take the farther
            if t < 0 or (t == 0 and _dot(_sub(P[q], P[cur]), _sub(P[q], P[cur]))
                         > _dot(_sub(P[nxt], P[cur]), _sub(P[nxt], P[cur]))):
                nxt = q
        if nxt is None or nxt == start:
            return out
        out.append(nxt)
        cur = nxt
        if len(out) > len(idx):  # cannot happen with exact turns
            raise AssertionError("gift wrapping did not close")


def _fan(poly):
    return [(poly[0], poly[k], poly[k + 1]) for k in range(1, len(poly) - 1)]


def hull_faces(points):
    """``(vertices, triangles)`` of the convex hull of ``points``: the hull's
    corners (a subset of the input, as given) and triangles as index triples
    into ``vertices``, each counterclockwise seen from outside (its normal
    (v1 − v0) × (v2 − v0) points out). ``None`` when the points span no plane."""
    P = _ints(points)
    # distinct points only (the first of equal ones)
    first = {}
    for i, p in enumerate(P):
        first.setdefault(p, i)
    ids = sorted(first.values())
    faces = {}  # frozenset of the points on a face plane -> outward normal
    plane_n = None
    m = len(ids)
    for x in range(m):
        for y in range(x + 1, m):
            for z in range(y + 1, m):
                i, j, k = ids[x], ids[y], ids[z]
                n = _cross(_sub(P[j], P[i]), _sub(P[k], P[i]))
                if n == (0, 0, 0):
                    continue
                if plane_n is None:
                    plane_n = n
                s = [_dot(n, _sub(P[q], P[i])) for q in ids]
                if all(v <= 0 for v in s):
                    out = n
                elif all(v >= 0 for v in s):
                    out = (-n[0], -n[1], -n[2])
                else:
                    continue
                on = frozenset(q for q, v in zip(ids, s) if v == 0)
                if on not in faces:
                    g = gcd(gcd(abs(out[0]), abs(out[1])), abs(out[2]))
                    faces[on] = (out[0] // g, out[1] // g, out[2] // g)
    if plane_n is None:
        return None
    polys = []
    if len(faces) == 1 and len(next(iter(faces))) == len(ids):
        # flat: both sides of the one polygon
        on, n = next(iter(faces.items()))
        poly = _wrap(P, on, n)
        polys = [poly, poly[::-1]]
    else:
        polys = [_wrap(P, on, n) for on, n in faces.items()]
    corners = sorted({i for poly in polys for i in poly})
    index = {i: k for k, i in enumerate(corners)}
    vertices = [[float(x) for x in points[i]] for i in corners]
    triangles = [tuple(index[i] for i in t) for poly in polys for t in _fan(poly)]
    return vertices, triangles
