//! The named catalogue of box / prism / cube / mixed configurations, answered
//! exactly through the protocol and snapshotted (`snapshots/`). Before a
//! snapshot is accepted, every answer is checked here by independent means:
//! its certificates (witness in both shapes, separating axis, closest points
//! in both shapes), the exact minimality certificate of the closest pair, the
//! generic polytope path against the specialised one, and, where the value is
//! known by hand, that value.

mod box_gen;

use box_gen::*;
use exact_collision::protocol::{answer_value, parse_shape};
use exact_collision::query::{self, polytope};
use serde_json::{json, Value};

/// (name, a, b, intersects by hand, distance² by hand)
type Entry = (
    &'static str,
    Value,
    Value,
    Option<bool>,
    Option<&'static str>,
);

fn catalogue() -> Vec<Entry> {
    let unit = |c: [f64; 3]| json!({"type":"box","center":c,"half_axes":[[1,0,0],[0,1,0],[0,0,1]]});
    let cube = |d: &str| {
        let shift = exact_collision::protocol::number::parse_exact(d).unwrap();
        let corners: [[i64; 3]; 8] = [
            [0, 0, 0],
            [1, 0, 0],
            [1, 1, 0],
            [0, 1, 0],
            [0, 0, 1],
            [1, 0, 1],
            [1, 1, 1],
            [0, 1, 1],
        ];
        let vs: Vec<Value> = corners
            .iter()
            .map(|p| {
                json!(
                    p.map(|c| exact_collision::protocol::number::exact_string(&(q(c, 1) + &shift)))
                )
            })
            .collect();
        json!({"type":"cube","vertices":vs})
    };
    let sq = |x0: &str, x1: &str, z0: &str, z1: &str| json!({"type":"prism","base":[[x0,"0"],[x1,"0"],[x1,"1"],[x0,"1"]],"z":[z0,z1]});
    let tri = |v: [[&str; 3]; 3]| json!({"type":"triangle","v":v});
    let diamond =
        |c: [&str; 3]| json!({"type":"box","center":c,"half_axes":[[1,1,0],[-1,1,0],[0,0,1]]});
    vec![
        (
            "box face-face touching (OBB separating-axes demo)",
            unit([0., 0., 0.]),
            json!({"type":"box","center":[2,0,0],"half_axes":[[0,1,0],[-1,0,0],[0,0,1]]}),
            Some(true),
            Some("0"),
        ),
        (
            "cube-article unit cube vs shifted by -0.9",
            cube("0"),
            cube("-0.9"),
            Some(true),
            Some("0"),
        ),
        (
            "cube-article unit cube vs shifted by -1.1",
            cube("0"),
            cube("-1.1"),
            Some(false),
            Some("3/100"),
        ),
        (
            "boxes one ulp apart (2 + 2^-51)",
            unit([0., 0., 0.]),
            unit([2.0f64.next_up(), 0., 0.]),
            Some(false),
            Some("1/5070602400912917605986812821504"),
        ),
        (
            "box inside box",
            unit([0., 0., 0.]),
            json!({"type":"box","center":["1/2",0,0],"half_axes":[["1/4",0,0],[0,"1/4",0],[0,0,"1/4"]]}),
            Some(true),
            Some("0"),
        ),
        (
            "identical boxes",
            unit([1., 2., 3.]),
            unit([1., 2., 3.]),
            Some(true),
            Some("0"),
        ),
        (
            "diamond vertical edge on box face",
            unit([0., 0., 0.]),
            diamond(["3", "0", "0"]),
            Some(true),
            Some("0"),
        ),
        (
            "diamond edge against box edge, gap 1/1000",
            unit([0., 0., 0.]),
            diamond(["2001/1000", "2", "0"]),
            Some(false),
            Some("1/2000000"),
        ),
        (
            "parallel edges only (zero edge×edge axes), diagonal gap",
            unit([0., 0., 0.]),
            unit([2.5, 2.5, 0.]),
            Some(false),
            Some("1/2"),
        ),
        (
            "skew parallelepipeds sharing a face",
            json!({"type":"box","center":[0,0,0],"half_axes":[[1,0,0],[1,1,0],[0,1,1]]}),
            json!({"type":"box","center":[2,0,0],"half_axes":[[1,0,0],[1,1,0],[0,1,1]]}),
            Some(true),
            Some("0"),
        ),
        (
            "skew parallelepipeds 1e-30 apart",
            json!({"type":"box","center":[0,0,0],"half_axes":[[1,0,0],[1,1,0],[0,1,1]]}),
            json!({"type":"box","center":["2.000000000000000000000000000001",0,0],"half_axes":[[1,0,0],[1,1,0],[0,1,1]]}),
            Some(false),
            None,
        ),
        (
            "rotated box (3-4-5) vertex on unit box face",
            unit([0., 0., 0.]),
            json!({"type":"box","center":["12/5","1/5",0],"half_axes":[["3/5","4/5",0],["-4/5","3/5",0],[0,0,1]]}),
            Some(true),
            Some("0"),
        ),
        (
            "prisms plan views 1/10 apart (Nathan cuboid demo)",
            json!({"type":"prism","base":[[0,0],[1,0],[1,1],[0,1]],"z":[0,1]}),
            json!({"type":"prism","base":[["1.1",0],["2.1",1],["2.1",0],["1.1",1]],"z":["0.5",2]}),
            Some(false),
            Some("1/100"),
        ),
        (
            "prisms with nested z ranges (Nathan's missed direction)",
            sq("0", "1", "2", "3"),
            sq("1/2", "3/2", "0", "10"),
            Some(true),
            Some("0"),
        ),
        (
            "prisms sharing an edge",
            sq("0", "1", "0", "1"),
            sq("1", "2", "1/2", "3/2"),
            Some(true),
            Some("0"),
        ),
        (
            "prisms stacked with z gap 1/2",
            sq("0", "1", "0", "1"),
            sq("1/2", "3/2", "3/2", "2"),
            Some(false),
            Some("1/4"),
        ),
        (
            "flat prisms coplanar overlapping",
            sq("0", "1", "1", "1"),
            sq("1/2", "3/2", "1", "1"),
            Some(true),
            Some("0"),
        ),
        (
            "flat prism touching box top face",
            sq("0", "1", "1", "1"),
            unit([0., 0., 0.]),
            Some(true),
            Some("0"),
        ),
        (
            "prism vs box separated diagonally",
            sq("3", "4", "0", "1"),
            diamond(["0", "0", "0"]),
            Some(false),
            Some("1"),
        ),
        (
            "triangle piercing box",
            tri([["-3", "0", "0"], ["3", "1/2", "0"], ["3", "-1/2", "0"]]),
            unit([0., 0., 0.]),
            Some(true),
            Some("0"),
        ),
        (
            "triangle touching box vertex",
            tri([["1", "1", "1"], ["2", "1", "5"], ["2", "3", "1"]]),
            unit([0., 0., 0.]),
            Some(true),
            Some("0"),
        ),
        (
            "triangle coplanar with box face, overlapping",
            tri([["0", "0", "1"], ["5", "0", "1"], ["0", "5", "1"]]),
            unit([0., 0., 0.]),
            Some(true),
            Some("0"),
        ),
        (
            "triangle inside box",
            tri([["0", "0", "0"], ["1/2", "0", "0"], ["0", "1/2", "1/2"]]),
            unit([0., 0., 0.]),
            Some(true),
            Some("0"),
        ),
        (
            "triangle above prism, gap 2",
            tri([["0", "0", "3"], ["1", "0", "3"], ["0", "1", "3"]]),
            sq("0", "1", "0", "1"),
            Some(false),
            Some("4"),
        ),
        (
            "degenerate triangle (segment) crossing box edge region",
            tri([["2", "0", "0"], ["0", "2", "0"], ["1", "1", "0"]]),
            unit([0., 0., 0.]),
            Some(true),
            Some("0"),
        ),
        (
            "cube vs prism edge to edge",
            cube("0"),
            json!({"type":"prism","base":[[1,1],[2,1],[2,2],[1,2]],"z":[1,2]}),
            Some(true),
            Some("0"),
        ),
        (
            "sheared cube (parallelepiped) vs box, gap",
            json!({"type":"cube","vertices":[[0,0,0],[1,0,0],[2,1,0],[1,1,0],[0,0,1],[1,0,1],[2,1,1],[1,1,1]]}),
            unit([-2., 0., 0.]),
            Some(false),
            Some("1"),
        ),
        (
            "boxes at 1e300 touching",
            json!({"type":"box","center":[1e300,0,0],"half_axes":[[1e299,0,0],[0,1e299,0],[0,0,1e299]]}),
            json!({"type":"box","center":[1.2e300,0,0],"half_axes":[[1e299,0,0],[0,1e299,0],[0,0,1e299]]}),
            None,
            None,
        ),
    ]
}

#[test]
fn catalogue_is_checked_and_snapshotted() {
    let cat = catalogue();
    assert!(cat.len() >= 25);
    let mut out = Vec::new();
    for (name, a, b, want_hit, want_d2) in cat {
        let (sa, sb) = (parse_shape(&a, "a").unwrap(), parse_shape(&b, "b").unwrap());
        let i = query::intersect(&sa, &sb).unwrap();
        let c = query::distance(&sa, &sb).unwrap();
        check_all(&sa, &sb, &i, &c).unwrap_or_else(|e| panic!("{name}: {e}"));
        // independent: the generic polytope path, and the swapped pair
        assert_eq!(
            i.intersects(),
            polytope::intersect(&sa, &sb).intersects(),
            "{name}"
        );
        assert_eq!(
            c.distance_squared,
            polytope::distance(&sa, &sb).distance_squared,
            "{name}"
        );
        assert_eq!(
            c.distance_squared,
            query::distance(&sb, &sa).unwrap().distance_squared,
            "{name}"
        );
        if let Some(h) = want_hit {
            assert_eq!(i.intersects(), h, "{name}");
        }
        if let Some(d) = want_d2 {
            assert_eq!(
                c.distance_squared,
                exact_collision::protocol::number::parse_exact(d).unwrap(),
                "{name}"
            );
        }
        let ai = answer_value(&json!({"op":"intersect","a":a,"b":b}));
        let ad = answer_value(&json!({"op":"distance","a":a,"b":b}));
        assert!(ai.ok && ad.ok, "{name}");
        out.push(json!({"name": name, "intersect": ai.value, "distance": ad.value}));
    }
    insta::with_settings!({snapshot_path => "../snapshots", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("box_catalogue", serde_json::to_string_pretty(&out).unwrap());
    });
}
