//! Meshes: STL round trip and errors; mesh-vs-mesh answers against brute force.

use exact_collision::mesh::stl::{parse_stl, to_binary_stl};
use exact_collision::mesh::{intersecting_pairs, min_distance, Bvh, Mesh};
use exact_collision::query::triangle_triangle::distance_exact;
use exact_collision::query::triangle_triangle::intersects;
use exact_collision::{Scalar, Triangle, Vec3};
use num_rational::BigRational;

fn cube(lo: [f64; 3], hi: [f64; 3]) -> Mesh<f64> {
    let p = |i: usize| {
        Vec3::new(
            if i & 1 == 0 { lo[0] } else { hi[0] },
            if i & 2 == 0 { lo[1] } else { hi[1] },
            if i & 4 == 0 { lo[2] } else { hi[2] },
        )
    };
    let quads = [
        [0, 1, 3, 2],
        [4, 6, 7, 5],
        [0, 4, 5, 1],
        [2, 3, 7, 6],
        [0, 2, 6, 4],
        [1, 5, 7, 3],
    ];
    let mut t = Vec::new();
    for q in quads {
        t.push(Triangle::new([p(q[0]), p(q[1]), p(q[2])]));
        t.push(Triangle::new([p(q[0]), p(q[2]), p(q[3])]));
    }
    Mesh::new(t)
}

/// A wavy height-field sheet of 2·n² triangles over [x0, x0 + n]², f32-exact.
fn sheet(n: usize, x0: f32, z0: f32) -> Mesh<f64> {
    let h = |i: usize, j: usize| z0 + ((i * 7 + j * 3) % 5) as f32 * 0.25;
    let p = |i: usize, j: usize| Vec3::new((x0 + i as f32) as f64, j as f64, h(i, j) as f64);
    let mut t = Vec::new();
    for i in 0..n {
        for j in 0..n {
            t.push(Triangle::new([p(i, j), p(i + 1, j), p(i + 1, j + 1)]));
            t.push(Triangle::new([p(i, j), p(i + 1, j + 1), p(i, j + 1)]));
        }
    }
    Mesh::new(t)
}

#[test]
fn stl_binary_round_trip() {
    let m = sheet(6, 0.5, -1.0);
    let bytes = to_binary_stl(&m).unwrap();
    assert_eq!(bytes.len(), 84 + 50 * m.triangles.len());
    assert_eq!(parse_stl(&bytes).unwrap(), m);
}

#[test]
fn stl_ascii_is_read() {
    let text = "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 0.5 0\nendloop\nendfacet\nendsolid t\n";
    let m = parse_stl(text.as_bytes()).unwrap();
    assert_eq!(m.triangles.len(), 1);
    assert_eq!(m.triangles[0].v[2], Vec3::new(0.0, 0.5, 0.0));
}

#[test]
fn stl_truncated_and_corrupt_files_are_errors() {
    let bytes = to_binary_stl(&sheet(2, 0.0, 0.0)).unwrap();
    for cut in [0, 10, 83, 84 + 49, bytes.len() - 1] {
        let e = parse_stl(&bytes[..cut]).unwrap_err();
        assert!(e.0.contains("truncated"), "cut {cut}: {e}");
    }
    let mut extra = bytes.clone();
    extra.extend_from_slice(&[0u8; 7]);
    assert!(parse_stl(&extra).unwrap_err().0.contains("corrupt"));
    // A NaN coordinate.
    let mut nan = bytes.clone();
    nan[84 + 12..84 + 16].copy_from_slice(&f32::NAN.to_le_bytes());
    assert!(parse_stl(&nan).unwrap_err().0.contains("non-finite"));
    // Malformed and truncated ASCII.
    let bad = "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 zero 0\n";
    assert!(parse_stl(bad.as_bytes()).is_err());
    let cut = "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\n";
    assert!(parse_stl(cut.as_bytes()).is_err());
}

fn brute_pairs(a: &Mesh<f64>, b: &Mesh<f64>) -> Vec<(usize, usize)> {
    let mut v = Vec::new();
    for (i, s) in a.triangles.iter().enumerate() {
        for (j, t) in b.triangles.iter().enumerate() {
            if intersects(s, t) {
                v.push((i, j));
            }
        }
    }
    v
}

fn brute_distance(a: &Mesh<f64>, b: &Mesh<f64>) -> BigRational {
    a.triangles
        .iter()
        .flat_map(|s| {
            b.triangles
                .iter()
                .map(move |t| distance_exact(s, t).unwrap().distance_squared)
        })
        .min()
        .unwrap()
}

fn check(a: &Mesh<f64>, b: &Mesh<f64>) -> (Vec<(usize, usize)>, BigRational) {
    let (ba, bb) = (Bvh::new(a), Bvh::new(b));
    let pairs = intersecting_pairs(a, &ba, b, &bb, &mut || {});
    assert_eq!(pairs, brute_pairs(a, b));
    let (i, j, c) = min_distance(a, &ba, b, &bb, &mut || {}).unwrap().unwrap();
    assert_eq!(c.distance_squared, brute_distance(a, b));
    assert_eq!(distance_exact(&a.triangles[i], &b.triangles[j]).unwrap(), c);
    (pairs, c.distance_squared)
}

#[test]
fn sheets_crossing_and_apart_match_brute_force() {
    let (p, d) = check(&sheet(5, 0.0, 0.0), &sheet(5, 2.5, 0.3));
    assert!(!p.is_empty());
    assert_eq!(d, BigRational::from_integer(0.into()));
    // Lifted by 2: the sheets' heights span [z0, z0 + 1], so the gap is 1 − 0.3
    // at most; brute force decides the exact value.
    let (p, d) = check(&sheet(5, 0.0, 0.0), &sheet(5, 2.5, 2.3));
    assert!(p.is_empty());
    assert!(d > BigRational::from_integer(0.into()));
}

/// One ulp: two cubes whose faces are one ulp apart are disjoint at distance
/// one ulp; two that share the face plane exactly touch. The cull never drops
/// the touching pairs.
#[test]
fn one_ulp_gaps_and_touching_faces() {
    let a = cube([0.0; 3], [1.0; 3]);
    let x = 1.0f64.next_up();
    let (p, d) = check(&a, &cube([x, 0.25, 0.25], [2.0, 0.75, 0.75]));
    assert!(p.is_empty());
    let u = (x - 1.0).to_rational();
    assert_eq!(d, &u * &u);
    let (p, d) = check(&a, &cube([1.0, 0.25, 0.25], [2.0, 0.75, 0.75]));
    assert!(!p.is_empty());
    assert!(d == BigRational::from_integer(0.into()));
}

/// A closed cube nested in another: the surfaces do not touch (answered as
/// surfaces), at the gap 0.25 between the faces.
#[test]
fn nested_closed_meshes_do_not_touch() {
    let outer = cube([0.0; 3], [1.0; 3]);
    let inner = cube([0.25; 3], [0.75; 3]);
    let (p, d) = check(&outer, &inner);
    assert!(p.is_empty());
    assert_eq!(d, BigRational::new(1.into(), 16.into()));
}

#[test]
fn cli_runs_on_files() {
    let dir = std::env::temp_dir().join(format!("ec-mesh-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (fa, fb) = (dir.join("a.stl"), dir.join("b.stl"));
    std::fs::write(&fa, to_binary_stl(&cube([0.0; 3], [1.0; 3])).unwrap()).unwrap();
    std::fs::write(&fb, to_binary_stl(&cube([0.0; 3], [1.0; 3])).unwrap()).unwrap();
    let run = |extra: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_exact-collision"))
            .arg("mesh")
            .arg(&fa)
            .arg(&fb)
            .args(extra)
            .output()
            .unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).to_string(),
        )
    };
    // Moved 3/2 along x: a gap of 1/2 between the faces x = 1 and x = 3/2.
    let (ok, text) = run(&["--translate", "3/2,0,0"]);
    assert!(ok);
    assert!(text.contains("exact: 1/4"), "{text}");
    // Rotated a quarter turn about z (q = (1, 0, 0, 1) up to scale): the cube
    // [0,1]³ becomes [-1,0]×[0,1]×[0,1], which shares a face with the original.
    let (ok, text) = run(&["--rotate", "1,0,0,1"]);
    assert!(ok);
    assert!(text.contains("the surfaces touch"), "{text}");
    std::fs::write(&fb, b"not an stl").unwrap();
    assert!(!run(&[]).0);
    std::fs::remove_dir_all(&dir).ok();
}
