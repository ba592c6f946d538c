//! Constrained decoding for `generative-v1`: the grammar of one decision, and the tokens that
//! keep a partial output inside it.
//!
//! The grammar of a decision is the finite set of `action-text-v1` lines of the templates the
//! mask marks legal (`evoharness_core::text`). No line is a prefix of another (each ends in
//! its only `\n`), so a decoder that appends only tokens whose bytes keep its output a prefix
//! of some line, and stops when the output equals a line, ends on a legal action: every
//! decoded action is legal by construction, whatever the model's logits.
//!
//! [`Grammar`] keeps the legal lines sorted; the lines that extend a prefix are a contiguous
//! range of them, found by binary search. [`Vocab`] indexes the tokens by their first byte, so
//! a step looks only at the tokens that can start with one of the bytes the range allows next.
//! Buffers are kept between decisions: after the first, building a grammar and decoding
//! allocate nothing here.

use evoharness_core::obs::Layout;
use evoharness_core::text;

use crate::controller::Selection;
use crate::error::{Error, ErrorKind, Result};
use crate::rng::SplitMix64;

/// A tokenizer's vocabulary as bytes: what each token id appends to the output.
#[derive(Clone, Debug)]
pub struct Vocab {
    bytes: Vec<Vec<u8>>,
    /// Token ids by their first byte (tokens with no bytes, the special ones, are in none).
    by_first: Vec<Vec<u32>>,
}

impl Vocab {
    /// A vocabulary from each token's bytes, in id order.
    pub fn new(bytes: Vec<Vec<u8>>) -> Self {
        let mut by_first = vec![Vec::new(); 256];
        for (id, b) in bytes.iter().enumerate() {
            if let Some(&first) = b.first() {
                by_first[usize::from(first)].push(id as u32);
            }
        }
        Self { bytes, by_first }
    }

    /// The byte-level vocabulary: token `b` is byte `b`, for `b` in 0..256; ids from 256 to
    /// `size` are special tokens that never appear in an action.
    pub fn bytes(size: usize) -> Self {
        Self::new(
            (0..size)
                .map(|i| if i < 256 { vec![i as u8] } else { Vec::new() })
                .collect(),
        )
    }

    /// How many tokens there are.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The bytes of token `id` (empty for a special token or an id past the end).
    pub fn token(&self, id: u32) -> &[u8] {
        self.bytes.get(id as usize).map_or(&[], |b| b.as_slice())
    }
}

/// The legal action lines of one decision, sorted, each with its template index.
#[derive(Clone, Debug, Default)]
pub struct Grammar {
    /// All lines back to back; `lines[k]` is (start, end, template).
    text: Vec<u8>,
    lines: Vec<(u32, u32, u32)>,
}

impl Grammar {
    /// An empty grammar (no legal action).
    pub fn new() -> Self {
        Self::default()
    }

    /// Rebuilds the grammar from a layout and a mask ([`Layout::mask`]): the lines of the legal
    /// templates. Keeps its buffers.
    pub fn build(&mut self, layout: &Layout, mask: &[u8]) -> Result<()> {
        self.text.clear();
        self.lines.clear();
        for (i, _) in mask.iter().enumerate().filter(|(_, m)| **m == 1) {
            let t = layout.template(i).ok_or_else(|| {
                Error::new(
                    ErrorKind::Inference,
                    format!(
                        "the mask has {} entries, the layout {}",
                        mask.len(),
                        layout.actions()
                    ),
                )
            })?;
            let mut line = evoharness_core::heapless::String::<{ text::ACTION_MAX }>::new();
            text::action(t, &mut line).map_err(|_| {
                Error::new(ErrorKind::Inference, "an action text is over ACTION_MAX")
            })?;
            let start = self.text.len() as u32;
            self.text.extend_from_slice(line.as_bytes());
            self.lines.push((start, self.text.len() as u32, i as u32));
        }
        let text = &self.text;
        self.lines.sort_unstable_by(|a, b| {
            text[a.0 as usize..a.1 as usize].cmp(&text[b.0 as usize..b.1 as usize])
        });
        Ok(())
    }

    /// How many legal lines there are.
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// Whether no action is legal.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    fn line(&self, k: usize) -> &[u8] {
        let (a, b, _) = self.lines[k];
        &self.text[a as usize..b as usize]
    }

    /// The range of lines that start with `prefix`.
    fn range(&self, prefix: &[u8]) -> std::ops::Range<usize> {
        let lo = self.lines.partition_point(|&(a, b, _)| {
            let l = &self.text[a as usize..b as usize];
            l < prefix
        });
        let hi = lo
            + self.lines[lo..].partition_point(|&(a, b, _)| {
                self.text[a as usize..b as usize].starts_with(prefix)
            });
        lo..hi
    }

    /// Whether `prefix` followed by `more` is a prefix of some legal line.
    pub fn extends(&self, prefix: &[u8], more: &[u8]) -> bool {
        let n = prefix.len() + more.len();
        if more.is_empty() || n > text::ACTION_MAX {
            return false;
        }
        let mut both = [0u8; text::ACTION_MAX];
        both[..prefix.len()].copy_from_slice(prefix);
        both[prefix.len()..n].copy_from_slice(more);
        let both = &both[..n];
        // The first line not below `both` starts with it if any line does.
        let k = self
            .lines
            .partition_point(|&(a, b, _)| &self.text[a as usize..b as usize] < both);
        k < self.lines.len() && self.line(k).starts_with(both)
    }

    /// The next byte when every legal line that extends `output` has the same one: the
    /// decoder's choice is forced there, whatever the logits (`None` when there is a choice,
    /// no line extends `output`, or one ends here).
    pub fn forced(&self, output: &[u8]) -> Option<u8> {
        let r = self.range(output);
        if r.is_empty() {
            return None;
        }
        // The lines are sorted: the first and the last of the range bound every next byte.
        let first = *self.line(r.start).get(output.len())?;
        let last = *self.line(r.end - 1).get(output.len())?;
        (first == last).then_some(first)
    }

    /// The template whose line is exactly `output`, if any.
    pub fn complete(&self, output: &[u8]) -> Option<usize> {
        let r = self.range(output);
        (r.start < r.end && self.line(r.start) == output).then(|| self.lines[r.start].2 as usize)
    }

    /// Picks the next token: among the tokens that keep `output` a prefix of a legal line, the
    /// one with the highest logit, or one sampled from their softmax. `None` if no token does
    /// (a vocabulary that cannot spell some line; a byte-level one always can).
    pub fn next_token(
        &self,
        vocab: &Vocab,
        output: &[u8],
        logits: &[f32],
        how: Selection,
        rng: &mut SplitMix64,
    ) -> Option<u32> {
        let r = self.range(output);
        // The bytes the legal lines allow next, each once (the lines are sorted, so equal
        // next bytes are adjacent).
        let mut best: Option<(u32, f32)> = None;
        let mut total = 0.0f64;
        let mut pick: Option<u32> = None;
        let key = |l: f32| if l.is_nan() { f32::NEG_INFINITY } else { l };
        let mut last = None;
        // Two passes for sampling: the maximum first (for a stable softmax), then the draw.
        let mut candidates = |f: &mut dyn FnMut(u32, f32)| {
            last = None;
            for k in r.clone() {
                let Some(&b) = self.line(k).get(output.len()) else {
                    continue;
                };
                if last == Some(b) {
                    continue;
                }
                last = Some(b);
                for &id in &vocab.by_first[usize::from(b)] {
                    if self.extends(output, vocab.token(id)) {
                        f(
                            id,
                            key(logits
                                .get(id as usize)
                                .copied()
                                .unwrap_or(f32::NEG_INFINITY)),
                        );
                    }
                }
            }
        };
        candidates(&mut |id, l| {
            if best.is_none_or(|(bid, b)| l > b || (l == b && id < bid)) {
                best = Some((id, l));
            }
        });
        let (best_id, top) = best?;
        let Selection::Sample { temperature } = how else {
            return Some(best_id);
        };
        let weight = |l: f32| {
            if l == f32::NEG_INFINITY {
                0.0
            } else {
                (f64::from(l - top) / f64::from(temperature)).exp()
            }
        };
        candidates(&mut |_, l| total += weight(l));
        let mut target = rng.next_f64() * total;
        candidates(&mut |id, l| {
            if pick.is_none() {
                target -= weight(l);
                if target <= 0.0 {
                    pick = Some(id);
                }
            }
        });
        Some(pick.unwrap_or(best_id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use evoharness_core::Capacities;

    fn layout() -> Layout {
        Layout::new(Capacities {
            facts: 4,
            steps: 2,
            lessons: 2,
            tools: 3,
        })
    }

    /// Decodes with `grammar` from logits made by `score` (a stand-in for a model).
    fn decode(
        g: &Grammar,
        v: &Vocab,
        how: Selection,
        rng: &mut SplitMix64,
        score: &mut dyn FnMut(&[u8]) -> Vec<f32>,
    ) -> Option<usize> {
        let mut out = Vec::new();
        for _ in 0..text::ACTION_MAX {
            let logits = score(&out);
            let t = g.next_token(v, &out, &logits, how, rng)?;
            out.extend_from_slice(v.token(t));
            if let Some(i) = g.complete(&out) {
                return Some(i);
            }
        }
        None
    }

    #[test]
    fn any_logits_decode_to_a_legal_template() {
        let l = layout();
        let mut rng = SplitMix64(7);
        // A byte vocabulary and a merged one (some multi-byte tokens, special tokens).
        let mut merged: Vec<Vec<u8>> = (0..256).map(|b| vec![b as u8]).collect();
        for w in [
            "act ",
            "track X",
            "step S",
            " complete\n",
            "\n",
            "finish ",
            "ok\n",
            "X1\n",
            "F",
        ] {
            merged.push(w.as_bytes().to_vec());
        }
        merged.push(Vec::new());
        for vocab in [Vocab::bytes(260), Vocab::new(merged)] {
            let mut g = Grammar::new();
            for case in 0..300u64 {
                let mask: Vec<u8> = (0..l.actions())
                    .map(|i| u8::from((i as u64 * 2654435761 + case * 97) % 7 < 2))
                    .collect();
                g.build(&l, &mask).unwrap();
                let how = if case % 2 == 0 {
                    Selection::Argmax
                } else {
                    Selection::Sample { temperature: 1.0 }
                };
                let mut r = SplitMix64(case);
                let mut score = |_: &[u8]| -> Vec<f32> {
                    (0..vocab.len())
                        .map(|_| (r.next_f64() * 20.0 - 10.0) as f32)
                        .collect()
                };
                let i = decode(&g, &vocab, how, &mut rng, &mut score)
                    .expect("a byte-level vocabulary can spell every line");
                assert_eq!(mask[i], 1, "decoded template {i} is not legal");
            }
        }
    }

    #[test]
    fn a_model_that_wants_an_illegal_action_gets_the_nearest_legal_one() {
        let l = layout();
        let mut mask = vec![0u8; l.actions()];
        let legal = text::parse(&l, "track X1").unwrap();
        mask[legal] = 1;
        mask[text::parse(&l, "finish ok").unwrap()] = 1;
        let mut g = Grammar::new();
        g.build(&l, &mask).unwrap();
        let v = Vocab::bytes(256);
        // The "model" spells `track X3` (illegal) byte by byte.
        let want = b"track X3\n";
        let mut score = |out: &[u8]| -> Vec<f32> {
            let mut z = vec![0.0; 256];
            if let Some(&b) = want.get(out.len()) {
                z[usize::from(b)] = 10.0;
            }
            z
        };
        let mut rng = SplitMix64(1);
        assert_eq!(
            decode(&g, &v, Selection::Argmax, &mut rng, &mut score),
            Some(legal)
        );
    }

    #[test]
    fn extends_and_complete_agree_with_a_scan() {
        let l = layout();
        let mask: Vec<u8> = (0..l.actions()).map(|i| u8::from(i % 3 != 1)).collect();
        let mut g = Grammar::new();
        g.build(&l, &mask).unwrap();
        let lines: Vec<Vec<u8>> = (0..g.len()).map(|k| g.line(k).to_vec()).collect();
        for probe in [
            "",
            "a",
            "act",
            "act 1",
            "act 1 F",
            "step S1 ",
            "finish ok\n",
            "zz",
        ] {
            for more in ["", "\n", " ", "X", "F0", "ok\n", "c"] {
                let mut both = probe.as_bytes().to_vec();
                both.extend_from_slice(more.as_bytes());
                let scan = !more.is_empty() && lines.iter().any(|x| x.starts_with(&both));
                assert_eq!(
                    g.extends(probe.as_bytes(), more.as_bytes()),
                    scan,
                    "{probe:?}+{more:?}"
                );
            }
            let exact = lines.iter().position(|x| x == probe.as_bytes());
            assert_eq!(g.complete(probe.as_bytes()).is_some(), exact.is_some());
            let next: std::collections::BTreeSet<Option<u8>> = lines
                .iter()
                .filter(|x| x.starts_with(probe.as_bytes()))
                .map(|x| x.get(probe.len()).copied())
                .collect();
            let want = match next.iter().collect::<Vec<_>>()[..] {
                [Some(b)] => Some(*b),
                _ => None,
            };
            assert_eq!(g.forced(probe.as_bytes()), want, "{probe:?}");
        }
        assert!(g.complete(b"finish ok\n").is_some());
        assert_eq!(g.forced(b"consolidat"), Some(b'e'));
        assert_eq!(g.forced(b"ac"), Some(b't'));
    }
}
