//! The protocol's number forms (protocol.md, "Numbers").

use exact_collision::protocol::number::{exact_string, f64_companion, parse_exact, read_number};
use num_rational::BigRational;
use serde_json::Value;

fn json(s: &str) -> Value {
    serde_json::from_str(s).unwrap()
}

fn rat(n: &str, d: &str) -> BigRational {
    BigRational::new(n.parse().unwrap(), d.parse().unwrap())
}

#[test]
fn json_number_is_its_doubles_exact_value() {
    // 0.1 as a double is 3602879701896397 / 2^55, checked by hand:
    // 2^55 = 36028797018963968 and 0.1 · 2^55 = 3602879701896396.8, rounded up.
    let v = read_number(&json("0.1")).unwrap();
    assert_eq!(v, rat("3602879701896397", "36028797018963968"));
}

#[test]
fn json_string_is_an_exact_rational() {
    assert_eq!(read_number(&json("\"0.1\"")).unwrap(), rat("1", "10"));
    assert_ne!(
        read_number(&json("0.1")).unwrap(),
        read_number(&json("\"0.1\"")).unwrap()
    );
    assert_eq!(read_number(&json("\"3/7\"")).unwrap(), rat("3", "7"));
    assert_eq!(read_number(&json("\"-12\"")).unwrap(), rat("-12", "1"));
    assert_eq!(read_number(&json("\"1.5e-3\"")).unwrap(), rat("3", "2000"));
    assert_eq!(
        read_number(&json("\"1e400\"")).unwrap().to_string().len(),
        401
    );
}

#[test]
fn bad_numbers_are_errors() {
    for s in [
        "\"abc\"",
        "\"1/0\"",
        "\"NaN\"",
        "\"nan\"",
        "\"inf\"",
        "\"-Infinity\"",
        "1e400",
        "-1e400",
        "true",
        "null",
        "[1]",
    ] {
        let e = read_number(&json(s));
        assert!(e.is_err(), "{s} should be an error, got {e:?}");
    }
    assert!(read_number(&json("1e400"))
        .unwrap_err()
        .contains("not a finite double"));
    assert!(read_number(&json("\"1/0\""))
        .unwrap_err()
        .contains("zero denominator"));
}

#[test]
fn json_numbers_round_like_rust_parse() {
    // serde_json's default parser is not correctly rounded; the crate must be.
    // These decimal strings sit next to rounding boundaries.
    for s in [
        "2.2250738585072011e-308",
        "0.30000000000000004",
        "9007199254740993",
        "1.7976931348623157e308",
        "4.9406564584124654e-324",
        "2.4703282292062328e-324",
        "0.1000000000000000055511151231257827",
        "123456789012345678901234567890",
        "1.00000000000000011102230246251565404236316680908203125",
    ] {
        let v = read_number(&json(s)).unwrap();
        let want: f64 = s.parse().unwrap();
        assert_eq!(v, BigRational::from_float(want).unwrap_or_default(), "{s}");
    }
}

#[test]
fn exact_values_are_written_in_lowest_terms() {
    assert_eq!(exact_string(&rat("-14", "6")), "-7/3");
    assert_eq!(exact_string(&rat("10", "2")), "5");
    assert_eq!(exact_string(&rat("0", "9")), "0");
    assert_eq!(f64_companion(&rat("1", "3")), json("0.3333333333333333"));
    assert_eq!(
        f64_companion(&parse_exact("1e400").unwrap()),
        json("\"inf\"")
    );
    assert_eq!(
        f64_companion(&parse_exact("-1e400").unwrap()),
        json("\"-inf\"")
    );
    assert_eq!(f64_companion(&parse_exact("1e-400").unwrap()), json("0.0"));
}
