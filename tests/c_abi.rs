//! The C ABI as C and C++ programs use it: builds them with the system's C and C++ compilers
//! (`CC` and `CXX`, else `cc` and `c++`) with `-Wall -Wextra -Wpedantic -Werror`, against the
//! libraries that cargo built for this test (`libevoharness.{a,so}`, the embedding API, and
//! `libevoharness_train.{a,so}`, the same with the task suite), and runs them.
//!
//! - each header alone, as C11 and as C++17, included twice;
//! - `bindings/c/tests/api.c`, which calls every function of `evoharness.h` and its error paths,
//!   linked with `libevoharness`, and `bindings/train-c/tests/train.c`, which does the same for
//!   `evoharness_train.h`, linked with `libevoharness_train` (and a check here that each names
//!   every function of its header);
//! - `bindings/cpp/tests/wrapper.cpp`, the C++ wrapper;
//! - the C and C++ examples, which must print the same run with the random fixture and with the
//!   shipped policy (which succeeds), and the C tour of `bindings/README.md` as it stands there;
//! - packaging: `bindings/c/install.sh`, then builds through the four pkg-config files;
//!
//! and, ignored by default (`.ci/run` runs them with `--ignored`): the CMake config
//! (needs cmake), every program under AddressSanitizer and UndefinedBehaviorSanitizer, and
//! under valgrind memcheck with zero errors and zero leaks (needs valgrind). The few leaks that
//! are not ours are suppressed by name, each for a stated reason, in `bindings/c/tests/`.
//!
//! Programs use the tract backend, the fixtures of `runtime/tests/fixtures`, and write their
//! files under cargo's temporary directory for integration tests.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Mutex, OnceLock};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ is inside the repository")
        .to_path_buf()
}

fn fixtures() -> PathBuf {
    repo().join("runtime/tests/fixtures")
}

/// Where the built programs and their files go.
fn out_dir() -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("c_abi");
    std::fs::create_dir_all(&d).expect("creating the output folder");
    d
}

/// A fresh, empty folder for one run's files.
fn work_dir(name: &str) -> PathBuf {
    let d = out_dir().join(format!("work-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("creating a work folder");
    d
}

/// Set to a folder of optimised libraries (`cargo build --release -p evoharness-c -p
/// evoharness-train-c` puts them in `target/release`, `--profile dist` in `target/dist`), the
/// programs link those instead of the debug ones: the libraries hosts ship, built as they build
/// them (the test's own dependencies are built with its features and profile). `.ci/run` runs
/// the valgrind test that way too, on the release libraries.
const OPTIMISED_LIBS_ENV: &str = "EVOHARNESS_C_LIBS";

/// The profile the libraries of [`OPTIMISED_LIBS_ENV`] were built with, `release` or `dist`
/// (default: that folder's name, as cargo names it): it picks the valgrind suppressions,
/// `bindings/c/tests/valgrind-optimised/<profile>.supp`.
const OPTIMISED_PROFILE_ENV: &str = "EVOHARNESS_C_LIBS_PROFILE";

/// The suppression file for the optimised libraries' profile.
fn optimised_supp(libs: &Path) -> PathBuf {
    let profile = std::env::var(OPTIMISED_PROFILE_ENV)
        .ok()
        .filter(|p| !p.is_empty())
        .or_else(|| libs.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_default();
    assert!(
        profile == "release" || profile == "dist",
        "the libraries in {} were built with which profile? Set {OPTIMISED_PROFILE_ENV} to \
         `release` or `dist` (each has its own valgrind suppressions)",
        libs.display()
    );
    repo().join(format!(
        "bindings/c/tests/valgrind-optimised/{profile}.supp"
    ))
}

fn optimised_libs() -> Option<PathBuf> {
    std::env::var_os(OPTIMISED_LIBS_ENV)
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
}

/// The folder with `libevoharness.{a,so}` and `libevoharness_train.{a,so}`: cargo built them as
/// this test's dependencies, into the folder that holds the test binary (or
/// [`OPTIMISED_LIBS_ENV`] names another).
fn lib_dir() -> PathBuf {
    let dir = optimised_libs().unwrap_or_else(|| {
        let exe = std::env::current_exe().expect("the test binary's path");
        exe.parent().expect("a folder").to_path_buf()
    });
    for lib in [
        "libevoharness.a",
        "libevoharness.so",
        "libevoharness_train.a",
        "libevoharness_train.so",
    ] {
        assert!(
            dir.join(lib).is_file(),
            "{lib} is not in {}: cargo builds it there as a dependency of this test \
             (or for {OPTIMISED_LIBS_ENV}, with `cargo build -p evoharness-c -p evoharness-train-c`)",
            dir.display()
        );
    }
    dir
}

/// The system libraries a static link needs, as the pkg-config and CMake files ship them.
fn static_libs() -> Vec<String> {
    std::fs::read_to_string(repo().join("bindings/c/static-libs.txt"))
        .expect("bindings/c/static-libs.txt")
        .split_whitespace()
        .map(String::from)
        .collect()
}

/// The library's version (its ABI's), as it reports it.
fn version() -> String {
    // SAFETY: a static NUL-terminated string.
    unsafe { std::ffi::CStr::from_ptr(evoharness::evoharness_version()) }
        .to_str()
        .expect("UTF-8")
        .to_string()
}

/// The folders with the headers: the C ones and the C++ wrapper's.
fn include_dirs() -> [PathBuf; 3] {
    [
        repo().join("bindings/c/include"),
        repo().join("bindings/train-c/include"),
        repo().join("bindings/cpp/include"),
    ]
}

const WARNINGS: [&str; 4] = ["-Wall", "-Wextra", "-Wpedantic", "-Werror"];

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Lang {
    C,
    Cpp,
}

impl Lang {
    fn compiler(self) -> String {
        let (var, default) = match self {
            Lang::C => ("CC", "cc"),
            Lang::Cpp => ("CXX", "c++"),
        };
        std::env::var(var)
            .ok()
            .filter(|c| !c.is_empty())
            .unwrap_or_else(|| default.to_string())
    }

    fn std(self) -> &'static str {
        match self {
            Lang::C => "-std=c11",
            Lang::Cpp => "-std=c++17",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Link {
    Static,
    Shared,
}

/// Which library a program links: a host links one of the two, never both.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Library {
    /// `libevoharness`: the embedding API.
    Embedding,
    /// `libevoharness_train`: the same and the training kit (with the suite to train on).
    Train,
}

impl Library {
    fn name(self) -> &'static str {
        match self {
            Library::Embedding => "evoharness",
            Library::Train => "evoharness_train",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Program {
    Api,
    Train,
    Wrapper,
    CExample,
    CppExample,
    /// The bad-input corpus's C class: misuse of the embedding API.
    Misuse,
}

impl Program {
    fn source(self) -> (&'static str, Lang, Library) {
        match self {
            Program::Api => ("bindings/c/tests/api.c", Lang::C, Library::Embedding),
            Program::Train => ("bindings/train-c/tests/train.c", Lang::C, Library::Train),
            Program::Wrapper => ("bindings/cpp/tests/wrapper.cpp", Lang::Cpp, Library::Train),
            Program::CExample => ("examples/c/agent.c", Lang::C, Library::Train),
            Program::CppExample => ("examples/cpp/agent.cpp", Lang::Cpp, Library::Train),
            Program::Misuse => ("tests/bad_inputs/c/misuse.c", Lang::C, Library::Embedding),
        }
    }

    /// Its arguments for a run whose files go to `work`.
    fn args(self, work: &Path) -> Vec<String> {
        let s = |p: &Path| p.display().to_string();
        match self {
            Program::Api | Program::Train => vec![s(&fixtures()), s(work), version()],
            Program::Wrapper => vec![s(&fixtures()), s(work)],
            Program::CExample | Program::CppExample => {
                example_args(&fixtures().join("suite_mlp.onnx"), work)
            }
            Program::Misuse => vec![s(&repo().join("tests/bad_inputs")), s(&fixtures())],
        }
    }
}

/// The examples' arguments: a policy, the checkpoint file, the backend.
fn example_args(policy: &Path, work: &Path) -> Vec<String> {
    vec![
        policy.display().to_string(),
        work.join("agent.ckpt").display().to_string(),
        "tract".to_string(),
    ]
}

fn check_output(what: &str, out: &Output) {
    assert!(
        out.status.success(),
        "{what} failed ({}):\n--- stdout\n{}\n--- stderr\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn run_command(what: &str, cmd: &mut Command) -> Output {
    // A program finds its library through its own run path (the build's deps folder, or the
    // install's). `cargo test` puts its target folders on LD_LIBRARY_PATH, which wins over a
    // run path: a library an older build left there (`target/debug/libevoharness.so` is
    // refreshed only by a top-level build) would be the one that ran.
    cmd.env_remove("LD_LIBRARY_PATH");
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot run {cmd:?}: {e}"));
    check_output(what, &out);
    out
}

/// Compiles and links `source` into `exe` with `library`, with warnings as errors.
fn compile(source: &Path, lang: Lang, library: Library, link: Link, sanitize: bool, exe: &Path) {
    let libs = lib_dir();
    let mut cmd = Command::new(lang.compiler());
    cmd.arg(lang.std()).args(WARNINGS).arg("-g");
    for dir in include_dirs() {
        cmd.arg("-I").arg(dir);
    }
    if sanitize {
        cmd.args([
            "-fsanitize=address,undefined",
            "-fno-omit-frame-pointer",
            "-fno-sanitize-recover=all",
        ]);
    }
    cmd.arg(source).arg("-o").arg(exe);
    match link {
        Link::Static => {
            // The Rust library's assembly kernels carry no stack note: say the stack is not
            // executable, as the pkg-config and CMake files do.
            cmd.arg(libs.join(format!("lib{}.a", library.name())))
                .arg("-Wl,-z,noexecstack")
                .args(static_libs());
        }
        Link::Shared => {
            cmd.arg("-L")
                .arg(&libs)
                .arg(format!("-l{}", library.name()))
                .arg(format!("-Wl,-rpath,{}", libs.display()));
        }
    }
    run_command(&format!("compiling {}", source.display()), &mut cmd);
}

/// The program built once per test binary for each variant (linking the debug library takes
/// seconds).
fn program(p: Program, link: Link, sanitize: bool) -> PathBuf {
    type Key = (Program, Link, bool);
    static BUILT: OnceLock<Mutex<std::collections::BTreeMap<Key, PathBuf>>> = OnceLock::new();
    let built = BUILT.get_or_init(Default::default);
    let key = (p, link, sanitize);
    // Hold the lock while building: a second test asking for the same program waits for it.
    let mut map = built.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(exe) = map.get(&key) {
        return exe.clone();
    }
    let (source, lang, library) = p.source();
    let exe = out_dir().join(format!(
        "{p:?}-{link:?}{}",
        if sanitize { "-asan" } else { "" }
    ));
    compile(&repo().join(source), lang, library, link, sanitize, &exe);
    map.insert(key, exe.clone());
    exe
}

/// Runs a program plainly, in a fresh work folder, with `args` (else its own).
fn run_with(p: Program, link: Link, name: &str, args: Option<Vec<String>>) -> String {
    let exe = program(p, link, false);
    let work = work_dir(&format!("{p:?}-{link:?}{name}"));
    let args = args.unwrap_or_else(|| p.args(&work));
    let out = run_command(
        &format!("{p:?}"),
        Command::new(&exe).args(args).current_dir(&work),
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// Runs a program plainly, in a fresh work folder.
fn run(p: Program, link: Link) -> String {
    run_with(p, link, "", None)
}

/// Each header: the two C ones and the C++ wrapper's two.
#[test]
fn the_header_compiles_alone_as_c11_and_cpp17_and_twice() {
    let dir = out_dir();
    let headers = [
        ("evoharness.h", Lang::C),
        ("evoharness_train.h", Lang::C),
        ("evoharness.hpp", Lang::Cpp),
        ("evoharness_train.hpp", Lang::Cpp),
    ];
    for (header, only) in headers {
        for (lang, ext) in [(Lang::C, "c"), (Lang::Cpp, "cpp")] {
            if only == Lang::Cpp && lang == Lang::C {
                continue;
            }
            for (name, text) in [
                ("alone", format!("#include \"{header}\"\n")),
                (
                    "twice",
                    format!("#include \"{header}\"\n#include \"{header}\"\nint f(void);\n"),
                ),
            ] {
                let src = dir.join(format!("{}_{name}.{ext}", header.replace('.', "_")));
                std::fs::write(&src, text).expect("writing a source file");
                let mut cmd = Command::new(lang.compiler());
                cmd.arg(lang.std()).args(WARNINGS).arg("-fsyntax-only");
                for dir in include_dirs() {
                    cmd.arg("-I").arg(dir);
                }
                run_command(&format!("{header} {name} as {}", lang.std()), cmd.arg(&src));
            }
        }
    }
}

/// The functions a header declares.
fn header_functions(header: &str) -> BTreeSet<String> {
    let header = std::fs::read_to_string(repo().join(header)).expect("the header");
    header
        .lines()
        .filter(|l| !l.starts_with(' ') && !l.starts_with("typedef") && !l.starts_with('#'))
        .filter_map(|l| {
            let open = l.find('(')?;
            let name = l[..open].rsplit([' ', '*']).next()?;
            name.starts_with("evoharness_").then(|| name.to_string())
        })
        .collect()
}

/// The functions of `header` that `program` never calls.
fn never_called(header: &str, programs: &[&str]) -> Vec<String> {
    let source: String = programs
        .iter()
        .map(|p| std::fs::read_to_string(repo().join(p)).expect("the program"))
        .collect();
    header_functions(header)
        .into_iter()
        .filter(|f| !source.contains(&format!("{f}(")))
        .collect()
}

#[test]
fn the_test_programs_call_every_function_of_their_headers() {
    let embedding = header_functions("bindings/c/include/evoharness.h");
    let suite = header_functions("bindings/train-c/include/evoharness_train.h");
    assert!(
        embedding.len() > 45 && suite.len() > 10,
        "{embedding:?} {suite:?}"
    );
    // The suite's header declares only the suite's functions; every one is named for it.
    assert!(embedding.is_disjoint(&suite), "{suite:?}");
    for f in &suite {
        assert!(
            f.starts_with("evoharness_suite_") || f.starts_with("evoharness_vec_env_"),
            "{f} is in evoharness_train.h"
        );
    }
    // The fleet database calls (declared with EVOHARNESS_FLEET) are in the training library
    // only: suite.c calls them.
    let missing = never_called(
        "bindings/c/include/evoharness.h",
        &["bindings/c/tests/api.c", "bindings/train-c/tests/train.c"],
    );
    assert!(
        missing.is_empty(),
        "api.c and suite.c never call {missing:?}"
    );
    let missing = never_called(
        "bindings/train-c/include/evoharness_train.h",
        &["bindings/train-c/tests/train.c"],
    );
    assert!(missing.is_empty(), "suite.c never calls {missing:?}");
}

/// The bad-input corpus's C class (`tests/bad_inputs/c/misuse.c`): every misuse gets exactly
/// the status and message `tests/bad_inputs/expected.tsv` lists, and changes nothing (the
/// program fails otherwise).
#[test]
fn every_c_call_misuse_gets_its_exact_status_and_message() {
    let expected = std::fs::read_to_string(repo().join("tests/bad_inputs/expected.tsv"))
        .expect("expected.tsv");
    let expected: Vec<&str> = expected
        .lines()
        .filter(|l| l.starts_with("c/misuse.c#"))
        .collect();
    let out = run(Program::Misuse, Link::Shared);
    let mut got: Vec<&str> = out.lines().collect();
    got.sort_unstable();
    assert!(got.len() >= 20, "only {} misuses:\n{out}", got.len());
    assert_eq!(
        got, expected,
        "misuse.c's refusals (left) differ from tests/bad_inputs/expected.tsv (right)"
    );
}

#[test]
fn the_api_program_passes_every_check() {
    let out = run(Program::Api, Link::Static);
    assert!(out.trim_end().ends_with(" checks, 0 failed"), "{out}");
}

#[test]
fn the_training_program_passes_every_check() {
    let out = run(Program::Train, Link::Static);
    assert!(out.trim_end().ends_with(" checks, 0 failed"), "{out}");
}

#[test]
fn the_cpp_wrapper_program_passes_every_check() {
    let out = run(Program::Wrapper, Link::Static);
    assert!(out.trim_end().ends_with(" checks, 0 failed"), "{out}");
}

fn strip_checkpoint_line(s: &str) -> String {
    s.lines()
        .filter(|l| !l.starts_with("checkpoint written to "))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_c_and_cpp_examples_run_a_suite_task_with_a_host_tool_alike() {
    // The C example through the shared library, the C++ one through the static one.
    let c = run(Program::CExample, Link::Shared);
    let cpp = run(Program::CppExample, Link::Static);
    assert_eq!(
        strip_checkpoint_line(&c),
        strip_checkpoint_line(&cpp),
        "the two examples differ"
    );
    for line in [
        "policy: structured-v1, 564 observation floats, 348 action templates, 8 tools, on tract",
        "before the checkpoint: 30 steps",
        "resumed from the checkpoint: 30 steps",
        "at the end: ",
        "task: ",
    ] {
        assert!(c.contains(line), "no `{line}` in:\n{c}");
    }
    // The host's tool was called, and its failures became events, not aborts.
    let verify = c
        .lines()
        .find_map(|l| l.strip_prefix("host verify: "))
        .unwrap_or_else(|| panic!("no host verify line in:\n{c}"));
    let calls: u32 = verify
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .expect("a call count");
    assert!(calls > 0, "{c}");
}

/// The examples with the shipped, trained policy: the same run in C and C++, and the task
/// succeeds across the checkpoint and resume.
#[test]
fn the_c_and_cpp_examples_succeed_with_the_shipped_policy() {
    let policy = repo().join("examples/policies/generalist.onnx");
    let work = work_dir("shipped");
    let c = run_with(
        Program::CExample,
        Link::Shared,
        "-shipped",
        Some(example_args(&policy, &work)),
    );
    let cpp = run_with(
        Program::CppExample,
        Link::Static,
        "-shipped",
        Some(example_args(&policy, &work)),
    );
    assert_eq!(
        strip_checkpoint_line(&c),
        strip_checkpoint_line(&cpp),
        "the two examples differ"
    );
    for line in [
        "resumed from the checkpoint: 30 steps",
        "finished claiming success",
        "task: 20 of 20 items landed, 0 duplicates, 0 wrong writes: succeeded",
    ] {
        assert!(c.contains(line), "no `{line}` in:\n{c}");
    }
}

/// The C tour in `bindings/README.md`, compiled and run as it stands there: a new user's first
/// program (load a policy, register a tool, run, checkpoint, resume, run to the end).
#[test]
fn the_readme_tour_compiles_and_runs() {
    let readme = std::fs::read_to_string(repo().join("bindings/README.md")).expect("the README");
    let start = readme
        .find("## A tour of the API\n\n```c\n")
        .expect("the tour's C block");
    let code = &readme[start..];
    let code = &code[code.find("```c\n").expect("a C block") + 5..];
    let code = &code[..code.find("```").expect("the end of the block")];
    let src = out_dir().join("tour.c");
    std::fs::write(&src, code).expect("writing tour.c");
    let exe = out_dir().join("tour");
    // The embedding library alone: the tour needs nothing of the suite.
    compile(&src, Lang::C, Library::Embedding, Link::Shared, false, &exe);
    // Its paths are relative to the repository root: give it one with just the policy.
    let work = work_dir("tour");
    let fixtures_dir = work.join("runtime/tests/fixtures");
    std::fs::create_dir_all(&fixtures_dir).expect("creating the fixtures folder");
    std::fs::copy(fixtures().join("mlp.onnx"), fixtures_dir.join("mlp.onnx"))
        .expect("copying the policy");
    let out = run_command(
        "the README tour",
        Command::new(&exe)
            .current_dir(&work)
            // The default backend without an ONNX Runtime library found: tract.
            .env_remove("EVOHARNESS_ORT_LIB"),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout.trim_end();
    let (steps, rest) = line
        .split_once(" steps, ")
        .expect("`N steps, M tool calls`");
    assert!(steps.parse::<u64>().is_ok_and(|n| n > 20), "{line}");
    let calls = rest.strip_suffix(" tool calls").expect("`M tool calls`");
    assert!(calls.parse::<u64>().is_ok_and(|n| n > 0), "{line}");
    assert!(work.join("agent.ckpt").is_file(), "no checkpoint written");
}

/// What an install's programs print when they succeed.
fn installed_program_ran(p: Program, stdout: &[u8]) -> bool {
    let out = String::from_utf8_lossy(stdout);
    match p {
        Program::Api => out.trim_end().ends_with(" checks, 0 failed"),
        _ => out.contains("at the end: "),
    }
}

/// The pkg-config files of an install, used the way their comments say: the embedding library
/// with the program that calls every function of its header, the suite's with the examples.
#[test]
fn an_install_links_through_pkg_config_shared_and_static() {
    let prefix = out_dir().join("prefix");
    let _ = std::fs::remove_dir_all(&prefix);
    run_command(
        "install.sh",
        Command::new("bash")
            .arg(repo().join("bindings/c/install.sh"))
            .arg(&prefix)
            .arg(lib_dir()),
    );
    for f in [
        "include/evoharness.h",
        "include/evoharness.hpp",
        "include/evoharness_train.h",
        "include/evoharness_train.hpp",
        "lib/libevoharness.a",
        "lib/libevoharness.so",
        "lib/libevoharness_train.a",
        "lib/libevoharness_train.so",
        "lib/cmake/evoharness/evoharness-config.cmake",
        "lib/cmake/evoharness/evoharness-config-version.cmake",
    ] {
        assert!(prefix.join(f).is_file(), "{f} is not installed");
    }
    let pc_dir = prefix.join("lib/pkgconfig");
    for (package, program) in [
        ("evoharness", Program::Api),
        ("evoharness-static", Program::Api),
        ("evoharness-train", Program::CExample),
        ("evoharness-train-static", Program::CExample),
        ("evoharness-train-static", Program::CppExample),
    ] {
        let (source, lang, _) = program.source();
        let flags = run_command(
            &format!("pkg-config {package} (is pkg-config installed?)"),
            Command::new("pkg-config")
                .env("PKG_CONFIG_PATH", &pc_dir)
                .args(["--cflags", "--libs", package]),
        );
        let flags = String::from_utf8(flags.stdout).expect("UTF-8 flags");
        let modversion = run_command(
            "pkg-config --modversion",
            Command::new("pkg-config")
                .env("PKG_CONFIG_PATH", &pc_dir)
                .args(["--modversion", package]),
        );
        assert_eq!(
            String::from_utf8_lossy(&modversion.stdout).trim(),
            version()
        );
        let exe = out_dir().join(format!("pc-{package}-{lang:?}"));
        run_command(
            &format!("building {source} with pkg-config {package}"),
            Command::new(lang.compiler())
                .arg(lang.std())
                .args(WARNINGS)
                .arg("-I")
                .arg(prefix.join("include"))
                .arg(repo().join(source))
                .arg("-o")
                .arg(&exe)
                .args(flags.split_whitespace()),
        );
        let work = work_dir(&format!("pc-{package}-{lang:?}"));
        let out = run_command(
            &format!("{source} built with {package}"),
            Command::new(&exe)
                .args(program.args(&work))
                .current_dir(&work),
        );
        assert!(installed_program_ran(program, &out.stdout), "{program:?}");
    }
}

/// The CMake config of an install: a consumer project that finds the package and builds the
/// test programs and examples against each of its targets.
#[test]
#[ignore = "needs cmake; .ci/run installs it and runs this"]
fn an_install_builds_through_the_cmake_config() {
    let prefix = out_dir().join("prefix-cmake");
    let _ = std::fs::remove_dir_all(&prefix);
    run_command(
        "install.sh",
        Command::new("bash")
            .arg(repo().join("bindings/c/install.sh"))
            .arg(&prefix)
            .arg(lib_dir()),
    );
    let project = out_dir().join("cmake-consumer");
    let _ = std::fs::remove_dir_all(&project);
    std::fs::create_dir_all(&project).expect("creating the project folder");
    // MAJOR.MINOR of the library: before 1.0, a minor version is an ABI.
    let v = version();
    let minor = v.rsplit_once('.').map_or(v.as_str(), |(mm, _)| mm);
    std::fs::write(
        project.join("version.cpp"),
        "#include <evoharness.hpp>\nint main() { return evoharness::version().empty() ? 1 : 0; }\n",
    )
    .expect("writing version.cpp");
    std::fs::write(
        project.join("CMakeLists.txt"),
        format!(
            r#"cmake_minimum_required(VERSION 3.16)
project(consumer C CXX)
set(CMAKE_C_STANDARD 11)
set(CMAKE_CXX_STANDARD 17)
find_package(evoharness {minor} REQUIRED)
if(NOT evoharness_train_FOUND)
  message(FATAL_ERROR "the training library is not installed")
endif()
add_compile_options(-Wall -Wextra -Wpedantic -Werror)
add_executable(api_shared "{api}")
target_link_libraries(api_shared PRIVATE evoharness::evoharness)
add_executable(api_static "{api}")
target_link_libraries(api_static PRIVATE evoharness::evoharness_static)
add_executable(version_cpp version.cpp)
target_link_libraries(version_cpp PRIVATE evoharness::cpp)
add_executable(agent_shared "{c}")
target_link_libraries(agent_shared PRIVATE evoharness::train)
add_executable(agent_static "{c}")
target_link_libraries(agent_static PRIVATE evoharness::train_static)
add_executable(agent_cpp "{cpp}")
target_link_libraries(agent_cpp PRIVATE evoharness::train_cpp)
"#,
            api = repo().join(Program::Api.source().0).display(),
            c = repo().join(Program::CExample.source().0).display(),
            cpp = repo().join(Program::CppExample.source().0).display(),
        ),
    )
    .expect("writing CMakeLists.txt");
    let build = project.join("build");
    run_command(
        "cmake configure (is cmake installed?)",
        Command::new("cmake")
            .arg("-S")
            .arg(&project)
            .arg("-B")
            .arg(&build)
            .arg(format!("-DCMAKE_PREFIX_PATH={}", prefix.display())),
    );
    run_command(
        "cmake build",
        Command::new("cmake").arg("--build").arg(&build),
    );
    for (exe, program) in [
        ("api_shared", Program::Api),
        ("api_static", Program::Api),
        ("agent_shared", Program::CExample),
        ("agent_static", Program::CExample),
        ("agent_cpp", Program::CppExample),
    ] {
        let work = work_dir(&format!("cmake-{exe}"));
        let out = run_command(
            exe,
            Command::new(build.join(exe))
                .args(program.args(&work))
                .current_dir(&work),
        );
        assert!(installed_program_ran(program, &out.stdout), "{exe}");
    }
    run_command("version_cpp", &mut Command::new(build.join("version_cpp")));
}

const ALL: [(Program, Link); 6] = [
    (Program::Api, Link::Static),
    (Program::Misuse, Link::Shared),
    (Program::Train, Link::Static),
    (Program::Wrapper, Link::Static),
    (Program::CExample, Link::Shared),
    (Program::CppExample, Link::Static),
];

#[test]
#[ignore = "slow (sanitizer builds); .ci/run runs it"]
fn every_program_is_clean_under_address_and_undefined_behaviour_sanitizers() {
    let supp = repo().join("bindings/c/tests/lsan.supp");
    for (p, link) in ALL {
        let exe = program(p, link, true);
        let work = work_dir(&format!("{p:?}-asan"));
        let out = run_command(
            &format!("{p:?} under ASan/UBSan"),
            Command::new(&exe)
                .args(p.args(&work))
                .current_dir(&work)
                // The Rust library has no frame pointers: the slow unwinder sees its frames
                // (which the suppressions name).
                .env(
                    "ASAN_OPTIONS",
                    "detect_leaks=1:fast_unwind_on_malloc=0:strict_string_checks=1:\
                     detect_stack_use_after_return=1:check_initialization_order=1",
                )
                .env(
                    "LSAN_OPTIONS",
                    format!("suppressions={}:print_suppressions=0", supp.display()),
                )
                .env("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1"),
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            !stderr.contains("runtime error:") && !stderr.contains("ERROR: AddressSanitizer"),
            "{p:?}:\n{stderr}"
        );
    }
}

#[test]
#[ignore = "slow (valgrind); .ci/run runs it"]
fn every_program_has_zero_errors_and_zero_leaks_under_valgrind() {
    let mut supps = vec![repo().join("bindings/c/tests/valgrind.supp")];
    // Each program with its own arguments, or the C example with another policy.
    let mut runs: Vec<(Program, Link, Option<PathBuf>)> =
        ALL.iter().map(|&(p, link)| (p, link, None)).collect();
    // Optimised libraries: valgrind reports branches that LLVM's optimiser put on
    // uninitialised bytes whose value cannot change the outcome. Only those are suppressed, each
    // with its proof in `valgrind-optimised/README.md`; the shipped policy (which takes tract's
    // optimiser down paths the fixtures do not) runs too; and a suppression that matches
    // nothing any more fails the run, so that it goes.
    let optimised_supp = optimised_libs().map(|libs| optimised_supp(&libs));
    let optimised = optimised_supp.is_some();
    if let Some(supp) = &optimised_supp {
        supps.push(supp.clone());
        let policy = repo().join("examples/policies/generalist.onnx");
        runs.push((Program::CExample, Link::Shared, Some(policy)));
    }
    let mut used = String::new();
    for (i, (p, link, policy)) in runs.into_iter().enumerate() {
        let exe = program(p, link, false);
        let work = work_dir(&format!("{p:?}-valgrind-{i}"));
        let args = match policy {
            Some(policy) => example_args(&policy, &work),
            None => p.args(&work),
        };
        let mut cmd = Command::new("valgrind");
        cmd.args([
            "--tool=memcheck",
            "--leak-check=full",
            "--show-leak-kinds=definite,indirect,possible",
            "--errors-for-leak-kinds=definite,indirect,possible",
            "--track-origins=yes",
            "--num-callers=60",
            "--error-exitcode=99",
        ]);
        if optimised {
            // Lists the suppressions used.
            cmd.arg("-v");
        }
        for supp in &supps {
            cmd.arg(format!("--suppressions={}", supp.display()));
        }
        let out = run_command(
            &format!("{p:?} under valgrind (is valgrind installed?)"),
            cmd.arg(&exe).args(args).current_dir(&work),
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("ERROR SUMMARY: 0 errors from 0 contexts"),
            "{p:?}:\n{stderr}"
        );
        for kind in ["definitely lost", "indirectly lost", "possibly lost"] {
            assert!(
                !stderr.contains(kind) || stderr.contains(&format!("{kind}: 0 bytes in 0 blocks")),
                "{p:?}: {kind}:\n{stderr}"
            );
        }
        used.extend(
            stderr
                .lines()
                .filter(|l| l.contains("used_suppression:"))
                .map(|l| format!("{l}\n")),
        );
    }
    if let Some(optimised_supp) = optimised_supp {
        let supp = std::fs::read_to_string(&optimised_supp).expect("the suppression file");
        let lines: Vec<&str> = supp.lines().map(str::trim).collect();
        let names: Vec<&str> = lines
            .windows(2)
            .filter(|w| w[0] == "{")
            .map(|w| w[1])
            .collect();
        assert!(
            !names.is_empty(),
            "no suppression in {}",
            optimised_supp.display()
        );
        for name in names {
            assert!(
                used.lines().any(|l| l.contains(name)),
                "`{name}` ({}) suppressed nothing: remove it and its proof. Used:\n{used}",
                optimised_supp.display()
            );
        }
    }
}
