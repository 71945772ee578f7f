"""Claims from the engines' answers, judged by the exact judge (the protocol's
``verify`` semantics through ``answer_lines``), and counted."""

from __future__ import annotations

import json
import time
from fractions import Fraction

from .. import answer_lines
from . import adapters, cases

OPS = ("intersect", "distance")


def claim_lines(name, mod, rows):
    """For each supported row, the engine's answer as protocol lines (one per
    op it answered) and the records of the rows it raised on."""
    lines, failed = [], []
    for fam, expected, a, b, row in rows:
        if not adapters.supports(mod, a, b):
            continue
        meta = {"engine": name, "family": fam, "case": expected or "random", "row": row}
        try:
            ans = mod.query(a, b)
        except Exception as e:  # an engine's exception is its answer
            failed.append(dict(meta, error=f"{type(e).__name__}: {e}"))
            continue
        pa, pb = (ans.a or a).protocol(), (ans.b or b).protocol()
        if ans.intersect is not None:
            lines.append(json.dumps({"op": "intersect", "a": pa, "b": pb, "claim": {"intersect": bool(ans.intersect)},
                                     "meta": dict(meta, **ans.extra)}))
        if ans.distance is not None:
            d = float(ans.distance)
            lines.append(json.dumps({"op": "distance", "a": pa, "b": pb,
                                     "claim": {"distance_f64": max(d, 0.0), "rel_tol": mod.REL_TOL},
                                     "meta": dict(meta, engine_distance=d, **ans.extra)}))
    return lines, failed


def _exact_distance(ans):
    """The exact distance of a distance answer, as a double (for the error
    measure only; the verdict is the judge's)."""
    return float(ans.get("distance_f64", "nan"))


def judge(lines):
    """[(line, query, answer)] for each claim line."""
    out = []
    for line, ans in zip(lines, answer_lines(lines)):
        out.append((line, json.loads(line), json.loads(ans)))
    return out


def error_of(q, ans):
    """(relative error, absolute error) of a distance claim; the relative one
    is inf when the exact distance is 0."""
    if q["op"] != "distance" or "distance_f64" not in ans:
        return None, None
    c, e = Fraction(q["claim"]["distance_f64"]), Fraction(_exact_distance(ans))
    a = abs(c - e)
    return (float(a / e) if e else (float("inf") if a else 0.0)), float(a)


def run(engines=adapters.ADAPTERS, n_cases=2000, seed=20261128, families=None, log=print, shrink_seconds=15.0):
    """Every engine on the families; the records the report is made from.
    Every disagreement is then shrunk (``shrink_all``) within ``shrink_seconds``
    in all (0: none is)."""
    fams = [f for f in cases.FAMILIES if families is None or f in families]
    n_each = -(-n_cases // len(fams))
    rows = cases.generate(n_each, seed, fams)
    t0 = time.perf_counter()
    result = {"seed": seed, "cases_per_family": n_each, "families": fams, "engines": {}, "records": []}
    mods = {}
    for name in engines:
        mod, ver = adapters.load(name)
        if mod is None:
            log(f"{name}: skipped, {ver}")
            result["engines"][name] = {"skipped": ver}
            continue
        mods[name] = mod
        s = time.perf_counter()
        lines, failed = claim_lines(name, mod, rows)
        engine_s = time.perf_counter() - s
        judged = judge(lines)
        for f in failed:
            for op in OPS:
                result["records"].append({"engine": name, "op": op, "family": f["family"], "verdict": "error",
                                          "detail": f["error"], "line": None, "meta": f})
        for line, q, ans in judged:
            m = q["meta"]
            v = ans.get("verdict", "error")
            rel, ab = error_of(q, ans)
            result["records"].append({"engine": name, "op": q["op"], "family": m["family"], "verdict": v,
                                      "detail": ans.get("detail", ans.get("error")), "line": line, "answer": ans,
                                      "rel_error": rel, "abs_error": ab, "meta": m})
        result["engines"][name] = {"version": str(ver), "rel_tol": mod.REL_TOL, "engine_seconds": engine_s,
                                   "doc": (mod.__doc__ or "").strip()}
        log(f"{name} {ver}: {len(lines)} claims, {len(failed)} exceptions, {engine_s:.1f} s in the engine")
    s = time.perf_counter()
    stats = shrink_all(result, mods, {(f, i): (a, b) for f, _, a, b, i in rows}, shrink_seconds)
    result["shrink"] = dict(stats, seconds=time.perf_counter() - s, budget_seconds=shrink_seconds)
    if stats["tried"]:
        log(f"shrunk {stats['shrunk']} of {stats['tried']} disagreements tried ({stats['disagreements']} in all) "
            f"in {result['shrink']['seconds']:.1f} s")
    result["seconds"] = time.perf_counter() - t0
    return result


def shrink_all(result, mods, shapes, seconds, first_seconds=0.25, max_calls=120):
    """Shrinks the disagreement records in place (``shrink.shrink``): first
    the report's counterexamples (up to ``first_seconds`` each), then all the
    others, one from each (engine, op, family) in turn, each with an even
    share of what is left of ``seconds``; the ones the time does not reach are
    written as found (no ``shrink`` entry).
    A kept record's ``line``/``answer`` are the shrunk case's, judged again;
    ``original_line``/``original_answer`` are the case as found."""
    from . import report, shrink

    wrong = [r for r in result["records"] if r["verdict"] == "disagree" and r["engine"] in mods]
    first = [r for rs in report.counterexamples(result).values() for r in rs]
    ids = {id(r) for r in first}
    groups = {}  # the rest taken in turn from each (engine, op, family), so each gets shrunk cases first
    for r in wrong:
        if id(r) not in ids:
            groups.setdefault((r["engine"], r["op"], r["family"]), []).append(r)
    rest = [g[i] for i in range(max(map(len, groups.values()), default=0)) for g in groups.values() if i < len(g)]
    order = first + rest
    stats = {"disagreements": len(wrong), "tried": 0, "shrunk": 0, "engine_calls": 0, "exceptions": 0}
    if seconds <= 0:
        return stats
    t_end = time.perf_counter() + seconds
    for k, r in enumerate(order):
        left = t_end - time.perf_counter()
        if left <= 0:
            break
        share = min(first_seconds, left if k < len(first) else left / (len(order) - k))
        m = r["meta"]
        a, b = shapes[(m["family"], m["row"])]
        want = shrink.kind(json.loads(r["line"]), r["answer"])
        res = shrink.shrink(r["engine"], mods[r["engine"]], r["op"], a, b, want, max_calls=max_calls,
                            seconds=share)
        stats["tried"] += 1
        stats["engine_calls"] += res["calls"]
        stats["exceptions"] += res["exceptions"]
        info = {k2: res[k2] for k2 in ("size_before", "size_after", "steps", "calls", "exceptions", "seconds")}
        r["shrink"] = dict(info, tried=True)
        if res["line"] is None:
            continue
        stats["shrunk"] += 1
        q = json.loads(res["line"])
        orig = json.loads(r["line"])
        q["meta"] = dict(orig["meta"], **{k2: v for k2, v in q["meta"].items()
                                           if k2 not in ("family", "case", "row", "engine")})
        q["meta"]["shrunk_from"] = {"a": orig["a"], "b": orig["b"], "claim": orig["claim"]}
        r["original_line"], r["original_answer"] = r["line"], r["answer"]
        r["line"], r["answer"] = json.dumps(q), res["answer"]
        r["detail"] = res["answer"].get("detail", r["detail"])
    return stats


def summarize(result):
    """op -> engine -> family -> {cases, wrong, errors, worst_rel_error, worst_abs_error}."""
    table = {op: {} for op in OPS}
    for r in result["records"]:
        cell = table[r["op"]].setdefault(r["engine"], {}).setdefault(
            r["family"], {"cases": 0, "wrong": 0, "errors": 0, "worst_rel_error": None, "worst_abs_error": None})
        cell["cases"] += 1
        if r["verdict"] == "disagree":
            cell["wrong"] += 1
            for k in ("rel", "abs"):
                x = r.get(f"{k}_error")
                key = f"worst_{k}_error"
                if x is not None and (cell[key] is None or x > cell[key]):
                    cell[key] = x
        elif r["verdict"] != "agree":
            cell["errors"] += 1
    return table
