//! Plain-text tables for the programs' reports (`verify`, `audit`,
//! `check-parry`).

/// The rows (the first one the header) as aligned columns, two spaces apart:
/// the first `left` columns left-aligned, the rest (counts) right-aligned.
///
/// ```
/// use exact_collision::report::text_table;
/// let rows = vec![
///     vec!["op".to_string(), "n".to_string()],
///     vec!["distance".to_string(), "12".to_string()],
/// ];
/// assert_eq!(text_table(&rows, 1), "op         n\ndistance  12\n");
/// ```
pub fn text_table(rows: &[Vec<String>], left: usize) -> String {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let w: Vec<usize> = (0..cols)
        .map(|i| {
            rows.iter()
                .map(|r| r.get(i).map_or(0, |c| c.chars().count()))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut s = String::new();
    for r in rows {
        let cells: Vec<String> = r
            .iter()
            .enumerate()
            .map(|(i, c)| {
                if i < left {
                    format!("{:<w$}", c, w = w[i])
                } else {
                    format!("{:>w$}", c, w = w[i])
                }
            })
            .collect();
        s.push_str(cells.join("  ").trim_end());
        s.push('\n');
    }
    s
}
