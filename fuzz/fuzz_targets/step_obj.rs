//! `step`'s OBJ frame reader on arbitrary text: an error or a frame, never a
//! panic; every face names an existing vertex; a frame written back as OBJ
//! (`v` lines in shortest round-trip form, triangles as `f` lines) reads back
//! equal; building a step from it is an error or a mesh.
#![no_main]
use exact_collision::ccd::step::read::{read_obj_text, Frame};
use exact_collision::ccd::step::StepMesh;
use libfuzzer_sys::fuzz_target;
use std::fmt::Write;
use std::path::Path;

fn obj(f: &Frame) -> String {
    let mut s = String::new();
    for p in &f.positions {
        let _ = writeln!(s, "v {:e} {:e} {:e}", p[0], p[1], p[2]);
    }
    for t in &f.faces {
        let _ = writeln!(s, "f {} {} {}", t[0] + 1, t[1] + 1, t[2] + 1);
    }
    s
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let path = Path::new("fuzz.obj");
    let Ok(frame) = read_obj_text(text, path) else {
        return;
    };
    let n = frame.positions.len();
    assert!(frame.faces.iter().flatten().all(|&i| (i as usize) < n));
    assert!(frame.positions.iter().flatten().all(|c| c.is_finite()));
    let back = read_obj_text(&obj(&frame), path).expect("written back, it reads");
    assert_eq!(back, frame, "round trip through OBJ");
    let _ = StepMesh::new(frame.positions.clone(), frame.positions, frame.faces);
});
