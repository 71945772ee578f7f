# Files of rounded polytope-core pairs (triangle, box, prism, cube grown by a radius), generated as scripts/gen_rounded_throughput.py does (seed 7).
# Usage: python3 scripts/gen_rounded_core_throughput.py OUTDIR          -> the four throughput files (300 `distance` lines each):
#          rounded_tri_tri_distance, rounded_box_box_distance, rounded_tri_box_distance, rounded_prism_box_distance
#        python3 scripts/gen_rounded_core_throughput.py OUTDIR hard     -> rounded_core_hard_{distance,intersect,contact}.jsonl: every ordered
#          pair of {tri, box, prism, cube} at scales 1 and 2^±40, touching pairs (q = R² exactly), pairs one ulp of radius apart, radius 0,
#          overlapping cores, and exact-string (non-double) numbers.
import json, random, math, sys
random.seed(7)
def rot():
    q=[random.gauss(0,1) for _ in range(4)]; n=math.sqrt(sum(x*x for x in q)); w,x,y,z=[v/n for v in q]
    return [[1-2*(y*y+z*z),2*(x*y-w*z),2*(x*z+w*y)],[2*(x*y+w*z),1-2*(x*x+z*z),2*(y*z-w*x)],[2*(x*z-w*y),2*(y*z+w*x),1-2*(x*x+y*y)]]
def box(s):
    R=rot(); e=[random.uniform(0.1,1) for _ in range(3)]; c=[random.uniform(-s,s) for _ in range(3)]
    return {"type":"box","center":c,"half_axes":[[R[0][i]*e[i],R[1][i]*e[i],R[2][i]*e[i]] for i in range(3)]}
def tri(s):
    c=[random.uniform(-s,s) for _ in range(3)]
    return {"type":"triangle","v":[[c[j]+random.uniform(-1,1) for j in range(3)] for _ in range(3)]}
def prism(s):
    cx,cy=random.uniform(-s,s),random.uniform(-s,s); a=random.uniform(0,6.28); w,h=random.uniform(.1,1),random.uniform(.1,1)
    pts=[[cx+math.cos(a)*sx*w-math.sin(a)*sy*h, cy+math.sin(a)*sx*w+math.cos(a)*sy*h] for sx,sy in [(1,1),(-1,1),(-1,-1),(1,-1)]]
    z0=random.uniform(-s,s); return {"type":"prism","base":pts,"z":[z0,z0+random.uniform(.1,1)]}
def cube(s):
    g=lambda: random.randint(-64*int(s+1),64*int(s+1))/64
    a=[g() for _ in range(3)]; u=[random.randint(1,64)/64,0,0]; v=[0,random.randint(1,64)/64,0]; w=[random.randint(-16,16)/64,random.randint(-16,16)/64,random.randint(1,64)/64]
    add=lambda *ps: [sum(p[i] for p in ps) for i in range(3)]
    return {"type":"cube","vertices":[a,add(a,u),add(a,u,v),add(a,v),add(a,w),add(a,u,w),add(a,u,v,w),add(a,v,w)]}
mk={"tri":tri,"box":box,"prism":prism,"cube":cube}
def grown(kind,s,r=None):
    x=mk[kind](s); x["radius"]=random.uniform(0.05,0.6) if r is None else r; return x
def scaled(v,k):
    if isinstance(v,float) or isinstance(v,int) and not isinstance(v,bool): return math.ldexp(v,k)
    if isinstance(v,list): return [scaled(x,k) for x in v]
    if isinstance(v,dict): return {key:(val if key=="type" else scaled(val,k)) for key,val in v.items()}
    return v
def touching(ka,kb):
    # Axis-aligned cores whose squared distance is exactly 1 (gap along x), radii summing to 1: q = R².
    def at(kind,x0,right):
        if kind=="tri":
            xs=x0 if right else x0
            return {"type":"triangle","v":[[xs,-1,-1],[xs,2,-1],[xs,-1,2]]}
        if kind=="box":
            return {"type":"box","center":[x0+(0.5 if right else -0.5),0,0],"half_axes":[[0.5,0,0],[0,1,0],[0,0,1]]}
        if kind=="prism":
            xa=x0 if right else x0-1; return {"type":"prism","base":[[xa,-1],[xa+1,-1],[xa+1,1],[xa,1]],"z":[-1,1]}
        xa=x0 if right else x0-1
        return {"type":"cube","vertices":[[xa,-1,-1],[xa+1,-1,-1],[xa+1,1,-1],[xa,1,-1],[xa,-1,1],[xa+1,-1,1],[xa+1,1,1],[xa,1,1]]}
    ra=random.choice([0.25,0.5,0.0,0.75,1.0]); a=at(ka,0.0,False); b=at(kb,1.0,True)
    a["radius"]=ra; b["radius"]=1.0-ra
    return a,b
out=sys.argv[1]
if len(sys.argv)<3:
    for name,ka,kb in [("rounded_tri_tri_distance","tri","tri"),("rounded_box_box_distance","box","box"),("rounded_tri_box_distance","tri","box"),("rounded_prism_box_distance","prism","box")]:
        with open(f"{out}/{name}.jsonl","w") as f:
            for i in range(300):
                f.write(json.dumps({"id":i,"op":"distance","a":grown(ka,3),"b":grown(kb,3)})+"\n")
    sys.exit()
kinds=["tri","box","prism","cube"]
lines=[]
for ka in kinds:
    for kb in kinds:
        for k in [0,0,40,-40]:
            for _ in range(4):
                a,b=grown(ka,3),grown(kb,3)
                if random.random()<0.2: b["radius"]=0.0
                lines.append((scaled(a,k),scaled(b,k)))
            a,b=grown(ka,0.3),grown(kb,0.3)  # cores likely meeting
            lines.append((scaled(a,k),scaled(b,k)))
            a,b=touching(ka,kb); lines.append((scaled(a,k),scaled(b,k)))
            a,b=touching(ka,kb); b["radius"]=math.nextafter(b["radius"],0.0) if b["radius"]>0 else b["radius"]; a["radius"]=math.nextafter(a["radius"],0.0) if b["radius"]==0 else a["radius"]
            lines.append((scaled(a,k),scaled(b,k)))   # one ulp of radius apart: q > R² barely
            a,b=touching(ka,kb); b["radius"]=math.nextafter(b["radius"],2.0)
            lines.append((scaled(a,k),scaled(b,k)))   # one ulp of radius over: q < R² barely
        a,b=grown(ka,3),grown(kb,3); a["radius"]="1/3"; lines.append((a,b))  # a radius that is not a double
for op in ["distance","intersect","contact"]:
    with open(f"{out}/rounded_core_hard_{op}.jsonl","w") as f:
        for i,(a,b) in enumerate(lines):
            f.write(json.dumps({"id":i,"op":op,"a":a,"b":b})+"\n")
