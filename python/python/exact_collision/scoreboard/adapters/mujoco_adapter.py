"""MuJoCo (the ``mujoco`` package): two free bodies with one geom each
(``box`` size e, ``sphere`` size r, ``capsule`` size "r h" along the local z
axis, ``mesh`` from the points), compiled per case.

The poses are written straight into ``MjData.geom_xpos`` and ``geom_xmat``
(the doubles of the case, no quaternion), then ``mj_collision`` and
``mj_geomDistance`` are called.

Conventions handled here:

- ``mj_collision`` with margin 0 (MuJoCo's default) makes a contact for
  touching primitives (dist <= margin) but none for a mesh exactly touching
  another shape (measured: a mesh cube and a sphere resting on it), while
  ``mj_geomDistance`` answers 0 for both. The intersect claim is "a contact, or a
  geomDistance of exactly 0" (touching counts, as in the protocol).
- ``mj_geomDistance`` is signed (negative: penetration); the distance claim
  is max(d, 0) with rel_tol 1e-6 (``opt.ccd_tolerance``).
- Meshes: MuJoCo stores the hull's points in single precision and moves them
  to the mesh's inertial frame (``geom_pos``/``geom_quat``). The mesh geom is
  placed at the identity and the other shape moved into the mesh's frame
  (center and rotation computed in doubles); the exact sets judged are those
  MuJoCo holds: the float32 points read back from ``mesh_vert`` and the other
  shape's moved doubles. Two meshes: each geom is placed at its own
  compiled frame (``geom_pos``, and the matrix ``mju_quat2Mat`` makes of
  ``geom_quat``), so MuJoCo computes R·v + p in doubles from its float32
  vertices v; the sets judged are those points exactly (R·v + p in
  rationals, exact strings). Flat point sets are refused by MuJoCo's
  compiler (recorded as exceptions).
- The bodies get a mass and inertia of at least 1 (``<compiler boundmass
  boundinertia>``) so that tiny shapes compile; dynamics play no part.
- Geoms of size 0 (radius-0 spheres and capsules) and meshes of tiny area are
  refused by MuJoCo's compiler (recorded as exceptions).
- Triangles are not taken (MuJoCo has no triangle geom).
- Contact: the deepest of ``mj_collision``'s contacts (``MjContact``):
  ``dist`` is signed (negative: penetration), so ``depth_f64`` = max(−dist, 0);
  ``frame[:3]`` is the unit normal from ``geom[0]`` toward ``geom[1]`` (MuJoCo
  may order the pair either way: the normal is negated when b is
  ``geom[0]``, so it points from a toward b as the protocol's does); ``pos``
  is one point midway between the surfaces, claimed as the one ``contact``
  point. No contact is the claim ``depth_f64: 0``. With a mesh, the contact
  is in the mesh's frame, the frame of the sets judged.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..shapes import _fs
from . import Answer

NAME = "mujoco"
KINDS = ("box", "sphere", "capsule", "convex")
REL_TOL = 1e-6


def version():
    import mujoco

    return mujoco.__version__


def _f(x):
    return repr(float(x))


def _geom(s, name):
    if s.kind == "sphere":
        return f'<geom name="{name}" type="sphere" size="{_f(s.radius)}"/>'
    if s.kind == "capsule":
        return f'<geom name="{name}" type="capsule" size="{_f(s.radius)} {_f(s.h)}"/>'
    if s.kind == "box":
        return f'<geom name="{name}" type="box" size="{" ".join(_f(x) for x in s.half)}"/>'
    return f'<geom name="{name}" type="mesh" mesh="m{name}"/>'


def _model(a, b):
    import mujoco

    assets = "".join(f'<mesh name="m{n}" vertex="{" ".join(_f(x) for p in s.points for x in p)}"/>'
                     for n, s in (("a", a), ("b", b)) if s.kind == "convex")
    xml = (f'<mujoco><compiler boundmass="1" boundinertia="1"/><asset>{assets}</asset><worldbody>'
           f"<body><freejoint/>{_geom(a, 'a')}</body><body><freejoint/>{_geom(b, 'b')}</body>"
           "</worldbody></mujoco>")
    return mujoco.MjModel.from_xml_string(xml)


def _quat_mat(q):
    import mujoco

    m = np.zeros(9)
    mujoco.mju_quat2Mat(m, np.asarray(q, dtype=float))
    return m.reshape(3, 3)


def query(a, b):
    import mujoco

    m = _model(a, b)
    d = mujoco.MjData(m)
    held = [a, b]
    mesh = [i for i, s in enumerate(held) if s.kind == "convex"]
    frames = [(np.zeros(3), np.eye(3))] * 2
    if len(mesh) == 2:  # each mesh at its own compiled frame; the exact points R·v + p
        frames = []
        for g in (0, 1):
            pm, Rm = m.geom_pos[g].copy(), _quat_mat(m.geom_quat[g])
            k = m.geom_dataid[g]
            verts = m.mesh_vert[m.mesh_vertadr[k]:m.mesh_vertadr[k] + m.mesh_vertnum[k]].astype(float)
            exact = [[_fs(sum((Fraction(float(Rm[i, j])) * Fraction(float(v[j])) for j in range(3)),
                              Fraction(float(pm[i])))) for i in range(3)] for v in verts]
            held[g] = held[g].with_(points=verts @ Rm.T + pm, exact_points=exact)
            frames.append((pm, Rm))
    elif mesh:  # the mesh at the identity, the other shape in the mesh's frame
        g = mesh[0]
        pm, Rm = m.geom_pos[g].copy(), _quat_mat(m.geom_quat[g])
        k = m.geom_dataid[g]
        verts = m.mesh_vert[m.mesh_vertadr[k]:m.mesh_vertadr[k] + m.mesh_vertnum[k]].astype(float)
        held[g] = held[g].with_(points=verts)
        o = 1 - g
        s = held[o]
        held[o] = s.with_(center=Rm.T @ (s.center - pm), R=Rm.T @ s.R)
    for g, s in enumerate(held):
        d.geom_xpos[g] = frames[g][0] if s.kind == "convex" else s.center
        d.geom_xmat[g] = (frames[g][1] if s.kind == "convex" else np.eye(3) if s.kind == "sphere" else s.R).ravel()
    span = float(np.max(np.abs(np.vstack([s.corners() for s in held])))) + a.radius + b.radius
    dist = float(mujoco.mj_geomDistance(m, d, 0, 1, 4 * span + 1, None))
    mujoco.mj_collision(m, d)
    hit = d.ncon > 0 or dist == 0
    contact = {"depth_f64": 0.0}
    if d.ncon > 0:
        k = min((d.contact[i] for i in range(d.ncon)), key=lambda c: float(c.dist))
        sign = -1.0 if int(k.geom[0]) == 1 else 1.0
        contact = {"depth_f64": max(-float(k.dist), 0.0) or 0.0, "normal": [sign * float(x) for x in k.frame[:3]],
                   "contact": [[float(x) for x in k.pos]]}
    return Answer(intersect=bool(hit), distance=dist, a=held[0], b=held[1], contact=contact,
                  extra={"engine_contacts": int(d.ncon)})
