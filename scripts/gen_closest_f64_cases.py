#!/usr/bin/env python3
"""Test data for `closest_f64` (tests/rounded_closest_f64.rs), worked outside the
program: two spheres (point cores, so the cores' closest pair is the two centers)
and the closest points p_a + (r_a/√q)(c_b − c_a), c_b − (r_b/√q)(c_b − c_a),
q = |c_b − c_a|², each coordinate rounded to the nearest double with Python's
`fractions` (exact inputs) and `decimal` at 150 digits; a case is kept only when
every coordinate lies farther than 10⁻¹²⁰ relative from a rounding midpoint, so
that 150 digits decide the rounding (checked here).

Also raw cases `a + s/√q` with rational a, s, q (exact strings) for
`AffineSqrt`. Writes tests/data/closest_f64_cases.jsonl.

    python3 scripts/gen_closest_f64_cases.py > tests/data/closest_f64_cases.jsonl
"""
import json
import math
import random
from decimal import Decimal, getcontext
from fractions import Fraction as F

getcontext().prec = 150


def dec(f):
    return Decimal(f.numerator) / Decimal(f.denominator)


def nearest(x):
    """(nearest double, relative distance to the nearest midpoint) of a Decimal."""
    g = float(x)  # correctly rounded from the 150-digit value
    lo, hi = math.nextafter(g, -math.inf), math.nextafter(g, math.inf)
    gd = Decimal(g)
    mids = [(gd + Decimal(lo)) / 2, (gd + Decimal(hi)) / 2]
    margin = min(abs(x - m) for m in mids) / max(abs(x), Decimal(10) ** -300)
    return g, margin


def coord(a, s, q):
    """a + s/√q, a, s, q Fractions, q > 0, as a 150-digit Decimal."""
    return dec(a) + dec(s) / dec(q).sqrt()


def rnd_double(rng, scale):
    return math.ldexp(rng.uniform(-1, 1), scale)


def main():
    rng = random.Random(20261128)
    out = []
    scales = [0] * 40 + [40] * 15 + [-40] * 15 + [300, -300, 600, -600]
    for i, e in enumerate(scales):
        while True:
            ca = [rnd_double(rng, e) for _ in range(3)]
            cb = [rnd_double(rng, e) for _ in range(3)]
            if rng.random() < 0.2:
                cb[rng.randrange(3)] = ca[0]  # a shared coordinate: d_i may be 0
            ra = abs(rnd_double(rng, e - 3))
            rb = abs(rnd_double(rng, e - 3)) if rng.random() < 0.7 else 0.0
            if i % 7 == 0:
                ra = 0.0
            A = [F(x) for x in ca]
            B = [F(x) for x in cb]
            d = [B[k] - A[k] for k in range(3)]
            q = sum(x * x for x in d)
            R = F(ra) + F(rb)
            if q <= R * R:
                continue
            rq = F(math.isqrt(q.numerator)) / F(math.isqrt(q.denominator))
            if rq * rq == q:
                continue  # rational points: the exact `closest` field instead
            pts, ok = [], True
            for base, r in ((A, F(ra)), (B, -F(rb))):
                p = []
                for k in range(3):
                    x = coord(base[k], r * d[k], q)
                    g, m = nearest(x)
                    if m < Decimal(10) ** -120:
                        ok = False
                    p.append(g)
                pts.append(p)
            if ok:
                break
        line = {
            "id": i,
            "op": "distance",
            "a": {"type": "sphere", "center": ca, "radius": ra},
            "b": {"type": "sphere", "center": cb, "radius": rb},
        }
        out.append({"line": line, "closest_f64": pts})
    # Raw a + s/√q cases: exact strings, some near midpoints (1 ± 2^-53 ± tiny).
    raw = []
    for _ in range(60):
        a = F(rng.randint(-10**20, 10**20), rng.randint(1, 10**20))
        s = F(rng.randint(-10**20, 10**20), rng.randint(1, 10**20))
        q = F(rng.randint(1, 10**30), rng.randint(1, 10**30))
        raw.append((a, s, q))
    mid = F(1) + F(1, 2**53)
    for k in (60, 100, 200):
        raw.append((mid, F(1, 2**k), F(2)))
        raw.append((mid, F(-1, 2**k), F(3)))
    # Cancellation: a ≈ −s/√q, the value far below |a|.
    r2 = Decimal(2).sqrt()
    for k in (10, 30, 50, 90):
        raw.append((F(1), -F(str(round(r2, k))) / 2, F(1, 2)))
    for a, s, q in raw:
        x = coord(a, s, q)
        g, m = nearest(x)
        if m < Decimal(10) ** -120:
            continue
        out.append({"a": str(a), "s": str(s), "q": str(q), "nearest": g})
    for o in out:
        print(json.dumps(o))


main()
