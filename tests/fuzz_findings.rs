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

/// A binary PLY header announcing 66,613,242,488,395,600 elements of an
/// element without properties: each took no bytes to read, so the reader
/// built them until memory ran out (over 2 GB from a 261-byte file). The fuzz
/// target `step_ply` found it (the `oom-…` input, here shortened to its
/// header). Now an error naming the element, before any payload is read.
#[test]
fn fuzz_finding_ply_element_without_properties_is_refused() {
    use exact_collision::ccd::step::read::read_ply_from;
    use std::path::Path;
    for (count, header) in [
        (
            "66613242488395600",
            "ply\nformat binary_big_endian 1.0\nelement verte 00000000000000000000000000000000000000066613242488395600\nend_header\n",
        ),
        (
            "4000000000",
            "ply\nformat binary_little_endian 1.0\nelement vertex 4000000000\nelement face 0\nproperty list uchar int vertex_indices\nend_header\n",
        ),
    ] {
        let mut bytes = header.as_bytes().to_vec();
        bytes.extend_from_slice(&[0, 1, 0, 0, 0, 0xe4]);
        let e = read_ply_from(&mut &bytes[..], Path::new("f.ply")).unwrap_err();
        let msg = e.to_string();
        assert!(msg.contains("f.ply") && msg.contains(count) && msg.contains("without properties"), "{msg}");
    }
    // An element with properties is still read (an empty element is fine).
    let ok = "ply\nformat ascii 1.0\nelement vertex 3\nproperty double x\nproperty double y\nproperty double z\nelement extra 0\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n";
    let f = read_ply_from(&mut ok.as_bytes(), Path::new("f.ply")).unwrap();
    assert_eq!(
        (f.positions.len(), f.faces, f.positions[1]),
        (3, vec![[0, 1, 2]], [1.0, 0.0, 0.0])
    );
}
