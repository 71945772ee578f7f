#!/usr/bin/env python3
"""Mathematica's earliest valid time of impact for every colliding query of a step, from the
dataset's roots/<step><kind>_roots.tar.gz (WXF files), as JSON for tests/ccd_points_toi.rs:
{"<i>": {"rational": "p/q"} | {"poly": [c0, c1, ...], "real_root": k}}  (k-th real root of the
integer polynomial, 0-based, ascending). Same reading of the WXF expressions as
../shared/ccd-simulation/toi_check.py. usage: earliest_roots.py ROOTS.tar.gz > OUT.json
Needs: pip install wolframclient sympy."""
import json, re, sys, tarfile
import sympy as sp
from wolframclient.deserializers import binary_deserialize
from wolframclient.language.expression import WLFunction

x = sp.Symbol("x")

def conv(e):
    if isinstance(e, bool): raise ValueError("bool")
    if isinstance(e, int): return sp.Integer(e)
    if isinstance(e, WLFunction):
        h = str(e.head).split("`")[-1]
        a = e.args
        if h == "Plus": return sp.Add(*[conv(t) for t in a])
        if h == "Times": return sp.Mul(*[conv(t) for t in a])
        if h == "Power": return sp.Pow(conv(a[0]), conv(a[1]))
        if h == "Rational": return sp.Rational(int(a[0]), int(a[1]))
        if h == "Slot": return x
        if h == "Function": return conv(a[0])
        if h == "Root": return sp.CRootOf(sp.Poly(conv(a[0]), x), int(a[1]) - 1)
    raise ValueError(f"cannot convert {e!r}"[:200])

def t_of(sol):
    for r in sol:
        if str(r.args[0]) == "t": return conv(r.args[1])
    raise ValueError("no t")

out = {}
with tarfile.open(sys.argv[1]) as tar:
    for m in tar.getmembers():
        g = re.search(r"_q(\d+)_roots\.wxf$", m.name)
        if not g: continue
        sols = binary_deserialize(tar.extractfile(m).read())
        if not sols: continue
        ts = [t_of(s) for s in sols]
        t = ts[0]
        for u in ts[1:]:
            if sp.simplify(u - t).is_negative or (u < t) == True: t = u
        if t.is_Rational:
            out[g.group(1)] = {"rational": f"{t.p}/{t.q}"}
            continue
        # An irrational algebraic number: its minimal polynomial over Q and its
        # index among that polynomial's real roots (distinct roots of one
        # irreducible polynomial are told apart at 60 digits).
        mp = sp.Poly(sp.minimal_polynomial(t, x), x)
        roots = mp.real_roots()
        tv = sp.N(t, 60)
        k = min(range(len(roots)), key=lambda i: abs(sp.N(roots[i], 60) - tv))
        coeffs = [int(c) for c in reversed(mp.all_coeffs())]
        out[g.group(1)] = {"poly": [str(c) for c in coeffs], "real_root": k}
json.dump(dict(sorted(out.items(), key=lambda kv: int(kv[0]))), sys.stdout, indent=0)
print()
