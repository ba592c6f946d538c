//! Steps a [`VecEnv`] with a fixed rule and dumps everything it wrote, so that another
//! language driving the same environments through the C library can check that it sees the
//! very same observations, masks, rewards, done flags and episodes
//! (`bindings/python/tests/test_parity.py`).
//!
//! ```sh
//! cargo run -p evoharness-suite --no-default-features --example vec_env_dump -- \
//!     TASK HORIZON N ORG_START ORG_COUNT SEED GROUP STEPS OUT_PREFIX
//! ```
//!
//! The rule: at step `s`, environment `i` takes the lean teacher's template, except when
//! `(s + i) % 5 == 0`, when it takes the first legal template other than `finish` at or after
//! `(13·s + 7·i) % actions` (cyclically). Writes `OUT_PREFIX.bin`: for every step (and first
//! the initial observation, with zero rewards and done flags), the observations (f32), masks
//! (u8), rewards (f32) and done flags (u8) of all environments, little-endian, in that order;
//! and `OUT_PREFIX.episodes.jsonl`: one line per finished episode, in order of
//! `(step, environment)`.

use std::io::Write;

use evoharness_suite::{SuiteVecEnv, TaskConfig, TaskKind, Teacher};

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let [task, horizon, n, fs, fc, seed, group, steps, out] = &a[..] else {
        eprintln!(
            "usage: vec_env_dump TASK HORIZON N ORG_START ORG_COUNT SEED GROUP STEPS OUT_PREFIX"
        );
        std::process::exit(2);
    };
    let num = |s: &str| -> u64 { s.parse().expect("a number") };
    let kind: TaskKind = task.parse().expect("a task");
    let n = num(n) as usize;
    let fs = num(fs);
    let mut v = SuiteVecEnv::grouped(
        TaskConfig::new(kind, num(horizon) as u32),
        n,
        num(group) as usize,
        fs..fs + num(fc),
        num(seed),
    )
    .expect("a VecEnv");
    let (ol, al) = (v.obs_len(), v.actions());
    let mut obs = vec![0.0f32; n * ol];
    let mut mask = vec![0u8; n * al];
    let (mut rew, mut done) = (vec![0.0f32; n], vec![0u8; n]);
    let mut acts = vec![0u32; n];
    let mut bin = std::io::BufWriter::new(std::fs::File::create(format!("{out}.bin")).unwrap());
    let mut eps = std::fs::File::create(format!("{out}.episodes.jsonl")).unwrap();
    v.observe(&mut obs, &mut mask).unwrap();
    let mut dump = |obs: &[f32], mask: &[u8], rew: &[f32], done: &[u8]| {
        for x in obs {
            bin.write_all(&x.to_le_bytes()).unwrap();
        }
        bin.write_all(mask).unwrap();
        for x in rew {
            bin.write_all(&x.to_le_bytes()).unwrap();
        }
        bin.write_all(done).unwrap();
    };
    dump(&obs, &mask, &rew, &done);
    for s in 0..num(steps) as usize {
        v.teacher_actions(Teacher::Lean, &mut acts).unwrap();
        for (i, a) in acts.iter_mut().enumerate() {
            if (s + i) % 5 == 0 {
                let m = &mask[i * al..(i + 1) * al];
                let start = (13 * s + 7 * i) % al;
                *a = (0..al)
                    .map(|k| (start + k) % al)
                    .find(|&t| t >= 2 && m[t] == 1)
                    .unwrap_or(0) as u32;
            }
        }
        v.step(&acts, &mut obs, &mut mask, &mut rew, &mut done)
            .unwrap();
        dump(&obs, &mask, &rew, &done);
        for (i, _) in done.iter().enumerate().filter(|(_, d)| **d == 1) {
            let e = v.last_episode(i).unwrap();
            writeln!(eps, "{}", serde_json::to_string(e).unwrap()).unwrap();
        }
    }
}
