//! The dense product, `y = act(x · W + b)` for a block of rows, in two versions: portable Rust
//! that the compiler vectorises for the target's baseline (SSE2, NEON, or scalar on a
//! Cortex-M4F), and, on x86-64, AVX2 with FMA, chosen at run time with the `std` feature (or
//! at compile time when the target enables both).
//!
//! Both keep a tile of outputs for up to four rows in registers while they walk the inputs, so
//! each weight loaded serves every row of the block, and both skip an input that is zero in
//! every row of the block (observations are sparse, and a ReLU zeroes about half of a hidden
//! layer): `0 · w` adds nothing for the finite weights a converter writes. Sums run in input
//! order per output, so a row's result does not depend on the other rows of its block.

use crate::format::Act;

/// Rows per block.
const ROWS: usize = 4;

/// The dense product over `rows` rows: row `r`'s input is `xs[r * stride..][..n_in]` (stride 0:
/// the same input for every row), its output `ys[r * n_out..][..n_out]`; `w` holds `n_in ×
/// n_out` floats, input-major. The caller has checked every length.
#[allow(
    clippy::too_many_arguments,
    reason = "one product's operands, all needed"
)]
pub(crate) fn dense(
    xs: &[f32],
    stride: usize,
    rows: usize,
    w: &[f32],
    bias: Option<&[f32]>,
    n_in: usize,
    n_out: usize,
    ys: &mut [f32],
    act: Act,
) {
    let mut r0 = 0;
    while r0 < rows {
        let block = (rows - r0).min(ROWS);
        let x = |r: usize| &xs[(r0 + r) * stride..][..n_in];
        let y = &mut ys[r0 * n_out..][..block * n_out];
        match block {
            4 => rows_block::<4>([x(0), x(1), x(2), x(3)], w, bias, n_out, y, act),
            3 => rows_block::<3>([x(0), x(1), x(2)], w, bias, n_out, y, act),
            2 => rows_block::<2>([x(0), x(1)], w, bias, n_out, y, act),
            _ => rows_block::<1>([x(0)], w, bias, n_out, y, act),
        }
        r0 += block;
    }
}

/// `R` rows: tiles of outputs (wide, narrow), then single outputs.
fn rows_block<const R: usize>(
    x: [&[f32]; R],
    w: &[f32],
    bias: Option<&[f32]>,
    n_out: usize,
    y: &mut [f32],
    act: Act,
) {
    let mut o = 0;
    #[cfg(target_arch = "x86_64")]
    if avx2_fma() {
        // SAFETY: the CPU has AVX2 and FMA (checked just above).
        o = unsafe { avx::tiles::<R>(x, w, bias, n_out, y, act) };
    }
    while o + 8 <= n_out {
        tile::<R, 8>(x, w, bias, n_out, o, y, act);
        o += 8;
    }
    while o < n_out {
        tile::<R, 1>(x, w, bias, n_out, o, y, act);
        o += 1;
    }
}

/// Outputs `o..o + N` of `R` rows, portable.
#[inline(always)]
fn tile<const R: usize, const N: usize>(
    x: [&[f32]; R],
    w: &[f32],
    bias: Option<&[f32]>,
    n_out: usize,
    o: usize,
    y: &mut [f32],
    act: Act,
) {
    let mut acc = [[0f32; N]; R];
    if let Some(b) = bias {
        let b = &b[o..][..N];
        for a in acc.iter_mut() {
            a.copy_from_slice(b);
        }
    }
    let n_in = x[0].len();
    for k in 0..n_in {
        let xk: [f32; R] = core::array::from_fn(|r| x[r][k]);
        if xk.iter().all(|&v| v == 0.0) {
            continue;
        }
        let wk = &w[k * n_out + o..][..N];
        for r in 0..R {
            for j in 0..N {
                acc[r][j] += xk[r] * wk[j];
            }
        }
    }
    for (r, a) in acc.iter().enumerate() {
        for (d, &v) in y[r * n_out + o..][..N].iter_mut().zip(a) {
            *d = apply(act, v);
        }
    }
}

/// `act(v)`.
#[inline(always)]
pub(crate) fn apply(act: Act, v: f32) -> f32 {
    match act {
        Act::None => v,
        Act::Relu => {
            if v > 0.0 {
                v
            } else {
                0.0
            }
        }
        Act::Tanh => libm::tanhf(v),
        Act::Sigmoid => 1.0 / (1.0 + libm::expf(-v)),
    }
}

/// Whether the AVX2 and FMA kernels may run.
#[cfg(target_arch = "x86_64")]
#[inline]
fn avx2_fma() -> bool {
    #[cfg(all(target_feature = "avx2", target_feature = "fma"))]
    {
        true
    }
    #[cfg(all(
        feature = "std",
        not(all(target_feature = "avx2", target_feature = "fma"))
    ))]
    {
        use core::sync::atomic::{AtomicU8, Ordering};
        // 0: not yet known, 1: no, 2: yes.
        static HAS: AtomicU8 = AtomicU8::new(0);
        match HAS.load(Ordering::Relaxed) {
            0 => {
                let yes =
                    std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma");
                HAS.store(if yes { 2 } else { 1 }, Ordering::Relaxed);
                yes
            }
            v => v == 2,
        }
    }
    #[cfg(all(
        not(feature = "std"),
        not(all(target_feature = "avx2", target_feature = "fma"))
    ))]
    {
        false
    }
}

/// Whether the AVX2 kernels run on this machine (for reports and tests).
pub fn uses_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        avx2_fma()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

#[cfg(target_arch = "x86_64")]
mod avx {
    use core::arch::x86_64::*;

    use super::{Act, apply};

    /// Tiles of 16 outputs, then of 8, for `R` rows; returns the first output not done.
    #[target_feature(enable = "avx2,fma")]
    pub(super) fn tiles<const R: usize>(
        x: [&[f32]; R],
        w: &[f32],
        bias: Option<&[f32]>,
        n_out: usize,
        y: &mut [f32],
        act: Act,
    ) -> usize {
        let mut o = 0;
        while o + 16 <= n_out {
            tile::<R, 2>(x, w, bias, n_out, o, y, act);
            o += 16;
        }
        while o + 8 <= n_out {
            tile::<R, 1>(x, w, bias, n_out, o, y, act);
            o += 8;
        }
        o
    }

    /// Eight floats from the start of `s`.
    #[target_feature(enable = "avx2,fma")]
    #[inline]
    fn load(s: &[f32]) -> __m256 {
        let s = &s[..8];
        // SAFETY: `s` holds 8 floats; unaligned loads are allowed.
        unsafe { _mm256_loadu_ps(s.as_ptr()) }
    }

    /// Eight floats to the start of `d`.
    #[target_feature(enable = "avx2,fma")]
    #[inline]
    fn store(d: &mut [f32], v: __m256) {
        let d = &mut d[..8];
        // SAFETY: `d` holds 8 floats; unaligned stores are allowed.
        unsafe { _mm256_storeu_ps(d.as_mut_ptr(), v) }
    }

    /// Outputs `o..o + 8T` of `R` rows, in `R × T` registers.
    #[target_feature(enable = "avx2,fma")]
    #[inline]
    fn tile<const R: usize, const T: usize>(
        x: [&[f32]; R],
        w: &[f32],
        bias: Option<&[f32]>,
        n_out: usize,
        o: usize,
        y: &mut [f32],
        act: Act,
    ) {
        let n_in = x[0].len();
        let zero = _mm256_setzero_ps();
        let mut acc = [[zero; T]; R];
        if let Some(b) = bias {
            for row in acc.iter_mut() {
                for (t, a) in row.iter_mut().enumerate() {
                    *a = load(&b[o + 8 * t..]);
                }
            }
        }
        let x: [&[f32]; R] = {
            let mut v = x;
            for r in v.iter_mut() {
                *r = &r[..n_in];
            }
            v
        };
        for k in 0..n_in {
            let mut xk = [0f32; R];
            let mut any = false;
            for r in 0..R {
                xk[r] = x[r][k];
                any |= xk[r] != 0.0;
            }
            if !any {
                continue;
            }
            let wk = &w[k * n_out + o..][..8 * T];
            let mut wv = [zero; T];
            for t in 0..T {
                wv[t] = load(&wk[8 * t..]);
            }
            for r in 0..R {
                let xv = _mm256_set1_ps(xk[r]);
                for t in 0..T {
                    acc[r][t] = _mm256_fmadd_ps(xv, wv[t], acc[r][t]);
                }
            }
        }
        for (r, row) in acc.iter().enumerate() {
            for (t, a) in row.iter().enumerate() {
                let d = &mut y[r * n_out + o + 8 * t..][..8];
                match act {
                    Act::None => store(d, *a),
                    Act::Relu => store(d, _mm256_max_ps(*a, zero)),
                    _ => {
                        let mut tmp = [0f32; 8];
                        store(&mut tmp, *a);
                        for (d, v) in d.iter_mut().zip(tmp) {
                            *d = apply(act, v);
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain definition, in f64.
    fn reference(x: &[f32], w: &[f32], b: &[f32], n_out: usize) -> Vec<f64> {
        (0..n_out)
            .map(|o| {
                b[o] as f64
                    + x.iter()
                        .enumerate()
                        .map(|(k, &v)| v as f64 * w[k * n_out + o] as f64)
                        .sum::<f64>()
            })
            .collect()
    }

    #[test]
    fn every_block_and_tile_shape_computes_the_product() {
        let mut seed = 7u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let v = ((seed >> 40) as f32 / (1u64 << 24) as f32) - 0.5;
            if v.abs() < 0.1 { 0.0 } else { v }
        };
        for (n_in, n_out) in [(1, 1), (3, 7), (17, 8), (33, 16), (40, 37), (64, 130)] {
            for rows in 1..=9 {
                let xs: Vec<f32> = (0..rows * n_in).map(|_| next()).collect();
                let w: Vec<f32> = (0..n_in * n_out).map(|_| next()).collect();
                let b: Vec<f32> = (0..n_out).map(|_| next()).collect();
                let mut ys = vec![f32::NAN; rows * n_out];
                dense(
                    &xs,
                    n_in,
                    rows,
                    &w,
                    Some(&b),
                    n_in,
                    n_out,
                    &mut ys,
                    Act::Relu,
                );
                for r in 0..rows {
                    let want = reference(&xs[r * n_in..][..n_in], &w, &b, n_out);
                    for o in 0..n_out {
                        let got = ys[r * n_out + o] as f64;
                        assert!(
                            (got - want[o].max(0.0)).abs() < 1e-5,
                            "{n_in}x{n_out}, {rows} rows, row {r} out {o}: {got} vs {}",
                            want[o]
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_row_gives_the_same_bits_alone_and_in_a_block() {
        let (n_in, n_out) = (50, 40);
        let xs: Vec<f32> = (0..4 * n_in)
            .map(|i| ((i * 37 % 19) as f32 - 9.0) / 7.0)
            .collect();
        let w: Vec<f32> = (0..n_in * n_out)
            .map(|i| ((i * 11 % 23) as f32 - 11.0) / 13.0)
            .collect();
        let mut all = vec![0.0; 4 * n_out];
        dense(&xs, n_in, 4, &w, None, n_in, n_out, &mut all, Act::None);
        for r in 0..4 {
            let mut one = vec![0.0; n_out];
            dense(
                &xs[r * n_in..],
                n_in,
                1,
                &w,
                None,
                n_in,
                n_out,
                &mut one,
                Act::None,
            );
            assert_eq!(one, all[r * n_out..][..n_out]);
        }
    }
}
