"""Engine adapters: one module per engine, each turning a case (two
``shapes.Shape``) into the engine's own shapes and poses, and the engine's
answer into protocol claims.

An adapter module defines:

- ``NAME``: the engine's name in reports;
- ``KINDS``: the shape kinds it takes (``shapes.KINDS``); ``PAIRS``, optional:
  the pairs of kinds it takes when not all pairs of ``KINDS`` are (sorted
  tuples);
- ``REL_TOL``: the relative tolerance its distance and contact claims carry
  (the engine's own GJK/EPA tolerance);
- ``version()``: the engine's version, importing it (ImportError when the
  engine is not installed: the engine is skipped);
- ``query(a, b) -> Answer``: the engine's answer for one pair, with its
  contact (``Answer.contact``) where the engine gives one;
- ``accepts(a, b)``, optional: False for a pair the adapter cannot state the
  engine's set for (the pair is not judged and not counted).

An engine of continuous collision has ``CCD_OPS`` (of ``ccd_vf``, ``ccd_ee``,
``ccd``) and ``query_ccd(op, t0, t1) -> claim`` (a protocol claim ``{"hit": …,
"toi_f64": …}``, ``t_enter_f64`` on ``ccd``) for the cases of ``ccd_cases``
(on ``ccd`` rows ``t0`` is the boxes (a, b) at t = 0 and ``t1`` their
displacements (da, db)); ``KINDS = ()`` when it has no static queries (ipctk;
FCL has both). Optional: ``accepts_ccd(op, t0, t1)``, False for a row whose
motion the engine cannot hold exactly (not judged, not counted), and
``TOI_CONVENTION``, the wrong kinds (``early``, ``late``) that are the engine's
design (the report shows the others first). An engine checked by the program itself (parry, through
``exact-collision check-parry``) has ``KINDS = ()`` and ``external(n_cases,
seed)`` returning its tables (see ``parry_adapter``).

Conventions (normal direction, signed distance, margins, what touching means)
are handled inside the adapter and stated in its docstring; an ``Answer``
carries the protocol's meaning: ``intersect`` (the closed sets share a point,
per the engine), ``distance`` (the engine's distance, negative for a
penetration depth when the engine gives one), and ``a``/``b``: the exact sets
the engine actually holds when they differ from the case's (a pose read back
from the engine, a collision margin), so that the judge judges the engine on
what it was given. ``contact`` is the engine's contact as a protocol claim
on the ``contact`` op (``depth_f64``, ``normal`` from a to b, ``contact``
points), or ``{"depth_f64": 0.0}`` when the engine finds no contact; None when
the engine was not asked for one.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Optional

ADAPTERS = ("coal", "pybullet", "mujoco", "fcl", "ipctk", "parry")


@dataclass
class Answer:
    intersect: Optional[bool] = None
    distance: Optional[float] = None
    a: object = None
    b: object = None
    contact: Optional[dict] = None
    extra: dict = field(default_factory=dict)


def load(name):
    """The adapter module of ``name`` and its engine's version, or (None,
    reason) when the engine is not installed."""
    mod = importlib.import_module(f"{__name__}.{name}_adapter")
    try:
        return mod, mod.version()
    except ImportError as e:
        return None, f"not installed ({e})"


def supports(mod, a, b) -> bool:
    if not mod.KINDS:
        return False
    accepts = getattr(mod, "accepts", None)
    if accepts is not None and not accepts(a, b):
        return False
    kinds = tuple(sorted((a.kind, b.kind)))
    pairs = getattr(mod, "PAIRS", None)
    if pairs is not None:
        return kinds in pairs
    if "triangle" in kinds and kinds != ("triangle", "triangle"):
        return False
    return a.kind in mod.KINDS and b.kind in mod.KINDS
