//! A drawing of the Minkowski-sum constraint functions (Albocher et al.) over t,
//! for `exact-collision ccd --plot`.
//!
//! The plot shows, for each of the 30 Minkowski-sum planes, the signed distance
//! D_i(t) = min_b n̂·x − max_a n̂·x in box a's unit-cube frame (the paper's D_i up
//! to a positive factor): the boxes touch iff max_i D_i(t) ≤ 0. The upper envelope
//! is drawn bold, the contact times as vertical lines. The curves are evaluated in
//! floating point for drawing only; the times marked are the exact answer's. The
//! drawing is done by the `plotters` crate (SVG backend only, no font files).

use super::sgm::Sgm;
use num_rational::BigRational;
use num_traits::ToPrimitive;
use plotters::prelude::*;

/// The SVG text (drawn with `plotters`' SVG backend): constraint curves over
/// [t0, t1], their upper envelope in bold, contact times as dashed red lines.
pub fn plot_svg(sgm: &Sgm, t0: &BigRational, t1: &BigRational, times: &[f64]) -> String {
    const N: usize = 400;
    let f0 = t0.to_f64().unwrap_or(0.0);
    let f1 = t1.to_f64().unwrap_or(1.0);
    let ts: Vec<(f64, Vec<f64>)> = (0..=N)
        .map(|i| {
            let t = t0 + (t1 - t0) * BigRational::new((i as i64).into(), (N as i64).into());
            (t.to_f64().unwrap_or(0.0), sgm.gaps_f64(&t))
        })
        .collect();
    let k = ts.first().map_or(0, |c| c.1.len());
    let finite = || {
        ts.iter()
            .flat_map(|c| c.1.iter().copied())
            .filter(|y| y.is_finite())
    };
    let (mut lo, mut hi) = (
        finite().fold(f64::INFINITY, f64::min).min(0.0),
        finite().fold(f64::NEG_INFINITY, f64::max).max(0.0),
    );
    if !(lo.is_finite() && hi.is_finite()) || lo == hi {
        (lo, hi) = (-1.0, 1.0);
    }
    let pad = 0.05 * (hi - lo);
    let (x_hi, y_range) = (if f1 > f0 { f1 } else { f0 + 1.0 }, lo - pad..hi + pad);
    let mut s = String::new();
    {
        let root = SVGBackend::with_string(&mut s, (900, 520)).into_drawing_area();
        // Drawing into a String cannot fail on I/O; the results are checked anyway.
        let draw = || -> Result<(), Box<dyn std::error::Error + '_>> {
            root.fill(&WHITE)?;
            let mut chart = ChartBuilder::on(&root)
                .caption(
                    "Minkowski-sum plane constraints D_i(t): contact iff max D_i ≤ 0",
                    ("sans-serif", 18),
                )
                .margin(12)
                .x_label_area_size(36)
                .y_label_area_size(60)
                .build_cartesian_2d(f0..x_hi, y_range.clone())?;
            chart
                .configure_mesh()
                .x_desc("t")
                .y_desc("signed gap D_i")
                .draw()?;
            for i in 0..k {
                let color = HSLColor(i as f64 / k.max(1) as f64, 0.6, 0.55);
                chart.draw_series(LineSeries::new(
                    ts.iter()
                        .filter(|c| c.1[i].is_finite())
                        .map(|c| (c.0, c.1[i])),
                    color.stroke_width(1),
                ))?;
            }
            chart
                .draw_series(LineSeries::new(
                    ts.iter().map(|c| {
                        let v = c.1.iter().copied().filter(|v| v.is_finite());
                        (c.0, v.fold(f64::NEG_INFINITY, f64::max))
                    }),
                    BLACK.stroke_width(3),
                ))?
                .label("max D_i")
                .legend(|(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], BLACK.stroke_width(3))
                });
            chart.draw_series(LineSeries::new([(f0, 0.0), (x_hi, 0.0)], BLACK.mix(0.4)))?;
            for (j, &t) in times.iter().enumerate() {
                let name = if j == 0 { "t_enter" } else { "t_exit" };
                chart
                    .draw_series(DashedLineSeries::new(
                        [(t, y_range.start), (t, y_range.end)],
                        6,
                        4,
                        RED.stroke_width(2),
                    ))?
                    .label(format!("{name} ≈ {t:.6}"))
                    .legend(|(x, y)| {
                        PathElement::new(vec![(x, y), (x + 20, y)], RED.stroke_width(2))
                    });
            }
            chart
                .configure_series_labels()
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK)
                .draw()?;
            root.present()?;
            Ok(())
        };
        if let Err(e) = draw() {
            eprintln!("plot: {e}");
        }
    }
    s
}
