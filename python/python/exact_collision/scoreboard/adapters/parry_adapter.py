"""parry3d (f32 and f64), through the program's own check: ``exact-collision
check-parry --random N --seed S --out FILE`` (the program built with
``cargo build --release --features parry``; docs/check-parry.md). The program
is ``$EXACT_COLLISION_BIN`` or ``exact-collision`` on PATH; when it is missing,
or was built without the ``parry`` feature, parry is skipped with a line
saying so.

parry is a Rust library, so the cases, the calls and the judging happen in the
program: parry3d and parry3d-f64 on its own hard families (triangles, boxes,
balls, capsules, convex polyhedra, rounded boxes; boxes moving linearly;
spinning boxes), every claim judged by ``verify``'s judgement, disagreements
shrunk. Its conventions are handled there and stated in
docs/check-parry.md: every number rounded to the engine's precision first
(the exact side answers the rounded shapes), quaternions as parry holds
them, ``contact``'s ``dist`` signed (``depth_f64`` = max(−dist, 0)),
``normal1`` from a toward b, ``point1``/``point2`` claimed as contact points;
f64 claims carry verify's default tolerances, f32 claims absolute and
relative 1e-5.

Its per-family table is folded into the scoreboard's tables: the check
``intersect+distance`` (one claim judging both fields) under intersect and
under distance, ``contact`` under contact, ``linear_toi`` and
``nonlinear_toi`` under time of impact; its families are its own (they are
not the scoreboard's). Skipped cases (parry refused the shape, e.g. a flat
hull) are the cells' ``+`` count. Its disagreement lines (shrunk) are
``disagreements-parry.jsonl``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

NAME = "parry"
KINDS = ()  # no scoreboard cases: the program checks parry on its own
REL_TOL = None
TIMEOUT_S = 3600

OPS_OF_CHECK = {"intersect+distance": ("intersect", "distance"), "contact": ("contact",),
                "linear_toi": ("toi",), "nonlinear_toi": ("toi",)}


def program():
    """The exact-collision program to run, or None."""
    return os.environ.get("EXACT_COLLISION_BIN") or shutil.which("exact-collision")


def version():
    exe = program()
    if exe is None:
        raise ImportError("no exact-collision program (set EXACT_COLLISION_BIN or put it on PATH)")
    r = subprocess.run([exe, "check-parry", "--help"], capture_output=True, text=True, timeout=60)
    if r.returncode != 0:
        raise ImportError(f"{exe} was built without the parry feature (cargo build --release --features parry)")
    return f"parry3d 0.31 via {exe} check-parry"


def parse_table(text):
    """[(engine, check, family, cases, disagree, skipped)] of check-parry's
    table (the lines after its header ``engine check family cases disagree
    skipped``)."""
    rows, on = [], False
    for line in text.splitlines():
        parts = line.split()
        if parts == ["engine", "check", "family", "cases", "disagree", "skipped"]:
            on = True
            continue
        if not on or len(parts) != 6 or not parts[3].isdigit():
            continue
        e, c, f, n, d, s = parts
        rows.append((e, c, f, int(n), int(d), int(s)))
    return rows


def cells(rows):
    """op -> engine -> family -> cell, from the table's rows."""
    out = {}
    for e, c, f, n, d, s in rows:
        fam = f if c in ("intersect+distance", "contact") else f"{c.split('_')[0]}: {f}"
        for op in OPS_OF_CHECK.get(c, ()):
            out.setdefault(op, {}).setdefault(e, {})[fam] = {
                "cases": n, "wrong": d, "errors": s, "worst_rel_error": None, "worst_abs_error": None,
                "check": c}
    return out


# Disagreements shrunk per (engine, check, family) when shrinking (check-parry's
# ``--shrink-per-family``): shrinking every one of a 4,000-case run's
# thousands took longer than the run; the rest are written as found.
SHRINK_PER_FAMILY = 3


def external(n_cases, seed, log=print, shrink=True):
    """Runs check-parry on ``n_cases`` generated cases (its ``--random``;
    ``--shrink-per-family SHRINK_PER_FAMILY`` when ``shrink``, else
    ``--no-shrink``; the scoreboard sets ``shrink`` from ``--shrink-seconds``
    > 0): {"cells", "lines", "rows", "seconds", "command", "summary_line"}."""
    exe = program()
    if exe is None:
        raise FileNotFoundError("no exact-collision program")
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "parry-wrong.jsonl"
        args = ["check-parry", "--random", str(n_cases), "--seed", str(seed)] + (
            ["--shrink-per-family", str(SHRINK_PER_FAMILY)] if shrink else ["--no-shrink"])
        cmd = [exe] + args + ["--out", str(out)]
        s = time.perf_counter()
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT_S)
        secs = time.perf_counter() - s
        if r.returncode not in (0, 1):
            raise RuntimeError(f"check-parry failed ({r.returncode}): {r.stderr.strip()[-300:]}")
        lines = out.read_text().splitlines() if out.exists() else []
    rows = parse_table(r.stdout)
    if not rows:
        raise RuntimeError("check-parry printed no table")
    n = sum(x[3] for x in rows)
    w = sum(x[4] for x in rows)
    return {"cells": cells(rows), "lines": lines, "rows": rows, "seconds": secs,
            "command": " ".join(["exact-collision"] + args),
            "summary_line": f"{w} disagreements in {n} checks ({len(lines)} lines), {secs:.1f} s"}
