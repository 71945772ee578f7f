//! The two frames of a step from mesh files: PLY (`ply-rs-bw`), OBJ
//! and STL (`stl_io`, through [`crate::mesh::stl`]).
//!
//! - PLY: the `vertex` element's `x`, `y`, `z` (float or double, any other
//!   properties ignored) and the `face` element's `vertex_indices` (or
//!   `vertex_index`) lists, triangles only. Vertex and face ids are the file's
//!   order.
//!   The header is always `ply-rs-bw`'s. A binary payload in the plain
//!   layout (fixed-size vertex records, triangle faces) is decoded by hand in
//!   parallel chunks (`read_binary_fast`): `ply-rs-bw` reads element by
//!   element on one thread, which was most of a step's serial time. Any other
//!   payload, and every error, goes through `ply-rs-bw`, and a test checks
//!   that the two readers give the same frame or the same error.
//! - OBJ: the `v` and `f` lines (read by hand, see [`read_obj`]); polygons
//!   fan-triangulated. Vertex and face ids are the file's order.
//! - STL: a triangle soup; corners are merged into one vertex when they are at
//!   the same position in both frames (the same bits), so the vertex ids are the
//!   order of first appearance, and face ids the file's order.
//!
//! Both frames must have the same connectivity: the same vertex count, face
//! count and faces (an error names the first difference).

use super::{StepError, StepMesh};
use ply_rs_bw::ply::{ElementDef, Encoding, Header, PropertyDef, PropertyType, ScalarType};
use rayon::prelude::*;
use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

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
        let (sa, sb) = rayon::join(|| read_stl_soup(a), || read_stl_soup(b));
        let (sa, sb) = (sa?, sb?);
        if sa.len() != sb.len() {
            return Err(StepError::FaceCount(sa.len(), sb.len()));
        }
        return weld(&sa, &sb);
    }
    // Both frames at once (each reader also parses in parallel chunks where
    // it can); A's error, if any, is reported first, as when read in turn.
    let (ra, rb) = rayon::join(|| read_frame(a, fa), || read_frame(b, fb));
    let (ra, rb) = (ra?, rb?);
    if ra.positions.len() != rb.positions.len() {
        return Err(StepError::VertexCount(
            ra.positions.len(),
            rb.positions.len(),
        ));
    }
    if ra.faces.len() != rb.faces.len() {
        return Err(StepError::FaceCount(ra.faces.len(), rb.faces.len()));
    }
    if let Some(i) = ra
        .faces
        .par_iter()
        .zip(&rb.faces)
        .position_first(|(x, y)| x != y)
    {
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
    let bytes = std::fs::read(path).map_err(|e| file_err(path, e))?;
    let mut r = &bytes[..];
    let header = read_header(&mut r, path)?;
    if header.encoding == Encoding::Ascii {
        return read_payload(&mut r, &header, path);
    }
    read_binary_payload(r, &header, path)
}

/// [`read_ply`] on a reader; `path` only names the file in errors.
pub fn read_ply_from(r: &mut impl std::io::BufRead, path: &Path) -> Result<Frame, StepError> {
    let header = read_header(r, path)?;
    if header.encoding == Encoding::Ascii {
        return read_payload(r, &header, path);
    }
    let mut payload = Vec::new();
    r.read_to_end(&mut payload).map_err(|e| file_err(path, e))?;
    read_binary_payload(&payload, &header, path)
}

/// The header, and the check that every element with elements has a property.
fn read_header(r: &mut impl std::io::BufRead, path: &Path) -> Result<Header, StepError> {
    let header = ply_rs_bw::parser::Parser::<PlyVertex>::new()
        .read_header(r)
        .map_err(|e| file_err(path, e))?;
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
    Ok(header)
}

/// A binary payload: [`read_binary_fast`] when it applies, else (and for
/// every file with an error) [`read_payload`], whose answer — frame or error —
/// is the reference; the fast path answers only where it gives the same frame.
fn read_binary_payload(payload: &[u8], header: &Header, path: &Path) -> Result<Frame, StepError> {
    match read_binary_fast(payload, header) {
        Some(frame) => Ok(frame),
        None => read_payload(&mut &payload[..], header, path),
    }
}

/// The payload after the header, element by element through `ply-rs-bw`.
fn read_payload(
    r: &mut impl std::io::BufRead,
    header: &Header,
    path: &Path,
) -> Result<Frame, StepError> {
    let mut r = r;
    let vp = ply_rs_bw::parser::Parser::<PlyVertex>::new();
    let fp = ply_rs_bw::parser::Parser::<PlyFace>::new();
    let mut out = Frame::default();
    for (name, element) in &header.elements {
        match name.as_str() {
            "vertex" => {
                let vs = vp
                    .read_payload_for_element(&mut r, element, header)
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
                    .read_payload_for_element(&mut r, element, header)
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
                    .read_payload_for_element(&mut r, element, header)
                    .map_err(|e| file_err(path, format!("element {other}: {e}")))?;
            }
        }
    }
    Ok(out)
}

/// Bytes of a scalar of type `t`.
fn scalar_size(t: &ScalarType) -> usize {
    match t {
        ScalarType::Char | ScalarType::UChar => 1,
        ScalarType::Short | ScalarType::UShort => 2,
        ScalarType::Int | ScalarType::UInt | ScalarType::Float => 4,
        ScalarType::Double => 8,
    }
}

fn is_int(t: &ScalarType) -> bool {
    !matches!(t, ScalarType::Float | ScalarType::Double)
}

/// The `N` bytes at `o` in `r`, in the file's order. Every caller's offset
/// lies inside a record it has bounds-checked (`o + N` ≤ the record's size).
fn bytes_at<const N: usize>(r: &[u8], o: usize, big: bool) -> [u8; N] {
    let mut b = [0u8; N];
    b.copy_from_slice(&r[o..o + N]);
    if big {
        b.reverse();
    }
    b
}

/// The integer of type `t` (not a float type) at `o`, exactly, as
/// `ply-rs-bw` reads it (signed types sign-extended).
fn int_at(r: &[u8], o: usize, t: &ScalarType, big: bool) -> i64 {
    match t {
        ScalarType::Char => i64::from(r[o] as i8),
        ScalarType::UChar => i64::from(r[o]),
        ScalarType::Short => i64::from(i16::from_le_bytes(bytes_at(r, o, big))),
        ScalarType::UShort => i64::from(u16::from_le_bytes(bytes_at(r, o, big))),
        ScalarType::Int => i64::from(i32::from_le_bytes(bytes_at(r, o, big))),
        ScalarType::UInt => i64::from(u32::from_le_bytes(bytes_at(r, o, big))),
        // Never asked for (callers check `is_int`); a value no check accepts.
        ScalarType::Float | ScalarType::Double => -1,
    }
}

/// The float or double at `o` (f32 → f64 is exact); NaN for an integer
/// type (never asked for).
fn float_at(r: &[u8], o: usize, t: &ScalarType, big: bool) -> f64 {
    match t {
        ScalarType::Float => f64::from(f32::from_le_bytes(bytes_at(r, o, big))),
        ScalarType::Double => f64::from_le_bytes(bytes_at(r, o, big)),
        _ => f64::NAN,
    }
}

/// A binary payload read directly from the bytes, the vertex and face
/// elements in parallel chunks; `None` wherever the layout is not the plain
/// one below or anything is wrong (a short payload, a face that is not a
/// triangle, an index that is negative, a coordinate that is not finite),
/// and the caller then reads the payload with `ply-rs-bw` ([`read_payload`]),
/// which gives the frame or the error.
///
/// Where it answers, the answer is [`read_payload`]'s: elements are read in
/// the header's order at the same byte offsets (the properties of an element
/// in the header's order, each scalar its type's size, each list its count
/// then that many items), values are converted as `ply-rs-bw` and the
/// `PropertyAccess` impls above convert them (f32 widened exactly, integers
/// exactly, list items to u32 only when non-negative), and bytes after the
/// last element are ignored by both.
///
/// - `vertex`: only scalar properties, `x`, `y`, `z` among them as float or
///   double. Every record has the same size, so record i starts at i · size.
/// - `face`: scalar properties and exactly one list, named `vertex_indices`
///   or `vertex_index`, with integer count and items. Records are read at
///   i · size, size as if every count were 3, and every count is checked to
///   be 3: record 0 starts at 0 and, its count being 3, has that size, so
///   record 1 starts at size, and so on (by induction every record is where
///   it is read). If any count is not 3 the answer is `None` (the reference
///   reader then rejects that face).
/// - any other element is skipped: count · size bytes when its properties
///   are scalars, else record by record through the list counts.
fn read_binary_fast(payload: &[u8], header: &Header) -> Option<Frame> {
    let big = match header.encoding {
        Encoding::BinaryLittleEndian => false,
        Encoding::BinaryBigEndian => true,
        Encoding::Ascii => return None,
    };
    let mut rest = payload;
    let mut out = Frame::default();
    for (name, e) in &header.elements {
        let used = match name.as_str() {
            "vertex" => {
                let (ps, used) = fast_vertices(rest, e, big)?;
                out.positions = ps;
                used
            }
            "face" => {
                let (fs, used) = fast_faces(rest, e, big)?;
                out.faces = fs;
                used
            }
            _ => skip_element(rest, e, big)?,
        };
        rest = rest.get(used..)?;
    }
    Some(out)
}

/// The records of `e`, `size` bytes each, at the start of `rest`: the
/// bytes they take (`None` when `rest` is shorter).
fn records<'a>(rest: &'a [u8], e: &ElementDef, size: usize) -> Option<&'a [u8]> {
    rest.get(..e.count.checked_mul(size)?)
}

fn fast_vertices(rest: &[u8], e: &ElementDef, big: bool) -> Option<(Vec<[f64; 3]>, usize)> {
    let mut size = 0;
    let mut xyz = [None, None, None];
    for (k, p) in &e.properties {
        let PropertyType::Scalar(t) = &p.data_type else {
            return None;
        };
        if let Some(i) = ["x", "y", "z"].iter().position(|n| n == k) {
            if is_int(t) {
                return None;
            }
            xyz[i] = Some((size, t.clone()));
        }
        size += scalar_size(t);
    }
    let [Some(x), Some(y), Some(z)] = xyz else {
        return None;
    };
    let bytes = records(rest, e, size)?;
    let ps: Vec<[f64; 3]> = bytes
        .par_chunks_exact(size)
        .map(|r| [&x, &y, &z].map(|(o, t)| float_at(r, *o, t, big)))
        .collect();
    ps.par_iter()
        .all(|p| p.iter().all(|c| c.is_finite()))
        .then_some((ps, bytes.len()))
}

fn fast_faces(rest: &[u8], e: &ElementDef, big: bool) -> Option<(Vec<[u32; 3]>, usize)> {
    let mut size = 0;
    let mut list = None;
    for (k, p) in &e.properties {
        let named = k == "vertex_indices" || k == "vertex_index";
        match &p.data_type {
            PropertyType::Scalar(t) if !named => size += scalar_size(t),
            PropertyType::List(c, t) if named && list.is_none() && is_int(c) && is_int(t) => {
                list = Some((size, c.clone(), t.clone()));
                size += scalar_size(c) + 3 * scalar_size(t);
            }
            _ => return None,
        }
    }
    let (o, c, t) = list?;
    let bytes = records(rest, e, size)?;
    let (first, step) = (o + scalar_size(&c), scalar_size(&t));
    let bad = AtomicBool::new(false);
    let fs: Vec<[u32; 3]> = bytes
        .par_chunks_exact(size)
        .map(|r| {
            let idx = [0, 1, 2].map(|j| u32::try_from(int_at(r, first + j * step, &t, big)).ok());
            match idx {
                [Some(a), Some(b), Some(c3)] if int_at(r, o, &c, big) == 3 => [a, b, c3],
                _ => {
                    bad.store(true, Ordering::Relaxed);
                    [0; 3]
                }
            }
        })
        .collect();
    (!bad.into_inner()).then_some((fs, bytes.len()))
}

/// The bytes the element `e` takes at the start of `rest`, read past as
/// `ply-rs-bw` reads it (`None` when `rest` is shorter or a list count is
/// negative or not an integer: the reference reader's errors).
fn skip_element(rest: &[u8], e: &ElementDef, big: bool) -> Option<usize> {
    let scalar = |p: &PropertyDef| match &p.data_type {
        PropertyType::Scalar(t) => Some(scalar_size(t)),
        PropertyType::List(..) => None,
    };
    if let Some(size) = e.properties.values().map(scalar).sum::<Option<usize>>() {
        return records(rest, e, size).map(<[u8]>::len);
    }
    // Every element takes at least one byte (`read_header` rejected elements
    // without properties), so this loop ends within rest.len() + 1 records.
    let mut at = 0usize;
    for _ in 0..e.count {
        for p in e.properties.values() {
            match &p.data_type {
                PropertyType::Scalar(t) => at += scalar_size(t),
                PropertyType::List(c, t) => {
                    if !is_int(c) {
                        return None;
                    }
                    let n = int_at(rest.get(at..at + scalar_size(c))?, 0, c, big);
                    let n = usize::try_from(n).ok()?;
                    at = at
                        .checked_add(scalar_size(c))?
                        .checked_add(n.checked_mul(scalar_size(t))?)?;
                }
            }
            if at > rest.len() {
                return None;
            }
        }
    }
    Some(at)
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

#[cfg(test)]
mod tests {
    use super::*;

    use super::super::broad::tests::Rng;

    const TYPES: [&str; 8] = [
        "char", "uchar", "short", "ushort", "int", "uint", "float", "double",
    ];

    /// `v` written as the PLY type `ty` (integers wrap, floats round), in
    /// the file's byte order.
    fn put(out: &mut Vec<u8>, ty: &str, v: f64, big: bool) {
        let mut b: Vec<u8> = match ty {
            "char" => (v as i64 as i8).to_le_bytes().to_vec(),
            "uchar" => (v as i64 as u8).to_le_bytes().to_vec(),
            "short" => (v as i64 as i16).to_le_bytes().to_vec(),
            "ushort" => (v as i64 as u16).to_le_bytes().to_vec(),
            "int" => (v as i64 as i32).to_le_bytes().to_vec(),
            "uint" => (v as i64 as u32).to_le_bytes().to_vec(),
            "float" => (v as f32).to_le_bytes().to_vec(),
            _ => v.to_le_bytes().to_vec(),
        };
        if big {
            b.reverse();
        }
        out.extend(b);
    }

    /// A property of the test files: a scalar or a list, and how its values
    /// are drawn.
    enum Prop {
        Scalar(&'static str, &'static str),
        List(&'static str, &'static str, &'static str),
    }

    /// A random binary PLY file: a vertex element (x, y, z among other
    /// properties, of random types, now and then a list among them), a face
    /// element (its index list of random count and item types, mostly
    /// triangles, now and then another property, a quad, a negative index),
    /// now and then an element of another name (with or without lists); the
    /// elements in random order, either byte order; then now and then cut
    /// short, padded, or one byte changed.
    fn random_ply(r: &mut Rng) -> Vec<u8> {
        let big = r.chance(30);
        let pick = |r: &mut Rng, from: &[&'static str]| from[r.below(from.len() as u64) as usize];
        let mut elements: Vec<(&str, usize, Vec<Prop>)> = Vec::new();
        let nv = r.below(12) as usize;
        let mut vprops = Vec::new();
        for name in ["x", "y", "z"] {
            if r.chance(30) {
                vprops.push(Prop::Scalar("nx", pick(r, &TYPES)));
            }
            let ty = if r.chance(5) {
                pick(r, &TYPES)
            } else {
                pick(r, &["float", "double"])
            };
            if !r.chance(2) {
                vprops.push(Prop::Scalar(name, ty));
            }
        }
        if r.chance(5) {
            vprops.push(Prop::List("normals", "uchar", "float"));
        }
        elements.push(("vertex", nv, vprops));
        let nf = r.below(12) as usize;
        let mut fprops = Vec::new();
        if r.chance(20) {
            fprops.push(Prop::Scalar("flags", pick(r, &TYPES)));
        }
        let count_ty = if r.chance(3) {
            pick(r, &["float", "double"])
        } else {
            pick(r, &TYPES[..6])
        };
        let item_ty = if r.chance(5) {
            pick(r, &["float", "double"])
        } else {
            pick(r, &TYPES[..6])
        };
        let list_name = pick(r, &["vertex_indices", "vertex_index"]);
        fprops.push(Prop::List(list_name, count_ty, item_ty));
        if r.chance(5) {
            fprops.push(Prop::List("texcoord", "uchar", "float"));
        }
        if r.chance(15) {
            fprops.push(Prop::Scalar("material", pick(r, &TYPES)));
        }
        elements.push(("face", nf, fprops));
        if r.chance(30) {
            let mut props = vec![Prop::Scalar("a", pick(r, &TYPES))];
            if r.chance(50) {
                props.push(Prop::List("b", pick(r, &TYPES[..6]), pick(r, &TYPES)));
            }
            elements.push(("edge", r.below(5) as usize, props));
        }
        let k = r.below(elements.len() as u64) as usize;
        elements.swap(0, k);
        let mut text = format!(
            "ply\nformat binary_{}_endian 1.0\n",
            if big { "big" } else { "little" }
        );
        let mut body = Vec::new();
        for (name, count, props) in &elements {
            text += &format!("element {name} {count}\n");
            for p in props {
                text += &match p {
                    Prop::Scalar(n, t) => format!("property {t} {n}\n"),
                    Prop::List(n, c, t) => format!("property list {c} {t} {n}\n"),
                };
            }
            for _ in 0..*count {
                for p in props {
                    match p {
                        Prop::Scalar(_, t) => {
                            let v = match r.below(20) {
                                0 => f64::NAN,
                                1 => f64::INFINITY,
                                _ => (r.below(2001) as f64 - 1000.0) / 8.0,
                            };
                            put(&mut body, t, v, big);
                        }
                        Prop::List(_, c, t) => {
                            let n = match r.below(30) {
                                0 => 4,
                                1 => 0,
                                2 => -1,
                                _ => 3,
                            };
                            put(&mut body, c, n as f64, big);
                            for _ in 0..n.max(0) {
                                let i = if r.chance(3) {
                                    -(r.below(3) as f64) - 1.0
                                } else {
                                    r.below(nv.max(1) as u64 + 2) as f64
                                };
                                put(&mut body, t, i, big);
                            }
                        }
                    }
                }
            }
        }
        text += "end_header\n";
        let mut bytes = text.into_bytes();
        let header_len = bytes.len();
        bytes.extend(body);
        match r.below(10) {
            0 if bytes.len() > header_len => {
                let cut = header_len + r.below((bytes.len() - header_len) as u64) as usize;
                bytes.truncate(cut);
            }
            1 => bytes.extend([7u8; 5]),
            2 if bytes.len() > header_len => {
                let at = header_len + r.below((bytes.len() - header_len) as u64) as usize;
                bytes[at] ^= 1 << r.below(8);
            }
            _ => {}
        }
        bytes
    }

    /// The reference: the header, then the whole payload through `ply-rs-bw`.
    fn reference(bytes: &[u8]) -> Result<Frame, StepError> {
        let path = Path::new("t.ply");
        let mut r = bytes;
        let header = read_header(&mut r, path)?;
        read_payload(&mut r, &header, path)
    }

    /// On random binary files (good and bad, both byte orders, elements in
    /// any order, properties of every type), the reader with its fast path
    /// gives what `ply-rs-bw` alone gives: the same frame, or the same error.
    /// The fast path must also have answered for most of the good files.
    #[test]
    fn the_fast_binary_reader_answers_as_ply_rs() {
        let mut r = Rng(25);
        let (mut ok, mut fast) = (0, 0);
        for _ in 0..4000 {
            let bytes = random_ply(&mut r);
            let want = reference(&bytes);
            let got = read_ply_from(&mut &bytes[..], Path::new("t.ply"));
            assert_eq!(got, want, "file {:?}", String::from_utf8_lossy(&bytes));
            let mut h = &bytes[..];
            let header = read_header(&mut h, Path::new("t.ply"));
            if let (Ok(frame), Ok(header)) = (&want, header) {
                ok += 1;
                if let Some(f) = read_binary_fast(h, &header) {
                    assert_eq!(&f, frame);
                    fast += 1;
                }
            }
        }
        assert!(ok > 400, "{ok} good files");
        // Good files the fast path declines: a list among the vertex
        // properties, a second list in the faces, a vertex element without
        // x, y or z and no vertices (each a few percent of the files).
        assert!(fast * 4 > ok * 3, "fast path on {fast} of {ok} good files");
    }

    /// A face with four corners: the fast path declines (its records would
    /// not be where it reads them) and the reference names the face.
    #[test]
    fn a_quad_falls_back_to_the_reference_error() {
        let mut bytes = b"ply\nformat binary_little_endian 1.0\nelement vertex 4\nproperty float x\nproperty float y\nproperty float z\nelement face 2\nproperty list uchar int vertex_indices\nend_header\n".to_vec();
        for i in 0..12 {
            bytes.extend((i as f32).to_le_bytes());
        }
        bytes.push(3);
        for i in [0i32, 1, 2] {
            bytes.extend(i.to_le_bytes());
        }
        bytes.push(4);
        for i in [0i32, 1, 2, 3] {
            bytes.extend(i.to_le_bytes());
        }
        let mut h = &bytes[..];
        let header = read_header(&mut h, Path::new("q.ply")).unwrap();
        assert_eq!(read_binary_fast(h, &header), None);
        let err = read_ply_from(&mut &bytes[..], Path::new("q.ply")).unwrap_err();
        assert!(
            err.to_string().contains("face 1: expected a triangle"),
            "{err}"
        );
        // The first face alone: a frame of 4 vertices and one triangle, from
        // the fast path.
        let mut b = b"ply\nformat binary_little_endian 1.0\nelement vertex 4\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n".to_vec();
        for i in 0..12 {
            b.extend((i as f32).to_le_bytes());
        }
        b.push(3);
        for i in [0i32, 1, 2] {
            b.extend(i.to_le_bytes());
        }
        let mut h = &b[..];
        let header = read_header(&mut h, Path::new("q.ply")).unwrap();
        let want = Frame {
            positions: vec![
                [0.0, 1.0, 2.0],
                [3.0, 4.0, 5.0],
                [6.0, 7.0, 8.0],
                [9.0, 10.0, 11.0],
            ],
            faces: vec![[0, 1, 2]],
        };
        assert_eq!(read_binary_fast(h, &header), Some(want.clone()));
        assert_eq!(read_ply_from(&mut &b[..], Path::new("q.ply")), Ok(want));
    }
}
