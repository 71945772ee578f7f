//! JSON → typed queries. Every error names the JSON path and the defect.

pub use super::error::ParseError;
use super::fields;
use crate::ccd::{CcdQuery, Motion, MovingBox, PointCcd, PolyCoeffs};
use crate::num::scalar::Scalar;
use crate::protocol::number::{kind, read_number};
use crate::shape::{Cube, Obb, Prism, Rotation, Rounded, Shape, ShapeError, Triangle};
use crate::vector::{Vec2, Vec3};
use num_rational::BigRational;
use num_traits::{One, Zero};
use serde_json::{Map, Value};

/// Which number type answers a query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScalarKind {
    /// Big rationals (the default).
    Exact,
    /// Inputs rounded to f64; decisions exact, constructions rounded.
    F64,
    /// Inputs rounded to f32; decisions exact, constructions rounded.
    F32,
}

/// A parsed query.
#[derive(Clone, Debug)]
pub struct Query {
    /// The `id` to echo, if any.
    pub id: Option<Value>,
    /// The `scalar` field.
    pub scalar: ScalarKind,
    /// What to answer.
    pub op: Op,
    /// The other engine's answer to judge, if any.
    pub claim: Option<Map<String, Value>>,
    /// The optional `category` (echoed; `verify` groups its summary by it).
    pub category: Option<String>,
    /// The optional free-form `meta` value (echoed, otherwise ignored).
    pub meta: Option<Value>,
}

/// The operations of the protocol.
#[derive(Clone, Debug)]
pub enum Op {
    /// Do the shapes share a point?
    Intersect {
        /// Shape a.
        a: Shape<BigRational>,
        /// Shape b.
        b: Shape<BigRational>,
    },
    /// Exact squared distance and closest points.
    Distance {
        /// Shape a.
        a: Shape<BigRational>,
        /// Shape b.
        b: Shape<BigRational>,
    },
    /// `intersect` of two shapes of which one at least is rounded (a sphere,
    /// a capsule, or a shape with a `radius`); the other one has radius 0.
    IntersectRounded {
        /// Shape a.
        a: Rounded<BigRational>,
        /// Shape b.
        b: Rounded<BigRational>,
    },
    /// `distance` of two shapes of which one at least is rounded.
    DistanceRounded {
        /// Shape a.
        a: Rounded<BigRational>,
        /// Shape b.
        b: Rounded<BigRational>,
    },
    /// Penetration depth, normals and contact region (apart: the distance).
    Contact {
        /// Shape a.
        a: Shape<BigRational>,
        /// Shape b.
        b: Shape<BigRational>,
    },
    /// `contact` of two shapes of which one at least is rounded.
    ContactRounded {
        /// Shape a.
        a: Rounded<BigRational>,
        /// Shape b.
        b: Rounded<BigRational>,
    },
    /// Continuous collision of two boxes.
    Ccd(CcdQuery),
    /// Vertex–face continuous collision under linear motion.
    CcdVf(PointCcd),
    /// Edge–edge continuous collision under linear motion.
    CcdEe(PointCcd),
    /// `ccd_vf` (`vf`) or `ccd_ee` with `min_distance` δ > 0: the first time
    /// the distance is at most δ.
    CcdMinDistance {
        /// `ccd_vf` if true, else `ccd_ee`.
        vf: bool,
        /// The points and tolerance.
        q: PointCcd,
        /// δ > 0, exact (never rounded: it is not geometry).
        min_distance: BigRational,
    },
}

fn err<T>(path: &str, defect: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError {
        path: path.to_string(),
        defect: defect.into(),
    })
}

fn join(path: &str, field: &str) -> String {
    if path.is_empty() {
        field.to_string()
    } else if field.starts_with('[') {
        format!("{path}{field}")
    } else {
        format!("{path}.{field}")
    }
}

fn shape_err(path: &str, e: ShapeError) -> ParseError {
    ParseError {
        path: join(path, &e.field),
        defect: e.defect,
    }
}

fn get<'a>(obj: &'a Map<String, Value>, path: &str, field: &str) -> Result<&'a Value, ParseError> {
    obj.get(field).ok_or_else(|| ParseError {
        path: join(path, field),
        defect: "missing".into(),
    })
}

thread_local! {
    /// The type every input number is rounded to while a query is parsed
    /// (`"scalar"`: inputs rounded to that type, decisions exact).
    static ROUND: std::cell::Cell<ScalarKind> = const { std::cell::Cell::new(ScalarKind::Exact) };
}

/// Sets [`ROUND`] for the life of the guard.
struct RoundGuard(ScalarKind);

impl RoundGuard {
    fn set(kind: ScalarKind) -> Self {
        RoundGuard(ROUND.with(|r| r.replace(kind)))
    }
}

impl Drop for RoundGuard {
    fn drop(&mut self) {
        ROUND.with(|r| r.set(self.0));
    }
}

impl ScalarKind {
    /// The nearest value of this type to `x` (ties to even) as an exact
    /// rational, or `None` where it is not finite. `Exact` is the identity.
    pub fn round(self, x: &BigRational) -> Option<BigRational> {
        match self {
            ScalarKind::Exact => Some(x.clone()),
            ScalarKind::F64 => {
                let f = f64::from_rational(x);
                f.is_finite().then(|| f.to_rational())
            }
            ScalarKind::F32 => {
                let f = f32::from_rational(x);
                f.is_finite().then(|| f.to_rational())
            }
        }
    }

    /// The name used in the protocol.
    pub fn name(self) -> &'static str {
        match self {
            ScalarKind::Exact => "exact",
            ScalarKind::F64 => "f64",
            ScalarKind::F32 => "f32",
        }
    }
}

/// An input number: exact, then rounded to the query's scalar type.
fn number(v: &Value, path: &str) -> Result<BigRational, ParseError> {
    let x = number_exact(v, path)?;
    let kind = ROUND.with(|r| r.get());
    kind.round(&x).ok_or_else(|| ParseError {
        path: path.into(),
        defect: format!(
            "{} is not finite as {} (inputs are rounded to the query's scalar type)",
            match crate::num::scalar::rational_to_f64(&x) {
                f if f.is_finite() => format!("{f:e}"),
                _ => "a value beyond the double range".to_string(),
            },
            kind.name()
        ),
    })
}

/// An input number, never rounded (tolerances are not geometry).
fn number_exact(v: &Value, path: &str) -> Result<BigRational, ParseError> {
    read_number(v).map_err(|d| ParseError {
        path: path.into(),
        defect: d,
    })
}

fn array<'a>(v: &'a Value, path: &str, n: usize, what: &str) -> Result<&'a [Value], ParseError> {
    match v {
        Value::Array(a) if a.len() == n => Ok(a),
        Value::Array(a) => err(path, format!("expected {n} {what}, got {}", a.len())),
        other => err(
            path,
            format!("expected an array of {n} {what}, got {}", kind(other)),
        ),
    }
}

fn point3(v: &Value, path: &str) -> Result<Vec3<BigRational>, ParseError> {
    let a = array(v, path, 3, "numbers")?;
    Ok(Vec3::new(
        number(&a[0], &join(path, "[0]"))?,
        number(&a[1], &join(path, "[1]"))?,
        number(&a[2], &join(path, "[2]"))?,
    ))
}

fn points3<const N: usize>(
    v: &Value,
    path: &str,
    what: &str,
) -> Result<[Vec3<BigRational>; N], ParseError> {
    let a = array(v, path, N, what)?;
    let pts: Vec<Vec3<BigRational>> = a
        .iter()
        .enumerate()
        .map(|(i, p)| point3(p, &join(path, &format!("[{i}]"))))
        .collect::<Result<_, _>>()?;
    Ok(pts.try_into().expect("length checked"))
}

fn object<'a>(v: &'a Value, path: &str) -> Result<&'a Map<String, Value>, ParseError> {
    match v {
        Value::Object(o) => Ok(o),
        other => err(path, format!("expected an object, got {}", kind(other))),
    }
}

/// Parse a SHAPE object at `path`.
pub fn parse_shape(v: &Value, path: &str) -> Result<Shape<BigRational>, ParseError> {
    let o = object(v, path)?;
    let ty = match get(o, path, "type")? {
        Value::String(s) => s.as_str(),
        other => {
            return err(
                &join(path, "type"),
                format!("expected a string, got {}", kind(other)),
            )
        }
    };
    match ty {
        "triangle" => {
            fields::check(o, path, fields::TRIANGLE, fields::SHAPE_ALL, "a triangle")?;
            let t = Triangle::new(points3(get(o, path, "v")?, &join(path, "v"), "vertices")?);
            if o.contains_key("rotation") || o.contains_key("translation") {
                let (r, tr) = pose(o, path)?;
                return t
                    .posed(&r, &tr)
                    .map(Shape::Triangle)
                    .map_err(|e| shape_err(path, e));
            }
            Ok(Shape::Triangle(t))
        }
        "box" => {
            fields::check(o, path, fields::BOX, fields::SHAPE_ALL, "a box")?;
            Ok(Shape::Box(parse_box(o, path)?))
        }
        "prism" => {
            fields::check(o, path, fields::PRISM, fields::SHAPE_ALL, "a prism")?;
            let bp = join(path, "base");
            let base = array(get(o, path, "base")?, &bp, 4, "vertices")?;
            let mut pts = Vec::with_capacity(4);
            for (i, p) in base.iter().enumerate() {
                let pp = join(&bp, &format!("[{i}]"));
                let xy = array(p, &pp, 2, "numbers")?;
                pts.push(Vec2::new(
                    number(&xy[0], &join(&pp, "[0]"))?,
                    number(&xy[1], &join(&pp, "[1]"))?,
                ));
            }
            let zp = join(path, "z");
            let z = array(get(o, path, "z")?, &zp, 2, "numbers (zmin, zmax)")?;
            let (zmin, zmax) = (
                number(&z[0], &join(&zp, "[0]"))?,
                number(&z[1], &join(&zp, "[1]"))?,
            );
            Prism::new(pts.try_into().expect("length checked"), zmin, zmax)
                .map(Shape::Prism)
                .map_err(|e| shape_err(path, e))
        }
        "cube" => {
            fields::check(o, path, fields::CUBE, fields::SHAPE_ALL, "a cube")?;
            let vs = points3::<8>(
                get(o, path, "vertices")?,
                &join(path, "vertices"),
                "vertices",
            )?;
            Cube::new(vs)
                .map(Shape::Cube)
                .map_err(|e| shape_err(path, e))
        }
        other => err(
            &join(path, "type"),
            format!(
                "unknown shape type {other:?} (expected triangle, box, prism, cube, sphere, capsule or convex)"
            ),
        ),
    }
}

/// A shape of an `intersect` or `distance` query: a polytope shape as
/// [`parse_shape`] reads it, or a rounded one (a `sphere`, a `capsule`, or a
/// triangle, box, prism or cube with a `radius`).
#[derive(Clone, Debug)]
pub enum Body {
    /// A shape without a radius.
    Plain(Shape<BigRational>),
    /// A shape grown by a ball.
    Rounded(Rounded<BigRational>),
}

impl Body {
    fn rounded(self) -> Rounded<BigRational> {
        match self {
            Body::Rounded(r) => r,
            Body::Plain(s) => Rounded::new(s, BigRational::zero()).expect("radius 0"),
        }
    }
}

/// Parse a SHAPE object at `path` that may be rounded ([`Body`]). Lines
/// without a rounded shape read exactly as [`parse_shape`] reads them.
pub fn parse_body(v: &Value, path: &str) -> Result<Body, ParseError> {
    let o = object(v, path)?;
    let radius = |o: &Map<String, Value>| -> Result<BigRational, ParseError> {
        number(get(o, path, "radius")?, &join(path, "radius"))
    };
    match o.get("type").and_then(Value::as_str) {
        Some("sphere") => {
            fields::check(o, path, fields::SPHERE, fields::SHAPE_ALL, "a sphere")?;
            let c = point3(get(o, path, "center")?, &join(path, "center"))?;
            Rounded::sphere(c, radius(o)?)
                .map(Body::Rounded)
                .map_err(|e| shape_err(path, e))
        }
        Some("capsule") => {
            fields::check(o, path, fields::CAPSULE, fields::SHAPE_ALL, "a capsule")?;
            let a = point3(get(o, path, "a")?, &join(path, "a"))?;
            let b = point3(get(o, path, "b")?, &join(path, "b"))?;
            Rounded::capsule(a, b, radius(o)?)
                .map(Body::Rounded)
                .map_err(|e| shape_err(path, e))
        }
        Some("convex") => {
            fields::check(o, path, fields::CONVEX, fields::SHAPE_ALL, "a convex hull")?;
            let pp = join(path, "points");
            let pts = match get(o, path, "points")? {
                Value::Array(a) if a.is_empty() => return err(&pp, "no points"),
                Value::Array(a) if a.len() > crate::shape::MAX_CONVEX_POINTS => {
                    return err(
                        &pp,
                        format!(
                            "{} points (at most {})",
                            a.len(),
                            crate::shape::MAX_CONVEX_POINTS
                        ),
                    )
                }
                Value::Array(a) => a
                    .iter()
                    .enumerate()
                    .map(|(i, p)| point3(p, &join(&pp, &format!("[{i}]"))))
                    .collect::<Result<Vec<_>, _>>()?,
                other => {
                    return err(
                        &pp,
                        format!("expected an array of points, got {}", kind(other)),
                    )
                }
            };
            let r = match o.get("radius") {
                None => BigRational::zero(),
                Some(_) => radius(o)?,
            };
            Rounded::convex_rational(&pts, r)
                .map(Body::Rounded)
                .map_err(|e| shape_err(path, e))
        }
        Some("triangle" | "box" | "prism" | "cube") if o.contains_key("radius") => {
            let r = radius(o)?;
            let mut core = o.clone();
            core.remove("radius");
            let shape = parse_shape(&Value::Object(core), path)?;
            Rounded::new(shape, r)
                .map(Body::Rounded)
                .map_err(|e| shape_err(path, e))
        }
        _ => parse_shape(v, path).map(Body::Plain),
    }
}

/// A pose's `rotation` (default: the identity) and `translation` (default: 0).
fn pose(o: &Map<String, Value>, path: &str) -> Result<(Rotation, Vec3<BigRational>), ParseError> {
    let rotation = match o.get("rotation") {
        None => Rotation::identity(),
        Some(r) => parse_rotation(r, &join(path, "rotation"))?,
    };
    let translation = match o.get("translation") {
        None => Vec3::new(
            BigRational::zero(),
            BigRational::zero(),
            BigRational::zero(),
        ),
        Some(t) => point3(t, &join(path, "translation"))?,
    };
    Ok((rotation, translation))
}

/// A ROT object: `{"quaternion":[w,x,y,z]}` or `{"matrix":[[…],[…],[…]]}`
/// (rows, column-vector convention).
fn parse_rotation(v: &Value, path: &str) -> Result<Rotation, ParseError> {
    let o = object(v, path)?;
    fields::check(o, path, fields::ROTATION, fields::ROTATION, "a rotation")?;
    match (o.get("quaternion"), o.get("matrix")) {
        (Some(q), None) => {
            let qp = join(path, "quaternion");
            let a = array(q, &qp, 4, "numbers (w, x, y, z)")?;
            let mut c = Vec::with_capacity(4);
            for (i, x) in a.iter().enumerate() {
                c.push(number(x, &join(&qp, &format!("[{i}]")))?);
            }
            if c.iter().all(Zero::is_zero) {
                return err(
                    &qp,
                    "all components zero (a rotation needs a nonzero quaternion)",
                );
            }
            Ok(Rotation::Quaternion(c.try_into().expect("four")))
        }
        (None, Some(m)) => {
            let mp = join(path, "matrix");
            let rows = array(m, &mp, 3, "rows")?;
            let mut out = Vec::with_capacity(3);
            for (i, r) in rows.iter().enumerate() {
                let rp = join(&mp, &format!("[{i}]"));
                let e = array(r, &rp, 3, "numbers")?;
                let mut row = Vec::with_capacity(3);
                for (j, x) in e.iter().enumerate() {
                    row.push(number(x, &join(&rp, &format!("[{j}]")))?);
                }
                let row: [BigRational; 3] = row.try_into().expect("three");
                out.push(row);
            }
            Ok(Rotation::Matrix(out.try_into().expect("three")))
        }
        (Some(_), Some(_)) => err(path, "give either quaternion or matrix, not both"),
        (None, None) => err(
            path,
            "expected {\"quaternion\":[w,x,y,z]} or {\"matrix\":[[…],[…],[…]]}",
        ),
    }
}

/// The three box forms, for errors.
const BOX_FORMS: &str =
    "a box is center + half_axes, center + axes + half_extents, or half_extents + rotation + translation";

fn parse_box(o: &Map<String, Value>, path: &str) -> Result<Obb<BigRational>, ParseError> {
    let has = |k: &str| o.contains_key(k);
    let forbid = |form: &str, ks: &[&str]| -> Result<(), ParseError> {
        match ks.iter().find(|k| has(k)) {
            Some(k) => err(
                &join(path, k),
                format!("not allowed with {form} ({BOX_FORMS})"),
            ),
            None => Ok(()),
        }
    };
    if has("half_axes") {
        forbid(
            "half_axes",
            &["axes", "half_extents", "rotation", "translation"],
        )?;
    } else if has("axes") {
        forbid("axes", &["rotation", "translation"])?;
    } else if has("rotation") || has("translation") {
        forbid(
            "rotation and translation (the center is translation)",
            &["center"],
        )?;
        if !has("half_extents") {
            return err(
                &join(path, "half_extents"),
                "missing (a box by pose is half_extents + rotation + translation)",
            );
        }
    } else if has("half_extents") && !has("center") {
        // The pose form with the identity rotation and no translation.
    } else if has("half_extents") {
        return err(
            &join(path, "axes"),
            format!("missing (center + half_extents needs axes; {BOX_FORMS})"),
        );
    } else {
        return err(&join(path, "half_axes"), format!("missing ({BOX_FORMS})"));
    }
    if !has("half_axes") && !has("axes") {
        // The pose form.
        let hp = join(path, "half_extents");
        let he = array(get(o, path, "half_extents")?, &hp, 3, "numbers")?;
        let mut ext = Vec::with_capacity(3);
        for (i, e) in he.iter().enumerate() {
            ext.push(number(e, &join(&hp, &format!("[{i}]")))?);
        }
        let (r, tr) = pose(o, path)?;
        return Obb::from_pose(ext.try_into().expect("three"), &r, tr)
            .map_err(|e| shape_err(path, e));
    }
    let center = point3(get(o, path, "center")?, &join(path, "center"))?;
    let mut extents: Option<(Vec<Vec3<BigRational>>, Vec<BigRational>)> = None;
    let half_axes: [Vec3<BigRational>; 3] = match o.get("half_axes") {
        Some(h) => points3(h, &join(path, "half_axes"), "vectors")?,
        None => {
            let ax = get(o, path, "axes")?;
            let axes: [Vec3<BigRational>; 3] = points3(ax, &join(path, "axes"), "vectors")?;
            let hp = join(path, "half_extents");
            let he = match o.get("half_extents") {
                Some(he) => array(he, &hp, 3, "numbers")?,
                None => return err(&hp, "missing (axes needs half_extents)"),
            };
            let mut out = Vec::with_capacity(3);
            for (i, (a, e)) in axes.iter().zip(he).enumerate() {
                let ep = join(&hp, &format!("[{i}]"));
                let e = number(e, &ep)?;
                if e < BigRational::zero() {
                    return err(&ep, "negative half-extent");
                }
                out.push(a.scale(&e));
                let x = extents.get_or_insert_with(|| (axes.to_vec(), Vec::new()));
                x.1.push(e);
            }
            out.try_into().expect("three")
        }
    };
    Obb::new(center, half_axes).map_err(|mut e| {
        // Given as axes + half_extents: name the fields the input has.
        if let Some((axes, ext)) = &extents {
            let zero = |v: &Vec3<BigRational>| v.x.is_zero() && v.y.is_zero() && v.z.is_zero();
            if e.field == "half_axes" {
                e.field = "axes".into();
            } else if let Some(i) = (0..3).find(|&i| e.field == format!("half_axes[{i}]")) {
                if ext[i].is_zero() {
                    e.field = format!("half_extents[{i}]");
                    e.defect = "zero half-extent (the box has no volume; degenerate boxes are not supported)".into();
                } else if zero(&axes[i]) {
                    e.field = format!("axes[{i}]");
                    e.defect = "zero axis (the box has no volume; degenerate boxes are not supported)".into();
                }
            }
        }
        shape_err(path, e)
    })
}

fn parse_box_like(v: &Value, path: &str) -> Result<Obb<BigRational>, ParseError> {
    match parse_shape(v, path)? {
        Shape::Box(b) => Ok(b),
        Shape::Cube(c) => Ok(c.obb().clone()),
        other => err(
            &join(path, "type"),
            format!("ccd takes a box (or cube), got {}", other.kind()),
        ),
    }
}

/// Parse a polynomial P: a list of coefficients (ascending powers) or a bare constant.
pub fn parse_poly(v: &Value, path: &str) -> Result<PolyCoeffs, ParseError> {
    match v {
        Value::Array(cs) => {
            if cs.is_empty() {
                return err(path, "empty polynomial (write 0 for zero)");
            }
            cs.iter()
                .enumerate()
                .map(|(i, c)| number(c, &join(path, &format!("[{i}]"))))
                .collect()
        }
        other => Ok(vec![number(other, path)?]),
    }
}

/// Parse a MOTION object.
pub fn parse_motion(v: &Value, path: &str) -> Result<Motion, ParseError> {
    let o = object(v, path)?;
    fields::check(o, path, fields::MOTION, fields::MOTION, "a motion")?;
    if o.contains_key("matrix") && o.contains_key("translation") {
        return err(
            &join(path, "translation"),
            "not allowed with matrix (a matrix motion's translation is its last row)",
        );
    }
    if o.contains_key("quaternion") && o.contains_key("denominator") {
        return err(
            &join(path, "denominator"),
            "not allowed with quaternion (a quaternion motion's denominator is |q|²)",
        );
    }
    match (o.get("matrix"), o.get("quaternion")) {
        (Some(_), Some(_)) => err(path, "give either matrix or quaternion, not both"),
        (Some(m), None) => {
            let mp = join(path, "matrix");
            let denominator = match o.get("denominator") {
                Some(d) => parse_poly(d, &join(path, "denominator"))?,
                None => vec![BigRational::one()],
            };
            let rows_v = array(m, &mp, 4, "rows")?;
            let mut rows: Vec<[PolyCoeffs; 3]> = Vec::new();
            for (i, r) in rows_v.iter().enumerate() {
                let rp = join(&mp, &format!("[{i}]"));
                let entries = match r {
                    Value::Array(a) if a.len() == 3 || a.len() == 4 => a,
                    Value::Array(a) => {
                        return err(&rp, format!("expected 3 or 4 entries, got {}", a.len()))
                    }
                    other => return err(&rp, format!("expected an array, got {}", kind(other))),
                };
                let p: Vec<PolyCoeffs> = entries
                    .iter()
                    .enumerate()
                    .map(|(j, e)| parse_poly(e, &join(&rp, &format!("[{j}]"))))
                    .collect::<Result<_, _>>()?;
                if p.len() == 4 {
                    let want = if i == 3 {
                        denominator.clone()
                    } else {
                        vec![BigRational::zero()]
                    };
                    if trim(&p[3]) != trim(&want) {
                        return err(
                            &join(&rp, "[3]"),
                            if i == 3 {
                                "the fourth column must be (0, 0, 0, denominator)"
                            } else {
                                "the fourth column must be (0, 0, 0, denominator): expected 0"
                            },
                        );
                    }
                }
                rows.push([p[0].clone(), p[1].clone(), p[2].clone()]);
            }
            if trim(&denominator).is_empty() {
                return err(&join(path, "denominator"), "the zero polynomial");
            }
            Ok(Motion::Matrix {
                rows: rows.try_into().expect("four rows"),
                denominator,
            })
        }
        (None, Some(q)) => {
            let qp = join(path, "quaternion");
            let qa = array(q, &qp, 4, "polynomials (w, x, y, z)")?;
            let qs: Vec<PolyCoeffs> = qa
                .iter()
                .enumerate()
                .map(|(i, e)| parse_poly(e, &join(&qp, &format!("[{i}]"))))
                .collect::<Result<_, _>>()?;
            let translation: Vec<PolyCoeffs> = match o.get("translation") {
                Some(t) => {
                    let tp = join(path, "translation");
                    array(t, &tp, 3, "polynomials")?
                        .iter()
                        .enumerate()
                        .map(|(i, e)| parse_poly(e, &join(&tp, &format!("[{i}]"))))
                        .collect::<Result<_, _>>()?
                }
                None => vec![vec![BigRational::zero()]; 3],
            };
            if qs.iter().all(|p| trim(p).is_empty()) {
                return err(&qp, "the zero quaternion");
            }
            Ok(Motion::Quaternion {
                q: qs.try_into().expect("four"),
                translation: translation.try_into().expect("three"),
            })
        }
        (None, None) => err(path, "expected a matrix or a quaternion motion"),
    }
}

/// The coefficients without trailing zeros.
pub fn trim(p: &[BigRational]) -> &[BigRational] {
    let n = p.iter().rposition(|c| !c.is_zero()).map_or(0, |i| i + 1);
    &p[..n]
}

fn parse_tolerance(o: &Map<String, Value>) -> Result<BigRational, ParseError> {
    match o.get("tolerance") {
        None => Ok(BigRational::new(
            1.into(),
            num_traits::pow(num_bigint::BigInt::from(10), 12),
        )),
        Some(t) => {
            let t = number_exact(t, "tolerance")?;
            if t <= BigRational::zero() {
                return err("tolerance", "must be positive");
            }
            Ok(t)
        }
    }
}

/// `min_distance` of a `ccd_vf` / `ccd_ee` query: exact, at least 0.
fn min_distance(o: &Map<String, Value>) -> Result<Option<BigRational>, ParseError> {
    let Some(v) = o.get("min_distance") else {
        return Ok(None);
    };
    let d = number_exact(v, "min_distance")?;
    if d < BigRational::zero() {
        return err("min_distance", "must be at least 0");
    }
    Ok(Some(d))
}

fn parse_moving(v: &Value, path: &str) -> Result<MovingBox, ParseError> {
    let o = object(v, path)?;
    fields::check(o, path, fields::MOVING, fields::MOVING, "a moving box")?;
    let shape = parse_box_like(get(o, path, "shape")?, &join(path, "shape"))?;
    let motion = match o.get("motion") {
        None | Some(Value::Null) => Motion::Identity,
        Some(m) => parse_motion(m, &join(path, "motion"))?,
    };
    Ok(MovingBox { shape, motion })
}

/// Parse one query object (already read as JSON).
pub fn parse_query(v: &Value) -> Result<Query, ParseError> {
    let o = object(v, "")?;
    // Fields first (a misspelt `op` is named before "op: missing").
    let (own, what) = match o.get("op").and_then(Value::as_str) {
        Some("intersect") => (fields::QUERY_STATIC, "an intersect query"),
        Some("distance") => (fields::QUERY_STATIC, "a distance query"),
        Some("contact") => (fields::QUERY_STATIC, "a contact query"),
        Some("ccd") => (fields::QUERY_CCD, "a ccd query"),
        Some("ccd_vf") => (fields::QUERY_POINTS, "a ccd_vf query"),
        Some("ccd_ee") => (fields::QUERY_POINTS, "a ccd_ee query"),
        _ => (fields::QUERY_OPS, "a query"),
    };
    let all = fields::query_fields(fields::QUERY_OPS);
    fields::check(o, "", &fields::query_fields(own), &all, what)?;
    let category = match o.get("category") {
        None => None,
        Some(Value::String(c)) => Some(c.clone()),
        Some(other) => {
            return err(
                "category",
                format!("expected a string, got {}", kind(other)),
            )
        }
    };
    let scalar = match o.get("scalar") {
        None => ScalarKind::Exact,
        Some(Value::String(s)) if s == "exact" => ScalarKind::Exact,
        Some(Value::String(s)) if s == "f64" => ScalarKind::F64,
        Some(Value::String(s)) if s == "f32" => ScalarKind::F32,
        Some(other) => {
            return err(
                "scalar",
                format!("expected \"exact\", \"f64\" or \"f32\", got {other}"),
            )
        }
    };
    let _round = RoundGuard::set(scalar);
    let claim = match o.get("claim") {
        None => None,
        Some(Value::Object(c)) => {
            fields::check(c, "claim", fields::CLAIM, fields::CLAIM, "a claim")?;
            // The claim's objects in the answer's own form.
            for (k, v) in c {
                let (own, what): (&[&str], &str) = match k.as_str() {
                    "t_enter" | "t_exit" | "toi" => (fields::CLAIM_TIME, "a time"),
                    "feature" => (fields::CLAIM_FEATURE, "a feature"),
                    "contact" => (fields::CLAIM_CONTACT, "a contact set"),
                    _ => continue,
                };
                if let Value::Object(x) = v {
                    fields::check(x, &join("claim", k), own, own, what)?;
                }
            }
            Some(c.clone())
        }
        Some(other) => return err("claim", format!("expected an object, got {}", kind(other))),
    };
    let op_name = match get(o, "", "op")? {
        Value::String(s) => s.as_str(),
        other => return err("op", format!("expected a string, got {}", kind(other))),
    };
    let op = match op_name {
        "intersect" | "distance" => {
            let a = parse_body(get(o, "", "a")?, "a")?;
            let b = parse_body(get(o, "", "b")?, "b")?;
            match (a, b, op_name == "intersect") {
                (Body::Plain(a), Body::Plain(b), true) => Op::Intersect { a, b },
                (Body::Plain(a), Body::Plain(b), false) => Op::Distance { a, b },
                (a, b, true) => Op::IntersectRounded {
                    a: a.rounded(),
                    b: b.rounded(),
                },
                (a, b, false) => Op::DistanceRounded {
                    a: a.rounded(),
                    b: b.rounded(),
                },
            }
        }
        "contact" => match (
            parse_body(get(o, "", "a")?, "a")?,
            parse_body(get(o, "", "b")?, "b")?,
        ) {
            (Body::Plain(a), Body::Plain(b)) => Op::Contact { a, b },
            (a, b) => Op::ContactRounded {
                a: a.rounded(),
                b: b.rounded(),
            },
        },
        "ccd" => {
            let a = parse_moving(get(o, "", "a")?, "a")?;
            let b = parse_moving(get(o, "", "b")?, "b")?;
            let t_range = match o.get("t_range") {
                None => (BigRational::zero(), BigRational::one()),
                Some(t) => {
                    let ta = array(t, "t_range", 2, "numbers")?;
                    let r = (number(&ta[0], "t_range[0]")?, number(&ta[1], "t_range[1]")?);
                    if r.0 > r.1 {
                        return err("t_range", "start after end");
                    }
                    r
                }
            };
            Op::Ccd(CcdQuery {
                a,
                b,
                t_range,
                tolerance: parse_tolerance(o)?,
            })
        }
        "ccd_vf" | "ccd_ee" => {
            let what = if op_name == "ccd_vf" {
                "points (v, f0, f1, f2)"
            } else {
                "points (a0, a1, b0, b1)"
            };
            let p = PointCcd {
                t0: points3(get(o, "", "t0")?, "t0", what)?,
                t1: points3(get(o, "", "t1")?, "t1", what)?,
                tolerance: parse_tolerance(o)?,
            };
            match min_distance(o)? {
                // δ > 0: the minimum-separation method; absent or 0: today's op.
                Some(d) if !d.is_zero() => Op::CcdMinDistance {
                    vf: op_name == "ccd_vf",
                    q: p,
                    min_distance: d,
                },
                _ if op_name == "ccd_vf" => Op::CcdVf(p),
                _ => Op::CcdEe(p),
            }
        }
        other => {
            return err(
                "op",
                format!(
                    "unknown op {other:?} (expected intersect, distance, contact, ccd, ccd_vf or ccd_ee)"
                ),
            )
        }
    };
    Ok(Query {
        id: o.get("id").cloned(),
        scalar,
        op,
        claim,
        category,
        meta: o.get("meta").cloned(),
    })
}
