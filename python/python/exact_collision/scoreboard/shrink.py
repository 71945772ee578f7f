"""Shrinking a disagreement: a simpler case on which the engine is still wrong
in the same way.

A disagreement is an engine's claim the exact judge rejected on a case (two
``shapes.Shape``). ``shrink`` tries simpler cases, each still a valid pair of
shapes: the whole scene scaled by a power of two toward size 1 and translated
toward the origin (exactly, so the relative geometry is unchanged), a
signed-permutation pose turned to the identity with the scene (exactly), a
box's or capsule's rotation replaced by the identity or the nearest signed
permutation, a convex hull with one point fewer (a solid hull stays solid, a
flat polygon stays in convex order), and numbers (coordinates, half extents,
radii, half lengths) rounded to fewer significant bits, to integers or to 0
(sizes stay positive). For every candidate it ASKS THE ENGINE AGAIN through its
adapter and judges the new claim exactly (``answer_lines``); it keeps the
candidate only when the verdict is still "disagree" with the same kind of
disagreement (``kind``) and the case is strictly smaller (``case_size``: the
bits of every number, one per point, one for a
rotation other than the identity). An engine's exception on a
candidate rejects that candidate. The search is greedy, one candidate at a
time, bounded by a number of engine calls and a time per case.

Nothing here decides a verdict: the judge does, on every kept case.
"""

from __future__ import annotations

import json
import math
import time
from fractions import Fraction

import numpy as np

from .. import answer_lines
from . import adapters
from .judge import ccd_claim_lines, claim_lines, contact_fields, toi_kind

BATCH = 1  # candidates asked of the engine per round (judging stops at the first kept)


def bits(x) -> int:
    """The size of a double: bits of the numerator and the denominator of its
    exact value (0 for 0, 1 for ±1, 41 for 2^40 or 2^-40)."""
    x = float(x)
    if x == 0 or not math.isfinite(x):
        return 0
    n, d = x.as_integer_ratio()
    return abs(n).bit_length() + d.bit_length() - 1


def shape_size(s) -> int:
    n = 0
    for arr in (s.center, s.half, s.points):
        if arr is not None:
            n += sum(map(bits, arr.ravel().tolist()))
    if s.points is not None:
        n += len(s.points)
    if s.kind in ("box", "capsule"):
        n += sum(map(bits, s.R.ravel().tolist())) + (0 if np.array_equal(s.R, np.eye(3)) else 1)
    return n + bits(s.radius) + bits(s.h) + bits(s.margin)


def case_size(a, b) -> int:
    """Bits of every number of the case, plus one per hull or triangle point
    and one per rotation other than the identity."""
    return shape_size(a) + shape_size(b)


def _over_under(d, e):
    if d == 0:
        return "zero"
    if not isinstance(e, (int, float)):
        return "other"
    return "over" if Fraction(d) > Fraction(e) else "under"


def kind(q, ans, wrong_fields=None):
    """What kind of disagreement a judged claim line is, or None when the
    verdict is not "disagree": ("intersect", claimed bool), or ("distance",
    "zero" | "over" | "under") for a claimed 0, a claim above or below the
    exact distance (compared with its correctly rounded double, which orders
    a double claim exactly against the exact value); ("contact", the depth's
    kind or None when the depth is right, the fields judged wrong alone:
    ``wrong_fields`` or judged here); ("toi", "early" | "late" | "miss" |
    "false hit") (``judge.toi_kind``)."""
    if ans.get("verdict") != "disagree":
        return None
    c = q["claim"]
    if q["op"] == "intersect":
        return ("intersect", bool(c["intersect"]))
    if q["op"] in ("ccd_vf", "ccd_ee", "ccd"):
        return ("toi", toi_kind(q, ans))
    if q["op"] == "contact":
        if wrong_fields is None:
            [wrong_fields] = contact_fields([(json.dumps(q), ans)])
        depth = (_over_under(c["depth_f64"], ans.get("depth_f64", 0.0))
                 if "depth_f64" in wrong_fields else None)
        return ("contact", depth, tuple(sorted(wrong_fields)))
    return ("distance", _over_under(c["distance_f64"], ans.get("distance_f64")))


# --- validity -----------------------------------------------------------------

def _orient(p, q, r, s):
    a = [Fraction(float(x)) - Fraction(float(y)) for x, y in zip(q, p)]
    b = [Fraction(float(x)) - Fraction(float(y)) for x, y in zip(r, p)]
    c = [Fraction(float(x)) - Fraction(float(y)) for x, y in zip(s, p)]
    return (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0])
            + a[2] * (b[0] * c[1] - b[1] * c[0]))


def _solid(pts) -> bool:
    """Exactly: the points do not all lie in one plane."""
    p = [tuple(map(float, x)) for x in pts]
    if len(p) < 4:
        return False
    p0 = p[0]
    for i in range(1, len(p)):
        for j in range(i + 1, len(p)):
            d1 = [Fraction(x) - Fraction(y) for x, y in zip(p[i], p0)]
            d2 = [Fraction(x) - Fraction(y) for x, y in zip(p[j], p0)]
            n = (d1[1] * d2[2] - d1[2] * d2[1], d1[2] * d2[0] - d1[0] * d2[2], d1[0] * d2[1] - d1[1] * d2[0])
            if any(n):
                return any(_orient(p0, p[i], p[j], s) != 0 for s in p)
    return False


def _thick(pts, rel=1e-6) -> bool:
    """In floats, for choosing candidates only: the points span a solid whose
    width in every direction is at least ``rel`` times its diameter. A hull
    engines take as solid: coal 3.0.3's convexHull crashes the process (a
    segmentation fault, not an exception) on input its hull code finds flat,
    so nearly flat candidates are never offered to an engine."""
    p = np.asarray(pts, dtype=float)
    p = p - p[0]
    d = np.linalg.norm(p, axis=1)
    diam = float(d.max())
    if not diam > 0:
        return False
    u = p[int(d.argmax())] / diam
    q = p - np.outer(p @ u, u)
    dq = np.linalg.norm(q, axis=1)
    if not dq.max() >= rel * diam:
        return False
    v = q[int(dq.argmax())] / dq.max()
    n = np.cross(u, v)
    return bool(np.abs(p @ n).max() >= rel * diam)


def valid(s) -> bool:
    """The shape is one the cases could hold: finite numbers, positive sizes
    where the original had them (checked by the caller), a solid hull with
    distinct points not in one plane (and not nearly: ``_thick``), a flat hull
    in one plane."""
    for arr in (s.center, s.half, s.points, s.R):
        if arr is not None and not np.all(np.isfinite(arr)):
            return False
    if s.kind == "box" and not np.all(s.half > 0):
        return False
    if s.kind == "convex":
        pts = [tuple(map(float, p)) for p in s.points]
        if len(set(pts)) != len(pts) or len(pts) < 3:
            return False
        if s.flat:
            return not _solid(pts) and len(pts) >= 3
        return _thick(pts) and _solid(pts)
    return True


# --- candidates ---------------------------------------------------------------

def _fewer_bits(x, k):
    if x == 0 or not math.isfinite(x):
        return x
    m, e = math.frexp(x)
    return math.ldexp(round(m * 2.0 ** k), e - k)


def simpler_numbers(x, size=False):
    """Simpler doubles than x, simplest first (sizes stay positive)."""
    out = []
    if not size:
        out.append(0.0)
    r = float(round(x))
    if not size or r > 0:
        out.append(r)
    for k in (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 40):
        out.append(_fewer_bits(x, k))
    seen, res = set(), []
    b = bits(x)
    for y in out:
        if (size and not y > 0) or y in seen or bits(y) >= b:
            continue
        seen.add(y)
        res.append(y)
    return res


def _exact_map(s, fn_point, fn_R=None, scale=None):
    """The shape with every point/center mapped by fn_point (and R by fn_R,
    sizes multiplied by scale), or None when the map was not exact (the caller
    checks exactness on its own terms)."""
    kw = {}
    if s.center is not None:
        kw["center"] = fn_point(s.center)
    if s.points is not None:
        kw["points"] = np.array([fn_point(p) for p in s.points])
    if fn_R is not None and s.kind in ("box", "capsule"):
        kw["R"] = fn_R(s.R)
    if scale is not None:
        if s.half is not None:
            kw["half"] = s.half * scale
        kw["radius"] = s.radius * scale
        kw["h"] = s.h * scale
        kw["margin"] = s.margin * scale
    return s.with_(**kw)


def _anchor(s):
    return s.center if s.center is not None else s.points[0]


def _scene_candidates(a, b):
    # scale by a power of two toward size 1 (exact while nothing under/overflows)
    allv = [abs(float(x)) for s in (a, b) for arr in (s.center, s.half, s.points) if arr is not None
            for x in np.ravel(arr)] + [a.radius, b.radius, a.h, b.h]
    big = max([x for x in allv if x > 0] or [1.0])
    e = math.frexp(big)[1] - 1
    if e != 0:
        f = 2.0 ** -e

        def sc(p, f=f):
            return np.asarray(p, dtype=float) * f

        yield "scale", _exact_map(a, sc, scale=f), _exact_map(b, sc, scale=f)
    # translate toward the origin: by a's anchor, then by its coarser roundings
    t0 = np.asarray(_anchor(a), dtype=float)
    ts = [t0] + [np.array([_fewer_bits(x, k) for x in t0]) for k in (1, 4, 12)] + [np.round(t0)]
    for t in ts:
        if not np.any(t):
            continue

        def tr(p, t=t):
            return np.asarray(p, dtype=float) - t

        yield "translate", _exact_map(a, tr), _exact_map(b, tr)
    # turn the scene so a's signed-permutation pose is the identity (exact)
    if a.kind in ("box", "capsule") and _is_signed_perm(a.R) and not np.array_equal(a.R, np.eye(3)):
        Rt = a.R.T.copy()

        def rp(p, Rt=Rt):
            return Rt @ np.asarray(p, dtype=float)

        def rR(R, Rt=Rt):
            return Rt @ R

        yield "turn", _exact_map(a, rp, rR), _exact_map(b, rp, rR)


def _is_signed_perm(R):
    return bool(np.all(np.isin(R, (-1.0, 0.0, 1.0))) and np.all(np.sum(np.abs(R), axis=0) == 1))


def _nearest_signed_perm(R):
    P = np.zeros((3, 3))
    used = set()
    for j in range(3):
        i = max((i for i in range(3) if i not in used), key=lambda i: abs(R[i, j]))
        used.add(i)
        P[i, j] = 1.0 if R[i, j] >= 0 else -1.0
    if np.linalg.det(P) < 0:
        P[:, 0] = -P[:, 0]
    return P


def _shape_candidates(s):
    """Simpler versions of one shape."""
    if s.kind in ("box", "capsule") and not np.array_equal(s.R, np.eye(3)):
        yield s.with_(R=np.eye(3))
        P = _nearest_signed_perm(s.R)
        if not np.array_equal(P, s.R):
            yield s.with_(R=P)
    if s.kind == "convex" and len(s.points) > (3 if s.flat else 4):
        for i in range(len(s.points)):
            yield s.with_(points=np.delete(s.points, i, axis=0))
    if s.kind == "convex" and s.flat:
        return  # rounding a polygon's coordinates could lift it off its plane
    # every number of the shape rounded at once, then each alone
    for k in (1, 2, 4, 8, 16, 32):
        yield _round_all(s, lambda x, size, k=k: _fewer_bits(x, k) if (not size or _fewer_bits(x, k) > 0) else x)
    fields = []
    if s.center is not None:
        fields += [("center", i, False) for i in range(3)]
    if s.half is not None:
        fields += [("half", i, True) for i in range(3)]
    if s.points is not None:
        fields += [("points", (i, j), False) for i in range(len(s.points)) for j in range(3)]
    if s.kind in ("sphere", "capsule") and s.radius > 0:
        fields.append(("radius", None, True))
    if s.kind == "capsule" and s.h > 0:
        fields.append(("h", None, True))
    for name, idx, size in fields:
        cur = getattr(s, name) if idx is None else getattr(s, name)[idx]
        for y in simpler_numbers(float(cur), size):
            if idx is None:
                yield s.with_(**{name: y})
            else:
                arr = getattr(s, name).copy()
                arr[idx] = y
                yield s.with_(**{name: arr})


def _round_all(s, f):
    kw = {}
    for name, size in (("center", False), ("half", True), ("points", False)):
        arr = getattr(s, name)
        if arr is not None:
            kw[name] = np.vectorize(lambda x: f(float(x), size))(arr).astype(float)
    if s.kind in ("sphere", "capsule") and s.radius > 0:
        kw["radius"] = f(s.radius, True)
    if s.kind == "capsule" and s.h > 0:
        kw["h"] = f(s.h, True)
    return s.with_(**kw)


def candidates(a, b):
    """(what, a', b') simpler cases than (a, b), the largest changes first."""
    for what, ca, cb in _scene_candidates(a, b):
        yield what, ca, cb
    for ca in _shape_candidates(a):
        yield "a", ca, b
    for cb in _shape_candidates(b):
        yield "b", a, cb


def _keeps_sizes(orig, new):
    """Radii and half lengths that were positive stay positive."""
    return not ((orig.radius > 0 and not new.radius > 0) or (orig.h > 0 and not new.h > 0))


# --- the search ---------------------------------------------------------------

def could_be(claim, want) -> bool:
    """Whether a claim can be a disagreement of kind ``want`` at all (a
    different claimed decision, or a nonzero claim for "zero", cannot): such
    candidates are not sent to the judge."""
    if want is None:
        return True
    if want[0] == "intersect":
        return claim.get("intersect") == want[1]
    if want[0] == "toi":
        return bool(claim.get("hit")) == (want[1] != "miss")
    if want[0] == "contact":
        d = claim.get("depth_f64")
        return want[1] is None or (d == 0 if want[1] == "zero" else d != 0)
    d = claim.get("distance_f64")
    return d == 0 if want[1] == "zero" else d != 0


def ask(name, mod, op, pairs, want=None):
    """The engine asked on each pair: a list of (line, query, None) to judge
    with ``judged``, or None where the engine raised, did not claim, or
    claimed what cannot be a disagreement of kind ``want``; and the number of
    pairs the engine raised on."""
    rows = [("shrink", None, a, b, i) for i, (a, b) in enumerate(pairs)]
    lines, failed = claim_lines(name, mod, rows)
    lines = [ln for ln in lines if json.loads(ln)["op"] == op and could_be(json.loads(ln)["claim"], want)]
    out = [None] * len(pairs)
    for ln in lines:
        q = json.loads(ln)
        out[q["meta"]["row"]] = (ln, q, None)
    return out, len([f for f in failed if op in f.get("ops", [op])])


def judged(entry):
    """(line, query, answer) of an entry of ``ask``, judged now (one line per
    call: on a busy machine a batch costs the judge's threads more than the
    lines after the first kept one are worth)."""
    ln, q, ans = entry
    if ans is None:
        ans = json.loads(answer_lines([ln])[0])
    return ln, q, ans


def shrink(name, mod, op, a, b, want, max_calls=120, seconds=0.5):
    """Greedy shrinking of the case (a, b) on which engine ``name`` (adapter
    ``mod``) made a disagreement of kind ``want`` on ``op``.

    Returns a dict: ``a``, ``b`` (the smallest case kept; the originals when
    none was), ``line``/``answer`` (its judged claim line, None when nothing
    was kept), ``size_before``, ``size_after``, ``steps`` (kept candidates),
    ``calls`` (engine calls), ``exceptions`` (candidates the engine raised on)
    and ``seconds``."""
    t0 = time.perf_counter()
    size0 = size = case_size(a, b)
    best = None
    steps = calls = exc = 0
    improved = True
    while improved and calls < max_calls and time.perf_counter() - t0 < seconds:
        improved = False
        gen = candidates(a, b)
        while calls < max_calls and time.perf_counter() - t0 < seconds:
            batch = []
            for what, ca, cb in gen:
                if not (_keeps_sizes(a, ca) and _keeps_sizes(b, cb)):
                    continue
                if (ca is not a and not valid(ca)) or (cb is not b and not valid(cb)):
                    continue
                if case_size(ca, cb) >= size or not adapters.supports(mod, ca, cb):
                    continue
                batch.append((ca, cb))
                if len(batch) >= min(BATCH, max_calls - calls):
                    break
            if not batch:
                break
            calls += len(batch)
            asked, failed = ask(name, mod, op, batch, want)
            exc += failed
            for (ca, cb), j in zip(batch, asked):
                if j is None:
                    continue
                try:
                    j = judged(j)
                except Exception:  # the judge refused the line: drop the candidate
                    continue
                if kind(j[1], j[2]) == want:
                    a, b, best = ca, cb, j
                    size = case_size(a, b)
                    steps += 1
                    improved = True
                    break
            if improved:
                break
    return {"a": a, "b": b, "line": None if best is None else best[0], "answer": None if best is None else best[2],
            "size_before": size0, "size_after": size, "steps": steps, "calls": calls, "exceptions": exc,
            "seconds": time.perf_counter() - t0}


# --- time of impact -----------------------------------------------------------

def ccd_size(t0, t1) -> int:
    """Bits of every coordinate of both frames."""
    return sum(map(bits, np.ravel(t0).tolist())) + sum(map(bits, np.ravel(t1).tolist()))


def ccd_candidates(t0, t1):
    """Simpler ccd cases than (t0, t1), the largest changes first: both frames
    scaled by a power of two toward size 1 (exact), moved by the first
    point's position at t = 0 or a coarser rounding of it, then the frames'
    numbers rounded at once to 1 … 32 significant bits, then each number
    alone made simpler (to 0, an integer or fewer bits)."""
    allv = [abs(float(x)) for x in np.concatenate([np.ravel(t0), np.ravel(t1)]) if x != 0]
    big = max(allv or [1.0])
    e = math.frexp(big)[1] - 1
    if e != 0:
        yield t0 * 2.0 ** -e, t1 * 2.0 ** -e
    p = np.asarray(t0[0], dtype=float)
    for t in [p] + [np.array([_fewer_bits(x, k) for x in p]) for k in (1, 4, 12)] + [np.round(p)]:
        if np.any(t):
            yield t0 - t, t1 - t
    for k in (1, 2, 4, 8, 16, 32):
        f = np.vectorize(lambda x, k=k: _fewer_bits(float(x), k))
        yield f(t0).astype(float), f(t1).astype(float)
    for which in (0, 1):
        arr = (t0, t1)[which]
        for idx in np.ndindex(arr.shape):
            for y in simpler_numbers(float(arr[idx])):
                new = arr.copy()
                new[idx] = y
                yield (new, t1) if which == 0 else (t0, new)


def _shrink_toi(name, mod, scene, candidates_of, size_of, usable, query_of, want, max_calls, seconds):
    """The greedy search of ``shrink_ccd`` and ``shrink_box_ccd``: from
    ``scene``, each of ``candidates_of(scene)`` that is ``usable`` and strictly
    smaller (``size_of``) is asked of the engine again (``query_of`` gives the
    ``ccd_claim_lines`` row's op, t0 and t1) and judged exactly; the first
    one still wrong the same way (``kind`` is ``want``) is kept and the search
    starts again from it. Returns the scene kept and the result dict without
    ``a``/``b``."""
    tstart = time.perf_counter()
    size0 = size = size_of(scene)
    best = None
    steps = calls = exc = 0
    improved = True
    while improved and calls < max_calls and time.perf_counter() - tstart < seconds:
        improved = False
        for cand in candidates_of(scene):
            if calls >= max_calls or time.perf_counter() - tstart >= seconds:
                break
            if not usable(cand) or size_of(cand) >= size:
                continue
            calls += 1
            lines, failed = ccd_claim_lines(name, mod, [("shrink", None, *query_of(cand), 0)])
            exc += len(failed)
            if not lines or not could_be(json.loads(lines[0])["claim"], want):
                continue
            try:
                ln, q, ans = judged((lines[0], json.loads(lines[0]), None))
            except Exception:  # the judge refused the line: drop the candidate
                continue
            if kind(q, ans) == want:
                scene, best = cand, (ln, ans)
                size = size_of(scene)
                steps += 1
                improved = True
                break
    return scene, {"line": None if best is None else best[0], "answer": None if best is None else best[1],
                   "size_before": size0, "size_after": size, "steps": steps, "calls": calls, "exceptions": exc,
                   "seconds": time.perf_counter() - tstart}


def _finite(*arrays) -> bool:
    return all(np.all(np.isfinite(x)) for x in arrays)


def shrink_ccd(name, mod, op, t0, t1, want, max_calls=120, seconds=0.5):
    """Greedy shrinking of a time-of-impact disagreement of kind ``want``
    (``kind``): like ``shrink``, each candidate asked of the engine again and
    judged exactly, kept only when strictly smaller and still wrong the same
    way. Returns the same dict as ``shrink`` (``t0``/``t1`` for ``a``/``b``)."""
    t0, t1 = np.asarray(t0, dtype=float), np.asarray(t1, dtype=float)
    (t0, t1), res = _shrink_toi(name, mod, (t0, t1), lambda s: ccd_candidates(*s), lambda s: ccd_size(*s),
                                lambda s: _finite(*s), lambda s: (op, *s), want, max_calls, seconds)
    return {"a": t0, "b": t1, **res}


# --- time of impact of boxes (the ``ccd`` op) ---------------------------------

def box_ccd_size(a, b, da, db) -> int:
    """``case_size`` of the boxes plus the bits of both displacements."""
    return case_size(a, b) + sum(map(bits, np.ravel(da).tolist())) + sum(map(bits, np.ravel(db).tolist()))


def box_ccd_candidates(a, b, da, db):
    """Simpler box ccd cases than (a, b, da, db), the largest changes first:
    the scene (boxes and displacements) scaled by a power of two toward size
    1 (exact), moved by a's center or a coarser rounding of it, turned so a's
    signed-permutation pose is the identity (exact), then each box made
    simpler (``_shape_candidates``: rotation, rounded numbers), then each
    displacement's numbers rounded at once to 1 … 32 significant bits and
    alone made simpler. Candidates that were not exact maps are left out."""
    da, db = np.asarray(da, dtype=float), np.asarray(db, dtype=float)
    allv = [abs(float(x)) for s in (a, b) for arr in (s.center, s.half) for x in np.ravel(arr)]
    allv += [abs(float(x)) for x in np.concatenate([da, db])]
    big = max([x for x in allv if x > 0] or [1.0])
    e = math.frexp(big)[1] - 1
    if e != 0:
        f = 2.0 ** -e

        def sc(p, f=f):
            return np.asarray(p, dtype=float) * f

        yield _exact_map(a, sc, scale=f), _exact_map(b, sc, scale=f), da * f, db * f
    for what, ca, cb in _scene_candidates(a, b):
        if what == "translate":
            yield ca, cb, da, db
        elif what == "turn":
            yield ca, cb, a.R.T @ da, a.R.T @ db
    for ca in _shape_candidates(a):
        yield ca, b, da, db
    for cb in _shape_candidates(b):
        yield a, cb, da, db
    for which in (0, 1):
        d = (da, db)[which]
        if not np.any(d):
            continue
        outs = [np.array([_fewer_bits(float(x), k) for x in d]) for k in (1, 2, 4, 8, 16, 32)]
        for idx in range(3):
            for y in simpler_numbers(float(d[idx])):
                new = d.copy()
                new[idx] = y
                outs.append(new)
        for new in outs:
            yield (a, b, new, db) if which == 0 else (a, b, da, new)


def shrink_box_ccd(name, mod, ab, d, want, max_calls=120, seconds=0.5):
    """Greedy shrinking of a box time-of-impact disagreement of kind ``want``
    (``kind``), as ``shrink_ccd``: each candidate asked of the engine again
    (through its ``accepts_ccd`` and ``query_ccd``) and judged exactly, kept
    only when strictly smaller and still wrong the same way. Returns the same
    dict as ``shrink``."""

    def usable(s):
        ca, cb, cda, cdb = s
        return ca is not None and cb is not None and valid(ca) and valid(cb) and _finite(cda, cdb)

    (a, b, da, db), res = _shrink_toi(name, mod, (*ab, *d), lambda s: box_ccd_candidates(*s),
                                      lambda s: box_ccd_size(*s), usable,
                                      lambda s: ("ccd", (s[0], s[1]), (s[2], s[3])), want, max_calls, seconds)
    return {"a": (a, da), "b": (b, db), **res}
