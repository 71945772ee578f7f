"""python-fcl (FCL 0.7, GJK of libccd by default).

Shapes: ``fcl.Sphere(r)``, ``fcl.Capsule(r, 2h)`` (the full length, along
the local z axis), ``fcl.Box(2e)`` (full side lengths), each a
``CollisionObject`` under ``fcl.Transform(R, c)`` (the rotation matrix as
given: FCL keeps it as a matrix, no quaternion); a triangle is a one-triangle
``BVHModel``; a convex hull is ``fcl.Convex(vertices, n, faces)`` (in world
coordinates under the identity), which wants the hull's faces: they are the
faces of the exact hull of the case's points (``scoreboard.hull``: integer
orientation tests, the hull's corners, triangles counterclockwise seen from
outside; a flat polygon as its two sides), so FCL holds exactly the case's
set. Points spanning no plane are not a ``Convex`` (``accepts``: not judged).

Conventions handled here: ``collide`` returning contacts is the intersect
claim (no security margin; touching counts); ``distance`` answers -1 (or a
negative value) for shapes in collision, so the distance claim is max(d, 0),
with libccd's GJK tolerance 1e-6 as ``rel_tol``.

Contact: a second ``collide`` with ``enable_contact`` (up to 4 contacts). Of
FCL's ``Contact``s the deepest is claimed: ``penetration_depth`` is positive
(the depth), ``normal`` a unit vector from a (o1) toward b (o2), the
protocol's direction (measured: a sphere above a box gets (0, 0, −1)), and
``pos`` one point, midway between the surfaces, claimed as the one
``contact`` point (the protocol's region swept along b's translation holds
the points between a's touching feature and b's). No contact from FCL is the
claim ``depth_f64: 0``.

Time of impact: ``fcl.continuousCollide(o1, tf1_end, o2, tf2_end, request,
result)`` (``ContinuousCollisionRequest``: ``ccd_motion_type``,
``ccd_solver_type``, ``num_max_iterations`` 10, ``toc_err`` 1e-4) →
``result.is_collide``, ``result.time_of_contact``. The claim is ``{"hit":
false}`` or ``{"hit": true, "toi_f64"/"t_enter_f64": t, "abs_tol": 1e-9}``,
judged as ipctk's (``early``, ``late``, ``miss``, ``false hit``). What FCL 0.7
offers, measured on hand cases (``tests/test_scoreboard.py``):

- solvers: ``CCDC_NAIVE`` samples the motion at t = i/9 (i = 0 … 9, with the
  defaults) and answers the first sample at which the static ``collide``
  hits: a time at or after the first contact (``late`` by up to 1/9 is its
  design), and contact between samples is missed (tunnelling);
  ``CCDC_CONSERVATIVE_ADVANCEMENT`` answers no contact for two ``Box`` shapes
  ("Warning! Invalid continuous collision checking": no box–box advancement)
  and crashes the process (segmentation fault) for a ``Box`` against a
  mesh; ``CCDC_RAY_SHOOTING`` is not implemented (answers -1);
  ``CCDC_POLYNOMIAL_SOLVER`` takes two ``BVHModel``s under ``CCDM_TRANS`` only:
  it solves FCL's vertex–face and edge–edge cubics for the meshes' vertices;
- motions: with a translation-only motion ``CCDM_TRANS`` and ``CCDM_LINEAR``
  give the same positions; ``CCDM_SCREW`` with no rotation is wrong (two unit
  boxes 4 apart approaching at speed 8 collide at t = 1/9 for it, and a
  one-ulp miss at 1/3): not used.

So: the ``ccd`` op on boxes (each box an ``fcl.Box`` under ``Transform(R,
c)``, moving to ``Transform(R, c + d)``) is asked with ``CCDC_NAIVE`` and
``CCDM_TRANS``, FCL's only solver for two boxes; its ``late`` answers are its
convention (counted, and listed apart in docs/scoreboard.md), its misses and
false hits are not. ``ccd_vf`` and ``ccd_ee`` are asked with
``CCDC_POLYNOMIAL_SOLVER`` and ``CCDM_TRANS`` on one-triangle ``BVHModel``s: the
vertex as the degenerate triangle (v, v, v), an edge as (p, q, q), the face as
itself. FCL moves a model rigidly, so only rows where each side's points share
one translation are asked (``accepts_ccd``: the ``random`` rows, whose
triangle deforms, are not judged). The polynomial solver reads the start
positions from the models' vertices and ignores the objects' start transforms
(measured: a vertex model at the origin placed by its transform at (¼, ¼, 1)
falling onto a triangle is answered from the origin, a hit at t = 0); so the
models hold the points at t = 0 in world coordinates under the identity, and
the end transform is the translation d = p(1) − p(0). It also overwrites the
models' vertices with their end positions (a model is used once). FCL then
holds p(0) + t·d: a row is asked only when d is exactly p(1) − p(0) for every
point (``ccd_cases.end_is_exact``), so it holds the case's motion. For boxes
FCL computes the velocity as (c + d) − c in doubles; a row is asked only when
that is d again.
"""

from __future__ import annotations

import numpy as np

from ..ccd_cases import end_is_exact
from ..hull import hull_faces
from . import Answer

NAME = "fcl"
KINDS = ("box", "sphere", "capsule", "convex", "triangle")
CCD_OPS = ("ccd_vf", "ccd_ee", "ccd")
REL_TOL = 1e-6
ABS_TOL = 1e-9  # verify's default for times
TOI_CONVENTION = ("late",)  # the naive solver's samples, by design (boxes)


def version():
    import fcl

    return getattr(fcl, "__version__", "?")


_HULLS: dict = {}


def _hull(points):
    """``hull_faces(points)``, remembered (each pair is asked three times)."""
    key = np.asarray(points, dtype=float).tobytes()
    if key not in _HULLS:
        if len(_HULLS) > 64:
            _HULLS.clear()
        _HULLS[key] = hull_faces(points)
    return _HULLS[key]


def accepts(a, b):
    return all(s.kind != "convex" or _hull(s.points) is not None for s in (a, b))


def obj(s):
    import fcl

    if s.kind == "convex":
        vertices, triangles = _hull(s.points)
        faces = np.array([x for t in triangles for x in (3, *t)], dtype=np.int64)
        return fcl.CollisionObject(fcl.Convex(np.array(vertices, dtype=float), len(triangles), faces),
                                   fcl.Transform())
    if s.kind == "triangle":
        m = fcl.BVHModel()
        m.beginModel(3, 1)
        m.addSubModel(np.array(s.points, dtype=float), np.array([[0, 1, 2]], dtype=np.int32))
        m.endModel()
        return fcl.CollisionObject(m, fcl.Transform())
    if s.kind == "sphere":
        g = fcl.Sphere(s.radius)
    elif s.kind == "capsule":
        g = fcl.Capsule(s.radius, 2 * s.h)
    else:
        g = fcl.Box(*(2 * s.half))
    R = np.eye(3) if s.kind == "sphere" else s.R
    return fcl.CollisionObject(g, fcl.Transform(np.array(R, dtype=float), np.array(s.center, dtype=float)))


def query(a, b):
    import fcl

    oa, ob = obj(a), obj(b)
    hit = fcl.collide(oa, ob, fcl.CollisionRequest(), fcl.CollisionResult()) > 0
    d = fcl.distance(oa, ob, fcl.DistanceRequest(), fcl.DistanceResult())
    req = fcl.CollisionRequest(num_max_contacts=4, enable_contact=True)
    res = fcl.CollisionResult()
    if fcl.collide(obj(a), obj(b), req, res) == 0 or not res.contacts:
        contact = {"depth_f64": 0.0}
    else:
        k = max(res.contacts, key=lambda c: float(c.penetration_depth))
        contact = {"depth_f64": max(float(k.penetration_depth), 0.0), "normal": [float(x) for x in k.normal],
                   "contact": [[float(x) for x in k.pos]]}
    return Answer(intersect=bool(hit), distance=float(d), contact=contact)


# --- time of impact -------------------------------------------------------------

_GROUPS = {"ccd_vf": ((0,), (1, 2, 3)), "ccd_ee": ((0, 1), (2, 3))}


def _displacement(t0, t1, idx):
    """The one translation d of the points idx (t1 = t0 + d exactly, d a
    double), or None when they do not move by one."""
    d = np.asarray(t1[idx[0]], dtype=float) - np.asarray(t0[idx[0]], dtype=float)
    for i in idx:
        if not end_is_exact(t0[i], d) or not np.array_equal(np.asarray(t0[i], dtype=float) + d, t1[i]):
            return None
    return d


def accepts_ccd(op, t0, t1):
    """Whether FCL can hold the row's motion exactly (see the docstring)."""
    if op == "ccd":
        (a, b), (da, db) = t0, t1
        return end_is_exact(a.center, da) and end_is_exact(b.center, db)
    return all(_displacement(t0, t1, g) is not None for g in _GROUPS[op])


def _mesh(points):
    import fcl

    m = fcl.BVHModel()
    m.beginModel(3, 1)
    m.addSubModel(np.array(points, dtype=float), np.array([[0, 1, 2]], dtype=np.int32))
    m.endModel()
    return m


def query_ccd(op, t0, t1):
    """The claim for one ccd row (``judge.ccd_line``'s forms)."""
    import fcl

    if op == "ccd":
        (a, b), (da, db) = t0, t1
        objs = [obj(a), obj(b)]
        ends = [fcl.Transform(np.array(s.R, dtype=float), np.array(s.center, dtype=float) + d)
                for s, d in ((a, da), (b, db))]
        solver, key = fcl.CCDSolverType.CCDC_NAIVE, "t_enter_f64"
    else:
        t0, t1 = np.asarray(t0, dtype=float), np.asarray(t1, dtype=float)
        ga, gb = _GROUPS[op]
        pa = [t0[0]] * 3 if op == "ccd_vf" else [t0[0], t0[1], t0[1]]
        pb = [t0[1], t0[2], t0[3]] if op == "ccd_vf" else [t0[2], t0[3], t0[3]]
        objs = [fcl.CollisionObject(_mesh(p), fcl.Transform()) for p in (pa, pb)]
        ends = []
        for g in (ga, gb):
            d = _displacement(t0, t1, g)
            if d is None:
                raise ValueError("the points of one side do not move by one translation")
            ends.append(fcl.Transform(np.eye(3), d))
        solver, key = fcl.CCDSolverType.CCDC_POLYNOMIAL_SOLVER, "toi_f64"
    req = fcl.ContinuousCollisionRequest(ccd_motion_type=fcl.CCDMotionType.CCDM_TRANS, ccd_solver_type=solver)
    res = fcl.ContinuousCollisionResult()
    fcl.continuousCollide(objs[0], ends[0], objs[1], ends[1], req, res)
    if not res.is_collide:
        return {"hit": False}
    return {"hit": True, key: float(res.time_of_contact), "abs_tol": ABS_TOL}
