//! Every op and shape kind of the protocol, as lines built from the bytes:
//! `intersect`, `distance`, `contact`, `ccd`, `ccd_vf`, `ccd_ee`; triangles (plain and
//! posed), boxes in their three forms (half-axes, axes and half-extents, by
//! pose with a quaternion or a matrix), prisms and cubes; scalar exact, f64 or
//! f32. Each line is answered by the program's path (the lean scanner, whose
//! lines of doubles take the f64 fast paths: `query::intersect_exact`,
//! `distance_exact`, `ccd::points::first_contact_f64`) and by the general
//! path (the shapes read as rationals, answered by the exhaustive exact
//! path), which must give the same bytes; an answer is one JSON object, an
//! error exactly when not ok. For `intersect` and `distance` the other op and
//! `contact` are answered too: the shapes intersect exactly when the distance
//! is 0, and `contact` decides the same.
//!
//! The numbers are quarter-grid values in [−4, 4) (ties and touching contacts
//! are common on the grid), such a value nudged by ±2⁻ᵏ (k in 10..=52: just
//! off a tie, where a float filter is the most likely to be unable to
//! decide), or a double with its binary exponent folded into [−16, 16] (the
//! exhaustive path's cost grows with the exponent range, docs/limits.md).
#![no_main]
use exact_collision::protocol::{answer_bytes, answer_bytes_general};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        let (b, rest) = self.0.split_first().map_or((0, &[][..]), |(b, r)| (*b, r));
        self.0 = rest;
        b
    }
    fn grid(&mut self) -> f64 {
        ((self.byte() & 0x1f) as f64 - 16.0) / 4.0
    }
    fn f64(&mut self) -> f64 {
        let t = self.byte();
        match t >> 6 {
            0 | 1 => ((t & 0x1f) as f64 - 16.0) / 4.0,
            2 => {
                let g = ((t & 0x1f) as f64 - 16.0) / 4.0;
                let k = 10 + (self.byte() % 43) as i32;
                let s = if t & 0x20 == 0 { 1.0 } else { -1.0 };
                g + s * 2f64.powi(-k)
            }
            _ => {
                let mut b = [0u8; 8];
                for x in &mut b {
                    *x = self.byte();
                }
                let bits = u64::from_le_bytes(b);
                let exp = ((bits >> 52) & 0x7ff) % 33; // 0..=32
                f64::from_bits((bits & !(0x7ff << 52)) | ((1023 + exp - 16) << 52))
            }
        }
    }
    fn num(&mut self) -> String {
        num(self.f64())
    }
    fn v3(&mut self) -> String {
        format!("[{},{},{}]", self.num(), self.num(), self.num())
    }
    fn small(&mut self) -> String {
        // A small integer (quaternion components, polynomial coefficients).
        ((self.byte() % 9) as i32 - 4).to_string()
    }
    fn rotation(&mut self) -> String {
        if self.byte() & 1 == 0 {
            let q: Vec<String> = (0..4).map(|_| self.small()).collect();
            format!(r#"{{"quaternion":[{}]}}"#, q.join(","))
        } else {
            format!(
                r#"{{"matrix":[{},{},{}]}}"#,
                self.v3(),
                self.v3(),
                self.v3()
            )
        }
    }
    fn shape(&mut self, kind: u8) -> String {
        match kind % 7 {
            0 => format!(
                r#"{{"type":"triangle","v":[{},{},{}]}}"#,
                self.v3(),
                self.v3(),
                self.v3()
            ),
            1 => format!(
                r#"{{"type":"triangle","v":[{},{},{}],"rotation":{},"translation":{}}}"#,
                self.v3(),
                self.v3(),
                self.v3(),
                self.rotation(),
                self.v3()
            ),
            2 => format!(
                r#"{{"type":"box","center":{},"half_axes":[{},{},{}]}}"#,
                self.v3(),
                self.v3(),
                self.v3(),
                self.v3()
            ),
            3 => format!(
                r#"{{"type":"box","center":{},"axes":[{},{},{}],"half_extents":{}}}"#,
                self.v3(),
                self.v3(),
                self.v3(),
                self.v3(),
                self.v3()
            ),
            4 => format!(
                r#"{{"type":"box","half_extents":{},"rotation":{},"translation":{}}}"#,
                self.v3(),
                self.rotation(),
                self.v3()
            ),
            5 => {
                let base: Vec<String> = (0..4)
                    .map(|_| format!("[{},{}]", self.num(), self.num()))
                    .collect();
                format!(
                    r#"{{"type":"prism","base":[{}],"z":[{},{}]}}"#,
                    base.join(","),
                    self.num(),
                    self.num()
                )
            }
            _ => {
                // A parallelepiped on the grid (exact sums), or, one time in
                // four, eight free vertices (mostly an error).
                if self.byte() & 3 == 0 {
                    let v: Vec<String> = (0..8).map(|_| self.v3()).collect();
                    return format!(r#"{{"type":"cube","vertices":[{}]}}"#, v.join(","));
                }
                let mut g3 = || [self.grid(), self.grid(), self.grid()];
                let (a, u, v, w) = (g3(), g3(), g3(), g3());
                let p = |cu: f64, cv: f64, cw: f64| {
                    let c: Vec<String> = (0..3)
                        .map(|i| num(a[i] + cu * u[i] + cv * v[i] + cw * w[i]))
                        .collect();
                    format!("[{}]", c.join(","))
                };
                let vs = [
                    p(0., 0., 0.),
                    p(1., 0., 0.),
                    p(1., 1., 0.),
                    p(0., 1., 0.),
                    p(0., 0., 1.),
                    p(1., 0., 1.),
                    p(1., 1., 1.),
                    p(0., 1., 1.),
                ];
                format!(r#"{{"type":"cube","vertices":[{}]}}"#, vs.join(","))
            }
        }
    }
    fn poly(&mut self) -> String {
        // Constant or linear in t.
        if self.byte() & 1 == 0 {
            self.num()
        } else {
            format!("[{},{}]", self.num(), self.small())
        }
    }
    fn motion(&mut self) -> String {
        match self.byte() % 3 {
            0 => "null".into(),
            1 => {
                // A translation linear in t; the rotation block the
                // identity or a quarter turn about z.
                let r = if self.byte() & 1 == 0 {
                    "[1,0,0],[0,1,0],[0,0,1]"
                } else {
                    "[0,1,0],[-1,0,0],[0,0,1]"
                };
                let t = format!("[{},{},{}]", self.poly(), self.poly(), self.poly());
                format!(r#"{{"matrix":[{r},{t}]}}"#)
            }
            _ => {
                let q: Vec<String> = (0..4)
                    .map(|_| {
                        if self.byte() & 1 == 0 {
                            self.small()
                        } else {
                            format!("[{},{}]", self.small(), self.small())
                        }
                    })
                    .collect();
                format!(
                    r#"{{"quaternion":[{}],"translation":[{},{},{}]}}"#,
                    q.join(","),
                    self.poly(),
                    self.poly(),
                    self.poly()
                )
            }
        }
    }
    fn points(&mut self) -> String {
        let p: Vec<String> = (0..4).map(|_| self.v3()).collect();
        format!("[{}]", p.join(","))
    }
}

fn num(x: f64) -> String {
    serde_json::Number::from_f64(x).map_or("0".into(), |n| n.to_string())
}

/// The program's answer and the general path's: the same bytes, one object.
fn answer(line: &str) -> Value {
    let mut lean = Vec::new();
    let ok = answer_bytes(line.as_bytes(), 1, &mut lean).ok;
    let mut general = Vec::new();
    let g = answer_bytes_general(line.as_bytes(), 1, &mut general);
    assert_eq!(
        String::from_utf8_lossy(&lean),
        String::from_utf8_lossy(&general),
        "lean (fast) and general (exact) paths differ on {line}"
    );
    assert_eq!(ok, g.ok);
    let v: Value = serde_json::from_slice(&lean).expect("one JSON object");
    assert_eq!(v.get("error").is_some(), !ok, "{line}: {v}");
    v
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes(data);
    let sel = b.byte();
    let scalar = match (sel >> 3) & 3 {
        0 => "",
        1 => r#","scalar":"exact""#,
        2 => r#","scalar":"f64""#,
        _ => r#","scalar":"f32""#,
    };
    match sel % 5 {
        op @ (0 | 1) => {
            let kinds = b.byte();
            let (x, y) = (b.shape(kinds), b.shape(kinds / 7));
            let line = |op: &str| format!(r#"{{"op":"{op}","a":{x},"b":{y}{scalar}}}"#);
            let (i, d) = if op == 0 {
                (answer(&line("intersect")), answer(&line("distance")))
            } else {
                let d = answer(&line("distance"));
                (answer(&line("intersect")), d)
            };
            // `distance_f64` is the double nearest the exact distance (on every
            // scalar path), 0 exactly when the distance is: `distance_squared`
            // rounded to f32 can flush a positive distance to 0.
            if let (Some(hit), Some(d)) = (i.get("intersect"), d.get("distance_f64")) {
                let zero = d.as_f64().expect("distance_f64 is a number") == 0.0;
                assert_eq!(hit.as_bool(), Some(zero), "intersect {i} vs distance {d}");
            }
            // `contact` decides as `intersect` does, and has a depth exactly
            // when the shapes meet.
            let c = answer(&line("contact"));
            if let (Some(hit), Some(ch)) = (i.get("intersect"), c.get("intersect")) {
                assert_eq!(hit, ch, "intersect {i} vs contact {c}");
                assert_eq!(
                    c.get("depth_f64").is_some(),
                    hit.as_bool() == Some(true),
                    "{c}"
                );
            }
        }
        2 => {
            let kinds = b.byte();
            // Boxes in their three forms and cubes.
            let k = |c: u8| [2, 3, 4, 6][(c % 4) as usize];
            let (x, y) = (b.shape(k(kinds)), b.shape(k(kinds >> 2)));
            let (mx, my) = (b.motion(), b.motion());
            answer(&format!(
                r#"{{"op":"ccd","a":{{"shape":{x},"motion":{mx}}},"b":{{"shape":{y},"motion":{my}}}{scalar}}}"#
            ));
        }
        op => {
            let name = if op == 3 { "ccd_vf" } else { "ccd_ee" };
            let (t0, t1) = (b.points(), b.points());
            answer(&format!(r#"{{"op":"{name}","t0":{t0},"t1":{t1}{scalar}}}"#));
        }
    }
});
