//! `exact-collision ccd QUERY.json [--plot out.svg]`: answer one `ccd` query and
//! draw seed 001's constraint functions over t.
//!
//! The plot shows, for each of the 30 Minkowski-sum planes, the signed distance
//! D_i(t) = min_b n̂·x − max_a n̂·x in box a's unit-cube frame (the paper's D_i up
//! to a positive factor): the boxes touch iff max_i D_i(t) ≤ 0. The upper envelope
//! is drawn bold, the contact times as vertical lines. The curves are evaluated in
//! floating point for drawing only; the times marked are the exact answer's.

use super::sgm::Sgm;
use super::{ccd, relative, CcdAnswer};
use crate::protocol::{answer_value, parse_query, Op};
use num_rational::BigRational;
use num_traits::ToPrimitive;
use serde_json::Value;
use std::fmt::Write as _;
use std::path::Path;

/// Answers the query in `file` (one JSON object), prints the answer line, and
/// writes the plot if asked. Returns whether the query was answered.
pub fn run(file: &Path, plot: Option<&Path>) -> std::io::Result<bool> {
    let text = std::fs::read_to_string(file)?;
    let v: Value = serde_json::from_str(&text)
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
    let a = answer_value(&v);
    println!("{}", a.value);
    if let Some(out) = plot {
        let q = match parse_query(&v).map(|q| q.op) {
            Ok(Op::Ccd(q)) => q,
            _ => {
                eprintln!("--plot needs a valid ccd query");
                return Ok(false);
            }
        };
        let Ok(rel) = relative(&q) else {
            return Ok(false);
        };
        let times: Vec<f64> = match ccd(&q) {
            Ok(CcdAnswer::Hit {
                t_enter, t_exit, ..
            }) => vec![t_enter.f64, t_exit.f64],
            _ => Vec::new(),
        };
        let svg = plot_svg(&Sgm::new(rel), &q.t_range.0, &q.t_range.1, &times);
        std::fs::write(out, svg)?;
    }
    Ok(a.ok)
}

/// The SVG text: constraint curves over [t0, t1], contact times marked.
pub fn plot_svg(sgm: &Sgm, t0: &BigRational, t1: &BigRational, times: &[f64]) -> String {
    const N: usize = 400;
    let (w, h, m) = (900.0, 500.0, 50.0);
    let f0 = t0.to_f64().unwrap_or(0.0);
    let f1 = t1.to_f64().unwrap_or(1.0);
    let ts: Vec<BigRational> = (0..=N)
        .map(|i| t0 + (t1 - t0) * BigRational::new((i as i64).into(), (N as i64).into()))
        .collect();
    let curves: Vec<Vec<f64>> = ts.iter().map(|t| sgm.gaps_f64(t)).collect();
    let k = curves.first().map_or(0, Vec::len);
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    for c in &curves {
        for &y in c {
            if y.is_finite() {
                lo = lo.min(y);
                hi = hi.max(y);
            }
        }
    }
    if !(lo.is_finite() && hi.is_finite()) || lo == hi {
        lo = -1.0;
        hi = 1.0;
    }
    lo = lo.min(0.0);
    hi = hi.max(0.0);
    let x = |t: f64| m + (t - f0) / (f1 - f0).max(f64::MIN_POSITIVE) * (w - 2.0 * m);
    let y = |v: f64| h - m - (v - lo) / (hi - lo) * (h - 2.0 * m);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
    let _ = writeln!(
        s,
        r##"<line x1="{}" y1="{:.2}" x2="{}" y2="{:.2}" stroke="#888"/>"##,
        m,
        y(0.0),
        w - m,
        y(0.0)
    );
    let _ = writeln!(
        s,
        r#"<text x="{m}" y="20">seed 001 constraints D_i(t) (signed gap along each Minkowski-sum plane); contact iff max D_i ≤ 0</text>"#
    );
    for i in 0..k {
        let pts: Vec<String> = curves
            .iter()
            .zip(&ts)
            .filter(|(c, _)| c[i].is_finite())
            .map(|(c, t)| format!("{:.2},{:.2}", x(t.to_f64().unwrap_or(0.0)), y(c[i])))
            .collect();
        let hue = (i * 360) / k.max(1);
        let _ = writeln!(
            s,
            r#"<polyline fill="none" stroke="hsl({hue},60%,55%)" stroke-width="0.8" points="{}"/>"#,
            pts.join(" ")
        );
    }
    let env: Vec<String> = curves
        .iter()
        .zip(&ts)
        .map(|(c, t)| {
            let v = c
                .iter()
                .copied()
                .filter(|v| v.is_finite())
                .fold(f64::NEG_INFINITY, f64::max);
            format!("{:.2},{:.2}", x(t.to_f64().unwrap_or(0.0)), y(v))
        })
        .collect();
    let _ = writeln!(
        s,
        r#"<polyline fill="none" stroke="black" stroke-width="2" points="{}"/>"#,
        env.join(" ")
    );
    for (j, &t) in times.iter().enumerate() {
        let label = if j == 0 { "t_enter" } else { "t_exit" };
        let _ = writeln!(
            s,
            r#"<line x1="{0:.2}" y1="{1}" x2="{0:.2}" y2="{2}" stroke="red" stroke-dasharray="4 3"/><text x="{0:.2}" y="{3}" fill="red">{label} ≈ {t:.6}</text>"#,
            x(t),
            m,
            h - m,
            m - 5.0 + 14.0 * j as f64
        );
    }
    let _ = writeln!(
        s,
        r#"<text x="{m}" y="{}">t = {f0}</text><text x="{}" y="{}">t = {f1}</text>"#,
        h - m + 20.0,
        w - m - 40.0,
        h - m + 20.0
    );
    s.push_str("</svg>\n");
    s
}
