#!/usr/bin/env python3
"""Independent check of `closest_f64` in `query` answers (outside the program).

    python3 scripts/check_closest_f64.py INPUT.jsonl ANSWERS.jsonl [BASE.jsonl]

For every answer with `closest_f64`, recomputes the closest points
p_a + (r_a/√q)(p_b − p_a) and p_b − (r_b/√q)(p_b − p_a) from the answer's
`core_closest` and the input's radii with `fractions` and `decimal` at 150
digits and compares each coordinate with the double Python rounds it to
(`float(Decimal)`, correctly rounded). With BASE (answers of a build without
`closest_f64`), also checks that removing the field gives BASE byte for byte.
"""
import json
import re
import sys
from decimal import Decimal, getcontext
from fractions import Fraction as F

getcontext().prec = 150


def dec(f):
    return Decimal(f.numerator) / Decimal(f.denominator)


def main():
    ins = open(sys.argv[1]).read().splitlines()
    outs = open(sys.argv[2]).read().splitlines()
    n = bad = 0
    for li, lo in zip(ins, outs):
        o = json.loads(lo)
        if "closest_f64" not in o:
            continue
        i = json.loads(li)
        ra, rb = F(i["a"].get("radius", 0)), F(i["b"].get("radius", 0))
        pa, pb = ([F(x) for x in p] for p in o["core_closest"])
        d = [pb[k] - pa[k] for k in range(3)]
        rq = dec(sum(x * x for x in d)).sqrt()
        want = [
            [float(dec(pa[k]) + dec(ra * d[k]) / rq) for k in range(3)],
            [float(dec(pb[k]) - dec(rb * d[k]) / rq) for k in range(3)],
        ]
        n += 1
        if want != o["closest_f64"]:
            bad += 1
            print("differs:", lo)
    print(f"checked {n} answers with closest_f64, {bad} differ")
    if len(sys.argv) > 3:
        pat = re.compile(r',"closest_f64":\[\[[^\]]*\],\[[^\]]*\]\]')
        base = open(sys.argv[3]).read()
        same = pat.sub("", open(sys.argv[2]).read()) == base
        print("without closest_f64:", "identical to base" if same else "DIFFERS from base")
        bad += not same
    sys.exit(1 if bad else 0)


main()
