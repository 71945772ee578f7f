//! `exact-collision` (or `exact-collision demo`): worked examples from the
//! algorithms' source documents, answered exactly.

/// Print the worked examples.
pub fn run() -> std::io::Result<bool> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_all(exact_collision::demo::render().as_bytes())?;
    out.flush()?;
    Ok(true)
}
