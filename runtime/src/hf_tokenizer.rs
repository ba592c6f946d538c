//! A Hugging Face `tokenizer.json` for a `generative-v1` policy (`evoharness.tokenizer` =
//! `tokenizer.json`, its text in `evoharness.tokenizer_json`): prompts are encoded by the
//! `tokenizers` crate, exactly as the model's own trainers encoded them, and each token's bytes
//! (for the grammar, [`Vocab`]) come from the byte-level alphabet.
//!
//! Byte-level BPE (GPT-2, Llama 3, Qwen, SmolLM: a `ByteLevel` decoder) is what this supports:
//! every token spells a fixed byte string. Other decoders (SentencePiece's `Metaspace`,
//! WordPiece) are refused at load with a message. The file is untrusted: parsing and encoding run
//! under `catch_unwind`, so a tokenizer that makes the crate panic is an error, not a crash.

use std::panic::{AssertUnwindSafe, catch_unwind};

use tokenizers::DecoderWrapper;

use crate::error::{Error, ErrorKind, Result};
use crate::grammar::Vocab;

/// A loaded tokenizer and what the runtime derived from it.
pub(crate) struct HfTokenizer {
    inner: tokenizers::Tokenizer,
    /// Tokens the tokenizer adds around a text (a beginning-of-sequence token, say).
    specials: usize,
}

/// GPT-2's byte-level alphabet: the character each byte is written as in the vocabulary.
fn byte_chars() -> [char; 256] {
    let mut map = ['\0'; 256];
    let mut extra = 0u32;
    for b in 0..=255u8 {
        let printable = matches!(b, b'!'..=b'~' | 0xA1..=0xAC | 0xAE..=0xFF);
        map[usize::from(b)] = if printable {
            char::from(b)
        } else {
            extra += 1;
            char::from_u32(255 + extra).unwrap_or('\0')
        };
    }
    map
}

impl HfTokenizer {
    /// Parses `json` and builds the vocabulary of a model with `width` logits per token.
    pub(crate) fn load(json: &str, width: usize, name: &str) -> Result<(Self, Vocab)> {
        let bad = |what: String| Error::new(ErrorKind::Policy, format!("{name}: {what}"));
        let parsed = catch_unwind(|| tokenizers::Tokenizer::from_bytes(json.as_bytes()))
            .map_err(|_| bad("its tokenizer.json made the tokenizer library panic".into()))?;
        let inner = parsed.map_err(|e| bad(format!("its tokenizer.json does not parse: {e}")))?;
        match inner.get_decoder() {
            Some(DecoderWrapper::ByteLevel(_)) => {}
            Some(other) => {
                let kind = serde_json::to_value(other)
                    .ok()
                    .and_then(|v| v.get("type")?.as_str().map(str::to_owned))
                    .unwrap_or_else(|| "another".into());
                return Err(bad(format!(
                    "its tokenizer has a `{kind}` decoder; this runtime supports byte-level BPE \
                     (a `ByteLevel` decoder) only"
                )));
            }
            None => {
                return Err(bad(
                    "its tokenizer has no decoder; this runtime supports byte-level BPE (a \
                     `ByteLevel` decoder) only"
                        .into(),
                ));
            }
        }
        let size = inner.get_vocab_size(true);
        if size > width {
            return Err(bad(format!(
                "its tokenizer has {size} tokens but the model only {width} logits per token"
            )));
        }
        let chars = byte_chars();
        let mut byte_of = std::collections::HashMap::with_capacity(256);
        for (b, c) in chars.iter().enumerate() {
            byte_of.insert(*c, b as u8);
        }
        let added = inner.get_added_tokens_decoder();
        let mut bytes = vec![Vec::new(); width];
        for (token, id) in inner.get_vocab(false) {
            // Added tokens (special or not) are never decoded into an action.
            if added.contains_key(&id) {
                continue;
            }
            let spelled: Option<Vec<u8>> =
                token.chars().map(|c| byte_of.get(&c).copied()).collect();
            let Some(spelled) = spelled else {
                return Err(bad(format!(
                    "token {id} ({token:?}) is not in the byte-level alphabet"
                )));
            };
            if let Some(slot) = bytes.get_mut(id as usize) {
                *slot = spelled;
            }
        }
        // Every byte an action line can hold must be a token of its own: then any legal line
        // can be spelled, whatever the model prefers.
        let mut single = [false; 256];
        for b in &bytes {
            if let [one] = b[..] {
                single[usize::from(one)] = true;
            }
        }
        if let Some(b) = (b' '..=b'~')
            .chain([b'\n'])
            .find(|&b| !single[usize::from(b)])
        {
            return Err(bad(format!(
                "its tokenizer has no token for the byte {:?} alone; action lines need every \
                 printable ASCII byte and the newline",
                char::from(b)
            )));
        }
        let mut t = Self { inner, specials: 0 };
        let mut ids = Vec::new();
        t.encode("", &mut ids)
            .map_err(|e| bad(format!("its tokenizer cannot encode: {e}")))?;
        t.specials = ids.len();
        Ok((t, Vocab::new(bytes)))
    }

    /// Tokens it adds around any text (counted against the context at load).
    pub(crate) fn specials(&self) -> usize {
        self.specials
    }

    /// Appends the ids of `text` (with the tokenizer's special tokens) to `out`.
    pub(crate) fn encode(&self, text: &str, out: &mut Vec<i64>) -> Result<()> {
        let err = |what: String| Error::new(ErrorKind::Inference, what);
        let enc = catch_unwind(AssertUnwindSafe(|| self.inner.encode(text, true)))
            .map_err(|_| err("the tokenizer library panicked encoding a prompt".into()))?
            .map_err(|e| err(format!("encoding the prompt: {e}")))?;
        out.extend(enc.get_ids().iter().map(|&i| i64::from(i)));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_byte_alphabet_is_gpt2s() {
        let c = byte_chars();
        // Printable bytes stand for themselves; the others follow from U+0100 in byte order.
        assert_eq!(c[usize::from(b'a')], 'a');
        assert_eq!(c[usize::from(b' ')], '\u{120}');
        assert_eq!(c[usize::from(b'\n')], '\u{10A}');
        assert_eq!(c[0], '\u{100}');
        let mut seen: Vec<char> = c.to_vec();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 256);
    }
}
