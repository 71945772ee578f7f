//! The protocol's two number forms, read exactly, and exact values written back.
//!
//! - A JSON number is the double nearest to its decimal text (Rust's correctly
//!   rounded `str::parse::<f64>`), and the input is that double's exact value.
//! - A JSON string is an exact rational: `"-12"`, `"0.1"` (= 1/10), `"1.5e-3"`,
//!   `"3/7"`. Exponents beyond ±10000 and strings over 10000 characters are errors.

use crate::scalar::{rational_to_f64, Scalar};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use serde_json::Value;

/// The longest exact string accepted.
pub const MAX_EXACT_LEN: usize = 10_000;
/// The largest exponent magnitude accepted in an exact string.
pub const MAX_EXPONENT: i64 = 10_000;

/// Parse the protocol's exact-string grammar.
///
/// ```
/// use exact_collision::number::parse_exact;
/// assert_eq!(parse_exact("0.1").unwrap().to_string(), "1/10");
/// assert_eq!(parse_exact("1.5e-3").unwrap().to_string(), "3/2000");
/// assert_eq!(parse_exact("-6/4").unwrap().to_string(), "-3/2");
/// assert!(parse_exact("1/0").is_err());
/// ```
pub fn parse_exact(s: &str) -> Result<BigRational, String> {
    if s.len() > MAX_EXACT_LEN {
        return Err(format!(
            "exact number longer than {MAX_EXACT_LEN} characters"
        ));
    }
    let bad = || {
        format!(
            "not a number: {:?} (expected an integer, decimal, scientific or p/q string)",
            short(s)
        )
    };
    let (neg, body) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|c| c.is_ascii_digit());
    let value = if let Some((p, q)) = body.split_once('/') {
        if !digits(p) || !digits(q) {
            return Err(bad());
        }
        let q: BigInt = q.parse().map_err(|_| bad())?;
        if q.is_zero() {
            return Err(format!("zero denominator in {:?}", short(s)));
        }
        BigRational::new(p.parse().map_err(|_| bad())?, q)
    } else {
        let (mant, exp) = match body.find(['e', 'E']) {
            Some(i) => (&body[..i], Some(&body[i + 1..])),
            None => (body, None),
        };
        let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
        let ok_part = |t: &str| t.bytes().all(|c| c.is_ascii_digit());
        if !ok_part(int) || !ok_part(frac) || int.len() + frac.len() == 0 {
            return Err(bad());
        }
        let mut e: i64 = 0;
        if let Some(x) = exp {
            let xd = x.strip_prefix(['+', '-']).unwrap_or(x);
            if !digits(xd) {
                return Err(bad());
            }
            // Leading zeros do not make an exponent large ("1e0000001" is 10).
            if xd.trim_start_matches('0').len() > 6 {
                return Err(format!("exponent beyond ±{MAX_EXPONENT} in {:?}", short(s)));
            }
            e = xd.trim_start_matches('0').parse().unwrap_or(0);
            if x.starts_with('-') {
                e = -e;
            }
            if e.abs() > MAX_EXPONENT {
                return Err(format!("exponent beyond ±{MAX_EXPONENT} in {:?}", short(s)));
            }
        }
        let all = format!("{int}{frac}");
        let m: BigInt = all.parse().map_err(|_| bad())?;
        let e = e - frac.len() as i64;
        let ten = BigInt::from(10);
        if e >= 0 {
            BigRational::from_integer(m * num_traits::pow(ten, e as usize))
        } else {
            BigRational::new(m, num_traits::pow(ten, (-e) as usize))
        }
    };
    Ok(if neg { -value } else { value })
}

fn short(s: &str) -> String {
    if s.len() > 40 {
        format!(
            "{}…",
            &s[..s.char_indices().nth(40).map_or(s.len(), |c| c.0)]
        )
    } else {
        s.to_string()
    }
}

/// Read a protocol number: a JSON number (its double's exact value) or an exact
/// string. Errors say what is wrong, without the field path (the caller adds it).
///
/// ```
/// use exact_collision::number::read_number;
/// let v: serde_json::Value = serde_json::from_str("0.1").unwrap();
/// assert_eq!(read_number(&v).unwrap().to_string(), "3602879701896397/36028797018963968");
/// ```
pub fn read_number(v: &Value) -> Result<BigRational, String> {
    match v {
        Value::Number(n) => {
            let text = n.to_string();
            let f: f64 = text
                .parse()
                .map_err(|_| format!("unreadable number {text}"))?;
            if !f.is_finite() {
                return Err(format!("number {text} is not a finite double"));
            }
            Ok(f.to_rational())
        }
        Value::String(s) => parse_exact(s),
        other => Err(format!("expected a number, got {}", kind(other))),
    }
}

/// A short name of a JSON value's kind, for error messages.
pub fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// An exact value as the protocol writes it: a lowest-terms string.
pub fn exact_string(r: &BigRational) -> String {
    // BigRational is kept reduced with a positive denominator; Display prints
    // "n" for integers and "n/d" otherwise.
    debug_assert!(r.denom() > &BigInt::zero());
    if r.denom().is_one() {
        r.numer().to_string()
    } else {
        format!("{}/{}", r.numer(), r.denom())
    }
}

/// The `_f64` companion of an exact value: the nearest double, or the strings
/// `"inf"` / `"-inf"` past the double range.
pub fn f64_companion(r: &BigRational) -> Value {
    float_value(rational_to_f64(r))
}

/// A double as JSON: a number, or `"inf"`/`"-inf"`/`"nan"` strings (JSON has none).
pub fn float_value(f: f64) -> Value {
    if f.is_finite() {
        serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)
    } else if f.is_nan() {
        Value::String("nan".into())
    } else if f > 0.0 {
        Value::String("inf".into())
    } else {
        Value::String("-inf".into())
    }
}

/// A scalar as the protocol writes it: an exact string on the exact path, a JSON
/// number (the rounded value) on the float paths.
pub fn scalar_value<S: Scalar>(s: &S) -> Value {
    if S::IS_EXACT {
        Value::String(exact_string(&s.to_rational()))
    } else {
        float_value(s.to_f64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(s: &str) -> String {
        exact_string(&parse_exact(s).unwrap())
    }

    #[test]
    fn grammar() {
        assert_eq!(r("3/7"), "3/7");
        assert_eq!(r("-12"), "-12");
        assert_eq!(r("1.5e-3"), "3/2000");
        assert_eq!(r("5."), "5");
        assert_eq!(r(".5"), "1/2");
        assert_eq!(r("+2E2"), "200");
        assert_eq!(r("-0"), "0");
        assert_eq!(r("6/4"), "3/2");
        for bad in [
            "abc", "1/0", "", ".", "-", "1e", "e5", "1.2.3", "1/2/3", "NaN", "inf", "0x10", "1 ",
            "1e+", "--1", "1/-2",
        ] {
            assert!(parse_exact(bad).is_err(), "{bad:?} should be rejected");
        }
        assert!(parse_exact("1e10001").is_err());
        assert!(parse_exact("1e-10001").is_err());
        assert!(parse_exact("1e400").is_ok());
        assert_eq!(r("1e0000001"), "10");
        assert_eq!(r("25e-000000000002"), "1/4");
        assert!(parse_exact("1e+0000010001").is_err());
        assert!(parse_exact(&"1".repeat(10_001)).is_err());
    }
}
