//! Strict fields: every object of a query may hold only the fields the
//! contract defines for it, each key at most once.
//!
//! A field the contract does not define is an error naming it and, where one
//! is close (optimal string alignment distance, `strsim`), the known name it
//! was probably meant to be: `a.motoin: unknown field; did you mean "motion"?`.
//! A field the contract defines, but not for this object (`t_range` on an
//! `intersect` query, `center` on a triangle), is an error listing the
//! object's fields. Duplicate keys anywhere in a line are found by
//! [`duplicate_key`] before the line is read into a `Value` (which would keep
//! the last one silently).

use super::error::ParseError;
use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::cell::RefCell;

/// Fields of every query.
pub(super) const QUERY_COMMON: &[&str] = &["id", "op", "scalar", "claim", "meta", "category"];
/// The own fields of an `intersect` or `distance` query.
pub(super) const QUERY_STATIC: &[&str] = &["a", "b"];
/// The own fields of a `ccd` query.
pub(super) const QUERY_CCD: &[&str] = &["a", "b", "t_range", "tolerance"];
/// The own fields of a `ccd_vf` or `ccd_ee` query.
pub(super) const QUERY_POINTS: &[&str] = &["t0", "t1", "tolerance", "min_distance"];
/// The own fields of every op.
pub(super) const QUERY_OPS: &[&str] =
    &["a", "b", "t_range", "tolerance", "t0", "t1", "min_distance"];

/// The fields of a query whose op has the fields `own`.
pub(super) fn query_fields(own: &[&'static str]) -> Vec<&'static str> {
    QUERY_COMMON.iter().chain(own).copied().collect()
}

/// A triangle's fields.
pub(super) const TRIANGLE: &[&str] = &["type", "v", "rotation", "translation"];
/// A box's fields (its three forms: center + half_axes, center + axes +
/// half_extents, half_extents + rotation + translation).
pub(super) const BOX: &[&str] = &[
    "type",
    "center",
    "half_axes",
    "axes",
    "half_extents",
    "rotation",
    "translation",
];
/// A prism's fields.
pub(super) const PRISM: &[&str] = &["type", "base", "z"];
/// A cube's fields.
pub(super) const CUBE: &[&str] = &["type", "vertices"];
/// A sphere's fields.
pub(super) const SPHERE: &[&str] = &["type", "center", "radius"];
/// A capsule's fields.
pub(super) const CAPSULE: &[&str] = &["type", "a", "b", "radius"];
/// A convex hull's fields.
pub(super) const CONVEX: &[&str] = &["type", "points", "radius"];
/// Every shape field (of some type), and a moving box's.
pub(super) const SHAPE_ALL: &[&str] = &[
    "shape",
    "motion",
    "type",
    "v",
    "center",
    "half_axes",
    "axes",
    "half_extents",
    "rotation",
    "translation",
    "base",
    "z",
    "vertices",
];
/// A `ccd` query's moving box.
pub(super) const MOVING: &[&str] = &["shape", "motion"];
/// A MOTION's fields (both forms).
pub(super) const MOTION: &[&str] = &["matrix", "denominator", "quaternion", "translation"];
/// A claim's fields: the answer's field names (judged or not), the `_f64`
/// time claims and the tolerances.
pub(super) const CLAIM: &[&str] = &[
    "id",
    "intersect",
    "witness",
    "contact",
    "separating_axis",
    "distance_squared",
    "distance_squared_f64",
    "distance_f64",
    "closest",
    "closest_f64",
    "depth_f64",
    "depth_squared",
    "normal",
    "hit",
    "t_enter",
    "t_exit",
    "toi",
    "feature",
    "t_enter_f64",
    "t_exit_f64",
    "toi_f64",
    "abs_tol",
    "rel_tol",
];
/// A claimed time object (`t_enter`, `t_exit`, `toi`), as answers write it.
pub(super) const CLAIM_TIME: &[&str] = &["lo", "hi", "f64", "poly", "kind"];
/// A claimed `feature`.
pub(super) const CLAIM_FEATURE: &[&str] = &["kind", "a", "b", "degenerate"];
/// A claimed `contact` set.
pub(super) const CLAIM_CONTACT: &[&str] = &["kind", "points"];
/// A pose's rotation.
pub(super) const ROTATION: &[&str] = &["quaternion", "matrix"];

/// The known name nearest to `key`, if it is close enough to be a likely
/// misspelling (at most 2 edits, and at most half the longer name).
pub(super) fn nearest<'a>(key: &str, known: &[&'a str]) -> Option<&'a str> {
    let lower = key.to_ascii_lowercase();
    known
        .iter()
        .map(|k| (strsim::osa_distance(&lower, k), *k))
        .filter(|&(d, k)| d <= 2 && 2 * d <= k.len().max(lower.len()))
        .min_by_key(|&(d, _)| d)
        .map(|(_, k)| k)
}

/// Echo a query's `category` (when it is a string) and `meta` into its
/// answer `out` (after the id), on answers and errors alike.
pub(super) fn echo(query: &Value, out: &mut Map<String, Value>) {
    if let Some(o) = query.as_object() {
        if let Some(c) = o.get("category").filter(|c| c.is_string()) {
            out.insert("category".into(), c.clone());
        }
        if let Some(m) = o.get("meta") {
            out.insert("meta".into(), m.clone());
        }
    }
}

/// The path of `key` inside `path` (quoted where it is not a plain name).
fn key_path(path: &str, key: &str) -> String {
    let plain = !key.is_empty()
        && key
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'-');
    let k = if plain {
        key.to_string()
    } else {
        serde_json::to_string(key).unwrap_or_default()
    };
    if path.is_empty() {
        k
    } else {
        format!("{path}.{k}")
    }
}

/// Every key of `o` must be in `allowed` (the fields of `what`, e.g. "a
/// triangle"); `all` is the wider family (every shape field, every query
/// field) whose other members get "not a field of …" instead of "unknown".
pub(super) fn check(
    o: &Map<String, Value>,
    path: &str,
    allowed: &[&str],
    all: &[&str],
    what: &str,
) -> Result<(), ParseError> {
    for k in o.keys() {
        if allowed.contains(&k.as_str()) {
            continue;
        }
        let defect = if all.contains(&k.as_str()) {
            format!("not a field of {what} (its fields: {})", allowed.join(", "))
        } else {
            match nearest(k, allowed).or_else(|| nearest(k, all)) {
                Some(n) => format!("unknown field; did you mean {n:?}?"),
                None if path.is_empty() => format!(
                    "unknown field (the fields of {what}: {}; free-form data goes in \"meta\")",
                    allowed.join(", ")
                ),
                None => format!(
                    "unknown field (the fields of {what}: {})",
                    allowed.join(", ")
                ),
            }
        };
        return Err(ParseError {
            path: key_path(path, k),
            defect,
        });
    }
    Ok(())
}

/// The first duplicate key in the JSON text `line` (already known to be
/// valid JSON), as `"path: duplicate key"`; `None` when every object's keys
/// are distinct.
pub(super) fn duplicate_key(line: &str) -> Option<String> {
    let walk = Walk {
        stack: RefCell::new(Vec::new()),
        found: RefCell::new(None),
    };
    let mut de = serde_json::Deserializer::from_str(line);
    // Errors are either the duplicate (recorded in `found`) or the nesting
    // limit, which the caller's own parse has already passed.
    let _ = (&walk).deserialize(&mut de);
    walk.found.into_inner()
}

/// One step of the path to the value being walked.
enum Step {
    Key(String),
    Index(usize),
}

/// The walk's state: the path to the current value (built into a string
/// only when a duplicate is found) and the duplicate's description.
struct Walk {
    stack: RefCell<Vec<Step>>,
    found: RefCell<Option<String>>,
}

impl Walk {
    fn path(&self) -> String {
        let mut p = String::new();
        for s in self.stack.borrow().iter() {
            match s {
                Step::Key(k) => p = key_path(&p, k),
                Step::Index(i) => p.push_str(&format!("[{i}]")),
            }
        }
        p
    }
}

impl<'de> DeserializeSeed<'de> for &Walk {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for &Walk {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        self.stack.borrow_mut().push(Step::Index(0));
        let mut i = 0;
        loop {
            if let Some(Step::Index(top)) = self.stack.borrow_mut().last_mut() {
                *top = i;
            }
            if seq.next_element_seed(self)?.is_none() {
                break;
            }
            i += 1;
        }
        self.stack.borrow_mut().pop();
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen: Vec<String> = Vec::new();
        while let Some(k) = map.next_key::<String>()? {
            // (A number's text under `arbitrary_precision` is a map of one
            // key, walked like any other: its value is a string.)
            if seen.contains(&k) {
                let path = key_path(&self.path(), &k);
                *self.found.borrow_mut() = Some(format!("{path}: duplicate key"));
                return Err(serde::de::Error::custom("duplicate key"));
            }
            self.stack.borrow_mut().push(Step::Key(k.clone()));
            map.next_value_seed(self)?;
            self.stack.borrow_mut().pop();
            seen.push(k);
        }
        Ok(())
    }
}
