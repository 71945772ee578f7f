//! The OBB overlap test as published: the separating-axis test with Eberly's simplified
//! tabulated formulas (D. Eberly, "Dynamic Collision Detection using Oriented
//! Bounding Boxes", Geometric Tools, 1999/2002), in f64 with an ε added to every
//! |c_ij| and the "parallel axes" cut-off `|c_ij| ≥ 1 − ε` that skips the
//! edge×edge axes (and so answers "intersect" when no face axis separates).
//! Orthonormal axes only. The "Overlap criterion for cubes" note that
//! cites the table warns that the simplified edge×edge formulas are not
//! commutative.
//!
//! ```
//! use exact_collision::audit::eberly_obb::{intersect, Box3};
//! let a = Box3 { c: [0.; 3], axes: [[1., 0., 0.], [0., 1., 0.], [0., 0., 1.]], ext: [1.; 3] };
//! let b = Box3 { c: [2.5, 0., 0.], ..a.clone() };
//! assert!(!intersect(&a, &b));
//! ```

/// The ε of the table (GTE's default cut-off).
pub const EPS: f64 = 1e-6;

/// A box: center, orthonormal axes, extents.
#[derive(Clone, Debug)]
pub struct Box3 {
    /// Center.
    pub c: [f64; 3],
    /// Unit axes A0, A1, A2.
    pub axes: [[f64; 3]; 3],
    /// Extents a0, a1, a2.
    pub ext: [f64; 3],
}

fn dot(a: &[f64; 3], b: &[f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// Overlap by the simplified table, as published.
#[allow(clippy::needless_range_loop)] // the table is indexed by (i, j), as in the paper
pub fn intersect(a: &Box3, b: &Box3) -> bool {
    let d = [b.c[0] - a.c[0], b.c[1] - a.c[1], b.c[2] - a.c[2]];
    let mut c = [[0.0; 3]; 3];
    let mut abs_c = [[0.0; 3]; 3];
    let mut parallel = false;
    for i in 0..3 {
        for j in 0..3 {
            c[i][j] = dot(&a.axes[i], &b.axes[j]);
            abs_c[i][j] = c[i][j].abs() + EPS;
            if abs_c[i][j] >= 1.0 {
                parallel = true;
            }
        }
    }
    let ad: [f64; 3] = std::array::from_fn(|i| dot(&a.axes[i], &d));
    for i in 0..3 {
        let r1: f64 = (0..3).map(|j| b.ext[j] * abs_c[i][j]).sum();
        if ad[i].abs() > a.ext[i] + r1 {
            return false;
        }
    }
    for j in 0..3 {
        let r0: f64 = (0..3).map(|i| a.ext[i] * abs_c[i][j]).sum();
        if dot(&b.axes[j], &d).abs() > r0 + b.ext[j] {
            return false;
        }
    }
    if parallel {
        return true;
    }
    for i in 0..3 {
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        for j in 0..3 {
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            let r = (c[i1][j] * ad[i2] - c[i2][j] * ad[i1]).abs();
            let r0 = a.ext[i1] * abs_c[i2][j] + a.ext[i2] * abs_c[i1][j];
            let r1 = b.ext[j1] * abs_c[i][j2] + b.ext[j2] * abs_c[i][j1];
            if r > r0 + r1 {
                return false;
            }
        }
    }
    true
}
