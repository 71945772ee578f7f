"""The scoreboard's time-of-impact families: points under linear motion over
t ∈ [0, 1], posed as the protocol's ``ccd_vf`` (a vertex v and a triangle
f0 f1 f2) and ``ccd_ee`` (segments a0 a1 and b0 b1) queries.

Each family is a generator ``gen(rng, i) -> (expected, op, t0, t1)`` with
``t0``/``t1`` 4×3 arrays of doubles (the four points at t = 0 and t = 1, in
the protocol's order). Hard rows are built so the answer is known by
construction: ``touch`` (first contact exactly at t = 1), ``apart`` (the
same motion stopping one ulp short: no contact in [0, 1]), ``overlap`` (one
ulp further: contact just before t = 1); ``random`` rows are not known.

How they are made exact: every coordinate is dyadic (k/8 times a power of two
``s``; s = 2^±40 on every fourth hard row), the scene is turned by a signed
permutation (and, touching rows, moved by a dyadic vector: both exact), and
the one-ulp variants move one double to its neighbour. The exact judge answers the very
doubles the engine is given.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from .cases import _hard, _scale, rotation, signed_permutation
from .shapes import Shape, box

UP, DOWN = np.inf, -np.inf


def _place(rng, s, pts0, pts1, how):
    """Both frames turned by one signed permutation (exact) and, for the
    ``touch`` rows, moved by one dyadic vector (exact there: every number
    has a few significant bits; a one-ulp row's nudged number would be
    rounded by the sum, so those stay in place)."""
    R = signed_permutation(rng)
    off = rng.integers(-8, 9, 3) / 8.0 * s
    if how != "touch":
        off = np.zeros(3)
    return (np.asarray(pts0, dtype=float) @ R.T + off), (np.asarray(pts1, dtype=float) @ R.T + off)


def _end_height(how, z):
    """The last height of a point falling onto a plane at height z (from
    above): z (touch), the double above (apart) or below (overlap)."""
    if how == "touch":
        return z
    return np.nextafter(z, UP if how == "apart" else DOWN)


def _triangle(rng, s):
    """A triangle in the plane z = 0 with dyadic corners around the origin."""
    a = s * np.array([-1.0, -1.0, 0.0])
    b = s * np.array([1.0 + rng.integers(0, 4) / 4.0, -1.0, 0.0])
    c = s * np.array([-1.0, 1.0 + rng.integers(0, 4) / 4.0, 0.0])
    return np.array([a, b, c])


def vf_touch_at_one(rng, i):
    """A vertex falling straight onto the inside of a static triangle,
    arriving exactly at t = 1 (or stopping one ulp above, or one below)."""
    how, s = _hard(i), _scale(rng, i)
    f = _triangle(rng, s)
    x, y = rng.integers(-3, 1, 2) / 8.0 * s
    h = 2.0 ** int(rng.integers(-2, 2)) * s
    v0 = [x, y, h]
    v1 = [x, y, _end_height(how, 0.0 * s)]
    if how != "touch":  # a plane at 0 has subnormal neighbours: lift it to s
        f = f + [0.0, 0.0, s]
        v0 = [x, y, h + s]
        v1 = [x, y, _end_height(how, s)]
    t0, t1 = _place(rng, s, [v0, *f], [v1, *f], how)
    return how, "ccd_vf", t0, t1


def vf_edge(rng, i):
    """A vertex falling onto a point of a triangle's edge at t = 1, the
    triangle moving too (both with dyadic velocities)."""
    how, s = _hard(i), _scale(rng, i)
    f = _triangle(rng, s) + [0.0, 0.0, s]
    k = int(rng.integers(0, 3))
    p, q = f[k], f[(k + 1) % 3]
    m = (p + q) / 2  # exact: dyadic
    drift = rng.integers(-2, 3, 3) / 8.0 * s
    drift[2] = 0.0
    v1 = m.copy()
    v1[2] = _end_height(how, s)
    v0 = v1 + [0.0, 0.0, 2.0 ** int(rng.integers(-2, 2)) * s]
    v0 = v0 - drift
    f0 = f - drift
    t0, t1 = _place(rng, s, [v0, *f0], [v1, *f], how)
    return how, "ccd_vf", t0, t1


def vf_grazing(rng, i):
    """A vertex sliding toward the triangle in its plane, reaching its edge
    at t = 1 (touch), the same one ulp above the plane (apart), or in the
    plane going one ulp past the edge (overlap)."""
    how, s = _hard(i), _scale(rng, i)
    f = _triangle(rng, s) + [0.0, 0.0, s]
    # the edge x = -s of the triangle: the vertex comes from x = -2s
    y = rng.integers(-3, 1) / 8.0 * s
    z = np.nextafter(s, UP) if how == "apart" else s
    x1 = np.nextafter(-s, UP) if how == "overlap" else -s
    v0 = [-2.0 * s, y, z]
    v1 = [x1, y, z]
    t0, t1 = _place(rng, s, [v0, *f], [v1, *f], how)
    return how, "ccd_vf", t0, t1


def vf_random(rng, i):
    """A random vertex moving through a random moving triangle's
    neighbourhood."""
    t0 = rng.uniform(-1, 1, (4, 3))
    t1 = t0 + rng.uniform(-0.5, 0.5, (4, 3))
    t1[0] = -t0[0] * rng.uniform(0.5, 1.5)
    return None, "ccd_vf", t0, t1


def ee_touch_at_one(rng, i):
    """Crossing edges: a falls onto b (perpendicular, crossing inside both)
    and touches it exactly at t = 1 (or one ulp short, or one ulp past)."""
    how, s = _hard(i), _scale(rng, i)
    la, lb = 2.0 ** int(rng.integers(-1, 2)) * s, 2.0 ** int(rng.integers(-1, 2)) * s
    u, w = rng.integers(-3, 4, 2) / 8.0
    z1 = _end_height(how, s)
    h = 2.0 ** int(rng.integers(-2, 2)) * s
    a1 = [[-la + u * la, 0.0, z1], [la + u * la, 0.0, z1]]
    a0 = [[p[0], p[1], p[2] + h] for p in a1]
    b = [[0.0, -lb + w * lb, s], [0.0, lb + w * lb, s]]
    t0, t1 = _place(rng, s, [*a0, *b], [*a1, *b], how)
    return how, "ccd_ee", t0, t1


def ee_parallel(rng, i):
    """Parallel edges: a, parallel to b, falls onto b's line and lies along
    it at t = 1 (overlapping stretches), or stops one ulp short, or one past."""
    how, s = _hard(i), _scale(rng, i)
    la, lb = 2.0 ** int(rng.integers(-1, 2)) * s, 2.0 ** int(rng.integers(-1, 2)) * s
    off = rng.integers(-4, 5) / 8.0 * lb
    z1 = _end_height(how, s)
    h = 2.0 ** int(rng.integers(-2, 2)) * s
    a1 = [[off - la, 0.0, z1], [off + la, 0.0, z1]]
    a0 = [[p[0], p[1], p[2] + h] for p in a1]
    b = [[-lb, 0.0, s], [lb, 0.0, s]]
    t0, t1 = _place(rng, s, [*a0, *b], [*a1, *b], how)
    return how, "ccd_ee", t0, t1


def ee_end_to_end(rng, i):
    """Collinear edges sliding along their line until the end points meet
    exactly at t = 1 (or one ulp short, or one past)."""
    how, s = _hard(i), _scale(rng, i)
    la, lb = 2.0 ** int(rng.integers(-1, 2)) * s, 2.0 ** int(rng.integers(-1, 2)) * s
    # b starts at x = s (so the one-ulp neighbours are not subnormal)
    base = s
    end = {"touch": s, "apart": np.nextafter(s, DOWN), "overlap": np.nextafter(s, UP)}[how]
    a1 = [[end - 2 * la, 0.0, 0.0], [end, 0.0, 0.0]]
    a0 = [[p[0] - la, 0.0, 0.0] for p in a1]
    b = [[base, 0.0, 0.0], [base + 2 * lb, 0.0, 0.0]]
    t0, t1 = _place(rng, s, [*a0, *b], [*a1, *b], how)
    return how, "ccd_ee", t0, t1


def ee_random(rng, i):
    t0 = rng.uniform(-1, 1, (4, 3))
    t1 = t0 + rng.uniform(-0.5, 0.5, (4, 3))
    t1[:2] = -t0[:2] * rng.uniform(0.5, 1.5)
    return None, "ccd_ee", t0, t1


FAMILIES = {
    "vf touching at t=1": vf_touch_at_one,
    "vf on an edge": vf_edge,
    "vf grazing": vf_grazing,
    "vf random": vf_random,
    "ee touching at t=1": ee_touch_at_one,
    "ee parallel": ee_parallel,
    "ee end to end": ee_end_to_end,
    "ee random": ee_random,
}


# Families whose queries cost ipctk seconds each (parallel edges: Tight
# Inclusion runs to its iteration limit, 5-7 s a query on a shared 2-core
# machine) get this fraction of the rows.
SHARE = {"ee parallel": 8}


def rows_of(name, n_each):
    return -(-n_each // SHARE.get(name, 1))


def generate(n_each, seed, families=None):
    """[(family, expected, op, t0, t1, row)]: n_each rows per family
    (``rows_of``: fewer for the slow ones)."""
    out = []
    for k, (name, gen) in enumerate(FAMILIES.items()):
        if families is not None and name not in families:
            continue
        rng = np.random.default_rng([seed, 1000 + k])
        for i in range(rows_of(name, n_each)):
            exp, op, t0, t1 = gen(rng, i)
            out.append((name, exp, op, np.array(t0, dtype=float), np.array(t1, dtype=float), i))
    return out


# --- boxes under translation (the protocol's ``ccd`` op) ----------------------
#
# A row of these families is ``(family, expected, "ccd", (a, b), (da, db),
# row)``: boxes a and b (``shapes.Shape``) at t = 0, each moving by the
# translation t·d (d a 3-vector of doubles) over t ∈ [0, 1]. Every hard row is
# built so that each box's end position c + d is a double (d = (c + d) - c
# exactly: an engine told the end pose holds the same motion), and the one-ulp
# variants move the *static* box a by one ulp (a nudged number is never added
# to). Hard rows: ``touch`` (first contact at the time built: 0, 1/2 or 1),
# ``apart`` (one ulp short: no contact in [0, 1]), ``overlap`` (one ulp
# further: contact at or just before that time).


def _halves(rng, s):
    return (1.0 + rng.integers(0, 5, 3) / 4.0) * s


def _turn(rng, s, a, b, da, db, how):
    """The scene turned by one signed permutation (exact) and, touching rows,
    moved by one dyadic vector (exact there)."""
    R = signed_permutation(rng)
    off = rng.integers(-8, 9, 3) / 8.0 * s if how == "touch" else np.zeros(3)
    a2 = a.with_(center=R @ a.center + off, R=R @ a.R)
    b2 = b.with_(center=R @ b.center + off, R=R @ b.R)
    return (a2, b2), (R @ np.asarray(da, dtype=float), R @ np.asarray(db, dtype=float))


def _shifted(x, how, away):
    """A static coordinate x moved one ulp ``away`` (+1: away from b, -1:
    toward it) on ``apart`` rows, the other way on ``overlap`` rows."""
    if how == "touch":
        return x
    sign = away if how == "apart" else -away
    return np.nextafter(x, UP if sign > 0 else DOWN)


def box_touching_at_start(rng, i):
    """b resting against a's +x face at t = 0, moving anywhere (touch: first
    contact at t = 0); a one ulp further away and b sliding along the face
    (apart: never); a one ulp into b (overlap: at t = 0)."""
    how, s = _hard(i), _scale(rng, i)
    ea, eb = _halves(rng, s), _halves(rng, s)
    ax = _shifted(-s, how, -1)
    y, z = rng.integers(-4, 5, 2) / 8.0 * s
    b = box([-s + ea[0] + eb[0], y, z], eb, np.eye(3))
    a = box([ax, 0.0, 0.0], ea, np.eye(3))
    db = rng.integers(-8, 9, 3) / 8.0 * s
    if how != "touch":
        db[0] = 0.0  # sliding along the face
    return how, "ccd", *_turn(rng, s, a, b, np.zeros(3), db, how)


def box_faces_parallel(rng, i):
    """b falling flat onto a's top face, arriving at t = 1 (or a one ulp
    lower: no contact; one ulp higher: just before 1)."""
    how, s = _hard(i), _scale(rng, i)
    ea, eb = _halves(rng, s), _halves(rng, s)
    a = box([0.0, 0.0, _shifted(-ea[2], how, -1)], ea, np.eye(3))
    x, y = rng.integers(-4, 5, 2) / 8.0 * s
    h = 2.0 ** int(rng.integers(-2, 2)) * s
    b = box([x, y, eb[2] + h], eb, np.eye(3))
    db = np.array([0.0, 0.0, -h])
    if rng.integers(0, 2):  # a slanted fall
        db[:2] = rng.integers(-2, 3, 2) / 8.0 * s
        b = b.with_(center=b.center - [db[0], db[1], 0.0])
    return how, "ccd", *_turn(rng, s, a, b, np.zeros(3), db, how)


def box_sliding(rng, i):
    """b sliding along a's top plane until it meets a's side at t = 1/2
    (touch; overlap: a one ulp higher, the same time), or one ulp above it
    (apart: never touching)."""
    how, s = _hard(i), _scale(rng, i)
    ea, eb = _halves(rng, s), _halves(rng, s)
    a = box([0.0, 0.0, _shifted(-ea[2], how, -1)], ea, np.eye(3))
    L = 2.0 ** int(rng.integers(-2, 2)) * s
    y = rng.integers(-4, 5) / 8.0 * s
    b = box([-(ea[0] + eb[0]) - L, y, eb[2]], eb, np.eye(3))
    return how, "ccd", *_turn(rng, s, a, b, np.zeros(3), [2.0 * L, 0.0, 0.0], how)


def box_edges_grazing(rng, i):
    """b's lower -y edge coming down diagonally onto a's upper +y edge (the
    two parallel), meeting it at t = 1; a one ulp away in y and z (apart) or
    toward b (overlap: just before 1)."""
    how, s = _hard(i), _scale(rng, i)
    ea, eb = _halves(rng, s), _halves(rng, s)
    a = box([0.0, _shifted(-ea[1], how, -1), _shifted(-ea[2], how, -1)], ea, np.eye(3))
    h = 2.0 ** int(rng.integers(-2, 2)) * s
    x = rng.integers(-4, 5) / 8.0 * s
    b = box([x, eb[1] + h, eb[2] + h], eb, np.eye(3))
    return how, "ccd", *_turn(rng, s, a, b, np.zeros(3), [0.0, -h, -h], how)


def box_corners(rng, i):
    """b's (-,-,-) corner coming down the diagonal onto a's (+,+,+) corner at
    t = 1; a one ulp away in each coordinate (apart) or toward b (overlap)."""
    how, s = _hard(i), _scale(rng, i)
    ea, eb = _halves(rng, s), _halves(rng, s)
    a = box([_shifted(-e, how, -1) for e in ea], ea, np.eye(3))
    h = 2.0 ** int(rng.integers(-2, 2)) * s
    b = box(eb + h, eb, np.eye(3))
    return how, "ccd", *_turn(rng, s, a, b, np.zeros(3), [-h, -h, -h], how)


def box_fast(rng, i):
    """A small box flying 2^21 of its sizes along x past a thin wall (half
    thickness 2^-20 s), its side sliding along the wall's +y face (touch:
    first contact when the x-ranges meet), one ulp beside it (apart: never),
    or one ulp into it (overlap)."""
    how, s = _hard(i), _scale(rng, i)
    ea = np.array([2.0 ** -20, 2.0, 2.0]) * s
    eb = np.array([1.0, 1.0, 1.0]) / 8.0 * s
    a = box([0.0, _shifted(-s, how, -1), 0.0], ea, np.eye(3))
    L = 2.0 ** 20 * s * (1.0 + rng.integers(0, 8) / 8.0)
    z = rng.integers(-4, 5) / 8.0 * s
    b = box([-L, s + eb[1], z], eb, np.eye(3))
    d = L + 2.0 ** 20 * s * (1.0 + rng.integers(0, 8) / 8.0)
    return how, "ccd", *_turn(rng, s, a, b, np.zeros(3), [d, 0.0, 0.0], how)


def box_random(rng, i):
    """Two randomly turned boxes (rotations orthogonal only to rounding: the
    judge sees the parallelepipeds of the double matrices), a static, b
    moving through its neighbourhood with a dyadic velocity."""
    ea, eb = _halves(rng, 0.5), _halves(rng, 0.5)
    a = box(rng.integers(-4, 5, 3) / 8.0, ea, rotation(rng))
    b0 = rng.integers(-16, 17, 3) / 8.0
    b0 = b0 + np.sign(b0 + 0.5) * 2.0  # starting outside a
    b = box(b0, eb, rotation(rng))
    db = -b0 * (1.0 + rng.integers(0, 9) / 8.0) + rng.integers(-4, 5, 3) / 8.0
    return None, "ccd", (a, b), (np.zeros(3), db)


BOX_FAMILIES = {
    "box touching at t=0": box_touching_at_start,
    "box faces parallel": box_faces_parallel,
    "box sliding": box_sliding,
    "box edges grazing": box_edges_grazing,
    "box corners": box_corners,
    "box fast": box_fast,
    "box random": box_random,
}


def generate_boxes(n_each, seed, families=None):
    """[(family, expected, "ccd", (a, b), (da, db), row)]: n_each rows of
    each box family."""
    out = []
    for k, (name, gen) in enumerate(BOX_FAMILIES.items()):
        if families is not None and name not in families:
            continue
        rng = np.random.default_rng([seed, 2000 + k])
        for i in range(n_each):
            exp, op, ab, d = gen(rng, i)
            out.append((name, exp, op, ab, d, i))
    return out


def end_is_exact(c, d) -> bool:
    """Whether c + d is a double and (c + d) - c gives d back (coordinate by
    coordinate, in doubles): an engine told the start and end poses then
    holds the translation t·d. Decided by exact comparisons of doubles."""
    c, d = np.asarray(c, dtype=float), np.asarray(d, dtype=float)
    e = c + d
    return bool(np.all(np.isfinite(e)) and np.all(e - c == d) and all(
        Fraction(float(x)) + Fraction(float(y)) == Fraction(float(z)) for x, y, z in zip(c, d, e)))


def box_ccd_query(a: Shape, b: Shape, da, db) -> dict:
    """The protocol's ``ccd`` query of boxes a and b moving by t·da, t·db:
    each box as its exact protocol shape at t = 0 and a matrix motion with
    the identity block and the translation polynomial [0, d]."""
    def moving(s, d):
        out = {"shape": s.protocol()}
        if np.any(np.asarray(d) != 0):
            out["motion"] = {"matrix": [[1, 0, 0], [0, 1, 0], [0, 0, 1], [[0, float(x)] for x in d]]}
        return out
    return {"op": "ccd", "a": moving(a, da), "b": moving(b, db)}
