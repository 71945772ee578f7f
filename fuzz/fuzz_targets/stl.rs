//! The STL reader on arbitrary bytes: an error or a mesh, never a panic; a
//! mesh read back from its own binary STL is the same mesh.
#![no_main]
use exact_collision::mesh::stl::{parse_stl, to_binary_stl};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(m) = parse_stl(data) {
        let bytes = to_binary_stl(&m).expect("f32 coordinates are written back");
        assert_eq!(parse_stl(&bytes).expect("our own STL reads"), m);
    }
});
