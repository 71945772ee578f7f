"""The engine scoreboard: each adapter on hand-worked cases, the judging of its
claims, and the report (python -m exact_collision.scoreboard)."""

import json
import math
from fractions import Fraction
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
    assert v == {"intersect": "agree", "distance": "agree", "contact": "agree"}


@pytest.mark.parametrize("name", ENGINES)
def test_capsules_overlapping(name):
    # the segments (0,0,±1) and (0.5,0,±1), radii 0.5: they overlap (distance 0)
    ans, v = verdicts(name, capsule([0, 0, 0], 1.0, I, 0.5), capsule([0.5, 0, 0], 1.0, I, 0.5))
    assert ans.intersect is True and ans.distance <= 0
    assert v == {"intersect": "agree", "distance": "agree", "contact": "agree"}


@pytest.mark.parametrize("name", ["coal", "mujoco", "fcl"])
def test_box_corner_sphere(name):
    # box [-1, 1]^3, unit sphere at (3, 3, 3): distance sqrt(12) - 1
    ans, v = verdicts(name, box([0, 0, 0], np.ones(3), I), sphere([3, 3, 3], 1.0))
    assert ans.distance == pytest.approx(math.sqrt(12) - 1, rel=1e-6)
    assert v == {"intersect": "agree", "distance": "agree", "contact": "agree"}


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
    assert v == {"intersect": "agree", "distance": "agree", "contact": "agree"}


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
    assert ans.intersect is True and v == {"intersect": "agree", "distance": "agree", "contact": "agree"}


@pytest.mark.parametrize("name", ["coal", "fcl"])
def test_triangles_sharing_a_vertex(name):
    t = triangle([[0, 0, 0], [1, 0, 0], [0, 1, 0]])
    u = triangle([[1, 0, 0], [2, 0, 1], [2, 1, 1]])
    ans, v = verdicts(name, t, u)
    assert v["intersect"] == ("agree" if ans.intersect else "disagree")
    assert ans.intersect is True


def test_pybullet_triangles_are_held_with_its_margin():
    # parallel triangles 1 apart: Bullet holds each grown by its margin
    # m = 0.001, so the distance judged is 1 - 2m, and the judge agrees with
    # Bullet's 0.998 on those sets (a "triangle" with "radius" m)
    t = triangle([[0, 0, 0], [1, 0, 0], [0, 1, 0]])
    u = triangle([[0, 0, 1], [1, 0, 1], [0, 1, 1]])
    ans, v = verdicts("pybullet", t, u)
    assert ans.distance == pytest.approx(1 - 2 * 0.001, rel=1e-9)
    assert ans.a.protocol() == dict(t.protocol(), radius=0.001)
    assert v == {"intersect": "agree", "distance": "agree", "contact": "agree"}


def test_mujoco_mesh_mesh_is_judged_on_the_points_it_holds():
    # mesh cubes [-1, 1]^3 and the same moved by (5/2, 1/10, 3/10): 1/2 apart
    # along x. MuJoCo re-centres each mesh (float32 vertices, a double frame);
    # the sets judged are R·v + p exactly, as strings
    pts = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], dtype=float)
    a, b = convex(pts), convex(pts + [2.5, 0.1, 0.3])
    ans, v = verdicts("mujoco", a, b)
    assert ans.distance == pytest.approx(0.5, rel=1e-9) and ans.intersect is False
    held = ans.b.protocol()["points"]
    assert len(held) == 8 and all(isinstance(x, str) for p in held for x in p)
    assert v == {"intersect": "agree", "distance": "agree", "contact": "agree"}


def test_hull_faces_of_a_cube_with_extra_points():
    # the cube [-1, 1]^3 given with its face centres, centre and an edge's
    # midpoint: the hull's corners are the 8 vertices, its faces the 6 squares,
    # 12 triangles, each normal pointing out, areas summing to 6 · 4
    from exact_collision.scoreboard.hull import hull_faces

    corners = [[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]
    extra = [[1, 0, 0], [0, -1, 0], [0, 0, 1], [0, 0, 0], [1, 1, 0], [-1, -1, 1]]
    v, t = hull_faces(corners + extra)
    assert sorted(map(tuple, v)) == sorted(map(tuple, map(lambda p: map(float, p), corners)))
    assert len(t) == 12
    area = Fraction(0)
    for i, j, k in t:
        a, b, c = (np.array([Fraction(x) for x in v[q]]) for q in (i, j, k))
        n = np.cross(b - a, c - a)
        # an axis-aligned face: n = ±|n|·e_axis, pointing out of the cube
        axis = [q for q in range(3) if n[q] != 0]
        assert len(axis) == 1 and n[axis[0]] * a[axis[0]] > 0
        area += abs(n[axis[0]]) / 2
        assert all(np.dot(n, np.array(p, dtype=object) - a) <= 0 for p in corners)
    assert area == 24
    # a flat square with its centre: the square, once per side
    v, t = hull_faces([[0, 0, 0], [2, 0, 0], [2, 2, 0], [0, 2, 0], [1, 1, 0]])
    assert len(v) == 4 and [1.0, 1.0, 0.0] not in v and len(t) == 4
    up = [np.cross(np.subtract(v[j], v[i]), np.subtract(v[k], v[i]))[2] for i, j, k in t]
    assert sorted(up) == [-4, -4, 4, 4]
    # a segment spans no plane
    assert hull_faces([[0, 0, 0], [1, 1, 1], [0.5, 0.5, 0.5]]) is None


def test_fcl_convex_hulls_are_judged():
    # hull cubes [-1, 1]^3 (with interior and face points) and the same moved
    # by (5/2, 1/10, 3/10): 1/2 apart along x; FCL is given the exact hull's
    # faces, and its claims are judged on the case's points
    pts = [[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)] + [[0, 0, 0], [1, 0, 0]]
    a, b = convex(pts), convex(np.array(pts, dtype=float) + [2.5, 0.1, 0.3])
    ans, v = verdicts("fcl", a, b)
    assert ans.intersect is False and ans.distance == pytest.approx(0.5, rel=1e-4)
    assert v["intersect"] == "agree" and v["contact"] == "agree"
    assert v["distance"] == ("agree" if abs(ans.distance - 0.5) <= 0.5e-6 else "disagree")
    # a unit sphere sunk 1/2 into the top face z = 1 at (0, 0, 3/2): depth 1/2, normal (0, 0, 1)
    ans, v = verdicts("fcl", convex(pts), sphere([0, 0, 1.5], 1.0))
    assert ans.intersect is True and ans.contact["depth_f64"] == pytest.approx(0.5, rel=1e-4)
    assert ans.contact["normal"] == pytest.approx([0, 0, 1], abs=1e-4)
    assert v["intersect"] == "agree"
    # points spanning no plane are no Convex: not judged
    mod, _ = adapters.load("fcl")
    assert not adapters.supports(mod, convex([[0, 0, 0], [1, 0, 0], [2, 0, 0]]), sphere([0, 0, 3], 1.0))
    assert adapters.supports(mod, convex(pts), sphere([0, 0, 3], 1.0))


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
    assert set(summary["ops"]) == {"intersect", "distance", "contact", "toi"}
    assert sum(c["cases"] for c in summary["ops"]["contact"]["coal"].values()) > 0
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


def test_svg_of_a_contact_shows_both_normals_and_points():
    # resting boxes: the exact region (a's top face, 4 corners) and normal,
    # the claimed normal and 2 claimed points
    a, b = box([0, 0, 0], np.ones(3), I), box([0, 0, 1.75], np.ones(3), I)
    q = {"op": "contact", "a": a.protocol(), "b": b.protocol(),
         "claim": {"depth_f64": 0.25, "normal": [0.0, 0.0, -1.0], "contact": [[0, 0, 1], [0, 0, 0.75]]}}
    ans = json.loads(ec.answer(json.dumps({k: v for k, v in q.items() if k != "claim"})))
    s = report.svg(q, ans)
    assert 'class="normal-exact"' in s and 'class="normal-engine"' in s
    # 4 region corners + the two arrow heads as circles, 2 claimed points as crosses
    assert s.count("<circle") == 6 and s.count("<path") == 2
    # the two arrows point opposite ways on screen (the claimed normal is -z)
    import re

    arrows = re.findall(r'class="normal-(\w+)" x1="([-.\d]+)" y1="([-.\d]+)" x2="([-.\d]+)" y2="([-.\d]+)"', s)
    d = {w: (float(x2) - float(x1), float(y2) - float(y1)) for w, x1, y1, x2, y2 in arrows}
    assert d["exact"][1] < 0 < d["engine"][1]  # screen y points down: +z is up


def test_svg_of_a_contact_with_a_nan_claim_is_still_drawn():
    # check-parry writes a NaN an engine claimed as the string "nan"
    a, b = box([0, 0, 0], np.ones(3), I), box([0, 0, 1.75], np.ones(3), I)
    q = {"op": "contact", "a": a.protocol(), "b": b.protocol(),
         "claim": {"depth_f64": 0.25, "normal": ["nan", "nan", "nan"], "contact": [["nan", 0, 1]]}}
    ans = json.loads(ec.answer(json.dumps({k: v for k, v in q.items() if k != "claim"})))
    s = report.svg(q, ans)
    assert "nan" not in s and 'class="normal-exact"' in s and 'class="normal-engine"' not in s


def test_svg_of_a_ccd_line_shows_the_configurations():
    tri = [[0, 0, 0], [1, 0, 0], [0, 1, 0]]
    q = {"op": "ccd_vf", "t0": [[0.25, 0.25, 1], *tri], "t1": [[0.25, 0.25, -1], *tri],
         "claim": {"hit": True, "toi_f64": 0.25}}
    ans = json.loads(ec.answer(json.dumps({k: v for k, v in q.items() if k != "claim"})))
    s = report.svg(q, ans)
    # t = 0, t = 1, the exact time, the claimed time: a triangle and a vertex each
    assert s.count("<polygon") == 4 and s.count("<circle") == 4


def test_svg_of_a_box_ccd_line_shows_both_boxes_four_times():
    from exact_collision.scoreboard import ccd_cases

    a, b = box([0, 0, 0], [1, 1, 1], I), box([6, 0, 0], [1, 1, 1], I)
    q = dict(ccd_cases.box_ccd_query(a, b, np.zeros(3), np.array([-8.0, 0, 0])),
             claim={"hit": True, "t_enter_f64": 5 / 9})
    ans = json.loads(ec.answer(json.dumps({k: v for k, v in q.items() if k != "claim"})))
    assert ans["t_enter"]["lo"] == "1/2"
    s = report.svg(q, ans)
    # t = 0, t = 1, the exact time, the claimed time: 12 edges of each box
    assert s.count("<line") == 4 * 2 * 12 and s.count('stroke="#c00"') == 24


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
    assert main(["--engines", "coal,pybullet,ipctk", "--cases", "60", "--out", str(out)]) == 0
    url = (out / "report.html").as_uri()
    flags = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             f"--user-data-dir={tmp_path / 'profile'}"]
    dom = subprocess.run(flags + ["--dump-dom", url], capture_output=True, text=True, timeout=120).stdout
    tags = _Tags()
    tags.feed(dom)  # the DOM as the browser built it
    assert tags.count.get("table", 0) >= 2 and tags.count.get("svg", 0) >= 1
    assert tags.count.get("polygon", 0) + tags.count.get("circle", 0) + tags.count.get("line", 0) > 0
    assert 'data-op="intersect"' in dom and 'data-op="distance"' in dom
    assert 'data-op="contact"' in dom and 'data-op="toi"' in dom
    # contact and time-of-impact counterexamples are drawn: a claimed normal
    # (red arrow) and the configurations of a ccd query
    assert 'class="normal-engine"' in dom and 'class="normal-exact"' in dom
    assert '"op": "ccd_vf"' in dom or '"op": "ccd_ee"' in dom
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


# --- contact --------------------------------------------------------------------

def contact_verdict(name, a, b):
    """The engine's contact claim and the judge's verdict on it (and the
    fields it gets wrong, each judged alone)."""
    mod, ver = adapters.load(name)
    assert mod is not None, ver
    lines, failed = judge.claim_lines(name, mod, [("hand", None, a, b, 0)])
    assert not failed, failed
    [(line, q, ans)] = [x for x in judge.judge(lines) if x[1]["op"] == "contact"]
    wrong = judge.contact_fields([(line, ans)])[0] if ans["verdict"] == "disagree" else []
    return q["claim"], ans, wrong


@pytest.mark.parametrize("name", ENGINES)
@pytest.mark.parametrize("up", [True, False])
def test_contact_of_resting_boxes(name, up):
    # boxes [-1, 1]^3 and the same moved by 7/4 along z (b above a when up,
    # else a above b): they overlap by 1/4 along z and by 2 along x and y, so
    # δ = 1/4 and the only normal is +z when b is above (b moves up to
    # separate), −z when below. A normal of the wrong sign overlaps by 7/4:
    # judged wrong.
    lo, hi = box([0, 0, 0], np.ones(3), I), box([0, 0, 1.75], np.ones(3), I)
    a, b = (lo, hi) if up else (hi, lo)
    claim, ans, wrong = contact_verdict(name, a, b)
    if name == "pybullet":  # its boxes: half extents fl(1 - m) grown by m, so δ is 1/4 to rounding
        assert ans["depth_f64"] == pytest.approx(0.25, rel=1e-12)
    else:
        assert ans["depth_squared"] == "1/16"
    assert claim["depth_f64"] == pytest.approx(0.25, rel=1e-6)
    assert np.allclose(claim["normal"], [0, 0, 1 if up else -1], atol=1e-6)
    assert ans["verdict"] == "agree", (claim, ans["detail"])


@pytest.mark.parametrize("name", ENGINES)
def test_contact_of_spheres(name):
    # unit spheres 3/2 apart along x: δ = 2 − 3/2 = 1/2, normal (1, 0, 0);
    # the normal and the points are judged as on polytopes
    claim, ans, _ = contact_verdict(name, sphere([0, 0, 0], 1.0), sphere([1.5, 0, 0], 1.0))
    assert ans["depth_f64"] == 0.5
    assert claim["depth_f64"] == pytest.approx(0.5, rel=1e-6)
    assert np.allclose(claim["normal"], [1, 0, 0], atol=1e-6)
    assert ans["verdict"] == "agree", ans["detail"]
    assert "not judged" not in ans["detail"], ans["detail"]
    # the same claim with the normal turned to +y is wrong: the spheres
    # overlap by 2 along y, not by δ = 1/2
    q = dict(claim, normal=[0.0, 1.0, 0.0])
    line = json.dumps({"op": "contact", "a": sphere([0, 0, 0], 1.0).protocol(),
                       "b": sphere([1.5, 0, 0], 1.0).protocol(), "claim": q})
    assert json.loads(ec.answer_lines([line])[0])["verdict"] == "disagree"


def test_contact_apart_is_depth_zero():
    # apart shapes: every engine claims depth 0, judged against δ = 0
    for name in ENGINES:
        claim, ans, _ = contact_verdict(name, box([0, 0, 0], np.ones(3), I), sphere([3, 0, 0], 1.0))
        assert claim == {"depth_f64": 0.0, "rel_tol": 1e-6} and ans["verdict"] == "agree"


class _NanNormal:
    """An engine answering a contact with a NaN normal (as coal 3.0.3 does on
    some tiny hulls against spheres)."""

    NAME = "nan"
    KINDS = ("sphere",)
    REL_TOL = 1e-6

    def query(self, a, b):
        nan = float("nan")
        return adapters.Answer(intersect=True, distance=-0.5,
                               contact={"depth_f64": 0.5, "normal": [nan, nan, nan]})


def test_a_non_finite_contact_is_that_ops_failure_only():
    lines, failed = judge.claim_lines("nan", _NanNormal(), [("hand", None, sphere([0, 0, 0], 1.0),
                                                               sphere([1.5, 0, 0], 1.0), 0)])
    assert [json.loads(ln)["op"] for ln in lines] == ["intersect", "distance"]
    assert len(failed) == 1 and failed[0]["ops"] == ["contact"] and "not finite" in failed[0]["error"]


# verdicts on (capsules, spheres) overlapping by one ulp, measured on coal
# 3.0.3, python-fcl 0.7.0.11, pybullet 3.2.7, MuJoCo 4.0.0: "no contact"
# (depth 0) against a positive depth is wrong
ONE_ULP_OVERLAP = {"coal": ("disagree", "agree"), "fcl": ("disagree", "disagree"),
                   "pybullet": ("agree", "disagree"), "mujoco": ("agree", "agree")}


@pytest.mark.parametrize("name", ENGINES)
def test_contact_one_ulp_overlaps(name):
    # collinear capsules: a's segment z ∈ [-1, 1] radius 1/2, b's z ∈
    # [7/4, 39/4] radius 1/4 + 2^-54 (the double after 1/4): the end points
    # 3/4 apart, so δ = R − √q = 2^-54. Spheres: centers 7/4 apart, radii 5/4
    # and 1/2 + 2^-53: δ = 2^-53.
    caps = (capsule([0, 0, 0], 1.0, I, 0.5), capsule([0, 0, 5.75], 4.0, I, np.nextafter(0.25, 1)))
    sph = (sphere([0, 0, 0], 1.25), sphere([1.75, 0, 0], np.nextafter(0.5, 1)))
    got = []
    for (a, b), depth in ((caps, 2.0 ** -54), (sph, 2.0 ** -53)):
        claim, ans, wrong = contact_verdict(name, a, b)
        assert ans["intersect"] is True and ans["depth_f64"] == depth
        assert ans["verdict"] == ("disagree" if claim["depth_f64"] == 0 else ans["verdict"])
        got.append(ans["verdict"])
    assert tuple(got) == ONE_ULP_OVERLAP[name]


def _corner_touch(scale=1.0, at=(0.0, 0.0, 0.0)):
    # FCL #545's geometry: a cube of half extent 1/8 on the diagonal of the
    # cube [-1, 1]^3 at (9/8, 9/8, 9/8): the corners (1, 1, 1) touch, δ = 0
    at = np.array(at)
    return (box(at, np.full(3, scale), I), box(at + np.full(3, 9 / 8 * scale), np.full(3, scale / 8), I))


def test_coal_contact_of_touching_corners_is_a_known_wrong_answer():
    # coal 3.0.3 reports a penetration of about 1e-11 where the cubes only
    # touch: any positive depth against δ = 0 is wrong
    claim, ans, wrong = contact_verdict("coal", *_corner_touch())
    assert ans["intersect"] is True and ans["depth_squared"] == "0"
    assert claim["depth_f64"] > 0
    assert ans["verdict"] == "disagree" and "depth_f64" in wrong


def test_contact_claims_shrink_and_still_disagree_the_same_way():
    from exact_collision.scoreboard import shrink

    a, b = _corner_touch(2.0 ** 20, (1000.25 * 2 ** 20, 3.0 * 2 ** 20, -7.0 * 2 ** 20))
    mod, _ = adapters.load("coal")
    [entry], _ = shrink.ask("coal", mod, "contact", [(a, b)])
    line, q, ans = shrink.judged(entry)
    want = shrink.kind(q, ans)
    assert want is not None and want[0] == "contact" and want[1] == "over" and "depth_f64" in want[2]
    res = shrink.shrink("coal", mod, "contact", a, b, want, seconds=10)
    assert res["line"] is not None and res["size_after"] < res["size_before"]
    # judged again here: still a disagreement of the same kind, and the
    # shrunk boxes still touch (δ = 0 exactly, shapes meeting)
    q2 = json.loads(res["line"])
    ans2 = json.loads(ec.answer(res["line"]))
    assert ans2["verdict"] == "disagree" and shrink.kind(q2, ans2) == want
    assert ans2["depth_squared"] == "0" and ans2["intersect"] is True


# --- time of impact (ipctk) --------------------------------------------------------

def toi_verdict(op, t0, t1, engine="ipctk"):
    mod, ver = adapters.load(engine)
    assert mod is not None, ver
    if op != "ccd":
        t0, t1 = np.array(t0, float), np.array(t1, float)
    lines, failed = judge.ccd_claim_lines(engine, mod, [("hand", None, op, t0, t1, 0)])
    assert not failed
    [(line, q, ans)] = judge.judge(lines)
    return q["claim"], ans, judge.toi_kind(q, ans)


def test_ipctk_falling_vertex_is_early_by_its_convention():
    # the vertex (1/4, 1/4, ±1) falls through the triangle z = 0: it meets it
    # at t = 1/2 exactly. ipctk answers a conservative earlier time (0.49995
    # measured, within its tolerance 1e-6 of coordinates), which verify's
    # judgement of a time (within 1e-9 of the exact one) rejects: the kind
    # "early", not "late" nor a miss.
    tri = [[0, 0, 0], [1, 0, 0], [0, 1, 0]]
    claim, ans, kind = toi_verdict("ccd_vf", [[0.25, 0.25, 1], *tri], [[0.25, 0.25, -1], *tri])
    assert ans["hit"] is True and ans["toi"]["lo"] == ans["toi"]["hi"] == "1/2"
    assert claim["hit"] is True and claim["toi_f64"] < 0.5 - 1e-9
    assert ans["verdict"] == "disagree" and kind == "early"


def test_ipctk_grazing_vertex_at_scale_2_40_is_a_known_late_answer():
    # a vertex sliding in the triangle's plane (z = 0) from x = -2s to the
    # edge x = -s, s = 2^40: it reaches the triangle exactly at t = 1. ipctk
    # 1.6.1 answers a hit at t ≈ 1.8e19 (about 2^64), far past the range:
    # judged wrong, of the unsafe kind "late"
    s = 2.0 ** 40
    tri = [[-s, -s, 0], [s, -s, 0], [-s, s, 0]]
    claim, ans, kind = toi_verdict("ccd_vf", [[-2 * s, 0, 0], *tri], [[-s, 0, 0], *tri])
    assert ans["hit"] is True and ans["toi"]["lo"] == ans["toi"]["hi"] == "1"
    assert claim["hit"] is True and claim["toi_f64"] > 1
    assert ans["verdict"] == "disagree" and kind == "late"


def test_ipctk_clear_miss_agrees():
    # the vertex passes beside the triangle (x = 2): no contact
    tri = [[0, 0, 0], [1, 0, 0], [0, 1, 0]]
    claim, ans, kind = toi_verdict("ccd_vf", [[2, 0.25, 1], *tri], [[2, 0.25, -1], *tri])
    assert claim == {"hit": False} and ans["hit"] is False and ans["verdict"] == "agree" and kind is None


def test_ipctk_edges_touching_at_the_start_of_the_range():
    # crossing edges already touching at t = 0 ((0, 0, 0)): the exact first
    # time is 0, and ipctk (no earlier time exists) answers 0 too
    claim, ans, kind = toi_verdict("ccd_ee", [[-1, 0, 0], [1, 0, 0], [0, -1, 0], [0, 1, 0]],
                                   [[-1, 0, 1], [1, 0, 1], [0, -1, 0], [0, 1, 0]])
    assert ans["hit"] is True and ans["toi"]["lo"] == "0"
    assert claim == {"hit": True, "toi_f64": 0.0, "abs_tol": 1e-9} and ans["verdict"] == "agree"


def test_ccd_families_are_what_they_say():
    # every hard row's exact answer is the one built: touch and overlap hit
    # (touch at t = 1 exactly), apart misses
    from exact_collision.scoreboard import ccd_cases

    rows = [r for r in ccd_cases.generate(9, 3) if r[0] != "ee parallel"] + ccd_cases.generate(
        9, 4, ["ee parallel"])
    # a tolerance of 1e-40 on the time: the interval of an "overlap" row's
    # time (one ulp before 1) excludes 1
    lines = [json.dumps(dict(json.loads(judge.ccd_line(op, t0, t1, {"hit": True}, {})), tolerance="1e-40"))
             for _, _, op, t0, t1, _ in rows]
    for (fam, exp, *_), a in zip(rows, ec.answer_lines(lines)):
        a = json.loads(a)
        if exp is None:
            continue
        assert a["hit"] == (exp != "apart"), (fam, exp, a)
        if exp == "touch":
            assert a["toi"]["lo"] == a["toi"]["hi"] == "1", (fam, a)
        if exp == "overlap":
            assert a["toi"]["hi"] != "1" and Fraction(a["toi"]["hi"]) < 1, (fam, a)


def test_ccd_disagreements_shrink_and_still_disagree():
    from exact_collision.scoreboard import shrink

    # the falling vertex at scale 2^-20, moved away from the origin: ipctk
    # answers 1/4 for the exact 1/2 (its tolerance is absolute)
    s = 2.0 ** -20
    off = np.array([12.5, -3.0, 7.0]) * s
    tri = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]]) * s + off
    t0 = np.vstack([np.array([0.25, 0.25, 1]) * s + off, tri])
    t1 = np.vstack([np.array([0.25, 0.25, -1]) * s + off, tri])
    mod, _ = adapters.load("ipctk")
    [line], _ = judge.ccd_claim_lines("ipctk", mod, [("hand", None, "ccd_vf", t0, t1, 0)])
    want = shrink.kind(json.loads(line), json.loads(ec.answer(line)))
    assert want == ("toi", "early")
    res = shrink.shrink_ccd("ipctk", mod, "ccd_vf", t0, t1, want, seconds=10)
    assert res["line"] is not None and res["size_after"] < res["size_before"]
    q2, ans2 = json.loads(res["line"]), json.loads(ec.answer(res["line"]))
    assert shrink.kind(q2, ans2) == want


# --- time of impact (FCL's continuousCollide; coal has none) --------------------------

def test_fcl_falling_vertex_and_crossing_edges_agree():
    # the vertex (1/4, 1/4, 1 - 2t) meets the triangle z = 0 at t = 1/2; the
    # edge (±1, 0, 1 - 2t) meets the edge (0, ±1, 0) at t = 1/2 (at the
    # origin). FCL's polynomial solver, on one-triangle models (the vertex as
    # (v, v, v), an edge as (p, q, q)), answers 1/2
    tri = [[0, 0, 0], [1, 0, 0], [0, 1, 0]]
    claim, ans, kind = toi_verdict("ccd_vf", [[0.25, 0.25, 1], *tri], [[0.25, 0.25, -1], *tri], "fcl")
    assert ans["toi"]["lo"] == ans["toi"]["hi"] == "1/2" and claim["toi_f64"] == 0.5
    assert ans["verdict"] == "agree" and kind is None
    claim, ans, kind = toi_verdict("ccd_ee", [[-1, 0, 1], [1, 0, 1], [0, -1, 0], [0, 1, 0]],
                                   [[-1, 0, -1], [1, 0, -1], [0, -1, 0], [0, 1, 0]], "fcl")
    assert ans["toi"]["lo"] == ans["toi"]["hi"] == "1/2" and ans["verdict"] == "agree"


def test_fcl_grazing_vertex_is_a_known_miss():
    # the vertex slides in the triangle's plane z = 0 from (-2, 0, 0) to
    # (-1, 0, 0), the midpoint of the edge x = -1 from (-1, -1) to (-1, 1):
    # it reaches the closed triangle exactly at t = 1. FCL 0.7's polynomial
    # solver answers no contact: a miss, the unsafe kind
    tri = [[-1, -1, 0], [1, -1, 0], [-1, 1, 0]]
    claim, ans, kind = toi_verdict("ccd_vf", [[-2, 0, 0], *tri], [[-1, 0, 0], *tri], "fcl")
    assert ans["hit"] is True and ans["toi"]["lo"] == ans["toi"]["hi"] == "1"
    assert claim == {"hit": False} and ans["verdict"] == "disagree" and kind == "miss"


def test_fcl_boxes_are_sampled_late_by_its_naive_solver():
    # cubes of half side 1, a at the origin, b from x = 6 to x = -2: b's face
    # x = 5 - 8t meets a's face x = 1 at t = 1/2. FCL's only solver for two
    # boxes samples t = i/9 and answers the first sample in collision: 5/9,
    # late (its convention)
    a, b = box([0, 0, 0], [1, 1, 1], I), box([6, 0, 0], [1, 1, 1], I)
    claim, ans, kind = toi_verdict("ccd", (a, b), (np.zeros(3), np.array([-8.0, 0, 0])), "fcl")
    assert ans["hit"] is True and ans["t_enter"]["lo"] == ans["t_enter"]["hi"] == "1/2"
    assert claim["t_enter_f64"] == 5 / 9 and ans["verdict"] == "disagree" and kind == "late"


def test_fcl_fast_box_tunnels_through_a_thin_wall():
    # a wall of half thickness 2^-20 (x), b a cube of half side 1/8 flying
    # from x = -2^20 at speed 2^21: it meets the wall when -2^20 + 1/8 + 2^21 t
    # = -2^-20, at t = (2^20 - 1/8 - 2^-20) / 2^21, just before 1/2. No sample
    # t = i/9 finds b within 1/8 + 2^-20 of the wall: FCL misses
    a, b = box([0, 0, 0], [2.0 ** -20, 2, 2], I), box([-2.0 ** 20, 0, 0], [0.125] * 3, I)
    claim, ans, kind = toi_verdict("ccd", (a, b), (np.zeros(3), np.array([2.0 ** 21, 0, 0])), "fcl")
    t = (Fraction(2 ** 20) - Fraction(1, 8) - Fraction(1, 2 ** 20)) / 2 ** 21
    assert ans["hit"] is True and Fraction(ans["t_enter"]["lo"]) <= t <= Fraction(ans["t_enter"]["hi"])
    assert claim == {"hit": False} and kind == "miss"


def test_fcl_boxes_touching_at_the_start_agree_and_one_ulp_apart_stay_apart():
    # unit cubes (half side 1/2) face to face at t = 0, b sliding along y:
    # first contact at t = 0. One ulp further (x = 1 + 2^-52) they never touch
    a, b = box([0, 0, 0], [0.5] * 3, I), box([1, 0, 0], [0.5] * 3, I)
    claim, ans, kind = toi_verdict("ccd", (a, b), (np.zeros(3), np.array([0, 1.0, 0])), "fcl")
    assert ans["t_enter"]["kind"] == "start" and claim["t_enter_f64"] == 0 and ans["verdict"] == "agree"
    b = box([np.nextafter(1, 2), 0, 0], [0.5] * 3, I)
    claim, ans, kind = toi_verdict("ccd", (a, b), (np.zeros(3), np.array([0, 1.0, 0])), "fcl")
    assert ans["hit"] is False and claim == {"hit": False} and ans["verdict"] == "agree"


def test_fcl_asks_only_motions_it_can_hold():
    # FCL moves a model rigidly: a triangle whose corners move differently
    # is not asked, nor a box whose end position c + d is not a double
    mod, _ = adapters.load("fcl")
    tri = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], float)
    t0 = np.vstack([[0.25, 0.25, 1], tri])
    assert mod.accepts_ccd("ccd_vf", t0, np.vstack([[0.25, 0.25, -1], tri]))
    assert not mod.accepts_ccd("ccd_vf", t0, np.vstack([[0.25, 0.25, -1], tri + [[0, 0, 1], [0, 0, 0], [0, 0, 0]]]))
    a, b = box([0, 0, 0], [1, 1, 1], I), box([1.0, 0, 0], [1, 1, 1], I)
    assert mod.accepts_ccd("ccd", (a, b), (np.zeros(3), np.array([0.5, 0, 0])))
    assert not mod.accepts_ccd("ccd", (a, b), (np.zeros(3), np.array([2.0 ** -60, 0, 0])))


def test_box_ccd_families_are_what_they_say():
    # every hard row's exact answer is the one built: touch and overlap hit
    # (touch at the time built), apart misses
    from exact_collision.scoreboard import ccd_cases

    rows = ccd_cases.generate_boxes(6, 3)
    lines = [json.dumps(dict(json.loads(judge.ccd_line(op, t0, t1, {"hit": True}, {})), tolerance="1e-40"))
             for _, _, op, t0, t1, _ in rows]
    built = {"box touching at t=0": "0", "box faces parallel": "1", "box sliding": "1/2",
             "box edges grazing": "1", "box corners": "1"}
    for (fam, exp, *_), a in zip(rows, ec.answer_lines(lines)):
        a = json.loads(a)
        assert "error" not in a, a
        if exp is None:
            continue
        assert a["hit"] == (exp != "apart"), (fam, exp, a)
        if exp == "touch" and fam in built:
            assert a["t_enter"]["lo"] == a["t_enter"]["hi"] == built[fam], (fam, a)
        if exp == "overlap" and built.get(fam) == "1":
            assert Fraction(a["t_enter"]["hi"]) < 1, (fam, a)


def test_box_ccd_disagreements_shrink_and_still_disagree():
    from exact_collision.scoreboard import shrink

    # the late cube of test_fcl_boxes_are_sampled_late_by_its_naive_solver,
    # at scale 2^-20 and moved off the origin
    s = 2.0 ** -20
    a, b = box(np.array([3, -5, 7.0]) * s, [s] * 3, I), box(np.array([9, -5, 7.0]) * s, [s] * 3, I)
    mod, _ = adapters.load("fcl")
    d = (np.zeros(3), np.array([-8 * s, 0, 0]))
    [line], _ = judge.ccd_claim_lines("fcl", mod, [("hand", None, "ccd", (a, b), d, 0)])
    want = shrink.kind(json.loads(line), json.loads(ec.answer(line)))
    assert want == ("toi", "late")
    res = shrink.shrink_box_ccd("fcl", mod, (a, b), d, want, seconds=10)
    assert res["line"] is not None and res["size_after"] < res["size_before"]
    q2, ans2 = json.loads(res["line"]), json.loads(ec.answer(res["line"]))
    assert shrink.kind(q2, ans2) == want


def test_coal_has_no_continuous_collision():
    # coal 3 dropped FCL's continuous collision: nothing to adapt (docs/scoreboard.md)
    import coal

    assert not [n for n in dir(coal) if "continuous" in n.lower() or n.startswith("CCD")]


# --- parry through check-parry -------------------------------------------------------

CHECK_PARRY_TABLE = """engine       check               family              cases  disagree  skipped
parry3d-f32  intersect+distance  ball_ball               3         0        0
parry3d-f64  intersect+distance  convex_convex           3         0        1
parry3d-f64  linear_toi          box_edge                4         1        0
parry3d-f64  nonlinear_toi       box_spinning           12         5        0
parry3d-f64  contact             box_tiny                4         3        0
"""


def test_check_parry_table_is_folded_into_the_ops():
    from exact_collision.scoreboard.adapters import parry_adapter

    rows = parry_adapter.parse_table("some text\n" + CHECK_PARRY_TABLE + "\nskipped: parry3d-f64 ...\n")
    assert len(rows) == 5 and rows[1] == ("parry3d-f64", "intersect+distance", "convex_convex", 3, 0, 1)
    cells = parry_adapter.cells(rows)
    assert cells["intersect"]["parry3d-f64"]["convex_convex"]["errors"] == 1
    assert cells["distance"]["parry3d-f32"]["ball_ball"]["cases"] == 3
    assert cells["toi"]["parry3d-f64"]["nonlinear: box_spinning"]["wrong"] == 5
    assert cells["toi"]["parry3d-f64"]["linear: box_edge"]["wrong"] == 1
    assert cells["contact"]["parry3d-f64"]["box_tiny"] == {
        "cases": 4, "wrong": 3, "errors": 0, "worst_rel_error": None, "worst_abs_error": None, "check": "contact"}


def test_parry_is_skipped_with_a_line_without_the_feature(tmp_path, monkeypatch, capsys):
    # a program without the parry feature answers check-parry with an error
    fake = tmp_path / "exact-collision"
    fake.write_text("#!/bin/sh\necho \"error: unrecognized subcommand 'check-parry'\" >&2\nexit 2\n")
    fake.chmod(0o755)
    monkeypatch.setenv("EXACT_COLLISION_BIN", str(fake))
    assert main(["--engines", "parry,ipctk", "--cases", "16", "--out", str(tmp_path / "b"),
                 "--shrink-seconds", "0"]) == 0
    out = capsys.readouterr().out
    assert "parry: skipped" in out and "without the parry feature" in out
    summary = json.loads((tmp_path / "b" / "summary.json").read_text())
    assert "skipped" in summary["engines"]["parry"]
    from exact_collision.scoreboard import ccd_cases

    # 2 rows per family, 1 of the slow "ee parallel" (ccd_cases.SHARE)
    assert sum(c["cases"] for c in summary["ops"]["toi"]["ipctk"].values()) == 15
    assert ccd_cases.rows_of("ee parallel", 2) == 1 and ccd_cases.rows_of("vf grazing", 2) == 2


def test_families_choose_shape_and_ccd_rows():
    result = judge.run(["coal", "ipctk"], 8, 5, ["sphere-box", "vf on an edge"], log=lambda *_: None,
                       shrink_seconds=0)
    fams = {(r["engine"], r["op"], r["family"]) for r in result["records"]}
    assert {f for _, _, f in fams} == {"sphere-box", "vf on an edge"}
    assert ("ipctk", "toi", "vf on an edge") in fams and ("coal", "contact", "sphere-box") in fams
    assert sum(1 for r in result["records"] if r["op"] == "toi") == 8


def test_parry_through_a_program_built_with_the_feature(tmp_path):
    # runs when the program on PATH (or EXACT_COLLISION_BIN) was built with
    # `--features parry`; CI's program is not, and the skip says so
    from exact_collision.scoreboard.adapters import parry_adapter

    try:
        parry_adapter.version()
    except ImportError as e:
        pytest.skip(str(e))
    ext = parry_adapter.external(8, 1, shrink=False)
    cells = ext["cells"]
    assert set(cells) == {"intersect", "distance", "contact", "toi"}
    # every row of the table is folded in, and intersect and distance hold
    # the same (one claim judges both) cells
    assert sum(c["cases"] for e in cells["contact"].values() for c in e.values()) == sum(
        r[3] for r in ext["rows"] if r[1] == "contact")
    assert cells["intersect"] == cells["distance"]
    # its disagreement lines rerun as disagreements
    assert all(json.loads(a)["verdict"] == "disagree" for a in ec.answer_lines(ext["lines"]))
