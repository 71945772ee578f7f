//! The CCD benchmark's CSV reader on arbitrary bytes: rows or an error that
//! names a row, never a panic.
#![no_main]
use exact_collision::ccd::bench_csv::read_rows;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(rows) = read_rows(data) {
        for (p, _) in &rows {
            for c in p {
                assert!(*c.denom() > 0.into(), "lowest terms, positive denominator");
            }
        }
    }
});
