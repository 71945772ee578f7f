# Throughput files for boxes by pose (300 lines, seed 7), generated as ../shared/throughput/gen.py
# does (random unit quaternion of doubles, half-extents in [0.1, 1], centers in [-3, 3]):
#   pose_box_intersect, pose_box_distance           the boxes by pose (quaternion, translation)
#   pose_box_intersect_axes, pose_box_distance_axes the same boxes given as double half-axes
#                                                    (R(q)·e rounded to doubles, as gen.py writes)
# Usage: python3 scripts/gen_pose_throughput.py OUTDIR
import json, random, math, sys
random.seed(7)
def box():
    q=[random.gauss(0,1) for _ in range(4)]; n=math.sqrt(sum(x*x for x in q)); w,x,y,z=[v/n for v in q]
    R=[[1-2*(y*y+z*z),2*(x*y-w*z),2*(x*z+w*y)],[2*(x*y+w*z),1-2*(x*x+z*z),2*(y*z-w*x)],[2*(x*z-w*y),2*(y*z+w*x),1-2*(x*x+y*y)]]
    e=[random.uniform(0.1,1) for _ in range(3)]; c=[random.uniform(-3,3) for _ in range(3)]
    pose={"type":"box","half_extents":e,"rotation":{"quaternion":[w,x,y,z]},"translation":c}
    axes={"type":"box","center":c,"half_axes":[[R[0][i]*e[i],R[1][i]*e[i],R[2][i]*e[i]] for i in range(3)]}
    return pose, axes
out=sys.argv[1]
pairs=[(box(),box()) for _ in range(300)]
for op in ["intersect","distance"]:
    with open(f"{out}/pose_box_{op}.jsonl","w") as f, open(f"{out}/pose_box_{op}_axes.jsonl","w") as g:
        for i,(a,b) in enumerate(pairs):
            f.write(json.dumps({"id":i,"op":op,"a":a[0],"b":b[0]})+"\n")
            g.write(json.dumps({"id":i,"op":op,"a":a[1],"b":b[1]})+"\n")
