//! `exact-collision` (or `exact-collision demo`): worked examples from the
//! algorithms' source documents, answered exactly.

/// Print the worked examples.
pub fn run() -> std::io::Result<bool> {
    print!("{}", exact_collision::demo::render());
    Ok(true)
}
