# Throughput files for rounded shapes (sphere_box, capsule_capsule, capsule_triangle, convex_convex distance; 300 lines, seed 7), generated as ../shared/throughput/gen.py does. Usage: python3 scripts/gen_rounded_throughput.py OUTDIR
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
def sphere(s): return {"type":"sphere","center":[random.uniform(-s,s) for _ in range(3)],"radius":random.uniform(0.1,1)}
def capsule(s):
    c=[random.uniform(-s,s) for _ in range(3)]
    return {"type":"capsule","a":[c[j]+random.uniform(-1,1) for j in range(3)],"b":[c[j]+random.uniform(-1,1) for j in range(3)],"radius":random.uniform(0.1,0.5)}
def convex(s,n=16):
    c=[random.uniform(-s,s) for _ in range(3)]
    return {"type":"convex","points":[[c[j]+random.uniform(-1,1) for j in range(3)] for _ in range(n)]}
out=sys.argv[1]
for name,fa,fb in [("sphere_box_distance",sphere,box),("capsule_capsule_distance",capsule,capsule),("capsule_triangle_distance",capsule,tri),("convex_convex_distance",convex,convex)]:
    with open(f"{out}/{name}.jsonl","w") as f:
        for i in range(300):
            f.write(json.dumps({"id":i,"op":"distance","a":fa(3),"b":fb(3)})+"\n")
