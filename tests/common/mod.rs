//! What the tests of the examples share.

use std::path::{Path, PathBuf};

/// The example binary `name`, built by `cargo test` next to the test
/// binaries (`target/<profile>/examples/`).
pub(crate) fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    let profile_dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("target/<profile>/deps/<test>");
    let path = profile_dir
        .join("examples")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.exists(),
        "{} is missing: run the tests with `cargo test` (which builds the examples) or `cargo build --examples` first",
        path.display()
    );
    path
}
