//! The CCD benchmark's CSV query files (Wang et al., "A Large-scale Benchmark and
//! an Inclusion-based Algorithm for Continuous Collision Detection", ACM TOG
//! 2021), read exactly: 8 rows per query (the 4 points at t = 0, then at t = 1),
//! each row x, y, z as numerator,denominator pairs (6 columns), optionally
//! followed by the ground truth 0/1 (a 7th column).
//!
//! The program's `ccd-csv` command reads its files here; the fuzz target
//! `ccd_csv` feeds it arbitrary bytes.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;

/// One CSV row: a point's exact coordinates and the optional ground-truth column.
pub type Row = ([BigRational; 3], Option<bool>);

/// The longest integer field accepted, in characters: the benchmark's
/// integers have at most a few hundred digits; the cost of reading one grows
/// with its square.
pub const MAX_FIELD_LEN: usize = 10_000;

/// Read every row of a benchmark CSV file. Errors name the row (from 1) and
/// column; the caller adds the path.
///
/// ```
/// use exact_collision::ccd::bench_csv::read_rows;
/// let rows = read_rows("1,2,3,4,-5,1,1\n".as_bytes()).unwrap();
/// assert_eq!(rows[0].0[0].to_string(), "1/2");
/// assert_eq!(rows[0].1, Some(true));
/// assert!(read_rows("1,0,3,4,5,1\n".as_bytes()).unwrap_err().contains("zero denominator"));
/// ```
pub fn read_rows(input: impl std::io::Read) -> Result<Vec<Row>, String> {
    let mut rd = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(input);
    let mut rows = Vec::new();
    for (line, rec) in rd.byte_records().enumerate() {
        let rec = rec.map_err(|e| e.to_string())?;
        let row = line + 1;
        if rec.len() != 6 && rec.len() != 7 {
            return Err(format!(
                "row {row}: expected 6 or 7 columns, got {}",
                rec.len()
            ));
        }
        let int = |i: usize| -> Result<BigInt, String> {
            let bad = || format!("row {row}, column {}: not an integer", i + 1);
            let f = std::str::from_utf8(&rec[i]).map_err(|_| bad())?.trim();
            if f.len() > MAX_FIELD_LEN {
                return Err(format!(
                    "row {row}, column {}: an integer longer than {MAX_FIELD_LEN} characters",
                    i + 1
                ));
            }
            f.parse().map_err(|_| bad())
        };
        let q = |i: usize| -> Result<BigRational, String> {
            let (n, d) = (int(i)?, int(i + 1)?);
            if d.is_zero() {
                return Err(format!("row {row}: zero denominator"));
            }
            Ok(BigRational::new(n, d))
        };
        let t = if rec.len() == 7 {
            Some(!int(6)?.is_zero())
        } else {
            None
        };
        rows.push(([q(0)?, q(2)?, q(4)?], t));
    }
    Ok(rows)
}
