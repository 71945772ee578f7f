//! `exact-collision verify FILE`: answer queries that carry claims, judge each
//! claim against the exact answer, and report: a summary table by op, claimed
//! field and category, the worst disagreements, the disagreeing lines (ready
//! to rerun) and, with `--shrink`, each disagreement shrunk.
use super::query::{open, stream_with, RunOpts};
use exact_collision::protocol::number::parse_exact;
use exact_collision::protocol::{
    answer_bytes, answer_bytes_general, answer_value_with, Tolerances,
};
use exact_collision::shrink::shrink_claim;
use num_rational::BigRational;
use num_traits::Signed;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::PathBuf;

/// Answer a JSON Lines file whose queries carry claims.
#[derive(clap::Args)]
pub struct Args {
    /// The input file.
    file: PathBuf,
    /// Absolute tolerance for numeric claims: |claim − exact| ≤ max(abs,
    /// rel·|exact|). A claim's own `abs_tol` wins. Default: 0 for distances,
    /// 1e-9 for times. An exact number: `1e-12`, `"1/1099511627776"`.
    #[arg(long, value_name = "TOL", value_parser = tolerance)]
    abs: Option<BigRational>,
    /// Relative tolerance for numeric claims (a claim's own `rel_tol` wins).
    /// Default: 1e-9 for distances, 0 for times.
    #[arg(long, value_name = "TOL", value_parser = tolerance)]
    rel: Option<BigRational>,
    /// Write every disagreeing query line to FILE, byte for byte as given
    /// (a file `verify` can rerun).
    #[arg(long, value_name = "FILE")]
    failures: Option<PathBuf>,
    /// Print the summary as one JSON object instead of the table: on standard
    /// error, or into FILE when given.
    #[arg(long, value_name = "FILE", num_args = 0..=1, default_missing_value = "-")]
    summary_json: Option<PathBuf>,
    /// Add to each disagreeing answer a `"shrunk"` query: a smaller query on
    /// which the same claim still disagrees (see `exact-collision shrink`).
    #[arg(long)]
    shrink: bool,
    /// How many of the worst disagreements the summary lists.
    #[arg(long, value_name = "N", default_value_t = 10)]
    worst: usize,
    #[command(flatten)]
    run: RunOpts,
}

/// A tolerance from the command line: a non-negative exact number.
pub fn tolerance(s: &str) -> Result<BigRational, String> {
    let t = parse_exact(s)?;
    if t.is_negative() {
        return Err(format!("a tolerance must be non-negative, got {s}"));
    }
    Ok(t)
}

/// What one line came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Status {
    Agree,
    Disagree,
    Failed,
}

/// One line's record, handed back in input order.
struct Record {
    line: usize,
    ok: bool,
    agrees: Option<bool>,
    id: Option<String>,
    op: String,
    category: String,
    /// Each claimed field and its status.
    fields: Vec<(String, Status)>,
    /// Disagreeing fields: (badness, field, detail).
    worst: Vec<(f64, String, String)>,
    /// The raw line, kept when it disagrees.
    raw: Option<Vec<u8>>,
}

/// The line without its `\r` and byte-order mark, as the answerer reads it.
fn text(line: &[u8]) -> Option<&str> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let t = std::str::from_utf8(line).ok()?;
    Some(t.strip_prefix('\u{feff}').unwrap_or(t))
}

/// Answer one line, judging its claim with the command line's tolerances.
/// `line` is `None` for a line over the length limit: its error answer is
/// already written, and it counts as failed.
fn answer(
    line: Option<&[u8]>,
    no: usize,
    out: &mut Vec<u8>,
    tol: &Tolerances,
    shrink: bool,
) -> Record {
    let mut rec = Record {
        line: no,
        ok: false,
        agrees: None,
        id: None,
        op: "?".into(),
        category: String::new(),
        fields: Vec::new(),
        worst: Vec::new(),
        raw: None,
    };
    let Some(line) = line else {
        return rec;
    };
    // Lines without a claim take the program's fast path, as in `query`.
    if !line.windows(7).any(|w| w == b"\"claim\"") {
        let o = answer_bytes(line, no, out);
        rec.ok = o.ok;
        return rec;
    }
    let v = match text(line).map(serde_json::from_str::<Value>) {
        Some(Ok(v)) if v.is_object() => v,
        _ => {
            rec.ok = answer_bytes_general(line, no, out).ok;
            return rec;
        }
    };
    rec.op = v
        .get("op")
        .and_then(Value::as_str)
        .unwrap_or("?")
        .to_string();
    rec.category = v
        .get("category")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    rec.id = v.get("id").map(Value::to_string);
    let claimed: Vec<String> = v
        .get("claim")
        .and_then(Value::as_object)
        .map(|c| {
            c.keys()
                .filter(|k| *k != "abs_tol" && *k != "rel_tol")
                .cloned()
                .collect()
        })
        .unwrap_or_default();
    let (mut a, verdict) = answer_value_with(&v, tol);
    rec.ok = a.ok;
    rec.agrees = a.agrees;
    match &verdict {
        Some(vd) => {
            for f in &vd.fields {
                let s = if f.agrees {
                    Status::Agree
                } else {
                    Status::Disagree
                };
                rec.fields.push((f.field.clone(), s));
                if !f.agrees {
                    rec.worst
                        .push((f.badness(), f.field.clone(), f.detail.clone()));
                }
            }
        }
        None => {
            let fields = if claimed.is_empty() {
                vec!["(none)".to_string()]
            } else {
                claimed
            };
            rec.fields = fields.into_iter().map(|f| (f, Status::Failed)).collect();
        }
    }
    if a.agrees == Some(false) {
        rec.raw = Some(line.to_vec());
        if shrink {
            if let (Some(small), Some(o)) = (shrink_claim(&v, tol), a.value.as_object_mut()) {
                o.insert("shrunk".into(), small);
            }
        }
    }
    let _ = serde_json::to_writer(&mut *out, &a.value);
    out.push(b'\n');
    rec
}

/// Counts of one table row.
#[derive(Default)]
struct Row {
    agree: usize,
    disagree: usize,
    failed: usize,
}

/// The whole run's summary.
#[derive(Default)]
struct Summary {
    queries: usize,
    agree: usize,
    disagree: usize,
    unclaimed: usize,
    failed: usize,
    rows: BTreeMap<(String, String, String), Row>,
    /// (badness, line, id, field, detail), worst first after sorting.
    worst: Vec<(f64, usize, Option<String>, String, String)>,
}

impl Summary {
    fn add(&mut self, r: Record, keep: usize) {
        self.queries += 1;
        match (r.ok, r.agrees) {
            (false, _) => self.failed += 1,
            (true, Some(true)) => self.agree += 1,
            (true, Some(false)) => self.disagree += 1,
            (true, None) => self.unclaimed += 1,
        }
        for (field, s) in r.fields {
            let row = self
                .rows
                .entry((r.op.clone(), field, r.category.clone()))
                .or_default();
            match s {
                Status::Agree => row.agree += 1,
                Status::Disagree => row.disagree += 1,
                Status::Failed => row.failed += 1,
            }
        }
        for (bad, field, detail) in r.worst {
            self.worst.push((bad, r.line, r.id.clone(), field, detail));
        }
        // Keep the `keep` worst (ties: the earlier line first).
        if self.worst.len() > 4 * keep.max(1) {
            self.trim(keep);
        }
    }

    fn trim(&mut self, keep: usize) {
        self.worst
            .sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        self.worst.truncate(keep);
    }

    fn line(&self) -> String {
        format!(
            "summary: {} queries, {} agree, {} disagree, {} without a claim, {} failed",
            self.queries, self.agree, self.disagree, self.unclaimed, self.failed
        )
    }

    fn table(&self) -> String {
        let mut t: Vec<Vec<String>> =
            vec![["op", "field", "category", "agree", "disagree", "failed"]
                .map(String::from)
                .to_vec()];
        for ((op, field, cat), r) in &self.rows {
            t.push(vec![
                op.clone(),
                field.clone(),
                if cat.is_empty() {
                    "-".into()
                } else {
                    cat.clone()
                },
                r.agree.to_string(),
                r.disagree.to_string(),
                r.failed.to_string(),
            ]);
        }
        let mut s = exact_collision::report::text_table(&t, 3);
        if !self.worst.is_empty() {
            s.push_str(
                "worst disagreements (by error in ulps of the claim; wrong decisions first):\n",
            );
            for (_, line, id, _, detail) in &self.worst {
                let id = id.as_ref().map(|i| format!(" id {i}")).unwrap_or_default();
                s.push_str(&format!("  line {line}{id}: {detail}\n"));
            }
        }
        s
    }

    fn json(&self) -> Value {
        let rows: Vec<Value> = self
            .rows
            .iter()
            .map(|((op, field, cat), r)| {
                json!({"op": op, "field": field, "category": cat,
                       "agree": r.agree, "disagree": r.disagree, "failed": r.failed})
            })
            .collect();
        let worst: Vec<Value> = self
            .worst
            .iter()
            .map(|(bad, line, id, field, detail)| {
                let ulps = if bad.is_finite() { json!(bad) } else { Value::Null };
                json!({"line": line, "id": id.as_ref().and_then(|i| serde_json::from_str::<Value>(i).ok()),
                       "field": field, "ulps": ulps, "detail": detail})
            })
            .collect();
        json!({"queries": self.queries, "agree": self.agree, "disagree": self.disagree,
               "without_claim": self.unclaimed, "failed": self.failed,
               "rows": rows, "worst": worst})
    }
}

/// Print the answers with verdicts, then the summary on standard error.
/// Ok(false) when any claim disagrees or any line failed.
pub fn run(args: &Args) -> io::Result<bool> {
    let (input, len) = open(Some(&args.file))?;
    let tol = Tolerances {
        abs: args.abs.clone(),
        rel: args.rel.clone(),
    };
    let mut failures = match &args.failures {
        Some(p) => Some(io::BufWriter::new(std::fs::File::create(p).map_err(
            |e| io::Error::new(e.kind(), format!("--failures {}: {e}", p.display())),
        )?)),
        None => None,
    };
    let mut sum = Summary::default();
    let mut write_err = Ok(());
    let shrink = args.shrink;
    stream_with(
        input,
        len,
        &args.run,
        &|line, no, out| answer(line, no, out, &tol, shrink),
        |mut r| {
            if let (Some(f), Some(raw)) = (failures.as_mut(), r.raw.take()) {
                if write_err.is_ok() {
                    write_err = f.write_all(&raw).and_then(|_| f.write_all(b"\n"));
                }
            }
            sum.add(r, args.worst);
        },
    )?;
    write_err?;
    if let Some(mut f) = failures {
        f.flush()?;
    }
    sum.trim(args.worst);
    match &args.summary_json {
        Some(p) if p.as_os_str() != "-" => {
            std::fs::write(p, format!("{}\n", sum.json()))?;
            eprintln!("{}", sum.line());
        }
        Some(_) => eprintln!("{}", sum.json()),
        None => {
            eprintln!("{}", sum.line());
            if !sum.rows.is_empty() {
                eprint!("{}", sum.table());
            }
        }
    }
    Ok(sum.disagree == 0 && sum.failed == 0)
}
