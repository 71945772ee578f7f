//! The two frames of a step from mesh files: PLY (`ply-rs-bw`), OBJ
//! and STL (`stl_io`, through [`crate::mesh::stl`]).
//!
//! - PLY: the `vertex` element's `x`, `y`, `z` (float or double, any other
//!   properties ignored) and the `face` element's `vertex_indices` (or
//!   `vertex_index`) lists, triangles only. Vertex and face ids are the file's
//!   order.
//! - OBJ: the `v` and `f` lines (read by hand, see [`read_obj`]); polygons
//!   fan-triangulated. Vertex and face ids are the file's order.
//! - STL: a triangle soup; corners are merged into one vertex when they are at
//!   the same position in both frames (the same bits), so the vertex ids are the
//!   order of first appearance, and face ids the file's order.
//!
//! Both frames must have the same connectivity: the same vertex count, face
//! count and faces (an error names the first difference).

use super::{StepError, StepMesh};
use std::collections::HashMap;
use std::path::Path;

/// A frame as read: positions and faces.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Frame {
    /// Vertex positions (exact doubles; 32-bit floats widened exactly).
    pub positions: Vec<[f64; 3]>,
    /// Triangles, vertex indices.
    pub faces: Vec<[u32; 3]>,
}

fn file_err(path: &Path, e: impl std::fmt::Display) -> StepError {
    StepError::File(format!("{}: {e}", path.display()))
}

/// Which reader a path's extension selects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Ply,
    Obj,
    Stl,
}

fn format_of(path: &Path) -> Result<Format, StepError> {
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    match ext.as_str() {
        "ply" => Ok(Format::Ply),
        "obj" => Ok(Format::Obj),
        "stl" => Ok(Format::Stl),
        _ => Err(file_err(path, "not a .ply, .obj or .stl file")),
    }
}

/// Reads both frames of a step and checks they have the same connectivity.
///
/// ```
/// use exact_collision::ccd::step::read::read_step;
/// let dir = std::env::temp_dir().join(format!("step-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let (a, b) = (dir.join("a.obj"), dir.join("b.obj"));
/// std::fs::write(&a, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n").unwrap();
/// std::fs::write(&b, "v 0 0 1\nv 1 0 1\nv 0 1 1\nf 1 2 3\n").unwrap();
/// let m = read_step(&a, &b).unwrap();
/// assert_eq!((m.t0.len(), m.faces.len(), m.edges.len()), (3, 1, 3));
/// assert_eq!(m.t1[2], [0.0, 1.0, 1.0]);
/// std::fs::write(&b, "v 0 0 1\nv 1 0 1\nv 0 1 1\nv 1 1 1\nf 1 2 3\nf 2 4 3\n").unwrap();
/// assert!(read_step(&a, &b).unwrap_err().to_string().contains("vertex counts"));
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn read_step(a: &Path, b: &Path) -> Result<StepMesh, StepError> {
    let (fa, fb) = (format_of(a)?, format_of(b)?);
    if fa == Format::Stl || fb == Format::Stl {
        if fa != fb {
            return Err(file_err(b, "an STL frame needs an STL partner"));
        }
        let (sa, sb) = (read_stl_soup(a)?, read_stl_soup(b)?);
        if sa.len() != sb.len() {
            return Err(StepError::FaceCount(sa.len(), sb.len()));
        }
        return weld(&sa, &sb);
    }
    let (ra, rb) = (read_frame(a, fa)?, read_frame(b, fb)?);
    if ra.positions.len() != rb.positions.len() {
        return Err(StepError::VertexCount(
            ra.positions.len(),
            rb.positions.len(),
        ));
    }
    if ra.faces.len() != rb.faces.len() {
        return Err(StepError::FaceCount(ra.faces.len(), rb.faces.len()));
    }
    if let Some(i) = ra.faces.iter().zip(&rb.faces).position(|(x, y)| x != y) {
        return Err(StepError::Connectivity(i));
    }
    StepMesh::new(ra.positions, rb.positions, ra.faces)
}

fn read_frame(path: &Path, f: Format) -> Result<Frame, StepError> {
    match f {
        Format::Ply => read_ply(path),
        Format::Obj => read_obj(path),
        Format::Stl => unreachable!("STL frames are welded in pairs"),
    }
}

#[derive(Default)]
struct PlyVertex {
    p: [f64; 3],
    seen: u8,
}

impl ply_rs_bw::ply::PropertyAccess for PlyVertex {
    fn new() -> Self {
        PlyVertex::default()
    }
    fn set_property(&mut self, key: &str, property: ply_rs_bw::ply::Property) {
        use ply_rs_bw::ply::Property;
        let k = match key {
            "x" => 0,
            "y" => 1,
            "z" => 2,
            _ => return,
        };
        // f32 → f64 is exact.
        let v = match property {
            Property::Float(v) => v as f64,
            Property::Double(v) => v,
            _ => f64::NAN,
        };
        self.p[k] = v;
        self.seen |= 1 << k;
    }
}

#[derive(Default)]
struct PlyFace {
    idx: Vec<i64>,
}

impl ply_rs_bw::ply::PropertyAccess for PlyFace {
    fn new() -> Self {
        PlyFace::default()
    }
    fn set_property(&mut self, key: &str, property: ply_rs_bw::ply::Property) {
        use ply_rs_bw::ply::Property;
        if key != "vertex_indices" && key != "vertex_index" {
            return;
        }
        self.idx = match property {
            Property::ListInt(v) => v.into_iter().map(i64::from).collect(),
            Property::ListUInt(v) => v.into_iter().map(i64::from).collect(),
            Property::ListShort(v) => v.into_iter().map(i64::from).collect(),
            Property::ListUShort(v) => v.into_iter().map(i64::from).collect(),
            Property::ListChar(v) => v.into_iter().map(i64::from).collect(),
            Property::ListUChar(v) => v.into_iter().map(i64::from).collect(),
            _ => vec![-1],
        };
    }
}

/// A PLY file's vertices and triangles.
pub fn read_ply(path: &Path) -> Result<Frame, StepError> {
    let file = std::fs::File::open(path).map_err(|e| file_err(path, e))?;
    read_ply_from(&mut std::io::BufReader::new(file), path)
}

/// [`read_ply`] on a reader; `path` only names the file in errors.
pub fn read_ply_from(r: &mut impl std::io::BufRead, path: &Path) -> Result<Frame, StepError> {
    let mut r = r;
    let vp = ply_rs_bw::parser::Parser::<PlyVertex>::new();
    let fp = ply_rs_bw::parser::Parser::<PlyFace>::new();
    let header = vp.read_header(&mut r).map_err(|e| file_err(path, e))?;
    // An element without properties takes no bytes: a binary file of a few
    // bytes could announce 10¹⁶ of them and the parser would build them all
    // (the `step_ply` fuzz target's finding). With a property, each element
    // reads at least one byte, so the work is bounded by the file's size.
    if let Some((name, e)) = header
        .elements
        .iter()
        .find(|(_, e)| e.count > 0 && e.properties.is_empty())
    {
        return Err(file_err(
            path,
            format!("element {name}: {} elements without properties", e.count),
        ));
    }
    let mut out = Frame::default();
    for (name, element) in &header.elements {
        match name.as_str() {
            "vertex" => {
                let vs = vp
                    .read_payload_for_element(&mut r, element, &header)
                    .map_err(|e| file_err(path, e))?;
                out.positions.reserve(vs.len());
                for (i, v) in vs.into_iter().enumerate() {
                    if v.seen != 7 || !v.p.iter().all(|c| c.is_finite()) {
                        return Err(file_err(
                            path,
                            format!(
                                "vertex {i}: x, y, z must be finite float or double properties"
                            ),
                        ));
                    }
                    out.positions.push(v.p);
                }
            }
            "face" => {
                let fs = fp
                    .read_payload_for_element(&mut r, element, &header)
                    .map_err(|e| file_err(path, e))?;
                out.faces.reserve(fs.len());
                for (i, f) in fs.into_iter().enumerate() {
                    let t: Option<[u32; 3]> = (f.idx.len() == 3)
                        .then(|| {
                            let c = |k: usize| u32::try_from(f.idx[k]).ok();
                            Some([c(0)?, c(1)?, c(2)?])
                        })
                        .flatten();
                    let Some(t) = t else {
                        return Err(file_err(
                            path,
                            format!(
                                "face {i}: expected a triangle of non-negative indices, got {:?}",
                                f.idx
                            ),
                        ));
                    };
                    out.faces.push(t);
                }
            }
            other => {
                // Other elements (edges, materials): read past them.
                ply_rs_bw::parser::Parser::<ply_rs_bw::ply::DefaultElement>::new()
                    .read_payload_for_element(&mut r, element, &header)
                    .map_err(|e| file_err(path, format!("element {other}: {e}")))?;
            }
        }
    }
    Ok(out)
}

/// An OBJ file's `v` and `f` lines: vertex ids are the file's order, faces
/// with more than three corners are fan-triangulated, every other line is
/// ignored. Written by hand because `tobj` renumbers vertices in order of first
/// use by the faces, which loses the file's vertex ids: two frames whose face
/// lists differ would then be paired vertex by vertex wrongly without an error.
/// A decimal coordinate means its nearest double (Rust's correctly rounded
/// parse).
pub fn read_obj(path: &Path) -> Result<Frame, StepError> {
    let text = std::fs::read_to_string(path).map_err(|e| file_err(path, e))?;
    read_obj_text(&text, path)
}

/// [`read_obj`] on the file's text; `path` only names the file in errors.
pub fn read_obj_text(text: &str, path: &Path) -> Result<Frame, StepError> {
    let mut out = Frame::default();
    for (ln, line) in text.lines().enumerate() {
        let bad = |what: &str| file_err(path, format!("line {}: {what}", ln + 1));
        let mut it = line.split_whitespace();
        match it.next() {
            Some("v") => {
                let c: Vec<f64> = it
                    .take(3)
                    .map(|x| x.parse::<f64>().map_err(|_| bad("not a number")))
                    .collect::<Result<_, _>>()?;
                if c.len() != 3 || !c.iter().all(|x| x.is_finite()) {
                    return Err(bad("a vertex needs three finite coordinates"));
                }
                out.positions.push([c[0], c[1], c[2]]);
            }
            Some("f") => {
                let n = out.positions.len() as i64;
                let idx: Vec<u32> = it
                    .map(|w| {
                        let first = w.split('/').next().unwrap_or("");
                        let k: i64 = first.parse().map_err(|_| bad("not a vertex index"))?;
                        // 1-based; negative counts back from the last vertex so far.
                        let i = if k > 0 { k - 1 } else { n + k };
                        if k == 0 || !(0..n).contains(&i) {
                            return Err(bad("vertex index out of range"));
                        }
                        u32::try_from(i).map_err(|_| StepError::TooLarge)
                    })
                    .collect::<Result<_, _>>()?;
                if idx.len() < 3 {
                    return Err(bad("a face needs three corners"));
                }
                for k in 1..idx.len() - 1 {
                    out.faces.push([idx[0], idx[k], idx[k + 1]]);
                }
            }
            _ => {}
        }
    }
    Ok(out)
}

fn read_stl_soup(path: &Path) -> Result<Vec<[[f64; 3]; 3]>, StepError> {
    let m = crate::mesh::stl::read_stl(path).map_err(|e| file_err(path, e))?;
    Ok(m.triangles
        .iter()
        .map(|t| t.v.clone().map(|p| [p.x, p.y, p.z]))
        .collect())
}

/// Merges STL corners that are at the same position in both frames.
fn weld(a: &[[[f64; 3]; 3]], b: &[[[f64; 3]; 3]]) -> Result<StepMesh, StepError> {
    let key = |p: &[f64; 3], q: &[f64; 3]| {
        // +0 and −0 are the same point.
        let bits = |x: f64| (x + 0.0).to_bits();
        [p[0], p[1], p[2], q[0], q[1], q[2]].map(bits)
    };
    let mut ids: HashMap<[u64; 6], u32> = HashMap::new();
    let (mut t0, mut t1, mut faces) = (Vec::new(), Vec::new(), Vec::with_capacity(a.len()));
    for (ta, tb) in a.iter().zip(b) {
        let mut f = [0u32; 3];
        for k in 0..3 {
            let id = *ids.entry(key(&ta[k], &tb[k])).or_insert_with(|| {
                t0.push(ta[k]);
                t1.push(tb[k]);
                (t0.len() - 1) as u32
            });
            f[k] = id;
        }
        faces.push(f);
    }
    StepMesh::new(t0, t1, faces)
}
