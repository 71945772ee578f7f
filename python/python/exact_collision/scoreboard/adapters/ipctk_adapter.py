"""ipctk (the IPC toolkit's Python bindings): ``TightInclusionCCD``, its
default narrow-phase continuous collision detection, on the scoreboard's
time-of-impact cases (``ccd_cases``: a vertex against a triangle,
``point_triangle_ccd``; two edges, ``edge_edge_ccd``; every point moving
linearly over t ∈ [0, 1]). ipctk takes no static shape pairs.

Calls: ``point_triangle_ccd(v, f0, f1, f2 at t = 0, the same at t = 1)`` and
``edge_edge_ccd(a0, a1, b0, b1 at t = 0, the same at t = 1)`` with the
defaults (``min_distance`` 0, ``tmax`` 1, tolerance 1e-6,
``conservative_rescaling`` 0.8): each returns (hit, toi). The points are the
case's doubles, in the protocol's order, so the exact side answers the very
input ipctk is given (no set of its own to state).

Claims: ``{"hit": false}`` for no contact; ``{"hit": true, "toi_f64": toi}``
for a contact, judged as the protocol's ``verify`` judges a time: within
``abs_tol`` 1e-9 (verify's default) of the exact first time's certified
interval. ipctk's convention is a conservative time: by design it returns a
time at or before the first contact, never after it (Tight Inclusion's
tolerance is absolute, in the coordinates' units: measured, 0.49995 for an
exact 1/2 with coordinates of size 1, 1/4 for the same scaled by 2^-20).
Such an early time is not the time of impact and the judge calls it
"disagree"; the report counts those apart (``early``) from the unsafe kinds: ``late`` (after the
exact first contact), ``miss`` (no contact claimed where the points meet) and
``false hit`` (a contact claimed where they never meet, also allowed by its
conservative design within its tolerance).
"""

from __future__ import annotations

import numpy as np

NAME = "ipctk"
KINDS = ()  # no static shape pairs
CCD_OPS = ("ccd_vf", "ccd_ee")
REL_TOL = 0.0  # no distance claims
ABS_TOL = 1e-9  # verify's default for times
TOI_CONVENTION = ("early",)  # conservative times, by design
_ccd = None


def version():
    import ipctk

    ipctk.set_logger_level(ipctk.LoggerLevel.error)  # it warns on every query starting in contact
    return getattr(ipctk, "__version__", "?")


def query_ccd(op, t0, t1):
    """The claim for one ccd query (4×3 arrays of the points at t = 0, 1)."""
    global _ccd
    import ipctk

    if _ccd is None:
        _ccd = ipctk.TightInclusionCCD()
    f = _ccd.point_triangle_ccd if op == "ccd_vf" else _ccd.edge_edge_ccd
    p0 = [np.array(p, dtype=float) for p in t0]
    p1 = [np.array(p, dtype=float) for p in t1]
    hit, toi = f(*p0, *p1)
    if not hit:
        return {"hit": False}
    return {"hit": True, "toi_f64": float(toi), "abs_tol": ABS_TOL}
