//! Box CCD: Albocher et al.'s method against the separating-axis method, hand-checked
//! contact times, and an exact static box test at sampled rational times.

use exact_collision::ccd::boxes::guided::ccd_guided;
use exact_collision::ccd::boxes::motion::RatAffine;
use exact_collision::ccd::{ccd, ccd_exact, ccd_sat, CcdAnswer, ContactTime, TimeKind};
use exact_collision::ccd::{ccd_with_limits, CcdQuery, Limits, Motion, MovingBox, PointCcd};
use exact_collision::protocol::{parse_query, Op};
use exact_collision::Obb;
use exact_collision::Vec3;
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use proptest::prelude::*;
use serde_json::{json, Value};

fn r(n: i64, d: i64) -> BigRational {
    BigRational::new(n.into(), d.into())
}

fn query(v: Value) -> CcdQuery {
    let mut v = v;
    v["op"] = json!("ccd");
    match parse_query(&v).expect("valid query").op {
        Op::Ccd(q) => q,
        _ => unreachable!(),
    }
}

fn unit_box(center: [i64; 3]) -> Value {
    json!({"type":"box","center":center,"half_axes":[[1,0,0],[0,1,0],[0,0,1]]})
}

/// Exact static test over the 15 axes: do the closed boxes (center, half-axes) touch?
fn touch(
    ca: &Vec3<BigRational>,
    ha: &[Vec3<BigRational>; 3],
    cb: &Vec3<BigRational>,
    hb: &[Vec3<BigRational>; 3],
) -> bool {
    let mut axes = vec![
        ha[1].cross(&ha[2]),
        ha[2].cross(&ha[0]),
        ha[0].cross(&ha[1]),
        hb[1].cross(&hb[2]),
        hb[2].cross(&hb[0]),
        hb[0].cross(&hb[1]),
    ];
    for x in ha {
        for y in hb {
            axes.push(x.cross(y));
        }
    }
    let d = cb.sub(ca);
    axes.iter()
        .filter(|l| !l.norm_squared().is_zero())
        .all(|l| {
            let mut s = BigRational::zero();
            for h in ha.iter().chain(hb.iter()) {
                s += l.dot(h).abs();
            }
            l.dot(&d).abs() <= s
        })
}

/// The two boxes touch at the rational time t (exact, world frame).
fn touch_at(q: &CcdQuery, t: &BigRational) -> bool {
    let ma = RatAffine::from_motion(&q.a.motion);
    let mb = RatAffine::from_motion(&q.b.motion);
    let ca = ma.eval_point(&q.a.shape.center, t);
    let cb = mb.eval_point(&q.b.shape.center, t);
    let ha = q.a.shape.half_axes.clone().map(|h| ma.eval_vector(&h, t));
    let hb = q.b.shape.half_axes.clone().map(|h| mb.eval_vector(&h, t));
    touch(&ca, &ha, &cb, &hb)
}

fn same_time(x: &ContactTime, y: &ContactTime) -> bool {
    if x.kind != y.kind {
        return false;
    }
    match (x.to_real_root(), y.to_real_root()) {
        (Some(a), Some(b)) => a.cmp_exact(&b).is_eq(),
        _ => false,
    }
}

/// Checks the answer's certificates, the agreement of both methods, and static
/// contact at sampled rational times.
fn check(q: &CcdQuery) -> CcdAnswer {
    let a = ccd(q).expect("answered");
    let b = ccd_sat(q).expect("answered");
    let (t0, t1) = (&q.t_range.0, &q.t_range.1);
    match (&a, &b) {
        (CcdAnswer::Miss, CcdAnswer::Miss) => {
            for k in 0..=8 {
                let t = t0 + (t1 - t0) * r(k, 8);
                assert!(!touch_at(q, &t), "miss, but touching at t = {t}");
            }
        }
        (
            CcdAnswer::Hit {
                t_enter, t_exit, ..
            },
            CcdAnswer::Hit {
                t_enter: e2,
                t_exit: x2,
                ..
            },
        ) => {
            assert!(
                same_time(t_enter, e2),
                "t_enter: sgm {t_enter:?} sat {e2:?}"
            );
            assert!(same_time(t_exit, x2), "t_exit: sgm {t_exit:?} sat {x2:?}");
            for t in [t_enter, t_exit] {
                assert!(t.to_real_root().is_some(), "bad certificate {t:?}");
                assert!(&t.hi - &t.lo <= q.tolerance);
            }
            // Separated before t_enter.
            for k in 1..=4 {
                let t = t0 + (&t_enter.lo - t0) * r(k, 5);
                if t < t_enter.lo {
                    assert!(
                        !touch_at(q, &t),
                        "touching at {t} before t_enter {t_enter:?}"
                    );
                }
            }
            // In contact between t_enter and t_exit.
            if t_enter.hi < t_exit.lo {
                for k in 1..=4 {
                    let t = &t_enter.hi + (&t_exit.lo - &t_enter.hi) * r(k, 5);
                    assert!(
                        touch_at(q, &t),
                        "separated at {t} inside the contact period"
                    );
                }
            }
            if t_enter.kind == TimeKind::Start {
                assert!(touch_at(q, t0));
            }
            if t_enter.lo == t_enter.hi {
                assert!(touch_at(q, &t_enter.lo));
            }
        }
        _ => panic!("methods disagree on hit: sgm {a:?} sat {b:?}"),
    }
    a
}

fn hit(a: &CcdAnswer) -> (&ContactTime, &ContactTime) {
    match a {
        CcdAnswer::Hit {
            t_enter, t_exit, ..
        } => (t_enter, t_exit),
        CcdAnswer::Miss => panic!("expected a hit"),
    }
}

#[test]
fn translation_face_contact_hand_checked() {
    // b's center x(t) = 5 − 10t: touches when x = 2 (t = 3/10), leaves at x = −2 (t = 7/10).
    let q = query(json!({"a":{"shape":unit_box([0,0,0])},
        "b":{"shape":unit_box([0,0,0]),"motion":{"quaternion":[1,0,0,0],"translation":[["5","-10"],"1/2",0]}}}));
    let a = check(&q);
    let (e, x) = hit(&a);
    assert_eq!((e.lo.clone(), e.hi.clone()), (r(3, 10), r(3, 10)));
    assert_eq!((x.lo.clone(), x.hi.clone()), (r(7, 10), r(7, 10)));
    assert_eq!(e.poly, vec![(-3).into(), 10.into()]);
    let CcdAnswer::Hit { feature, .. } = &a else {
        unreachable!()
    };
    let f = feature.as_ref().expect("feature");
    // Face +x of a meets b's −x side: several planes vanish at once (face contact).
    assert!(f.degenerate);
}

#[test]
fn rotated_fixed_translation_rational_times() {
    // b rotated by the fixed quaternion (2, 1, 0, 0)/√5 (a rational rotation),
    // translated along x: contact times are roots of linear polynomials, rational.
    let q = query(json!({"a":{"shape":unit_box([0,0,0])},
        "b":{"shape":unit_box([0,0,0]),"motion":{"quaternion":[2,1,0,0],"translation":[["6","-12"],0,0]}}}));
    let a = check(&q);
    let (e, x) = hit(&a);
    // Rotation about x keeps b's x-extent at 1: touch when 6 − 12t = 2 and −2.
    assert_eq!(e.lo, r(1, 3));
    assert_eq!(e.hi, r(1, 3));
    assert_eq!(x.lo, r(2, 3));
}

#[test]
fn grazing_vertex_edge_enter_equals_exit() {
    // c(t) = (4t, 4 − 4t, 0): only at t = 1/2 is c on the Minkowski sum [−2, 2]³.
    let q = query(json!({"a":{"shape":unit_box([0,0,0])},
        "b":{"shape":unit_box([0,0,0]),"motion":{"matrix":[[1,0,0],[0,1,0],[0,0,1],[["0","4"],["4","-4"],0]]}}}));
    let a = check(&q);
    let (e, x) = hit(&a);
    assert_eq!(e.lo, r(1, 2));
    assert_eq!(x.lo, r(1, 2));
    assert_eq!(x.kind, TimeKind::Root);
}

#[test]
fn contact_exactly_at_start_and_end() {
    // Touching at t = 0 and moving away: enter is the start, exit is t = 0.
    let q = query(json!({"a":{"shape":unit_box([0,0,0])},
        "b":{"shape":unit_box([2,0,0]),"motion":{"matrix":[[1,0,0],[0,1,0],[0,0,1],[[0,1],0,0]]}}}));
    let a = check(&q);
    let (e, x) = hit(&a);
    assert_eq!(e.kind, TimeKind::Start);
    assert_eq!(x.kind, TimeKind::Root);
    assert_eq!(x.lo, r(0, 1));
    // Approaching, touching exactly at t = 1: enter is the root 1, exit the end.
    let q = query(json!({"a":{"shape":unit_box([0,0,0])},
        "b":{"shape":unit_box([3,0,0]),"motion":{"matrix":[[1,0,0],[0,1,0],[0,0,1],[[0,-1],0,0]]}}}));
    let a = check(&q);
    let (e, x) = hit(&a);
    assert_eq!((e.kind.clone(), e.lo.clone()), (TimeKind::Root, r(1, 1)));
    assert_eq!(x.kind, TimeKind::End);
}

#[test]
fn miss_and_vanishing_denominator() {
    let q = query(json!({"a":{"shape":unit_box([0,0,0])},
        "b":{"shape":unit_box([0,5,0]),"motion":{"matrix":[[1,0,0],[0,1,0],[0,0,1],[[0,1],0,0]]}}}));
    assert_eq!(check(&q), CcdAnswer::Miss);
    let q = query(
        json!({"a":{"shape":unit_box([0,0,0]),"motion":{"quaternion":[["-1/2",1],0,0,0]}},
        "b":{"shape":unit_box([0,5,0])}}),
    );
    assert!(ccd(&q).is_err());
}

// ---- generated motions -------------------------------------------------------

fn cases() -> u32 {
    if std::env::var("EXACT_HEAVY").is_ok() {
        256
    } else {
        12
    }
}

fn small() -> impl Strategy<Value = i64> {
    -4i64..=4
}

fn vec3() -> impl Strategy<Value = [i64; 3]> {
    [small(), small(), small()]
}

/// A box with independent integer half-axes (a parallelepiped in general).
fn boxv() -> impl Strategy<Value = Value> {
    (vec3(), vec3(), vec3(), vec3())
        .prop_filter("independent half-axes", |(_, a, b, c)| {
            let d = a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0])
                + a[2] * (b[0] * c[1] - b[1] * c[0]);
            d != 0
        })
        .prop_map(|(c, a, b, d)| json!({"type":"box","center":c,"half_axes":[a,b,d]}))
}

fn lin() -> impl Strategy<Value = Value> {
    (small(), small()).prop_map(|(a, b)| json!([a, b]))
}

/// A fixed rational rotation (quaternion with integer entries) and linear translation.
fn translating() -> impl Strategy<Value = Value> {
    ([small(), small(), small(), small()], lin(), lin(), lin())
        .prop_filter("nonzero q", |(q, ..)| q.iter().any(|&x| x != 0))
        .prop_map(|(q, x, y, z)| json!({"quaternion":q,"translation":[x,y,z]}))
}

/// A degree-1 quaternion curve (rotation of degree 2) and linear translation.
fn rotating() -> impl Strategy<Value = Value> {
    ([lin(), lin(), lin(), lin()], lin(), lin(), lin())
        .prop_map(|(q, x, y, z)| json!({"quaternion":q,"translation":[x,y,z]}))
}

/// Non-uniform scale: positive linear scales on a fixed integer matrix, linear translation.
fn scaling() -> impl Strategy<Value = Value> {
    (
        [1i64..=3, 1i64..=3, 1i64..=3],
        [-2i64..=2, -2i64..=2, -2i64..=2],
        lin(),
        lin(),
        lin(),
    )
        .prop_map(|(s, ds, x, y, z)| {
            let e = |i: usize| json!([s[i] + 2, ds[i]]);
            json!({"matrix":[[e(0),0,0],[0,e(1),0],[0,0,e(2)],[x,y,z]],"denominator":2})
        })
}

fn ccd_query(a: Value, ma: Option<Value>, b: Value, mb: Option<Value>) -> Option<CcdQuery> {
    let mut ja = json!({ "shape": a });
    if let Some(m) = ma {
        ja["motion"] = m;
    }
    let mut jb = json!({ "shape": b });
    if let Some(m) = mb {
        jb["motion"] = m;
    }
    let v = json!({"op":"ccd","a":ja,"b":jb,"tolerance":"1/1000000"});
    match parse_query(&v).ok()?.op {
        Op::Ccd(q) => Some(q),
        _ => None,
    }
}

fn run(q: Option<CcdQuery>) -> Result<(), TestCaseError> {
    let Some(q) = q else { return Ok(()) };
    if ccd(&q).is_err() {
        // A singular motion (|q|² or a scale vanishing on the range): both must refuse.
        prop_assert!(ccd_sat(&q).is_err());
        prop_assert!(ccd_exact(&q).is_err());
        return Ok(());
    }
    check(&q);
    same_as_exact(&q);
    Ok(())
}

/// The float-guided answer, when it gives one, is the exhaustive exact sweep's: the
/// same times (interval ends, polynomial, nearest double), the same feature. Returns
/// whether the guided path answered.
fn same_as_exact(q: &CcdQuery) -> bool {
    let exact = ccd_exact(q).expect("answered");
    assert_eq!(
        ccd(q).expect("answered"),
        exact,
        "ccd differs from ccd_exact"
    );
    match ccd_guided(q) {
        Ok(a) => {
            assert_eq!(
                a, exact,
                "the float-guided sweep differs from the exact one"
            );
            true
        }
        Err(_) => false,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn sgm_equals_sat_translation_fixed_rotation(a in boxv(), b in boxv(), m in translating()) {
        let q = ccd_query(a, None, b, Some(m));
        // Translation only: every constraint is linear in t, so the times are rational.
        if let Some(q) = &q {
            if let Ok(CcdAnswer::Hit { t_enter, t_exit, .. }) = ccd(q) {
                prop_assert_eq!(&t_enter.lo, &t_enter.hi);
                prop_assert_eq!(&t_exit.lo, &t_exit.hi);
            }
        }
        run(q)?;
    }

    #[test]
    fn sgm_equals_sat_rotating(a in boxv(), b in boxv(), m in rotating()) {
        run(ccd_query(a, None, b, Some(m)))?;
    }

    #[test]
    fn sgm_equals_sat_both_moving(a in boxv(), b in boxv(), ma in rotating(), mb in translating()) {
        run(ccd_query(a, Some(ma), b, Some(mb)))?;
    }

    #[test]
    fn sgm_equals_sat_nonuniform_scale(a in boxv(), b in boxv(), ma in scaling(), mb in scaling()) {
        run(ccd_query(a, Some(ma), b, Some(mb)))?;
    }
}

// ---- Albocher et al.'s examples (demo entries), snapshotted ------------------

#[test]
fn box_ccd_examples_agree_and_snapshot() {
    use exact_collision::demo::{CCD_DEGREE2_ENTRY_EXIT, CCD_DEGREE4_MISS, CCD_LINEAR_EQ6};
    for (name, src) in [
        ("linear_eq6", CCD_LINEAR_EQ6),
        ("degree2_entry_exit", CCD_DEGREE2_ENTRY_EXIT),
        ("degree4_miss", CCD_DEGREE4_MISS),
    ] {
        let v: Value = serde_json::from_str(src).unwrap();
        let q = query(v.clone());
        let a = check(&q);
        match name {
            // By hand: the FV plane of a's face −y and b's vertex (−,−,+):
            // (−36.86 + 60.69t) + (2·0.16 + 2·0.90 + 2.58·0.41) + 5 = 0.
            "linear_eq6" => {
                let (e, _) = hit(&a);
                assert_eq!(e.lo, r(286822, 606900));
                assert_eq!(e.hi, e.lo);
            }
            "degree2_entry_exit" => {
                let (e, x) = hit(&a);
                assert!(e.hi < x.lo);
            }
            _ => assert_eq!(a, CcdAnswer::Miss),
        }
        let ans = exact_collision::protocol::answer_value(&v).value;
        insta::with_settings!({snapshot_path => "../snapshots", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!(format!("ccd_{name}"), serde_json::to_string_pretty(&ans).unwrap());
        });
    }
}

#[test]
fn plot_marks_contact_times() {
    use exact_collision::ccd::boxes::{plot::plot_svg, sgm::Sgm};
    use exact_collision::ccd::relative;
    let q = query(serde_json::from_str(exact_collision::demo::CCD_LINEAR_EQ6).unwrap());
    let sgm = Sgm::new(relative(&q).unwrap());
    let svg = plot_svg(&sgm, &q.t_range.0, &q.t_range.1, &[0.4726, 0.742]);
    assert!(svg.starts_with("<svg"));
    // 30 planes + the envelope (plus plotters' own grid and legend lines).
    assert!(svg.matches("<polyline").count() >= 31);
    assert!(svg.contains("t_enter ≈ 0.472600"));
    assert!(svg.contains("t_exit ≈ 0.742000"));
    // The envelope is max D_i: at t = 0 the boxes are apart, so it is positive there.
    let gaps = sgm.gaps_f64(&q.t_range.0);
    assert!(gaps.iter().copied().fold(f64::NEG_INFINITY, f64::max) > 0.0);
}

use exact_collision::poly::planted::splitmix64 as splitmix;

/// The benchmark's workload: both boxes on degree-1 quaternion curves, centers
/// approaching; plus a few pure translations (many face–face contacts).
fn random_pairs(n: usize, seed: u64) -> Vec<CcdQuery> {
    let mut s = seed;
    let mut r = |lo: i64, hi: i64| lo + (splitmix(&mut s) % ((hi - lo + 1) as u64)) as i64;
    let mut out = Vec::new();
    while out.len() < n {
        let rot = r(0, 3) != 0;
        let mut side = |x0: i64| {
            let e = [r(1, 3), r(1, 3), r(1, 3)];
            let q: Vec<Value> = if rot {
                (0..4).map(|_| json!([r(-4, 4), r(-4, 4)])).collect()
            } else {
                vec![json!(1), json!(0), json!(0), json!(0)]
            };
            json!({"shape":{"type":"box","center":[0,0,0],
                    "half_axes":[[e[0],0,0],[0,e[1],0],[0,0,e[2]]]},
                   "motion":{"quaternion":q,
                    "translation":[[x0, -x0], [r(-2, 2), r(-2, 2)], [r(-2, 2), r(-2, 2)]]}})
        };
        let a = side(-6);
        let b = side(6);
        let q = query(json!({"a":a,"b":b,"tolerance":"1e-12"}));
        if ccd(&q).is_ok() {
            out.push(q);
        }
    }
    out
}

/// The float path against the exact one: same hit/miss and, on hits, t_enter within
/// 1e-6. The measured rate is documented in docs/ccd.md; the floor is below it.
#[test]
fn float_path_agreement_rate() {
    let heavy = std::env::var("EXACT_HEAVY").is_ok_and(|v| v == "1");
    let qs = random_pairs(if heavy { 400 } else { 40 }, 777);
    let mut agree = 0;
    for q in &qs {
        let exact = ccd(q).unwrap();
        let float = exact_collision::ccd::ccd_f64(q).unwrap();
        use exact_collision::ccd::boxes::float::FloatAnswer;
        let ok = match (&exact, float) {
            (CcdAnswer::Miss, FloatAnswer::Miss) => true,
            (CcdAnswer::Hit { t_enter, .. }, FloatAnswer::Hit { t_enter: f, .. }) => {
                (t_enter.f64 - f).abs() <= 1e-6
            }
            _ => false,
        };
        agree += ok as usize;
    }
    let rate = agree as f64 / qs.len() as f64;
    eprintln!("float path agreement: {agree}/{} = {rate:.3}", qs.len());
    assert!(rate >= 0.95, "agreement {rate}");
}

#[test]
fn float_path_translation_hand_checked() {
    // Unit box from x = 5 to x = −5 towards a unit box at the origin: [3/10, 7/10].
    let q = query(json!({"a":{"shape":unit_box([0,0,0])},
        "b":{"shape":unit_box([0,0,0]),"motion":{"quaternion":[1,0,0,0],"translation":[["5","-10"],0,0]}}}));
    let exact_collision::ccd::boxes::float::FloatAnswer::Hit {
        t_enter,
        t_exit,
        start,
    } = exact_collision::ccd::ccd_f64(&q).unwrap()
    else {
        panic!("miss")
    };
    assert!(!start);
    assert!((t_enter - 0.3).abs() < 1e-12 && (t_exit - 0.7).abs() < 1e-12);
}

/// Touching at the start of the range: `kind` "start" and the feature names a
/// plane that vanishes there (the contact is face–face, so several planes do:
/// `degenerate`). Overlapping at the start: no plane vanishes, no feature. By
/// hand: b's face x = −1 moves as x = 1 + (1 − t) or 1 + t², a's face is x = 1.
#[test]
fn touching_at_the_start_names_a_feature() {
    use exact_collision::protocol::answer_line;
    let u = r#"{"type":"box","center":[0,0,0],"half_axes":[[1,0,0],[0,1,0],[0,0,1]]}"#;
    let line = |tx: &str| {
        format!(
            r#"{{"op":"ccd","a":{{"shape":{u}}},"b":{{"shape":{u},"motion":{{"quaternion":[1,0,0,0],"translation":[{tx},0,0]}}}}}}"#
        )
    };
    for (tx, exit_kind) in [("[2,-1]", "end"), ("[2,0,1]", "root")] {
        let v = answer_line(&line(tx), 1).value;
        assert_eq!(v["t_enter"]["kind"], "start", "{v}");
        assert_eq!(v["t_exit"]["kind"], exit_kind, "{v}");
        // Any plane through the touching faces: a's face +x against a vertex of
        // b, b's face −x against a vertex of a, or an edge of each on them.
        let (k, fa, fb) = (
            v["feature"]["kind"].as_str().unwrap(),
            v["feature"]["a"].as_str().unwrap(),
            v["feature"]["b"].as_str().unwrap(),
        );
        let ok = match k {
            "FV" => fa == "face +x" && fb.starts_with("vertex (-"),
            "VF" => fb == "face -x" && fa.starts_with("vertex (+"),
            "EE" => fa.contains("+x") && fb.contains("-x"),
            _ => false,
        };
        assert!(ok, "{v}");
        assert_eq!(v["feature"]["degenerate"], true, "{v}");
    }
    let v = answer_line(&line("[1,1]"), 1).value;
    assert_eq!(v["t_enter"]["kind"], "start", "{v}");
    assert!(v.get("feature").is_none(), "{v}");
    // A single instant (t_range [1, 1]): b at x = 2 + (−1)·1 + … touches a
    // (translation 3 − t at t = 1 is 2: faces x = 1 and x = 1 meet), and the
    // touching feature is named as at any start; at x = 3 (t_range [0, 0])
    // the boxes are apart; at x = 1 they overlap, with no feature.
    let instant = |tx: &str, t: &str| {
        answer_line(
            &line(tx).replace(
                r#""op":"ccd","#,
                &format!(r#""op":"ccd","t_range":[{t},{t}],"#),
            ),
            1,
        )
        .value
    };
    let v = instant("[3,-1]", "1");
    assert_eq!(v["hit"], true, "{v}");
    assert_eq!(v["t_enter"]["kind"], "start", "{v}");
    assert_eq!(v["feature"]["degenerate"], true, "{v}");
    let k = v["feature"]["kind"].as_str().unwrap();
    assert!(["FV", "VF", "EE"].contains(&k), "{v}");
    assert_eq!(instant("[3,-1]", "0")["hit"], false);
    let v = instant("[1,0]", "0");
    assert_eq!(v["hit"], true, "{v}");
    assert!(v.get("feature").is_none(), "{v}");
}

// ---- the float-guided sweep against the exact one -------------------------------

#[path = "../benches/common/rotating.rs"]
#[allow(dead_code)]
mod rotating;

#[test]
fn guided_equals_exact_on_random_rotating_pairs() {
    // Degree-1 quaternion curves for both boxes (the benchmark's workload): every
    // answer certified, the guided answer equal to the exact one, and the guided path
    // actually exercised (it answers most of these).
    let n = if std::env::var("EXACT_HEAVY").is_ok() {
        400
    } else {
        24
    };
    let qs = rotating::random_rotating(n);
    let mut guided = 0;
    for q in &qs {
        check(q);
        guided += usize::from(same_as_exact(q));
    }
    assert!(
        2 * guided >= qs.len(),
        "guided answered {guided} of {}",
        qs.len()
    );
}

/// Touching and grazing by construction: b slides along x with a fixed rational
/// rotation about x (its x-extent stays eb), so its faces meet a's exactly at the
/// rational times where x(t) = ±(ea + eb); with `graze`, its centre also moves along
/// y to touch a's y-face exactly at one instant (an edge–edge or face–face graze).
fn touching(ea: i64, eb: i64, x0: i64, v: i64, rot: [i64; 4], graze: bool) -> Option<CcdQuery> {
    let q = |n: i64| BigRational::from_integer(n.into());
    let ax = |e: i64| {
        let v3 = |x: i64, y: i64, z: i64| Vec3::new(q(x), q(y), q(z));
        Obb::new(v3(0, 0, 0), [v3(e, 0, 0), v3(0, e, 0), v3(0, 0, e)]).ok()
    };
    // Rotation about x only: q = (w, x, 0, 0) keeps the x-axis.
    let qr = [vec![q(rot[0])], vec![q(rot[1])], vec![q(0)], vec![q(0)]];
    let ty = if graze {
        // y(t) = ea + eb + 4(t − 1/2)²: without rotation, b's face touches a's y-face at
        // t = 1/2 only (a graze: t_enter = t_exit), if x(1/2) lets them meet.
        vec![q(ea + eb + 1), q(-4), q(4)]
    } else {
        vec![q(rot[2] % 3)]
    };
    let m = Motion::quaternion(qr, [vec![q(x0), q(v)], ty, vec![q(0)]]).ok()?;
    Some(CcdQuery::new(
        MovingBox::new(ax(ea)?, Motion::Identity),
        MovingBox::new(ax(eb)?, m),
    ))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn guided_equals_exact_touching_and_grazing(
        ea in 1i64..=3, eb in 1i64..=3, x0 in -8i64..=8, v in -16i64..=16,
        rot in [1i64..=3, -2i64..=2, -2i64..=2, 0i64..=1], graze in proptest::bool::ANY,
    ) {
        if let Some(q) = touching(ea, eb, x0, v, rot, graze) {
            if ccd_exact(&q).is_ok() {
                check(&q);
                same_as_exact(&q);
            }
        }
    }

    #[test]
    fn guided_equals_exact_both_rotating(a in boxv(), b in boxv(), ma in rotating(), mb in rotating()) {
        run(ccd_query(a, Some(ma), b, Some(mb)))?;
    }
}

// ---- constructors and limits ---------------------------------------------------------

fn rq(n: i64) -> BigRational {
    BigRational::from_integer(n.into())
}

fn unit() -> Obb<BigRational> {
    let v = |x: i64, y: i64, z: i64| Vec3::new(rq(x), rq(y), rq(z));
    Obb::new(v(0, 0, 0), [v(1, 0, 0), v(0, 1, 0), v(0, 0, 1)]).unwrap()
}

#[test]
fn constructors_build_the_protocols_queries_and_reject_bad_input() {
    // The same query through the constructors and through the protocol: same answer.
    let m = Motion::quaternion(
        [vec![rq(2)], vec![rq(1)], vec![rq(0)], vec![rq(0)]],
        [vec![rq(6), rq(-12)], vec![rq(0)], vec![rq(0)]],
    )
    .unwrap();
    let built = CcdQuery::new(
        MovingBox::new(unit(), Motion::Identity),
        MovingBox::new(unit(), m),
    );
    let parsed = query(json!({"a":{"shape":unit_box([0,0,0])},
        "b":{"shape":unit_box([0,0,0]),"motion":{"quaternion":[2,1,0,0],"translation":[["6","-12"],0,0]}}}));
    assert_eq!(ccd(&built).unwrap(), ccd(&parsed).unwrap());
    assert_eq!(built.t_range, parsed.t_range);
    assert_eq!(built.tolerance, parsed.tolerance);

    let none = || [vec![rq(0)], vec![rq(0)], vec![rq(0)]];
    let e =
        Motion::quaternion([vec![], vec![rq(0)], vec![], vec![rq(0), rq(0)]], none()).unwrap_err();
    assert_eq!(
        (e.field.as_str(), e.defect.as_str()),
        ("quaternion", "the zero quaternion")
    );
    let id_rows = || {
        [
            [vec![rq(1)], vec![], vec![]],
            [vec![], vec![rq(1)], vec![]],
            [vec![], vec![], vec![rq(1)]],
            [vec![], vec![], vec![]],
        ]
    };
    let e = Motion::matrix(id_rows(), vec![rq(0), rq(0)]).unwrap_err();
    assert_eq!(e.field, "denominator");
    assert!(Motion::matrix(id_rows(), vec![rq(2), rq(1)]).is_ok());
    let e = CcdQuery::new(
        MovingBox::new(unit(), Motion::Identity),
        MovingBox::new(unit(), Motion::Identity),
    )
    .with_t_range(rq(1), rq(0))
    .unwrap_err();
    assert_eq!(
        (e.field.as_str(), e.defect.as_str()),
        ("t_range", "start after end")
    );
    let e = CcdQuery::new(
        MovingBox::new(unit(), Motion::Identity),
        MovingBox::new(unit(), Motion::Identity),
    )
    .with_tolerance(rq(0))
    .unwrap_err();
    assert_eq!(e.field, "tolerance");
    let p = |x: i64| Vec3::new(rq(x), rq(0), rq(0));
    let pts = || [p(0), p(1), p(2), p(3)];
    assert!(PointCcd::vertex_face(pts(), pts())
        .with_tolerance(rq(-1))
        .is_err());
    assert_eq!(
        PointCcd::edge_edge(pts(), pts()).tolerance,
        exact_collision::ccd::default_tolerance()
    );
}

#[test]
fn motion_degree_and_coefficient_caps_name_the_limit() {
    let lim = Limits::default();
    // A degree-k quaternion curve has map degree 2k: k = max/2 passes, one more does not.
    let curve = |k: usize| -> [Vec<BigRational>; 4] {
        let mut w = vec![rq(1); k + 1];
        w[0] = rq(3);
        [w, vec![rq(0), rq(1)], vec![rq(0)], vec![rq(0)]]
    };
    let none = || [vec![rq(0)], vec![rq(0)], vec![rq(0)]];
    let k = lim.max_motion_degree / 2;
    assert!(Motion::quaternion(curve(k), none()).is_ok());
    let e = Motion::quaternion(curve(k + 1), none()).unwrap_err();
    assert!(
        e.defect.contains(&format!(
            "motion degree {} exceeds the limit of {}",
            2 * k + 2,
            lim.max_motion_degree
        )),
        "{e}"
    );
    assert!(e.defect.contains("ccd::Limits::max_motion_degree"), "{e}");
    // Built around the constructor, the query is refused by ccd with the same message …
    let over = Motion::Quaternion {
        q: curve(k + 1),
        translation: none(),
    };
    let far = {
        let v = |x: i64| Vec3::new(rq(x), rq(0), rq(0));
        Obb::new(
            v(50),
            [
                Vec3::new(rq(1), rq(0), rq(0)),
                Vec3::new(rq(0), rq(1), rq(0)),
                Vec3::new(rq(0), rq(0), rq(1)),
            ],
        )
        .unwrap()
    };
    let q = CcdQuery::new(
        MovingBox::new(unit(), Motion::Identity),
        MovingBox::new(far, over),
    );
    let err = ccd(&q).unwrap_err().to_string();
    assert!(
        err.contains("b.motion.quaternion") && err.contains("exceeds the limit"),
        "{err}"
    );
    // … and answered when the caller raises the limit.
    let raised = Limits {
        max_motion_degree: 2 * k + 2,
        ..lim
    };
    assert_eq!(ccd_with_limits(&q, &raised).unwrap(), CcdAnswer::Miss);
    // Coefficients: one past the bit limit.
    let big = BigRational::from_integer(num_bigint::BigInt::from(1) << lim.max_coefficient_bits);
    let e =
        Motion::quaternion([vec![big], vec![rq(0)], vec![rq(0)], vec![rq(0)]], none()).unwrap_err();
    assert!(
        e.defect.contains("exceeds the limit") && e.defect.contains("max_coefficient_bits"),
        "{e}"
    );
    // Degree × bits: a degree-k quaternion curve (map degree 2k) whose coefficients are
    // one bit over max_degree_bits / 2k, within the bit limit on their own.
    let d = 2 * k as u64;
    let b = lim.max_degree_bits / d + 1;
    assert!(b <= lim.max_coefficient_bits);
    let with_bits = |bits: u64| {
        let mut c = curve(k);
        c[1][1] = BigRational::from_integer(num_bigint::BigInt::from(1) << (bits - 1));
        c
    };
    let e = Motion::quaternion(with_bits(b), none()).unwrap_err();
    assert!(
        e.defect
            .contains(&format!("motion degree {d} with coefficients of {b} bits"))
            && e.defect.contains("max_degree_bits"),
        "{e}"
    );
    assert!(Motion::quaternion(with_bits(b - 1), none()).is_ok());
}
