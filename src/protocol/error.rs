//! The error of a line that cannot be read: where (a path into the query)
//! and what is wrong.

/// A parse error: the JSON path and the defect.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// `a.half_axes[2]`, or empty for the whole line.
    pub path: String,
    /// What is wrong.
    pub defect: String,
}

impl std::error::Error for ParseError {}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}", self.defect)
        } else {
            write!(f, "{}: {}", self.path, self.defect)
        }
    }
}
