//! The options `inspect` and `run` share: which backend and device, and loading the policy
//! with them.

use evoharness_runtime::backend::Backend;
use evoharness_runtime::{AnyPolicy, Device, Error, ErrorKind, Policy, PolicyBuilder};

use crate::args::{Flag, Parsed, Usage};
use crate::failure::{Failure, describe};

/// The backend flags.
pub(crate) const BACKEND_FLAGS: [Flag; 2] = [
    Flag::value("--backend", "tract, onnxruntime, native or auto"),
    Flag::value("--ort-lib", "the path of libonnxruntime.so"),
];

/// The device flags.
pub(crate) const DEVICE_FLAGS: [Flag; 3] = [
    Flag::value("--device", "cpu, cuda[:N] or tensorrt[:N]"),
    Flag::switch("--cpu-fallback"),
    Flag::value("--threads", "a number of threads"),
];

/// Help text for the backend flags.
pub(crate) const BACKEND_HELP: &str =
    "  --backend NAME       tract (pure Rust, built in), onnxruntime (ort for short), native
                       (built in: MLP policies only, an ONNX file converted at load or a
                       .ehp file from `evoharness convert`) or auto (default:
                       $EVOHARNESS_BACKEND, else auto: native for a .ehp file, else ONNX
                       Runtime when its library is found, else tract)
  --ort-lib FILE       the ONNX Runtime library to load (implies --backend onnxruntime);
                       without it: $EVOHARNESS_ORT_LIB, else third_party/onnxruntime/lib/
                       libonnxruntime.so in this directory or a parent
";

/// The last line of every command's options.
pub(crate) const HELP_HELP: &str = "  -h, --help           this help\n";

/// Help text for the device flags.
pub(crate) const DEVICE_HELP: &str =
    "  --device DEVICE      cpu (default), cuda[:N] or tensorrt[:N] (ONNX Runtime with a GPU build
                       of its library); an unavailable device is an error...
  --cpu-fallback       ...unless this is given: then the policy runs on the CPU, with a warning
  --threads N          intra-op threads (ONNX Runtime; tract ignores it)
";

/// The chosen backend and device options.
#[derive(Debug)]
pub(crate) struct Choice {
    builder: PolicyBuilder,
    device: Device,
    /// The device as given (or `cpu`).
    device_name: String,
    cpu_fallback: bool,
}

/// A loaded policy, and where it runs.
#[derive(Debug)]
pub(crate) struct Loaded<P = Policy> {
    pub(crate) policy: P,
    /// `cpu`, the device as given, or `cpu (DEVICE was not available)`.
    pub(crate) device: String,
}

/// Reads the backend and device flags (the device ones only if the command has them).
pub(crate) fn choice(p: &Parsed, command: &'static str) -> Result<Choice, Usage> {
    let usage = |m: String| Usage::new(command, m);
    let mut backend = match p.value("--backend") {
        Some(b) => Backend::parse(b).map_err(|e| usage(format!("--backend: {}", e.message())))?,
        None => Backend::from_env()
            .map_err(|e| usage(e.to_string()))?
            .unwrap_or(Backend::Auto),
    };
    if let Some(lib) = p.value("--ort-lib") {
        if backend == Backend::Tract {
            return Err(usage(
                "--ort-lib names an ONNX Runtime library, but --backend is tract".into(),
            ));
        }
        backend = Backend::OnnxRuntime {
            library: Some(lib.into()),
        };
    }
    let device_name = p.value("--device").unwrap_or("cpu");
    let device =
        Device::parse(device_name).map_err(|e| usage(format!("--device: {}", e.message())))?;
    // Fallback is done here rather than by the builder, so that the summary can say where the
    // policy really runs.
    let mut builder = PolicyBuilder::new().backend(backend).cpu_fallback(false);
    if let Some(n) = p.parse::<usize>("--threads", "a number of threads above 0")? {
        if n == 0 {
            return Err(usage(
                "`--threads 0`: expected a number of threads above 0".into(),
            ));
        }
        builder = builder.threads(n);
    }
    Ok(Choice {
        builder,
        device,
        device_name: device_name.to_string(),
        cpu_fallback: p.switch("--cpu-fallback"),
    })
}

impl Choice {
    /// The same choice with `n` intra-op threads.
    pub(crate) fn with_threads(&self, n: usize) -> Choice {
        Choice {
            builder: self.builder.clone().threads(n),
            device: self.device,
            device_name: self.device_name.clone(),
            cpu_fallback: self.cpu_fallback,
        }
    }

    /// The same choice with backend `b` instead.
    pub(crate) fn with_backend(&self, b: Backend) -> Choice {
        Choice {
            builder: self.builder.clone().backend(b),
            device: self.device,
            device_name: self.device_name.clone(),
            cpu_fallback: self.cpu_fallback,
        }
    }

    /// A builder for the chosen backend and device, with the chosen CPU fallback.
    pub(crate) fn builder(&self) -> PolicyBuilder {
        self.builder
            .clone()
            .device(self.device)
            .cpu_fallback(self.cpu_fallback)
    }
}

/// Loads and checks the policy in `file` on the chosen device, or on the CPU if that device is
/// not available and `--cpu-fallback` was given.
pub(crate) fn load(choice: &Choice, file: &str) -> Result<Loaded, Failure> {
    load_with(choice, file, |b| b.commit_from_file(file))
}

/// [`load`] for a policy of either kind (`structured-v1` or `generative-v1`, by the file).
pub(crate) fn load_any(choice: &Choice, file: &str) -> Result<Loaded<AnyPolicy>, Failure> {
    load_with(choice, file, |b| b.commit_any_from_file(file))
}

fn load_with<P>(
    choice: &Choice,
    file: &str,
    commit: impl Fn(PolicyBuilder) -> evoharness_runtime::Result<P>,
) -> Result<Loaded<P>, Failure> {
    let on = |device| commit(choice.builder.clone().device(device));
    match on(choice.device) {
        Ok(policy) => Ok(Loaded {
            policy,
            device: choice.device_name.clone(),
        }),
        Err(e) if e.kind() == ErrorKind::Device && choice.cpu_fallback => {
            log::warn!(
                target: "evoharness",
                "--device {}: {}; running on the CPU instead (--cpu-fallback)",
                choice.device_name,
                describe(&e, file).trim_end_matches('.')
            );
            let policy = on(Device::Cpu).map_err(|e| failure(choice, file, &e))?;
            Ok(Loaded {
                policy,
                device: format!("cpu ({} was not available)", choice.device_name),
            })
        }
        Err(e) => Err(failure(choice, file, &e)),
    }
}

fn failure(choice: &Choice, file: &str, e: &Error) -> Failure {
    match e.kind() {
        ErrorKind::Io => {
            let cause =
                std::error::Error::source(e).map_or_else(|| e.to_string(), ToString::to_string);
            Failure::other(format!("{file}: cannot read it: {cause}"))
        }
        // Not about the file: the backend's library, or the device.
        ErrorKind::Backend => Failure::runtime(e),
        ErrorKind::Device => Failure::other(format!(
            "--device {}: {}{}",
            choice.device_name,
            describe(e, file),
            if choice.cpu_fallback {
                ""
            } else {
                " (or add --cpu-fallback to run on the CPU instead)"
            }
        )),
        _ => Failure::about(file, e),
    }
}

/// The backend a policy runs on, as one phrase: `tract`, `native` or
/// `onnxruntime 1.31.1 (PATH)`.
pub(crate) fn backend_phrase(active: Option<&evoharness_runtime::Active>) -> String {
    match active {
        Some(evoharness_runtime::Active::OnnxRuntime { library, version }) => {
            format!("onnxruntime {version} ({})", library.display())
        }
        Some(a) => a.name().to_string(),
        None => "none".to_string(),
    }
}
