//! `exact-collision` (or `exact-collision demo`): the worked examples of the
//! seed documents, answered exactly.

/// Print the worked examples.
pub fn run() -> std::io::Result<bool> {
    print!("{}", exact_collision::demo::render());
    Ok(true)
}
