//! The lean line path: a line of any op (`intersect`, `distance`, `contact`,
//! `ccd`, `ccd_vf`, `ccd_ee`) scanned by hand into typed values ([`Scan`], borrowing
//! the line's text; no `serde_json::Value` tree), answered, and written
//! straight to bytes.
//!
//! It stands in front of the general path ([`super::answer_line`]) and answers
//! only the lines it reads exactly as the general path does; every other line
//! (errors of any kind, claims, unknown fields, escapes where a
//! plain string is wanted, duplicate keys, an `id` that is an array or an
//! object, anything outside the JSON subset [`Scan`] takes) makes it return
//! `None`, and the general path answers that line. So every error message and
//! every odd line is still produced by one parser, and the lean path can only
//! be wrong by answering a line differently, which the tests
//! (tests/protocol.rs) compare byte for byte on generated lines of every kind,
//! on mutated lines and on the throughput corpus.
//!
//! Why each rule keeps the two paths equal:
//! - Objects where objects go, arrays of the protocol's length where arrays
//!   go, nothing else.
//! - Unknown fields are refused: the general path ignores them, but skipping
//!   a value here would skip it without serde_json's nesting limit (128), which
//!   the general path enforces on the whole line.
//! - `null` is a value, not an absent field (it is refused, except as a `ccd`
//!   motion, which the general path reads as none).
//! - A JSON number is read to the double `str::parse::<f64>` gives its text
//!   (correctly rounded), as the general path reads it
//!   ([`crate::protocol::number`]'s `json_number`, bit-identical); a string goes through
//!   [`parse_exact`], the general path's grammar, unless it is a plain p/q
//!   whose value is a double, read straight to it (`exact_double_at`).
//! - The `id` is written as its raw text when that text is what serializing the
//!   general path's `Value` gives back (a number without an exponent, a string
//!   without escapes, `true`, `false`, `null`); otherwise it is read as a
//!   `Value` and written the same way the general path writes it.
//! - A place where a number goes refuses an array or an object.

use super::decimal::{write_exact_digits, write_fixed_digits, write_int};
use super::trim;
use super::{axis_scale, rounded_f64, ScalarKind, LINES};
use crate::ccd::points::{first_contact_f64, Kind};
use crate::ccd::{
    self, CcdAnswer, CcdQuery, ContactTime, Motion, MovingBox, PointCcd, PointCcdAnswer,
    PolyCoeffs, TimeKind,
};
use crate::num::fixed::ExactValue;
use crate::num::scalar::{rational_to_f64, Scalar};
use crate::num::sign::Sign;
use crate::num::sqrt::sqrt_nearest_f64;
use crate::protocol::number::{exact_double_at, json_number, parse_exact};
use crate::query::box_box::pose::{self, PoseBox, PoseDecision, PoseRotation};
use crate::query::polytope::contact::Penetration;
use crate::query::triangle_triangle::{self, Contact};
use crate::query::{self, box_box, Closest, ContactAnswer, Intersection, QueryError};
use crate::shape::{Cube, Obb, Prism, Shape, Triangle};
use crate::stats;
use crate::vector::{Vec2, Vec3};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};

/// One number as written: a JSON number (its double, read while scanning:
/// every scalar type's reading starts from it), or the text inside a string
/// without escapes with, when that text is a plain p/q (or integer) whose
/// value is a double, that double (NaN otherwise; [`exact_double_at`]).
#[derive(Clone, Copy)]
enum Tok<'a> {
    Number(f64),
    String(&'a str, f64),
}

impl Default for Tok<'_> {
    /// A placeholder of the scanner's arrays, overwritten before use.
    fn default() -> Self {
        Tok::Number(0.0)
    }
}

/// A number as written.
type N<'a> = Tok<'a>;
/// Three numbers.
type P3<'a> = [N<'a>; 3];
/// A polynomial in t as written: its coefficients (a bare number is one).
type Poly<'a> = Vec<Tok<'a>>;

/// The fields of a line that the lean path reads.
#[derive(Default)]
struct LineText<'a> {
    /// The id's JSON text (not an array or an object).
    id: Option<&'a str>,
    op: Option<&'a str>,
    scalar: Option<&'a str>,
    a: Option<ShapeText<'a>>,
    b: Option<ShapeText<'a>>,
    t0: Option<[P3<'a>; 4]>,
    t1: Option<[P3<'a>; 4]>,
    tolerance: Option<N<'a>>,
    t_range: Option<[N<'a>; 2]>,
}

/// A SHAPE object's fields (every kind's; which are used depends on `type`),
/// or a `ccd` op's moving box.
#[derive(Default)]
struct ShapeText<'a> {
    ty: Option<&'a str>,
    // A `ccd` op's `a`, `b`: the box (or cube) and its motion; the general
    // path reads a `null` motion as none, as `Option` does (but a `null`
    // motion is still a field, refused where a motion is not one).
    shape: Option<Box<ShapeText<'a>>>,
    motion: Option<Option<Box<MotionText<'a>>>>,
    v: Option<[P3<'a>; 3]>,
    center: Option<P3<'a>>,
    half_axes: Option<[P3<'a>; 3]>,
    // The less common fields are boxed: a smaller struct is cheaper to set up.
    axes: Option<Box<[P3<'a>; 3]>>,
    half_extents: Option<Box<P3<'a>>>,
    base: Option<Box<[[N<'a>; 2]; 4]>>,
    z: Option<Box<[N<'a>; 2]>>,
    vertices: Option<Box<[P3<'a>; 8]>>,
    rotation: Option<Box<RotationText<'a>>>,
    translation: Option<Box<P3<'a>>>,
}

/// A box pose's ROT object (either field; the general path words the errors).
#[derive(Default)]
struct RotationText<'a> {
    quaternion: Option<[N<'a>; 4]>,
    matrix: Option<[P3<'a>; 3]>,
}

impl ShapeText<'_> {
    /// Which fields are present, one bit each (`F_*`).
    fn present(&self) -> u16 {
        let bit = |p: bool, b: u16| if p { b } else { 0 };
        bit(self.ty.is_some(), F_TYPE)
            | bit(self.shape.is_some(), F_SHAPE)
            | bit(self.motion.is_some(), F_MOTION)
            | bit(self.v.is_some(), F_V)
            | bit(self.center.is_some(), F_CENTER)
            | bit(self.half_axes.is_some(), F_HALF_AXES)
            | bit(self.axes.is_some(), F_AXES)
            | bit(self.half_extents.is_some(), F_HALF_EXTENTS)
            | bit(self.base.is_some(), F_BASE)
            | bit(self.z.is_some(), F_Z)
            | bit(self.vertices.is_some(), F_VERTICES)
            | bit(self.rotation.is_some(), F_ROTATION)
            | bit(self.translation.is_some(), F_TRANSLATION)
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
const F_ROTATION: u16 = 1 << 11;
const F_TRANSLATION: u16 = 1 << 12;

/// A MOTION object's fields (both forms'; which are used depends on which
/// form is given).
#[derive(Default)]
struct MotionText<'a> {
    matrix: Option<[Vec<Poly<'a>>; 4]>,
    denominator: Option<Poly<'a>>,
    quaternion: Option<[Poly<'a>; 4]>,
    translation: Option<[Poly<'a>; 3]>,
}

/// The bytes of `v` (little-endian: the first byte lowest) that end a plain
/// run of string text, `"`, `\` or a control character, each flagged by its
/// top bit. The lowest flag is exact (the classic zero-byte test: a borrow
/// can only make false flags above a true one), which is the one used.
fn special(v: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let zero = |x: u64| x.wrapping_sub(ONES) & !x;
    let quote = zero(v ^ (ONES * b'"' as u64));
    let backslash = zero(v ^ (ONES * b'\\' as u64));
    let control = v.wrapping_sub(ONES * 0x20) & !v;
    (quote | backslash | control) & 0x8080_8080_8080_8080
}

/// `slot` set to a default value to be filled in, or nothing if it was
/// already set (a duplicate key).
fn fresh<T: Default>(slot: &mut Option<T>) -> Option<&mut T> {
    if slot.is_some() {
        return None;
    }
    Some(slot.insert(T::default()))
}

/// `slot` set to `v`, or nothing if it was already set (a duplicate key).
fn set<T>(slot: &mut Option<T>, v: T) -> Option<()> {
    if slot.is_some() {
        return None;
    }
    *slot = Some(v);
    Some(())
}

/// The lean path's reader: a line scanned byte by byte into [`LineText`],
/// borrowing its text. It takes a strict subset of JSON, the shapes of a
/// query line and nothing else, and returns `None` on anything outside it
/// (the general path, serde_json's full reader, then answers the line):
///
/// - JSON syntax exactly: white space is `' '`, `\t`, `\n`, `\r`; numbers
///   follow JSON's grammar (no leading zeros, no `+`, no bare `.`); a string
///   holds no control character; nothing follows the object.
/// - Keys and strings without escapes (the id excepted: its escapes are
///   checked by serde_json when it is written, [`write_id`]).
/// - Known keys only, each at most once (the general path refuses unknown
///   and duplicate fields, or ignores an unknown one at a depth its nesting
///   limit may refuse); objects where objects go, arrays of exactly the
///   protocol's length where arrays go, a number or a string where a number
///   goes (`null` only as a `ccd` motion).
///
/// Why by hand: serde's derived visitors cost about 12k instructions per box
/// line of the throughput corpus before any number was read (a `RawValue`
/// per number, large structs moved by value), and `str::parse` another 6.4k;
/// this scanner takes about 4.7k, and reads the 24 numbers in the same pass
/// (about 6.3k: [`json_number`]). Measured with callgrind.
struct Scan<'a> {
    s: &'a str,
    i: usize,
}

impl<'a> Scan<'a> {
    /// The next byte after white space (not taken).
    #[inline(always)]
    fn peek(&mut self) -> Option<u8> {
        let b = self.s.as_bytes();
        // Every byte above the space is not white space: the common case.
        let c = *b.get(self.i)?;
        if c > b' ' {
            return Some(c);
        }
        while let Some(&c) = b.get(self.i) {
            if !matches!(c, b' ' | b'\t' | b'\n' | b'\r') {
                return Some(c);
            }
            self.i += 1;
        }
        None
    }

    /// Take `c` (after white space).
    #[inline(always)]
    fn eat(&mut self, c: u8) -> Option<()> {
        (self.peek()? == c).then(|| self.i += 1)
    }

    /// A string: its text between the quotes, and whether it has escapes
    /// (skipped here, unchecked: the caller refuses them or has serde_json
    /// read them).
    fn string(&mut self) -> Option<(&'a str, bool)> {
        self.eat(b'"')?;
        let b = self.s.as_bytes();
        let start = self.i;
        let mut escaped = false;
        loop {
            // Eight bytes at a time up to the first that is special.
            while let Some(c) = b.get(self.i..self.i + 8) {
                let m = special(u64::from_le_bytes(c.try_into().expect("eight bytes")));
                if m != 0 {
                    self.i += (m.trailing_zeros() / 8) as usize;
                    break;
                }
                self.i += 8;
            }
            match *b.get(self.i)? {
                b'"' => break,
                b'\\' => {
                    escaped = true;
                    self.i += 2;
                }
                c if c < 0x20 => return None,
                _ => self.i += 1,
            }
        }
        let t = self.s.get(start..self.i)?;
        self.i += 1;
        Some((t, escaped))
    }

    /// A string without escapes.
    fn plain(&mut self) -> Option<&'a str> {
        match self.string()? {
            (t, false) => Some(t),
            _ => None,
        }
    }

    /// A JSON number: its text and its double (as `str::parse` reads the
    /// text; ±∞ past the range), [`json_number`].
    fn number(&mut self) -> Option<(&'a str, f64)> {
        let start = self.i;
        let x = json_number(self.s, &mut self.i)?;
        Some((&self.s[start..self.i], x))
    }

    /// A number's place: a JSON number or a string without escapes.
    fn leaf(&mut self) -> Option<Tok<'a>> {
        match self.peek()? {
            b'"' => {
                // A plain p/q that is a double, read in one pass; other
                // strings as text.
                let b = self.s.as_bytes();
                let start = self.i + 1;
                if let Some((x, end)) = exact_double_at(b, start) {
                    if b.get(end) == Some(&b'"') {
                        self.i = end + 1;
                        return Some(Tok::String(&self.s[start..end], x));
                    }
                }
                Some(Tok::String(self.plain()?, f64::NAN))
            }
            b'-' | b'0'..=b'9' => Some(Tok::Number(self.number()?.1)),
            _ => None,
        }
    }

    /// `true`, `false` or `null` as written.
    fn literal(&mut self) -> Option<&'a str> {
        self.peek()?;
        let rest = &self.s[self.i..];
        let w = ["true", "false", "null"]
            .into_iter()
            .find(|w| rest.starts_with(w))?;
        self.i += w.len();
        Some(w)
    }

    /// The id's JSON text: a string (escapes and all), a number or a literal.
    fn id(&mut self) -> Option<&'a str> {
        let start = match self.peek()? {
            b'"' => {
                let start = self.i;
                self.string()?;
                start
            }
            b'-' | b'0'..=b'9' => return Some(self.number()?.0),
            _ => return self.literal(),
        };
        Some(&self.s[start..self.i])
    }

    /// An array of exactly `K` elements, each read by `f`.
    fn arr<T: Default, const K: usize>(
        &mut self,
        mut f: impl FnMut(&mut Self) -> Option<T>,
    ) -> Option<[T; K]> {
        self.eat(b'[')?;
        let mut out: [T; K] = std::array::from_fn(|_| T::default());
        for (j, o) in out.iter_mut().enumerate() {
            if j > 0 {
                self.eat(b',')?;
            }
            *o = f(self)?;
        }
        self.eat(b']')?;
        Some(out)
    }

    /// An array of any length, each element read by `f`.
    fn list<T>(&mut self, mut f: impl FnMut(&mut Self) -> Option<T>) -> Option<Vec<T>> {
        self.eat(b'[')?;
        let mut out = Vec::new();
        if self.peek()? == b']' {
            self.i += 1;
            return Some(out);
        }
        loop {
            out.push(f(self)?);
            match self.peek()? {
                b',' => self.i += 1,
                b']' => {
                    self.i += 1;
                    return Some(out);
                }
                _ => return None,
            }
        }
    }

    /// An object: `f` reads each member's value after its key.
    fn object(&mut self, mut f: impl FnMut(&mut Self, &'a str) -> Option<()>) -> Option<()> {
        self.eat(b'{')?;
        if self.peek()? == b'}' {
            self.i += 1;
            return Some(());
        }
        loop {
            let k = self.plain()?;
            self.eat(b':')?;
            f(self, k)?;
            match self.peek()? {
                b',' => self.i += 1,
                b'}' => {
                    self.i += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    /// The whole line into `t` (default on entry), or nothing. (Filled in
    /// place: the structs are large, and each move is a copy.)
    fn line(s: &'a str, t: &mut LineText<'a>) -> Option<()> {
        let mut c = Scan { s, i: 0 };
        c.object(|c, k| match k {
            "id" => set(&mut t.id, c.id()?),
            "op" => set(&mut t.op, c.plain()?),
            "scalar" => set(&mut t.scalar, c.plain()?),
            "a" => c.shape(fresh(&mut t.a)?, true),
            "b" => c.shape(fresh(&mut t.b)?, true),
            "t0" => c.arr_into(fresh(&mut t.t0)?, Self::p3_into),
            "t1" => c.arr_into(fresh(&mut t.t1)?, Self::p3_into),
            "tolerance" => set(&mut t.tolerance, c.leaf()?),
            "t_range" => c.arr_into(fresh(&mut t.t_range)?, Self::leaf_into),
            _ => None,
        })?;
        c.peek().is_none().then_some(())
    }

    /// A SHAPE object into `t`, or (`outer`: a line's `a`, `b`) a `ccd`
    /// moving box.
    fn shape(&mut self, t: &mut ShapeText<'a>, outer: bool) -> Option<()> {
        self.object(|c, k| match k {
            "type" => set(&mut t.ty, c.plain()?),
            "shape" if outer => c.shape(fresh(&mut t.shape)?, false),
            "motion" if outer => {
                let m = match c.peek()? {
                    b'n' => (c.literal()? == "null").then_some(None)?,
                    _ => Some(Box::new(c.motion()?)),
                };
                set(&mut t.motion, m)
            }
            "v" => c.arr_into(fresh(&mut t.v)?, Self::p3_into),
            "center" => c.p3_into(fresh(&mut t.center)?),
            "half_axes" => c.arr_into(fresh(&mut t.half_axes)?, Self::p3_into),
            "axes" => c.arr_into(fresh(&mut t.axes)?, Self::p3_into),
            "half_extents" => c.p3_into(fresh(&mut t.half_extents)?),
            "base" => c.arr_into(fresh(&mut t.base)?, |c, o| c.arr_into(o, Self::leaf_into)),
            "z" => c.arr_into(fresh(&mut t.z)?, Self::leaf_into),
            "vertices" => c.arr_into(fresh(&mut t.vertices)?, Self::p3_into),
            "rotation" => {
                let r = fresh(&mut t.rotation)?;
                c.object(|c, k| match k {
                    "quaternion" => c.arr_into(fresh(&mut r.quaternion)?, Self::leaf_into),
                    "matrix" => c.arr_into(fresh(&mut r.matrix)?, Self::p3_into),
                    _ => None,
                })
            }
            "translation" => c.p3_into(fresh(&mut t.translation)?),
            _ => None,
        })
    }

    /// An array of exactly `K` elements, each read into its place by `f`.
    fn arr_into<T, const K: usize>(
        &mut self,
        out: &mut [T; K],
        mut f: impl FnMut(&mut Self, &mut T) -> Option<()>,
    ) -> Option<()> {
        self.eat(b'[')?;
        for (j, o) in out.iter_mut().enumerate() {
            if j > 0 {
                self.eat(b',')?;
            }
            f(self, o)?;
        }
        self.eat(b']')
    }

    /// A number into its place.
    fn leaf_into(&mut self, out: &mut N<'a>) -> Option<()> {
        *out = self.leaf()?;
        Some(())
    }

    /// Three numbers into their place.
    fn p3_into(&mut self, out: &mut P3<'a>) -> Option<()> {
        self.arr_into(out, Self::leaf_into)
    }

    /// A MOTION object.
    fn motion(&mut self) -> Option<MotionText<'a>> {
        let mut t = MotionText::default();
        self.object(|c, k| match k {
            "matrix" => set(&mut t.matrix, c.arr(|c| c.list(Self::poly))?),
            "denominator" => set(&mut t.denominator, c.poly()?),
            "quaternion" => set(&mut t.quaternion, c.arr(Self::poly)?),
            "translation" => set(&mut t.translation, c.arr(Self::poly)?),
            _ => None,
        })?;
        Some(t)
    }

    /// A polynomial: a number, or an array of numbers (empty is read here
    /// and refused by [`poly`]).
    fn poly(&mut self) -> Option<Poly<'a>> {
        match self.peek()? {
            b'[' => self.list(Self::leaf),
            _ => Some(vec![self.leaf()?]),
        }
    }
}

/// A polynomial's coefficients as the general path's `parse_poly` reads
/// them (each rounded to the query's scalar type), or nothing.
fn poly(p: &Poly, kind: ScalarKind) -> Option<PolyCoeffs> {
    if p.is_empty() {
        return None;
    }
    p.iter().map(|&c| BigRational::read(c, kind)).collect()
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
/// the general path's `str::parse` reads it), finite.
fn json_double(x: f64) -> Option<f64> {
    finite(x)
}

impl Number for f64 {
    fn read(t: Tok, kind: ScalarKind) -> Option<f64> {
        match (t, kind) {
            (Tok::Number(t), ScalarKind::Exact | ScalarKind::F64) => json_double(t),
            (Tok::Number(t), ScalarKind::F32) => {
                finite(f32::from_rational(&json_double(t)?.to_rational()) as f64)
            }
            // A p/q string that is a double: read without big integers (its
            // own double: exact, and the f64 rounding of a double is itself).
            (Tok::String(_, x), ScalarKind::Exact | ScalarKind::F64) if !x.is_nan() => Some(x),
            (Tok::String(s, _), ScalarKind::Exact) => exact_double(&parse_exact(s).ok()?),
            (Tok::String(s, _), ScalarKind::F64) => {
                finite(f64::from_rational(&parse_exact(s).ok()?))
            }
            (Tok::String(s, _), ScalarKind::F32) => {
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
            Tok::String(s, _) => parse_exact(s).ok()?,
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
    let n = |x: &N| T::read(*x, kind);
    let p3 = |p: &P3| all(p, n);
    // Each type's fields only (strict fields: the general path refuses the
    // others).
    let only = |allowed: u16| t.only(allowed).then_some(());
    Some(match t.ty? {
        "triangle" => {
            only(F_TYPE | F_V)?;
            Spec::Triangle(all(t.v.as_ref()?, p3)?)
        }
        "box" => {
            only(F_TYPE | F_CENTER | F_HALF_AXES | F_AXES | F_HALF_EXTENTS)?;
            let center = p3(t.center.as_ref()?)?;
            let half = match (&t.half_axes, t.axes.as_deref(), t.half_extents.as_deref()) {
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
                all(t.base.as_deref()?, |p| all(p, n))?,
                all(t.z.as_deref()?, n)?,
            )
        }
        "cube" => {
            only(F_TYPE | F_VERTICES)?;
            Spec::Cube(all(t.vertices.as_deref()?, p3)?)
        }
        _ => return None,
    })
}

/// Whether `t` is a box by pose (the general path's third box form).
fn is_pose(t: &ShapeText) -> bool {
    t.ty == Some("box")
        && t.half_extents.is_some()
        && t.center.is_none()
        && t.axes.is_none()
        && t.half_axes.is_none()
}

/// A box by pose whose numbers are all doubles (after rounding to the
/// query's scalar type), or nothing (the general path then reads it, and
/// words any error).
fn pose_box(t: &ShapeText, kind: ScalarKind) -> Option<PoseBox> {
    if !is_pose(t) || !t.only(F_TYPE | F_HALF_EXTENTS | F_ROTATION | F_TRANSLATION) {
        return None;
    }
    // Subnormal numbers are left to the general path, which words their
    // certificates its own way (the pose path's answers must be its answers).
    let n = |x: &N| f64::read(*x, kind).filter(|v| *v == 0.0 || v.is_normal());
    let p3 = |p: &P3| all(p, n);
    let half_extents = p3(t.half_extents.as_deref()?)?;
    let rotation = match t.rotation.as_deref() {
        None => PoseRotation::Matrix([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]),
        Some(RotationText {
            quaternion: Some(q),
            matrix: None,
        }) => PoseRotation::Quaternion(all(q, n)?),
        Some(RotationText {
            quaternion: None,
            matrix: Some(m),
        }) => PoseRotation::Matrix(all(m, p3)?),
        Some(_) => return None,
    };
    let translation = match t.translation.as_deref() {
        None => [0.0; 3],
        Some(p) => p3(p)?,
    };
    Some(PoseBox {
        half_extents,
        rotation,
        translation,
    })
}

/// `intersect` of a pair with a box by pose: two boxes by pose in doubles
/// take the float-guided decision of `box_box::pose` (counted in
/// [`stats::INTERSECT`]), the certificate built as the exact path builds
/// it; an undecided filter takes the exact path on the rational boxes; any
/// other pair is the general path's.
fn pose_intersect(
    a: &ShapeText,
    b: &ShapeText,
    kind: ScalarKind,
) -> Option<Result<Answered, QueryError>> {
    let (pa, pb) = (pose_box(a, kind)?, pose_box(b, kind)?);
    let decision = pose::decide(&pa, &pb);
    if let Some(PoseDecision::CenterOf(of_a)) = decision {
        stats::INTERSECT.fast();
        let c = if of_a { pa.translation } else { pb.translation };
        let [x, y, z] = c.map(|v| v.to_rational());
        let witness = Vec3::new(x, y, z);
        return Some(Ok(Answered::Intersect(
            Intersection::Overlap { witness },
            None,
        )));
    }
    if let Some(PoseDecision::Separated(k)) = decision {
        stats::INTERSECT.fast();
        let axis = match super::scale::pose_box_axis(&pa, &pb, k) {
            Some(axis) => axis,
            None => {
                let (x, y) = (pa.to_obb().ok()?, pb.to_obb().ok()?);
                super::scale::box_axis(&x, &y, k)
            }
        };
        return Some(Ok(Answered::Intersect(
            Intersection::Separated { axis },
            None,
        )));
    }
    let found = match decision {
        Some(PoseDecision::VertexOf(of_a, i)) => {
            super::scale::pose_vertex(if of_a { &pa } else { &pb }, i)
        }
        Some(PoseDecision::Crossing) => pose::crossing_witness(&pa, &pb),
        _ => None,
    };
    if let Some(witness) = found {
        stats::INTERSECT.fast();
        return Some(Ok(Answered::Intersect(
            Intersection::Overlap { witness },
            None,
        )));
    }
    let (x, y) = (pa.to_obb().ok()?, pb.to_obb().ok()?);
    stats::INTERSECT.fallback();
    Some(answer_rationals(true, &Shape::Box(x), &Shape::Box(y)))
}

/// `distance` of two boxes by pose in doubles: an apart pair takes the
/// float-guided closest pair of `box_box::pose::closest`, a pair the
/// intersect decision proves overlapping the exact path's witness (distance
/// 0, both points the witness), counted in [`stats::DISTANCE`]; the rest
/// (touching, undecided) takes the exact path on the rational boxes. A pair
/// that is not two boxes by pose in doubles is the general path's, and so
/// is every `f64`/`f32` line: the general path rounds its exact answer by
/// reading the exact strings back, charged to the line's input budget
/// (`protocol::limits`), and leaves a value that no longer fits as its exact
/// string; these answers' long rationals can reach that, and the lean
/// writer rounds every value.
fn pose_distance(
    a: &ShapeText,
    b: &ShapeText,
    kind: ScalarKind,
) -> Option<Result<Answered, QueryError>> {
    if !matches!(kind, ScalarKind::Exact) {
        return None;
    }
    let (pa, pb) = (pose_box(a, kind)?, pose_box(b, kind)?);
    if let Some(c) = pose::closest_exact(&pa, &pb) {
        stats::DISTANCE.fast();
        return Some(Ok(Answered::PoseDistance(c)));
    }
    let witness = match pose::decide(&pa, &pb) {
        Some(PoseDecision::CenterOf(of_a)) => {
            let c = if of_a { pa.translation } else { pb.translation };
            let [x, y, z] = c.map(|v| v.to_rational());
            Some(Vec3::new(x, y, z))
        }
        Some(PoseDecision::VertexOf(of_a, i)) => {
            super::scale::pose_vertex(if of_a { &pa } else { &pb }, i)
        }
        Some(PoseDecision::Crossing) => pose::crossing_witness(&pa, &pb),
        _ => None,
    };
    if let Some(w) = witness {
        stats::DISTANCE.fast();
        return Some(Ok(Answered::Distance(Closest {
            distance_squared: BigRational::zero(),
            a: w.clone(),
            b: w,
        })));
    }
    let (x, y) = (pa.to_obb().ok()?, pb.to_obb().ok()?);
    stats::DISTANCE.fallback();
    Some(answer_rationals(false, &Shape::Box(x), &Shape::Box(y)))
}

/// What the lean path answers. `PoseDistance` holds seven fixed-width
/// values (about 1.6 kB) and stays unboxed: the answer is moved a few times
/// per line, cheaper than an allocation per line (about 300 instructions).
#[allow(clippy::large_enum_variant)]
enum Answered {
    Intersect(Intersection<BigRational>, Option<Contact<BigRational>>),
    Distance(Closest<BigRational>),
    /// An apart pair's `distance` on exact lines, as the pose frame holds it.
    PoseDistance(Closest<ExactValue>),
    Contact(ContactAnswer),
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
    if intersect && (is_pose(a) || is_pose(b)) {
        return pose_intersect(a, b, kind);
    }
    if !intersect && is_pose(a) && is_pose(b) {
        return pose_distance(a, b, kind);
    }
    if let (Some(x), Some(y)) = (spec::<f64>(a, kind), spec::<f64>(b, kind)) {
        let (x, y) = (x.build()?, y.build()?);
        return Some(answer_doubles(intersect, &x, &y));
    }
    let (x, y) = (spec::<BigRational>(a, kind)?, spec::<BigRational>(b, kind)?);
    let (x, y) = (x.build()?, y.build()?);
    Some(answer_rationals(intersect, &x, &y))
}

/// A shape in rationals as the general path's `parse_shape` builds it (a
/// box by pose as its exact box, [`PoseBox::to_obb`]), or nothing where the
/// general path reports an error or the lean path does not read the form.
fn rational_shape(t: &ShapeText, kind: ScalarKind) -> Option<Shape<BigRational>> {
    if is_pose(t) {
        return Some(Shape::Box(pose_box(t, kind)?.to_obb().ok()?));
    }
    spec::<BigRational>(t, kind)?.build()
}

/// `contact` on two shapes of rationals with the general path's own calls:
/// two boxes (or cubes) of doubles take the float-guided box contact
/// (`box_box::contact`), the rest the exact reference (`scale::contact`)
/// and, apart, the exact distance.
fn contact_rationals(
    a: &Shape<BigRational>,
    b: &Shape<BigRational>,
) -> Result<ContactAnswer, QueryError> {
    if let Some((x, y)) = super::scale::double_boxes(a, b) {
        return box_box::contact::contact(&x, &y);
    }
    match super::scale::contact(a, b)? {
        Some(p) => Ok(ContactAnswer::Meeting(Box::new(p))),
        None => super::scale::distance(a, b).map(|c| ContactAnswer::Apart(Box::new(c))),
    }
}

/// `contact` of a pair as the general path answers it: two boxes (or cubes)
/// whose numbers are doubles go straight to the float-guided box contact
/// (the general path finds the same doubles in its rational boxes,
/// `scale::double_boxes`); two boxes by pose in doubles that
/// `box_box::pose::closest` proves apart take its exact closest pair (the
/// general path's answer for apart shapes is the `distance` answer, and
/// that is the pose path's `distance` answer, [`pose_distance`]), counted
/// as fast in [`stats::BOX_CONTACT`], the others (meeting, touching,
/// undecided) the general path's calls on their exact boxes, counted as
/// fallbacks unless they are boxes of doubles; every other pair is read in
/// rationals and answered by the general path's calls
/// ([`contact_rationals`]). `None` where the general path reports an error
/// while reading. Boxes by pose on `f64`/`f32` lines are read in rationals
/// too, as [`pose_distance`] leaves those lines' distances to the general
/// path.
fn contact(
    a: &ShapeText,
    b: &ShapeText,
    kind: ScalarKind,
) -> Option<Result<ContactAnswer, QueryError>> {
    if is_pose(a) && is_pose(b) && kind == ScalarKind::Exact {
        let (pa, pb) = (pose_box(a, kind)?, pose_box(b, kind)?);
        if let Some(c) = pose::closest(&pa, &pb) {
            stats::BOX_CONTACT.fast();
            return Some(Ok(ContactAnswer::Apart(Box::new(c))));
        }
        // Meeting boxes by pose: the float-guided pose contact
        // (`pose::contact`, the reference's answer; it answers only valid
        // poses, so before the exact boxes are built); apart or undecided
        // pairs go on below.
        match pose::contact::penetration(&pa, &pb) {
            pose::contact::PoseContact::Meeting(p) => {
                stats::POSE_CONTACT.fast();
                stats::BOX_CONTACT.fast();
                return Some(Ok(ContactAnswer::Meeting(p)));
            }
            pose::contact::PoseContact::Apart => {}
            pose::contact::PoseContact::Undecided => stats::POSE_CONTACT.fallback(),
        }
        let (x, y) = (Shape::Box(pa.to_obb().ok()?), Shape::Box(pb.to_obb().ok()?));
        if super::scale::double_boxes(&x, &y).is_some() {
            return Some(contact_rationals(&x, &y));
        }
        stats::BOX_CONTACT.fallback();
        // A pair the pose filter proves to meet (any decision but a
        // separating axis: each names the exact path's witness) skips the
        // reference's own intersect test.
        let meeting = matches!(
            pose::decide(&pa, &pb),
            Some(PoseDecision::CenterOf(_) | PoseDecision::VertexOf(..) | PoseDecision::Crossing)
        );
        let p = if meeting {
            super::scale::contact_of_meeting(&x, &y)
        } else {
            super::scale::contact(&x, &y)
        };
        return Some(match p {
            Ok(Some(p)) => Ok(ContactAnswer::Meeting(Box::new(p))),
            Ok(None) => super::scale::distance(&x, &y).map(|c| ContactAnswer::Apart(Box::new(c))),
            Err(e) => Err(e),
        });
    }
    if !is_pose(a) && !is_pose(b) {
        if let (Some(x), Some(y)) = (spec::<f64>(a, kind), spec::<f64>(b, kind)) {
            let (x, y) = (x.build()?, y.build()?);
            if let (Some(p), Some(q)) = (x.as_box(), y.as_box()) {
                return Some(box_box::contact::contact(p, q));
            }
        }
    }
    let (x, y) = (rational_shape(a, kind)?, rational_shape(b, kind)?);
    Some(contact_rationals(&x, &y))
}

/// Answer `line` (UTF-8, without its line break and byte-order mark) on the
/// lean path, appending the answer (no newline) to `out`; `None` (and `out`
/// untouched) when the line is for the general path. `Some(ok)` says whether
/// the answer is a success.
pub(super) fn answer_line(line: &str, out: &mut Vec<u8>) -> Option<bool> {
    let mut text = LineText::default();
    Scan::line(line, &mut text)?;
    let t = &text;
    let kind = match t.scalar {
        None | Some("exact") => ScalarKind::Exact,
        Some("f64") => ScalarKind::F64,
        Some("f32") => ScalarKind::F32,
        Some(_) => return None,
    };
    let mut id = Vec::new();
    if let Some(raw) = t.id {
        write_id(&mut id, raw)?;
    }
    // The fields of other ops: the general path's error (strict fields).
    let statics = t.t0.is_none() && t.t1.is_none() && t.tolerance.is_none() && t.t_range.is_none();
    let points = t.a.is_none() && t.b.is_none() && t.t_range.is_none();
    let boxes = t.t0.is_none() && t.t1.is_none();
    let op = t.op?;
    let result = match op {
        "intersect" | "distance" | "contact" if !statics => return None,
        "ccd" if !boxes => return None,
        "ccd_vf" | "ccd_ee" if !points => return None,
        "intersect" | "distance" => {
            let (a, b) = (t.a.as_ref()?, t.b.as_ref()?);
            answer(op == "intersect", a, b, kind)?
        }
        "contact" => contact(t.a.as_ref()?, t.b.as_ref()?, kind)?.map(Answered::Contact),
        "ccd" => ccd::ccd_with_limits(&box_ccd(t, kind)?, &super::limits::ccd_limits())
            .map(Answered::Boxes),
        "ccd_vf" | "ccd_ee" => {
            let vf = op == "ccd_vf";
            let r = match point_doubles(t, kind) {
                // Every coordinate a double in the normal range (or zero):
                // what `ccd::ccd_vf` / `ccd_ee` hand to the same method
                // after finding that in the rationals.
                Some(p) => {
                    let k = if vf { Kind::VertexFace } else { Kind::EdgeEdge };
                    first_contact_f64(k, &p, &tolerance(t)?)
                }
                None => {
                    let q = point_ccd(t, kind)?;
                    if vf {
                        ccd::ccd_vf(&q)
                    } else {
                        ccd::ccd_ee(&q)
                    }
                }
            };
            r.map(Answered::Points)
        }
        _ => return None,
    };
    out.push(b'{');
    if t.id.is_some() {
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
        Ok(Answered::PoseDistance(c)) => {
            write_exact_distance(out, &c);
            true
        }
        Ok(Answered::Contact(ContactAnswer::Meeting(p))) => {
            out.extend_from_slice(b"\"intersect\":true,");
            write_penetration(out, &p, kind);
            true
        }
        Ok(Answered::Contact(ContactAnswer::Apart(c))) => {
            out.extend_from_slice(b"\"intersect\":false,");
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
        let [x, y, z] = all(p, |&n| BigRational::read(n, kind))?;
        Some(Vec3::new(x, y, z))
    };
    Some(PointCcd {
        t0: all(t.t0.as_ref()?, p3)?,
        t1: all(t.t1.as_ref()?, p3)?,
        tolerance: tolerance(t)?,
    })
}

/// A `ccd_vf` / `ccd_ee` query's 24 coordinates (rows `t0` then `t1`) when
/// every one, rounded to the query's scalar type, is a double in the normal
/// range or zero: the inputs on which `ccd::ccd_vf` / `ccd_ee` take
/// [`first_contact_f64`]'s method (`num::dyadic::exact_f64` accepts these),
/// read here without rationals. `None` otherwise (`f32`, a value that is not
/// a double, a subnormal): [`point_ccd`] reads the query.
fn point_doubles(t: &LineText, kind: ScalarKind) -> Option<[[f64; 3]; 8]> {
    if kind == ScalarKind::F32 {
        return None;
    }
    let (t0, t1) = (t.t0.as_ref()?, t.t1.as_ref()?);
    let mut out = [[0.0; 3]; 8];
    for (o, p) in out.iter_mut().zip(t0.iter().chain(t1)) {
        for (x, &n) in o.iter_mut().zip(p) {
            let v = match n {
                // Already a double (the two usual cases, read while scanning).
                Tok::Number(v) => v,
                Tok::String(_, v) if !v.is_nan() => v,
                _ => f64::read(n, kind)?,
            };
            if !(v == 0.0 || v.is_normal()) {
                return None;
            }
            *x = v + 0.0;
        }
    }
    Some(out)
}

/// The tolerance as the general path reads it: exact (it is not geometry),
/// positive, 10⁻¹² when absent.
fn tolerance(t: &LineText) -> Option<BigRational> {
    match t.tolerance {
        // 1/10¹² is in lowest terms: no gcd needed.
        None => Some(BigRational::new_raw(
            1.into(),
            BigInt::from(1_000_000_000_000u64),
        )),
        Some(n) => BigRational::read(n, ScalarKind::Exact).filter(|x| x.sign() == Sign::Positive),
    }
}

/// A `ccd` query as the general path reads it: each box (or cube, as its
/// box) and motion with numbers rounded to the query's scalar type, the time
/// range rounded too and in order (default [0, 1]), the tolerance exact.
fn box_ccd(t: &LineText, kind: ScalarKind) -> Option<CcdQuery> {
    let moving = |m: &ShapeText| -> Option<MovingBox> {
        if !m.only(F_SHAPE | F_MOTION) {
            return None;
        }
        let shape = match spec::<BigRational>(m.shape.as_deref()?, kind)?.build()? {
            Shape::Box(b) => b,
            Shape::Cube(c) => c.obb().clone(),
            _ => return None,
        };
        let motion = match &m.motion {
            None | Some(None) => Motion::Identity,
            Some(Some(mt)) => motion(mt, kind)?,
        };
        Some(MovingBox { shape, motion })
    };
    let (a, b) = (moving(t.a.as_ref()?)?, moving(t.b.as_ref()?)?);
    let t_range = match &t.t_range {
        None => (BigRational::zero(), BigRational::one()),
        Some([lo, hi]) => {
            let r = |&n: &N| BigRational::read(n, kind);
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
    match (&m.matrix, &m.quaternion) {
        // A matrix with a translation, a quaternion with a denominator:
        // conflicting fields, the general path's error.
        (Some(_), None) if m.translation.is_some() => None,
        (None, Some(_)) if m.denominator.is_some() => None,
        (Some(rows_text), None) => {
            let denominator = match &m.denominator {
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
            let translation = match &m.translation {
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
fn write_id(out: &mut Vec<u8>, t: &str) -> Option<()> {
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

/// An exact value as the protocol writes it: `"n"` or `"n/d"` in lowest terms
/// (as [`crate::protocol::number::exact_string`]).
fn write_exact(out: &mut Vec<u8>, r: &BigRational) {
    out.push(b'"');
    write_exact_digits(out, r);
    out.push(b'"');
}

/// A double as [`crate::protocol::number::float_value`] writes it.
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
                out.extend_from_slice(b",\"contact\":");
                write_region(out, c, |out, x| write_value(out, x, kind));
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

/// The fields of a `distance` answer on an exact line ([`write_distance`]'s
/// text for the same values), from the fixed-width values' limbs.
fn write_exact_distance(out: &mut Vec<u8>, c: &Closest<ExactValue>) {
    let value = |out: &mut Vec<u8>, x: &ExactValue| {
        out.push(b'"');
        match x {
            ExactValue::Fixed(f) => write_fixed_digits(out, f),
            ExactValue::Big(r) => write_exact_digits(out, r),
        }
        out.push(b'"');
    };
    let d2 = &c.distance_squared;
    out.extend_from_slice(b"\"distance_squared\":");
    value(out, d2);
    out.extend_from_slice(b",\"distance_squared_f64\":");
    write_float(out, d2.to_f64());
    out.extend_from_slice(b",\"distance_f64\":");
    write_float(out, d2.sqrt_f64());
    out.extend_from_slice(b",\"closest\":[");
    for (i, p) in [&c.a, &c.b].into_iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        for (j, x) in [&p.x, &p.y, &p.z].into_iter().enumerate() {
            out.push(if j == 0 { b'[' } else { b',' });
            value(out, x);
        }
        out.push(b']');
    }
    out.push(b']');
}

/// A contact region as the general path's `contact_value` writes it:
/// `{"kind":…,"points":[…]}`, each coordinate written by `coord`.
fn write_region(
    out: &mut Vec<u8>,
    region: &Contact<BigRational>,
    coord: impl Fn(&mut Vec<u8>, &BigRational),
) {
    let (name, pts): (&[u8], &[Vec3<BigRational>]) = match region {
        Contact::Point(p) => (b"point", std::slice::from_ref(p)),
        Contact::Segment(p, q) => {
            out.extend_from_slice(b"{\"kind\":\"segment\",\"points\":[");
            write_coords(out, [p, q], coord);
            out.extend_from_slice(b"]}");
            return;
        }
        Contact::Polygon(v) => (b"polygon", v),
    };
    out.extend_from_slice(b"{\"kind\":\"");
    out.extend_from_slice(name);
    out.extend_from_slice(b"\",\"points\":[");
    write_coords(out, pts, coord);
    out.extend_from_slice(b"]}");
}

/// Points as `[x,y,z]` arrays separated by commas, each coordinate written by
/// `coord`.
fn write_coords<'p>(
    out: &mut Vec<u8>,
    pts: impl IntoIterator<Item = &'p Vec3<BigRational>>,
    coord: impl Fn(&mut Vec<u8>, &BigRational),
) {
    for (i, p) in pts.into_iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        for (j, c) in [&p.x, &p.y, &p.z].into_iter().enumerate() {
            out.push(if j == 0 { b'[' } else { b',' });
            coord(out, c);
        }
        out.push(b']');
    }
}

/// The fields of a `contact` answer for meeting shapes after `intersect`
/// (as the general path's `contact_fields` and `round_answer` make them):
/// δ² and the translation and region rounded to the query's type, the
/// normals always exact (primitive integers), `depth_f64` and
/// `contact_f64` the nearest doubles.
fn write_penetration(out: &mut Vec<u8>, p: &Penetration, kind: ScalarKind) {
    let d2 = &p.depth_squared;
    out.extend_from_slice(b"\"depth_squared\":");
    write_value(out, d2, kind);
    out.extend_from_slice(b",\"depth_f64\":");
    write_float(out, sqrt_nearest_f64(d2));
    out.extend_from_slice(b",\"normal\":");
    write_point(out, p.normal(), ScalarKind::Exact);
    out.extend_from_slice(b",\"normals\":");
    write_points(out, &p.normals, ScalarKind::Exact);
    out.extend_from_slice(b",\"translation\":");
    write_point(out, &p.translation, kind);
    out.extend_from_slice(b",\"contact\":");
    write_region(out, &p.region, |out, c| write_value(out, c, kind));
    out.extend_from_slice(b",\"contact_f64\":");
    write_region(out, &p.region, |out, c| {
        write_float(out, f64::from_rational(c))
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `special`'s lowest flag is the first byte that is `"`, `\` or a
    /// control character (checked byte by byte), on random words made of
    /// those, their neighbours and UTF-8 bytes, and it flags nothing in a word
    /// of plain text.
    #[test]
    fn special_finds_the_first_special_byte() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let pool = [
            b'"', b'\\', 0x00, 0x1f, 0x20, 0x21, 0x23, 0x5b, 0x5d, 0x7f, 0x80, 0xc3, 0xa9, b'0',
            b'/', b'a', 0x01, 0xff,
        ];
        for _ in 0..200_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let c: [u8; 8] = std::array::from_fn(|k| pool[(seed >> (k * 5)) as usize % pool.len()]);
            let want = c.iter().position(|&x| x == b'"' || x == b'\\' || x < 0x20);
            let m = special(u64::from_le_bytes(c));
            let got = (m != 0).then(|| (m.trailing_zeros() / 8) as usize);
            assert_eq!(got, want, "{c:?}");
        }
    }

    /// The scanner takes strings with every kind of content up to the
    /// closing quote, refuses control characters, and skips escapes.
    #[test]
    fn scanner_strings() {
        let s = |t: &str| {
            Scan { s: t, i: 0 }
                .string()
                .map(|(x, e)| (x.to_string(), e))
        };
        assert_eq!(s(r#""""#), Some((String::new(), false)));
        assert_eq!(
            s(r#""abcdefghijklmnop" "#),
            Some(("abcdefghijklmnop".into(), false))
        );
        assert_eq!(
            s(r#""caf\u00e9 \"q\" é日本""#),
            Some((r#"caf\u00e9 \"q\" é日本"#.into(), true))
        );
        assert_eq!(s("\"abcdefgh\u{1}ijk\""), None);
        assert_eq!(s("\"abcdefghijk\tl\""), None);
        assert_eq!(s(r#""abcdefghijk\"#), None);
        assert_eq!(s(r#""abc"#), None);
    }
}
