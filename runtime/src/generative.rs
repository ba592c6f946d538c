//! `generative-v1`: a decoder-only language model as the policy.
//!
//! The model reads the workspace as text (`workspace-text-v1`, rendered by
//! `evoharness_core::text::render`) and writes its action as a line (`action-text-v1`),
//! decoded under the grammar of the legal templates ([`crate::grammar`]): every action it
//! decodes is legal. It is a [`Controller`] like the structured [`Policy`], so
//! the [`Agent`](crate::Agent) loop, checkpoints, traces and the experience store work
//! unchanged.
//!
//! The file contract (inputs `input_ids`, `attention_mask`, `position_ids`,
//! `past_key_values.{i}.key|value`; outputs `logits`, `present.{i}.key|value`; the
//! `evoharness.*` metadata) is in `runtime/POLICY.md`. [`PolicyBuilder::commit_generative_from_file`]
//! checks it before any session exists and refuses a file that does not fit.
//!
//! **The KV cache.** The policy keeps the keys and values of the tokens it has fed. At the
//! next decision it renders the new prompt, keeps the cache up to the first token that
//! differs (the rendering puts the stable parts first), and feeds only the rest:
//! [`GenerativeStats`] counts what was reused. [`GenerativePolicy::set_kv_reuse`] turns reuse
//! off, to measure it.
//!
//! Unlike the structured policy, a decision allocates: the backend makes each forward pass's
//! outputs (the cache grows by what was fed), and the list of inputs is built per pass. The
//! inputs themselves are views of the policy's own buffers, the cache included: nothing is
//! copied into them.

use std::path::Path;

use evoharness_core::obs::Layout;
use evoharness_core::text;
use evoharness_core::{Action, Capacities, EventBuf};
use ort::session::{Session, SessionInputValue};
use ort::value::{TensorElementType, TensorRef, ValueType};

use crate::backend::Active;
use crate::controller::{Controller, Decision, Needs, View};
use crate::error::{Context, Error, ErrorKind, Result};
use crate::framed_file::CRC64;
use crate::grammar::{Grammar, Vocab};
use crate::policy::{Device, Metadata, Policy, PolicyBuilder};
use crate::rng::SplitMix64;

/// How the model's tokens map to bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tokenizer {
    /// `bytes`: token `b` is byte `b` (0–255); ids from 256 up are special tokens the runtime
    /// never feeds or decodes.
    Bytes,
    /// `tokenizer.json`: a Hugging Face tokenizer (byte-level BPE or SentencePiece) carried in the file's
    /// `evoharness.tokenizer_json` metadata; needs the `hf-tokenizer` feature (default).
    Json,
}

impl Tokenizer {
    /// The name the metadata uses (`evoharness.tokenizer`).
    pub fn name(&self) -> &'static str {
        match self {
            Tokenizer::Bytes => "bytes",
            Tokenizer::Json => "tokenizer.json",
        }
    }
}

/// The contract a generative policy file declares, as read from its metadata and graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenerativeAbi {
    /// The workspace capacities and tool count it was trained for.
    pub capacities: Capacities,
    /// The most tokens (prompt and action) one forward context may hold.
    pub context: usize,
    /// Its tokenizer.
    pub tokenizer: Tokenizer,
    /// Tokens in its vocabulary (the width of `logits`).
    pub vocab: usize,
    /// Decoder layers (pairs of `past_key_values` inputs).
    pub layers: usize,
    /// Attention heads of the key/value cache.
    pub heads: usize,
    /// Width of one head.
    pub head_dim: usize,
    /// What made the file, if it says.
    pub producer: Option<String>,
}

/// What a generative policy has fed and decoded so far (since load or
/// [`GenerativePolicy::reset_stats`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GenerativeStats {
    /// Decisions made.
    pub decisions: u64,
    /// Prompt tokens, summed over decisions.
    pub prompt_tokens: u64,
    /// Prompt tokens whose keys and values came from the cache.
    pub reused_tokens: u64,
    /// Tokens run through the model (prompt tokens not reused, plus decoded ones).
    pub fed_tokens: u64,
    /// Action tokens decoded.
    pub decoded_tokens: u64,
    /// Forward passes.
    pub forwards: u64,
}

impl GenerativeStats {
    /// The share of prompt tokens reused from the cache.
    pub fn reuse(&self) -> f64 {
        if self.prompt_tokens == 0 {
            0.0
        } else {
            self.reused_tokens as f64 / self.prompt_tokens as f64
        }
    }
}

#[derive(Clone, Copy, Debug)]
enum Input {
    Ids,
    Mask,
    Positions,
    Past(usize),
}

/// A loaded, checked language-model policy; see the [module docs](self).
pub struct GenerativePolicy {
    session: Session,
    abi: GenerativeAbi,
    layout: Layout,
    vocab: Vocab,
    /// The Hugging Face tokenizer of a `tokenizer.json` file (boxed: it is large).
    #[cfg(feature = "hf-tokenizer")]
    hf: Option<Box<crate::hf_tokenizer::HfTokenizer>>,
    backend: &'static Active,
    device: Device,
    fingerprint: u64,
    /// The model's inputs in its order.
    inputs: Vec<Input>,
    out_logits: usize,
    /// Output position of `present` for each cache slot (layer-major: key, value).
    out_present: Vec<usize>,
    /// Tokens whose keys and values are in `past`.
    cached: Vec<i64>,
    /// Per cache slot (2 per layer), `[heads, cached.len(), head_dim]` floats.
    past: Vec<Vec<f32>>,
    /// `1`s and `0, 1, 2, …`, as long as the longest context fed: the attention mask and the
    /// position ids are views of them.
    ones: Vec<i64>,
    positions: Vec<i64>,
    kv_reuse: bool,
    prompt: String,
    tokens: Vec<i64>,
    grammar: Grammar,
    output: Vec<u8>,
    pending: Vec<i64>,
    logits: Vec<f32>,
    stats: GenerativeStats,
}

impl std::fmt::Debug for GenerativePolicy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GenerativePolicy")
            .field("abi", &self.abi)
            .field("backend", &self.backend)
            .finish()
    }
}

/// Whether a policy file declares `generative-v1` (read from its metadata only; `false` for
/// bytes that are not an ONNX model).
pub fn is_generative(bytes: &[u8]) -> bool {
    Metadata::read(bytes, "")
        .ok()
        .and_then(|m| m.get("evoharness.abi"))
        .is_some_and(|a| a == text::ABI)
}

impl PolicyBuilder {
    /// Loads, checks and prepares a `generative-v1` policy from a file.
    pub fn commit_generative_from_file(self, path: impl AsRef<Path>) -> Result<GenerativePolicy> {
        let path = path.as_ref();
        let bytes = self.read_file(path)?;
        self.commit_generative(&bytes, &path.display().to_string())
    }

    /// Loads, checks and prepares a `generative-v1` policy from the bytes of an ONNX file.
    pub fn commit_generative_from_memory(self, bytes: &[u8]) -> Result<GenerativePolicy> {
        self.commit_generative(bytes, "policy in memory")
    }

    fn commit_generative(self, bytes: &[u8], name: &str) -> Result<GenerativePolicy> {
        let ((abi, json), session, device, backend) =
            self.open(bytes, name, |m| read_abi(m, name))?;
        let mut p = GenerativePolicy::new(session, abi, json, backend, name)?;
        p.device = device;
        p.fingerprint = CRC64.checksum(bytes);
        Ok(p)
    }
}

/// The contract, and the text of a `tokenizer.json` tokenizer.
fn read_abi(meta: &Metadata, name: &str) -> Result<(GenerativeAbi, Option<String>)> {
    let bad = |what: String| Error::new(ErrorKind::Policy, format!("{name}: {what}"));
    let abi = meta
        .get("evoharness.abi")
        .ok_or_else(|| bad("no evoharness.abi metadata: not an evoharness policy".into()))?;
    if abi != text::ABI {
        return Err(bad(format!("declares ABI `{abi}`, not `{}`", text::ABI)));
    }
    let num = |key: &str| -> Result<u64> {
        let v = meta.get(key).ok_or_else(|| {
            bad(format!(
                "missing {key} metadata (generative-v1 requires it)"
            ))
        })?;
        v.trim()
            .parse()
            .map_err(|_| bad(format!("{key} is `{v}`, not a number")))
    };
    let small = |key: &str| -> Result<u16> {
        u16::try_from(num(key)?).map_err(|_| bad(format!("{key} is out of range")))
    };
    for (key, have) in [
        ("evoharness.text_version", text::TEXT_VERSION),
        ("evoharness.grammar_version", text::GRAMMAR_VERSION),
    ] {
        let v = num(key)?;
        if v != u64::from(have) {
            return Err(bad(format!(
                "was made for {key} {v}; this runtime renders and parses version {have}"
            )));
        }
    }
    let tokenizer = match meta.get("evoharness.tokenizer").as_deref() {
        Some("bytes") => Tokenizer::Bytes,
        Some("tokenizer.json") if cfg!(feature = "hf-tokenizer") => Tokenizer::Json,
        Some("tokenizer.json") => {
            return Err(bad(
                "uses a tokenizer.json tokenizer; this runtime was built without the \
                 hf-tokenizer feature"
                    .into(),
            ));
        }
        Some(other) => {
            return Err(bad(format!(
                "uses tokenizer `{other}`; this runtime knows `bytes` and `tokenizer.json`"
            )));
        }
        None => {
            return Err(bad(
                "missing evoharness.tokenizer metadata (generative-v1 requires it)".into(),
            ));
        }
    };
    let capacities = Capacities {
        facts: small("evoharness.facts")?,
        steps: small("evoharness.steps")?,
        lessons: small("evoharness.lessons")?,
        tools: small("evoharness.tools")?,
    };
    capacities
        .validate()
        .map_err(|e| bad(format!("capacities in metadata: {e}")))?;
    let context = usize::try_from(num("evoharness.context")?).unwrap_or(usize::MAX);
    // A token is at least one byte: the longest prompt and action fit, or the file is refused
    // here rather than at some decision deep into a task (a tokenizer's own special tokens
    // are counted when it is loaded).
    check_context(context, capacities, 0).map_err(bad)?;
    let json = match tokenizer {
        Tokenizer::Bytes => None,
        Tokenizer::Json => Some(meta.get("evoharness.tokenizer_json").ok_or_else(|| {
            bad(
                "declares a tokenizer.json tokenizer but has no evoharness.tokenizer_json \
                 metadata"
                    .into(),
            )
        })?),
    };
    let abi = GenerativeAbi {
        capacities,
        context,
        tokenizer,
        vocab: 0,
        layers: 0,
        heads: 0,
        head_dim: 0,
        producer: meta.get("evoharness.producer"),
    };
    Ok((abi, json))
}

/// Whether a context of `context` tokens holds the longest prompt of `capacities` and an
/// action, with `overhead` tokens a text can take beyond one per byte (the tokenizer's special
/// tokens and what its normalizer adds).
fn check_context(
    context: usize,
    capacities: Capacities,
    overhead: usize,
) -> std::result::Result<(), String> {
    let need = text::max_len(capacities) + text::ACTION_MAX + overhead;
    if context < need {
        return Err(format!(
            "declares a context of {context} tokens; the longest prompt for its capacities and an \
             action take {need}"
        ));
    }
    Ok(())
}

/// The dimensions of a tensor input or output of element type `want`.
fn dims(t: &ValueType, want: TensorElementType) -> std::result::Result<Vec<i64>, String> {
    let ValueType::Tensor { ty, shape, .. } = t else {
        return Err(format!("is {t:?}, expected a {want:?} tensor"));
    };
    if *ty != want {
        return Err(format!("is {ty:?}, expected {want:?}"));
    }
    let d: &[i64] = shape;
    Ok(d.to_vec())
}

impl GenerativePolicy {
    fn new(
        session: Session,
        abi: GenerativeAbi,
        json: Option<String>,
        backend: &'static Active,
        name: &str,
    ) -> Result<Self> {
        let bad = |what: String| Error::new(ErrorKind::Policy, format!("{name}: {what}"));
        let one_or_dyn = |d: i64| d == 1 || d == -1;

        // Inputs: the three sequences and pairs of cache inputs, layer by layer.
        let mut inputs = Vec::new();
        let mut kv_shape: Option<(i64, i64)> = None;
        let mut slots = 0usize;
        for i in session.inputs() {
            let n = i.name();
            let input = match n {
                "input_ids" => Input::Ids,
                "attention_mask" => Input::Mask,
                "position_ids" => Input::Positions,
                _ => {
                    let slot = n
                        .strip_prefix("past_key_values.")
                        .and_then(|r| r.split_once('.'))
                        .and_then(|(l, kind)| {
                            let l: usize = l.parse().ok()?;
                            match kind {
                                "key" => Some(2 * l),
                                "value" => Some(2 * l + 1),
                                _ => None,
                            }
                        })
                        .ok_or_else(|| {
                            bad(format!(
                                "unexpected input `{n}` (generative-v1 takes input_ids, \
                                 attention_mask, position_ids and past_key_values.N.key|value)"
                            ))
                        })?;
                    Input::Past(slot)
                }
            };
            match input {
                Input::Past(_) => {
                    let d = dims(i.dtype(), TensorElementType::Float32)
                        .map_err(|e| bad(format!("input `{n}`: {e}")))?;
                    let [b, h, _, hd] = d[..] else {
                        return Err(bad(format!(
                            "input `{n}` has shape {d:?}, expected [1, heads, past, head_dim]"
                        )));
                    };
                    if !one_or_dyn(b) || h <= 0 || hd <= 0 {
                        return Err(bad(format!(
                            "input `{n}` has shape {d:?}: heads and head_dim must be fixed"
                        )));
                    }
                    if kv_shape.is_some_and(|s| s != (h, hd)) {
                        return Err(bad(format!("input `{n}`: cache inputs differ in shape")));
                    }
                    kv_shape = Some((h, hd));
                    slots += 1;
                }
                _ => {
                    let d = dims(i.dtype(), TensorElementType::Int64)
                        .map_err(|e| bad(format!("input `{n}`: {e}")))?;
                    if d.len() != 2 || !one_or_dyn(d[0]) || d[1] != -1 {
                        return Err(bad(format!(
                            "input `{n}` has shape {d:?}, expected [1, sequence]"
                        )));
                    }
                }
            }
            inputs.push(input);
        }
        for (want, what) in [(0, "input_ids"), (1, "attention_mask"), (2, "position_ids")] {
            let found = inputs.iter().filter(|i| {
                matches!(
                    (want, i),
                    (0, Input::Ids) | (1, Input::Mask) | (2, Input::Positions)
                )
            });
            if found.count() != 1 {
                return Err(bad(format!("needs one `{what}` input")));
            }
        }
        let (heads, head_dim) =
            kv_shape.ok_or_else(|| bad("has no past_key_values inputs".into()))?;
        // Slots 0..slots, each once: pairs for layers 0..layers.
        let mut seen = vec![false; slots];
        for i in &inputs {
            if let Input::Past(s) = *i
                && (s >= slots || std::mem::replace(&mut seen[s], true))
            {
                return Err(bad(
                    "past_key_values inputs must be key and value for layers 0..N, each once"
                        .into(),
                ));
            }
        }
        if !slots.is_multiple_of(2) {
            return Err(bad(
                "past_key_values inputs must come in key/value pairs".into()
            ));
        }

        // Outputs: logits and a present for each past.
        let mut out_logits = None;
        let mut out_present = vec![usize::MAX; slots];
        let mut vocab = 0usize;
        for (k, o) in session.outputs().iter().enumerate() {
            let n = o.name();
            if n == "logits" {
                let d = dims(o.dtype(), TensorElementType::Float32)
                    .map_err(|e| bad(format!("output `logits`: {e}")))?;
                match d[..] {
                    [b, -1, v] if one_or_dyn(b) && v > 0 => vocab = v as usize,
                    _ => {
                        return Err(bad(format!(
                            "output `logits` has shape {d:?}, expected [1, sequence, vocab]"
                        )));
                    }
                }
                out_logits = Some(k);
            } else if let Some(slot) = n
                .strip_prefix("present.")
                .and_then(|r| r.split_once('.'))
                .and_then(|(l, kind)| {
                    let l: usize = l.parse().ok()?;
                    match kind {
                        "key" => Some(2 * l),
                        "value" => Some(2 * l + 1),
                        _ => None,
                    }
                })
                .filter(|&s| s < slots)
            {
                let d = dims(o.dtype(), TensorElementType::Float32)
                    .map_err(|e| bad(format!("output `{n}`: {e}")))?;
                if !matches!(d[..], [b, h, _, hd] if one_or_dyn(b) && h == heads && hd == head_dim)
                {
                    return Err(bad(format!(
                        "output `{n}` has shape {d:?}, expected [1, {heads}, total, {head_dim}]"
                    )));
                }
                out_present[slot] = k;
            } else {
                log::debug!("{name}: ignoring output `{n}`");
            }
        }
        let out_logits = out_logits.ok_or_else(|| bad("has no `logits` output".into()))?;
        if let Some(s) = out_present.iter().position(|&k| k == usize::MAX) {
            return Err(bad(format!(
                "has no `present.{}.{}` output",
                s / 2,
                if s % 2 == 0 { "key" } else { "value" }
            )));
        }
        #[cfg(feature = "hf-tokenizer")]
        let mut hf = None;
        let words = match (&abi.tokenizer, json) {
            (Tokenizer::Bytes, _) if vocab < 256 => {
                return Err(bad(format!(
                    "has {vocab} logits per token; the bytes tokenizer needs at least 256"
                )));
            }
            (Tokenizer::Bytes, _) => Vocab::bytes(vocab),
            #[cfg(feature = "hf-tokenizer")]
            (Tokenizer::Json, Some(json)) => {
                let (t, words) = crate::hf_tokenizer::HfTokenizer::load(&json, vocab, name)?;
                check_context(abi.context, abi.capacities, t.overhead()).map_err(bad)?;
                hf = Some(Box::new(t));
                words
            }
            (Tokenizer::Json, _) => {
                return Err(bad("has no tokenizer.json this runtime can load".into()));
            }
        };
        let abi = GenerativeAbi {
            vocab,
            layers: slots / 2,
            heads: heads as usize,
            head_dim: head_dim as usize,
            ..abi
        };
        Ok(Self {
            layout: Layout::new(abi.capacities),
            vocab: words,
            #[cfg(feature = "hf-tokenizer")]
            hf,
            backend,
            device: Device::Cpu,
            fingerprint: 0,
            inputs,
            out_logits,
            out_present,
            cached: Vec::new(),
            past: vec![Vec::new(); slots],
            ones: Vec::new(),
            positions: Vec::new(),
            kv_reuse: true,
            prompt: String::new(),
            tokens: Vec::new(),
            grammar: Grammar::new(),
            output: Vec::new(),
            pending: Vec::new(),
            logits: vec![0.0; vocab],
            stats: GenerativeStats::default(),
            session,
            abi,
        })
    }

    /// The checked contract.
    pub fn abi(&self) -> &GenerativeAbi {
        &self.abi
    }

    /// The action table it chooses among (structured-v1's templates for its capacities).
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// The backend running it.
    pub fn backend(&self) -> &'static Active {
        self.backend
    }

    /// The device it runs on.
    pub fn device(&self) -> Device {
        self.device
    }

    /// A CRC-64/XZ of the file's bytes.
    pub fn fingerprint(&self) -> u64 {
        self.fingerprint
    }

    /// Whether decisions reuse the key/value cache of the previous prompt's common prefix (on
    /// by default). Off, every decision feeds its whole prompt: the same actions, for
    /// measuring what reuse saves.
    pub fn set_kv_reuse(&mut self, on: bool) {
        self.kv_reuse = on;
    }

    /// What it has fed and decoded.
    pub fn stats(&self) -> GenerativeStats {
        self.stats
    }

    /// Zeroes [`GenerativePolicy::stats`].
    pub fn reset_stats(&mut self) {
        self.stats = GenerativeStats::default();
    }

    /// The prompt of the last decision.
    pub fn prompt(&self) -> &str {
        &self.prompt
    }

    /// The token ids of the last prompt (a decision's or [`GenerativePolicy::run_prompt`]'s).
    pub fn prompt_tokens(&self) -> &[i64] {
        &self.tokens
    }

    /// The action text of the last decision.
    pub fn output(&self) -> &[u8] {
        &self.output
    }

    /// Forgets the cache (the next decision feeds its whole prompt).
    pub fn clear_cache(&mut self) {
        self.cached.clear();
        self.past.iter_mut().for_each(Vec::clear);
    }

    /// Keeps the first `n` cached tokens' keys and values.
    fn truncate(&mut self, n: usize) {
        let (h, d, t) = (self.abi.heads, self.abi.head_dim, self.cached.len());
        if n >= t {
            return;
        }
        for p in &mut self.past {
            // [h, t, d] -> [h, n, d]: each head's first n rows move down, in order.
            for head in 0..h {
                p.copy_within(head * t * d..(head * t + n) * d, head * n * d);
            }
            p.truncate(h * n * d);
        }
        self.cached.truncate(n);
    }

    /// Runs `new` after the cached tokens; the last position's logits land in `self.logits`,
    /// and the cache grows by `new`.
    fn forward(&mut self, new: &[i64]) -> Result<()> {
        let past = self.cached.len();
        let total = past + new.len();
        let (h, d) = (self.abi.heads, self.abi.head_dim);
        let err = |what: &'static str| {
            move |e: ort::Error| Error::new(ErrorKind::Inference, what.to_string()).with_source(e)
        };
        // The inputs are views of buffers the policy keeps (ONNX Runtime reads them in place):
        // the cache, and ones and positions grown to the longest context seen so far.
        if self.ones.len() < total {
            self.ones.resize(total, 1);
            self.positions
                .extend(self.positions.len() as i64..total as i64);
        }
        let ids = TensorRef::from_array_view(([1usize, new.len()], new))
            .map_err(err("making input_ids"))?;
        let mask = TensorRef::from_array_view(([1usize, total], &self.ones[..total]))
            .map_err(err("making attention_mask"))?;
        let pos = TensorRef::from_array_view(([1usize, new.len()], &self.positions[past..total]))
            .map_err(err("making position_ids"))?;
        let mut kv = Vec::with_capacity(self.past.len());
        for p in &self.past {
            kv.push(
                TensorRef::from_array_view(([1usize, h, past, d], &p[..]))
                    .map_err(err("making the key/value cache"))?,
            );
        }
        let values: Vec<SessionInputValue<'_>> = self
            .inputs
            .iter()
            .map(|i| match *i {
                Input::Ids => (&*ids).into(),
                Input::Mask => (&*mask).into(),
                Input::Positions => (&*pos).into(),
                Input::Past(s) => (&*kv[s]).into(),
            })
            .collect();
        let outputs = self
            .session
            .run(values.as_slice())
            .context(ErrorKind::Inference, || {
                "running the language model".to_string()
            })?;
        // The outputs are the session's; the views of the cache go before it is rewritten.
        drop(values);
        drop(kv);
        let (shape, logits) = outputs[self.out_logits]
            .try_extract_tensor::<f32>()
            .context(ErrorKind::Inference, || "reading the logits".to_string())?;
        let v = self.abi.vocab;
        if shape.len() != 3 || shape[1] != new.len() as i64 || logits.len() != new.len() * v {
            return Err(Error::new(
                ErrorKind::Inference,
                format!("logits of shape {shape:?} for {} tokens", new.len()),
            ));
        }
        self.logits.copy_from_slice(&logits[(new.len() - 1) * v..]);
        for (slot, &k) in self.out_present.iter().enumerate() {
            let (_, kv) = outputs[k]
                .try_extract_tensor::<f32>()
                .context(ErrorKind::Inference, || {
                    "reading the key/value cache".to_string()
                })?;
            if kv.len() != h * total * d {
                return Err(Error::new(
                    ErrorKind::Inference,
                    format!("a present output of {} floats for {total} tokens", kv.len()),
                ));
            }
            self.past[slot].clear();
            self.past[slot].extend_from_slice(kv);
        }
        drop(outputs);
        self.cached.extend_from_slice(new);
        self.stats.fed_tokens += new.len() as u64;
        self.stats.forwards += 1;
        Ok(())
    }

    /// Runs the model on `prompt` (bytes of any text, not necessarily a rendered workspace)
    /// with the cache as for a decision; returns the logits of its last token. For parity
    /// checks against another runtime.
    pub fn run_prompt(&mut self, prompt: &str) -> Result<&[f32]> {
        if prompt.is_empty() {
            return Err(Error::new(ErrorKind::Inference, "an empty prompt"));
        }
        self.prompt.clear();
        self.prompt.push_str(prompt);
        self.feed_prompt(0)?;
        Ok(&self.logits)
    }

    /// Tokenizes `self.prompt`, keeps the cache up to the first differing token (leaving at
    /// least one to feed) and feeds the rest; `room` more tokens must fit the context.
    fn feed_prompt(&mut self, room: usize) -> Result<()> {
        self.tokens.clear();
        match self.abi.tokenizer {
            Tokenizer::Bytes => self.tokens.extend(self.prompt.bytes().map(i64::from)),
            #[cfg(feature = "hf-tokenizer")]
            Tokenizer::Json => {
                let hf = self.hf.as_ref().ok_or_else(|| {
                    Error::new(ErrorKind::Inference, "the tokenizer is not loaded")
                })?;
                hf.encode(&self.prompt, &mut self.tokens)?;
            }
            #[cfg(not(feature = "hf-tokenizer"))]
            Tokenizer::Json => {
                return Err(Error::new(
                    ErrorKind::Inference,
                    "built without the hf-tokenizer feature",
                ));
            }
        }
        if self.tokens.is_empty() {
            return Err(Error::new(
                ErrorKind::Inference,
                "the prompt encodes to no tokens",
            ));
        }
        if self.tokens.len() + room > self.abi.context {
            return Err(Error::new(
                ErrorKind::Inference,
                format!(
                    "a prompt of {} tokens does not fit a context of {}",
                    self.tokens.len(),
                    self.abi.context
                ),
            ));
        }
        let common = if self.kv_reuse {
            self.cached
                .iter()
                .zip(&self.tokens)
                .take_while(|(a, b)| a == b)
                .count()
        } else {
            0
        };
        let common = common.min(self.tokens.len() - 1);
        self.truncate(common);
        let tokens = std::mem::take(&mut self.tokens);
        let fed = self.forward(&tokens[common..]);
        self.tokens = tokens;
        fed?;
        self.stats.prompt_tokens += self.tokens.len() as u64;
        self.stats.reused_tokens += common as u64;
        Ok(())
    }

    /// Decides the next action of `ws` among the templates `mask` marks legal: renders the
    /// prompt, runs the model over what the cache does not hold, and decodes under the
    /// grammar. Returns the template index (legal by construction).
    pub fn decide_text(
        &mut self,
        ws: &evoharness_core::HeapWorkspace,
        mask: &[u8],
        how: crate::controller::Selection,
        rng: &mut SplitMix64,
    ) -> Result<usize> {
        self.prompt.clear();
        text::render(ws, &mut self.prompt)
            .map_err(|_| Error::new(ErrorKind::Inference, "rendering the workspace"))?;
        self.grammar.build(&self.layout, mask)?;
        if self.grammar.is_empty() {
            return Err(Error::new(ErrorKind::Inference, "no action is legal"));
        }
        self.feed_prompt(text::ACTION_MAX)?;
        self.stats.decisions += 1;

        self.output.clear();
        // Tokens chosen but not yet run through the model: a choice needs the logits after
        // them, a finished line does not (the next prompt ends before the action).
        let mut pending = std::mem::take(&mut self.pending);
        pending.clear();
        let decided = self.decode(&mut pending, how, rng);
        self.pending = pending;
        decided
    }

    /// The constrained decoding loop of [`GenerativePolicy::decide_text`], after the prompt.
    fn decode(
        &mut self,
        pending: &mut Vec<i64>,
        how: crate::controller::Selection,
        rng: &mut SplitMix64,
    ) -> Result<usize> {
        for _ in 0..text::ACTION_MAX {
            if !pending.is_empty() {
                self.forward(pending)?;
                pending.clear();
            }
            let t = self
                .grammar
                .next_token(&self.vocab, &self.output, &self.logits, how, rng)
                .ok_or_else(|| {
                    Error::new(
                        ErrorKind::Inference,
                        "the tokenizer cannot spell any legal action from here",
                    )
                })?;
            self.output.extend_from_slice(self.vocab.token(t));
            pending.push(i64::from(t));
            self.stats.decoded_tokens += 1;
            if let Some(i) = self.grammar.complete(&self.output) {
                return Ok(i);
            }
            // Bytes every legal continuation shares are forced: no model run decides them (a
            // byte token is its byte), they join the next run's input. A merged vocabulary
            // spells them in tokens the model chooses.
            if self.abi.tokenizer != Tokenizer::Bytes {
                continue;
            }
            while let Some(b) = self.grammar.forced(&self.output) {
                self.output.push(b);
                pending.push(i64::from(b));
                self.stats.decoded_tokens += 1;
                if let Some(i) = self.grammar.complete(&self.output) {
                    return Ok(i);
                }
            }
        }
        Err(Error::new(
            ErrorKind::Inference,
            "no legal action within the token bound",
        ))
    }
}

/// The identity a checkpoint records: the ABI name, capacities, context, tokenizer and the
/// file's fingerprint.
fn identity(abi: &GenerativeAbi, fingerprint: u64) -> u64 {
    let mut d = CRC64.digest();
    let mut field = |bytes: &[u8]| {
        d.update(&(bytes.len() as u64).to_le_bytes());
        d.update(bytes);
    };
    field(text::ABI.as_bytes());
    let c = abi.capacities;
    for n in [c.facts, c.steps, c.lessons, c.tools] {
        field(&n.to_le_bytes());
    }
    field(&(abi.context as u64).to_le_bytes());
    field(abi.tokenizer.name().as_bytes());
    field(&fingerprint.to_le_bytes());
    d.finalize()
}

impl<W: ?Sized> Controller<W> for GenerativePolicy {
    fn name(&self) -> String {
        "generative".into()
    }

    fn capacities(&self) -> Capacities {
        self.abi.capacities
    }

    fn needs(&self) -> Needs {
        Needs {
            obs: false,
            mask: true,
        }
    }

    fn begin(&mut self, _: &View<'_, W>) {
        // The cache may still hold the last task's prompt: its shared prefix is reused.
    }

    fn decide(&mut self, view: &View<'_, W>, rng: &mut SplitMix64) -> Result<Decision> {
        let i = self.decide_text(view.workspace, view.mask, view.selection, rng)?;
        Ok(Decision::Template(i))
    }

    fn observe(&mut self, _: &Action<'_>, _: Option<&EventBuf>) {}

    fn identity(&self) -> u64 {
        identity(&self.abi, self.fingerprint)
    }
}

/// A policy of either kind, as its file declares: a structured network ([`Policy`]) or a
/// language model ([`GenerativePolicy`]). What a host loads when it takes whatever file it is
/// given (the C library, `evoharness eval --agent policy:PATH`); a [`Controller`] like both.
#[derive(Debug)]
// Both variants are hundreds of bytes (a structured policy 336, a language model 544 with its
// buffers); boxing the larger only makes the other the large one (336 against 8). One value per
// agent, moved once into it: the difference costs nothing per step.
#[allow(clippy::large_enum_variant)]
pub enum AnyPolicy {
    /// `structured-v1` or `structured-v2`.
    Structured(Policy),
    /// `generative-v1`.
    Generative(GenerativePolicy),
}

impl AnyPolicy {
    /// The capacities and tool count it was made for.
    pub fn capacities(&self) -> Capacities {
        match self {
            AnyPolicy::Structured(p) => p.abi().capacities,
            AnyPolicy::Generative(p) => p.abi().capacities,
        }
    }

    /// The ABI name its file declares.
    pub fn abi_name(&self) -> &str {
        match self {
            AnyPolicy::Structured(p) => &p.abi().abi,
            AnyPolicy::Generative(_) => text::ABI,
        }
    }

    /// The tool names its file declares (none for a language model: its prompt shows tool
    /// indices).
    pub fn tool_names(&self) -> &[String] {
        match self {
            AnyPolicy::Structured(p) => &p.abi().tool_names,
            AnyPolicy::Generative(_) => &[],
        }
    }

    /// The action table it chooses among.
    pub fn layout(&self) -> Layout {
        match self {
            AnyPolicy::Structured(p) => p.layout(),
            AnyPolicy::Generative(p) => p.layout(),
        }
    }

    /// The backend running it.
    pub fn backend(&self) -> &'static Active {
        match self {
            AnyPolicy::Structured(p) => p.backend(),
            AnyPolicy::Generative(p) => p.backend(),
        }
    }

    /// The device it runs on.
    pub fn device(&self) -> Device {
        match self {
            AnyPolicy::Structured(p) => p.device(),
            AnyPolicy::Generative(p) => p.device(),
        }
    }

    /// The structured policy, if it is one.
    pub fn structured(&self) -> Option<&Policy> {
        match self {
            AnyPolicy::Structured(p) => Some(p),
            AnyPolicy::Generative(_) => None,
        }
    }

    /// The language model, if it is one.
    pub fn generative(&self) -> Option<&GenerativePolicy> {
        match self {
            AnyPolicy::Generative(p) => Some(p),
            AnyPolicy::Structured(_) => None,
        }
    }
}

impl PolicyBuilder {
    /// Loads a policy of the kind its file declares (`evoharness.abi`), from a file.
    pub fn commit_any_from_file(self, path: impl AsRef<Path>) -> Result<AnyPolicy> {
        let path = path.as_ref();
        let bytes = self.read_file(path)?;
        self.commit_any(&bytes, &path.display().to_string())
    }

    /// Loads a policy of the kind its bytes declare.
    pub fn commit_any_from_memory(self, bytes: &[u8]) -> Result<AnyPolicy> {
        self.commit_any(bytes, "policy in memory")
    }

    fn commit_any(self, bytes: &[u8], name: &str) -> Result<AnyPolicy> {
        if is_generative(bytes) {
            self.commit_generative(bytes, name)
                .map(AnyPolicy::Generative)
        } else {
            self.commit_named(bytes, name).map(AnyPolicy::Structured)
        }
    }
}

impl<W: ?Sized> Controller<W> for AnyPolicy {
    fn name(&self) -> String {
        match self {
            AnyPolicy::Structured(p) => Controller::<W>::name(p),
            AnyPolicy::Generative(p) => Controller::<W>::name(p),
        }
    }

    fn capacities(&self) -> Capacities {
        AnyPolicy::capacities(self)
    }

    fn layout(&self) -> Layout {
        AnyPolicy::layout(self)
    }

    fn needs(&self) -> Needs {
        match self {
            AnyPolicy::Structured(p) => Controller::<W>::needs(p),
            AnyPolicy::Generative(p) => Controller::<W>::needs(p),
        }
    }

    fn begin(&mut self, view: &View<'_, W>) {
        match self {
            AnyPolicy::Structured(p) => p.begin(view),
            AnyPolicy::Generative(p) => p.begin(view),
        }
    }

    fn decide(&mut self, view: &View<'_, W>, rng: &mut SplitMix64) -> Result<Decision> {
        match self {
            AnyPolicy::Structured(p) => p.decide(view, rng),
            AnyPolicy::Generative(p) => p.decide(view, rng),
        }
    }

    fn observe(&mut self, action: &Action<'_>, event: Option<&EventBuf>) {
        match self {
            AnyPolicy::Structured(p) => Controller::<W>::observe(p, action, event),
            AnyPolicy::Generative(p) => Controller::<W>::observe(p, action, event),
        }
    }

    fn identity(&self) -> u64 {
        match self {
            AnyPolicy::Structured(p) => Controller::<W>::identity(p),
            AnyPolicy::Generative(p) => Controller::<W>::identity(p),
        }
    }

    fn state(&self) -> &[f32] {
        match self {
            AnyPolicy::Structured(p) => Controller::<W>::state(p),
            AnyPolicy::Generative(p) => Controller::<W>::state(p),
        }
    }

    fn set_state(&mut self, state: &[f32]) -> Result<()> {
        match self {
            AnyPolicy::Structured(p) => Controller::<W>::set_state(p, state),
            AnyPolicy::Generative(p) => Controller::<W>::set_state(p, state),
        }
    }
}
