//! Generates the line-pattern tables (see `build/patterns.rs`) into
//! `OUT_DIR`, so the library includes them as constant data.

#[path = "build/patterns.rs"]
#[allow(dead_code)]
mod patterns;

fn main() {
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    for (name, half, exact) in [("at_least_4.bin", 4, false), ("exact_5.bin", 5, true)] {
        let mut table = patterns::generate(half, exact);
        // Padded to 2^16 entries: a `u16` index then needs no bounds check.
        table.resize(1 << 16, 0);
        std::fs::write(out.join(name), table).expect("OUT_DIR is writable");
    }
    println!("cargo::rerun-if-changed=build/patterns.rs");
    println!("cargo::rerun-if-changed=build.rs");
}
