"""Claims from the engines' answers, judged by the exact judge (the protocol's
``verify`` semantics through ``answer_lines``), and counted."""

from __future__ import annotations

import json
import math
import time
from fractions import Fraction

from .. import answer_lines
from . import adapters, cases, ccd_cases

OPS = ("intersect", "distance", "contact", "toi")
OP_TITLES = {"intersect": "intersect", "distance": "distance", "contact": "contact",
             "toi": "time of impact"}
CONTACT_FIELDS = ("depth_f64", "normal", "contact")


def _finite(x):
    if isinstance(x, float):
        return math.isfinite(x)
    if isinstance(x, (list, tuple)):
        return all(map(_finite, x))
    if isinstance(x, dict):
        return all(map(_finite, x.values()))
    return True


def claim_lines(name, mod, rows):
    """For each supported row, the engine's answer as protocol lines (one per
    op it answered) and the records of the rows it raised on (``ops``: the
    ops it failed, all when absent). A claim holding a number that is not
    finite (a NaN normal) cannot be a protocol line: it is recorded as that
    op's failure."""
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
        out = []
        if ans.intersect is not None:
            out.append({"op": "intersect", "a": pa, "b": pb, "claim": {"intersect": bool(ans.intersect)},
                        "meta": dict(meta, **ans.extra)})
        if ans.distance is not None:
            d = float(ans.distance)
            out.append({"op": "distance", "a": pa, "b": pb,
                        "claim": {"distance_f64": max(d, 0.0) if math.isfinite(d) else d, "rel_tol": mod.REL_TOL},
                        "meta": dict(meta, engine_distance=d, **ans.extra)})
        if ans.contact is not None:
            out.append({"op": "contact", "a": pa, "b": pb, "claim": dict(ans.contact, rel_tol=mod.REL_TOL),
                        "meta": dict(meta, **ans.extra)})
        for q in out:
            if _finite(q["claim"]):
                lines.append(json.dumps(q))
            else:
                failed.append(dict(meta, ops=[q["op"]], error=f"the engine's {q['op']} claim holds a number that "
                                                               f"is not finite: {q['claim']}"))
    return lines, failed


CCD_OPS = ("ccd_vf", "ccd_ee", "ccd")


def time_keys(op):
    """(the answer's time field, the claim's time shorthand) of a ccd op."""
    return ("t_enter", "t_enter_f64") if op == "ccd" else ("toi", "toi_f64")


def ccd_line(op, t0, t1, claim, meta):
    """A ccd row as a protocol line: points (``ccd_vf``, ``ccd_ee``: t0, t1
    the 4×3 frames) or boxes (``ccd``: t0 the boxes (a, b) at t = 0, t1
    their displacements (da, db); ``ccd_cases.box_ccd_query``)."""
    if op == "ccd":
        q = ccd_cases.box_ccd_query(*t0, *t1)
        return json.dumps(dict(q, claim=claim, meta=meta))
    pts = lambda x: [[float(c) for c in p] for p in x]  # noqa: E731
    return json.dumps({"op": op, "t0": pts(t0), "t1": pts(t1), "claim": claim, "meta": meta})


def ccd_claim_lines(name, mod, rows):
    """The time-of-impact claims of a continuous-collision engine on the
    ``ccd_cases`` rows it takes, and the records of the rows it raised on."""
    lines, failed = [], []
    accepts = getattr(mod, "accepts_ccd", None)
    for fam, expected, op, t0, t1, row in rows:
        if op not in mod.CCD_OPS or (accepts is not None and not accepts(op, t0, t1)):
            continue
        meta = {"engine": name, "family": fam, "case": expected or "random", "row": row}
        try:
            claim = mod.query_ccd(op, t0, t1)
        except Exception as e:  # an engine's exception is its answer
            failed.append(dict(meta, error=f"{type(e).__name__}: {e}"))
            continue
        lines.append(ccd_line(op, t0, t1, claim, meta))
    return lines, failed


def toi_kind(q, ans):
    """What a disagreeing time-of-impact claim is: "miss" (no contact claimed,
    the points meet), "false hit" (a contact claimed, they never meet),
    "early" (a time before the exact first time's interval, beyond the
    tolerance: a conservative engine's convention), "late" (after it); None
    when the judge agrees."""
    if ans.get("verdict") != "disagree":
        return None
    c, hit = q["claim"], ans.get("hit")
    if not c.get("hit") and hit:
        return "miss"
    if c.get("hit") and not hit:
        return "false hit"
    tk, ck = time_keys(q["op"])
    if ck in c and isinstance(ans.get(tk), dict):
        return "early" if Fraction(c[ck]) < Fraction(ans[tk]["lo"]) else "late"
    return "other"


def contact_fields(lines_answers):
    """For each (line, answer) of a disagreeing contact claim, the claimed
    fields the judge rejects, each judged alone (the same tolerances). A
    field the judge does not judge (a normal or points for apart shapes) is
    not counted: alone it is a claim with nothing judged."""
    jobs = []
    out = [[] for _ in lines_answers]
    for line, _ in lines_answers:
        q = json.loads(line)
        c = q["claim"]
        tol = {key: v for key, v in c.items() if key in ("rel_tol", "abs_tol")}
        for f in CONTACT_FIELDS:
            if f in c:
                jobs.append((len(jobs), line, f, json.dumps(dict(q, claim=dict(tol, **{f: c[f]})))))
    idx = {line: i for i, (line, _) in enumerate(lines_answers)}
    answers = answer_lines([j[3] for j in jobs]) if jobs else []
    for (_, line, f, _), a in zip(jobs, answers):
        a = json.loads(a)
        if a.get("verdict") == "disagree" and "no field to judge" not in a.get("detail", ""):
            out[idx[line]].append(f)
    return out


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
    """(relative error, absolute error) of a distance claim, or of a contact
    claim's depth, or (None, the distance to the exact interval) of a time of
    impact; the relative one is inf when the exact value is 0."""
    if q["op"] in CCD_OPS:
        tk, ck = time_keys(q["op"])
        c, t = q["claim"].get(ck), ans.get(tk)
        if c is None or not isinstance(t, dict):
            return None, None
        c, lo, hi = Fraction(c), Fraction(t["lo"]), Fraction(t["hi"])
        return None, float(max(lo - c, c - hi, Fraction(0)))
    if q["op"] == "contact":
        if "depth_f64" not in q["claim"] or "error" in ans:
            return None, None
        c, e = Fraction(q["claim"]["depth_f64"]), Fraction(ans.get("depth_f64", 0.0))
    elif q["op"] != "distance" or "distance_f64" not in ans:
        return None, None
    else:
        c, e = Fraction(q["claim"]["distance_f64"]), Fraction(_exact_distance(ans))
    a = abs(c - e)
    return (_float(a / e) if e else (float("inf") if a else 0.0)), _float(a)


def _float(x):
    """x as a double, inf beyond the double range."""
    try:
        return float(x)
    except OverflowError:
        return float("inf")


def _record(name, line, q, ans):
    m = q["meta"]
    v = ans.get("verdict", "error")
    rel, ab = error_of(q, ans)
    op = "toi" if q["op"] in CCD_OPS else q["op"]
    r = {"engine": name, "op": op, "family": m["family"], "verdict": v,
         "detail": ans.get("detail", ans.get("error")), "line": line, "answer": ans,
         "rel_error": rel, "abs_error": ab, "meta": m}
    if op == "toi":
        r["toi_kind"] = toi_kind(q, ans)
    return r


def run(engines=adapters.ADAPTERS, n_cases=2000, seed=20261128, families=None, log=print, shrink_seconds=15.0):
    """Every engine on the families; the records the report is made from.
    Every disagreement is then shrunk (``shrink_all``) within ``shrink_seconds``
    in all (0: none is)."""
    fams = [f for f in cases.FAMILIES if families is None or f in families]
    ccd_fams = [f for f in ccd_cases.FAMILIES if families is None or f in families]
    box_fams = [f for f in ccd_cases.BOX_FAMILIES if families is None or f in families]
    n_each = -(-n_cases // max(len(fams), 1))
    rows = cases.generate(n_each, seed, fams)
    t0 = time.perf_counter()
    result = {"seed": seed, "cases_per_family": n_each, "families": fams, "engines": {}, "records": [],
              "ccd_families": ccd_fams + box_fams}
    mods = {}
    shapes_of = {(f, i): (a, b) for f, _, a, b, i in rows}
    ccd_rows = None
    result["external"] = {}
    for name in engines:
        mod, ver = adapters.load(name)
        if mod is None:
            log(f"{name}: skipped, {ver}")
            result["engines"][name] = {"skipped": ver}
            continue
        if hasattr(mod, "external"):  # checked by the program itself (parry)
            s = time.perf_counter()
            try:
                ext = mod.external(n_cases, seed, log=log, shrink=shrink_seconds > 0)
            except (FileNotFoundError, RuntimeError) as e:
                log(f"{name}: skipped, {e}")
                result["engines"][name] = {"skipped": str(e)}
                continue
            result["external"][name] = ext
            result["engines"][name] = {"version": str(ver), "rel_tol": None, "engine_seconds":
                                       time.perf_counter() - s, "doc": (mod.__doc__ or "").strip(),
                                       "external": True}
            log(f"{name} {ver}: {ext['summary_line']}")
            continue
        mods[name] = mod
        s = time.perf_counter()
        lines, failed = [], []
        if mod.KINDS:
            lines, failed = claim_lines(name, mod, rows)
            for f in failed:
                f.setdefault("ops", ["intersect", "distance", "contact"])
        if getattr(mod, "CCD_OPS", None):
            if ccd_rows is None:
                result["ccd_cases_per_family"] = -(-n_cases // max(len(ccd_fams), 1))
                ccd_rows = ccd_cases.generate(result["ccd_cases_per_family"], seed, ccd_fams) if ccd_fams else []
                if box_fams:
                    result["box_ccd_cases_per_family"] = -(-n_cases // len(box_fams))
                    ccd_rows += ccd_cases.generate_boxes(result["box_ccd_cases_per_family"], seed, box_fams)
                for f, _, op, p0, p1, i in ccd_rows:
                    shapes_of[(f, i)] = (op, p0, p1)
            more, more_failed = ccd_claim_lines(name, mod, ccd_rows)
            lines += more
            failed += [dict(f, ops=["toi"]) for f in more_failed]
        engine_s = time.perf_counter() - s
        judged = judge(lines)
        for f in failed:
            for op in f["ops"]:
                result["records"].append({"engine": name, "op": op, "family": f["family"], "verdict": "error",
                                          "detail": f["error"], "line": None, "meta": f})
        recs = [_record(name, line, q, ans) for line, q, ans in judged]
        wrong_contact = [r for r in recs if r["op"] == "contact" and r["verdict"] == "disagree"]
        for r, fs in zip(wrong_contact, contact_fields([(r["line"], r["answer"]) for r in wrong_contact])):
            r["wrong_fields"] = fs
        result["records"].extend(recs)
        result["engines"][name] = {"version": str(ver), "rel_tol": mod.REL_TOL, "engine_seconds": engine_s,
                                   "doc": (mod.__doc__ or "").strip(),
                                   "toi_convention": list(getattr(mod, "TOI_CONVENTION", ()))}
        log(f"{name} {ver}: {len(lines)} claims, {len(failed)} exceptions, {engine_s:.1f} s in the engine")
    s = time.perf_counter()
    stats = shrink_all(result, mods, shapes_of, shrink_seconds)
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
        want = shrink.kind(json.loads(r["line"]), r["answer"], r.get("wrong_fields"))
        if r["op"] == "toi" and shapes[(m["family"], m["row"])][0] == "ccd":
            _, ab, d = shapes[(m["family"], m["row"])]
            res = shrink.shrink_box_ccd(r["engine"], mods[r["engine"]], ab, d, want, max_calls=max_calls,
                                        seconds=share)
        elif r["op"] == "toi":
            op, t0, t1 = shapes[(m["family"], m["row"])]
            res = shrink.shrink_ccd(r["engine"], mods[r["engine"]], op, t0, t1, want, max_calls=max_calls,
                                    seconds=share)
        else:
            a, b = shapes[(m["family"], m["row"])]
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
        q["meta"]["shrunk_from"] = {k2: orig[k2] for k2 in ("a", "b", "t0", "t1", "claim") if k2 in orig}
        r["original_line"], r["original_answer"] = r["line"], r["answer"]
        r["line"], r["answer"] = json.dumps(q), res["answer"]
        r["detail"] = res["answer"].get("detail", r["detail"])
    return stats


def summarize(result):
    """op -> engine -> family -> {cases, wrong, errors, worst_rel_error,
    worst_abs_error}, and for contact ``wrong_fields`` (how many wrong
    answers got each field wrong, judged alone), for time of impact
    ``kinds`` (how many were early, late, misses, false hits). Engines
    checked by the program (parry) bring their own cells (``external``)."""
    table = {op: {} for op in OPS}
    for r in result["records"]:
        cell = table[r["op"]].setdefault(r["engine"], {}).setdefault(
            r["family"], {"cases": 0, "wrong": 0, "errors": 0, "worst_rel_error": None, "worst_abs_error": None})
        if r["op"] == "contact":
            cell.setdefault("wrong_fields", {f: 0 for f in CONTACT_FIELDS})
        if r["op"] == "toi":
            cell.setdefault("kinds", {k: 0 for k in ("early", "late", "miss", "false hit")})
        cell["cases"] += 1
        if r["verdict"] == "disagree":
            cell["wrong"] += 1
            for f in r.get("wrong_fields", ()):
                cell["wrong_fields"][f] += 1
            if r.get("toi_kind"):
                cell["kinds"][r["toi_kind"]] = cell["kinds"].get(r["toi_kind"], 0) + 1
            for k in ("rel", "abs"):
                x = r.get(f"{k}_error")
                key = f"worst_{k}_error"
                if x is not None and (cell[key] is None or x > cell[key]):
                    cell[key] = x
        elif r["verdict"] != "agree":
            cell["errors"] += 1
    for ext in result.get("external", {}).values():
        for op, by_engine in ext["cells"].items():
            for eng, cells in by_engine.items():
                table[op][eng] = cells
    return table
