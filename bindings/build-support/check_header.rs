// The header test of both C libraries (`bindings/c`, `bindings/train-c`) includes this file
// with `include!`: one check, not two copies. It must be included by a test of the crate whose
// build script ran `generate_header` (`generate_header.rs`).

/// Checks that the committed `include/<name>` is exactly `generated` (what the build script
/// generated); with `EVOHARNESS_BLESS=1` in the environment, rewrites it instead.
fn check_committed_header(generated: &str, name: &str) {
    let crate_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let path = crate_dir.join("include").join(name);
    if std::env::var_os("EVOHARNESS_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&path, generated)
            .unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    if committed != generated {
        let first = committed
            .lines()
            .zip(generated.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| committed.lines().count().min(generated.lines().count()));
        panic!(
            "{} is stale (first difference at line {}); run EVOHARNESS_BLESS=1 cargo test -p {} \
             --test header and commit it",
            path.display(),
            first + 1,
            env!("CARGO_PKG_NAME"),
        );
    }
}
