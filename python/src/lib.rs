//! `exact_collision._native`: the Python extension of the exact-collision crate.
//!
//! Two faces: the JSON Lines protocol (`answer`, `answer_lines`: the library's
//! line entry point, `protocol::answer_bytes`, so the same bytes as the program),
//! and NumPy batch functions over arrays of doubles that call the typed APIs
//! (`query::intersect_exact`, `query::distance_exact`,
//! `query::rounded::distance_exact_f64` for spheres and capsules,
//! `ccd::ccd_vf`/`ccd_ee`) directly. Every batch is read and checked while holding the GIL, answered
//! without it on rayon's threads, and turned back into arrays under the GIL.
//! A defect anywhere raises before anything is returned: no partial answers.
//!
//! The Python-facing docs (with examples) are the docstrings below and the type
//! stubs in `exact_collision/_native.pyi`.

use exact_collision::ccd::{self, PointCcd, PointCcdAnswer, TimeKind};
use exact_collision::num::sqrt::sqrt_nearest_f64;
use exact_collision::protocol::answer_bytes;
use exact_collision::protocol::number::{exact_string, parse_exact};
use exact_collision::query::rounded::{self, RoundedClosest};
use exact_collision::query::{self, Closest, Intersection, QueryError as LibQueryError};
use exact_collision::shape::Rounded;
use exact_collision::{Obb, Scalar, Shape, Triangle, Vec3};
use num_rational::BigRational;
use numpy::ndarray::Array2;
use numpy::{
    PyArray1, PyArray2, PyArrayDyn, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use rayon::prelude::*;
use std::panic::{catch_unwind, AssertUnwindSafe};

pyo3::create_exception!(
    _native,
    QueryError,
    PyValueError,
    "A row of a batch that the library cannot answer (a degenerate box, say); the message names the row and the field."
);

/// A batch of `n` rows of `R` points of 3 doubles, checked: float64 (or float32,
/// widened exactly), shape (n, R, 3), every value finite.
struct Points<const R: usize> {
    rows: Vec<[[f64; 3]; R]>,
}

/// The array `obj` (argument `name`) as rows of `R` points.
fn points<const R: usize>(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Points<R>> {
    points_as::<R>(obj, name, false)
}

/// [`points`]; with `one_per_row` (only for `R` = 1) the array has shape
/// (n, 3), one point per row, and the errors say so.
fn points_as<const R: usize>(
    obj: &Bound<'_, PyAny>,
    name: &str,
    one_per_row: bool,
) -> PyResult<Points<R>> {
    let want = if one_per_row {
        "(n, 3)".to_string()
    } else {
        format!("(n, {R}, 3)")
    };
    let Ok(arr) = obj.cast::<PyUntypedArray>() else {
        let ty = obj
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_else(|_| "?".into());
        return Err(PyTypeError::new_err(format!(
            "{name}: expected a numpy.ndarray of float64 with shape {want}, got {ty} \
             (use numpy.asarray(x, dtype=numpy.float64))"
        )));
    };
    let shape = arr.shape().to_vec();
    let ok = if one_per_row {
        shape.len() == 2 && shape[1] == 3
    } else {
        shape.len() == 3 && shape[1] == R && shape[2] == 3
    };
    if !ok {
        return Err(PyValueError::new_err(format!(
            "{name}: expected shape {want}, got {shape:?}"
        )));
    }
    // Only types whose every value is a double exactly: float64 as is, float32
    // widened (exact). Integers and longer floats are refused, not rounded.
    let flat: Vec<f64> = if let Ok(a) = obj.cast::<PyArrayDyn<f64>>() {
        a.readonly().as_array().iter().copied().collect()
    } else if let Ok(a) = obj.cast::<PyArrayDyn<f32>>() {
        a.readonly().as_array().iter().map(|&x| x as f64).collect()
    } else {
        let dtype = arr.dtype().str().map(|s| s.to_string()).unwrap_or_default();
        return Err(PyTypeError::new_err(format!(
            "{name}: dtype {dtype} is not supported: float64 or float32 only (other types are \
             not converted, since their values need not be doubles exactly)"
        )));
    };
    let n = shape[0];
    let mut rows = Vec::with_capacity(n);
    for i in 0..n {
        let mut row = [[0.0; 3]; R];
        for (j, p) in row.iter_mut().enumerate() {
            for (k, c) in p.iter_mut().enumerate() {
                let x = flat[(i * R + j) * 3 + k];
                if !x.is_finite() {
                    let at = if one_per_row {
                        format!("{i}, {k}")
                    } else {
                        format!("{i}, {j}, {k}")
                    };
                    return Err(PyValueError::new_err(format!(
                        "row {i}: {name}[{at}] is {x} (inputs must be finite)"
                    )));
                }
                *c = x;
            }
        }
        rows.push(row);
    }
    Ok(Points { rows })
}

/// Two batches of the same length.
fn pair<const R: usize>(
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    names: (&str, &str),
) -> PyResult<(Points<R>, Points<R>)> {
    let (a, b) = (points::<R>(a, names.0)?, points::<R>(b, names.1)?);
    if a.rows.len() != b.rows.len() {
        return Err(PyValueError::new_err(format!(
            "{} has {} rows but {} has {}",
            names.0,
            a.rows.len(),
            names.1,
            b.rows.len()
        )));
    }
    Ok((a, b))
}

fn v3(p: &[f64; 3]) -> Vec3<f64> {
    Vec3::new(p[0], p[1], p[2])
}

/// Answer rows `0..n` with `f` on rayon's threads (`threads` of them if given),
/// the GIL released. The first failing row, in row order, is the error.
fn run_rows<T, F>(py: Python<'_>, n: usize, threads: Option<usize>, f: F) -> PyResult<Vec<T>>
where
    T: Send,
    F: Fn(usize) -> Result<T, String> + Sync,
{
    if threads == Some(0) {
        return Err(PyValueError::new_err("threads: must be at least 1"));
    }
    let row = |i: usize| -> Result<T, String> {
        match catch_unwind(AssertUnwindSafe(|| f(i))) {
            Ok(r) => r.map_err(|e| format!("row {i}: {e}")),
            Err(p) => {
                let msg = p
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| p.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                Err(format!(
                    "row {i}: internal error (a bug; please report): {msg}"
                ))
            }
        }
    };
    let results: Result<Vec<Result<T, String>>, String> = py.detach(|| {
        let job = || (0..n).into_par_iter().map(row).collect::<Vec<_>>();
        match threads {
            None => Ok(job()),
            Some(k) => rayon::ThreadPoolBuilder::new()
                .num_threads(k)
                .build()
                .map(|pool| pool.install(job))
                .map_err(|e| e.to_string()),
        }
    });
    let results = results.map_err(PyValueError::new_err)?;
    results
        .into_iter()
        .collect::<Result<Vec<T>, String>>()
        .map_err(QueryError::new_err)
}

fn lib_err(e: LibQueryError) -> String {
    e.to_string()
}

fn triangle(p: &[[f64; 3]; 3]) -> Shape<f64> {
    Shape::Triangle(Triangle::new([v3(&p[0]), v3(&p[1]), v3(&p[2])]))
}

/// A box row `[center, h0, h1, h2]`; `name` is the argument, for errors.
fn obb(p: &[[f64; 3]; 4], name: &str) -> Result<Shape<f64>, String> {
    Obb::new(v3(&p[0]), [v3(&p[1]), v3(&p[2]), v3(&p[3])])
        .map(Shape::Box)
        .map_err(|e| format!("{name}.{e} (rows are [center, h0, h1, h2])"))
}

fn exact3(p: &Vec3<BigRational>) -> (String, String, String) {
    (exact_string(&p.x), exact_string(&p.y), exact_string(&p.z))
}

type Cert = (bool, (String, String, String));

fn intersect_rows<'py>(
    py: Python<'py>,
    n: usize,
    threads: Option<usize>,
    certificates: bool,
    pair: impl Fn(usize) -> Result<(Shape<f64>, Shape<f64>), String> + Sync,
) -> PyResult<Bound<'py, PyAny>> {
    let rows: Vec<Cert> = run_rows(py, n, threads, |i| {
        let (a, b) = pair(i)?;
        Ok(match query::intersect_exact(&a, &b).map_err(lib_err)? {
            Intersection::Overlap { witness } => (true, exact3(&witness)),
            Intersection::Separated { axis } => (false, exact3(&axis)),
        })
    })?;
    let hits = PyArray1::from_vec(py, rows.iter().map(|r| r.0).collect());
    if certificates {
        let certs: Vec<(String, String, String)> = rows.into_iter().map(|r| r.1).collect();
        Ok((hits, certs).into_pyobject(py)?.into_any())
    } else {
        Ok(hits.into_any())
    }
}

/// Whether each pair of triangles intersects (closed sets: touching counts),
/// decided exactly.
///
/// a, b: float64 arrays of shape (n, 3, 3), the vertices of each triangle.
/// certificates: also return, per row, the exact certificate as three strings
/// in lowest terms: a common point (witness) when the row intersects, else a
/// separating axis L (max over one triangle of L·p < min over the other).
/// threads: how many threads (default: rayon's, all cores).
///
/// Returns a bool array of shape (n,), or (hits, certificates).
/// Raises TypeError/ValueError for a wrong dtype, shape, NaN or inf (naming
/// the row and field), QueryError for a row the library cannot answer.
///
/// >>> import numpy as np, exact_collision as ec
/// >>> t = np.array([[[0, 0, 0], [1, 0, 0], [0, 1, 0]]], dtype=float)
/// >>> ec.intersect_triangles(t, t + [0, 0, 1]).tolist()
/// [False]
/// >>> hits, certs = ec.intersect_triangles(t, t + [1, 0, 0], certificates=True)
/// >>> hits.tolist(), certs
/// ([True], [('1', '0', '0')])
#[pyfunction]
#[pyo3(signature = (a, b, *, certificates = false, threads = None))]
fn intersect_triangles<'py>(
    py: Python<'py>,
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    certificates: bool,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyAny>> {
    let (a, b) = pair::<3>(a, b, ("a", "b"))?;
    intersect_rows(py, a.rows.len(), threads, certificates, |i| {
        Ok((triangle(&a.rows[i]), triangle(&b.rows[i])))
    })
}

/// Whether each pair of boxes (parallelepipeds) intersects (closed sets),
/// decided exactly.
///
/// a, b: float64 arrays of shape (n, 4, 3); row i is [center, h0, h1, h2],
/// the box { center + s0·h0 + s1·h1 + s2·h2 : |sk| ≤ 1 } (the half-axes need
/// not be orthogonal; linearly dependent ones raise QueryError).
/// certificates, threads: as for intersect_triangles.
///
/// >>> import numpy as np, exact_collision as ec
/// >>> unit = np.array([[[0, 0, 0], [.5, 0, 0], [0, .5, 0], [0, 0, .5]]])
/// >>> ec.intersect_boxes(unit, unit + [[1, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]]).tolist()
/// [True]
#[pyfunction]
#[pyo3(signature = (a, b, *, certificates = false, threads = None))]
fn intersect_boxes<'py>(
    py: Python<'py>,
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    certificates: bool,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyAny>> {
    let (a, b) = pair::<4>(a, b, ("a", "b"))?;
    intersect_rows(py, a.rows.len(), threads, certificates, |i| {
        Ok((obb(&a.rows[i], "a")?, obb(&b.rows[i], "b")?))
    })
}

struct DistanceRow {
    exact: String,
    d2: f64,
    d: f64,
    a: [f64; 3],
    b: [f64; 3],
}

fn nearest3(p: &Vec3<BigRational>) -> [f64; 3] {
    [
        f64::from_rational(&p.x),
        f64::from_rational(&p.y),
        f64::from_rational(&p.z),
    ]
}

/// One value per row, as a NumPy array of shape (n,).
fn column<'py, T, U: numpy::Element>(
    py: Python<'py>,
    rows: &[T],
    f: impl Fn(&T) -> U,
) -> Bound<'py, PyArray1<U>> {
    PyArray1::from_vec(py, rows.iter().map(f).collect())
}

/// One point per row, as a NumPy array of shape (n, 3).
fn point_column<'py, T>(
    py: Python<'py>,
    rows: &[T],
    f: impl Fn(&T) -> [f64; 3],
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let flat: Vec<f64> = rows.iter().flat_map(f).collect();
    let arr = Array2::from_shape_vec((rows.len(), 3), flat)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(PyArray2::from_owned_array(py, arr))
}

fn distance_rows<'py>(
    py: Python<'py>,
    n: usize,
    threads: Option<usize>,
    pair: impl Fn(usize) -> Result<(Shape<f64>, Shape<f64>), String> + Sync,
) -> PyResult<Bound<'py, PyDict>> {
    let rows: Vec<DistanceRow> = run_rows(py, n, threads, |i| {
        let (a, b) = pair(i)?;
        let Closest {
            distance_squared,
            a,
            b,
        } = query::distance_exact(&a, &b).map_err(lib_err)?;
        Ok(DistanceRow {
            exact: exact_string(&distance_squared),
            d2: f64::from_rational(&distance_squared),
            d: sqrt_nearest_f64(&distance_squared),
            a: nearest3(&a),
            b: nearest3(&b),
        })
    })?;
    let d = PyDict::new(py);
    d.set_item(
        "distance_squared",
        rows.iter().map(|r| r.exact.clone()).collect::<Vec<_>>(),
    )?;
    d.set_item("distance_squared_f64", column(py, &rows, |r| r.d2))?;
    d.set_item("distance_f64", column(py, &rows, |r| r.d))?;
    d.set_item("closest_a", point_column(py, &rows, |r| r.a)?)?;
    d.set_item("closest_b", point_column(py, &rows, |r| r.b)?)?;
    Ok(d)
}

/// The exact squared distance between each pair of triangles, with a closest
/// pair of points.
///
/// a, b: float64 arrays of shape (n, 3, 3). Returns a dict:
/// "distance_squared": list of n exact strings in lowest terms ("p/q");
/// "distance_squared_f64": its nearest doubles; "distance_f64": the double
/// nearest to the exact distance; "closest_a", "closest_b": (n, 3) arrays,
/// the closest points rounded to nearest (exact in the protocol's answer).
/// Intersecting triangles give "0" and a common point.
///
/// >>> import numpy as np, exact_collision as ec
/// >>> t = np.array([[[0, 0, 0], [1, 0, 0], [0, 1, 0]]], dtype=float)
/// >>> d = ec.distance_triangles(t, t + [0, 0, 0.1])
/// >>> from fractions import Fraction   # the double 0.1, squared exactly
/// >>> d["distance_squared"][0] == str(Fraction(0.1) ** 2)
/// True
/// >>> float(d["distance_f64"][0])
/// 0.1
#[pyfunction]
#[pyo3(signature = (a, b, *, threads = None))]
fn distance_triangles<'py>(
    py: Python<'py>,
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    let (a, b) = pair::<3>(a, b, ("a", "b"))?;
    distance_rows(py, a.rows.len(), threads, |i| {
        Ok((triangle(&a.rows[i]), triangle(&b.rows[i])))
    })
}

/// The exact squared distance between each pair of boxes, with a closest pair.
///
/// a, b: float64 arrays of shape (n, 4, 3), rows [center, h0, h1, h2] as for
/// intersect_boxes. Returns the same dict as distance_triangles.
///
/// >>> import numpy as np, exact_collision as ec
/// >>> unit = np.array([[[0, 0, 0], [.5, 0, 0], [0, .5, 0], [0, 0, .5]]])
/// >>> ec.distance_boxes(unit, unit + [[2, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]])["distance_squared"]
/// ['1']
#[pyfunction]
#[pyo3(signature = (a, b, *, threads = None))]
fn distance_boxes<'py>(
    py: Python<'py>,
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    let (a, b) = pair::<4>(a, b, ("a", "b"))?;
    distance_rows(py, a.rows.len(), threads, |i| {
        Ok((obb(&a.rows[i], "a")?, obb(&b.rows[i], "b")?))
    })
}

/// A float64 (or float32) array of shape (n,): radii, finite and ≥ 0.
fn radii(obj: &Bound<'_, PyAny>, name: &str, n: usize) -> PyResult<Vec<f64>> {
    let v: Vec<f64> = if let Ok(a) = obj.cast::<PyArrayDyn<f64>>() {
        let a = a.readonly();
        if a.shape() != [n] {
            return Err(PyValueError::new_err(format!(
                "{name}: expected shape ({n},), got {:?}",
                a.shape()
            )));
        }
        a.as_array().iter().copied().collect()
    } else if let Ok(a) = obj.cast::<PyArrayDyn<f32>>() {
        let a = a.readonly();
        if a.shape() != [n] {
            return Err(PyValueError::new_err(format!(
                "{name}: expected shape ({n},), got {:?}",
                a.shape()
            )));
        }
        a.as_array().iter().map(|&x| x as f64).collect()
    } else {
        return Err(PyTypeError::new_err(format!(
            "{name}: expected a numpy.ndarray of float64 with shape ({n},)"
        )));
    };
    for (i, &r) in v.iter().enumerate() {
        if !r.is_finite() || r < 0.0 {
            return Err(PyValueError::new_err(format!(
                "row {i}: {name}[{i}] is {r} (a radius must be finite and at least 0)"
            )));
        }
    }
    Ok(v)
}

/// Rows of spheres or capsules and their radii, read and checked: the
/// arguments of the sphere and capsule batches.
struct RoundedBatch {
    /// Capsule axes; a sphere's center is both end points.
    a: Points<2>,
    ra: Vec<f64>,
    b: Points<2>,
    rb: Vec<f64>,
    spheres: bool,
}

/// `(n, 3)` centers, as rows of two equal points.
fn centers(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Points<2>> {
    let p = points_as::<1>(obj, name, true)?;
    Ok(Points {
        rows: p.rows.iter().map(|r| [r[0], r[0]]).collect(),
    })
}

impl RoundedBatch {
    fn capsules(
        a: &Bound<'_, PyAny>,
        ra: &Bound<'_, PyAny>,
        b: &Bound<'_, PyAny>,
        rb: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let (a, b) = pair::<2>(a, b, ("a", "b"))?;
        let n = a.rows.len();
        let (ra, rb) = (radii(ra, "ra", n)?, radii(rb, "rb", n)?);
        Ok(RoundedBatch {
            a,
            ra,
            b,
            rb,
            spheres: false,
        })
    }

    fn spheres(
        ca: &Bound<'_, PyAny>,
        ra: &Bound<'_, PyAny>,
        cb: &Bound<'_, PyAny>,
        rb: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let (a, b) = (centers(ca, "ca")?, centers(cb, "cb")?);
        if a.rows.len() != b.rows.len() {
            return Err(PyValueError::new_err(format!(
                "ca has {} rows but cb has {}",
                a.rows.len(),
                b.rows.len()
            )));
        }
        let n = a.rows.len();
        let (ra, rb) = (radii(ra, "ra", n)?, radii(rb, "rb", n)?);
        Ok(RoundedBatch {
            a,
            ra,
            b,
            rb,
            spheres: true,
        })
    }

    fn len(&self) -> usize {
        self.a.rows.len()
    }

    /// Row `i` answered exactly: the library's float-guided core distance
    /// with exact proof (`rounded::distance_exact_f64`, the same answer as
    /// the exact path).
    fn answer(&self, i: usize) -> Result<RoundedClosest, String> {
        let shape = |p: &[[f64; 3]; 2], r: f64| {
            if self.spheres {
                Rounded::sphere(v3(&p[0]), r)
            } else {
                Rounded::capsule(v3(&p[0]), v3(&p[1]), r)
            }
            .map_err(|e| e.to_string())
        };
        let x = shape(&self.a.rows[i], self.ra[i])?;
        let y = shape(&self.b.rows[i], self.rb[i])?;
        rounded::distance_exact_f64(&x, &y).map_err(lib_err)
    }
}

struct RoundedRow {
    intersect: bool,
    q: String,
    r: String,
    d: f64,
    a: [f64; 3],
    b: [f64; 3],
}

/// The distance dict of the sphere and capsule batches.
fn rounded_distance_rows<'py>(
    py: Python<'py>,
    batch: &RoundedBatch,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    let rows: Vec<RoundedRow> = run_rows(py, batch.len(), threads, |i| {
        let c = batch.answer(i)?;
        let d = c.distance();
        Ok(RoundedRow {
            intersect: c.intersects(),
            q: exact_string(d.q()),
            r: exact_string(d.r()),
            d: c.distance_f64(),
            a: nearest3(&c.core.a),
            b: nearest3(&c.core.b),
        })
    })?;
    let d = PyDict::new(py);
    d.set_item("intersect", column(py, &rows, |r| r.intersect))?;
    d.set_item("distance_f64", column(py, &rows, |r| r.d))?;
    d.set_item(
        "distance_sqrt",
        rows.iter().map(|r| r.q.clone()).collect::<Vec<_>>(),
    )?;
    d.set_item(
        "distance_minus",
        rows.iter().map(|r| r.r.clone()).collect::<Vec<_>>(),
    )?;
    d.set_item("core_closest_a", point_column(py, &rows, |r| r.a)?)?;
    d.set_item("core_closest_b", point_column(py, &rows, |r| r.b)?)?;
    Ok(d)
}

/// A row's certificate of `intersect`, as the protocol's answer has it.
enum RoundedCert {
    /// A common point, exact.
    Witness((String, String, String)),
    /// The cores' closest pair, q and R, with q > R².
    Apart {
        core_closest: ((String, String, String), (String, String, String)),
        q: String,
        r: String,
    },
}

/// The intersect answer of the sphere and capsule batches.
fn rounded_intersect_rows<'py>(
    py: Python<'py>,
    batch: &RoundedBatch,
    certificates: bool,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyAny>> {
    let rows: Vec<(bool, Option<RoundedCert>)> = run_rows(py, batch.len(), threads, |i| {
        let c = batch.answer(i)?;
        let hit = c.intersects();
        let cert = certificates.then(|| match c.witness(&batch.ra[i].to_rational()) {
            Some(w) => RoundedCert::Witness(exact3(&w)),
            None => RoundedCert::Apart {
                core_closest: (exact3(&c.core.a), exact3(&c.core.b)),
                q: exact_string(&c.core.distance_squared),
                r: exact_string(&c.radius),
            },
        });
        Ok((hit, cert))
    })?;
    let hits = column(py, &rows, |r| r.0);
    if !certificates {
        return Ok(hits.into_any());
    }
    let certs = rows
        .into_iter()
        .map(|(_, cert)| {
            let d = PyDict::new(py);
            match cert {
                Some(RoundedCert::Witness(w)) => d.set_item("witness", w)?,
                Some(RoundedCert::Apart { core_closest, q, r }) => {
                    d.set_item("core_closest", core_closest)?;
                    d.set_item("core_distance_squared", q)?;
                    d.set_item("radius", r)?;
                }
                None => {}
            }
            Ok(d)
        })
        .collect::<PyResult<Vec<_>>>()?;
    Ok((hits, certs).into_pyobject(py)?.into_any())
}

/// Capsules (segments grown by radii), exactly: whether each pair meets and
/// its distance max(0, √q − R) (q the axes' exact squared distance, R the sum
/// of the radii).
///
/// a, b: float64 arrays of shape (n, 2, 3), the axes' end points (equal end
/// points: a sphere); ra, rb: float64 arrays of shape (n,), the radii
/// (finite, ≥ 0; a negative one raises ValueError naming the row and field).
/// Returns a dict: "intersect" (bool array, q ≤ R² decided exactly);
/// "distance_f64" (the double nearest to the exact distance, decided
/// exactly); "distance_sqrt", "distance_minus" (q and R as exact strings: the
/// distance is max(0, √q − R)); "core_closest_a", "core_closest_b" ((n, 3)
/// arrays, the axes' closest points rounded to nearest).
///
/// >>> import numpy as np, exact_collision as ec
/// >>> a = np.array([[[0, 0, 0], [1, 0, 0]]], dtype=float)
/// >>> d = ec.distance_capsules(a, np.array([0.5]), a + [0, 1, 0], np.array([0.25]))
/// >>> float(d["distance_f64"][0]), bool(d["intersect"][0])
/// (0.25, False)
#[pyfunction]
#[pyo3(signature = (a, ra, b, rb, *, threads = None))]
fn distance_capsules<'py>(
    py: Python<'py>,
    a: &Bound<'py, PyAny>,
    ra: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    rb: &Bound<'py, PyAny>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    rounded_distance_rows(py, &RoundedBatch::capsules(a, ra, b, rb)?, threads)
}

/// Spheres, exactly: distance_capsules with each sphere a capsule of equal
/// end points.
///
/// ca, cb: float64 arrays of shape (n, 3), the centers; ra, rb: (n,) radii.
/// Returns the dict of distance_capsules.
///
/// >>> import numpy as np, exact_collision as ec
/// >>> d = ec.distance_spheres(np.zeros((1, 3)), np.array([1.0]), np.array([[1.0, 1.0, 0.0]]), np.array([0.0]))
/// >>> d["distance_sqrt"], d["distance_minus"], float(d["distance_f64"][0])
/// (['2'], ['1'], 0.41421356237309503)
#[pyfunction]
#[pyo3(signature = (ca, ra, cb, rb, *, threads = None))]
fn distance_spheres<'py>(
    py: Python<'py>,
    ca: &Bound<'py, PyAny>,
    ra: &Bound<'py, PyAny>,
    cb: &Bound<'py, PyAny>,
    rb: &Bound<'py, PyAny>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    rounded_distance_rows(py, &RoundedBatch::spheres(ca, ra, cb, rb)?, threads)
}

/// Whether each pair of capsules meets (closed sets: touching counts),
/// decided exactly: q ≤ R², q the axes' exact squared distance and R the
/// exact sum of the radii.
///
/// a, b: float64 arrays of shape (n, 2, 3), the axes' end points (equal end
/// points: a sphere); ra, rb: (n,) radii (finite, ≥ 0).
/// certificates: also return, per row, the protocol's certificate as a dict
/// of exact strings in lowest terms: {"witness": (x, y, z)}, a point in both
/// capsules, when the row meets; else {"core_closest": (p_a, p_b),
/// "core_distance_squared": q, "radius": R}, the axes' closest pair with
/// q > R², which proves them apart.
/// threads: how many threads (default: rayon's, all cores).
///
/// Returns a bool array of shape (n,), or (hits, certificates).
///
/// >>> import numpy as np, exact_collision as ec
/// >>> a = np.array([[[0, 0, 0], [1, 0, 0]]], dtype=float)
/// >>> r = np.array([0.5])
/// >>> ec.intersect_capsules(a, r, a + [0, 1, 0], r).tolist()   # touching
/// [True]
/// >>> hits, certs = ec.intersect_capsules(a, r, a + [3, 1, 0], np.array([0.25]), certificates=True)
/// >>> hits.tolist(), certs
/// ([False], [{'core_closest': (('1', '0', '0'), ('3', '1', '0')), 'core_distance_squared': '5', 'radius': '3/4'}])
#[pyfunction]
#[pyo3(signature = (a, ra, b, rb, *, certificates = false, threads = None))]
fn intersect_capsules<'py>(
    py: Python<'py>,
    a: &Bound<'py, PyAny>,
    ra: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    rb: &Bound<'py, PyAny>,
    certificates: bool,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyAny>> {
    let batch = RoundedBatch::capsules(a, ra, b, rb)?;
    rounded_intersect_rows(py, &batch, certificates, threads)
}

/// Whether each pair of spheres meets (closed balls: touching counts),
/// decided exactly: |c_a − c_b|² ≤ (r_a + r_b)².
///
/// ca, cb: float64 arrays of shape (n, 3), the centers; ra, rb: (n,) radii
/// (finite, ≥ 0; 0 is a point). certificates, threads: as for
/// intersect_capsules (the cores are the centers).
///
/// >>> import numpy as np, exact_collision as ec
/// >>> c = np.array([[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]])
/// >>> d = np.array([[3.0, 4.0, 0.0], [3.0, 4.0, 0.0]])   # 5 apart
/// >>> ec.intersect_spheres(c, np.array([2.0, 2.0]), d, np.array([3.0, 2.5])).tolist()
/// [True, False]
/// >>> ec.intersect_spheres(c[:1], np.array([1.0]), d[:1], np.array([4.0]), certificates=True)[1]
/// [{'witness': ('3/5', '4/5', '0')}]
#[pyfunction]
#[pyo3(signature = (ca, ra, cb, rb, *, certificates = false, threads = None))]
fn intersect_spheres<'py>(
    py: Python<'py>,
    ca: &Bound<'py, PyAny>,
    ra: &Bound<'py, PyAny>,
    cb: &Bound<'py, PyAny>,
    rb: &Bound<'py, PyAny>,
    certificates: bool,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyAny>> {
    let batch = RoundedBatch::spheres(ca, ra, cb, rb)?;
    rounded_intersect_rows(py, &batch, certificates, threads)
}

/// The largest double ≤ x (`up` false) or the least double ≥ x (`up` true).
fn outward(x: &BigRational, up: bool) -> f64 {
    let f = f64::from_rational(x);
    if !f.is_finite() {
        return f;
    }
    match (up, f.to_rational().cmp(x)) {
        (true, std::cmp::Ordering::Less) => f.next_up(),
        (false, std::cmp::Ordering::Greater) => f.next_down(),
        _ => f,
    }
}

/// `min_distance=`: a float (finite, exact as a double) or an exact string;
/// at least 0.
fn min_distance_value(v: &Bound<'_, PyAny>) -> PyResult<BigRational> {
    let d = match v.extract::<String>() {
        Ok(s) => {
            parse_exact(&s).map_err(|e| PyValueError::new_err(format!("min_distance: {e}")))?
        }
        Err(_) => {
            let f: f64 = v.extract().map_err(|_| {
                PyValueError::new_err("min_distance: expected a float or an exact string")
            })?;
            if !f.is_finite() {
                return Err(PyValueError::new_err("min_distance: must be finite"));
            }
            f.to_rational()
        }
    };
    if d < BigRational::from_integer(0.into()) {
        return Err(PyValueError::new_err("min_distance: must be at least 0"));
    }
    Ok(d)
}

struct TimeRow {
    hit: bool,
    start: bool,
    toi: f64,
    lo: f64,
    hi: f64,
    exact: Option<(String, String)>,
}

/// The keyword arguments of `ccd_vf` / `ccd_ee`.
struct CcdOptions<'a, 'py> {
    exact: bool,
    tolerance: Option<&'a str>,
    threads: Option<usize>,
    min_distance: Option<&'a Bound<'py, PyAny>>,
}

fn ccd_batch<'py>(
    py: Python<'py>,
    t0: &Bound<'py, PyAny>,
    t1: &Bound<'py, PyAny>,
    vf: bool,
    opts: CcdOptions<'_, 'py>,
) -> PyResult<Bound<'py, PyDict>> {
    let CcdOptions {
        exact,
        tolerance,
        threads,
        min_distance,
    } = opts;
    let delta = min_distance.map(min_distance_value).transpose()?;
    let (a, b) = pair::<4>(t0, t1, ("t0", "t1"))?;
    let rat = |r: &[[f64; 3]; 4]| r.map(|p| v3(&p).map(|c| c.to_rational()));
    // The library's default (1e-12), unless given.
    let mut template = PointCcd::vertex_face(rat(&[[0.0; 3]; 4]), rat(&[[0.0; 3]; 4]));
    if let Some(s) = tolerance {
        let t = parse_exact(s).map_err(|e| PyValueError::new_err(format!("tolerance: {e}")))?;
        template = template
            .with_tolerance(t)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
    }
    let tolerance = template.tolerance;
    let rows: Vec<TimeRow> = run_rows(py, a.rows.len(), threads, |i| {
        let q = PointCcd {
            t0: rat(&a.rows[i]),
            t1: rat(&b.rows[i]),
            tolerance: tolerance.clone(),
        };
        let ans = match &delta {
            None if vf => ccd::ccd_vf(&q),
            None => ccd::ccd_ee(&q),
            Some(d) => {
                use exact_collision::ccd::points::{first_contact_min_distance, Kind};
                let k = if vf { Kind::VertexFace } else { Kind::EdgeEdge };
                first_contact_min_distance(k, &q, d)
            }
        };
        Ok(match ans.map_err(lib_err)? {
            PointCcdAnswer::Miss => TimeRow {
                hit: false,
                start: false,
                toi: f64::NAN,
                lo: f64::NAN,
                hi: f64::NAN,
                exact: None,
            },
            PointCcdAnswer::Hit(t) => TimeRow {
                hit: true,
                start: t.kind == TimeKind::Start,
                toi: t.f64,
                lo: outward(&t.lo, false),
                hi: outward(&t.hi, true),
                exact: exact.then(|| (exact_string(&t.lo), exact_string(&t.hi))),
            },
        })
    })?;
    let col = |f: fn(&TimeRow) -> f64| PyArray1::from_vec(py, rows.iter().map(f).collect());
    let d = PyDict::new(py);
    d.set_item(
        "hit",
        PyArray1::from_vec(py, rows.iter().map(|r| r.hit).collect()),
    )?;
    d.set_item(
        "start",
        PyArray1::from_vec(py, rows.iter().map(|r| r.start).collect()),
    )?;
    d.set_item("toi", col(|r| r.toi))?;
    d.set_item("toi_lo", col(|r| r.lo))?;
    d.set_item("toi_hi", col(|r| r.hi))?;
    if exact {
        let (lo, hi): (Vec<Option<String>>, Vec<Option<String>>) = rows
            .iter()
            .map(|r| match &r.exact {
                Some((l, h)) => (Some(l.clone()), Some(h.clone())),
                None => (None, None),
            })
            .unzip();
        d.set_item("toi_lo_exact", lo)?;
        d.set_item("toi_hi_exact", hi)?;
    }
    Ok(d)
}

/// Vertex–face continuous collision, exactly: does the vertex v meet the
/// closed triangle (f0, f1, f2) at some t in [0, 1], every point moving
/// linearly from its t0 position to its t1 position? The first such time.
///
/// t0, t1: float64 arrays of shape (n, 4, 3), rows [v, f0, f1, f2].
/// exact: also return the exact interval ends as strings.
/// tolerance: the largest width of the reported interval, an exact string
/// ("1e-12" by default).
///
/// Returns a dict: "hit" (bool, n), "start" (bool: touching at t = 0),
/// "toi" (the double nearest to the first time; NaN on a miss),
/// "toi_lo", "toi_hi" (doubles rounded outward: toi_lo ≤ time ≤ toi_hi),
/// and with exact=True "toi_lo_exact", "toi_hi_exact" (str or None).
/// min_distance: δ ≥ 0 (a float or an exact string): hit when the distance
/// between the vertex and the triangle drops to δ or below, the time the
/// first such (docs/ccd.md); 0 or None is the plain query.
///
/// >>> import numpy as np, exact_collision as ec
/// >>> tri = [[0, 0, 0], [4, 0, 0], [0, 4, 0]]
/// >>> t0 = np.array([[[1, 1, 1]] + tri], dtype=float)
/// >>> t1 = np.array([[[1, 1, -1]] + tri], dtype=float)
/// >>> r = ec.ccd_vf(t0, t1, exact=True)
/// >>> r["hit"].tolist(), r["toi_lo_exact"], float(r["toi"][0])
/// ([True], ['1/2'], 0.5)
#[pyfunction]
#[pyo3(signature = (t0, t1, *, exact = false, tolerance = None, threads = None, min_distance = None))]
fn ccd_vf<'py>(
    py: Python<'py>,
    t0: &Bound<'py, PyAny>,
    t1: &Bound<'py, PyAny>,
    exact: bool,
    tolerance: Option<&str>,
    threads: Option<usize>,
    min_distance: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let opts = CcdOptions {
        exact,
        tolerance,
        threads,
        min_distance,
    };
    ccd_batch(py, t0, t1, true, opts)
}

/// Edge–edge continuous collision, exactly: do the closed segments a0a1 and
/// b0b1 meet at some t in [0, 1]? Rows [a0, a1, b0, b1]; arguments and
/// result as for ccd_vf.
///
/// >>> import numpy as np, exact_collision as ec
/// >>> t0 = np.array([[[0, 0, 1], [2, 0, 1], [1, -1, 0], [1, 1, 0]]], dtype=float)
/// >>> t1 = t0.copy(); t1[0, :2, 2] = -1     # edge a falls through edge b
/// >>> r = ec.ccd_ee(t0, t1, exact=True)
/// >>> r["hit"].tolist(), r["toi_lo_exact"], r["toi_hi_exact"]
/// ([True], ['1/2'], ['1/2'])
#[pyfunction]
#[pyo3(signature = (t0, t1, *, exact = false, tolerance = None, threads = None, min_distance = None))]
fn ccd_ee<'py>(
    py: Python<'py>,
    t0: &Bound<'py, PyAny>,
    t1: &Bound<'py, PyAny>,
    exact: bool,
    tolerance: Option<&str>,
    threads: Option<usize>,
    min_distance: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let opts = CcdOptions {
        exact,
        tolerance,
        threads,
        min_distance,
    };
    ccd_batch(py, t0, t1, false, opts)
}

/// One protocol line's answer, as the program `exact-collision query` writes
/// it (without the newline). `line_no` is used in errors about malformed lines.
fn answer_one(line: &[u8], line_no: usize) -> String {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let mut out = Vec::with_capacity(256);
    answer_bytes(line, line_no, &mut out);
    out.pop(); // the '\n'
               // The answer is serialized JSON: valid UTF-8.
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Answer one JSON Lines protocol query (see the protocol document): a JSON
/// object in, its answer out, the same text the program `exact-collision
/// query` prints. Never raises on a bad query: the answer is then
/// {"error": ...} naming the field. A trailing newline is ignored.
///
/// >>> import exact_collision as ec
/// >>> ec.answer('{"id":1,"op":"intersect","a":{"type":"triangle","v":[[0,0,0],[1,0,0],[0,1,0]]},'
/// ...           '"b":{"type":"triangle","v":[[0,0,1],[1,0,1],[0,1,1]]}}')
/// '{"id":1,"intersect":false,"separating_axis":["0","0","1"]}'
#[pyfunction]
#[pyo3(signature = (line, line_no = 1))]
fn answer(line: &str, line_no: usize) -> String {
    answer_one(line.as_bytes(), line_no)
}

/// Answer many protocol lines on all cores, in order: one answer per line.
///
/// lines: any iterable of str (or bytes), with or without their trailing
/// newline (as dask.bag.read_text and file iteration give them).
/// first_line: the line number of the first line, used in the errors about
/// malformed lines ({"line": N, ...}).
///
/// >>> import exact_collision as ec
/// >>> import json
/// >>> out = ec.answer_lines(['{"id":1,"op":"frobnicate"}\n', 'not json'], first_line=7)
/// >>> [sorted(json.loads(a)) for a in out]
/// [['error', 'id'], ['error', 'line']]
/// >>> json.loads(out[1])["line"]
/// 8
#[pyfunction]
#[pyo3(signature = (lines, *, first_line = 1, threads = None))]
fn answer_lines(
    py: Python<'_>,
    lines: &Bound<'_, PyAny>,
    first_line: usize,
    threads: Option<usize>,
) -> PyResult<Vec<String>> {
    let mut owned: Vec<Vec<u8>> = Vec::new();
    for (i, item) in lines.try_iter()?.enumerate() {
        let item = item?;
        if let Ok(s) = item.cast::<PyString>() {
            owned.push(s.to_cow()?.as_bytes().to_vec());
        } else if let Ok(b) = item.extract::<Vec<u8>>() {
            owned.push(b);
        } else {
            return Err(PyTypeError::new_err(format!(
                "lines[{i}]: expected str or bytes, got {}",
                item.get_type().name()?
            )));
        }
    }
    run_rows(py, owned.len(), threads, |i| {
        Ok(answer_one(&owned[i], first_line + i))
    })
}

/// The native module: everything is re-exported by `exact_collision`.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("QueryError", m.py().get_type::<QueryError>())?;
    m.add_function(wrap_pyfunction!(answer, m)?)?;
    m.add_function(wrap_pyfunction!(answer_lines, m)?)?;
    m.add_function(wrap_pyfunction!(intersect_triangles, m)?)?;
    m.add_function(wrap_pyfunction!(intersect_boxes, m)?)?;
    m.add_function(wrap_pyfunction!(distance_triangles, m)?)?;
    m.add_function(wrap_pyfunction!(distance_boxes, m)?)?;
    m.add_function(wrap_pyfunction!(distance_capsules, m)?)?;
    m.add_function(wrap_pyfunction!(distance_spheres, m)?)?;
    m.add_function(wrap_pyfunction!(intersect_capsules, m)?)?;
    m.add_function(wrap_pyfunction!(intersect_spheres, m)?)?;
    m.add_function(wrap_pyfunction!(ccd_vf, m)?)?;
    m.add_function(wrap_pyfunction!(ccd_ee, m)?)?;
    Ok(())
}
