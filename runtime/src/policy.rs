//! Loading a structured-v1 policy and running it.
//!
//! A [`PolicyBuilder`] holds the options (backend, device, threads) and *commits* a policy from
//! a file or from bytes, as ort does with sessions. Committing checks the file's contract (see
//! `runtime/POLICY.md`) against the core's layout: the ABI name and version in the ONNX
//! metadata, the capacities, the observation and action sizes, and every input and output's
//! name, type and shape. A file that does not fit is refused with an error that names the
//! mismatch; nothing is run on a guess.
//!
//! A [`Policy`] keeps its input tensors and output buffers from the start, so running it does
//! not allocate in this crate (the backend may; see the crate's figures).

use std::path::Path;

use evoharness_core::Capacities;
use evoharness_core::obs::{Layout, Version};
use ort::session::Session;
use ort::session::builder::GraphOptimizationLevel;
use ort::value::{Tensor, TensorElementType, ValueType};

use crate::backend::{self, Active, Backend};
use crate::error::{Context, Error, ErrorKind, Result};
use crate::framed_file::CRC64;
use crate::limits::PolicyLimits;
use crate::native;

/// Where inference runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Device {
    /// The CPU.
    #[default]
    Cpu,
    /// An NVIDIA GPU through ONNX Runtime's CUDA execution provider.
    Cuda {
        /// The CUDA device index.
        device: i32,
    },
    /// An NVIDIA GPU through ONNX Runtime's TensorRT execution provider.
    TensorRt {
        /// The CUDA device index.
        device: i32,
    },
}

impl std::fmt::Display for Device {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Device::Cpu => f.write_str("cpu"),
            Device::Cuda { device } => write!(f, "cuda:{device}"),
            Device::TensorRt { device } => write!(f, "tensorrt:{device}"),
        }
    }
}

impl Device {
    /// Parses `cpu`, `cuda`, `cuda:N`, `tensorrt` or `tensorrt:N`.
    pub fn parse(s: &str) -> Result<Self> {
        let (name, id) = match s.split_once(':') {
            Some((n, id)) => {
                let id = id.parse().map_err(|_| {
                    Error::new(ErrorKind::Config, format!("bad device index in `{s}`"))
                })?;
                (n, id)
            }
            None => (s, 0),
        };
        match name {
            "cpu" => Ok(Device::Cpu),
            "cuda" => Ok(Device::Cuda { device: id }),
            "tensorrt" | "trt" => Ok(Device::TensorRt { device: id }),
            _ => Err(Error::new(
                ErrorKind::Config,
                format!("unknown device `{s}`: expected cpu, cuda[:N] or tensorrt[:N]"),
            )),
        }
    }
}

/// The contract a policy file declares, as read from its metadata and checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PolicyAbi {
    /// The ABI name (`structured-v1` or `structured-v2`).
    pub abi: String,
    /// The layout version.
    pub layout_version: u32,
    /// The workspace capacities and tool count the policy was trained for.
    pub capacities: Capacities,
    /// Floats in one observation.
    pub obs_len: usize,
    /// Action templates.
    pub actions: usize,
    /// The recurrent state's length, for a recurrent policy.
    pub state_len: Option<usize>,
    /// Whether the policy also outputs a value estimate.
    pub has_value: bool,
    /// The task's tool names, if the file names them.
    pub tool_names: Vec<String>,
    /// What made the file, if it says.
    pub producer: Option<String>,
}

impl PolicyAbi {
    /// The observation layout version its ABI name and layout version declare (checked at
    /// load: a loaded policy's is always one this runtime runs).
    pub fn version(&self) -> Version {
        Version::from_declared(&self.abi, u64::from(self.layout_version)).unwrap_or_default()
    }
}

/// The identity of a policy, as recorded in its checkpoints: a CRC-64/XZ over the ABI name,
/// layout version, capacities, observation and action sizes, recurrent state length, tool names,
/// and the file's [`Policy::fingerprint`], so a retrained policy of the same shape does not
/// resume another's run.
pub fn policy_identity(abi: &PolicyAbi, fingerprint: u64) -> u64 {
    let mut d = CRC64.digest();
    let mut field = |bytes: &[u8]| {
        d.update(&(bytes.len() as u64).to_le_bytes());
        d.update(bytes);
    };
    field(abi.abi.as_bytes());
    field(&abi.layout_version.to_le_bytes());
    let c = abi.capacities;
    for n in [c.facts, c.steps, c.lessons, c.tools] {
        field(&n.to_le_bytes());
    }
    field(&(abi.obs_len as u64).to_le_bytes());
    field(&(abi.actions as u64).to_le_bytes());
    field(&abi.state_len.map_or(u64::MAX, |n| n as u64).to_le_bytes());
    for t in &abi.tool_names {
        field(t.as_bytes());
    }
    field(&fingerprint.to_le_bytes());
    d.finalize()
}

/// Options for loading a policy.
#[derive(Clone, Debug, Default)]
pub struct PolicyBuilder {
    backend: Backend,
    device: Device,
    cpu_fallback: bool,
    threads: Option<usize>,
    limits: PolicyLimits,
}

impl PolicyBuilder {
    /// Defaults: automatic backend, CPU, no fallback, the backend's default threads, the
    /// default [`PolicyLimits`].
    pub fn new() -> Self {
        Self::default()
    }

    /// The backend. The first policy a process loads initialises it (see [`crate::backend`]).
    pub fn backend(mut self, backend: Backend) -> Self {
        self.backend = backend;
        self
    }

    /// The device. A device that is not available is an error unless
    /// [`PolicyBuilder::cpu_fallback`] allows running on the CPU instead.
    pub fn device(mut self, device: Device) -> Self {
        self.device = device;
        self
    }

    /// Whether an unavailable device falls back to the CPU (with a warning in the log).
    pub fn cpu_fallback(mut self, allow: bool) -> Self {
        self.cpu_fallback = allow;
        self
    }

    /// Intra-op threads (ONNX Runtime; tract ignores it).
    pub fn threads(mut self, n: usize) -> Self {
        self.threads = Some(n);
        self
    }

    /// What loading the file may cost at most (see [`crate::limits`]): a file over a limit is
    /// refused with [`ErrorKind::Policy`] before any session exists.
    pub fn limits(mut self, limits: PolicyLimits) -> Self {
        self.limits = limits;
        self
    }

    /// Loads, checks and prepares the policy in `path`.
    pub fn commit_from_file(self, path: impl AsRef<Path>) -> Result<Policy> {
        let path = path.as_ref();
        let bytes = self.read_file(path)?;
        self.commit(&bytes, &path.display().to_string())
    }

    /// A policy file's bytes; a file over the size limit is refused before it is read.
    pub(crate) fn read_file(&self, path: &Path) -> Result<Vec<u8>> {
        if let Ok(m) = std::fs::metadata(path) {
            self.limits
                .check_len(m.len(), &path.display().to_string())?;
        }
        std::fs::read(path).context(ErrorKind::Io, || {
            format!("reading policy {}", path.display())
        })
    }

    /// Loads, checks and prepares a policy from the bytes of an ONNX file.
    pub fn commit_from_memory(self, bytes: &[u8]) -> Result<Policy> {
        self.commit(bytes, "policy in memory")
    }

    /// A structured policy from bytes, named `name` in errors.
    pub(crate) fn commit_named(self, bytes: &[u8], name: &str) -> Result<Policy> {
        self.commit(bytes, name)
    }

    fn commit(self, bytes: &[u8], name: &str) -> Result<Policy> {
        let file_is_native = native::is_native(bytes);
        if file_is_native || self.backend == Backend::Native {
            return self.commit_native(bytes, name, file_is_native);
        }
        let (abi, session, device, active) = self.open(bytes, name, |meta| read_abi(meta, name))?;
        let mut policy = Policy::new(session, abi, active, name)?;
        policy.device = device;
        policy.fingerprint = CRC64.checksum(bytes);
        Ok(policy)
    }

    /// A policy on the native backend: from a native file as it is, or converted from ONNX.
    fn commit_native(&self, bytes: &[u8], name: &str, file_is_native: bool) -> Result<Policy> {
        if !matches!(self.backend, Backend::Native | Backend::Auto) {
            return Err(Error::new(
                ErrorKind::Config,
                format!(
                    "{name} is a native policy file, which only the native backend runs; it was \
                     asked for {:?} (choose native or auto)",
                    self.backend
                ),
            ));
        }
        if self.device != Device::Cpu && !self.cpu_fallback {
            return Err(Error::new(
                ErrorKind::Device,
                format!(
                    "{} requested, but the native backend is CPU only",
                    self.device
                ),
            ));
        }
        self.limits.check_len(bytes.len() as u64, name)?;
        let converted;
        let native_bytes = if file_is_native {
            bytes
        } else {
            // The limits and the contract first, as for the other backends.
            self.limits.check(bytes, name)?;
            read_abi(&Metadata::read(bytes, name)?, name)?;
            converted = native::convert(bytes, name)?;
            &converted[..]
        };
        let engine = native::Engine::new(native_bytes, name, &self.limits)?;
        let meta = Metadata(
            engine
                .metadata()
                .into_iter()
                .map(|(key, value)| StringStringEntry { key, value })
                .collect(),
        );
        let abi = read_abi(&meta, name)?;
        let mut policy = Policy::with_native(engine, abi, name)?;
        policy.fingerprint = CRC64.checksum(bytes);
        Ok(policy)
    }

    /// What every kind of policy file goes through: the backend, the device, the limits, the
    /// contract in the metadata (`read`), then a session. Returns the contract, the session,
    /// the device it runs on and the backend.
    pub(crate) fn open<A>(
        &self,
        bytes: &[u8],
        name: &str,
        read: impl FnOnce(&Metadata) -> Result<A>,
    ) -> Result<(A, Session, Device, &'static Active)> {
        let active = backend::init(&self.backend)?;
        let env = backend::environment().ok_or_else(|| {
            Error::new(
                ErrorKind::Backend,
                "backend initialised without an environment",
            )
        })?;
        let mut device = self.device;
        if matches!(active, Active::Tract) && device != Device::Cpu {
            let e = Error::new(
                ErrorKind::Device,
                format!(
                    "{device} requested, but this process runs the tract backend, which is CPU \
                     only; choose the onnxruntime backend with a GPU build of ONNX Runtime"
                ),
            );
            if !self.cpu_fallback {
                return Err(e);
            }
            log::warn!("{e}; running on the CPU as allowed");
            device = Device::Cpu;
        }
        // The limits and the contract first: a file that is too costly or not a policy fails
        // before any session exists.
        self.limits.check(bytes, name)?;
        let abi = read(&Metadata::read(bytes, name)?)?;
        let (session, device) = self.session(env, active, device, bytes, name)?;
        Ok((abi, session, device, active))
    }

    /// A session on `device`, or on the CPU if that is not available and fallback is allowed;
    /// returns the device it runs on.
    fn session(
        &self,
        env: &ort::environment::Environment,
        active: &Active,
        device: Device,
        bytes: &[u8],
        name: &str,
    ) -> Result<(Session, Device)> {
        let build = |device: Device| -> Result<Session> {
            let fail = |e: ort::Error| {
                Error::new(
                    ErrorKind::Policy,
                    format!("{name}: cannot create a session"),
                )
                .with_source(e)
            };
            let mut b = Session::builder(env).map_err(fail)?;
            // tract skips its optimiser unless asked; `All`, not `Level3` (see FACTS).
            b = b
                .with_optimization_level(GraphOptimizationLevel::All)
                .map_err(|e| fail(e.into()))?;
            if let (Some(n), Active::OnnxRuntime { .. }) = (self.threads, active) {
                b = b.with_intra_threads(n).map_err(|e| fail(e.into()))?;
            }
            let ep = match device {
                Device::Cpu => None,
                Device::Cuda { device } => Some(
                    ort::ep::CUDA::default()
                        .with_device_id(device)
                        .build()
                        .error_on_failure(),
                ),
                Device::TensorRt { device } => Some(
                    ort::ep::TensorRT::default()
                        .with_device_id(device)
                        .build()
                        .error_on_failure(),
                ),
            };
            if let Some(ep) = ep {
                b = b.with_execution_providers([ep]).map_err(|e| {
                    Error::new(
                        ErrorKind::Device,
                        format!(
                            "{device} is not available (the ONNX Runtime library may be a CPU \
                             build, or the GPU or its drivers missing)"
                        ),
                    )
                    .with_source(ort::Error::<()>::from(e))
                })?;
            }
            b.commit_from_memory(bytes).map_err(|e| {
                Error::new(
                    ErrorKind::Policy,
                    format!("{name} is not a valid ONNX model"),
                )
                .with_source(e)
            })
        };
        match build(device) {
            Err(e) if e.kind() == ErrorKind::Device && self.cpu_fallback => {
                log::warn!("{e}; falling back to the CPU as allowed");
                Ok((build(Device::Cpu)?, Device::Cpu))
            }
            other => Ok((other?, device)),
        }
    }
}

/// Where each of our inputs sits among the model's inputs.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Input {
    Obs,
    Mask,
    State,
}

/// A loaded, checked policy with its buffers.
pub struct Policy {
    pub(crate) engine: Engine,
    device: Device,
    fingerprint: u64,
    abi: PolicyAbi,
    layout: Layout,
    backend: &'static Active,
    logits: Vec<f32>,
    value: f32,
    /// Whether every input and output read has a dynamic batch dimension (see
    /// [`Policy::batched`]).
    batched: bool,
}

/// What runs a policy: an ort session with its tensors, or the native evaluator.
pub(crate) enum Engine {
    Ort(OrtEngine),
    Native(native::Engine),
}

/// An ort session and its input tensors.
pub(crate) struct OrtEngine {
    pub(crate) session: Session,
    /// Our inputs in the model's input order.
    pub(crate) order: Vec<Input>,
    obs: Tensor<f32>,
    mask: Tensor<f32>,
    state: Option<Tensor<f32>>,
    /// Output positions: logits, value, state_out.
    pub(crate) out_logits: usize,
    pub(crate) out_value: Option<usize>,
    pub(crate) out_state: Option<usize>,
}

impl std::fmt::Debug for Policy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Policy")
            .field("abi", &self.abi)
            .field("backend", &self.backend)
            .finish()
    }
}

/// The part of an ONNX `ModelProto` this crate reads: its `metadata_props` (field 14). prost
/// skips every other field, so the graph is not decoded twice.
#[derive(Clone, PartialEq, prost::Message)]
struct ModelMetadata {
    #[prost(message, repeated, tag = "14")]
    metadata_props: Vec<StringStringEntry>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct StringStringEntry {
    #[prost(string, tag = "1")]
    key: String,
    #[prost(string, tag = "2")]
    value: String,
}

/// A policy file's `evoharness.*` metadata, read from its bytes.
pub(crate) struct Metadata(Vec<StringStringEntry>);

impl Metadata {
    pub(crate) fn read(bytes: &[u8], name: &str) -> Result<Self> {
        use prost::Message as _;
        let m = ModelMetadata::decode(bytes).map_err(|e| {
            Error::new(
                ErrorKind::Policy,
                format!("{name} is not a valid ONNX model"),
            )
            .with_source(e)
        })?;
        Ok(Self(m.metadata_props))
    }

    pub(crate) fn get(&self, key: &str) -> Option<String> {
        self.0
            .iter()
            .find(|e| e.key == key)
            .map(|e| e.value.clone())
    }
}

impl Policy {
    fn new(session: Session, abi: PolicyAbi, backend: &'static Active, name: &str) -> Result<Self> {
        let layout = Layout::with_version(abi.capacities, abi.version());
        let bad = |what: String| Error::new(ErrorKind::Policy, format!("{name}: {what}"));

        // Inputs: exactly obs, mask and (for a recurrent policy) state_in.
        let mut order = Vec::new();
        let mut batched = true;
        for i in session.inputs() {
            let (input, want) = match i.name() {
                "obs" => (Input::Obs, abi.obs_len),
                "mask" => (Input::Mask, abi.actions),
                "state_in" => match abi.state_len {
                    Some(h) => (Input::State, h),
                    None => {
                        return Err(bad(
                            "has a `state_in` input but no evoharness.state_len metadata".into(),
                        ));
                    }
                },
                other => {
                    return Err(bad(format!(
                        "unexpected input `{other}` (structured-v1 takes obs, mask and optionally state_in)"
                    )));
                }
            };
            batched &= check_tensor(i.dtype(), want)
                .map_err(|e| bad(format!("input `{}`: {e}", i.name())))?;
            order.push(input);
        }
        for (want, what) in [(Input::Obs, "obs"), (Input::Mask, "mask")] {
            if !order
                .iter()
                .any(|i| std::mem::discriminant(i) == std::mem::discriminant(&want))
            {
                return Err(bad(format!("has no `{what}` input")));
            }
        }
        let recurrent = order.iter().any(|i| matches!(i, Input::State));
        if abi.state_len.is_some() && !recurrent {
            return Err(bad(
                "declares evoharness.state_len but has no `state_in` input".into(),
            ));
        }

        // Outputs: logits, optionally value, and state_out exactly when recurrent.
        let (mut out_logits, mut out_value, mut out_state) = (None, None, None);
        for (k, o) in session.outputs().iter().enumerate() {
            let (slot, want) = match o.name() {
                "logits" => (&mut out_logits, abi.actions),
                "value" => (&mut out_value, 1),
                "state_out" if recurrent => (&mut out_state, abi.state_len.unwrap_or(0)),
                "state_out" => return Err(bad("has `state_out` but no `state_in` input".into())),
                other => {
                    // Extra outputs (debug heads, auxiliary losses) are allowed and not read.
                    log::debug!("{name}: ignoring output `{other}`");
                    continue;
                }
            };
            batched &= check_tensor(o.dtype(), want)
                .map_err(|e| bad(format!("output `{}`: {e}", o.name())))?;
            *slot = Some(k);
        }
        let out_logits = out_logits.ok_or_else(|| bad("has no `logits` output".into()))?;
        if recurrent && out_state.is_none() {
            return Err(bad("has `state_in` but no `state_out` output".into()));
        }
        let abi = PolicyAbi {
            has_value: out_value.is_some(),
            ..abi
        };

        let tensor = |n: usize| {
            Tensor::from_array(([1usize, n], vec![0f32; n])).context(ErrorKind::Policy, || {
                "allocating an input tensor".to_string()
            })
        };
        Ok(Self {
            device: Device::Cpu,
            fingerprint: 0,
            engine: Engine::Ort(OrtEngine {
                obs: tensor(abi.obs_len)?,
                mask: tensor(abi.actions)?,
                state: abi.state_len.map(tensor).transpose()?,
                session,
                order,
                out_logits,
                out_value,
                out_state,
            }),
            logits: vec![0.0; abi.actions],
            value: 0.0,
            batched,
            layout,
            backend,
            abi,
        })
    }

    /// A policy on the native evaluator, its interface checked against the contract as
    /// [`Policy::new`] checks a session's.
    fn with_native(engine: native::Engine, abi: PolicyAbi, name: &str) -> Result<Self> {
        let bad = |what: String| Error::new(ErrorKind::Policy, format!("{name}: {what}"));
        let m = engine.model();
        for (what, have, want) in [
            ("input `obs`", m.obs_len(), abi.obs_len),
            ("input `mask`", m.mask_len(), abi.actions),
            ("output `logits`", m.logits_len(), abi.actions),
        ] {
            if have != want {
                return Err(bad(format!(
                    "{what} has {have} columns, the layout needs {want}"
                )));
            }
        }
        match (abi.state_len, m.state_len()) {
            (None, 0) => {}
            (Some(h), n) if h == n => {}
            (None, _) => {
                return Err(bad(
                    "has a `state_in` input but no evoharness.state_len metadata".into(),
                ));
            }
            (Some(_), 0) => {
                return Err(bad(
                    "declares evoharness.state_len but has no `state_in` input".into(),
                ));
            }
            (Some(h), n) => {
                return Err(bad(format!(
                    "input `state_in` has {n} columns, the layout needs {h}"
                )));
            }
        }
        let abi = PolicyAbi {
            has_value: m.has_value(),
            ..abi
        };
        Ok(Self {
            device: Device::Cpu,
            fingerprint: 0,
            engine: Engine::Native(engine),
            layout: Layout::with_version(abi.capacities, abi.version()),
            logits: vec![0.0; abi.actions],
            value: 0.0,
            // Every row of a native program is independent: batches run in one call.
            batched: true,
            backend: &backend::NATIVE,
            abi,
        })
    }

    /// The checked contract.
    pub fn abi(&self) -> &PolicyAbi {
        &self.abi
    }

    /// The layout of the policy's ABI version for its capacities.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// The backend running it.
    pub fn backend(&self) -> &'static Active {
        self.backend
    }

    /// A CRC-64 of the policy file's bytes: checkpoints record it, so an agent resumes only
    /// with the very policy (weights included) that wrote them.
    pub fn fingerprint(&self) -> u64 {
        self.fingerprint
    }

    /// Whether the file has a dynamic batch dimension on every input and output (the export
    /// of `runtime/POLICY.md` since batched fleets): [`Policy::run_batch`] then runs all of a
    /// batch's rows in one call. A batch-1 file works too, one row per call.
    ///
    /// [`Policy::run_batch`]: crate::batch
    pub fn batched(&self) -> bool {
        self.batched
    }

    /// The device it runs on: the one requested, or the CPU after an allowed fallback.
    pub fn device(&self) -> Device {
        self.device
    }

    /// The recurrent state (empty for a feed-forward policy).
    pub fn state(&self) -> &[f32] {
        match &self.engine {
            Engine::Ort(e) => e.state.as_ref().map_or(&[], |t| t.extract_tensor().1),
            Engine::Native(e) => e.state(),
        }
    }

    fn state_mut(&mut self) -> &mut [f32] {
        match &mut self.engine {
            Engine::Ort(e) => e
                .state
                .as_mut()
                .map_or(&mut [], |t| t.extract_tensor_mut().1),
            Engine::Native(e) => e.state_mut(),
        }
    }

    /// Replaces the recurrent state (from a checkpoint); its length must be the policy's.
    pub fn set_state(&mut self, state: &[f32]) -> Result<()> {
        let have = self.state().len();
        if state.len() != have {
            return Err(Error::new(
                ErrorKind::Checkpoint,
                format!(
                    "recurrent state of {} floats for a policy with {have}",
                    state.len()
                ),
            ));
        }
        self.state_mut().copy_from_slice(state);
        Ok(())
    }

    /// Zeroes the recurrent state (a new episode).
    pub fn reset_state(&mut self) {
        self.state_mut().fill(0.0);
    }

    /// The logits of the last run (zeros before the first), one per action template: what an
    /// agent chose from, for traces, parity checks and training data.
    pub fn logits(&self) -> &[f32] {
        &self.logits
    }

    /// The value estimate of the last run, if the policy has one.
    pub fn value(&self) -> Option<f32> {
        self.abi.has_value.then_some(self.value)
    }

    /// Runs the policy on one observation and mask (as [`Layout::encode`] and [`Layout::mask`]
    /// write them); returns the logits, one per action template. A recurrent policy's state
    /// advances. Allocates nothing in this crate.
    pub fn run(&mut self, obs: &[f32], mask: &[u8]) -> Result<&[f32]> {
        if obs.len() != self.abi.obs_len || mask.len() != self.abi.actions {
            return Err(Error::new(
                ErrorKind::Inference,
                format!(
                    "observation of {} and mask of {} for a policy of {} and {}",
                    obs.len(),
                    mask.len(),
                    self.abi.obs_len,
                    self.abi.actions
                ),
            ));
        }
        match &mut self.engine {
            Engine::Ort(e) => {
                e.obs.extract_tensor_mut().1.copy_from_slice(obs);
                for (m, &x) in e.mask.extract_tensor_mut().1.iter_mut().zip(mask) {
                    *m = f32::from(x);
                }
                e.run_loaded(&mut self.logits, &mut self.value)?;
            }
            Engine::Native(e) => self.value = e.run(obs, mask, &mut self.logits)?,
        }
        Ok(&self.logits)
    }

    /// One batch-1 row of a batch, for a file without a dynamic batch dimension: the inputs
    /// are copied in, the outputs (logits, value, recurrent state) copied out. `state` is
    /// empty or the policy's length, as the batch checked.
    pub(crate) fn run_row(
        &mut self,
        obs: &[f32],
        mask: &[f32],
        state: &mut [f32],
        logits: &mut [f32],
    ) -> Result<f32> {
        match &mut self.engine {
            Engine::Ort(e) => {
                e.obs.extract_tensor_mut().1.copy_from_slice(obs);
                e.mask.extract_tensor_mut().1.copy_from_slice(mask);
                if let Some(t) = &mut e.state {
                    t.extract_tensor_mut().1.copy_from_slice(state);
                }
                e.run_loaded(&mut self.logits, &mut self.value)?;
                logits.copy_from_slice(&self.logits);
                if let Some(t) = &e.state {
                    state.copy_from_slice(t.extract_tensor().1);
                }
                Ok(self.value)
            }
            Engine::Native(e) => {
                e.state_mut().copy_from_slice(state);
                let v = e.run_f32(obs, Some(mask), logits)?;
                state.copy_from_slice(e.state());
                Ok(v)
            }
        }
    }
}

impl OrtEngine {
    /// Runs the session on the input tensors as they are; reads the outputs back.
    fn run_loaded(&mut self, logits_out: &mut [f32], value: &mut f32) -> Result<()> {
        let pick = |i: &Input| -> ort::session::SessionInputValue<'_> {
            match i {
                Input::Obs => (&self.obs).into(),
                Input::Mask => (&self.mask).into(),
                // `order` holds State only when `state` is Some.
                Input::State => self.state.as_ref().unwrap_or(&self.obs).into(),
            }
        };
        let outputs = match self.order.as_slice() {
            [a, b] => self.session.run([pick(a), pick(b)]),
            [a, b, c] => self.session.run([pick(a), pick(b), pick(c)]),
            _ => unreachable!("checked at load: two or three inputs"),
        }
        .context(ErrorKind::Inference, || "running the policy".to_string())?;
        let logits = outputs[self.out_logits]
            .try_extract_tensor::<f32>()
            .context(ErrorKind::Inference, || "reading the logits".to_string())?
            .1;
        logits_out.copy_from_slice(logits);
        if let Some(k) = self.out_value {
            let v = outputs[k]
                .try_extract_tensor::<f32>()
                .context(ErrorKind::Inference, || "reading the value".to_string())?;
            *value = v.1.first().copied().unwrap_or(0.0);
        }
        if let (Some(k), Some(state)) = (self.out_state, self.state.as_mut()) {
            let s = outputs[k]
                .try_extract_tensor::<f32>()
                .context(ErrorKind::Inference, || {
                    "reading the recurrent state".to_string()
                })?;
            state.extract_tensor_mut().1.copy_from_slice(s.1);
        }
        Ok(())
    }
}

/// A float tensor of shape `[1, n]` or `[batch, n]`; whether the batch dimension is dynamic.
fn check_tensor(t: &ValueType, n: usize) -> std::result::Result<bool, String> {
    let ValueType::Tensor { ty, shape, .. } = t else {
        return Err(format!("is {t:?}, expected a float32 tensor"));
    };
    if *ty != TensorElementType::Float32 {
        return Err(format!("is {ty:?}, expected float32"));
    }
    let dims: &[i64] = shape;
    match dims {
        [b, m] if (*b == 1 || *b == -1) && usize::try_from(*m) == Ok(n) => Ok(*b == -1),
        [_, m] => Err(format!("has {m} columns, the layout needs {n}")),
        other => Err(format!("has shape {other:?}, expected [1, {n}]")),
    }
}

fn read_abi(meta: &Metadata, name: &str) -> Result<PolicyAbi> {
    let bad = |what: String| Error::new(ErrorKind::Policy, format!("{name}: {what}"));
    let get = |key: &str| -> Result<Option<String>> { Ok(meta.get(key)) };
    let abi = get("evoharness.abi")?.ok_or_else(|| {
        bad(
            "no evoharness.abi metadata: not an evoharness policy (see runtime/POLICY.md for \
             the metadata an exported policy carries)"
                .into(),
        )
    })?;
    if abi == evoharness_core::text::ABI {
        return Err(bad(format!(
            "declares ABI `{abi}`: a language-model policy; load it with \
             PolicyBuilder::commit_generative_from_file (or let the caller pick by the file, \
             as `evoharness eval --agent policy:PATH` does)"
        )));
    }
    let Some(known) = Version::from_abi(&abi) else {
        let runs: Vec<&str> = Version::ALL.iter().map(|v| v.abi()).collect();
        return Err(bad(format!(
            "declares ABI `{abi}`; this runtime runs `{}`",
            runs.join("` and `")
        )));
    };
    let num = |key: &str| -> Result<u64> {
        let v = get(key)?.ok_or_else(|| bad(format!("missing {key} metadata")))?;
        v.trim()
            .parse()
            .map_err(|_| bad(format!("{key} is `{v}`, not a number")))
    };
    let small = |key: &str| -> Result<u16> {
        u16::try_from(num(key)?).map_err(|_| bad(format!("{key} is out of range")))
    };
    let layout_version = num("evoharness.layout_version")?;
    let version = Version::from_declared(&abi, layout_version).ok_or_else(|| {
        bad(format!(
            "was made for layout version {layout_version} of `{abi}`; this runtime's is {}",
            known.number()
        ))
    })?;
    let capacities = Capacities {
        facts: small("evoharness.facts")?,
        steps: small("evoharness.steps")?,
        lessons: small("evoharness.lessons")?,
        tools: small("evoharness.tools")?,
    };
    capacities
        .validate()
        .map_err(|e| bad(format!("capacities in metadata: {e}")))?;
    let layout = Layout::with_version(capacities, version);
    let (obs_len, actions) = (num("evoharness.obs_len")?, num("evoharness.actions")?);
    if obs_len != layout.obs_len() as u64 || actions != layout.actions() as u64 {
        return Err(bad(format!(
            "metadata says {obs_len} observation floats and {actions} actions, but the layout for \
             {} facts, {} steps, {} lessons and {} tools has {} and {}",
            capacities.facts,
            capacities.steps,
            capacities.lessons,
            capacities.tools,
            layout.obs_len(),
            layout.actions()
        )));
    }
    let state_len = match get("evoharness.state_len")? {
        None => None,
        Some(_) => Some(usize::try_from(num("evoharness.state_len")?).unwrap_or(usize::MAX)),
    };
    let tool_names: Vec<String> = get("evoharness.tool_names")?
        .map(|s| s.split(',').map(|t| t.trim().to_string()).collect())
        .unwrap_or_default();
    if !tool_names.is_empty() && tool_names.len() != usize::from(capacities.tools) {
        return Err(bad(format!(
            "names {} tools but declares {}",
            tool_names.len(),
            capacities.tools
        )));
    }
    Ok(PolicyAbi {
        abi,
        layout_version: version.number(),
        capacities,
        obs_len: layout.obs_len(),
        actions: layout.actions(),
        state_len,
        has_value: false,
        tool_names,
        producer: get("evoharness.producer")?,
    })
}
