"""coal (3.x, the successor of FCL from the HPP/Pinocchio family).

Shapes: ``coal.Sphere(r)``, ``coal.Capsule(r, 2h)`` (coal's second argument is
the full length), ``coal.Box(2e)`` under ``Transform3s(R, c)`` (R used as given),
convex hulls of world points (``Convex.convexHull`` on solid input; a flat
polygon, on which convexHull crashes coal 3.0.3, as ``Convex(points, fan)``),
triangles as ``TriangleP`` for collide and one-triangle ``BVHModelOBBRSS``
meshes for distance (coal has no distance between two ``TriangleP``).

Conventions: ``collide`` > 0 contacts is the intersect claim (coal has no
margin by default: ``CollisionRequest().security_margin`` is 0, and touching
counts as a collision); ``distance`` returns a signed value (negative: a
penetration depth), the distance claim is max(d, 0) with coal's GJK tolerance
1e-6 as ``rel_tol``.

Contact: a second ``collide`` with ``enable_contact`` (up to 4 contacts; the
first call, without contacts, gives the intersect claim). Of coal's
``Contact``s the deepest one is claimed: ``penetration_depth`` is signed
(negative when the shapes overlap), so ``depth_f64`` = max(−depth, 0);
``normal`` is a unit vector from a (o1) toward b (o2), the protocol's
direction (b moves along it to separate); ``getNearestPoint1()`` lies on a and
``getNearestPoint2()`` on b, both claimed as ``contact`` points. No contact
from coal is the claim ``depth_f64: 0``. Triangles use ``TriangleP`` here too.
"""

from __future__ import annotations

import numpy as np

from . import Answer

NAME = "coal"
KINDS = ("box", "sphere", "capsule", "convex", "triangle")
REL_TOL = 1e-6


def version():
    import coal

    return getattr(coal, "__version__", "?")


def _vec3s(points):
    import coal

    v = coal.StdVec_Vec3s()
    for p in points:
        v.append(np.array(p, dtype=float))
    return v


def geometry(s, for_distance=False):
    """(coal geometry, Transform3s) of a ``Shape``."""
    import coal

    if s.kind == "sphere":
        return coal.Sphere(s.radius), coal.Transform3s(np.eye(3), s.center)
    if s.kind == "capsule":
        return coal.Capsule(s.radius, 2 * s.h), coal.Transform3s(s.R, s.center)
    if s.kind == "box":
        return coal.Box(*(2 * s.half)), coal.Transform3s(s.R, s.center)
    if s.kind == "triangle":
        if for_distance:
            m = coal.BVHModelOBBRSS()
            m.beginModel(1, 3)
            m.addTriangle(*[np.array(p, dtype=float) for p in s.points])
            m.endModel()
            return m, coal.Transform3s()
        return coal.TriangleP(*[np.array(p, dtype=float) for p in s.points]), coal.Transform3s()
    if not s.flat:
        return coal.Convex.convexHull(_vec3s(s.points), False, ""), coal.Transform3s()
    fan = coal.StdVec_Triangle()
    for i in range(1, len(s.points) - 1):
        fan.append(coal.Triangle(0, i, i + 1))
    return coal.Convex(_vec3s(s.points), fan), coal.Transform3s()


def query(a, b):
    import coal

    ga, ta = geometry(a)
    gb, tb = geometry(b)
    hit = coal.collide(ga, ta, gb, tb, coal.CollisionRequest(), coal.CollisionResult()) > 0
    contact = _contact(a, b)
    if a.kind == "triangle":
        ga, ta = geometry(a, True)
        gb, tb = geometry(b, True)
    d = coal.distance(ga, ta, gb, tb, coal.DistanceRequest(), coal.DistanceResult())
    return Answer(intersect=bool(hit), distance=float(d), contact=contact)


def _contact(a, b):
    """coal's deepest contact as a protocol claim (see the docstring)."""
    import coal

    ga, ta = geometry(a)
    gb, tb = geometry(b)
    req = coal.CollisionRequest()
    req.enable_contact = True
    req.num_max_contacts = 4
    res = coal.CollisionResult()
    if coal.collide(ga, ta, gb, tb, req, res) == 0 or not res.getContacts():
        return {"depth_f64": 0.0}
    k = min(res.getContacts(), key=lambda c: float(c.penetration_depth))
    pt = lambda p: [float(x) for x in p]  # noqa: E731
    return {"depth_f64": max(-float(k.penetration_depth), 0.0) or 0.0, "normal": pt(k.normal),
            "contact": [pt(k.getNearestPoint1()), pt(k.getNearestPoint2())]}
