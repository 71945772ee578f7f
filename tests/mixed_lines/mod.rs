//! A generated query file that mixes every op, both number forms, the
//! `scalar` kinds, ids of every JSON kind and bad lines of many sorts: the
//! input of the tests that compare the lean line path with the general path
//! (tests/protocol.rs) and the parallel program with the sequential one
//! (tests/cli.rs).

// Each test binary uses a part.
#![allow(dead_code)]

/// A small deterministic generator (64-bit LCG, high bits).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407))
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len())]
    }

    /// A double in [-2, 2) with a random number of bits.
    pub fn double(&mut self) -> f64 {
        let bits = [1, 4, 20, 53][self.below(4)];
        let m = (self.next() << 31 | self.next()) & ((1u64 << bits) - 1);
        (m as f64 / (1u64 << bits) as f64) * 4.0 - 2.0
    }
}

/// One coordinate near `c`, written in one of the protocol's forms.
fn num(r: &mut Rng, c: f64) -> String {
    let x = c + r.double() * 0.5;
    match r.below(12) {
        0 => format!("{:e}", x),                     // 1.5e0, -2.5e-1
        1 => format!("{x:E}"),                       // 1.5E0, -2.5E-1
        2 => format!("\"{x}\""),                     // exact decimal string
        3 => format!("\"{}/3\"", (x * 3.0).round()), // not a double
        4 => format!("{}", (x * 4.0).round() / 4.0), // 0.25, -1, 1.5 …
        5 => format!("{}.0", x.round()),             // 1.0, -0.0
        6 => format!("{x:.25}"),                     // more digits than a double has
        _ => format!("{x:?}"),                       // the shortest round trip
    }
}

fn point(r: &mut Rng, c: [f64; 3]) -> String {
    format!("[{},{},{}]", num(r, c[0]), num(r, c[1]), num(r, c[2]))
}

/// Half-axes as exact, non-degenerate-looking vectors (now and then degenerate).
fn half_axes(r: &mut Rng) -> String {
    let d = |r: &mut Rng| {
        r.pick(&["0.5", "1", "0.25", "\"1/3\"", "0.75", "2"])
            .to_string()
    };
    match r.below(3) {
        0 => format!("[[{},0,0],[0,{},0],[0,0,{}]]", d(r), d(r), d(r)),
        1 => format!("[[{},{},0],[-0.5,0.5,0],[0,0,{}]]", d(r), d(r), d(r)),
        _ => format!(
            "[{},{},{}]",
            point(r, [0.5, 0.0, 0.0]),
            point(r, [0.0, 0.5, 0.0]),
            point(r, [0.0, 0.0, 0.5])
        ),
    }
}

/// A SHAPE near `c`.
pub fn shape(r: &mut Rng, kind: usize, c: [f64; 3]) -> String {
    match kind {
        0 => format!(
            r#"{{"type":"triangle","v":[{},{},{}]}}"#,
            point(r, c),
            point(r, c),
            point(r, c)
        ),
        1 => format!(
            r#"{{"type":"box","center":{},"half_axes":{}}}"#,
            point(r, c),
            half_axes(r)
        ),
        5 => format!(
            r#"{{"type":"box","half_extents":[{},{},{}],"rotation":{},"translation":{}}}"#,
            r.pick(&["0.5", "1", "\"1/3\"", "2"]),
            r.pick(&["0.5", "1", "0.25", "0"]),
            r.pick(&["0.5", "1", "0.75"]),
            r.pick(&[
                r#"{"quaternion":[1,0,0,0]}"#,
                r#"{"quaternion":[0.9238795325112867,0,0,0.3826834323650898]}"#,
                r#"{"quaternion":[1,2,"1/3",-0.5]}"#,
                r#"{"matrix":[[0,-1,0],[1,0,0],[0,0,1]]}"#,
                r#"{"matrix":[[1,0.5,0],[0,1,0],[0,"1/3",2]]}"#,
            ]),
            point(r, c),
        ),
        2 => format!(
            r#"{{"type":"box","center":{},"axes":[[1,1,0],[-1,1,0],[0,0,{}]],"half_extents":[{},{},{}]}}"#,
            point(r, c),
            r.pick(&["1", "2", "0.1", "\"1/3\""]),
            r.pick(&["0.5", "\"1/3\"", "0.1", "1"]),
            r.pick(&["0.5", "0.3", "1", "2", "0.7", "0"]),
            r.pick(&["0.5", "2", "1e-3", "3", "0.25", "-1"]),
        ),
        3 => {
            let (x, y) = (c[0], c[1]);
            format!(
                r#"{{"type":"prism","base":[[{},{}],[{},{}],[{},{}],[{},{}]],"z":[{},{}]}}"#,
                num(r, x - 2.0),
                num(r, y - 2.0),
                num(r, x + 2.0),
                num(r, y - 2.0),
                num(r, x + 2.0),
                num(r, y + 2.0),
                num(r, x - 2.0),
                num(r, y + 2.0),
                c[2] - 0.5,
                c[2] + r.double().abs(),
            )
        }
        _ => {
            // A parallelepiped from a corner a and edges u, v, w (small dyadics,
            // so the vertices are exact in every form), in the protocol's order.
            let a = [c[0].round(), c[1].round(), c[2].round()];
            let e = [[1.0, 0.0, 0.0], [0.5, 1.0, 0.0], [0.0, 0.25, 1.5]];
            let mut vs = Vec::new();
            for (i, j, k) in [
                (0, 0, 0),
                (1, 0, 0),
                (1, 1, 0),
                (0, 1, 0),
                (0, 0, 1),
                (1, 0, 1),
                (1, 1, 1),
                (0, 1, 1),
            ] {
                let p: Vec<String> = (0..3)
                    .map(|d| {
                        let x = a[d] + i as f64 * e[0][d] + j as f64 * e[1][d] + k as f64 * e[2][d];
                        if r.below(4) == 0 {
                            format!("\"{x}\"")
                        } else {
                            format!("{x:?}")
                        }
                    })
                    .collect();
                vs.push(format!("[{}]", p.join(",")));
            }
            format!(r#"{{"type":"cube","vertices":[{}]}}"#, vs.join(","))
        }
    }
}

/// Ids of every JSON kind, as written.
pub const IDS: &[&str] = &[
    "7",
    "-0",
    "0",
    "12345678901234567890123",
    "-9223372036854775809",
    "1e400",
    "1E5",
    "2.50",
    "-1.5e-7",
    r#""plain""#,
    r#""caf\u00e9""#,
    r#""é ü 日本""#,
    r#""esc\"aped\\ \/ \n""#,
    r#""\ud83d\ude00""#,
    "true",
    "false",
    "null",
    "[]",
    r#"[1,"two",[3.0e1]]"#,
    r#"{"a":{"b":[1,{"c":null}]},"a2":-0.0}"#,
    r#"{"k":1,"k":2}"#,
    r#"{ "spaced" : [ 1 , 2 ] }"#,
];

/// A well-formed `intersect` / `distance` line (most) or a `ccd*` line.
fn query(r: &mut Rng) -> String {
    let id = match r.below(5) {
        0 => String::new(),
        _ => format!(r#""id":{},"#, r.pick(IDS)),
    };
    let scalar = match r.below(8) {
        0 => r#","scalar":"exact""#,
        1 => r#","scalar":"f64""#,
        2 => r#","scalar":"f32""#,
        _ => "",
    };
    match r.below(20) {
        0 => {
            return format!(
                r#"{{{id}"op":"ccd_vf"{scalar},"t0":[[0.25,0.25,1],[0,0,0],[1,0,0],[0,1,0]],"t1":[[0.25,0.25,{}],[0,0,0],[1,0,0],[0,1,0]]}}"#,
                r.pick(&["-2", "\"-1/3\"", "0.5", "1e-300"])
            )
        }
        1 => {
            return format!(
                r#"{{{id}"op":"ccd_ee"{scalar},"t0":[[0,0,1],[1,0,1],[0.5,-1,0],[0.5,1,0]],"t1":[[0,0,{}],[1,0,-1],[0.5,-1,0],[0.5,1,0]]}}"#,
                r.pick(&["-1", "\"1/7\"", "2"])
            )
        }
        2 => {
            return format!(
                r#"{{{id}"op":"ccd"{scalar},"a":{{"shape":{{"type":"box","center":[0,0,0],"half_axes":[[1,0,0],[0,1,0],[0,0,1]]}}}},"b":{{"shape":{{"type":"box","center":[0,0,0],"half_axes":[[1,0,0],[0,1,0],[0,0,1]]}},"motion":{{"matrix":[[1,0,0],[0,1,0],[0,0,1],[["{}","-2"],0,0]]}}}}}}"#,
                r.pick(&["4", "5", "3"])
            )
        }
        _ => {}
    }
    // Box and prism distances go through the exhaustive path (slow): few.
    let op = if r.below(3) == 0 {
        "distance"
    } else {
        "intersect"
    };
    let (ka, kb) = if op == "distance" && r.below(4) != 0 {
        (0, 0)
    } else {
        (r.below(5), r.below(5))
    };
    // Now and then a box by pose (the draw is separate, so the other lines
    // stay those of the earlier generator).
    let ka = if ka == 1 && r.below(3) == 0 { 5 } else { ka };
    let gap = [r.double() * 2.0, r.double(), r.double()];
    let (a, b) = (shape(r, ka, [0.0; 3]), shape(r, kb, gap));
    let (a, b) = if r.below(2) == 0 { (a, b) } else { (b, a) };
    format!(r#"{{{id}"op":"{op}"{scalar},"a":{a},"b":{b}}}"#)
}

/// A well-formed `contact` line: mostly boxes of every form and cubes near
/// each other (most meet: the float-guided box contact), now and then a
/// triangle or a prism (the exact reference), apart pairs too.
fn contact_query(r: &mut Rng) -> String {
    let id = match r.below(5) {
        0 => String::new(),
        _ => format!(r#""id":{},"#, r.pick(IDS)),
    };
    let scalar = match r.below(6) {
        0 => r#","scalar":"exact""#,
        1 => r#","scalar":"f64""#,
        2 => r#","scalar":"f32""#,
        _ => "",
    };
    let kind = |r: &mut Rng| match r.below(10) {
        0 => 0,
        1 => 3,
        2 | 3 => 2,
        4 => 4,
        5 | 6 => 5,
        _ => 1,
    };
    let (ka, kb) = (kind(r), kind(r));
    let spread = if r.below(4) == 0 { 2.0 } else { 0.5 };
    let gap = [
        r.double() * spread,
        r.double() * spread,
        r.double() * spread,
    ];
    let (a, b) = (shape(r, ka, [0.0; 3]), shape(r, kb, gap));
    format!(r#"{{{id}"op":"contact"{scalar},"a":{a},"b":{b}}}"#)
}

/// `n` `contact` lines (without line breaks), spoiled as [`mixed_lines`]'
/// queries are.
pub fn contact_lines(seed: u64, n: usize) -> Vec<Vec<u8>> {
    let mut r = Rng::new(seed);
    (0..n)
        .map(|_| {
            let q = contact_query(&mut r);
            spoil(&mut r, q)
        })
        .collect()
}

/// One of many ways to spoil a line (or keep it), as bytes.
fn spoil(r: &mut Rng, line: String) -> Vec<u8> {
    let mut s = line;
    match r.below(80) {
        0 => s.truncate(s.len() / 2),
        1 => s.push_str(" x"),
        2 => s = s.replacen(r#""op""#, r#""op":"distance","op""#, 1),
        3 => s = s.replacen('{', r#"{"note":"extra","#, 1),
        4 => s = s.replacen(r#""type""#, r#""colour":"red","type""#, 1),
        5 => s = s.replacen(r#""triangle""#, r#""tri\u0061ngle""#, 1),
        6 => s = s.replacen(r#""op""#, r#""\u006fp""#, 1),
        7 => s = s.replacen("[", "[true,", 1),
        8 => s = s.replacen(",", ",\"v\":null,", 1),
        9 => s = s.replacen(r#""a":"#, r#""a":null,"b2":"#, 1),
        10 => s = format!("[{s}]"),
        11 => {
            s = s
                .replacen(r#""a":{"#, r#""a":[{"#, 1)
                .replacen(r#","b":"#, r#"],"b":"#, 1)
        }
        12 => s = s.replacen("0.5", "1e400", 1),
        13 => s = s.replacen("0.5", r#""1/0""#, 1),
        14 => s = s.replacen("0.5", r#""\u0031""#, 1),
        15 => s = s.replacen("0.5", "-", 1),
        16 => s = s.replacen("0.5", "05", 1),
        17 => s = s.replacen(r#""scalar":"#, r#""scalar":5,"s":"#, 1),
        18 => s = s.replacen('{', r#"{"claim":{"intersect":true},"#, 1),
        19 => {
            s = s.replacen(
                '{',
                &format!(r#"{{"deep":{}1{},"#, "[".repeat(130), "]".repeat(130)),
                1,
            )
        }
        20 => s = s.replacen('{', r#"{"scalar":"F64","#, 1),
        21 => s = s.replacen(r#""half_axes""#, r#""axes""#, 1),
        22 => s = s.replacen(r#""center""#, r#""centre""#, 1),
        23 => s = s.replacen(":", " : ", 3).replacen(',', " ,\t", 2),
        24 => s = s.replacen(r#""v":["#, r#""v":[[0,0,0],"#, 1),
        25 => s = s.replacen(r#""op":"intersect""#, r#""op":"touch""#, 1),
        26 => s = s.replacen('{', r#"{"id":1,"#, 1),
        27 => s = s.replacen("]]", "]],\"z\":[0]", 1),
        28 => s = s.replacen("0.25", "\"0.25\"", 3),
        // Strict fields, meta and category, poses.
        29 => s = s.replacen('{', r#"{"meta":{"run":[1,"x"],"k":null},"#, 1),
        30 => s = s.replacen('{', r#"{"category":"near-touching","#, 1),
        31 => s = s.replacen('{', r#"{"category":7,"#, 1),
        32 => s = s.replacen(r#""op""#, r#""t_range":[0,1],"op""#, 1),
        33 => s = s.replacen(r#""op""#, r#""motoin":null,"op""#, 1),
        34 => s = s.replacen(r#""type""#, r#""motion":null,"type""#, 1),
        35 => {
            s = s.replacen(
                r#""half_axes""#,
                r#""rotation":{"quaternion":[1,0,0,0]},"half_axes""#,
                1,
            )
        }
        36 => {
            s = s.replacen(
                r#""v":["#,
                r#""rotation":{"quaternion":[0.5,-0.5,"1/2",2]},"translation":[1,0,"1/3"],"v":["#,
                1,
            )
        }
        37 => {
            s = s.replacen(
                r#""v":["#,
                r#""rotation":{"matrix":[[1,2,0],[0,1,0],[0,0,1]]},"v":["#,
                1,
            )
        }
        38 => {
            s = s.replacen(
                r#""v":["#,
                r#""rotation":{"quaternion":[0,0,0,0]},"v":["#,
                1,
            )
        }
        39 => {
            s = s.replacen(
                r#""v":["#,
                r#""rotation":{"quaternoin":[1,0,0,0]},"v":["#,
                1,
            )
        }
        40 => s = s.replacen(r#""matrix""#, r#""translation":[0,0,0],"matrix""#, 1),
        41 => s = s.replacen('{', r#"{"claim":{"intersect":true,"tolerence":1},"#, 1),
        42 => s = s.replacen(r#""v":["#, r#""v":[[0,0,0],[0,0,0],[0,0,0]],"v":["#, 1),
        _ => {}
    }
    let mut b = s.into_bytes();
    match r.below(30) {
        0 => b.push(b'\r'),
        1 => b.splice(0..0, "\u{feff}".bytes()).for_each(drop),
        2 => b.splice(0..0, [0xff, 0xfe]).for_each(drop),
        3 => b.insert(b.len() / 2, 0x80),
        _ => {}
    }
    b
}

/// A well-formed line (before any spoiling), for looking at what a test saw.
pub fn good_line(seed: u64) -> String {
    query(&mut Rng::new(seed))
}

/// `n` lines (without line breaks): queries, spoiled ones, and blank lines.
pub fn mixed_lines(seed: u64, n: usize) -> Vec<Vec<u8>> {
    let mut r = Rng::new(seed);
    (0..n)
        .map(|_| match r.below(25) {
            0 => Vec::new(),
            1 => b" \t ".to_vec(),
            2 => b"{".to_vec(),
            3 => b"42".to_vec(),
            _ => {
                let q = query(&mut r);
                spoil(&mut r, q)
            }
        })
        .collect()
}
