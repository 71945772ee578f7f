"""The scoreboard's case families: pairs of shapes (see ``shapes``) built on
the hard cases of exact collision, each with the answer known by construction
where one is ("touch", "apart" by one ulp, "overlap" by one ulp) or ``None``.

Each family is a generator ``gen(rng, i) -> (expected, a, b)``. The rounded
families (spheres, capsules, convex hulls, with boxes) are the ones
``examples/coal_peer.py`` judges coal on (it imports them from here); the box,
triangle and deep-penetration families are the scoreboard's additions.

How the sets are made exact: centers and sizes are dyadic (k/8 times a power of
two ``s``, 2^±40 on every fourth hard row), rotations of the hard rows are
signed permutations (exactly orthogonal), contact distances are integers of
integer-length vectors (3-4-5, 2-3-6-7, ...), and the one-ulp variants move
one double to its neighbour. The random rows use random rotations (orthogonal
only to rounding; both sides use the same double matrix).
"""

from __future__ import annotations

import numpy as np

from .shapes import box, capsule, convex, sphere, triangle

UP, DOWN = np.inf, -np.inf


def rotation(rng):
    """A random rotation matrix (orthogonal to rounding)."""
    q, _ = np.linalg.qr(rng.normal(size=(3, 3)))
    return q * np.sign(np.linalg.det(q))


# Integer vectors with integer length: (x, y, z, |(x, y, z)|).
QUADS = [(2, 3, 6, 7), (1, 2, 2, 3), (1, 4, 8, 9), (2, 6, 9, 11), (3, 4, 0, 5), (0, 0, 1, 1)]


def signed_permutation(rng):
    """A rotation matrix with entries 0 and ±1: exactly orthogonal."""
    R = np.eye(3)[rng.permutation(3)] * rng.choice([-1.0, 1.0], 3)
    if np.linalg.det(R) < 0:
        R[:, 0] = -R[:, 0]
    return R


def _quad(rng):
    """A random integer vector with an integer length m: (v, m)."""
    x, y, z, m = QUADS[rng.integers(len(QUADS))]
    v = np.array([x, y, z], dtype=float)[rng.permutation(3)] * rng.choice([-1.0, 1.0], 3)
    return v, m


def _nudge(x, how):
    """x, or the next double up (overlap) or down (apart) when x > 0."""
    if how == "touch" or x == 0:
        return x
    return np.nextafter(x, UP if how == "overlap" else DOWN)


def _shift(x, how):
    """A position x, or the next double up ("apart") or down ("overlap")."""
    if how == "touch":
        return x
    return np.nextafter(x, UP if how == "apart" else DOWN)


def _hard(i):
    """Which variant a hard row is: touching exactly, one ulp apart, one ulp overlapping."""
    return ("touch", "apart", "overlap")[i % 3]


def _scale(rng, i):
    """A power of two; 2^±40 on every fourth row."""
    if i % 4 == 3:
        return 2.0 ** (40 if i % 8 == 3 else -40)
    return 2.0 ** int(rng.integers(-3, 2))


def _dyadic(rng, s, k=3):
    return rng.integers(-8, 9, k) / 8.0 * s


def sphere_sphere_touching(rng, i):
    """Centers m·2^-j·s apart along an integer vector of integer length m,
    radii (a + b = m)·2^-j·s: q = R² exactly; one radius nudged by an ulp."""
    how, s = _hard(i), _scale(rng, i)
    v, m = _quad(rng)
    unit = 2.0 ** -int(rng.integers(0, 4)) * s
    ca = _dyadic(rng, s)
    k = int(rng.integers(0, m + 1))  # k = 0 or m: a radius 0 (a point)
    ra, rb = k * unit, (m - k) * unit
    if rb > 0:
        rb = _nudge(rb, how)
    else:
        ra = _nudge(ra, how)
    return how, sphere(ca, ra), sphere(ca + v * unit, rb)


def sphere_sphere_random(rng, i):
    return None, sphere(rng.uniform(-1, 1, 3), rng.uniform(0, 1)), sphere(rng.uniform(-1, 1, 3), rng.uniform(0, 1))


def capsule_capsule_parallel(rng, i):
    """Equal axes direction, offset across the axis by exactly R (3-4-5),
    overlapping along it."""
    how, s = _hard(i), _scale(rng, i)
    R = signed_permutation(rng)
    u, w1, w2 = R[:, 2], R[:, 0], R[:, 1]
    unit = 2.0 ** -int(rng.integers(0, 3)) * s
    ha, hb = 2.0 ** int(rng.integers(-1, 2)) * s, 2.0 ** int(rng.integers(-1, 2)) * s
    ca = _dyadic(rng, s)
    along = rng.integers(-4, 5) / 8.0 * min(ha, hb)
    cb = ca + 3 * unit * w1 + 4 * unit * w2 + along * u
    k = int(rng.integers(1, 5))
    return how, capsule(ca, ha, R, k * unit), capsule(cb, hb, R, _nudge((5 - k) * unit, how))


def capsule_capsule_collinear(rng, i):
    """One axis continuing the other, the end points exactly R apart."""
    how, s = _hard(i), _scale(rng, i)
    R = signed_permutation(rng)
    u = R[:, 2]
    ha, hb = 2.0 ** int(rng.integers(-1, 2)) * s, 2.0 ** int(rng.integers(-1, 2)) * s
    ra, rb = 2.0 ** int(rng.integers(-3, 0)) * s, 2.0 ** int(rng.integers(-3, 0)) * s
    ca = _dyadic(rng, s)
    cb = ca + (ha + hb + ra + rb) * u
    return how, capsule(ca, ha, R, ra), capsule(cb, hb, R, _nudge(rb, how))


def capsule_capsule_crossing(rng, i):
    """Perpendicular axes crossing over each other, R apart."""
    how, s = _hard(i), _scale(rng, i)
    Ra = signed_permutation(rng)
    Rb = Ra[:, [1, 2, 0]]  # its z axis is Ra's x axis
    ha, hb = 2.0 ** int(rng.integers(-1, 2)) * s, 2.0 ** int(rng.integers(-1, 2)) * s
    ra, rb = 2.0 ** int(rng.integers(-3, 0)) * s, 2.0 ** int(rng.integers(-3, 0)) * s
    ca = _dyadic(rng, s)
    t = rng.integers(-3, 4) / 4.0
    cb = ca + (ra + rb) * Ra[:, 1] + t * ha * Ra[:, 2]
    return how, capsule(ca, ha, Ra, ra), capsule(cb, hb, Rb, _nudge(rb, how))


def degenerate(rng, i):
    """A capsule of length 0 (coal.Capsule(r, 0)) or radius 0 (a segment), or
    a sphere of radius 0 (a point), touching, one ulp apart or overlapping."""
    how, s = _hard(i), _scale(rng, i)
    R = signed_permutation(rng)
    v, m = _quad(rng)
    unit = 2.0 ** -int(rng.integers(0, 3)) * s
    c = _dyadic(rng, s)
    k = int(rng.integers(0, m))  # the sphere's radius (m - k)·unit > 0
    variant = (i // 3) % 3
    if variant == 0:  # length 0 against a sphere, centers m·unit apart
        return how, capsule(c, 0.0, R, k * unit), sphere(c + v * unit, _nudge((m - k) * unit, how))
    h = 2.0 ** int(rng.integers(-1, 2)) * s
    side = 3 * unit * R[:, 0] + 4 * unit * R[:, 1] + rng.integers(-4, 5) / 8.0 * h * R[:, 2]
    if variant == 1:  # a segment (radius 0) and a sphere 5·unit off its side
        return how, capsule(c, h, R, 0.0), sphere(c + side, _nudge(5 * unit, how))
    # a point (sphere of radius 0) on the capsule's side
    return how, capsule(c, h, R, _nudge(5 * unit, how)), sphere(c + side, 0.0)


def sphere_box(rng, i):
    """A sphere inside a box, touching a face, or touching a corner along an
    integer vector of integer length (outward); touching ones nudged by an ulp."""
    s = _scale(rng, i)
    R = signed_permutation(rng)
    e = 2.0 ** rng.integers(-2, 1, 3) * s
    c = _dyadic(rng, s)
    variant = i % 4
    if variant == 0:  # the center inside the box: they meet
        inside = c + R @ (rng.integers(-4, 5, 3) / 4.0 * e)
        return "overlap", box(c, e, R), sphere(inside, rng.uniform(0, 2) * s)
    how = _hard(i // 4)
    if variant == 1:  # on a face
        x = rng.integers(-4, 5, 3) / 4.0 * e
        r = 2.0 ** int(rng.integers(-3, 1)) * s
        x[0] = e[0] + r
        return how, box(c, e, R), sphere(c + R @ x, _nudge(r, how))
    v, m = _quad(rng)  # at a corner
    v = np.abs(v)
    sg = rng.choice([-1.0, 1.0], 3)
    unit = 2.0 ** -int(rng.integers(0, 3)) * s
    return how, box(c, e, R), sphere(c + R @ (sg * (e + v * unit)), _nudge(m * unit, how))


def capsule_box(rng, i):
    """A capsule lying r above a face, parallel to it."""
    how, s = _hard(i), _scale(rng, i)
    R = signed_permutation(rng)
    e = 2.0 ** rng.integers(-2, 1, 3) * s
    c = _dyadic(rng, s)
    r = 2.0 ** int(rng.integers(-3, 1)) * s
    h = 2.0 ** int(rng.integers(-2, 1)) * s
    # the capsule's axis along the box's axis 1, above face +axis 0
    Rc = R[:, [2, 0, 1]]  # Rc[:, 2] = R[:, 1]
    x = rng.integers(-4, 5, 3) / 4.0 * e
    x[0] = e[0] + r
    return how, box(c, e, R), capsule(c + R @ x, h, Rc, _nudge(r, how))


def cube_points(c, e, extra=True):
    """A box's 8 corners, with its 6 face centers and its center (coplanar
    and interior points of the input) when `extra`."""
    pts = [c + e * np.array(sg) for sg in
           [(x, y, z) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]]
    if extra:
        pts += [c + e * d for d in np.vstack([np.eye(3), -np.eye(3)])] + [np.array(c, dtype=float)]
    return pts


def convex_convex(rng, i):
    s = _scale(rng, i)
    variant = i % 3
    if variant == 0:  # random clouds of 16 points
        ca, cb = rng.uniform(-1, 1, 3), rng.uniform(-1, 1, 3)
        return None, convex(ca + rng.normal(size=(16, 3))), convex(cb + rng.normal(size=(16, 3)))
    how = _hard(i // 3)
    ea, eb = 2.0 ** rng.integers(-2, 1, 3) * s, 2.0 ** rng.integers(-2, 1, 3) * s
    ca = _dyadic(rng, s)
    if variant == 1:  # two axis-aligned cubes with face points, face to face
        cb = ca + np.array([ea[0] + eb[0], 0, 0])
        cb[0] = _shift(cb[0], how)
        cb[1] += rng.integers(-2, 3) / 4.0 * ea[1]
        return how, convex(cube_points(ca, ea)), convex(cube_points(cb, eb))
    # a flat polygon (coplanar input) lying on the top face, or an ulp off it
    z = _shift(ca[2] + ea[2], how)
    x0, y0 = ca[0], ca[1]
    poly = [np.array([x0 + dx * ea[0], y0 + dy * ea[1], z]) for dx, dy in
            [(-0.5, -0.5), (0.5, -0.5), (0.75, 0.0), (0.5, 0.5), (-0.5, 0.5)]]
    return how, convex(cube_points(ca, ea)), convex(poly, flat=True)


def convex_sphere(rng, i):
    """A sphere on a hull's face or at its corner."""
    how, s = _hard(i), _scale(rng, i)
    e = 2.0 ** rng.integers(-2, 1, 3) * s
    c = _dyadic(rng, s)
    if i % 2 == 0:
        r = 2.0 ** int(rng.integers(-3, 1)) * s
        x = rng.integers(-4, 5, 3) / 4.0 * e
        x[2] = e[2] + r
        return how, convex(cube_points(c, e)), sphere(c + x, _nudge(r, how))
    v, m = _quad(rng)
    unit = 2.0 ** -int(rng.integers(0, 3)) * s
    sg = rng.choice([-1.0, 1.0], 3)
    return how, convex(cube_points(c, e)), sphere(c + sg * (e + np.abs(v) * unit), _nudge(m * unit, how))


def convex_capsule(rng, i):
    """A capsule lying r above a hull's face, parallel to it."""
    how, s = _hard(i), _scale(rng, i)
    e = 2.0 ** rng.integers(-2, 1, 3) * s
    c = _dyadic(rng, s)
    r = 2.0 ** int(rng.integers(-3, 1)) * s
    h = 2.0 ** int(rng.integers(-2, 1)) * s
    R = np.array([[0.0, 0, 1], [0, 1, 0], [-1, 0, 0]])  # axis along x
    x = rng.integers(-4, 5, 3) / 4.0 * e
    x[2] = e[2] + r
    return how, convex(cube_points(c, e)), capsule(c + x, h, R, _nudge(r, how))


def capsule_random(rng, i):
    """Random capsules under random rotations (not near contact as a rule)."""
    return (None, capsule(rng.uniform(-1, 1, 3), rng.uniform(0, 1), rotation(rng), rng.uniform(0, 0.5)),
            capsule(rng.uniform(-1, 1, 3), rng.uniform(0, 1), rotation(rng), rng.uniform(0, 0.5)))


ROUNDED_FAMILIES = {
    "sphere-sphere touching": sphere_sphere_touching,
    "sphere-sphere random": sphere_sphere_random,
    "capsule-capsule parallel": capsule_capsule_parallel,
    "capsule-capsule collinear": capsule_capsule_collinear,
    "capsule-capsule crossing": capsule_capsule_crossing,
    "capsule-capsule random": capsule_random,
    "degenerate capsule / radius 0": degenerate,
    "sphere-box": sphere_box,
    "capsule-box": capsule_box,
    "convex-convex": convex_convex,
    "convex-sphere": convex_sphere,
    "convex-capsule": convex_capsule,
}


def _touching_center(ca, R, x, how):
    """ca + R·x (exact: R a signed permutation, dyadic values), then the
    coordinate along R[:, 0] moved one ulp outward ("apart") or inward."""
    cb = ca + R @ x
    if how == "touch":
        return cb
    j = int(np.argmax(np.abs(R[:, 0])))
    out = R[j, 0] > 0
    cb[j] = np.nextafter(cb[j], UP if out == (how == "apart") else DOWN)
    return cb


def box_box_face(rng, i):
    """Face to face along a's axis 0 (touching, one ulp apart, one ulp
    overlapping), b offset sideways by a dyadic amount."""
    how, s = _hard(i), _scale(rng, i)
    R = signed_permutation(rng)
    ea, eb = 2.0 ** rng.integers(-2, 1, 3) * s, 2.0 ** rng.integers(-2, 1, 3) * s
    ca = _dyadic(rng, s)
    x = rng.integers(-4, 5, 3) / 4.0 * ea
    x[0] = ea[0] + eb[0]
    return how, box(ca, ea, R), box(_touching_center(ca, R, x, how), eb, R)


def box_box_edge(rng, i):
    """Parallel edges: b turned 45 degrees about a's axis 2 (edges parallel to
    a's face and to a's edges along axis 2), its edge near a's face; the
    distance is irrational-free only up to rounding of sqrt(1/2), so the answer
    is not known by construction."""
    s = _scale(rng, i)
    c = np.sqrt(0.5)
    r45 = np.array([[c, -c, 0.0], [c, c, 0.0], [0.0, 0.0, 1.0]])
    ea, eb = 2.0 ** rng.integers(-2, 1, 3) * s, 2.0 ** rng.integers(-2, 1, 3) * s
    gap = (0.0, 2.0 ** -40, -(2.0 ** -40))[i % 3] * s
    cb = np.array([ea[0] + eb[0] * 2 * c + gap, rng.integers(-4, 5) / 8.0 * ea[1], 0.0])
    return None, box(np.zeros(3), ea, np.eye(3)), box(cb, eb, r45)


def box_box_rotated(rng, i):
    """Random rotations, centers at a random distance around contact."""
    e1, e2 = 2.0 ** rng.integers(-2, 1, 3), 2.0 ** rng.integers(-2, 1, 3)
    return None, box(np.zeros(3), e1, rotation(rng)), box(rng.normal(size=3) * rng.uniform(0.5, 2), e2,
                                                         rotation(rng))


def deep(rng, i):
    """Deep penetration: b's center well inside a (boxes, spheres, capsules)."""
    s = _scale(rng, i)
    e = 2.0 ** rng.integers(-1, 2, 3) * s
    c = _dyadic(rng, s)
    inside = c + rng.integers(-2, 3, 3) / 8.0 * e
    r = 2.0 ** int(rng.integers(-2, 1)) * s
    variant = i % 4
    if variant == 0:
        return "overlap", box(c, e, rotation(rng)), box(inside, e[::-1], rotation(rng))
    if variant == 1:
        return "overlap", sphere(c, 2 * r), sphere(c + (inside - c) / 4, r)
    if variant == 2:
        return "overlap", capsule(c, r, rotation(rng), r), capsule(c + (inside - c) / 4, r, rotation(rng), r)
    return "overlap", box(c, e, signed_permutation(rng)), capsule(inside, r, rotation(rng), r)


def triangle_triangle(rng, i):
    """Coplanar, a vertex on an edge's midpoint, a vertex one ulp (or 2^-j)
    above a plane, a shared vertex, random near."""
    t = rng.integers(-8, 9, (3, 3)) / 8.0
    k = i % 6
    expected = None
    if k == 0:
        u = t + rng.normal(size=(3, 3)) * 0.1
    elif k == 1:  # coplanar
        t[:, 2] = 0.25
        u = rng.integers(-8, 9, (3, 3)) / 8.0
        u[:, 2] = 0.25
    elif k == 2:  # a vertex on an edge's midpoint
        u = rng.integers(-8, 9, (3, 3)) / 8.0
        u[0] = (t[0] + t[1]) / 2
        expected = "touch"
    elif k == 3:  # a vertex one ulp, or 2^-j, above the plane z = 1
        t = np.array([[-1.0, -1, 1], [1, -1, 1], [0, 1, 1]])
        z = np.nextafter(1.0, UP) if i % 12 < 6 else 1 + 2.0 ** -rng.integers(10, 45)
        x, y = rng.integers(-3, 4) / 8, rng.integers(-3, 2) / 8
        u = np.array([[x, y, z], [0.5, 0.5, 2.0], [-0.5, 0.5, 1.5]])
        expected = "apart"
    elif k == 4:  # shared vertex
        u = rng.integers(-8, 9, (3, 3)) / 8.0
        u[0] = t[1]
        expected = "touch"
    else:  # a vertex exactly on the other's plane z = 1, inside it
        t = np.array([[-1.0, -1, 1], [1, -1, 1], [0, 1, 1]])
        u = np.array([[0.0, 0.0, 1.0], [0.5, 0.5, 2.0], [-0.5, 0.5, 1.5]])
        expected = "touch"
    return expected, triangle(t), triangle(u)


FAMILIES = dict(ROUNDED_FAMILIES)
FAMILIES.update({
    "box-box face": box_box_face,
    "box-box parallel edges": box_box_edge,
    "box-box rotated": box_box_rotated,
    "deep penetration": deep,
    "triangle-triangle": triangle_triangle,
})


def generate(n_each, seed, families=None):
    """[(family, expected, a, b, row)]: n_each rows of each family."""
    rng = np.random.default_rng(seed)
    out = []
    for name, gen in FAMILIES.items():
        if families is not None and name not in families:
            continue
        for i in range(n_each):
            expected, a, b = gen(rng, i)
            out.append((name, expected, a, b, i))
    return out
