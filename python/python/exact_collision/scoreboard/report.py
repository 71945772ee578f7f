"""DIR/report.html (one self-contained file: inline CSS and SVG, no scripts,
no network) and DIR/summary.json, and the disagreements as protocol lines
(DIR/disagreements-ENGINE.jsonl, which ``exact-collision verify`` reruns)."""

from __future__ import annotations

import html
import json
import math
from fractions import Fraction
from pathlib import Path

import numpy as np

from .. import answer
from .judge import OP_TITLES, OPS, summarize

# the view: an orthographic projection along a fixed oblique direction
_D = np.array([1.0, 0.7, 0.45])
_D /= np.linalg.norm(_D)
_U = np.cross([0.0, 0.0, 1.0], _D)
_U /= np.linalg.norm(_U)
_V = np.cross(_D, _U)
VIEW = np.vstack([_U, -_V])  # screen x right, screen y down


def _num(x):
    if isinstance(x, str):
        try:
            return float(Fraction(x))
        except ValueError:  # "nan", "inf": an engine's claim
            return float(x)
    return float(x)


def _pts(rows):
    return np.array([[_num(x) for x in p] for p in rows], dtype=float).reshape(-1, 3)


def _hull2(p):
    """2D convex hull (drawing only), counter-clockwise."""
    p = sorted(set(map(tuple, np.round(p, 12))))
    if len(p) < 3:
        return p

    def half(seq):
        h = []
        for q in seq:
            while len(h) >= 2 and (h[-1][0] - h[-2][0]) * (q[1] - h[-2][1]) - (h[-1][1] - h[-2][1]) * (q[0] - h[-2][0]) <= 0:
                h.pop()
            h.append(q)
        return h[:-1]

    return half(p) + half(p[::-1])


def _items(shape):
    """(kind, projected points, radius) to draw one protocol shape."""
    t = shape["type"]
    r = _num(shape.get("radius", 0))
    if t == "sphere":
        return "disc", _pts([shape["center"]]), r
    if t == "capsule":
        return "stroke", _pts([shape["a"], shape["b"]]), r
    if t == "box":
        c, ax = _pts([shape["center"]])[0], _pts(shape["half_axes"])
        s = np.array([(x, y, z) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], dtype=float)
        return "poly", c + s @ ax, r
    if t == "convex":
        return "poly", _pts(shape["points"]), r
    return "poly", _pts(shape["v"]), r


def _ccd_items(q, ans):
    """What to draw of a ccd line: the points at t = 0 (thin) and t = 1, the
    exact first contact's configuration (black) and the engine's (red)."""
    t0, t1 = _pts(q["t0"]), _pts(q["t1"])

    def at(t):
        return t0 + t * (t1 - t0)

    closed = q["op"] == "ccd_vf"
    items = [("ccd0", t0, closed), ("ccd1", t1, closed)]
    toi = ans.get("toi")
    if isinstance(toi, dict) and toi.get("f64") is not None:
        items.append(("exact", at(float(toi["f64"])), closed))
    c = q.get("claim", {}).get("toi_f64")
    if c is not None:
        items.append(("engine", at(float(c)), closed))
    return items


def _svg_ccd(q, ans, size):
    items = _ccd_items(q, ans)
    allp = np.vstack([p @ VIEW.T for _, p, _ in items])
    lo, hi = allp.min(axis=0), allp.max(axis=0)
    span = float(max(hi - lo)) or 1.0
    mid, k = (lo + hi) / 2, 90.0 / span
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" viewBox="-50 -50 100 100">',
           '<rect x="-50" y="-50" width="100" height="100" fill="#fbfbfb" stroke="#ccc" stroke-width="0.3"/>']
    style = {"ccd0": ('#3b6fd8', '0.3', '1,1'), "ccd1": ('#3b6fd8', '0.5', ''), "exact": ('#111', '0.6', ''),
             "engine": ('#c00', '0.5', '2,1')}
    for who, p, closed in items:
        q2 = (p @ VIEW.T - mid) * k
        col, w, dash = style[who]
        da = f' stroke-dasharray="{dash}"' if dash else ""
        # the vertex (or edge a) and the triangle (or edge b)
        first = q2[:1] if closed else q2[:2]
        rest = q2[1:] if closed else q2[2:]
        pts = " ".join(f"{x:.4f},{y:.4f}" for x, y in rest)
        tag = "polygon" if closed else "polyline"
        out.append(f'<{tag} points="{pts}" fill="none" stroke="{col}" stroke-width="{w}"{da}/>')
        if closed:
            out.append(f'<circle cx="{first[0, 0]:.4f}" cy="{first[0, 1]:.4f}" r="1.2" fill="{col}"/>')
        else:
            out.append(f'<line x1="{first[0, 0]:.4f}" y1="{first[0, 1]:.4f}" x2="{first[1, 0]:.4f}" '
                       f'y2="{first[1, 1]:.4f}" stroke="{col}" stroke-width="{w}"{da}/>')
    out.append("</svg>")
    return "".join(out)


def _box_at(side, t):
    """The 8 corners of a moving box of a ``ccd`` line (translation-only
    matrix motions, ``ccd_cases.box_ccd_query``) at time t."""
    _, corners, _ = _items(side["shape"])
    m = side.get("motion")
    if m:
        corners = corners + t * np.array([_num(row[1]) for row in m["matrix"][3]])
    return corners


def _svg_box_ccd(q, ans, size):
    """Both boxes at t = 0 (dotted) and t = 1 (blue), at the exact first
    contact (black) and at the engine's time (red)."""
    items = [("ccd0", 0.0), ("ccd1", 1.0)]
    te = ans.get("t_enter")
    if isinstance(te, dict) and te.get("f64") is not None:
        items.append(("exact", float(te["f64"])))
    c = q.get("claim", {}).get("t_enter_f64")
    if c is not None:
        items.append(("engine", float(c)))
    drawn = [(who, [_box_at(q[k], t) @ VIEW.T for k in ("a", "b")]) for who, t in items]
    allp = np.vstack([p for _, ps in drawn for p in ps])
    lo, hi = allp.min(axis=0), allp.max(axis=0)
    span = float(max(hi - lo)) or 1.0
    mid, k = (lo + hi) / 2, 90.0 / span
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" viewBox="-50 -50 100 100">',
           '<rect x="-50" y="-50" width="100" height="100" fill="#fbfbfb" stroke="#ccc" stroke-width="0.3"/>']
    style = {"ccd0": ('#3b6fd8', '0.3', '1,1'), "ccd1": ('#3b6fd8', '0.5', ''), "exact": ('#111', '0.6', ''),
             "engine": ('#c00', '0.5', '2,1')}
    for who, ps in drawn:
        col, w, dash = style[who]
        da = f' stroke-dasharray="{dash}"' if dash else ""
        for p in ps:
            q2 = (p - mid) * k
            for i in range(8):  # the 12 edges: corners differing in one sign
                for j in (1, 2, 4):
                    if i & j == 0:
                        a, b = q2[i], q2[i | j]
                        out.append(f'<line x1="{a[0]:.4f}" y1="{a[1]:.4f}" x2="{b[0]:.4f}" y2="{b[1]:.4f}" '
                                   f'stroke="{col}" stroke-width="{w}"{da}/>')
    out.append("</svg>")
    return "".join(out)


def _normal_marks(q, ans):
    """Contact lines: the exact region and normal, the claimed points and
    normal (as arrows of a fixed screen length from the points' mean)."""
    marks = []
    reg = (ans.get("contact_f64") or {}).get("points")
    if reg:
        marks.append(("exact", _pts(reg)))
    c = q.get("claim", {})
    if c.get("contact"):
        pts = c["contact"].get("points") if isinstance(c["contact"], dict) else c["contact"]
        marks.append(("engine", _pts(pts)))
    arrows = []
    if ans.get("normal") and reg:
        arrows.append(("exact", _pts(reg).mean(axis=0), _pts([ans["normal"]])[0]))
    if c.get("normal"):
        base = marks[-1][1].mean(axis=0) if c.get("contact") else (_pts(reg).mean(axis=0) if reg else None)
        if base is not None:
            arrows.append(("engine", base, _pts([c["normal"]])[0]))
    return marks, arrows


def svg(q, ans, size=260):
    """The two shapes of a query line seen along a fixed direction, from the
    exact geometry (rounded to doubles for drawing), with the exact closest
    points (or the cores' closest points) and the engine's points if given;
    for a contact line the exact contact region and normal (black) and the
    claimed points and normal (red); for a ccd line the points at t = 0 and
    t = 1 (blue), at the exact first contact (black) and at the engine's
    time (red)."""
    op = q.get("op")
    if op in ("ccd_vf", "ccd_ee"):
        return _svg_ccd(q, ans, size)
    if op == "ccd":
        return _svg_box_ccd(q, ans, size)
    items = [_items(q["a"]), _items(q["b"])]
    marks, arrows = [], []
    if op == "contact" and ans.get("intersect"):
        marks, arrows = _normal_marks(q, ans)
    else:
        cl = ans.get("closest") or ans.get("core_closest")
        if cl:
            marks.append(("exact", _pts(cl)))
        eng = q.get("meta", {}).get("engine_points")
        if eng:
            marks.append(("engine", _pts(eng)))
    allp = [p @ VIEW.T for _, p, _ in items] + [m[np.all(np.isfinite(m), axis=1)] @ VIEW.T for _, m in marks]
    rad = max([r for _, _, r in items] + [0.0])
    lo = np.min(np.vstack(allp), axis=0) - rad
    hi = np.max(np.vstack(allp), axis=0) + rad
    span = float(max(hi - lo)) or 1.0
    mid = (lo + hi) / 2
    k = 90.0 / span  # the drawing fits [-45, 45]^2 with a margin

    def tr(p):
        return (p @ VIEW.T - mid) * k

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" viewBox="-50 -50 100 100">',
           '<rect x="-50" y="-50" width="100" height="100" fill="#fbfbfb" stroke="#ccc" stroke-width="0.3"/>']
    for (kind, p, r), col in zip(items, ("#3b6fd8", "#d8793b")):
        q2 = tr(p)
        rr = r * k
        style = f'fill="{col}" fill-opacity="0.35" stroke="{col}" stroke-width="0.6"'
        if kind == "disc":
            out.append(f'<circle cx="{q2[0, 0]:.4f}" cy="{q2[0, 1]:.4f}" r="{max(rr, 0.8):.4f}" {style}/>')
        elif kind == "stroke":
            out.append(f'<line x1="{q2[0, 0]:.4f}" y1="{q2[0, 1]:.4f}" x2="{q2[1, 0]:.4f}" y2="{q2[1, 1]:.4f}" '
                       f'stroke="{col}" stroke-opacity="0.35" stroke-width="{max(2 * rr, 0.8):.4f}" '
                       'stroke-linecap="round"/>')
            out.append(f'<line x1="{q2[0, 0]:.4f}" y1="{q2[0, 1]:.4f}" x2="{q2[1, 0]:.4f}" y2="{q2[1, 1]:.4f}" '
                       f'stroke="{col}" stroke-width="0.5"/>')
        else:
            h = _hull2(q2)
            pts = " ".join(f"{x:.4f},{y:.4f}" for x, y in h)
            extra = f' stroke-linejoin="round" stroke-width="{max(2 * rr, 0.6):.4f}"' if rr > 0 else ""
            out.append(f'<polygon points="{pts}" {style}{extra}/>')
    for who, base, n in arrows:
        d = n @ VIEW.T
        ln = float(np.hypot(*d))
        if not (ln > 0 and np.all(np.isfinite(base)) and np.isfinite(ln)):
            continue
        b2 = tr(base[None, :])[0]
        e2 = b2 + d / ln * 18.0
        col = "#111" if who == "exact" else "#c00"
        out.append(f'<line class="normal-{who}" x1="{b2[0]:.4f}" y1="{b2[1]:.4f}" x2="{e2[0]:.4f}" y2="{e2[1]:.4f}" '
                   f'stroke="{col}" stroke-width="0.6"/><circle cx="{e2[0]:.4f}" cy="{e2[1]:.4f}" r="0.9" '
                   f'fill="{col}"/>')
    for who, m in marks:
        m = m[np.all(np.isfinite(m), axis=1)]
        m2 = tr(m)
        col = "#111" if who == "exact" else "#c00"
        if len(m2) == 2 and op != "contact":
            out.append(f'<line x1="{m2[0, 0]:.4f}" y1="{m2[0, 1]:.4f}" x2="{m2[1, 0]:.4f}" y2="{m2[1, 1]:.4f}" '
                       f'stroke="{col}" stroke-width="0.4" stroke-dasharray="1,1"/>')
        for x, y in m2:
            if who == "exact":
                out.append(f'<circle cx="{x:.4f}" cy="{y:.4f}" r="1.2" fill="{col}"/>')
            else:
                out.append(f'<path d="M{x - 1.5:.4f},{y - 1.5:.4f}L{x + 1.5:.4f},{y + 1.5:.4f}'
                           f'M{x - 1.5:.4f},{y + 1.5:.4f}L{x + 1.5:.4f},{y - 1.5:.4f}" stroke="{col}" stroke-width="0.5"/>')
    out.append("</svg>")
    return "".join(out)


def _fmt_err(cell):
    r, a = cell["worst_rel_error"], cell["worst_abs_error"]
    extra = ""
    if cell.get("wrong_fields") and cell["wrong"]:
        w = cell["wrong_fields"]
        extra = f"d{w['depth_f64']} n{w['normal']} p{w['contact']}"
    if cell.get("kinds") and cell["wrong"]:
        extra = " ".join(f"{k} {v}" for k, v in cell["kinds"].items() if v)
    if r is None and a is not None and cell["wrong"]:
        return f"abs {a:.2g}" + (f" {extra}" if extra else "")
    if r is None:
        return extra
    if math.isinf(r):
        return f"abs {a:.2g}" + (f" {extra}" if extra else "")
    return f"rel {r:.2g}" + (f" {extra}" if extra else "")


def _colour(cell):
    if cell["cases"] == 0:
        return "#eee"
    bad = (cell["wrong"] + cell["errors"]) / cell["cases"]
    if bad == 0:
        return "#c8f0c0"
    return "#fff0a8" if bad < 0.01 else "#f6b8b0"


def _jsonable(x):
    if isinstance(x, float) and not math.isfinite(x):
        return str(x)
    if isinstance(x, dict):
        return {k: _jsonable(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_jsonable(v) for v in x]
    return x


def counterexamples(result, per_op=2):
    """Per engine, wrong answers from as many families as possible, up to
    ``per_op`` of each op (twice that for time of impact, one of each kind
    of wrong answer first), the largest error first; for time of impact the
    kinds that are not the engine's stated convention (``TOI_CONVENTION`` of
    its adapter: ipctk's early times, FCL's late samples) first."""
    out = {}
    for name, info in result["engines"].items():
        conv = set(info.get("toi_convention", ()))
        wrong = [r for r in result["records"] if r["engine"] == name and r["verdict"] == "disagree"]
        wrong.sort(key=lambda r: (r.get("toi_kind") in conv,
                                  -(r["rel_error"] if r["rel_error"] is not None else (r["abs_error"] or 0.0))))
        ops = [op for op in OPS if any(r["op"] == op for r in wrong)]
        per_engine = sum(per_op * (2 if op == "toi" else 1) for op in ops) or per_op
        pick, seen = [], set()
        for op in ops:
            quota = per_op * (2 if op == "toi" else 1)
            kinds = set()
            for r in wrong:  # one of each kind of wrong time of impact first
                if r["op"] == op == "toi" and r["toi_kind"] not in kinds and r["family"] not in seen:
                    kinds.add(r["toi_kind"])
                    seen.add(r["family"])
                    pick.append(r)
                    quota -= 1
            for r in wrong:
                if r["op"] == op and r["family"] not in seen and quota > 0:
                    seen.add(r["family"])
                    pick.append(r)
                    quota -= 1
        for r in wrong:  # fill up when an op had too few
            if len(pick) >= per_engine:
                break
            if r not in pick:
                pick.append(r)
        out[name] = pick
    return out


def write(result, out_dir):
    """Writes report.html, summary.json and disagreements-ENGINE.jsonl."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    table = summarize(result)
    examples = counterexamples(result)
    for name in result["engines"]:
        lines = [r["line"] for r in result["records"] if r["engine"] == name and r["verdict"] == "disagree"]
        lines += result.get("external", {}).get(name, {}).get("lines", [])
        if lines:
            (out / f"disagreements-{name}.jsonl").write_text("".join(s + "\n" for s in lines))
    summary = {
        "seed": result["seed"], "cases_per_family": result["cases_per_family"],
        "ccd_cases_per_family": result.get("ccd_cases_per_family"), "box_ccd_cases_per_family": result.get("box_ccd_cases_per_family"),
        "seconds": result["seconds"],
        "external": {k: {kk: v[kk] for kk in ("command", "seconds", "summary_line")}
                     for k, v in result.get("external", {}).items()},
        "engines": {k: {kk: vv for kk, vv in v.items() if kk != "doc"} for k, v in result["engines"].items()},
        "ops": table,
        "counterexamples": {k: [r["line"] for r in v] for k, v in examples.items()},
        "counterexamples_as_found": {k: [r.get("original_line", r["line"]) for r in v] for k, v in examples.items()},
        "shrink": result.get("shrink"),
    }
    (out / "summary.json").write_text(json.dumps(_jsonable(summary), indent=1, allow_nan=False))
    (out / "report.html").write_text(_html(result, table, examples))
    return summary


def _shrink_note(st):
    if not st:
        return ""
    return (f"<p>Disagreements shrunk: {st['shrunk']} of {st['disagreements']} ({st['tried']} tried, "
            f"{st['engine_calls']} engine calls, {st['exceptions']} of them raised or made no claim, "
            f"{st['seconds']:.1f} s of a {st['budget_seconds']:g} s budget).</p>")


def _table(op, rows, cols, table, cls="op"):
    e = html.escape
    h = [f"<table class=\"{cls}\" data-op=\"{e(op)}\"><tr><th>engine</th>"]
    h.extend(f"<th class=\"fam\">{e(f)}</th>" for f in cols)
    h.append("</tr>")
    for n in rows:
        h.append(f"<tr><td class=\"eng\">{e(n)}</td>")
        for f in cols:
            c = table[op].get(n, {}).get(f)
            if c is None:
                h.append("<td style=\"background:#eee\">—</td>")
                continue
            err = f"+{c['errors']}" if c["errors"] else ""
            h.append(f"<td style=\"background:{_colour(c)}\">{c['wrong']}{err}/{c['cases']}"
                     f"<br><small>{e(_fmt_err(c))}</small></td>")
        h.append("</tr>")
    h.append("</table>")
    return "".join(h)


def _exact_of(q, ans):
    if q["op"] == "intersect":
        return ans.get("intersect")
    if q["op"] == "distance":
        return ans.get("distance_f64")
    if q["op"] == "contact":
        keep = ("intersect", "depth_f64", "normals", "contact_f64", "distance_f64")
        return {k: ans[k] for k in keep if k in ans}
    if q["op"] in ("ccd_vf", "ccd_ee"):
        return {k: ans[k] for k in ("hit", "toi") if k in ans}
    if q["op"] == "ccd":
        return {k: ans[k] for k in ("hit", "t_enter", "feature") if k in ans}
    return None


def _html(result, table, examples):
    e = html.escape
    fams = result["families"]
    engines = [n for n, v in result["engines"].items() if "skipped" not in v]
    h = ["<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>exact-collision engine scoreboard"
         "</title><style>body{font:14px sans-serif;margin:1.5em;color:#222}table{border-collapse:collapse;"
         "margin:.5em 0 1.5em}td,th{border:1px solid #bbb;padding:3px 6px;text-align:center;font-size:12px}"
         "th.fam{writing-mode:vertical-rl;transform:rotate(180deg);max-height:12em}td.eng{text-align:left;"
         "font-weight:bold}pre{white-space:pre-wrap;word-break:break-all;font-size:11px;background:#f4f4f4;"
         "padding:4px}.ex{display:flex;gap:1em;border-top:1px solid #ddd;padding:.6em 0}.ex svg{flex:none}.num td{text-align:left}"
         "</style></head><body>",
         "<h1>Engine scoreboard</h1>",
         f"<p>Every engine's answers on the same cases (seed {result['seed']}, "
         f"{result['cases_per_family']} cases per family), each judged exactly by exact-collision. A cell: "
         "wrong answers / cases (engine exceptions after a +), and the worst error of a wrong distance "
         "or contact depth (relative, or absolute where the exact value is 0); for contact, how many wrong "
         "answers got each field wrong, judged alone (d: depth_f64, n: normal, p: contact points); for time "
         "of impact the worst distance of a claimed time from the exact interval and the kinds (early: before "
         "the first contact, beyond the tolerance; late; miss; false hit). Green: none wrong; yellow: under 1%; "
         f"red: 1% or more; grey: the engine does not take the pair. Run time {result['seconds']:.1f} s.</p>",
         _shrink_note(result.get("shrink")),
         "<ul>"]
    for n, v in result["engines"].items():
        if "skipped" in v:
            h.append(f"<li><b>{e(n)}</b>: skipped, {e(v['skipped'])}</li>")
        elif v.get("external"):
            ext = result["external"][n]
            h.append(f"<li><b>{e(n)}</b> {e(v['version'])}: <code>{e(ext['command'])}</code>, "
                     f"{e(ext['summary_line'])} (its own families and tolerances: see its adapter below)</li>")
        else:
            tol = (f"distance and contact claims carry rel_tol {v['rel_tol']:g}" if v["rel_tol"]
                   else "time claims carry verify's abs_tol 1e-9")
            h.append(f"<li><b>{e(n)}</b> {e(v['version'])}: {tol}; {v['engine_seconds']:.1f} s in the engine</li>")
    h.append("</ul>")
    external = [n for n, v in result["engines"].items() if v.get("external")]
    for op in OPS:
        cols = result.get("ccd_families", []) if op == "toi" else fams
        rows = [n for n in engines if n not in external and n in table[op]]
        h.append(f"<h2>{e(OP_TITLES[op])}</h2>")
        if rows:
            h.append(_table(op, rows, cols, table))
        else:
            h.append("<p>No engine here answers this op on the scoreboard's cases.</p>")
        ext_rows = [n2 for n in external for n2 in result["external"][n]["cells"].get(op, {})]
        if ext_rows:
            ext_cols = list(dict.fromkeys(f for n2 in ext_rows for f in table[op][n2]))
            h.append("<p>parry through <code>exact-collision check-parry</code> (its own families; the + count "
                     "is cases parry refused, counted as skipped):</p>")
            h.append(_table(op, ext_rows, ext_cols, table, "op-external"))
    h.append("<h2>Counterexamples</h2><p>Blue: shape a, orange: shape b, drawn from the exact geometry along "
             "one oblique direction; black dots: the exact closest points (of the cores for rounded shapes); "
             "red crosses: the engine's points where it gives them. Contact: black dots the exact contact region, "
             "black arrow the exact normal (from a to b); red crosses and red arrow the claimed points and normal "
             "(arrows of a fixed length). Time of impact: the points (or boxes) at t = 0 (thin blue) and t = 1 (blue), at "
             "the exact first contact (black) and at the engine's time (red, dashed). Each case is shown shrunk "
             "(a simpler case, asked of the engine again and judged again, on which it is still wrong in the same "
             "way) with the case as found below it. Each line reruns with "
             "<code>exact-collision verify FILE</code> or <code>exact_collision.answer(line)</code>.</p>")
    for n in engines:
        if n in external:
            continue
        h.append(f"<h3>{e(n)}</h3>")
        if not examples.get(n):
            h.append("<p>No wrong answer.</p>")
        for r in examples.get(n, []):
            q, ans = json.loads(r["line"]), r["answer"]
            exact = _exact_of(q, ans)
            rows = [("op", q["op"]), ("family", r["family"]), ("case", q["meta"].get("case")),
                    ("engine claims", json.dumps(q["claim"])), ("exact", json.dumps(exact)),
                    ("verdict detail", r["detail"])]
            if "engine_distance" in q["meta"]:
                rows.insert(4, ("engine's signed distance", repr(q["meta"]["engine_distance"])))
            if r.get("wrong_fields"):
                rows.insert(4, ("fields wrong (as found, each judged alone)", ", ".join(r["wrong_fields"])))
            if r.get("toi_kind"):
                rows.insert(4, ("kind (as found)", r["toi_kind"]))
            sh = r.get("shrink")
            if r.get("original_line"):
                rows.append(("shrunk", f"{sh['size_before']} → {sh['size_after']} bits in {sh['steps']} steps, "
                                       f"{sh['calls']} engine calls"))
            elif sh:
                rows.append(("shrunk", f"no simpler case kept ({sh['calls']} engine calls)"))
            tbl = "".join(f"<tr><th>{e(str(k))}</th><td>{e(str(v))}</td></tr>" for k, v in rows)
            orig = (f"<p>As found:</p><pre class=\"orig\">{e(r['original_line'])}</pre>"
                    if r.get("original_line") else "")
            h.append(f"<div class=\"ex\">{svg(q, ans)}<div><table class=\"num\">{tbl}</table>"
                     f"<pre class=\"line\">{e(r['line'])}</pre>{orig}</div></div>")
    for n in external:
        lines = result["external"][n]["lines"]
        h.append(f"<h3>{e(n)}</h3><p>{len(lines)} disagreement lines from check-parry (shrunk by the program), "
                 f"in disagreements-{e(n)}.jsonl; the first of each op:</p>")
        seen = set()
        for ln in lines:
            q = json.loads(ln)
            if q["op"] in seen or q["op"] not in ("intersect", "distance", "contact"):
                continue
            seen.add(q["op"])
            ans = json.loads(answer(ln))
            rows = [("op", q["op"]), ("engine claims", json.dumps(q.get("claim"))),
                    ("exact", json.dumps(_exact_of(q, ans))), ("verdict detail", ans.get("detail"))]
            tbl = "".join(f"<tr><th>{e(str(k))}</th><td>{e(str(v))}</td></tr>" for k, v in rows)
            try:
                pic = svg(q, ans)
            except (KeyError, ValueError, TypeError):  # a shape form the drawing does not know
                pic = ""
            h.append(f"<div class=\"ex\">{pic}<div><table class=\"num\">{tbl}</table>"
                     f"<pre class=\"line\">{e(ln)}</pre></div></div>")
    h.append("<h2>Adapters</h2>")
    for n in engines:
        h.append(f"<h3>{e(n)}</h3><pre>{e(result['engines'][n]['doc'])}</pre>")
    h.append("</body></html>")
    return "\n".join(h)
