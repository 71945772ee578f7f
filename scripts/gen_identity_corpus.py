# The byte-identity corpus of a refactoring: every ordered pair of {triangle, box, prism, cube, box by quaternion pose, box by matrix pose} x {intersect, distance}, mixed number forms (10% "scalar":"f64", 5% "f32", 5% exact strings). Usage: python3 scripts/gen_identity_corpus.py OUTDIR 100000 (seed 11).
import json, random, math, sys
from fractions import Fraction
random.seed(11)
def quat():
    q=[random.gauss(0,1) for _ in range(4)]; n=math.sqrt(sum(x*x for x in q)); return [v/n for v in q]
def rot():
    w,x,y,z=quat()
    return [[1-2*(y*y+z*z),2*(x*y-w*z),2*(x*z+w*y)],[2*(x*y+w*z),1-2*(x*x+z*z),2*(y*z-w*x)],[2*(x*z-w*y),2*(y*z+w*x),1-2*(x*x+y*y)]]
def box(s):
    R=rot(); e=[random.uniform(0.1,1) for _ in range(3)]; c=[random.uniform(-s,s) for _ in range(3)]
    return {"type":"box","center":c,"half_axes":[[R[0][i]*e[i],R[1][i]*e[i],R[2][i]*e[i]] for i in range(3)]}
def boxq(s):
    return {"type":"box","half_extents":[random.uniform(0.1,1) for _ in range(3)],"rotation":{"quaternion":quat()},"translation":[random.uniform(-s,s) for _ in range(3)]}
def boxm(s):
    return {"type":"box","half_extents":[random.uniform(0.1,1) for _ in range(3)],"rotation":{"matrix":rot()},"translation":[random.uniform(-s,s) for _ in range(3)]}
def tri(s):
    c=[random.uniform(-s,s) for _ in range(3)]
    return {"type":"triangle","v":[[c[j]+random.uniform(-1,1) for j in range(3)] for _ in range(3)]}
def prism(s):
    cx,cy=random.uniform(-s,s),random.uniform(-s,s); a=random.uniform(0,6.28); w,h=random.uniform(.1,1),random.uniform(.1,1)
    pts=[[cx+math.cos(a)*sx*w-math.sin(a)*sy*h, cy+math.sin(a)*sx*w+math.cos(a)*sy*h] for sx,sy in [(1,1),(-1,1),(-1,-1),(1,-1)]]
    z0=random.uniform(-s,s); return {"type":"prism","base":pts,"z":[z0,z0+random.uniform(.1,1)]}
def cube(s):
    # an exact parallelepiped from dyadic-friendly doubles (multiples of 1/64)
    g=lambda: random.randint(-64*int(s+1),64*int(s+1))/64
    a=[g() for _ in range(3)]; u=[random.randint(-64,64)/64 for _ in range(3)]; v=[random.randint(-64,64)/64 for _ in range(3)]; w=[random.randint(-64,64)/64 for _ in range(3)]
    add=lambda *ps: [sum(p[i] for p in ps) for i in range(3)]
    return {"type":"cube","vertices":[a,add(a,u),add(a,u,v),add(a,v),add(a,w),add(a,u,w),add(a,u,v,w),add(a,v,w)]}
mk={"tri":tri,"box":box,"prism":prism,"cube":cube,"boxq":boxq,"boxm":boxm}
def exact(x):
    if isinstance(x,float):
        f=Fraction(x).limit_denominator(1000); return str(f.numerator) if f.denominator==1 else f"{f.numerator}/{f.denominator}"
    if isinstance(x,list): return [exact(y) for y in x]
    if isinstance(x,dict): return {k:(exact(v) if k!="type" else v) for k,v in x.items()}
    return x
kinds=["tri","box","prism","cube"]
out=sys.argv[1]; n=int(sys.argv[2])
for op in ["intersect","distance"]:
    for ka in kinds+["boxq","boxm"]:
        for kb in kinds+["boxq","boxm"]:
            pose = ka in ("boxq","boxm") or kb in ("boxq","boxm")
            m = max(n//100, 50) if pose else n
            if pose and op=="distance": m = 40
            with open(f"{out}/{op}_{ka}_{kb}.jsonl","w") as f:
                for i in range(m):
                    s=random.choice([0.3,1.0,3.0])
                    q={"id":i,"op":op,"a":mk[ka](s),"b":mk[kb](s)}
                    r=random.random()
                    if r<0.1: q["scalar"]="f64"
                    elif r<0.15: q["scalar"]="f32"
                    elif r<0.2 and not pose: q["a"]=exact(q["a"]); q["b"]=exact(q["b"])
                    f.write(json.dumps(q)+"\n")
