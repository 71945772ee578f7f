"""Hard sphere-box distance lines for `sphere_box_profile FILE check` (3,150 lines, seed 21):
exact touching of faces, edges and vertices (integer Pythagorean distances) and one ulp either way,
at scales 1 and 2^+-40, radii split between the shapes; random rotated boxes; centres on region
boundaries. Usage: python3 scripts/gen_sphere_box_hard.py > hard.jsonl"""
import json, random, math
random.seed(21)
out=[]
def box(c,h,r=0.0): 
    d={"type":"box","center":c,"half_axes":h}
    if r: d["radius"]=r
    return d
def sph(c,r): return {"type":"sphere","center":c,"radius":r}
I=[[1.0,0,0],[0,1.0,0],[0,0,1.0]]
def rot():
    a,b,c=[random.uniform(0,2*math.pi) for _ in range(3)]
    # rows of a rotation (floats; the box need not be exactly orthogonal)
    ca,sa,cb,sb,cc,sc=math.cos(a),math.sin(a),math.cos(b),math.sin(b),math.cos(c),math.sin(c)
    R=[[ca*cb, ca*sb*sc-sa*cc, ca*sb*cc+sa*sc],[sa*cb, sa*sb*sc+ca*cc, sa*sb*cc-ca*sc],[-sb, cb*sc, cb*cc]]
    return [[R[0][i],R[1][i],R[2][i]] for i in range(3)]
for k in [0,40,-40]:
    s=2.0**k
    for _ in range(150):
        # touching a face/edge/vertex exactly (integers), and one ulp either way
        e=[float(random.randint(1,5)) for _ in range(3)]
        h=[[e[0]*s,0,0],[0,e[1]*s,0],[0,0,e[2]*s]]
        kind=random.randint(0,2)
        if kind==0: p=[(e[0]+3)*s,0.0,0.0]; d=3*s
        elif kind==1: p=[(e[0]+3)*s,(e[1]+4)*s,0.0]; d=5*s
        else: p=[(e[0]+2)*s,(e[1]+3)*s,(e[2]+6)*s]; d=7*s
        for r in [d, math.nextafter(d,0), math.nextafter(d,math.inf), d/2, 0.0]:
            ra=random.choice([0.0,r/3]) if r else 0.0
            out.append({"op":"distance","a":sph(p,r-ra if r else 0.0),"b":box([0.0,0.0,0.0],h,ra)})
    for _ in range(150):
        # random rotated boxes, centres in every region and inside
        h=rot(); e=[random.uniform(0.1,3) for _ in range(3)]
        h=[[x*e[i]*s for x in h[i]] for i in range(3)]
        c=[random.uniform(-1,1)*s for _ in range(3)]
        p=[random.uniform(-6,6)*s for _ in range(3)]
        out.append({"op":"distance","a":sph(p,random.uniform(0,2)*s),"b":box(c,h,random.choice([0.0,random.uniform(0,1)*s]))})
        # centre on a region boundary: p = c + h0 + t*h1 + 3*n-ish
        t=random.choice([1.0,-1.0,0.5])
        p2=[c[j]+h[0][j]*2+h[1][j]*t for j in range(3)]
        out.append({"op":"distance","a":sph(p2,random.uniform(0,1)*s),"b":box(c,h)})
for l in out: print(json.dumps(l))
