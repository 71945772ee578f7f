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
"""

from __future__ import annotations

import numpy as np

from ..hull import hull_faces
from . import Answer

NAME = "fcl"
KINDS = ("box", "sphere", "capsule", "convex", "triangle")
REL_TOL = 1e-6


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
