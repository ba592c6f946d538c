//! Policies: loading an ONNX policy (structured v1 or v2, or a generative-v1 language model) with
//! options, and reading its contract.

use std::ffi::c_char;
use std::path::PathBuf;

use evoharness_runtime::{Active, AnyPolicy, Backend, Device, PolicyBuilder, PolicyLimits};

use crate::ffi::{self, Castable, Error, guard, guard_value};
use crate::status::evoharness_status;
use crate::workspace::evoharness_capacities;

/// A loaded, checked policy: an ONNX model that follows the structured contract (v1 or v2) or
/// is a `generative-v1` language model (`runtime/POLICY.md`; the file's metadata says which),
/// with its inference session.
///
/// Made by `evoharness_policy_load` or `evoharness_policy_load_from_memory`; owned by the
/// caller until given to `evoharness_agent_new` or `evoharness_agent_resume`, which take it
/// over. Free one you still own with `evoharness_policy_free`.
///
/// Thread safety: a policy may be moved to another thread; one thread may use it at a time.
pub struct evoharness_policy {
    _private: [u8; 0],
}

impl Castable for evoharness_policy {
    type Rust = AnyPolicy;
}

/// Which inference backend runs policies. The choice is made once per process, by the first
/// policy loaded; a later load that asks for a different one fails with `BACKEND`.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum evoharness_backend {
    /// With `ort_library` set, ONNX Runtime from that file. Otherwise ONNX Runtime if its
    /// library is found (the `EVOHARNESS_ORT_LIB` environment variable, else
    /// `third_party/onnxruntime/lib/libonnxruntime.so` from the current directory upwards),
    /// else tract.
    Auto = 0,
    /// tract: pure Rust, built in, CPU only.
    Tract = 1,
    /// ONNX Runtime (1.24 or newer), loaded from its shared library at run time.
    Onnxruntime = 2,
    /// The native evaluator: structured MLP policies (an ONNX file converted at load, or a
    /// `.ehp` file), CPU only, built in.
    Native = 3,
}

/// Where inference runs.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum evoharness_device {
    /// The CPU.
    Cpu = 0,
    /// An NVIDIA GPU through ONNX Runtime's CUDA execution provider.
    Cuda = 1,
    /// An NVIDIA GPU through ONNX Runtime's TensorRT execution provider.
    Tensorrt = 2,
}

/// How to load a policy. Fill it with `evoharness_policy_options_default`, then change what you
/// need.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct evoharness_policy_options {
    /// One of `evoharness_backend`.
    pub backend: u32,
    /// The ONNX Runtime library to load, or NULL to look for it the default way (see
    /// `EVOHARNESS_BACKEND_AUTO`). Read during the call only.
    pub ort_library: *const c_char,
    /// One of `evoharness_device`.
    pub device: u32,
    /// The CUDA device index for CUDA and TensorRT.
    pub device_id: i32,
    /// Intra-op threads for ONNX Runtime (tract ignores it); 0 for the backend's default.
    pub threads: u32,
    /// Whether an unavailable device falls back to the CPU (with a warning in the log) instead
    /// of failing with `DEVICE`.
    pub cpu_fallback: bool,
    /// What loading the file may cost at most: a policy file is untrusted input.
    pub limits: evoharness_policy_limits,
}

/// Caps on what a policy file may declare, checked before any inference session exists; a
/// file over one is refused with `POLICY`, the limit named in the last error. 0 for a field
/// means its default (`evoharness_policy_options_default` writes the defaults).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct evoharness_policy_limits {
    /// The file's size in bytes (default 256 MiB).
    pub max_file_bytes: u64,
    /// Nodes in the graph and all its subgraphs (default 100,000).
    pub max_nodes: u64,
    /// Elements of any one tensor the file declares (default 2^26).
    pub max_tensor_elements: u64,
    /// Bytes all constant tensors declare together (default 256 MiB).
    pub max_constant_bytes: u64,
}

/// The contract a loaded policy declares, as checked.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct evoharness_policy_abi {
    /// The ABI name, NUL-terminated: `structured-v1` or `structured-v2` (whose observation
    /// adds the `harness` segment; the agent writes the one its policy declares), or
    /// `generative-v1` (a language model: it reads the workspace as text and writes its
    /// action, decoded under the grammar of the legal ones).
    pub abi: [c_char; 32],
    /// The observation layout version: 1 for `structured-v1`, 2 for `structured-v2`, 0 for
    /// `generative-v1` (no observation).
    pub layout_version: u32,
    /// The capacities and tool count it was made for (an agent's workspace gets these).
    pub capacities: evoharness_capacities,
    /// Floats in one observation (0 for `generative-v1`).
    pub obs_len: usize,
    /// Action templates (the length of the logits and of the mask).
    pub actions: usize,
    /// Whether it is recurrent (carries a state between steps).
    pub recurrent: bool,
    /// The length of its recurrent state (0 if it is not recurrent).
    pub state_len: usize,
    /// Whether it also outputs a value estimate.
    pub has_value: bool,
    /// How many tool names it declares: 0 or `capacities.tools` (read them with
    /// `evoharness_policy_tool_name`).
    pub tool_names: usize,
    /// The backend running it (`evoharness_backend`, never `AUTO`).
    pub backend: u32,
    /// The device it runs on (`evoharness_device`): the one asked for, or the CPU after an
    /// allowed fallback.
    pub device: u32,
    /// The CUDA device index, for CUDA and TensorRT.
    pub device_id: i32,
}

/// Fills `*out` with the defaults: automatic backend, the default library lookup, the CPU, the
/// backend's default threads, no fallback, the default limits. Any thread.
///
/// Errors: `NULL_ARGUMENT`.
///
/// # Safety
/// `out` is NULL or points at a writable struct.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_policy_options_default(
    out: *mut evoharness_policy_options,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        unsafe { ffi::out(out, "out") }?.write(evoharness_policy_options {
            backend: evoharness_backend::Auto as u32,
            ort_library: std::ptr::null(),
            device: evoharness_device::Cpu as u32,
            device_id: 0,
            threads: 0,
            cpu_fallback: false,
            limits: {
                let d = PolicyLimits::default();
                evoharness_policy_limits {
                    max_file_bytes: d.max_file_bytes,
                    max_nodes: d.max_nodes,
                    max_tensor_elements: d.max_tensor_elements,
                    max_constant_bytes: d.max_constant_bytes,
                }
            },
        });
        Ok(())
    })
}

/// # Safety
/// `options` points at a readable struct whose `ort_library` is NULL or a NUL-terminated
/// string.
unsafe fn builder(options: *const evoharness_policy_options) -> ffi::Result<PolicyBuilder> {
    // SAFETY: the caller's contract.
    let o = unsafe { ffi::input(options, "options") }?;
    let library = if o.ort_library.is_null() {
        None
    } else {
        // SAFETY: non-NULL and NUL-terminated (the caller's contract).
        Some(PathBuf::from(unsafe {
            ffi::path(o.ort_library, "options->ort_library")
        }?))
    };
    let backend = match o.backend {
        0 if library.is_some() => Backend::OnnxRuntime { library },
        0 => Backend::Auto,
        1 => Backend::Tract,
        2 => Backend::OnnxRuntime { library },
        3 => Backend::Native,
        b => {
            return Err(Error::invalid(format!(
                "options->backend is {b}: not an evoharness_backend (0 auto, 1 tract, \
                 2 onnxruntime, 3 native)"
            )));
        }
    };
    let device = match o.device {
        0 => Device::Cpu,
        1 => Device::Cuda {
            device: o.device_id,
        },
        2 => Device::TensorRt {
            device: o.device_id,
        },
        d => {
            return Err(Error::invalid(format!(
                "options->device is {d}: not an evoharness_device (0 cpu, 1 cuda, 2 tensorrt)"
            )));
        }
    };
    let d = PolicyLimits::default();
    let or = |v: u64, default: u64| if v == 0 { default } else { v };
    let limits = PolicyLimits {
        max_file_bytes: or(o.limits.max_file_bytes, d.max_file_bytes),
        max_nodes: or(o.limits.max_nodes, d.max_nodes),
        max_tensor_elements: or(o.limits.max_tensor_elements, d.max_tensor_elements),
        max_constant_bytes: or(o.limits.max_constant_bytes, d.max_constant_bytes),
    };
    let mut b = PolicyBuilder::new()
        .backend(backend)
        .device(device)
        .cpu_fallback(o.cpu_fallback)
        .limits(limits);
    if o.threads > 0 {
        b = b.threads(o.threads as usize);
    }
    Ok(b)
}

/// Loads the policy file at `path` (a NUL-terminated path), checks its contract and prepares
/// it for inference with `*options`; on success `*out` is a new policy that the caller owns.
/// The kind follows from the file's `evoharness.abi`: a structured network (v1 or v2), or a
/// `generative-v1` language model, which agents run through the same calls.
///
/// The first policy a process loads chooses the backend for the whole process (see
/// `evoharness_backend`).
///
/// Errors (`*out` is not written): `NULL_ARGUMENT`; `INVALID_ARGUMENT` for options out of
/// range; `IO` when the file cannot be read; `POLICY` when it is not valid ONNX or breaks its
/// contract, structured (v1 or v2) or generative-v1 (the message names the mismatch: the ABI, a
/// capacity, an input's width, a context too short, ...); `BACKEND`; `DEVICE`.
///
/// # Safety
/// `path` is a NUL-terminated string; `options` points at readable options (their
/// `ort_library` NULL or NUL-terminated); `out` at a writable pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_policy_load(
    path: *const c_char,
    options: *const evoharness_policy_options,
    out: *mut *mut evoharness_policy,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract, argument by argument.
        let (path, builder, out) = unsafe {
            (
                ffi::path(path, "path")?,
                builder(options)?,
                ffi::out(out, "out")?,
            )
        };
        let policy = builder.commit_any_from_file(path)?;
        out.write(ffi::to_owned_ptr(policy));
        Ok(())
    })
}

/// Loads a policy from the `len` bytes of an ONNX file at `bytes` (copied; the caller keeps
/// them); otherwise as `evoharness_policy_load`.
///
/// Errors: as `evoharness_policy_load`, without `IO`.
///
/// # Safety
/// `bytes` points at `len` readable bytes; `options` and `out` as for `evoharness_policy_load`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_policy_load_from_memory(
    bytes: *const u8,
    len: usize,
    options: *const evoharness_policy_options,
    out: *mut *mut evoharness_policy,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract, argument by argument.
        let (bytes, builder, out) = unsafe {
            (
                ffi::slice(bytes, len, "bytes")?,
                builder(options)?,
                ffi::out(out, "out")?,
            )
        };
        let policy = builder.commit_any_from_memory(bytes)?;
        out.write(ffi::to_owned_ptr(policy));
        Ok(())
    })
}

/// Frees a policy the caller owns (not one given to an agent). NULL is a no-op.
///
/// # Safety
/// `policy` is NULL or a policy from `evoharness_policy_load*`, not yet freed nor given to an
/// agent, that no other thread is using.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_policy_free(policy: *mut evoharness_policy) {
    guard_value((), || {
        // SAFETY: the caller's contract.
        unsafe { ffi::free_owned(policy) }
    })
}

/// Writes the policy's checked contract to `*out`.
///
/// Errors: `NULL_ARGUMENT`.
///
/// # Safety
/// `policy` is a live policy that no thread uses meanwhile; `out` points at a writable struct.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_policy_get_abi(
    policy: *const evoharness_policy,
    out: *mut evoharness_policy_abi,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let (p, out) = unsafe { (ffi::try_ref(policy, "policy")?, ffi::out(out, "out")?) };
        out.write(abi_of(p));
        Ok(())
    })
}

pub(crate) fn abi_of(p: &AnyPolicy) -> evoharness_policy_abi {
    let (device, device_id) = match p.device() {
        Device::Cpu => (evoharness_device::Cpu, 0),
        Device::Cuda { device } => (evoharness_device::Cuda, device),
        Device::TensorRt { device } => (evoharness_device::Tensorrt, device),
    };
    let (layout_version, obs_len, state_len, has_value) = match p {
        AnyPolicy::Structured(s) => {
            let a = s.abi();
            (a.layout_version, a.obs_len, a.state_len, a.has_value)
        }
        AnyPolicy::Generative(_) => (0, 0, None, false),
    };
    evoharness_policy_abi {
        abi: ffi::fixed_str(p.abi_name()),
        layout_version,
        capacities: evoharness_capacities::from_core(p.capacities()),
        obs_len,
        actions: p.layout().actions(),
        recurrent: state_len.is_some(),
        state_len: state_len.unwrap_or(0),
        has_value,
        tool_names: p.tool_names().len(),
        backend: match p.backend() {
            Active::Tract => evoharness_backend::Tract,
            Active::OnnxRuntime { .. } => evoharness_backend::Onnxruntime,
            Active::Native => evoharness_backend::Native,
        } as u32,
        device: device as u32,
        device_id,
    }
}

/// Writes the name of tool `index` that the policy file declares (its `evoharness.tool_names`
/// metadata), NUL-terminated, into `buf` (`cap` bytes) and its length to `*out_len`.
///
/// Errors: `NULL_ARGUMENT`; `NOT_FOUND` for an index past the last name (a policy may declare
/// none); `BUFFER_TOO_SMALL` (nothing written).
///
/// # Safety
/// `policy` is a live policy that no thread uses meanwhile; `buf` points at `cap` writable
/// bytes; `out_len` at a writable `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_policy_tool_name(
    policy: *const evoharness_policy,
    index: usize,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let p = unsafe { ffi::try_ref(policy, "policy") }?;
        let names = p.tool_names();
        let name = names.get(index).ok_or_else(|| {
            Error::not_found(format!(
                "no tool name {index}: the policy declares {}",
                names.len()
            ))
        })?;
        // SAFETY: the caller's contract.
        unsafe { ffi::write_str(name, buf, cap, out_len) }
    })
}
