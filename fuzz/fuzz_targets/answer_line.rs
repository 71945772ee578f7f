//! One protocol line, as the program reads it: the answer is one JSON object
//! and a newline, an error exactly when `ok` is false, and the lean line path
//! gives the same bytes as the general path.
#![no_main]
use exact_collision::protocol::{answer_bytes, answer_bytes_general};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut out = Vec::new();
    let outcome = answer_bytes(data, 7, &mut out);
    assert_eq!(out.last(), Some(&b'\n'), "the answer ends its line");
    let body = &out[..out.len() - 1];
    assert!(!body.contains(&b'\n'), "one answer line");
    let v: serde_json::Value = serde_json::from_slice(body).expect("the answer is JSON");
    let obj = v.as_object().expect("the answer is an object");
    assert_eq!(obj.contains_key("error"), !outcome.ok);
    let mut general = Vec::new();
    let g = answer_bytes_general(data, 7, &mut general);
    assert_eq!(g.ok, outcome.ok);
    assert_eq!(
        String::from_utf8_lossy(&out),
        String::from_utf8_lossy(&general),
        "lean and general paths differ"
    );
});
