"""pybullet (Bullet 3, the 3.2.7 wheel, double precision) in DIRECT mode.

Shapes: ``GEOM_SPHERE``, ``GEOM_CAPSULE`` (its axis the local z axis, ``height``
the full length 2h), ``GEOM_BOX`` (``halfExtents`` e) and ``GEOM_MESH`` with
``vertices`` (a convex hull of the points, in world coordinates under the
identity pose; a triangle is the mesh of its three corners), each the
collision shape of a static multibody; the answer is the smallest
``contactDistance`` of ``getClosestPoints``.

Conventions handled here:

- Poses are quaternions: the body's orientation is read back and the exact
  box or capsule is built with the matrix Bullet makes of it
  (``getMatrixFromQuaternion``, the same ``btMatrix3x3`` code), so a rotation
  that is not exactly representable is judged on what Bullet holds.
- Collision margin m = 0.001 (pybullet's default, measured on this wheel: a
  box corner is rounded, a mesh is grown): a box is held as the box of half
  extents fl(e - m) grown by a ball of radius m (Bullet subtracts the margin
  from the extents in doubles), a mesh hull as the hull grown by m, a
  triangle as the triangle grown by m (protocol ``radius``). Spheres
  and capsules carry their radius as margin and are exact. A box with a half
  extent at or below 2m is not judged (``accepts``): Bullet subtracts the
  margin from the extents, and a negative extent makes its support mapping no
  convex set's; radius-0 spheres and capsules are refused by
  ``createCollisionShape`` (recorded as exceptions).
- ``contactDistance`` is signed (negative: penetration); the distance claim
  is max(d, 0) with rel_tol 1e-6, the intersect claim d <= 0 (touching
  counts, as in the protocol). The closest points (``positionOnA/B``) are
  drawn in the report.
- Contact: the same closest point (``getClosestPoints`` answers in the
  format of ``getContactPoints``, which finds nothing between two static
  bodies): when its ``contactDistance`` d < 0, ``depth_f64`` = −d,
  ``normal`` = −``contactNormalOnB`` (Bullet's normal points from B toward
  A; the protocol's from a toward b), ``contact`` = [``positionOnA``,
  ``positionOnB``]; d ≥ 0 is the claim ``depth_f64: 0``. The sets judged are
  the ones Bullet holds (margins included, as above).
"""

from __future__ import annotations

import contextlib
import os
import sys

import numpy as np

from . import Answer

NAME = "pybullet"
KINDS = ("box", "sphere", "capsule", "convex", "triangle")
REL_TOL = 1e-6
MARGIN = 0.001
_client = None


@contextlib.contextmanager
def _quiet():
    """Bullet prints its warnings (and its build time) from C on file
    descriptors 1 and 2; they are silenced while it runs (its failures still
    reach Python as exceptions)."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = [os.dup(1), os.dup(2)]
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 1)
        os.dup2(null, 2)
        yield
    finally:
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for fd in saved + [null]:
            os.close(fd)


def version():
    from importlib import metadata

    with _quiet():
        import pybullet  # noqa: F401  (ImportError: skipped)
    try:
        return metadata.version("pybullet")
    except metadata.PackageNotFoundError:
        return "?"


def accepts(a, b):
    return all(s.kind != "box" or float(min(s.half)) > 2 * MARGIN for s in (a, b))


def _connect():
    global _client
    import pybullet as p

    if _client is None:
        _client = p.connect(p.DIRECT)
    return p, _client


def quaternion(R):
    """(x, y, z, w) of a rotation matrix (Shepperd's method, in doubles)."""
    t = np.trace(R)
    if t > 0:
        s = 2 * np.sqrt(t + 1)
        q = [(R[2, 1] - R[1, 2]) / s, (R[0, 2] - R[2, 0]) / s, (R[1, 0] - R[0, 1]) / s, s / 4]
    else:
        i = int(np.argmax(np.diag(R)))
        j, k = (i + 1) % 3, (i + 2) % 3
        s = 2 * np.sqrt(1 + R[i, i] - R[j, j] - R[k, k])
        q = [0.0, 0.0, 0.0, (R[k, j] - R[j, k]) / s]
        q[i] = s / 4
        q[j] = (R[j, i] + R[i, j]) / s
        q[k] = (R[k, i] + R[i, k]) / s
    return [float(x) for x in q]


def _body(p, cid, s):
    """A static body of shape s; (body, collision shape, the exact set Bullet holds)."""
    pos, orn = [0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]
    if s.kind == "sphere":
        shape = p.createCollisionShape(p.GEOM_SPHERE, radius=s.radius, physicsClientId=cid)
        pos = [float(x) for x in s.center]
    elif s.kind == "capsule":
        shape = p.createCollisionShape(p.GEOM_CAPSULE, radius=s.radius, height=2 * s.h, physicsClientId=cid)
        pos, orn = [float(x) for x in s.center], quaternion(s.R)
    elif s.kind == "box":
        shape = p.createCollisionShape(p.GEOM_BOX, halfExtents=[float(x) for x in s.half], physicsClientId=cid)
        pos, orn = [float(x) for x in s.center], quaternion(s.R)
    else:
        shape = p.createCollisionShape(p.GEOM_MESH, vertices=[[float(x) for x in q] for q in s.points],
                                       physicsClientId=cid)
    body = p.createMultiBody(0, shape, -1, pos, orn, physicsClientId=cid)
    got_pos, got_orn = p.getBasePositionAndOrientation(body, physicsClientId=cid)
    R = np.array(p.getMatrixFromQuaternion(got_orn), dtype=float).reshape(3, 3)
    if s.kind == "sphere":
        held = s.with_(center=got_pos)
    elif s.kind == "capsule":
        held = s.with_(center=got_pos, R=R)
    elif s.kind == "box":
        held = s.with_(center=got_pos, R=R, half=s.half - MARGIN, margin=MARGIN)
    else:
        held = s.with_(margin=MARGIN)
    return body, shape, held


def query(a, b):
    with _quiet():
        return _query(a, b)


def _query(a, b):
    p, cid = _connect()
    ba, sa, ha = _body(p, cid, a)
    bb, sb, hb = _body(p, cid, b)
    try:
        span = float(np.max(np.abs(np.vstack([a.corners(), b.corners()])))) + a.radius + b.radius
        pts = p.getClosestPoints(ba, bb, 4 * span + 1, physicsClientId=cid)
    finally:
        p.resetSimulation(physicsClientId=cid)  # frees the bodies and shapes
    if not pts:
        raise RuntimeError("getClosestPoints returned no point")
    best = min(pts, key=lambda c: c[8])
    d = float(best[8])
    contact = {"depth_f64": 0.0}
    if d < 0:
        contact = {"depth_f64": -d, "normal": [-float(x) for x in best[7]],
                   "contact": [[float(x) for x in best[5]], [float(x) for x in best[6]]]}
    return Answer(intersect=d <= 0, distance=d, a=ha, b=hb, contact=contact,
                  extra={"engine_points": [list(best[5]), list(best[6])]})
