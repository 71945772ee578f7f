//! The options that raise the program's input limits (docs/limits.md), shared
//! by the commands that read queries.

use exact_collision::ccd::Limits;
use exact_collision::protocol::limits::{
    set_ccd_limits, set_max_input_bits, DEFAULT_MAX_INPUT_BITS,
};

/// The default line-length limit: 1 MiB.
pub const DEFAULT_MAX_LINE_BYTES: u64 = 1 << 20;

/// Input limits: every line within them is answered in about a second or
/// less (docs/limits.md); a line over one is answered with an error naming
/// the limit and the option that raises it.
#[derive(clap::Args, Clone, Debug)]
pub struct LimitOpts {
    /// The longest input line, in bytes; a longer line is answered with an
    /// error, without being held in memory.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_LINE_BYTES)]
    pub max_line_bytes: u64,
    /// The largest total size of one line's exact-string numbers, in bits
    /// (numerator and denominator bits of each).
    #[arg(long, value_name = "BITS", default_value_t = DEFAULT_MAX_INPUT_BITS)]
    pub max_input_bits: u64,
    /// The largest degree of a `ccd` motion as a rational map.
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_motion_degree)]
    pub max_motion_degree: usize,
    /// The largest bit length of a `ccd` motion or shape coefficient's
    /// numerator or denominator.
    #[arg(long, value_name = "BITS", default_value_t = Limits::default().max_coefficient_bits)]
    pub max_coefficient_bits: u64,
    /// The largest product of a `ccd` motion's degree and its coefficients'
    /// bit length.
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_degree_bits)]
    pub max_degree_bits: u64,
}

impl LimitOpts {
    /// Make the limits the process's own (before any line is read).
    pub fn apply(&self) {
        set_max_input_bits(self.max_input_bits);
        set_ccd_limits(Limits {
            max_motion_degree: self.max_motion_degree,
            max_coefficient_bits: self.max_coefficient_bits,
            max_degree_bits: self.max_degree_bits,
        });
    }
}

/// A reader that fails on a line longer than `max` bytes (the `\n` not
/// counted), naming the line and the option: for readers that buffer a whole
/// record (the CSV reader), so that one endless line cannot exhaust memory.
pub struct BoundedLines<R> {
    inner: R,
    max: u64,
    run: u64,
    line: u64,
}

impl<R> BoundedLines<R> {
    /// `inner`, with lines of at most `max` bytes.
    pub fn new(inner: R, max: u64) -> Self {
        BoundedLines {
            inner,
            max,
            run: 0,
            line: 1,
        }
    }
}

impl<R: std::io::Read> std::io::Read for BoundedLines<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        for &c in &buf[..n] {
            if c == b'\n' {
                self.run = 0;
                self.line += 1;
            } else {
                self.run += 1;
                if self.run > self.max {
                    return Err(std::io::Error::new(
                        std::io::ErrorKind::InvalidData,
                        format!(
                            "line {} longer than the limit of {} bytes (raise it with --max-line-bytes; docs/limits.md)",
                            self.line, self.max
                        ),
                    ));
                }
            }
        }
        Ok(n)
    }
}
