//! What the fuzz target does with its input (feature `alloc`), kept here so that it is tested
//! with the crate and the target stays a few lines.

use alloc::vec;

use crate::format::{CRC, TRAILER_LEN};
use crate::{AlignedBytes, Inputs, Model, Outputs};

/// Scratch floats the exerciser allocates at most.
const SCRATCH_MAX: usize = 1 << 20;

/// Reads `data` as a file and, if it is accepted, runs it on 1 and 3 rows. When the first byte
/// is odd, the rest is first given a correct length field and checksum, so that mutations
/// reach the checks behind them. Returns whether the file was accepted (and ran). Panics only
/// on a bug: a file that is accepted must run.
pub fn exercise(data: &[u8]) -> bool {
    let Some((&mode, rest)) = data.split_first() else {
        return false;
    };
    let mut bytes = rest.to_vec();
    if mode & 1 == 1 && bytes.len() >= 16 + TRAILER_LEN {
        let n = bytes.len() as u32;
        bytes[12..16].copy_from_slice(&n.to_le_bytes());
        let body = bytes.len() - TRAILER_LEN;
        let crc = CRC.checksum(&bytes[..body]);
        bytes[body..].copy_from_slice(&crc.to_le_bytes());
    }
    let aligned = AlignedBytes::new(&bytes);
    let Ok(model) = Model::new(aligned.as_ref()) else {
        return false;
    };
    let _ = model.metadata().count();
    for rows in [1usize, 3] {
        let need = model.scratch_per_row().saturating_mul(rows);
        let io_max = [
            model.obs_len(),
            model.mask_len(),
            model.state_len(),
            model.logits_len(),
        ]
        .into_iter()
        .max()
        .unwrap_or(0)
        .saturating_mul(rows);
        if need > SCRATCH_MAX || io_max > SCRATCH_MAX {
            return true;
        }
        let obs = vec![0.5f32; rows * model.obs_len()];
        let mask = vec![1.0f32; rows * model.mask_len()];
        let state = vec![0.25f32; rows * model.state_len()];
        let mut scratch = vec![0.0f32; need];
        let mut logits = vec![0.0f32; rows * model.logits_len()];
        let mut value = vec![0.0f32; rows];
        let mut state_out = vec![0.0f32; rows * model.state_len()];
        model
            .run(
                rows,
                Inputs {
                    obs: &obs,
                    mask: &mask,
                    state: &state,
                },
                &mut scratch,
                Outputs {
                    logits: &mut logits,
                    value: &mut value,
                    state: &mut state_out,
                },
            )
            .expect("an accepted model runs on buffers of its sizes");
    }
    true
}
