//! `step`'s PLY frame reader on arbitrary bytes: an error or a frame, never a
//! panic; a frame written back as ASCII PLY (doubles in shortest round-trip
//! form) reads back equal, and building a step from it checks its faces
//! (an error or a mesh whose faces name existing vertices).
#![no_main]
use exact_collision::ccd::step::read::{read_ply_from, Frame};
use exact_collision::ccd::step::StepMesh;
use libfuzzer_sys::fuzz_target;
use std::fmt::Write;
use std::path::Path;

fn ascii_ply(f: &Frame) -> String {
    let mut s = format!(
        "ply\nformat ascii 1.0\nelement vertex {}\nproperty double x\nproperty double y\nproperty double z\nelement face {}\nproperty list uchar int vertex_indices\nend_header\n",
        f.positions.len(),
        f.faces.len()
    );
    for p in &f.positions {
        let _ = writeln!(s, "{:e} {:e} {:e}", p[0], p[1], p[2]);
    }
    for t in &f.faces {
        let _ = writeln!(s, "3 {} {} {}", t[0], t[1], t[2]);
    }
    s
}

fuzz_target!(|data: &[u8]| {
    let path = Path::new("fuzz.ply");
    let Ok(frame) = read_ply_from(&mut &data[..], path) else {
        return;
    };
    assert!(frame.positions.iter().flatten().all(|c| c.is_finite()));
    if frame.faces.iter().flatten().all(|&i| i <= i32::MAX as u32) {
        let text = ascii_ply(&frame);
        let back = read_ply_from(&mut text.as_bytes(), path).expect("written back, it reads");
        assert_eq!(back, frame, "round trip through ASCII PLY");
    }
    let n = frame.positions.len();
    if let Ok(m) = StepMesh::new(frame.positions.clone(), frame.positions, frame.faces) {
        assert!(m.faces.iter().flatten().all(|&i| (i as usize) < n));
        assert!(m.edges.iter().all(|e| e[0] < e[1] && (e[1] as usize) < n));
    }
});
