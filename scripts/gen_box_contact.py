# Box-box `contact` query lines.
#   python3 scripts/gen_box_contact.py throughput > box_box_contact.jsonl
#     300 lines in the family of ../shared/throughput/gen.py's box_box files (seed 7, random unit
#     quaternion rotations, half extents in [0.1, 1]) with both centres in [-0.6, 0.6]^3, so that
#     most pairs meet.
#   python3 scripts/gen_box_contact.py pose > pose_box_contact.jsonl
#   python3 scripts/gen_box_contact.py pose_axes > pose_box_contact_axes.jsonl
#     300 lines of two boxes by pose (seed 7, as boxq(): a random unit quaternion of doubles, half
#     extents in [0.1, 1], centres in [-0.6, 0.6]^3, so that most pairs meet), and the same boxes
#     given as double half-axes (R(q)·e rounded to doubles, as gen_pose_throughput.py writes its
#     _axes twin).
#   python3 scripts/gen_box_contact.py identity N > mixed.jsonl
#     N mixed contact lines for byte-identity checks (seed 13): boxes, cubes and boxes by pose,
#     random and special (axis-aligned, touching, concentric, one ulp of overlap, scaled by
#     2^+-40, integer coordinates), 10% "scalar":"f64", 5% "f32", 5% exact strings.
import json, math, random, sys
from fractions import Fraction

def quat():
    q = [random.gauss(0, 1) for _ in range(4)]; n = math.sqrt(sum(x * x for x in q)); return [v / n for v in q]

def rot():
    w, x, y, z = quat()
    return [[1-2*(y*y+z*z), 2*(x*y-w*z), 2*(x*z+w*y)], [2*(x*y+w*z), 1-2*(x*x+z*z), 2*(y*z-w*x)],
            [2*(x*z-w*y), 2*(y*z+w*x), 1-2*(x*x+y*y)]]

def box(spread):
    # the same draws as gen.py's box()
    R = rot(); e = [random.uniform(0.1, 1) for _ in range(3)]
    c = [random.uniform(-spread, spread) for _ in range(3)]
    return {"type": "box", "center": c, "half_axes": [[R[0][i]*e[i], R[1][i]*e[i], R[2][i]*e[i]] for i in range(3)]}

def aligned(c, e):
    return {"type": "box", "center": c, "half_axes": [[e[0], 0, 0], [0, e[1], 0], [0, 0, e[2]]]}

def scaled(b, k):
    return {"type": "box", "center": [x * k for x in b["center"]], "half_axes": [[x * k for x in h] for h in b["half_axes"]]}

def special():
    r = random.randrange(8)
    if r == 0:  # concentric equal cubes
        c = [random.choice([0, 0.5, -1.25]) for _ in range(3)]; return aligned(c, [0.5]*3), aligned(c, [0.5]*3)
    if r == 1:  # touching faces (depth 0)
        return aligned([0, 0, 0], [0.5]*3), aligned([1.0, random.choice([0, 0.25]), 0], [0.5]*3)
    if r == 2:  # one ulp of overlap
        return aligned([0, 0, 0], [0.5]*3), aligned([0, 0, math.nextafter(1.0, 0)], [0.5]*3)
    if r == 3:  # resting, integer coordinates
        return aligned([0, 0, 0], [4, 4, 1]), aligned([random.randint(-3, 3), random.randint(-3, 3), 1], [1, 1, 1])
    if r == 4:  # an edge across an edge: b turned 45 degrees about x, its lower edge into a's top
        s = math.sqrt(0.5) / 2
        return aligned([0, 0, 0], [0.5]*3), {"type": "box", "center": [0.25, 0, 0.5 + 2*s - 0.01],
                                             "half_axes": [[0.5, 0, 0], [0, s, s], [0, -s, s]]}
    if r == 5:  # scaled by 2^+-40
        k = random.choice([2.0**40, 2.0**-40]); return scaled(box(0.6), k), scaled(box(0.6), k)
    if r == 6:  # axis-aligned, random overlap
        return (aligned([random.uniform(-.3, .3) for _ in range(3)], [random.uniform(.1, 1) for _ in range(3)]),
                aligned([random.uniform(-.3, .3) for _ in range(3)], [random.uniform(.1, 1) for _ in range(3)]))
    b = box(0.6)  # the same box twice
    return b, json.loads(json.dumps(b))

def cube():
    g = lambda: random.randint(-40, 40) / 64
    a = [g() for _ in range(3)]; u, v, w = ([random.randint(-64, 64) / 64 for _ in range(3)] for _ in range(3))
    add = lambda *ps: [sum(p[i] for p in ps) for i in range(3)]
    return {"type": "cube", "vertices": [a, add(a, u), add(a, u, v), add(a, v), add(a, w), add(a, u, w), add(a, u, v, w), add(a, v, w)]}

def boxq():
    return {"type": "box", "half_extents": [random.uniform(0.1, 1) for _ in range(3)], "rotation": {"quaternion": quat()},
            "translation": [random.uniform(-.6, .6) for _ in range(3)]}

def exact(x):
    if isinstance(x, float):
        f = Fraction(x).limit_denominator(1000); return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"
    if isinstance(x, list): return [exact(y) for y in x]
    if isinstance(x, dict): return {k: (exact(v) if k != "type" else v) for k, v in x.items()}
    return x

mode = sys.argv[1]
if mode == "throughput":
    random.seed(7)
    for i in range(300):
        print(json.dumps({"id": i, "op": "contact", "a": box(0.6), "b": box(0.6)}))
elif mode == "identity":
    random.seed(13)
    for i in range(int(sys.argv[2])):
        r = random.random()
        if r < 0.4: a, b = box(0.6), box(0.6)
        elif r < 0.55: a, b = box(1.5), box(1.5)
        elif r < 0.8: a, b = special()
        elif r < 0.9: a, b = cube(), random.choice([cube, lambda: box(0.6)])()
        else: a, b = boxq(), box(0.6)
        if random.random() < 0.5: a, b = b, a
        q = {"id": i, "op": "contact", "a": a, "b": b}
        s = random.random()
        if s < 0.1: q["scalar"] = "f64"
        elif s < 0.15: q["scalar"] = "f32"
        elif s < 0.2: q["a"] = exact(a); q["b"] = exact(b)
        print(json.dumps(q))
elif mode in ("pose", "pose_axes"):
    random.seed(7)
    def pose_pair():
        a = boxq(); w, x, y, z = a["rotation"]["quaternion"]; e = a["half_extents"]
        R = [[1-2*(y*y+z*z), 2*(x*y-w*z), 2*(x*z+w*y)], [2*(x*y+w*z), 1-2*(x*x+z*z), 2*(y*z-w*x)],
             [2*(x*z-w*y), 2*(y*z+w*x), 1-2*(x*x+y*y)]]
        return a, {"type": "box", "center": a["translation"], "half_axes": [[R[0][i]*e[i], R[1][i]*e[i], R[2][i]*e[i]] for i in range(3)]}
    k = 0 if mode == "pose" else 1
    for i in range(300):
        a, b = pose_pair(), pose_pair()
        print(json.dumps({"id": i, "op": "contact", "a": a[k], "b": b[k]}))
else:
    sys.exit("usage: gen_box_contact.py throughput | pose | pose_axes | identity N")
