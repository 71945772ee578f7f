//! The lean line path: a line of any op (`intersect`, `distance`, `ccd`,
//! `ccd_vf`, `ccd_ee`) read into typed values (serde derive on borrowed structs, no
//! `serde_json::Value` tree), answered, and written straight to bytes.
//!
//! It stands in front of the general path ([`super::answer_line`]) and answers
//! only the lines it reads exactly as the general path does; every other line
//! (errors of any kind, claims, unknown fields, escapes where a
//! borrowed string is wanted, duplicate keys, an `id` that is an array or an
//! object) makes it return `None`, and the general path answers that line. So
//! every error message and every odd line is still produced by one parser, and
//! the lean path can only be wrong by answering a line differently, which the
//! tests (tests/protocol.rs) compare byte for byte on generated lines of every
//! kind and on the throughput corpus.
//!
//! Why each rule keeps the two paths equal:
//! - Objects only: a derived struct would also read a JSON array,
//!   positionally; [`Obj`] reads a map or nothing.
//! - Unknown fields are refused: the general path ignores them, but skipping
//!   a value here would skip it without serde_json's nesting limit (128), which
//!   the general path enforces on the whole line.
//! - `null` is a value, not an absent field ([`Present`]).
//! - Each number is taken as its raw JSON text: a JSON number's text is read
//!   with `str::parse::<f64>` (correctly rounded), as the general path reads
//!   it; a string goes through [`parse_exact`], the general path's grammar.
//! - The `id` is written as its raw text when that text is what serializing the
//!   general path's `Value` gives back (a number without an exponent, a string
//!   without escapes, `true`, `false`, `null`); otherwise it is read as a
//!   `Value` and written the same way the general path writes it.
//! - A place where a number goes refuses an array or an object ([`Leaf`]).

use super::trim;
use super::{axis_scale, rounded_f64, ScalarKind, LINES};
use crate::ccd::{
    self, CcdAnswer, CcdQuery, ContactTime, Motion, MovingBox, PointCcd, PointCcdAnswer,
    PolyCoeffs, TimeKind,
};
use crate::number::parse_exact;
use crate::query::triangle_triangle::{self, Contact};
use crate::query::{self, Closest, Intersection, QueryError};
use crate::scalar::{rational_to_f64, Scalar};
use crate::shape::{Cube, Obb, Prism, Shape, Triangle};
use crate::sign::Sign;
use crate::sqrt::sqrt_nearest_f64;
use crate::vector::{Vec2, Vec3};
use num_bigint::{BigInt, Sign as BigSign};
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};
use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;
use std::marker::PhantomData;

/// A field that may be absent. Unlike `Option`, a JSON `null` is a present
/// value (and then fails to read as `T`), as the general path sees it.
struct Present<T>(Option<T>);

impl<T> Default for Present<T> {
    fn default() -> Self {
        Present(None)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Present<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        T::deserialize(d).map(|t| Present(Some(t)))
    }
}

/// A JSON object read as `T` (derived structs would also read an array).
struct Obj<T>(T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Obj<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = T;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
                T::deserialize(serde::de::value::MapAccessDeserializer::new(map))
            }
        }
        d.deserialize_map(V(PhantomData)).map(Obj)
    }
}

/// A JSON value that is not an array or an object, as written: a number's
/// place, read later by [`tok`]. (serde_json skips a raw value without its
/// nesting limit, so a nested one is refused here, where the general path may
/// refuse it for its depth.)
#[derive(Clone, Copy)]
struct Leaf<'a>(&'a RawValue);

impl<'de: 'a, 'a> Deserialize<'de> for Leaf<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = <&RawValue>::deserialize(d)?;
        match raw.get().as_bytes().first() {
            Some(b'[' | b'{') | None => Err(serde::de::Error::custom("a nested value")),
            _ => Ok(Leaf(raw)),
        }
    }
}

/// A number as written (a JSON number or a string), read later by [`tok`].
type N<'a> = Leaf<'a>;
/// Three numbers.
type P3<'a> = [N<'a>; 3];

/// The fields of an `intersect`, `distance`, `ccd_vf` or `ccd_ee` line that
/// the lean path reads.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct LineText<'a> {
    #[serde(default, borrow)]
    id: Present<&'a RawValue>,
    op: &'a str,
    #[serde(default, borrow)]
    scalar: Present<&'a str>,
    #[serde(default, borrow)]
    a: Present<Obj<ShapeText<'a>>>,
    #[serde(default, borrow)]
    b: Present<Obj<ShapeText<'a>>>,
    #[serde(default, borrow)]
    t0: Present<Box<[P3<'a>; 4]>>,
    #[serde(default, borrow)]
    t1: Present<Box<[P3<'a>; 4]>>,
    #[serde(default, borrow)]
    tolerance: Present<N<'a>>,
    #[serde(default, borrow)]
    t_range: Present<[N<'a>; 2]>,
}

/// A SHAPE object's fields (every kind's; which are used depends on `type`),
/// or a `ccd` op's moving box.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ShapeText<'a> {
    #[serde(default, rename = "type", borrow)]
    ty: Present<&'a str>,
    // A `ccd` op's `a`, `b`: the box (or cube) and its motion; the general
    // path reads a `null` motion as none, as `Option` does (but a `null`
    // motion is still a field, refused where a motion is not one).
    #[serde(default, borrow)]
    shape: Present<Box<Obj<ShapeText<'a>>>>,
    #[serde(default, borrow)]
    motion: Present<Option<Box<Obj<MotionText<'a>>>>>,
    #[serde(default, borrow)]
    v: Present<[P3<'a>; 3]>,
    #[serde(default, borrow)]
    center: Present<P3<'a>>,
    #[serde(default, borrow)]
    half_axes: Present<[P3<'a>; 3]>,
    // The less common fields are boxed: serde moves a struct's values by
    // value, several times over, so a smaller struct parses faster.
    #[serde(default, borrow)]
    axes: Present<Box<[P3<'a>; 3]>>,
    #[serde(default, borrow)]
    half_extents: Present<Box<P3<'a>>>,
    #[serde(default, borrow)]
    base: Present<Box<[[N<'a>; 2]; 4]>>,
    #[serde(default, borrow)]
    z: Present<Box<[N<'a>; 2]>>,
    #[serde(default, borrow)]
    vertices: Present<Box<[P3<'a>; 8]>>,
}

impl ShapeText<'_> {
    /// Which fields are present, one bit each (`F_*`).
    fn present(&self) -> u16 {
        let bit = |p: bool, b: u16| if p { b } else { 0 };
        bit(self.ty.0.is_some(), F_TYPE)
            | bit(self.shape.0.is_some(), F_SHAPE)
            | bit(self.motion.0.is_some(), F_MOTION)
            | bit(self.v.0.is_some(), F_V)
            | bit(self.center.0.is_some(), F_CENTER)
            | bit(self.half_axes.0.is_some(), F_HALF_AXES)
            | bit(self.axes.0.is_some(), F_AXES)
            | bit(self.half_extents.0.is_some(), F_HALF_EXTENTS)
            | bit(self.base.0.is_some(), F_BASE)
            | bit(self.z.0.is_some(), F_Z)
            | bit(self.vertices.0.is_some(), F_VERTICES)
    }

    /// Whether every present field is one of `allowed` (the general path
    /// refuses any other: strict fields).
    fn only(&self, allowed: u16) -> bool {
        self.present() & !allowed == 0
    }
}

const F_TYPE: u16 = 1;
const F_SHAPE: u16 = 1 << 1;
const F_MOTION: u16 = 1 << 2;
const F_V: u16 = 1 << 3;
const F_CENTER: u16 = 1 << 4;
const F_HALF_AXES: u16 = 1 << 5;
const F_AXES: u16 = 1 << 6;
const F_HALF_EXTENTS: u16 = 1 << 7;
const F_BASE: u16 = 1 << 8;
const F_Z: u16 = 1 << 9;
const F_VERTICES: u16 = 1 << 10;

/// A MOTION object's fields (both forms'; which are used depends on which
/// form is given).
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct MotionText<'a> {
    #[serde(default, borrow)]
    matrix: Present<[Vec<Poly<'a>>; 4]>,
    #[serde(default, borrow)]
    denominator: Present<Poly<'a>>,
    #[serde(default, borrow)]
    quaternion: Present<[Poly<'a>; 4]>,
    #[serde(default, borrow)]
    translation: Present<[Poly<'a>; 3]>,
}

/// A polynomial in t as written: a number or an array of numbers, read later
/// by [`poly`]. (An object is refused here; a nested array by [`poly`].)
struct Poly<'a>(&'a RawValue);

impl<'de: 'a, 'a> Deserialize<'de> for Poly<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = <&RawValue>::deserialize(d)?;
        match raw.get().as_bytes().first() {
            Some(b'{') | None => Err(serde::de::Error::custom("an object")),
            _ => Ok(Poly(raw)),
        }
    }
}

/// A polynomial's coefficients as the general path's `parse_poly` reads
/// them (each rounded to the query's scalar type), or nothing.
fn poly(p: &Poly, kind: ScalarKind) -> Option<PolyCoeffs> {
    let t = p.0.get();
    if t.starts_with('[') {
        let cs: Vec<Leaf> = serde_json::from_str(t).ok()?;
        if cs.is_empty() {
            return None;
        }
        cs.iter()
            .map(|c| BigRational::read(tok(c)?, kind))
            .collect()
    } else {
        Some(vec![BigRational::read(tok(&Leaf(p.0))?, kind)?])
    }
}

/// One number as written: a JSON number's text, or the text inside a string
/// without escapes.
#[derive(Clone, Copy)]
enum Tok<'a> {
    Number(&'a str),
    String(&'a str),
}

/// The number in `raw`; `None` for other values and strings with escapes.
fn tok<'a>(raw: &Leaf<'a>) -> Option<Tok<'a>> {
    let t = raw.0.get();
    match t.as_bytes().first()? {
        b'"' => {
            let s = &t[1..t.len() - 1];
            (!s.contains('\\')).then_some(Tok::String(s))
        }
        b'-' | b'0'..=b'9' => Some(Tok::Number(t)),
        _ => None,
    }
}

/// Every element read, or nothing.
fn all<T, U, const K: usize>(a: &[T; K], mut f: impl FnMut(&T) -> Option<U>) -> Option<[U; K]> {
    let v: [Option<U>; K] = std::array::from_fn(|i| f(&a[i]));
    if v.iter().any(Option::is_none) {
        return None;
    }
    Some(v.map(|x| x.expect("checked")))
}

/// The number types shapes are built in: `f64` (every number of the line is
/// a double after rounding to the query's scalar type) or `BigRational`.
trait Number: Scalar {
    /// One input number as the general path's `number` reads it (the value,
    /// rounded to the query's scalar type); `None` where the general path
    /// reports an error and, for `f64`, where the value is not a double.
    fn read(t: Tok, kind: ScalarKind) -> Option<Self>;
    /// `axis · half_extent`, exact (the general path does not round it), or
    /// `None` where that is not of this type.
    fn mul_exact(a: &Self, e: &Self) -> Option<Self>;
}

/// A JSON number's double: the one nearest its text (correctly rounded, as
/// the general path reads it), finite.
fn json_double(t: &str) -> Option<f64> {
    finite(t.parse().ok()?)
}

impl Number for f64 {
    fn read(t: Tok, kind: ScalarKind) -> Option<f64> {
        match (t, kind) {
            (Tok::Number(t), ScalarKind::Exact | ScalarKind::F64) => json_double(t),
            (Tok::Number(t), ScalarKind::F32) => {
                finite(f32::from_rational(&json_double(t)?.to_rational()) as f64)
            }
            (Tok::String(s), ScalarKind::Exact) => exact_double(&parse_exact(s).ok()?),
            (Tok::String(s), ScalarKind::F64) => finite(f64::from_rational(&parse_exact(s).ok()?)),
            (Tok::String(s), ScalarKind::F32) => {
                finite(f32::from_rational(&parse_exact(s).ok()?) as f64)
            }
        }
    }
    fn mul_exact(a: &f64, e: &f64) -> Option<f64> {
        exact_double(&(a.to_rational() * e.to_rational()))
    }
}

impl Number for BigRational {
    fn read(t: Tok, kind: ScalarKind) -> Option<BigRational> {
        let x = match t {
            Tok::Number(t) => json_double(t)?.to_rational(),
            Tok::String(s) => parse_exact(s).ok()?,
        };
        kind.round(&x)
    }
    fn mul_exact(a: &BigRational, e: &BigRational) -> Option<BigRational> {
        Some(a * e)
    }
}

/// `q` as a double when it is exactly one (+0 for zero).
fn exact_double(q: &BigRational) -> Option<f64> {
    let f = f64::from_rational(q);
    (f.is_finite() && f.to_rational() == *q).then_some(f + 0.0)
}

/// A finite double (+0 for zero), or nothing (the general path reports the rest).
fn finite(f: f64) -> Option<f64> {
    f.is_finite().then_some(f + 0.0)
}

/// A shape's numbers, read; half-axes formed from axes and half-extents.
enum Spec<T> {
    Triangle([[T; 3]; 3]),
    Box([T; 3], [[T; 3]; 3]),
    Prism([[T; 2]; 4], [T; 2]),
    Cube([[T; 3]; 8]),
}

impl<S: Scalar> Spec<S> {
    /// The shape; `None` where a constructor refuses it (the general path
    /// words the error). The constructors' checks are exact whatever `S`.
    fn build(self) -> Option<Shape<S>> {
        let p3 = |[x, y, z]: [S; 3]| Vec3::new(x, y, z);
        Some(match self {
            Spec::Triangle(v) => Shape::Triangle(Triangle::new(v.map(p3))),
            Spec::Box(c, h) => Shape::Box(Obb::new(p3(c), h.map(p3)).ok()?),
            Spec::Prism(b, [zmin, zmax]) => {
                Shape::Prism(Prism::new(b.map(|[x, y]| Vec2::new(x, y)), zmin, zmax).ok()?)
            }
            Spec::Cube(v) => Shape::Cube(Cube::new(v.map(p3)).ok()?),
        })
    }
}

/// Read a shape's numbers as the general path's `parse_shape` does, or
/// nothing where it would report an error (or `T` cannot hold a number).
fn spec<T: Number>(t: &ShapeText, kind: ScalarKind) -> Option<Spec<T>> {
    let n = |x: &N| T::read(tok(x)?, kind);
    let p3 = |p: &P3| all(p, n);
    // Each type's fields only (strict fields: the general path refuses the
    // others).
    let only = |allowed: u16| t.only(allowed).then_some(());
    Some(match t.ty.0? {
        "triangle" => {
            only(F_TYPE | F_V)?;
            Spec::Triangle(all(t.v.0.as_ref()?, p3)?)
        }
        "box" => {
            only(F_TYPE | F_CENTER | F_HALF_AXES | F_AXES | F_HALF_EXTENTS)?;
            let center = p3(t.center.0.as_ref()?)?;
            let half = match (&t.half_axes.0, &t.axes.0, &t.half_extents.0) {
                (Some(h), None, None) => all(h, p3)?,
                (None, Some(ax), Some(he)) => {
                    let axes = all(ax, p3)?;
                    let ext = p3(he)?;
                    if ext.iter().any(|e| e.sign() == Sign::Negative) {
                        return None;
                    }
                    all(&[0, 1, 2], |&i| all(&axes[i], |c| T::mul_exact(c, &ext[i])))?
                }
                _ => return None,
            };
            Spec::Box(center, half)
        }
        "prism" => {
            only(F_TYPE | F_BASE | F_Z)?;
            Spec::Prism(
                all(t.base.0.as_ref()?, |p| all(p, n))?,
                all(t.z.0.as_ref()?, n)?,
            )
        }
        "cube" => {
            only(F_TYPE | F_VERTICES)?;
            Spec::Cube(all(t.vertices.0.as_ref()?, p3)?)
        }
        _ => return None,
    })
}

/// What the lean path answers.
enum Answered {
    Intersect(Intersection<BigRational>, Option<Contact<BigRational>>),
    Distance(Closest<BigRational>),
    Points(PointCcdAnswer),
    Boxes(CcdAnswer),
}

/// Answer on two shapes of doubles: the `_exact` queries give exact answers
/// from float inputs.
fn answer_doubles(intersect: bool, a: &Shape<f64>, b: &Shape<f64>) -> Result<Answered, QueryError> {
    if !intersect {
        return query::distance_exact(a, b).map(Answered::Distance);
    }
    if let (Shape::Triangle(x), Shape::Triangle(y)) = (a, b) {
        // The certificate and the contact set from one classification.
        let (r, contact) = triangle_triangle::intersect_with_contact_exact(x, y)?;
        return Ok(Answered::Intersect(r, contact));
    }
    Ok(Answered::Intersect(query::intersect_exact(a, b)?, None))
}

/// Answer on two shapes of rationals with the general path's own calls.
fn answer_rationals(
    intersect: bool,
    a: &Shape<BigRational>,
    b: &Shape<BigRational>,
) -> Result<Answered, QueryError> {
    if !intersect {
        return super::scale::distance(a, b).map(Answered::Distance);
    }
    let (r, contact) = super::scale::intersect(a, b)?;
    Ok(Answered::Intersect(r, contact))
}

/// Read both shapes and answer: in doubles when every number is one, else in
/// rationals; `None` where the general path reports an error while reading.
fn answer(
    intersect: bool,
    a: &ShapeText,
    b: &ShapeText,
    kind: ScalarKind,
) -> Option<Result<Answered, QueryError>> {
    if let (Some(x), Some(y)) = (spec::<f64>(a, kind), spec::<f64>(b, kind)) {
        let (x, y) = (x.build()?, y.build()?);
        return Some(answer_doubles(intersect, &x, &y));
    }
    let (x, y) = (spec::<BigRational>(a, kind)?, spec::<BigRational>(b, kind)?);
    let (x, y) = (x.build()?, y.build()?);
    Some(answer_rationals(intersect, &x, &y))
}

/// Answer `line` (UTF-8, without its line break and byte-order mark) on the
/// lean path, appending the answer (no newline) to `out`; `None` (and `out`
/// untouched) when the line is for the general path. `Some(ok)` says whether
/// the answer is a success.
pub(super) fn answer_line(line: &str, out: &mut Vec<u8>) -> Option<bool> {
    let t: Obj<LineText> = serde_json::from_str(line).ok()?;
    // Borrowed, not moved out: the struct is large, and each move is a copy.
    let t = &t.0;
    let kind = match t.scalar.0 {
        None | Some("exact") => ScalarKind::Exact,
        Some("f64") => ScalarKind::F64,
        Some("f32") => ScalarKind::F32,
        Some(_) => return None,
    };
    let mut id = Vec::new();
    if let Some(raw) = t.id.0 {
        write_id(&mut id, raw)?;
    }
    // The fields of other ops: the general path's error (strict fields).
    let statics =
        t.t0.0.is_none() && t.t1.0.is_none() && t.tolerance.0.is_none() && t.t_range.0.is_none();
    let points = t.a.0.is_none() && t.b.0.is_none() && t.t_range.0.is_none();
    let boxes = t.t0.0.is_none() && t.t1.0.is_none();
    let result = match t.op {
        "intersect" | "distance" if !statics => return None,
        "ccd" if !boxes => return None,
        "ccd_vf" | "ccd_ee" if !points => return None,
        "intersect" | "distance" => {
            let (a, b) = (&t.a.0.as_ref()?.0, &t.b.0.as_ref()?.0);
            answer(t.op == "intersect", a, b, kind)?
        }
        "ccd" => ccd::ccd(&box_ccd(t, kind)?).map(Answered::Boxes),
        "ccd_vf" | "ccd_ee" => {
            let q = point_ccd(t, kind)?;
            let r = if t.op == "ccd_vf" {
                ccd::ccd_vf(&q)
            } else {
                ccd::ccd_ee(&q)
            };
            r.map(Answered::Points)
        }
        _ => return None,
    };
    out.push(b'{');
    if t.id.0.is_some() {
        out.extend_from_slice(b"\"id\":");
        out.extend_from_slice(&id);
        out.push(b',');
    }
    let ok = match result {
        Ok(Answered::Intersect(r, contact)) => {
            write_intersect(out, &r, contact.as_ref(), kind);
            true
        }
        Ok(Answered::Distance(c)) => {
            write_distance(out, &c, kind);
            true
        }
        Ok(Answered::Boxes(CcdAnswer::Miss)) => {
            out.extend_from_slice(b"\"hit\":false");
            true
        }
        Ok(Answered::Boxes(CcdAnswer::Hit {
            t_enter,
            t_exit,
            feature,
        })) => {
            out.extend_from_slice(b"\"hit\":true,\"t_enter\":");
            write_time(out, &t_enter, kind);
            out.extend_from_slice(b",\"t_exit\":");
            write_time(out, &t_exit, kind);
            if let Some(f) = feature {
                out.extend_from_slice(b",\"feature\":{\"kind\":");
                write_string(out, &f.kind);
                out.extend_from_slice(b",\"a\":");
                write_string(out, &f.a);
                out.extend_from_slice(b",\"b\":");
                write_string(out, &f.b);
                if f.degenerate {
                    out.extend_from_slice(b",\"degenerate\":true");
                }
                out.push(b'}');
            }
            true
        }
        Ok(Answered::Points(PointCcdAnswer::Miss)) => {
            out.extend_from_slice(b"\"hit\":false");
            true
        }
        Ok(Answered::Points(PointCcdAnswer::Hit(time))) => {
            out.extend_from_slice(b"\"hit\":true,\"toi\":");
            write_time(out, &time, kind);
            true
        }
        Err(e) => {
            out.extend_from_slice(b"\"error\":");
            write_string(out, &e.to_string());
            false
        }
    };
    out.push(b'}');
    LINES.fast();
    Some(ok)
}

/// A `ccd_vf` / `ccd_ee` query as the general path reads it: the positions
/// rounded to the query's scalar type, the tolerance exact (it is not
/// geometry) and positive, 10⁻¹² when absent.
fn point_ccd(t: &LineText, kind: ScalarKind) -> Option<PointCcd> {
    let p3 = |p: &P3| {
        let [x, y, z] = all(p, |n| BigRational::read(tok(n)?, kind))?;
        Some(Vec3::new(x, y, z))
    };
    Some(PointCcd {
        t0: all(t.t0.0.as_ref()?, p3)?,
        t1: all(t.t1.0.as_ref()?, p3)?,
        tolerance: tolerance(t)?,
    })
}

/// The tolerance as the general path reads it: exact (it is not geometry),
/// positive, 10⁻¹² when absent.
fn tolerance(t: &LineText) -> Option<BigRational> {
    match t.tolerance.0 {
        // 1/10¹² is in lowest terms: no gcd needed.
        None => Some(BigRational::new_raw(
            1.into(),
            BigInt::from(1_000_000_000_000u64),
        )),
        Some(n) => {
            BigRational::read(tok(&n)?, ScalarKind::Exact).filter(|x| x.sign() == Sign::Positive)
        }
    }
}

/// A `ccd` query as the general path reads it: each box (or cube, as its
/// box) and motion with numbers rounded to the query's scalar type, the time
/// range rounded too and in order (default [0, 1]), the tolerance exact.
fn box_ccd(t: &LineText, kind: ScalarKind) -> Option<CcdQuery> {
    let moving = |m: &Obj<ShapeText>| -> Option<MovingBox> {
        let m = &m.0;
        if !m.only(F_SHAPE | F_MOTION) {
            return None;
        }
        let shape = match spec::<BigRational>(&m.shape.0.as_ref()?.0, kind)?.build()? {
            Shape::Box(b) => b,
            Shape::Cube(c) => c.obb().clone(),
            _ => return None,
        };
        let motion = match &m.motion.0 {
            None | Some(None) => Motion::Identity,
            Some(Some(mt)) => motion(&mt.0, kind)?,
        };
        Some(MovingBox { shape, motion })
    };
    let (a, b) = (moving(t.a.0.as_ref()?)?, moving(t.b.0.as_ref()?)?);
    let t_range = match &t.t_range.0 {
        None => (BigRational::zero(), BigRational::one()),
        Some([lo, hi]) => {
            let r = |n: &N| BigRational::read(tok(n)?, kind);
            let (lo, hi) = (r(lo)?, r(hi)?);
            (lo <= hi).then_some((lo, hi))?
        }
    };
    Some(CcdQuery {
        a,
        b,
        t_range,
        tolerance: tolerance(t)?,
    })
}

/// A MOTION as the general path's `parse_motion` reads it, or nothing.
fn motion(m: &MotionText, kind: ScalarKind) -> Option<Motion> {
    let p = |x: &Poly| poly(x, kind);
    match (&m.matrix.0, &m.quaternion.0) {
        // A matrix with a translation, a quaternion with a denominator:
        // conflicting fields, the general path's error.
        (Some(_), None) if m.translation.0.is_some() => None,
        (None, Some(_)) if m.denominator.0.is_some() => None,
        (Some(rows_text), None) => {
            let denominator = match &m.denominator.0 {
                Some(d) => p(d)?,
                None => vec![BigRational::one()],
            };
            let mut rows = Vec::with_capacity(4);
            for (i, r) in rows_text.iter().enumerate() {
                if r.len() != 3 && r.len() != 4 {
                    return None;
                }
                let e: Vec<PolyCoeffs> = r.iter().map(p).collect::<Option<_>>()?;
                if let Some(fourth) = e.get(3) {
                    let zero = [BigRational::zero()];
                    let want: &[BigRational] = if i == 3 { &denominator } else { &zero };
                    if trim(fourth) != trim(want) {
                        return None;
                    }
                }
                rows.push([e[0].clone(), e[1].clone(), e[2].clone()]);
            }
            if trim(&denominator).is_empty() {
                return None;
            }
            Some(Motion::Matrix {
                rows: rows.try_into().ok()?,
                denominator,
            })
        }
        (None, Some(q)) => {
            let q = all(q, p)?;
            let translation = match &m.translation.0 {
                Some(tr) => all(tr, p)?,
                None => std::array::from_fn(|_| vec![BigRational::zero()]),
            };
            if q.iter().all(|c| trim(c).is_empty()) {
                return None;
            }
            Some(Motion::Quaternion { q, translation })
        }
        _ => None,
    }
}

/// A certified time as the general path's `time_value` writes it, the ends
/// rounded outward on the float paths.
fn write_time(out: &mut Vec<u8>, t: &ContactTime, kind: ScalarKind) {
    let end = |out: &mut Vec<u8>, x: &BigRational, up: bool| match kind {
        ScalarKind::Exact => write_exact(out, x),
        _ => write_float(out, rounded_f64(x, kind, Some(up))),
    };
    out.extend_from_slice(b"{\"lo\":");
    end(out, &t.lo, false);
    out.extend_from_slice(b",\"hi\":");
    end(out, &t.hi, true);
    out.extend_from_slice(b",\"f64\":");
    write_float(out, t.f64);
    if t.kind == TimeKind::Root {
        out.extend_from_slice(b",\"poly\":[");
        for (i, c) in t.poly.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.push(b'"');
            write_int(out, c);
            out.push(b'"');
        }
        out.push(b']');
    }
    out.extend_from_slice(match t.kind {
        TimeKind::Root => b",\"kind\":\"root\"}",
        TimeKind::Start => b",\"kind\":\"start\"}",
        TimeKind::End => b",\"kind\":\"end\"}",
    });
}

/// A JSON string, escaped as serde_json escapes it.
fn write_string(out: &mut Vec<u8>, s: &str) {
    // Writing to a Vec cannot fail, and a str always serializes.
    let _ = serde_json::to_writer(&mut *out, s);
}

/// The id as the general path writes it (its `Value`, serialized); `None` for
/// an array or an object (the general path reads those, nesting limit and
/// all).
fn write_id(out: &mut Vec<u8>, raw: &RawValue) -> Option<()> {
    let t = raw.get();
    let plain = match t.as_bytes().first()? {
        b'[' | b'{' => return None,
        b'"' => !t.contains('\\'),
        // An exponent is written back as `e+5` / `e-5`.
        b'-' | b'0'..=b'9' => !t.contains(['e', 'E']),
        _ => true,
    };
    if plain {
        out.extend_from_slice(t.as_bytes());
    } else {
        let v: serde_json::Value = serde_json::from_str(t).ok()?;
        serde_json::to_writer(out, &v).ok()?;
    }
    Some(())
}

/// An integer in decimal.
fn write_int(out: &mut Vec<u8>, n: &BigInt) {
    if let Some(m) = n.magnitude().to_u64() {
        if n.sign() == BigSign::Minus {
            out.push(b'-');
        }
        out.extend_from_slice(itoa::Buffer::new().format(m).as_bytes());
    } else if let Some(v) = n.to_i128() {
        out.extend_from_slice(itoa::Buffer::new().format(v).as_bytes());
    } else {
        out.extend_from_slice(n.to_str_radix(10).as_bytes());
    }
}

/// An exact value as the protocol writes it: `"n"` or `"n/d"` in lowest terms
/// (as [`crate::number::exact_string`]).
fn write_exact(out: &mut Vec<u8>, r: &BigRational) {
    out.push(b'"');
    write_int(out, r.numer());
    if !r.denom().is_one() {
        out.push(b'/');
        write_int(out, r.denom());
    }
    out.push(b'"');
}

/// A double as [`crate::number::float_value`] writes it.
fn write_float(out: &mut Vec<u8>, f: f64) {
    if f.is_finite() {
        // serde_json's own formatting of a finite double (shortest round trip),
        // the text of `Number::from_f64`.
        let _ = serde_json::to_writer(&mut *out, &f);
    } else if f.is_nan() {
        out.extend_from_slice(b"\"nan\"");
    } else if f > 0.0 {
        out.extend_from_slice(b"\"inf\"");
    } else {
        out.extend_from_slice(b"\"-inf\"");
    }
}

/// A computed value: exact, or rounded to nearest of the query's float type.
fn write_value(out: &mut Vec<u8>, x: &BigRational, kind: ScalarKind) {
    match kind {
        ScalarKind::Exact => write_exact(out, x),
        _ => write_float(out, rounded_f64(x, kind, None)),
    }
}

fn write_point(out: &mut Vec<u8>, p: &Vec3<BigRational>, kind: ScalarKind) {
    out.push(b'[');
    write_value(out, &p.x, kind);
    out.push(b',');
    write_value(out, &p.y, kind);
    out.push(b',');
    write_value(out, &p.z, kind);
    out.push(b']');
}

fn write_points<'p>(
    out: &mut Vec<u8>,
    ps: impl IntoIterator<Item = &'p Vec3<BigRational>>,
    kind: ScalarKind,
) {
    out.push(b'[');
    for (i, p) in ps.into_iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write_point(out, p, kind);
    }
    out.push(b']');
}

/// The fields of an `intersect` answer (as `run` and `round_answer` make them).
fn write_intersect(
    out: &mut Vec<u8>,
    r: &Intersection<BigRational>,
    contact: Option<&Contact<BigRational>>,
    kind: ScalarKind,
) {
    match r {
        Intersection::Overlap { witness } => {
            out.extend_from_slice(b"\"intersect\":true,\"witness\":");
            write_point(out, witness, kind);
            if let Some(c) = contact {
                let (name, pts): (&[u8], Vec<&Vec3<BigRational>>) = match c {
                    Contact::Point(p) => (b"point", vec![p]),
                    Contact::Segment(p, q) => (b"segment", vec![p, q]),
                    Contact::Polygon(v) => (b"polygon", v.iter().collect()),
                };
                out.extend_from_slice(b",\"contact\":{\"kind\":\"");
                out.extend_from_slice(name);
                out.extend_from_slice(b"\",\"points\":");
                write_points(out, pts, kind);
                out.push(b'}');
            }
        }
        Intersection::Separated { axis } => {
            out.extend_from_slice(b"\"intersect\":false,\"separating_axis\":");
            if kind == ScalarKind::Exact {
                write_point(out, axis, kind);
            } else {
                let scale = axis_scale(&[axis.x.clone(), axis.y.clone(), axis.z.clone()]);
                write_point(out, &axis.scale(&scale), kind);
            }
        }
    }
}

/// The fields of a `distance` answer.
fn write_distance(out: &mut Vec<u8>, c: &Closest<BigRational>, kind: ScalarKind) {
    let d2 = &c.distance_squared;
    out.extend_from_slice(b"\"distance_squared\":");
    write_value(out, d2, kind);
    out.extend_from_slice(b",\"distance_squared_f64\":");
    write_float(out, rational_to_f64(d2));
    out.extend_from_slice(b",\"distance_f64\":");
    write_float(out, sqrt_nearest_f64(d2));
    out.extend_from_slice(b",\"closest\":");
    write_points(out, [&c.a, &c.b], kind);
}
