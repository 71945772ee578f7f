//! `exact-collision mesh A.stl B.stl`: every intersecting triangle pair and the
//! exact minimum distance between two STL meshes, with a summary.

use exact_collision::mesh::stl::read_stl;
use exact_collision::mesh::{intersecting_pairs, min_distance, Bvh, Mesh};
use exact_collision::num::ring::Ring;
use exact_collision::num::scalar::Scalar;
use exact_collision::num::sqrt::sqrt_nearest_f64;
use exact_collision::protocol::number::{exact_string, parse_exact};
use exact_collision::shape::Triangle;
use exact_collision::vector::Vec3;
use indicatif::{ProgressBar, ProgressStyle};
use num_rational::BigRational;
use std::path::PathBuf;
use std::time::Instant;

/// `println!` that passes a write error up (a closed pipe ends the program
/// quietly in `main`, any other write error is reported).
macro_rules! out {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout(), $($t)*).map_err(Fail::Write)?;
    }};
}

/// Why the command stopped: a bad input (printed, status 1) or a failed
/// write of the output (passed up to `main`).
enum Fail {
    Input(String),
    Write(std::io::Error),
}

impl From<String> for Fail {
    fn from(e: String) -> Self {
        Fail::Input(e)
    }
}

/// Two STL meshes: every intersecting triangle pair and the exact minimum
/// distance (as surfaces).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The first mesh (binary or ASCII STL).
    pub a: PathBuf,
    /// The second mesh.
    pub b: PathBuf,
    /// Translate B by x,y,z (exact numbers: "1/3", "0.1" = 1/10), after the rotation.
    #[arg(long, value_name = "X,Y,Z", allow_hyphen_values = true)]
    pub translate: Option<String>,
    /// Rotate B by the quaternion w,x,y,z (exact numbers, need not be unit:
    /// v ↦ q·v·q̄ / |q|², an exact rational rotation).
    #[arg(long, value_name = "W,X,Y,Z", allow_hyphen_values = true)]
    pub rotate: Option<String>,
    /// Print every intersecting pair (default: the first 20).
    #[arg(long)]
    pub all_pairs: bool,
    /// Skip the distance computation.
    #[arg(long)]
    pub no_distance: bool,
}

fn numbers(s: &str, n: usize, what: &str) -> Result<Vec<BigRational>, String> {
    let v: Result<Vec<_>, _> = s.split(',').map(|x| parse_exact(x.trim())).collect();
    let v = v.map_err(|e| format!("--{what}: {e}"))?;
    if v.len() != n {
        return Err(format!("--{what}: expected {n} numbers, got {}", v.len()));
    }
    Ok(v)
}

/// The exact image of `p` under rotation `q` (w, x, y, z) then translation `t`.
fn transform(p: &Vec3<BigRational>, q: &[BigRational], t: &[BigRational]) -> Vec3<BigRational> {
    let (w, x, y, z) = (&q[0], &q[1], &q[2], &q[3]);
    let n2 = w
        .square()
        .add_ref(&x.square())
        .add_ref(&y.square())
        .add_ref(&z.square());
    let two = BigRational::from_i32(2);
    let m = |a: &BigRational, b: &BigRational| a.mul_ref(b).mul_ref(&two);
    let r = [
        [
            w.square()
                .add_ref(&x.square())
                .sub_ref(&y.square())
                .sub_ref(&z.square()),
            m(x, y).sub_ref(&m(w, z)),
            m(x, z).add_ref(&m(w, y)),
        ],
        [
            m(x, y).add_ref(&m(w, z)),
            w.square()
                .sub_ref(&x.square())
                .add_ref(&y.square())
                .sub_ref(&z.square()),
            m(y, z).sub_ref(&m(w, x)),
        ],
        [
            m(x, z).sub_ref(&m(w, y)),
            m(y, z).add_ref(&m(w, x)),
            w.square()
                .sub_ref(&x.square())
                .sub_ref(&y.square())
                .add_ref(&z.square()),
        ],
    ];
    let pv = [&p.x, &p.y, &p.z];
    let c = |i: usize| {
        let s = r[i][0]
            .mul_ref(pv[0])
            .add_ref(&r[i][1].mul_ref(pv[1]))
            .add_ref(&r[i][2].mul_ref(pv[2]));
        s / &n2 + &t[i]
    };
    Vec3::new(c(0), c(1), c(2))
}

fn bar(len: u64, msg: &'static str) -> ProgressBar {
    if len < 20_000 {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new(len);
    pb.set_style(
        ProgressStyle::with_template("{msg:>10} [{bar:40}] {pos}/{len} ({eta})")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    pb.set_message(msg);
    pb
}

/// Run `exact-collision mesh …`: prints the summary on standard output.
/// Returns Ok(true) on success, Ok(false) after printing an error (unreadable
/// file, bad option).
pub fn run(args: &Args) -> std::io::Result<bool> {
    match run_opts(args) {
        Ok(()) => Ok(true),
        Err(Fail::Input(e)) => {
            eprintln!("exact-collision mesh: {e}");
            Ok(false)
        }
        Err(Fail::Write(e)) => Err(e),
    }
}

fn run_opts(o: &Args) -> Result<(), Fail> {
    let t0 = Instant::now();
    let a = read_stl(&o.a).map_err(|e| e.to_string())?;
    let b = read_stl(&o.b).map_err(|e| e.to_string())?;
    out!(
        "read: A {} triangles, B {} triangles ({:.3} s)",
        a.triangles.len(),
        b.triangles.len(),
        t0.elapsed().as_secs_f64()
    );
    if o.translate.is_none() && o.rotate.is_none() {
        return answer(&a, &b, o, t0);
    }
    let zero = || BigRational::from_i32(0);
    let t = match &o.translate {
        Some(s) => numbers(s, 3, "translate")?,
        None => vec![zero(), zero(), zero()],
    };
    let q = match &o.rotate {
        Some(s) => numbers(s, 4, "rotate")?,
        None => vec![BigRational::from_i32(1), zero(), zero(), zero()],
    };
    if q.iter().all(|c| c == &zero()) {
        return Err(Fail::Input(
            "--rotate: the zero quaternion is not a rotation".into(),
        ));
    }
    out!(
        "B is moved exactly: rotation {} then translation {}",
        join(&q),
        join(&t)
    );
    let qa = Mesh::new(
        a.triangles
            .iter()
            .map(|tr| Triangle::new(tr.v.clone().map(|p| p.to_rational())))
            .collect(),
    );
    let qb = Mesh::new(
        b.triangles
            .iter()
            .map(|tr| Triangle::new(tr.v.clone().map(|p| transform(&p.to_rational(), &q, &t))))
            .collect(),
    );
    answer(&qa, &qb, o, t0)
}

fn join(v: &[BigRational]) -> String {
    v.iter().map(exact_string).collect::<Vec<_>>().join(",")
}

fn answer<S: Scalar>(a: &Mesh<S>, b: &Mesh<S>, o: &Args, t0: Instant) -> Result<(), Fail> {
    let t1 = Instant::now();
    let (ba, bb) = (Bvh::new(a), Bvh::new(b));
    out!("bvh: built in {:.3} s", t1.elapsed().as_secs_f64());
    let t2 = Instant::now();
    let pb = bar(a.triangles.len() as u64, "intersect");
    let pairs = intersecting_pairs(a, &ba, b, &bb, &mut || pb.inc(1));
    pb.finish_and_clear();
    out!(
        "intersect: {} intersecting triangle pairs ({:.3} s)",
        pairs.len(),
        t2.elapsed().as_secs_f64()
    );
    let show = if o.all_pairs {
        pairs.len()
    } else {
        pairs.len().min(20)
    };
    for (i, j) in &pairs[..show] {
        out!("  A[{i}] ∩ B[{j}]");
    }
    if show < pairs.len() {
        out!("  … {} more (--all-pairs to list them)", pairs.len() - show);
    }
    if pairs.is_empty() {
        out!("the surfaces do not touch (meshes are answered as surfaces: a mesh nested inside a closed mesh does not touch it)");
    } else {
        out!("the surfaces touch");
    }
    if !o.no_distance {
        let t3 = Instant::now();
        let spinner = if a.triangles.len() + b.triangles.len() >= 20_000 {
            ProgressBar::new_spinner()
        } else {
            ProgressBar::hidden()
        };
        let mut evaluated = 0u64;
        let best = min_distance(a, &ba, b, &bb, &mut || {
            evaluated += 1;
            if evaluated % 256 == 0 {
                spinner.set_message(format!("{evaluated} exact pairs"));
                spinner.tick();
            }
        })
        .map_err(|e| e.to_string())?;
        spinner.finish_and_clear();
        match best {
            None => out!("distance: an empty mesh has no distance"),
            Some((i, j, c)) => {
                let s = exact_string(&c.distance_squared);
                let s = if s.len() > 200 {
                    format!("{}… ({} characters)", &s[..80], s.len())
                } else {
                    s
                };
                out!(
                    "distance: {} (squared, exact: {s})",
                    sqrt_nearest_f64(&c.distance_squared)
                );
                let f = |p: &Vec3<BigRational>| {
                    format!("[{}, {}, {}]", p.x.to_f64(), p.y.to_f64(), p.z.to_f64())
                };
                out!(
                    "closest: A[{i}] at {}, B[{j}] at {} (nearest doubles)",
                    f(&c.a),
                    f(&c.b)
                );
                out!(
                    "distance: {evaluated} exact triangle pairs evaluated ({:.3} s)",
                    t3.elapsed().as_secs_f64()
                );
            }
        }
    }
    out!("time: {:.3} s in all", t0.elapsed().as_secs_f64());
    Ok(())
}
