//! Running a policy on many observations at once.
//!
//! A [`Batch`] holds up to its capacity of rows — observation, mask and (for a recurrent
//! policy) recurrent state — in buffers made once, and the outputs of the last run: logits,
//! value and the new recurrent state of each row. [`Policy::run_batch`] runs every row:
//! in **one** call of the inference backend when the file has a dynamic batch dimension
//! ([`Policy::batched`]; what the exporter of `runtime/POLICY.md` writes), else one batch-1 call
//! per row, so files exported before keep working. Either way each row's outputs are what
//! [`Policy::run`] gives for that row alone (`tests/fleet.rs` checks them bit for bit on tract
//! and ONNX Runtime).
//!
//! A [`Fleet`](crate::Fleet) steps its agents through one batch; a host with its own loop may
//! use a batch directly.

use ort::value::TensorRef;

use crate::error::{Context, Error, ErrorKind, Result};
use crate::policy::{Engine, Input, OrtEngine, Policy, PolicyAbi};

/// Rows of policy inputs and their outputs; see the [module docs](self).
#[derive(Clone, Debug)]
pub struct Batch {
    capacity: usize,
    rows: usize,
    obs_len: usize,
    actions: usize,
    state_len: usize,
    obs: Vec<f32>,
    mask: Vec<f32>,
    state: Vec<f32>,
    logits: Vec<f32>,
    values: Vec<f32>,
}

impl Batch {
    /// An empty batch for policies of this contract, with room for `capacity` rows (all
    /// buffers are made here: adding rows and running allocate nothing in this crate).
    pub fn new(abi: &PolicyAbi, capacity: usize) -> Self {
        let state_len = abi.state_len.unwrap_or(0);
        Self {
            capacity,
            rows: 0,
            obs_len: abi.obs_len,
            actions: abi.actions,
            state_len,
            obs: vec![0.0; capacity * abi.obs_len],
            mask: vec![0.0; capacity * abi.actions],
            state: vec![0.0; capacity * state_len],
            logits: vec![0.0; capacity * abi.actions],
            values: vec![0.0; capacity],
        }
    }

    /// How many rows it has room for.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// The rows added since the last [`Batch::clear`].
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Whether it has no rows.
    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// Removes every row (the buffers stay).
    pub fn clear(&mut self) {
        self.rows = 0;
    }

    /// Adds a row: an observation and mask (as [`Layout::encode`] and [`Layout::mask`] write
    /// them) and the row's recurrent state (empty for a feed-forward policy); returns its
    /// index. An error, with nothing added, when the batch is full or a length is not the
    /// contract's.
    ///
    /// [`Layout::encode`]: evoharness_core::obs::Layout::encode
    /// [`Layout::mask`]: evoharness_core::obs::Layout::mask
    pub fn push(&mut self, obs: &[f32], mask: &[u8], state: &[f32]) -> Result<usize> {
        if self.rows == self.capacity {
            return Err(Error::new(
                ErrorKind::Inference,
                format!("the batch is full: {} rows", self.capacity),
            ));
        }
        if obs.len() != self.obs_len || mask.len() != self.actions || state.len() != self.state_len
        {
            return Err(Error::new(
                ErrorKind::Inference,
                format!(
                    "a row of {} observation floats, {} mask entries and {} state floats for a \
                     batch of {}, {} and {}",
                    obs.len(),
                    mask.len(),
                    state.len(),
                    self.obs_len,
                    self.actions,
                    self.state_len
                ),
            ));
        }
        let r = self.rows;
        self.obs[r * self.obs_len..][..self.obs_len].copy_from_slice(obs);
        for (m, &x) in self.mask[r * self.actions..][..self.actions]
            .iter_mut()
            .zip(mask)
        {
            *m = f32::from(x);
        }
        self.state[r * self.state_len..][..self.state_len].copy_from_slice(state);
        self.rows += 1;
        Ok(r)
    }

    /// Row `row`'s logits from the last run, one per action template.
    ///
    /// # Panics
    /// If `row` is not below [`Batch::rows`].
    pub fn logits(&self, row: usize) -> &[f32] {
        assert!(row < self.rows, "row {row} of a batch of {}", self.rows);
        &self.logits[row * self.actions..][..self.actions]
    }

    /// Row `row`'s value estimate from the last run (0 for a policy without one).
    ///
    /// # Panics
    /// If `row` is not below [`Batch::rows`].
    pub fn value(&self, row: usize) -> f32 {
        assert!(row < self.rows, "row {row} of a batch of {}", self.rows);
        self.values[row]
    }

    /// Row `row`'s recurrent state: as added before a run, the new state after it.
    ///
    /// # Panics
    /// If `row` is not below [`Batch::rows`].
    pub fn state(&self, row: usize) -> &[f32] {
        assert!(row < self.rows, "row {row} of a batch of {}", self.rows);
        &self.state[row * self.state_len..][..self.state_len]
    }
}

impl Policy {
    /// Runs the policy on every row of `batch` (see the [module docs](self)); each row's
    /// logits, value and new recurrent state are then in the batch. The policy's own logits
    /// and state ([`Policy::logits`], [`Policy::state`]) are not those of any row afterwards.
    /// An error when the batch was made for another contract.
    pub fn run_batch(&mut self, batch: &mut Batch) -> Result<()> {
        let abi = self.abi();
        if (batch.obs_len, batch.actions, batch.state_len)
            != (abi.obs_len, abi.actions, abi.state_len.unwrap_or(0))
        {
            return Err(Error::new(
                ErrorKind::Inference,
                format!(
                    "a batch of {} observation floats, {} actions and {} state floats for a \
                     policy of {}, {} and {}",
                    batch.obs_len,
                    batch.actions,
                    batch.state_len,
                    abi.obs_len,
                    abi.actions,
                    abi.state_len.unwrap_or(0)
                ),
            ));
        }
        let rows = batch.rows;
        if rows == 0 {
            return Ok(());
        }
        if let Engine::Native(e) = &mut self.engine {
            let (a, h) = (batch.actions, batch.state_len);
            let has_value = e.model().has_value();
            let Batch {
                obs,
                mask,
                state,
                logits,
                values,
                obs_len,
                ..
            } = batch;
            // The new state is written over the old after the run (the evaluator reads one and
            // writes the other).
            let mut new_state = std::mem::take(&mut e.batch_state);
            new_state.resize(rows * h, 0.0);
            e.run_batch(
                rows,
                evoharness_native::Inputs {
                    obs: &obs[..rows * *obs_len],
                    mask: &mask[..rows * a],
                    state: &state[..rows * h],
                },
                evoharness_native::Outputs {
                    logits: &mut logits[..rows * a],
                    value: &mut values[..rows],
                    state: &mut new_state,
                },
            )?;
            state[..rows * h].copy_from_slice(&new_state);
            e.batch_state = new_state;
            if !has_value {
                values[..rows].fill(0.0);
            }
            return Ok(());
        }
        if !self.batched() {
            let (o, a, h) = (batch.obs_len, batch.actions, batch.state_len);
            for r in 0..rows {
                batch.values[r] = self.run_row(
                    &batch.obs[r * o..][..o],
                    &batch.mask[r * a..][..a],
                    &mut batch.state[r * h..][..h],
                    &mut batch.logits[r * a..][..a],
                )?;
            }
            return Ok(());
        }
        match &mut self.engine {
            Engine::Ort(e) => e.run_rows(batch, rows),
            Engine::Native(_) => Ok(()),
        }
    }
}

impl OrtEngine {
    /// One backend call over `rows` rows (a file with a dynamic batch dimension).
    fn run_rows(&mut self, batch: &mut Batch, rows: usize) -> Result<()> {
        let (o, a, h) = (batch.obs_len, batch.actions, batch.state_len);
        let obs = view(&batch.obs, rows, o)?;
        let mask = view(&batch.mask, rows, a)?;
        let state = if h > 0 {
            Some(view(&batch.state, rows, h)?)
        } else {
            None
        };
        let pick = |i: &Input| -> ort::session::SessionInputValue<'_> {
            match i {
                Input::Obs => (&*obs).into(),
                Input::Mask => (&*mask).into(),
                // `order` holds State only for a recurrent policy, whose batch has state.
                Input::State => (&**state.as_ref().unwrap_or(&obs)).into(),
            }
        };
        let outputs = match self.order.as_slice() {
            [x, y] => self.session.run([pick(x), pick(y)]),
            [x, y, z] => self.session.run([pick(x), pick(y), pick(z)]),
            _ => unreachable!("checked at load: two or three inputs"),
        }
        .context(ErrorKind::Inference, || {
            "running the policy on a batch".to_string()
        })?;
        let read = |k: usize, what: &str, out: &mut [f32]| -> Result<()> {
            let (_, data) = outputs[k]
                .try_extract_tensor::<f32>()
                .context(ErrorKind::Inference, || format!("reading the {what}"))?;
            if data.len() != out.len() {
                return Err(Error::new(
                    ErrorKind::Inference,
                    format!(
                        "the policy returned {} floats of {what} for {rows} rows; expected {}",
                        data.len(),
                        out.len()
                    ),
                ));
            }
            out.copy_from_slice(data);
            Ok(())
        };
        read(self.out_logits, "logits", &mut batch.logits[..rows * a])?;
        match self.out_value {
            Some(k) => read(k, "value", &mut batch.values[..rows])?,
            None => batch.values[..rows].fill(0.0),
        }
        if let Some(k) = self.out_state {
            read(k, "recurrent state", &mut batch.state[..rows * h])?;
        }
        Ok(())
    }
}

/// The first `rows` rows of `width` floats of `data` as a `[rows, width]` tensor.
fn view(data: &[f32], rows: usize, width: usize) -> Result<TensorRef<'_, f32>> {
    TensorRef::from_array_view(([rows, width], &data[..rows * width]))
        .context(ErrorKind::Inference, || "making a batch tensor".to_string())
}
