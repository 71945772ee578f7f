//! The fuzz targets' findings (docs/fuzzing.md, "Campaigns"), each as the
//! minimised input that found it and the property it broke.

use exact_collision::protocol::Tolerances;
use exact_collision::shrink::{claim_disagrees, line_len, shrink_claim};
use serde_json::Value;

/// `shrink` made a line longer: the exact string "2.000001" was compared by
/// its canonical text "2000001/1000000" (15 characters), so the candidate
/// "2097153/1048576" (as long, fewer bits) was kept, 7 bytes longer than the
/// input's text. The fuzz target `shrink` found it on its seed
/// (tests/data/verify_sample.jsonl, line a2).
#[test]
fn fuzz_finding_shrink_never_lengthens_a_decimal_string() {
    let line = r#"{"id":"a2","op":"intersect","a":{"type":"box","center":[0,0,0],"half_axes":[[1,0,0],[0,1,0],[0,0,1]]},"b":{"type":"box","center":["2.000001",0,0],"half_axes":[[1,0,0],[0,1,0],[0,0,1]]},"category":"gap","claim":{"intersect":true}}"#;
    let q: Value = serde_json::from_str(line).unwrap();
    let tol = Tolerances::default();
    let small = shrink_claim(&q, &tol).expect("the boxes are 10⁻⁶ apart: the claim disagrees");
    assert!(claim_disagrees(&small, &tol));
    assert!(line_len(&small) <= line_len(&q), "{small}");
    // Every shorter candidate for 2.000001 (2, 2.0000009…, 1, …) makes the
    // boxes touch or overlap, or is not shorter: the number stays as written.
    assert_eq!(small["b"]["center"][0], "2.000001");
}
