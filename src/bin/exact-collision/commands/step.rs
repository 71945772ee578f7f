//! `exact-collision step A B`: exact continuous collision for a whole
//! simulation step (docs/step.md).

use exact_collision::ccd::step::{
    answer_timed, broad_phase_min_distance, broad_phase_timed, read::read_step, step_min_distance,
    Collision, PairKind, PhaseTimes, StepMesh,
};
use exact_collision::protocol::time_value;
use exact_collision::stats::CCD_POINTS;
use indicatif::{ProgressBar, ProgressStyle};
use num_rational::BigRational;
use serde_json::{json, Map, Value};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::Instant;

/// Two frames of a mesh (PLY, OBJ or STL, same connectivity); every vertex
/// moves linearly from A (t = 0) to B (t = 1).
#[derive(clap::Args)]
pub struct Args {
    /// The mesh at t = 0.
    a: PathBuf,
    /// The mesh at t = 1 (same vertex count and faces).
    b: PathBuf,
    /// List every colliding pair with its time of impact.
    #[arg(long)]
    all: bool,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// The largest width of a reported time interval (an exact rational).
    #[arg(long, default_value = "1/1000000000000")]
    tolerance: String,
    /// Minimum separation δ ≥ 0 (a number or exact rational): a pair
    /// collides when its distance drops to δ or below (docs/ccd.md).
    #[arg(long, value_name = "DELTA", allow_hyphen_values = true)]
    min_distance: Option<String>,
}

fn pair_value(m: &StepMesh, c: &Collision) -> Value {
    match c.kind {
        PairKind::VertexFace => json!({
            "kind": "vf",
            "vertex": c.a,
            "face": c.b,
            "face_vertices": m.faces[c.b as usize],
        }),
        PairKind::EdgeEdge => json!({
            "kind": "ee",
            "edges": [c.a, c.b],
            "edge_vertices": [m.edges[c.a as usize], m.edges[c.b as usize]],
        }),
    }
}

fn pair_text(m: &StepMesh, c: &Collision) -> String {
    match c.kind {
        PairKind::VertexFace => {
            format!("vertex {} – face {} {:?}", c.a, c.b, m.faces[c.b as usize])
        }
        PairKind::EdgeEdge => format!(
            "edge {} {:?} – edge {} {:?}",
            c.a, m.edges[c.a as usize], c.b, m.edges[c.b as usize]
        ),
    }
}

fn time_text(c: &Collision) -> String {
    let t = &c.toi;
    if t.lo == t.hi {
        format!("t = {} (≈ {})", t.lo, t.f64)
    } else {
        let poly: Vec<String> = t.poly.iter().map(|c| c.to_string()).collect();
        format!(
            "t in ({}, {}) (≈ {}), the root of [{}] (ascending powers) there",
            t.lo,
            t.hi,
            t.f64,
            poly.join(", ")
        )
    }
}

/// The narrow phase's progress bar: on a terminal, for more than 100,000
/// candidates; hidden otherwise.
fn progress(len: u64) -> ProgressBar {
    if len < 100_000 || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new(len);
    pb.set_style(
        ProgressStyle::with_template("{msg:>10} [{bar:40}] {pos}/{len} ({eta})")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    pb.set_message("narrow");
    pb
}

/// Run `exact-collision step …`. Ok(true) on an answer (collision-free or
/// not); an error for unreadable or mismatched meshes.
pub fn run(args: &Args) -> std::io::Result<bool> {
    let invalid = |e: String| std::io::Error::new(std::io::ErrorKind::InvalidInput, e);
    let tolerance: BigRational = exact_collision::protocol::number::parse_exact(&args.tolerance)
        .map_err(|e| invalid(format!("--tolerance: {e}")))?;
    if tolerance <= BigRational::from_integer(0.into()) {
        return Err(invalid("--tolerance: must be positive".into()));
    }
    let delta = match &args.min_distance {
        None => None,
        Some(d) => Some(
            super::ccd_csv::parse_min_distance(d)
                .map_err(|e| invalid(format!("--min-distance: {e}")))?,
        ),
    };
    let delta = delta.filter(|d| *d > BigRational::from_integer(0.into()));
    let start = Instant::now();
    let mesh = read_step(&args.a, &args.b).map_err(|e| invalid(e.to_string()))?;
    let read_ms = start.elapsed().as_secs_f64() * 1e3;
    let (mut broad_times, mut narrow_times) = (PhaseTimes::default(), PhaseTimes::default());
    let start = Instant::now();
    let cands = match &delta {
        Some(d) => broad_phase_min_distance(&mesh, d),
        None => broad_phase_timed(&mesh, &mut broad_times),
    };
    let broad_ms = start.elapsed().as_secs_f64() * 1e3;
    let start = Instant::now();
    let before = CCD_POINTS.get();
    let pb = progress((cands.vf.len() + cands.ee.len()) as u64);
    // A hidden bar still counts (shared atomics and a clock read per call,
    // from every core): none of that when nothing is shown.
    let inc = |n| pb.inc(n);
    let skip = |_| {};
    let progress: &(dyn Fn(u64) + Sync) = if pb.is_hidden() { &skip } else { &inc };
    let ans = match &delta {
        Some(d) => step_min_distance(&mesh, &tolerance, d, progress),
        None => answer_timed(&mesh, &cands, &tolerance, progress, &mut narrow_times),
    }
    .map_err(|e| invalid(e.to_string()))?;
    // Never freed: the process ends after the answer is written, and freeing
    // the collisions' exact times (many small big-integer allocations, made
    // on the pool's threads) would run on this thread alone (~0.25 % of the
    // armadillo-rollers step's instructions); the system reclaims them.
    let ans = std::mem::ManuallyDrop::new(ans);
    pb.finish_and_clear();
    let narrow_ms = start.elapsed().as_secs_f64() * 1e3;
    let after = CCD_POINTS.get();
    let (filter, exact) = (after.0 - before.0, after.1 - before.1);
    let count = |k: PairKind| ans.collisions.iter().filter(|c| c.kind == k).count();
    let (cvf, cee) = (count(PairKind::VertexFace), count(PairKind::EdgeEdge));
    let out = std::io::stdout();
    let mut out = std::io::BufWriter::new(out.lock());
    let r3 = |x: f64| (x * 1000.0).round() / 1000.0;
    if args.json {
        let mut m = Map::new();
        m.insert("collision_free".into(), json!(ans.collision_free()));
        if let Some(e) = ans.earliest() {
            m.insert("toi".into(), time_value(&e.toi));
            m.insert("pair".into(), pair_value(&mesh, e));
        }
        m.insert("vertices".into(), json!(mesh.vertex_count()));
        m.insert("faces".into(), json!(mesh.faces.len()));
        m.insert("edges".into(), json!(mesh.edges.len()));
        m.insert("candidates_vf".into(), json!(ans.candidates_vf));
        m.insert("candidates_ee".into(), json!(ans.candidates_ee));
        m.insert("colliding_vf".into(), json!(cvf));
        m.insert("colliding_ee".into(), json!(cee));
        m.insert("filter_decided".into(), json!(filter));
        m.insert("exact".into(), json!(exact));
        let mut t = Map::new();
        t.insert("read".into(), json!(r3(read_ms)));
        t.insert("broad".into(), json!(r3(broad_ms)));
        t.insert("narrow".into(), json!(r3(narrow_ms)));
        let ms = |d: std::time::Duration| json!(r3(d.as_secs_f64() * 1e3));
        for (phase, times) in [("broad", &broad_times), ("narrow", &narrow_times)] {
            if times.parts.is_empty() {
                continue;
            }
            t.insert(format!("{phase}_serial"), ms(times.serial()));
            let parts: Map<String, Value> = times
                .parts
                .iter()
                .map(|(name, d, _)| (name.to_string(), ms(*d)))
                .collect();
            t.insert(format!("{phase}_parts"), Value::Object(parts));
        }
        m.insert("time_ms".into(), Value::Object(t));
        if args.all {
            let pairs: Vec<Value> = ans
                .collisions
                .iter()
                .map(|c| {
                    let mut p = pair_value(&mesh, c);
                    p["toi"] = time_value(&c.toi);
                    p
                })
                .collect();
            m.insert("pairs".into(), Value::Array(pairs));
        }
        writeln!(out, "{}", Value::Object(m))?;
        out.flush()?;
        return Ok(true);
    }
    writeln!(
        out,
        "{} vertices, {} faces, {} edges (read in {:.1} ms)",
        mesh.vertex_count(),
        mesh.faces.len(),
        mesh.edges.len(),
        read_ms
    )?;
    writeln!(
        out,
        "broad phase: {} vertex-face and {} edge-edge candidates ({:.1} ms)",
        ans.candidates_vf, ans.candidates_ee, broad_ms
    )?;
    writeln!(
        out,
        "narrow phase: {cvf} vertex-face and {cee} edge-edge pairs collide ({narrow_ms:.1} ms; {filter} decided by the float filter, {exact} exactly)"
    )?;
    match ans.earliest() {
        None => writeln!(out, "collision-free")?,
        Some(e) => writeln!(
            out,
            "not collision-free: earliest time of impact {}, {}",
            time_text(e),
            pair_text(&mesh, e)
        )?,
    }
    if args.all {
        for c in &ans.collisions {
            writeln!(out, "{}: {}", pair_text(&mesh, c), time_text(c))?;
        }
    }
    out.flush()?;
    Ok(true)
}
