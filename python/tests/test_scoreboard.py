"""The engine scoreboard: each adapter on hand-worked cases, the judging of its
claims, and the report (python -m exact_collision.scoreboard)."""

import json
import math
from html.parser import HTMLParser

import numpy as np
import pytest

import exact_collision as ec
from exact_collision.scoreboard import adapters, judge, main, report
from exact_collision.scoreboard.shapes import box, capsule, convex, sphere, triangle

I = np.eye(3)
ENGINES = ["coal", "pybullet", "mujoco", "fcl"]


def verdicts(name, a, b):
    """The engine's answer and the judge's verdict on each of its claims."""
    mod, ver = adapters.load(name)
    assert mod is not None, ver  # the engines are test dependencies
    lines, failed = judge.claim_lines(name, mod, [("hand", None, a, b, 0)])
    assert not failed, failed
    out = {q["op"]: ans["verdict"] for _, q, ans in judge.judge(lines)}
    return mod.query(a, b), out


@pytest.mark.parametrize("name", ENGINES)
def test_spheres_one_apart(name):
    # centers 3 apart, radii 1 and 1: distance 1, apart
    ans, v = verdicts(name, sphere([0, 0, 0], 1.0), sphere([3, 0, 0], 1.0))
    assert ans.intersect is False and ans.distance == pytest.approx(1.0, rel=1e-9)
    assert v == {"intersect": "agree", "distance": "agree"}


@pytest.mark.parametrize("name", ENGINES)
def test_capsules_overlapping(name):
    # the segments (0,0,±1) and (0.5,0,±1), radii 0.5: they overlap (distance 0)
    ans, v = verdicts(name, capsule([0, 0, 0], 1.0, I, 0.5), capsule([0.5, 0, 0], 1.0, I, 0.5))
    assert ans.intersect is True and ans.distance <= 0
    assert v == {"intersect": "agree", "distance": "agree"}


@pytest.mark.parametrize("name", ["coal", "mujoco", "fcl"])
def test_box_corner_sphere(name):
    # box [-1, 1]^3, unit sphere at (3, 3, 3): distance sqrt(12) - 1
    ans, v = verdicts(name, box([0, 0, 0], np.ones(3), I), sphere([3, 3, 3], 1.0))
    assert ans.distance == pytest.approx(math.sqrt(12) - 1, rel=1e-6)
    assert v == {"intersect": "agree", "distance": "agree"}


def test_pybullet_box_is_held_with_its_margin():
    # Bullet's box: half extents 1 - m grown by m = 0.001, so the corner is
    # rounded: the distance to a unit sphere at (3, 3, 3) is
    # sqrt(3)·(3 - 0.999) - 1 - 0.001, not sqrt(12) - 1.
    a, b = box([0, 0, 0], np.ones(3), I), sphere([3, 3, 3], 1.0)
    ans, v = verdicts("pybullet", a, b)
    m = 0.001
    held = math.sqrt(3) * (3 - (1 - m)) - 1 - m
    assert ans.distance == pytest.approx(held, rel=1e-6)
    assert abs(ans.distance - (math.sqrt(12) - 1)) > 1e-4
    assert ans.a.margin == m and ans.a.protocol()["radius"] == m
    assert v == {"intersect": "agree", "distance": "agree"}


def test_coal_unit_cubes_one_ulp_apart_is_a_known_wrong_answer():
    # cubes [-1/2, 1/2]^3 and the same moved by nextafter(1) along x: apart by
    # 2^-52, and coal 3.0.3 says they collide (its GJK works to a tolerance)
    a = box([0, 0, 0], np.full(3, 0.5), I)
    b = box([np.nextafter(1.0, 2.0), 0, 0], np.full(3, 0.5), I)
    ans, v = verdicts("coal", a, b)
    assert ans.intersect is True
    assert v["intersect"] == "disagree"
    d = json.loads(ec.answer(json.dumps({"op": "distance", "a": a.protocol(), "b": b.protocol()})))
    assert d["distance_squared"] == f"1/{2 ** 104}"


def test_mujoco_touching_mesh_counts_as_touching():
    # the mesh cube [-1, 1]^3 and a unit sphere at (0, 0, 2) touch: MuJoCo's
    # mesh collision makes no contact (dist < margin = 0 is strict there) but
    # mj_geomDistance answers 0; the adapter claims "intersect"
    pts = [[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]
    ans, v = verdicts("mujoco", convex(pts), sphere([0, 0, 2], 1.0))
    assert ans.extra["engine_contacts"] == 0 and ans.distance == 0.0
    assert ans.intersect is True and v == {"intersect": "agree", "distance": "agree"}


@pytest.mark.parametrize("name", ["coal", "fcl"])
def test_triangles_sharing_a_vertex(name):
    t = triangle([[0, 0, 0], [1, 0, 0], [0, 1, 0]])
    u = triangle([[1, 0, 0], [2, 0, 1], [2, 1, 1]])
    ans, v = verdicts(name, t, u)
    assert v["intersect"] == ("agree" if ans.intersect else "disagree")
    assert ans.intersect is True


def test_pybullet_and_mujoco_refuse_radius_zero_and_it_is_their_answer():
    rows = [("hand", None, sphere([0, 0, 0], 0.0), sphere([1, 0, 0], 1.0), 0)]
    for name in ("pybullet", "mujoco"):
        mod, _ = adapters.load(name)
        lines, failed = judge.claim_lines(name, mod, rows)
        assert lines == [] and len(failed) == 1 and failed[0]["error"]


def test_shapes_protocol_is_exact():
    # a capsule's end points c ± h·R[:, 2] as exact rationals
    R = np.array([[0.6, -0.8, 0.0], [0.8, 0.6, 0.0], [0.0, 0.0, 1.0]])
    p = capsule([0.1, 0, 0], 0.5, R[:, [1, 2, 0]], 1.0).protocol()
    from fractions import Fraction

    assert Fraction(p["b"][0]) == Fraction(0.1) + Fraction(0.5) * Fraction(0.6)
    assert Fraction(p["a"][1]) == -Fraction(0.5) * Fraction(0.8)


class _Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.count = {}

    def handle_starttag(self, tag, attrs):
        self.count[tag] = self.count.get(tag, 0) + 1


def test_report_is_produced_and_parses(tmp_path, monkeypatch, capsys):
    # fcl "not installed" and one coal exception: skipped with a line, and
    # recorded as coal's answer
    from exact_collision.scoreboard.adapters import coal_adapter, fcl_adapter

    def missing():
        raise ImportError("No module named 'fcl'")

    real = coal_adapter.query

    def flaky(a, b):
        if a.kind == "sphere" and b.kind == "sphere" and a.radius == 0:
            raise RuntimeError("boom")
        return real(a, b)

    monkeypatch.setattr(fcl_adapter, "version", missing)
    monkeypatch.setattr(coal_adapter, "query", flaky)
    assert main(["--engines", "coal,mujoco,fcl", "--cases", "120", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "fcl: skipped, not installed" in out
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["engines"]["fcl"]["skipped"].startswith("not installed")
    assert set(summary["ops"]) == {"intersect", "distance"}
    cells = summary["ops"]["intersect"]["coal"]
    assert sum(c["errors"] for c in cells.values()) > 0  # the exceptions
    assert sum(c["wrong"] for c in cells.values()) > 0  # coal's one-ulp false positives
    tags = _Tags()
    tags.feed((tmp_path / "report.html").read_text())
    assert tags.count["table"] >= 2 and tags.count["svg"] >= 1
    # each disagreement line reruns as a disagreement
    lines = (tmp_path / "disagreements-coal.jsonl").read_text().splitlines()
    assert lines and all(json.loads(a)["verdict"] == "disagree" for a in ec.answer_lines(lines))


def test_svg_is_drawn_from_the_exact_geometry():
    q = {"a": box([0, 0, 0], np.ones(3), I).protocol(), "b": capsule([3, 0, 0], 1.0, I, 0.5).protocol(),
         "meta": {}}
    s = report.svg(q, {"closest": [["1", "0", "0"], ["5/2", "0", "0"]]})
    assert s.startswith("<svg") and "<polygon" in s and "stroke-linecap=\"round\"" in s
    assert s.count("<circle") == 2  # the two exact closest points


def _png_pixels(data):
    """The decompressed (still filtered) scanlines of a PNG."""
    import struct
    import zlib

    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat = 8, b""
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        if kind == b"IDAT":
            idat += data[pos + 8:pos + 8 + n]
        pos += 12 + n
    return zlib.decompress(idat)


def test_report_opens_in_a_headless_browser(tmp_path):
    # CI installs Debian's chromium (.ci/run) and sets
    # EXACT_COLLISION_REQUIRE_BROWSER=1: there a missing browser fails
    import os
    import shutil
    import subprocess

    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        if os.environ.get("EXACT_COLLISION_REQUIRE_BROWSER"):
            pytest.fail("no chromium on PATH")
        pytest.skip("no chromium on PATH (CI installs it)")
    out = tmp_path / "board"
    assert main(["--engines", "coal,pybullet", "--cases", "60", "--out", str(out)]) == 0
    url = (out / "report.html").as_uri()
    flags = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             f"--user-data-dir={tmp_path / 'profile'}"]
    dom = subprocess.run(flags + ["--dump-dom", url], capture_output=True, text=True, timeout=120).stdout
    tags = _Tags()
    tags.feed(dom)  # the DOM as the browser built it
    assert tags.count.get("table", 0) >= 2 and tags.count.get("svg", 0) >= 1
    assert tags.count.get("polygon", 0) + tags.count.get("circle", 0) + tags.count.get("line", 0) > 0
    assert 'data-op="intersect"' in dom and 'data-op="distance"' in dom
    shot = tmp_path / "shot.png"
    subprocess.run(flags + ["--window-size=1200,1600", f"--screenshot={shot}", url], capture_output=True,
                   timeout=120)
    px = _png_pixels(shot.read_bytes())
    assert len(set(px)) > 16  # not blank: many distinct values in the image


# --- shrinking ----------------------------------------------------------------

def _cubes_one_ulp_apart_far_out():
    # the unit cubes one ulp apart, made larger: scale 2^20, moved to
    # (1000.25, 3, -7)·2^20, turned by a quarter turn about z; b's y is the
    # double after a's y + 2^20 (a's y + 2^20 is exact), so the boxes are apart
    P = np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    s = 2.0 ** 20
    c = np.array([1000.25, 3.0, -7.0]) * s
    a = box(c, np.full(3, 0.5 * s), P)
    b = box([c[0], np.nextafter(c[1] + s, np.inf), c[2]], np.full(3, 0.5 * s), P)
    return a, b


def test_coal_cubes_one_ulp_apart_shrink_and_still_disagree():
    from exact_collision.scoreboard import shrink

    a, b = _cubes_one_ulp_apart_far_out()
    mod, _ = adapters.load("coal")
    [entry], _ = shrink.ask("coal", mod, "intersect", [(a, b)])
    line, q, ans = shrink.judged(entry)
    want = shrink.kind(q, ans)
    assert want == ("intersect", True)  # coal: "they collide"
    res = shrink.shrink("coal", mod, "intersect", a, b, want, seconds=5)
    assert res["line"] is not None and res["steps"] >= 1
    assert res["size_after"] < res["size_before"] == shrink.case_size(a, b)
    assert res["size_after"] == shrink.case_size(res["a"], res["b"])
    # judged again here, independently of the shrinker: still a disagreement,
    # coal still says "collide", and the shrunk boxes are exactly apart
    q2 = json.loads(res["line"])
    assert q2["claim"] == {"intersect": True}
    assert json.loads(ec.answer(res["line"]))["verdict"] == "disagree"
    d = json.loads(ec.answer(json.dumps({"op": "distance", "a": q2["a"], "b": q2["b"]})))
    assert d["distance_squared"] != "0"
    # the scene was moved to the origin, scaled to size 1 and turned back
    assert res["a"].center.tolist() == [0.0, 0.0, 0.0]
    assert np.array_equal(res["a"].R, I) and np.array_equal(res["a"].half, np.full(3, 0.5))


def test_the_unit_cubes_are_already_small():
    # the unit cubes one ulp apart: no simpler case is kept, none is larger
    from exact_collision.scoreboard import shrink

    a = box([0, 0, 0], np.full(3, 0.5), I)
    b = box([np.nextafter(1.0, 2.0), 0, 0], np.full(3, 0.5), I)
    mod, _ = adapters.load("coal")
    res = shrink.shrink("coal", mod, "intersect", a, b, ("intersect", True), seconds=5)
    assert res["size_after"] <= res["size_before"]
    if res["line"] is not None:
        assert json.loads(ec.answer(res["line"]))["verdict"] == "disagree"


class _FakeEngine:
    """An adapter whose engine says "collide" on the original case only, or
    raises on every other call."""

    NAME = "fake"
    KINDS = ("box", "sphere", "capsule", "convex", "triangle")
    REL_TOL = 1e-6

    def __init__(self, original=None, raise_every=0):
        self.original, self.raise_every, self.calls, self.raised = original, raise_every, 0, 0

    def query(self, a, b):
        self.calls += 1
        if self.raise_every and self.calls % self.raise_every == 0:
            self.raised += 1
            raise RuntimeError("engine failure")
        hit = True if self.original is None else (a.protocol(), b.protocol()) == self.original
        return adapters.Answer(intersect=hit)


def test_shrinking_never_turns_a_disagreement_into_agreement():
    # spheres 3 apart with radii 1 (distance 1): an engine that says "collide"
    # only on this very case agrees ("apart") on every simpler one, so nothing
    # may be kept
    from exact_collision.scoreboard import shrink

    a, b = sphere([0.1, 0.2, 0.3], 1.0), sphere([3.1, 0.2, 0.3], 1.0)
    eng = _FakeEngine(original=(a.protocol(), b.protocol()))
    res = shrink.shrink("fake", eng, "intersect", a, b, ("intersect", True), seconds=5)
    assert eng.calls > 1  # candidates were asked
    assert res["line"] is None and res["steps"] == 0 and res["a"] is a and res["b"] is b
    assert res["size_after"] == res["size_before"]


def test_engine_exceptions_during_shrinking_are_handled():
    # an engine that always says "collide" but raises on every third call:
    # the raising candidates are dropped, the rest shrink the case
    from exact_collision.scoreboard import shrink

    a, b = sphere([0.1, 0.2, 0.3], 1.5), sphere([3.1, 0.2, 0.3], 1.25)  # distance 0.25
    eng = _FakeEngine(raise_every=3)
    res = shrink.shrink("fake", eng, "intersect", a, b, ("intersect", True), seconds=5)
    assert eng.raised > 0 and res["exceptions"] == eng.raised
    assert res["line"] is not None and res["size_after"] < res["size_before"]
    assert json.loads(ec.answer(res["line"]))["verdict"] == "disagree"
    # an engine that raises on every call: the case is kept as found
    eng = _FakeEngine(raise_every=1)
    res = shrink.shrink("fake", eng, "intersect", a, b, ("intersect", True), seconds=5)
    assert res["line"] is None and res["exceptions"] == res["calls"] > 0


def test_every_shrunk_disagreement_of_a_run_still_disagrees_the_same_way(tmp_path):
    from exact_collision.scoreboard import shrink

    result = judge.run(["coal"], 60, 7, ["box-box face", "capsule-capsule parallel"], log=lambda *_: None,
                       shrink_seconds=10)
    st = result["shrink"]
    assert st["disagreements"] > 0 and st["shrunk"] > 0
    shrunk = [r for r in result["records"] if r.get("original_line")]
    assert len(shrunk) == st["shrunk"]
    lines = [r["line"] for r in shrunk]
    for r, ans in zip(shrunk, ec.answer_lines(lines)):
        ans = json.loads(ans)
        q, q0 = json.loads(r["line"]), json.loads(r["original_line"])
        assert shrink.kind(q, ans) == shrink.kind(q0, r["original_answer"]) is not None
        assert r["shrink"]["size_after"] < r["shrink"]["size_before"]
        assert q["meta"]["shrunk_from"]["a"] == q0["a"]
    summary = report.write(result, tmp_path)
    assert summary["shrink"]["shrunk"] == st["shrunk"]
    html_text = (tmp_path / "report.html").read_text()
    assert "As found:" in html_text and "Disagreements shrunk:" in html_text
