//! `exact-collision shrink`'s input: one protocol line, raw bytes. Never a
//! panic; a shrunk query still has a disagreeing claim (checked anew) and its
//! line is no longer than the input's.
#![no_main]
use exact_collision::protocol::Tolerances;
use exact_collision::shrink::{claim_disagrees, line_len, shrink_claim};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(q) = serde_json::from_str::<serde_json::Value>(text.trim()) else {
        return;
    };
    let tol = Tolerances::default();
    if let Some(small) = shrink_claim(&q, &tol) {
        assert!(
            claim_disagrees(&small, &tol),
            "the shrunk claim still disagrees"
        );
        assert!(line_len(&small) <= line_len(&q), "never longer");
    }
});
