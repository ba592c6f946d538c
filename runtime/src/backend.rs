//! Choosing and initialising the inference backend.
//!
//! `ort` talks to one inference engine per process, chosen once: the pure-Rust tract backend
//! (feature `tract`, on by default, nothing to install) or ONNX Runtime, loaded from a shared
//! library at run time (CPU, plus the CUDA and TensorRT execution providers when the library
//! has them). That choice is process-global in `ort`, so it is explicit here: [`init`] makes it
//! once; a later call that asks for the same backend (or `Auto`) gets the same one, and a call
//! that asks for another is an error that says so, rather than a silent surprise.
//!
//! The native backend ([`Backend::Native`], `evoharness-native`) is not ort's: it runs
//! structured MLP policies in this crate, needs no initialisation, and sits beside either of
//! ort's in one process.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use crate::error::{Context, Error, ErrorKind, Result};

/// The ONNX Runtime version `scripts/fetch-onnxruntime.sh` fetches and the tests run against.
pub const ORT_VERSION: &str = "1.31.1";
/// The environment variable that names the ONNX Runtime shared library.
pub const ORT_LIB_ENV: &str = "EVOHARNESS_ORT_LIB";
/// The environment variable a host may set to choose the backend (`tract`, `onnxruntime`,
/// `native` or `auto`), read by [`Backend::from_env`] and by the `evoharness` tool when no `--backend` is
/// given.
pub const BACKEND_ENV: &str = "EVOHARNESS_BACKEND";
/// Where `scripts/fetch-onnxruntime.sh` puts the library, relative to the repository root;
/// [`init`] looks for it from the current directory upwards.
pub const ORT_LIB_DEFAULT: &str = "third_party/onnxruntime/lib/libonnxruntime.so";

/// Which inference backend to use.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Backend {
    /// The pure-Rust tract backend (feature `tract`). CPU only.
    Tract,
    /// ONNX Runtime from a shared library: this path, else [`ORT_LIB_ENV`], else
    /// [`ORT_LIB_DEFAULT`] found from the current directory upwards.
    OnnxRuntime {
        /// The library, if not found the default way.
        library: Option<PathBuf>,
    },
    /// ONNX Runtime if its library is found the default way, else tract.
    #[default]
    Auto,
    /// The native evaluator (`evoharness-native`): structured MLP policies only, CPU only,
    /// nothing to install. Not ort's: it needs no [`init`] and runs beside either of ort's.
    Native,
}

impl Backend {
    /// Parses `tract`, `onnxruntime` (or `ort`), `native` or `auto`.
    pub fn parse(s: &str) -> Result<Self> {
        match s {
            "tract" => Ok(Backend::Tract),
            "native" => Ok(Backend::Native),
            "onnxruntime" | "ort" => Ok(Backend::OnnxRuntime { library: None }),
            "auto" => Ok(Backend::Auto),
            other => Err(Error::new(
                ErrorKind::Config,
                format!("unknown backend `{other}`: expected tract, onnxruntime, native or auto"),
            )),
        }
    }
}

impl Backend {
    /// The backend [`BACKEND_ENV`] names, or `None` when it is unset or empty; a value that is
    /// not a backend's name is an error, not a silent default.
    pub fn from_env() -> Result<Option<Self>> {
        match std::env::var(BACKEND_ENV) {
            Ok(v) if !v.is_empty() => Backend::parse(&v).map(Some).map_err(|e| {
                Error::new(ErrorKind::Config, format!("{BACKEND_ENV}: {}", e.message()))
            }),
            Ok(_) | Err(std::env::VarError::NotPresent) => Ok(None),
            Err(std::env::VarError::NotUnicode(_)) => Err(Error::new(
                ErrorKind::Config,
                format!("{BACKEND_ENV} is not valid UTF-8"),
            )),
        }
    }
}

/// The backend this process initialised.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Active {
    /// tract.
    Tract,
    /// ONNX Runtime, from this library, of this version.
    OnnxRuntime {
        /// The library that was loaded.
        library: PathBuf,
        /// Its version string.
        version: String,
    },
    /// The native evaluator ([`Backend::Native`]).
    Native,
}

/// The one [`Active::Native`], for policies to point at.
pub(crate) static NATIVE: Active = Active::Native;

impl Active {
    /// A short name: `tract`, `onnxruntime` or `native`.
    pub fn name(&self) -> &'static str {
        match self {
            Active::Tract => "tract",
            Active::OnnxRuntime { .. } => "onnxruntime",
            Active::Native => "native",
        }
    }

    fn satisfies(&self, want: &Backend) -> bool {
        match (want, self) {
            (Backend::Auto, _) | (Backend::Tract, Active::Tract) => true,
            (Backend::OnnxRuntime { library: None }, Active::OnnxRuntime { .. }) => true,
            (Backend::OnnxRuntime { library: Some(p) }, Active::OnnxRuntime { library, .. }) => {
                same_file(p, library)
            }
            _ => false,
        }
    }
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

struct Initialised {
    active: Active,
    env: ort::environment::Environment,
}

static STATE: OnceLock<Initialised> = OnceLock::new();
static INIT: Mutex<()> = Mutex::new(());

/// Initialises `backend` for this process, once; see the [module docs](self).
pub fn init(backend: &Backend) -> Result<&'static Active> {
    // One initialisation at a time; the loser of a race sees the winner's choice.
    let _guard = INIT.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(s) = STATE.get() {
        return if s.active.satisfies(backend) {
            Ok(&s.active)
        } else {
            Err(Error::new(
                ErrorKind::Backend,
                format!(
                    "this process already uses the {} backend; ort's backend is chosen once per \
                     process, so {backend:?} cannot be initialised too",
                    s.active.name()
                ),
            ))
        };
    }
    let active = match backend {
        Backend::Native => {
            return Err(Error::new(
                ErrorKind::Backend,
                "the native backend is not one of ort's: it runs structured MLP policies \
                 without initialisation, and nothing else",
            ));
        }
        Backend::Tract => init_tract()?,
        Backend::OnnxRuntime { library } => init_ort(library.as_deref())?,
        Backend::Auto => match find_ort_library(None) {
            Ok(lib) => init_ort(Some(&lib))?,
            Err(e) if cfg!(feature = "tract") => {
                log::info!("{e}; using the tract backend");
                init_tract()?
            }
            Err(e) => return Err(e),
        },
    };
    let env = ort::init()
        .with_name("evoharness")
        .build()
        .context(ErrorKind::Backend, || {
            format!("creating the {} environment", active.name())
        })?;
    let state = STATE.get_or_init(|| Initialised { active, env });
    Ok(&state.active)
}

/// The backend this process initialised, if any.
pub fn active() -> Option<&'static Active> {
    STATE.get().map(|s| &s.active)
}

pub(crate) fn environment() -> Option<&'static ort::environment::Environment> {
    STATE.get().map(|s| &s.env)
}

#[cfg(feature = "tract")]
fn init_tract() -> Result<Active> {
    if !ort::set_api(ort_tract::api()) {
        return Err(conflict());
    }
    Ok(Active::Tract)
}

#[cfg(not(feature = "tract"))]
fn init_tract() -> Result<Active> {
    Err(Error::new(
        ErrorKind::Backend,
        "the tract backend is not compiled in: build evoharness-runtime with its `tract` feature, \
         or choose the onnxruntime backend",
    ))
}

fn conflict() -> Error {
    Error::new(
        ErrorKind::Backend,
        "ort's backend API was already set in this process by other code; evoharness cannot \
         choose a backend after that",
    )
}

/// Finds the ONNX Runtime library: `explicit`, else [`ORT_LIB_ENV`], else [`ORT_LIB_DEFAULT`]
/// from the current directory upwards.
pub fn find_ort_library(explicit: Option<&Path>) -> Result<PathBuf> {
    let mut looked = Vec::new();
    if let Some(p) = explicit {
        if p.is_file() {
            return Ok(p.to_path_buf());
        }
        looked.push(p.display().to_string());
    } else if let Some(p) = std::env::var_os(ORT_LIB_ENV).filter(|p| !p.is_empty()) {
        let p = PathBuf::from(p);
        if p.is_file() {
            return Ok(p);
        }
        looked.push(format!("{} (from {ORT_LIB_ENV})", p.display()));
    } else if let Ok(cwd) = std::env::current_dir() {
        for dir in cwd.ancestors() {
            let p = dir.join(ORT_LIB_DEFAULT);
            if p.is_file() {
                return Ok(p);
            }
        }
        looked.push(format!(
            "{ORT_LIB_DEFAULT} in {} and its parents",
            cwd.display()
        ));
    }
    Err(Error::new(
        ErrorKind::Backend,
        format!(
            "ONNX Runtime library not found (looked for {}). Run scripts/fetch-onnxruntime.sh \
             in the repository (it fetches ONNX Runtime {ORT_VERSION}), or set {ORT_LIB_ENV} to \
             a libonnxruntime.so of version 1.{} or newer",
            looked.join(", "),
            ort::MINOR_VERSION
        ),
    ))
}

fn init_ort(explicit: Option<&Path>) -> Result<Active> {
    let library = find_ort_library(explicit)?;
    // Loads the library and refuses one older than ort's API version, with a clean error.
    let _builder = ort::init_from(&library).context(ErrorKind::Backend, || {
        format!("loading ONNX Runtime from {}", library.display())
    })?;
    let (api, version) = load_api(&library)?;
    if !ort::set_api(api) {
        return Err(conflict());
    }
    Ok(Active::OnnxRuntime { library, version })
}

/// Reads the `OrtApi` table from the library, for `ort::set_api`: with the alternative-backend
/// feature on, ort does not fetch it itself.
fn load_api(library: &Path) -> Result<(ort::sys::OrtApi, String)> {
    let bad = |what: &str| Error::new(ErrorKind::Backend, format!("{}: {what}", library.display()));
    // SAFETY: loading ONNX Runtime runs its initialisers, which have no preconditions; ort has
    // just loaded the very same library (so this returns the same handle), and it stays loaded
    // for the life of the process (the handle is leaked below).
    let lib = unsafe { libloading::Library::new(library) }.context(ErrorKind::Backend, || {
        format!("loading {}", library.display())
    })?;
    type GetApiBase = unsafe extern "C" fn() -> *const ort::sys::OrtApiBase;
    // SAFETY: `OrtGetApiBase` has this signature in every ONNX Runtime release.
    let get_base = unsafe { lib.get::<GetApiBase>(b"OrtGetApiBase") }
        .context(ErrorKind::Backend, || {
            format!("{} exports no OrtGetApiBase", library.display())
        })?;
    // SAFETY: a plain call without arguments; the result is checked for null.
    let base = unsafe { get_base() };
    if base.is_null() {
        return Err(bad("OrtGetApiBase returned null"));
    }
    // SAFETY: `base` is non-null and points at the library's static OrtApiBase; the version
    // string it returns is a static NUL-terminated string.
    let version = unsafe { std::ffi::CStr::from_ptr(((*base).GetVersionString)()) }
        .to_string_lossy()
        .into_owned();
    // SAFETY: as above; GetApi returns null for an API version the library does not have.
    let api = unsafe { ((*base).GetApi)(ort::sys::ORT_API_VERSION) };
    if api.is_null() {
        return Err(bad(&format!(
            "ONNX Runtime {version} does not provide API version {}",
            ort::sys::ORT_API_VERSION
        )));
    }
    // The library must outlive every use of its function table.
    std::mem::forget(lib);
    // SAFETY: `api` is non-null and points at the library's static OrtApi table; cloning it
    // copies function pointers into a library that is never unloaded.
    Ok((unsafe { (*api).clone() }, version))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_backend_names() {
        assert_eq!(Backend::parse("tract").unwrap(), Backend::Tract);
        assert_eq!(
            Backend::parse("ort").unwrap(),
            Backend::OnnxRuntime { library: None }
        );
        assert_eq!(Backend::parse("auto").unwrap(), Backend::Auto);
        assert_eq!(Backend::parse("native").unwrap(), Backend::Native);
        let e = Backend::parse("cuda").unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Config);
        assert!(
            e.to_string()
                .contains("expected tract, onnxruntime, native or auto")
        );
    }

    #[test]
    fn a_missing_library_says_what_to_do() {
        let e = find_ort_library(Some(Path::new("/nonexistent/libonnxruntime.so"))).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Backend);
        let msg = e.to_string();
        assert!(msg.contains("scripts/fetch-onnxruntime.sh"), "{msg}");
        assert!(msg.contains(ORT_LIB_ENV), "{msg}");
    }
}
