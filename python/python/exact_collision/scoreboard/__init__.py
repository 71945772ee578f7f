"""The engine scoreboard: every installed collision engine on the same hard
cases, each answer judged exactly, in a report a person can read.

``python -m exact_collision.scoreboard [--engines coal,pybullet,mujoco,fcl,ipctk,parry]
[--cases N] [--seed S] [--out DIR]`` runs each installed engine on about N
cases (split evenly over the case families of ``cases``, and of ``ccd_cases``
for time of impact; parry through ``exact-collision check-parry``): its
intersection, distance, contact and time of impact. It judges every claim
with the exact judge (``answer_lines`` with the ``claim`` field, the semantics
of ``exact-collision verify``) and writes DIR/report.html, DIR/summary.json and
DIR/disagreements-ENGINE.jsonl (protocol lines anyone can rerun), each
disagreement shrunk first (``shrink``: a simpler case on which the engine,
asked again, is still wrong the same way; ``--shrink-seconds`` in all). An engine that
is not installed is skipped with a line saying so; an engine's exception is
recorded as its answer. See docs/scoreboard.md.
"""

from __future__ import annotations

import argparse

from . import adapters, cases, ccd_cases, judge, report


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m exact_collision.scoreboard",
                                description="Collision engines judged exactly on the same hard cases.")
    p.add_argument("--engines", default=",".join(adapters.ADAPTERS),
                   help="comma-separated adapters (default: %(default)s)")
    p.add_argument("--cases", type=int, default=2000, help="cases per engine and op, split over the families")
    p.add_argument("--seed", type=int, default=20261128)
    p.add_argument("--families", default=None, help="comma-separated family names (default: all)")
    p.add_argument("--out", default="scoreboard", help="output folder (default: %(default)s)")
    p.add_argument("--shrink-seconds", type=float, default=15.0,
                   help="time for shrinking all disagreements together, 0 for none (default: %(default)s)")
    args = p.parse_args(argv)
    engines = [x for x in args.engines.split(",") if x]
    unknown = [x for x in engines if x not in adapters.ADAPTERS]
    if unknown:
        p.error(f"unknown engine {unknown[0]!r}; known: {', '.join(adapters.ADAPTERS)}")
    fams = args.families.split(",") if args.families else None
    if fams is not None:
        known = list(cases.FAMILIES) + list(ccd_cases.FAMILIES) + list(ccd_cases.BOX_FAMILIES)
        bad = [f for f in fams if f not in known]
        if bad:
            p.error(f"unknown family {bad[0]!r}; known: {', '.join(known)}")
    result = judge.run(engines, args.cases, args.seed, fams, shrink_seconds=args.shrink_seconds)
    summary = report.write(result, args.out)
    for op, by_engine in summary["ops"].items():
        for eng, cells in by_engine.items():
            n = sum(c["cases"] for c in cells.values())
            w = sum(c["wrong"] for c in cells.values())
            x = sum(c["errors"] for c in cells.values())
            print(f"{op:9} {eng:9} {w:6} wrong, {x:5} exceptions of {n} cases")
    print(f"report: {args.out}/report.html ({result['seconds']:.1f} s)")
    return 0
