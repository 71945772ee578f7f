//! STL files in and out (binary and ASCII), through the `stl_io` crate, with
//! the checks it leaves to the caller: the binary size must match the triangle
//! count, and every coordinate must be finite.

use super::Mesh;
use crate::shape::Triangle;
use crate::vector::Vec3;
use std::io::Cursor;

/// Why an STL file cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StlError(pub String);

impl std::fmt::Display for StlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl std::error::Error for StlError {}

/// Parse an STL file's bytes (binary or ASCII). The f32 coordinates become
/// doubles exactly.
///
/// ```
/// use exact_collision::mesh::stl::{parse_stl, to_binary_stl};
/// use exact_collision::mesh::Mesh;
/// use exact_collision::{Triangle, Vec3};
/// let m = Mesh::new(vec![Triangle::new([Vec3::new(0., 0., 0.), Vec3::new(1., 0., 0.), Vec3::new(0., 0.5, 0.)])]);
/// let bytes = to_binary_stl(&m).unwrap();
/// assert_eq!(parse_stl(&bytes).unwrap(), m);
/// assert!(parse_stl(&bytes[..bytes.len() - 1]).unwrap_err().0.contains("truncated"));
/// ```
pub fn parse_stl(bytes: &[u8]) -> Result<Mesh<f64>, StlError> {
    let count = (bytes.len() >= 84)
        .then(|| u32::from_le_bytes([bytes[80], bytes[81], bytes[82], bytes[83]]) as u64);
    let binary_size_ok = count.is_some_and(|n| 84 + 50 * n == bytes.len() as u64);
    // Some binary writers start the header with "solid" too: a file that is
    // not plain text is binary whatever its first bytes say.
    let text = bytes
        .iter()
        .all(|&c| matches!(c, b'\t' | b'\n' | b'\r' | 0x0c | b' '..=b'~'));
    let looks_ascii = bytes.starts_with(b"solid") && !binary_size_ok && text;
    if !binary_size_ok && !looks_ascii {
        return Err(StlError(match count {
            None => format!(
                "truncated STL: {} bytes, shorter than the 84-byte binary header",
                bytes.len()
            ),
            Some(n) => format!(
                "truncated or corrupt binary STL{}: the header announces {n} triangles \
                 (84 + 50·{n} = {} bytes) but the file has {} bytes",
                if bytes.starts_with(b"solid") {
                    " (its header starts with \"solid\" but the file is not text)"
                } else {
                    ""
                },
                84 + 50 * n,
                bytes.len()
            ),
        }));
    }
    let raw: Vec<[[f32; 3]; 3]> = if binary_size_ok {
        // Binary: 80-byte header, u32 count, then 50-byte records (normal,
        // three vertices, attribute count), little-endian f32.
        bytes[84..]
            .chunks_exact(50)
            .map(|r| {
                let f = |o: usize| f32::from_le_bytes([r[o], r[o + 1], r[o + 2], r[o + 3]]);
                [0, 1, 2].map(|k| [0, 1, 2].map(|c| f(12 + 12 * k + 4 * c)))
            })
            .collect()
    } else {
        let mut cur = Cursor::new(bytes);
        let reader = stl_io::create_stl_reader(&mut cur)
            .map_err(|e| StlError(format!("corrupt ASCII STL: {e}")))?;
        let mut v = Vec::new();
        for (i, t) in reader.enumerate() {
            let t = t.map_err(|e| StlError(format!("corrupt ASCII STL at facet {i}: {e}")))?;
            v.push(t.vertices.map(|p| p.0));
        }
        v
    };
    let mut tris = Vec::with_capacity(raw.len());
    for (i, t) in raw.iter().enumerate() {
        for (k, p) in t.iter().enumerate() {
            if p.iter().any(|c| !c.is_finite()) {
                return Err(StlError(format!(
                    "corrupt STL: triangle {i}, vertex {k} has a non-finite coordinate {p:?}"
                )));
            }
        }
        tris.push(Triangle::new(
            t.map(|p| Vec3::new(p[0] as f64, p[1] as f64, p[2] as f64)),
        ));
    }
    Ok(Mesh::new(tris))
}

/// Read an STL file.
pub fn read_stl(path: &std::path::Path) -> Result<Mesh<f64>, StlError> {
    let bytes = std::fs::read(path).map_err(|e| StlError(format!("{}: {e}", path.display())))?;
    parse_stl(&bytes).map_err(|e| StlError(format!("{}: {e}", path.display())))
}

/// A binary STL of the mesh; every coordinate must be an f32 exactly (STL
/// stores f32), else an error names the first that is not. Normals are written
/// as zero (readers recompute them).
pub fn to_binary_stl(mesh: &Mesh<f64>) -> Result<Vec<u8>, StlError> {
    let mut tris = Vec::with_capacity(mesh.triangles.len());
    for (i, t) in mesh.triangles.iter().enumerate() {
        let mut vs = [stl_io::Vertex::new([0.0; 3]); 3];
        for (k, p) in t.v.iter().enumerate() {
            let c = [p.x, p.y, p.z];
            let f = c.map(|x| x as f32);
            if (0..3).any(|j| f[j] as f64 != c[j]) {
                return Err(StlError(format!(
                    "triangle {i}, vertex {k}: {c:?} is not exactly an f32"
                )));
            }
            vs[k] = stl_io::Vertex::new(f);
        }
        tris.push(stl_io::Triangle {
            normal: stl_io::Normal::new([0.0; 3]),
            vertices: vs,
        });
    }
    let mut out = Vec::new();
    stl_io::write_stl(&mut out, tris.iter()).map_err(|e| StlError(e.to_string()))?;
    Ok(out)
}
