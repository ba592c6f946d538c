//! The format's refusals, and runs against a plain reference.

use crate::format::{HEADER_LEN, TRAILER_LEN};
use crate::fuzzing::exercise;
use crate::*;

/// A small policy shaped like the shipped ones: obs (6) → scale → Dense(6→5, ReLU) →
/// Dense(5→4) → + (mask − 1)·1e9 → logits; Dense(5→1) → value.
fn small() -> Writer {
    let mut w = Writer::new();
    w.meta("evoharness.abi", "structured-v1");
    w.meta("evoharness.producer", "tests");
    let scale = w.constant(&[1.0, 0.5, 2.0, 1.0, -1.0, 0.25]);
    let w1: Vec<f32> = (0..30).map(|i| ((i * 7 % 11) as f32 - 5.0) / 4.0).collect();
    let w1 = w.constant(&w1);
    let b1 = w.constant(&[0.1, -0.2, 0.3, 0.0, 0.05]);
    let w2: Vec<f32> = (0..20).map(|i| ((i * 5 % 9) as f32 - 4.0) / 3.0).collect();
    let w2 = w.constant(&w2);
    let b2 = w.constant(&[0.0, 0.1, 0.2, 0.3]);
    let wv = w.constant(&[1.0, -1.0, 0.5, 0.25, 2.0]);
    let one = w.constant(&[1.0]);
    let big = w.constant(&[1e9]);
    let s = |off, len| Operand {
        buf: Buf::Scratch,
        off,
        len,
    };
    let c = |off, len| Operand {
        buf: Buf::Weights,
        off,
        len,
    };
    // Scratch: 0..6 scaled obs, 6..11 hidden, 11..15 raw logits, 15..19 mask − 1,
    // 19..23 penalty, 23..27 logits, 27 value.
    w.op(Op::Binary {
        a: Operand {
            buf: Buf::Obs,
            off: 0,
            len: 6,
        },
        b: c(scale, 6),
        dst: 0,
        n: 6,
        op: BinOp::Mul,
    });
    w.op(Op::Dense {
        src: s(0, 6),
        dst: 6,
        n_in: 6,
        n_out: 5,
        w: w1,
        bias: Some(b1),
        act: Act::Relu,
    });
    w.op(Op::Dense {
        src: s(6, 5),
        dst: 11,
        n_in: 5,
        n_out: 4,
        w: w2,
        bias: Some(b2),
        act: Act::None,
    });
    w.op(Op::Binary {
        a: Operand {
            buf: Buf::Mask,
            off: 0,
            len: 4,
        },
        b: c(one, 1),
        dst: 15,
        n: 4,
        op: BinOp::Sub,
    });
    w.op(Op::Binary {
        a: s(15, 4),
        b: c(big, 1),
        dst: 19,
        n: 4,
        op: BinOp::Mul,
    });
    w.op(Op::Binary {
        a: s(11, 4),
        b: s(19, 4),
        dst: 23,
        n: 4,
        op: BinOp::Add,
    });
    w.op(Op::Dense {
        src: s(6, 5),
        dst: 27,
        n_in: 5,
        n_out: 1,
        w: wv,
        bias: None,
        act: Act::Tanh,
    });
    w.scratch = 28;
    w.interface = Interface {
        inputs: [6, 4, 0],
        outputs: [(23, 4), (27, 1), (0, 0)],
    };
    w
}

fn file(w: &Writer) -> AlignedBytes {
    AlignedBytes::new(&w.finish().unwrap())
}

/// The same computation, written out plainly in f64.
fn reference(obs: &[f32], mask: &[f32]) -> (Vec<f64>, f64) {
    let scale = [1.0, 0.5, 2.0, 1.0, -1.0, 0.25];
    let x: Vec<f64> = obs.iter().zip(scale).map(|(&o, s)| o as f64 * s).collect();
    let w1: Vec<f64> = (0..30).map(|i| ((i * 7 % 11) as f64 - 5.0) / 4.0).collect();
    let b1 = [0.1f32, -0.2, 0.3, 0.0, 0.05];
    let h: Vec<f64> = (0..5)
        .map(|o| {
            let v = b1[o] as f64
                + (0..6)
                    .map(|k| x[k] * w1[k * 5 + o] as f32 as f64)
                    .sum::<f64>();
            v.max(0.0)
        })
        .collect();
    let w2: Vec<f64> = (0..20).map(|i| ((i * 5 % 9) as f64 - 4.0) / 3.0).collect();
    let b2 = [0.0f32, 0.1, 0.2, 0.3];
    let logits = (0..4)
        .map(|o| {
            b2[o] as f64
                + (0..5)
                    .map(|k| h[k] * w2[k * 4 + o] as f32 as f64)
                    .sum::<f64>()
                + (mask[o] as f64 - 1.0) * 1e9
        })
        .collect();
    let wv = [1.0, -1.0, 0.5, 0.25, 2.0];
    let v = (0..5).map(|k| h[k] * wv[k]).sum::<f64>().tanh();
    (logits, v)
}

#[test]
fn runs_like_the_reference_alone_and_in_a_batch() {
    let f = file(&small());
    let m = Model::new(f.as_ref()).unwrap();
    assert_eq!(m.meta("evoharness.producer"), Some("tests"));
    assert_eq!(m.metadata().count(), 2);
    assert_eq!(m.macs_per_row(), 30 + 20 + 5);
    let rows = 5;
    let obs: Vec<f32> = (0..rows * 6)
        .map(|i| ((i * 13 % 17) as f32 - 6.0) / 8.0)
        .collect();
    let mask: Vec<f32> = (0..rows * 4).map(|i| (i % 3 != 0) as u8 as f32).collect();
    let mut scratch = vec![0.0; rows * m.scratch_per_row()];
    let (mut logits, mut value) = (vec![0.0; rows * 4], vec![0.0; rows]);
    m.run(
        rows,
        Inputs {
            obs: &obs,
            mask: &mask,
            state: &[],
        },
        &mut scratch,
        Outputs {
            logits: &mut logits,
            value: &mut value,
            state: &mut [],
        },
    )
    .unwrap();
    for r in 0..rows {
        let (want, v) = reference(&obs[r * 6..][..6], &mask[r * 4..][..4]);
        for o in 0..4 {
            let got = logits[r * 4 + o] as f64;
            assert!(
                (got - want[o]).abs() <= 1e-5 * want[o].abs().max(1.0),
                "{got} {}",
                want[o]
            );
        }
        assert!((value[r] as f64 - v).abs() < 1e-5);
        // Alone: the same bits.
        let mut s1 = vec![0.0; m.scratch_per_row()];
        let (mut l1, mut v1) = (vec![0.0; 4], vec![0.0; 1]);
        m.run(
            1,
            Inputs {
                obs: &obs[r * 6..][..6],
                mask: &mask[r * 4..][..4],
                state: &[],
            },
            &mut s1,
            Outputs {
                logits: &mut l1,
                value: &mut v1,
                state: &mut [],
            },
        )
        .unwrap();
        assert_eq!(l1, logits[r * 4..][..4]);
        assert_eq!(v1[0], value[r]);
    }
}

#[test]
fn wrong_buffers_are_refused() {
    let f = file(&small());
    let m = Model::new(f.as_ref()).unwrap();
    let mut scratch = vec![0.0; 27];
    let (mut l, mut v) = (vec![0.0; 4], vec![0.0; 1]);
    let e = m
        .run(
            1,
            Inputs {
                obs: &[0.0; 6],
                mask: &[1.0; 4],
                state: &[],
            },
            &mut scratch,
            Outputs {
                logits: &mut l,
                value: &mut v,
                state: &mut [],
            },
        )
        .unwrap_err();
    assert_eq!(e, RunError::Scratch { need: 28, have: 27 });
    let e = m
        .run(
            2,
            Inputs {
                obs: &[0.0; 6],
                mask: &[1.0; 4],
                state: &[],
            },
            &mut scratch,
            Outputs {
                logits: &mut l,
                value: &mut v,
                state: &mut [],
            },
        )
        .unwrap_err();
    assert!(matches!(e, RunError::Length { what: "obs", .. }), "{e}");
}

#[test]
fn every_truncation_is_an_error() {
    let bytes = small().finish().unwrap();
    for n in 0..bytes.len() {
        let b = AlignedBytes::new(&bytes[..n]);
        assert!(Model::new(b.as_ref()).is_err(), "{n} bytes accepted");
    }
}

#[test]
fn every_flipped_bit_is_caught_by_the_checksum() {
    let bytes = small().finish().unwrap();
    for i in 0..bytes.len() {
        for bit in [0, 3, 7] {
            let mut b = bytes.clone();
            b[i] ^= 1 << bit;
            let a = AlignedBytes::new(&b);
            assert!(Model::new(a.as_ref()).is_err(), "byte {i} bit {bit}");
        }
    }
}

/// With the checksum made right again, a changed byte reaches the checks behind it: each is
/// an error or a model that runs, never a panic.
#[test]
fn changed_fields_behind_a_good_checksum_never_panic() {
    let bytes = small().finish().unwrap();
    let body = bytes.len() - TRAILER_LEN;
    for i in 0..body {
        for v in [0u8, 1, 2, 3, 4, 5, 0x7f, 0x80, 0xff] {
            let mut b = vec![1u8];
            b.extend_from_slice(&bytes);
            b[1 + i] = v;
            exercise(&b);
        }
    }
}

#[test]
fn typed_errors_name_the_problem() {
    let bytes = small().finish().unwrap();
    let fix = |mut b: Vec<u8>| {
        let body = b.len() - TRAILER_LEN;
        let crc = format::CRC.checksum(&b[..body]);
        b[body..].copy_from_slice(&crc.to_le_bytes());
        AlignedBytes::new(&b)
    };
    let err = |b: &AlignedBytes| Model::new(b.as_ref()).unwrap_err();

    let mut b = bytes.clone();
    b[0] = b'X';
    assert_eq!(err(&AlignedBytes::new(&b)), FormatError::BadMagic);

    let mut b = bytes.clone();
    b[8] = 2;
    assert_eq!(err(&fix(b)), FormatError::UnsupportedVersion(2));

    let mut b = bytes.clone();
    b.extend_from_slice(&[0; 4]);
    assert!(matches!(err(&fix(b)), FormatError::LengthMismatch { .. }));

    let mut b = bytes.clone();
    let last = b.len() - 1;
    b[last] ^= 1;
    assert_eq!(err(&AlignedBytes::new(&b)), FormatError::Checksum);

    let mut b = bytes.clone();
    b[86] = 1;
    assert_eq!(err(&fix(b)), FormatError::Reserved);

    // The first operation's kind byte.
    let meta_len = u32::from_le_bytes(bytes[20..24].try_into().unwrap()) as usize;
    let mut b = bytes.clone();
    b[HEADER_LEN + meta_len] = 9;
    assert_eq!(err(&fix(b)), FormatError::Op { index: 0, kind: 9 });

    // The second dense product writing over its own input.
    let mut w = small();
    if let Op::Dense { dst, .. } = &mut w.ops_mut()[2] {
        *dst = 8;
    }
    assert_eq!(
        err(&AlignedBytes::new(&w.finish().unwrap())),
        FormatError::Op { index: 2, kind: 1 }
    );

    // A weight reference past the end.
    let mut w = small();
    if let Op::Dense { w: at, .. } = &mut w.ops_mut()[1] {
        *at = u32::MAX - 3;
    }
    assert!(matches!(
        err(&AlignedBytes::new(&w.finish().unwrap())),
        FormatError::Op { index: 1, .. }
    ));

    // Misaligned bytes.
    let mut padded = vec![0u8; bytes.len() + 1];
    let a = AlignedBytes::new(&{
        padded[1..].copy_from_slice(&bytes);
        padded.clone()
    });
    assert_eq!(
        Model::new(&a.as_ref()[1..]).unwrap_err(),
        FormatError::Misaligned
    );
    for e in [FormatError::Checksum, FormatError::Misaligned] {
        assert!(!e.to_string().is_empty());
    }
}

/// The int8 product: a row quantized as `DynamicQuantizeLinear` does, integer sums, scaled
/// back per output; rows independent.
#[test]
fn the_int8_product_quantizes_each_row_and_scales_each_output() {
    let (n_in, n_out) = (5usize, 3usize);
    let wq: Vec<i8> = vec![12, -7, 127, -128, 3, 0, 45, 45, -45, 1, 2, 3, -100, 50, 25];
    let scales = [0.01f32, 0.02, 0.005];
    let bias = [0.1f32, -0.2, 0.0];
    let mut w = Writer::new();
    let q = w.constant_q8(&wq);
    let s_at = w.constant(&scales);
    let b_at = w.constant(&bias);
    w.op(Op::DenseQ8 {
        src: Operand {
            buf: Buf::Obs,
            off: 0,
            len: n_in as u32,
        },
        dst: 0,
        n_in: n_in as u32,
        n_out: n_out as u32,
        w: q,
        scales: s_at,
        bias: Some(b_at),
        act: Act::None,
    });
    w.scratch = n_out as u32;
    w.interface = Interface {
        inputs: [n_in as u32, 1, 0],
        outputs: [(0, n_out as u32), (0, 0), (0, 0)],
    };
    let f = file(&w);
    let m = Model::new(f.as_ref()).unwrap();
    let obs = [
        0.5f32, -1.25, 0.0, 2.0, 0.3, 0.0, 0.0, 0.0, 0.0, 0.0, -0.7, 0.1, 0.2, 0.0, 0.9,
    ];
    let mut scratch = vec![0.0; 3 * n_out];
    let mut logits = vec![0.0; 3 * n_out];
    m.run(
        3,
        Inputs {
            obs: &obs,
            mask: &[1.0; 3],
            state: &[],
        },
        &mut scratch,
        Outputs {
            logits: &mut logits,
            value: &mut [],
            state: &mut [],
        },
    )
    .unwrap();
    for r in 0..3 {
        let x = &obs[r * n_in..][..n_in];
        let lo = x.iter().fold(0f32, |a, &v| a.min(v));
        let hi = x.iter().fold(0f32, |a, &v| a.max(v));
        let (s, z) = if hi > lo {
            let s = (hi - lo) / 255.0;
            (s, (-lo / s).round_ties_even().clamp(0.0, 255.0))
        } else {
            (1.0, 0.0)
        };
        for o in 0..n_out {
            let acc: i32 = (0..n_in)
                .map(|k| {
                    let q = ((x[k] / s).round_ties_even() + z).clamp(0.0, 255.0) as i32;
                    (q - z as i32) * i32::from(wq[k * n_out + o])
                })
                .sum();
            let want = acc as f32 * (s * scales[o]) + bias[o];
            assert_eq!(logits[r * n_out + o], want, "row {r} output {o}");
        }
    }
    // The all-zero row gives the bias alone.
    assert_eq!(&logits[n_out..2 * n_out], &bias);
}
