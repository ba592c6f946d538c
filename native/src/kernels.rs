//! The dense product, `y = act(x · W + b)` for a block of rows: portable Rust that the compiler
//! vectorises for the target's baseline (SSE2, NEON, or scalar on a Cortex-M4F), and, on x86-64,
//! AVX2 with FMA and AVX-512, chosen at run time with the `std` feature (or at compile time
//! from the target's features).
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
    dense_at(level(), xs, stride, rows, w, bias, n_in, n_out, ys, act);
}

/// [`dense`] with the kernels of `level` (at most the machine's).
#[allow(
    clippy::too_many_arguments,
    reason = "one product's operands, all needed"
)]
fn dense_at(
    level: Level,
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
            4 => rows_block::<4>(level, [x(0), x(1), x(2), x(3)], w, bias, n_out, y, act),
            3 => rows_block::<3>(level, [x(0), x(1), x(2)], w, bias, n_out, y, act),
            2 => rows_block::<2>(level, [x(0), x(1)], w, bias, n_out, y, act),
            _ => rows_block::<1>(level, [x(0)], w, bias, n_out, y, act),
        }
        r0 += block;
    }
}

/// `R` rows: tiles of outputs (wide, narrow), then single outputs.
fn rows_block<const R: usize>(
    level: Level,
    x: [&[f32]; R],
    w: &[f32],
    bias: Option<&[f32]>,
    n_out: usize,
    y: &mut [f32],
    act: Act,
) {
    if n_out == 1 {
        column::<R>(x, w, bias, y, act);
        return;
    }
    let mut o = 0;
    #[cfg(not(target_arch = "x86_64"))]
    let _ = level;
    #[cfg(target_arch = "x86_64")]
    {
        let l = level;
        if l >= Level::Avx512 {
            // SAFETY: the CPU has AVX-512F, AVX2 and FMA (`level` is at most `level()`).
            o = unsafe { avx512::tiles::<R>(x, w, bias, n_out, o, y, act) };
        }
        if l >= Level::Avx2 {
            // SAFETY: the CPU has AVX2 and FMA (`level` is at most `level()`).
            o = unsafe { avx::tiles::<R>(x, w, bias, n_out, o, y, act) };
        }
    }
    while o + 8 <= n_out {
        tile::<R, 8>(x, w, bias, n_out, o, y, act);
        o += 8;
    }
    while o + 4 <= n_out {
        tile::<R, 4>(x, w, bias, n_out, o, y, act);
        o += 4;
    }
    while o < n_out {
        tile::<R, 1>(x, w, bias, n_out, o, y, act);
        o += 1;
    }
}

/// A single output (a value head): each row's dot product with the one column of weights,
/// contiguous then, in eight partial sums the compiler vectorises.
fn column<const R: usize>(
    x: [&[f32]; R],
    w: &[f32],
    bias: Option<&[f32]>,
    y: &mut [f32],
    act: Act,
) {
    for (r, xr) in x.iter().enumerate() {
        let w = &w[..xr.len()];
        let mut part = [0f32; 8];
        let (xc, xt) = xr.split_at(xr.len() / 8 * 8);
        let (wc, wt) = w.split_at(xc.len());
        for (a, b) in xc.chunks_exact(8).zip(wc.chunks_exact(8)) {
            for j in 0..8 {
                part[j] += a[j] * b[j];
            }
        }
        let mut sum = bias.map_or(0.0, |b| b[0]);
        for p in part {
            sum += p;
        }
        for (a, b) in xt.iter().zip(wt) {
            sum += a * b;
        }
        y[r] = apply(act, sum);
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

/// The int8 product of one row (see [`Op::DenseQ8`](crate::Op::DenseQ8)): `x` quantized as
/// ONNX's `DynamicQuantizeLinear` does, integer sums, then `acc · (s · scale) + bias`. Integer
/// arithmetic and single float operations in a fixed order: the same bits on every target.
pub(crate) fn dense_q8(
    x: &[f32],
    w: &[i8],
    scales: &[f32],
    bias: Option<&[f32]>,
    y: &mut [f32],
    act: Act,
) {
    // The range, zero included; u8 levels 0..=255.
    let (mut lo, mut hi) = (0f32, 0f32);
    for &v in x {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    let s = (hi - lo) / 255.0;
    // An all-zero row has no range: every level is the zero point, 0.
    let (s, z) = if s > 0.0 {
        (s, rint(0.0 - lo / s).clamp(0.0, 255.0))
    } else {
        (1.0, 0.0)
    };
    // The sums, in the output's own memory (an i32 has an f32's size and alignment).
    // SAFETY: every bit pattern is a valid i32; f32 and i32 have the same size and alignment,
    // so the middle part is the whole slice; it borrows `y` for this function only.
    let (pre, acc, _) = unsafe { y.align_to_mut::<i32>() };
    if !pre.is_empty() {
        return;
    }
    acc.fill(0);
    match level() {
        #[cfg(target_arch = "x86_64")]
        Level::Avx512 => {
            // SAFETY: the CPU has AVX-512F, AVX-512BW and AVX2 (`level`).
            unsafe { q8_sums_avx512(x, w, s, z, acc) }
        }
        #[cfg(target_arch = "x86_64")]
        Level::Avx2 => {
            // SAFETY: the CPU has AVX2 (`level`).
            unsafe { q8_sums_avx2(x, w, s, z, acc) }
        }
        _ => q8_sums(x, w, s, z, acc),
    }
    for (o, a) in acc.iter_mut().enumerate() {
        let mut v = *a as f32 * (s * scales[o]);
        if let Some(b) = bias {
            v += b[o];
        }
        *a = apply(act, v).to_bits() as i32;
    }
}

/// The integer sums of the int8 product: `acc[o] += (q_k − z) · W[k][o]`. A centred level is
/// within ±255 and a weight within −128..=127, so each product fits an i16 (at most 32,640):
/// 16-bit multiplies, then 32-bit sums.
#[inline(always)]
fn q8_sums(x: &[f32], w: &[i8], s: f32, z: f32, acc: &mut [i32]) {
    let n_out = acc.len();
    for (k, &v) in x.iter().enumerate() {
        let q = (rint(v / s) + z).clamp(0.0, 255.0);
        let c = q as i16 - z as i16;
        if c == 0 {
            continue;
        }
        let wk = &w[k * n_out..][..n_out];
        for (a, &wv) in acc.iter_mut().zip(wk) {
            *a += i32::from(c.wrapping_mul(i16::from(wv)));
        }
    }
}

/// [`q8_sums`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn q8_sums_avx2(x: &[f32], w: &[i8], s: f32, z: f32, acc: &mut [i32]) {
    q8_sums(x, w, s, z, acc);
}

/// [`q8_sums`] compiled for AVX-512.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx2")]
fn q8_sums_avx512(x: &[f32], w: &[i8], s: f32, z: f32, acc: &mut [i32]) {
    q8_sums(x, w, s, z, acc);
}

/// `x` rounded to the nearest integer, ties to even, for `|x| < 2^22` (a quantized level is
/// within ±255): adding and subtracting 1.5 · 2^23 leaves no fraction bits, and IEEE addition
/// rounds ties to even. libm's `rintf` gives the same, in software, many times slower.
#[inline(always)]
fn rint(x: f32) -> f32 {
    const M: f32 = 12_582_912.0;
    (x + M) - M
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

/// Which kernels may run (the AVX ones on x86-64 only).
#[cfg_attr(
    not(target_arch = "x86_64"),
    allow(dead_code, reason = "only x86-64 has the AVX kernels")
)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Level {
    /// Portable code only.
    Base = 1,
    /// AVX2 with FMA.
    Avx2 = 2,
    /// AVX-512 (foundation and byte/word) besides.
    Avx512 = 3,
}

/// The best kernels this CPU runs: detected once with the `std` feature, else what the target
/// enables at compile time.
#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn level() -> Level {
    Level::Base
}

/// The best kernels this CPU runs: detected once with the `std` feature, else what the target
/// enables at compile time.
#[cfg(target_arch = "x86_64")]
#[inline]
fn level() -> Level {
    #[cfg(feature = "std")]
    {
        use core::sync::atomic::{AtomicU8, Ordering};
        // 0: not yet known.
        static LEVEL: AtomicU8 = AtomicU8::new(0);
        match LEVEL.load(Ordering::Relaxed) {
            1 => Level::Base,
            2 => Level::Avx2,
            3 => Level::Avx512,
            _ => {
                let avx2 =
                    std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma");
                let avx512 = std::is_x86_feature_detected!("avx512f")
                    && std::is_x86_feature_detected!("avx512bw");
                let l = match (avx2, avx512) {
                    (true, true) => Level::Avx512,
                    (true, false) => Level::Avx2,
                    _ => Level::Base,
                };
                LEVEL.store(l as u8, Ordering::Relaxed);
                l
            }
        }
    }
    #[cfg(not(feature = "std"))]
    {
        if cfg!(all(
            target_feature = "avx2",
            target_feature = "fma",
            target_feature = "avx512f",
            target_feature = "avx512bw"
        )) {
            Level::Avx512
        } else if cfg!(all(target_feature = "avx2", target_feature = "fma")) {
            Level::Avx2
        } else {
            Level::Base
        }
    }
}

/// The kernels the dense products use on this machine: `avx512`, `avx2` or `portable`.
pub fn kernels() -> &'static str {
    match level() {
        Level::Avx512 => "avx512",
        Level::Avx2 => "avx2",
        Level::Base => "portable",
    }
}

#[cfg(target_arch = "x86_64")]
mod avx {
    use core::arch::x86_64::*;

    use super::{Act, apply};

    /// Tiles of outputs from `from` on, for `R` rows; returns the first output not done.
    #[target_feature(enable = "avx2,fma")]
    pub(super) fn tiles<const R: usize>(
        x: [&[f32]; R],
        w: &[f32],
        bias: Option<&[f32]>,
        n_out: usize,
        from: usize,
        y: &mut [f32],
        act: Act,
    ) -> usize {
        let mut o = from;
        // Wide tiles first, so that at least 8 accumulators (R × T) hide the FMA's latency.
        match R {
            1 => {
                while o + 64 <= n_out {
                    tile::<R, 8>(x, w, bias, n_out, o, y, act);
                    o += 64;
                }
                while o + 32 <= n_out {
                    tile::<R, 4>(x, w, bias, n_out, o, y, act);
                    o += 32;
                }
            }
            2 => {
                while o + 32 <= n_out {
                    tile::<R, 4>(x, w, bias, n_out, o, y, act);
                    o += 32;
                }
            }
            3 => {
                while o + 24 <= n_out {
                    tile::<R, 3>(x, w, bias, n_out, o, y, act);
                    o += 24;
                }
            }
            _ => {}
        }
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

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use core::arch::x86_64::*;

    use super::{Act, apply};

    /// Tiles of outputs from `from` on, for `R` rows; returns the first output not done.
    #[target_feature(enable = "avx512f,avx2,fma")]
    pub(super) fn tiles<const R: usize>(
        x: [&[f32]; R],
        w: &[f32],
        bias: Option<&[f32]>,
        n_out: usize,
        from: usize,
        y: &mut [f32],
        act: Act,
    ) -> usize {
        let mut o = from;
        // 32 registers: up to 16 accumulators (R × T) hide the FMA's latency and let each
        // loaded weight serve four rows.
        match R {
            1 => {
                while o + 128 <= n_out {
                    tile::<R, 8>(x, w, bias, n_out, o, y, act);
                    o += 128;
                }
            }
            2 => {
                while o + 64 <= n_out {
                    tile::<R, 4>(x, w, bias, n_out, o, y, act);
                    o += 64;
                }
            }
            3 => {
                while o + 48 <= n_out {
                    tile::<R, 3>(x, w, bias, n_out, o, y, act);
                    o += 48;
                }
            }
            _ => {
                while o + 64 <= n_out {
                    tile::<R, 4>(x, w, bias, n_out, o, y, act);
                    o += 64;
                }
            }
        }
        while o + 32 <= n_out {
            tile::<R, 2>(x, w, bias, n_out, o, y, act);
            o += 32;
        }
        while o + 16 <= n_out {
            tile::<R, 1>(x, w, bias, n_out, o, y, act);
            o += 16;
        }
        o
    }

    /// Sixteen floats from the start of `s`.
    #[target_feature(enable = "avx512f,avx2,fma")]
    #[inline]
    fn load(s: &[f32]) -> __m512 {
        let s = &s[..16];
        // SAFETY: `s` holds 16 floats; unaligned loads are allowed.
        unsafe { _mm512_loadu_ps(s.as_ptr()) }
    }

    /// Sixteen floats to the start of `d`.
    #[target_feature(enable = "avx512f,avx2,fma")]
    #[inline]
    fn store(d: &mut [f32], v: __m512) {
        let d = &mut d[..16];
        // SAFETY: `d` holds 16 floats; unaligned stores are allowed.
        unsafe { _mm512_storeu_ps(d.as_mut_ptr(), v) }
    }

    /// Outputs `o..o + 16T` of `R` rows, in `R × T` registers.
    #[target_feature(enable = "avx512f,avx2,fma")]
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
        let zero = _mm512_setzero_ps();
        let mut acc = [[zero; T]; R];
        if let Some(b) = bias {
            for row in acc.iter_mut() {
                for (t, a) in row.iter_mut().enumerate() {
                    *a = load(&b[o + 16 * t..]);
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
            let wk = &w[k * n_out + o..][..16 * T];
            let mut wv = [zero; T];
            for t in 0..T {
                wv[t] = load(&wk[16 * t..]);
            }
            for r in 0..R {
                let xv = _mm512_set1_ps(xk[r]);
                for t in 0..T {
                    acc[r][t] = _mm512_fmadd_ps(xv, wv[t], acc[r][t]);
                }
            }
        }
        for (r, row) in acc.iter().enumerate() {
            for (t, a) in row.iter().enumerate() {
                let d = &mut y[r * n_out + o + 16 * t..][..16];
                match act {
                    Act::None => store(d, *a),
                    Act::Relu => store(d, _mm512_max_ps(*a, zero)),
                    _ => {
                        let mut tmp = [0f32; 16];
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
        for (n_in, n_out) in [
            (1, 1),
            (3, 7),
            (17, 8),
            (33, 16),
            (40, 37),
            (64, 130),
            (9, 348),
        ] {
            for rows in 1..=9 {
                // Odd widths get sparse rows, even ones dense rows.
                let xs: Vec<f32> = (0..rows * n_in)
                    .map(|i| {
                        if n_in % 2 == 1 && i % 5 != 0 {
                            0.0
                        } else {
                            next()
                        }
                    })
                    .collect();
                let w: Vec<f32> = (0..n_in * n_out).map(|_| next()).collect();
                let b: Vec<f32> = (0..n_out).map(|_| next()).collect();
                for level in [Level::Base, Level::Avx2, Level::Avx512] {
                    if level > super::level() {
                        continue;
                    }
                    let mut ys = vec![f32::NAN; rows * n_out];
                    dense_at(
                        level,
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
                                "{level:?} {n_in}x{n_out}, {rows} rows, row {r} out {o}: {got} \
                                 vs {}",
                                want[o]
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn rint_rounds_ties_to_even_as_libm_does() {
        for i in -300_000..300_000 {
            let x = i as f32 / 1000.0;
            assert_eq!(rint(x), libm::rintf(x), "{x}");
        }
        for x in [0.5f32, 1.5, 2.5, -0.5, -1.5, 254.5, -254.5, 255.49, 1e-30] {
            assert_eq!(rint(x), libm::rintf(x), "{x}");
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
