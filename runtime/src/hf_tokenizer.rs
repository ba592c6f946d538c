//! A Hugging Face `tokenizer.json` for a `generative-v1` policy (`evoharness.tokenizer` =
//! `tokenizer.json`, its text in `evoharness.tokenizer_json`): prompts are encoded by the
//! `tokenizers` crate, exactly as the model's own trainers encoded them, and each token's bytes
//! (for the grammar, [`Vocab`]) follow from the tokenizer's decoder.
//!
//! Two families spell every token as a fixed byte string, and are what this supports:
//!
//! - byte-level BPE (GPT-2, Llama 3, Qwen, SmolLM: a `ByteLevel` decoder): each character of a
//!   token stands for one byte, in GPT-2's byte alphabet;
//! - SentencePiece (Llama 2, TinyLlama, Mistral: a `Metaspace` decoder, or a `Sequence` of
//!   `Replace` of `▁` by a space, `ByteFallback`, `Fuse` and `Strip`): a token is UTF-8 text
//!   with `▁` for a space, and with `ByteFallback`, `<0xHH>` is the byte `HH`.
//!
//! Other decoders (WordPiece, a `Replace` of anything else) are refused at load with a message.
//! The file is untrusted: parsing and encoding run under `catch_unwind`, so a tokenizer that
//! makes the crate panic is an error, not a crash.

use std::panic::{AssertUnwindSafe, catch_unwind};

use serde_json::Value;

use crate::error::{Error, ErrorKind, Result};
use crate::grammar::Vocab;

/// A loaded tokenizer and what the runtime derived from it.
pub(crate) struct HfTokenizer {
    inner: tokenizers::Tokenizer,
    /// Tokens a text can take beyond one per byte ([`HfTokenizer::overhead`]).
    overhead: usize,
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

/// How a vocabulary's token strings spell bytes, read off the tokenizer's decoder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Spelling {
    /// GPT-2's byte alphabet: one character per byte.
    ByteLevel,
    /// SentencePiece: UTF-8 text with `space` standing for ` `; with `bytes`, `<0xHH>` is the
    /// byte `HH`.
    Pieces { space: char, bytes: bool },
}

/// What the runtime supports, for the refusals' messages.
const SUPPORTED: &str = "this runtime supports byte-level BPE (a `ByteLevel` decoder) and \
                         SentencePiece (a `Metaspace` decoder, or `Replace` of one character by a \
                         space with `ByteFallback`, `Fuse` and `Strip`) only";

impl Spelling {
    /// The spelling a decoder (its JSON form) stands for, or why it is not supported.
    fn of(decoder: &Value) -> std::result::Result<Self, String> {
        let kind = |d: &Value| {
            d.get("type")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned()
        };
        let single = |v: Option<&Value>| {
            let s = v?.as_str()?;
            let mut chars = s.chars();
            let c = chars.next()?;
            chars.next().is_none().then_some(c)
        };
        match kind(decoder).as_str() {
            "ByteLevel" => Ok(Self::ByteLevel),
            "Metaspace" => match single(decoder.get("replacement")) {
                Some(space) => Ok(Self::Pieces {
                    space,
                    bytes: false,
                }),
                None => Err("its `Metaspace` decoder has no one-character replacement".into()),
            },
            "Sequence" => {
                let parts = decoder.get("decoders").and_then(Value::as_array);
                let mut space = None;
                let mut bytes = false;
                for d in parts.into_iter().flatten() {
                    match kind(d).as_str() {
                        "Replace" => {
                            let from = single(d.get("pattern").and_then(|p| p.get("String")));
                            let to = d.get("content").and_then(Value::as_str);
                            match (from, to, space) {
                                (Some(c), Some(" "), None) => space = Some(c),
                                _ => {
                                    return Err(format!(
                                        "its decoder replaces {} by {}; {SUPPORTED}",
                                        d.get("pattern").unwrap_or(&Value::Null),
                                        d.get("content").unwrap_or(&Value::Null)
                                    ));
                                }
                            }
                        }
                        "ByteFallback" => bytes = true,
                        "Fuse" | "Strip" => {}
                        other => {
                            return Err(format!(
                                "its decoder sequence holds a `{other}` decoder; {SUPPORTED}"
                            ));
                        }
                    }
                }
                match space {
                    Some(space) => Ok(Self::Pieces { space, bytes }),
                    None => Err(format!(
                        "its decoder sequence replaces no character by a space; {SUPPORTED}"
                    )),
                }
            }
            "" => Err(format!("its tokenizer has no decoder; {SUPPORTED}")),
            other => Err(format!(
                "its tokenizer has a `{other}` decoder; {SUPPORTED}"
            )),
        }
    }

    /// The bytes `token` stands for, or `None` where it cannot be spelled.
    fn spell(self, token: &str, byte_of: &std::collections::HashMap<char, u8>) -> Option<Vec<u8>> {
        match self {
            Self::ByteLevel => token.chars().map(|c| byte_of.get(&c).copied()).collect(),
            Self::Pieces { space, bytes } => {
                if bytes
                    && let Some(hex) = token.strip_prefix("<0x").and_then(|t| t.strip_suffix('>'))
                    && hex.len() == 2
                    && let Ok(b) = u8::from_str_radix(hex, 16)
                {
                    return Some(vec![b]);
                }
                Some(token.replace(space, " ").into_bytes())
            }
        }
    }
}

impl HfTokenizer {
    /// Parses `json` and builds the vocabulary of a model with `width` logits per token.
    pub(crate) fn load(json: &str, width: usize, name: &str) -> Result<(Self, Vocab)> {
        let bad = |what: String| Error::new(ErrorKind::Policy, format!("{name}: {what}"));
        let parsed = catch_unwind(|| tokenizers::Tokenizer::from_bytes(json.as_bytes()))
            .map_err(|_| bad("its tokenizer.json made the tokenizer library panic".into()))?;
        let inner = parsed.map_err(|e| bad(format!("its tokenizer.json does not parse: {e}")))?;
        let decoder = inner
            .get_decoder()
            .and_then(|d| serde_json::to_value(d).ok())
            .unwrap_or(Value::Null);
        let spelling = Spelling::of(&decoder).map_err(bad)?;
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
            let Some(spelled) = spelling.spell(&token, &byte_of) else {
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
        // What one byte of text becomes: the tokens that spell nothing (special ones the
        // tokenizer adds, `<s>`) and the bytes the normalizer adds (SentencePiece's `▁` before
        // a text) are what any text takes beyond one token per byte.
        let mut t = Self { inner, overhead: 0 };
        let mut ids = Vec::new();
        t.encode("a", &mut ids)
            .map_err(|e| bad(format!("its tokenizer cannot encode: {e}")))?;
        let spelled = |id: &i64| {
            usize::try_from(*id)
                .ok()
                .and_then(|i| bytes.get(i))
                .map_or(0, Vec::len)
        };
        let empty = ids.iter().filter(|id| spelled(id) == 0).count();
        let added = ids.iter().map(spelled).sum::<usize>().saturating_sub(1);
        t.overhead = empty + added;
        Ok((t, Vocab::new(bytes)))
    }

    /// Tokens a text can take beyond one per byte (counted against the context at load): the
    /// special tokens the tokenizer adds around it and the bytes its normalizer adds.
    pub(crate) fn overhead(&self) -> usize {
        self.overhead
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

    /// A BPE `tokenizer.json`: `vocab` (token spellings, in id order), `merges` (`"a b"`),
    /// `specials` (added tokens, each in `vocab`; the first is put before every text).
    fn tokenizer(
        vocab: &[String],
        merges: &[&str],
        specials: &[&str],
        normalizer: Value,
        pre_tokenizer: Value,
        decoder: Value,
        byte_fallback: bool,
    ) -> String {
        let id = |t: &str| vocab.iter().position(|v| v == t).unwrap();
        let ids: serde_json::Map<String, Value> = vocab
            .iter()
            .enumerate()
            .map(|(i, t)| (t.clone(), serde_json::json!(i)))
            .collect();
        let added: Vec<Value> = specials
            .iter()
            .map(|t| {
                serde_json::json!({"id": id(t), "content": t, "single_word": false,
                    "lstrip": false, "rstrip": false, "normalized": false, "special": true})
            })
            .collect();
        let post = match specials.first() {
            Some(&bos) => {
                let mut special = serde_json::Map::new();
                special.insert(
                    bos.into(),
                    serde_json::json!({"id": bos, "ids": [id(bos)], "tokens": [bos]}),
                );
                serde_json::json!({"type": "TemplateProcessing",
                    "single": [{"SpecialToken": {"id": bos, "type_id": 0}},
                               {"Sequence": {"id": "A", "type_id": 0}}],
                    "pair": [{"Sequence": {"id": "A", "type_id": 0}},
                             {"Sequence": {"id": "B", "type_id": 1}}],
                    "special_tokens": special})
            }
            None => Value::Null,
        };
        serde_json::json!({"version": "1.0", "truncation": null, "padding": null,
            "added_tokens": added, "normalizer": normalizer, "pre_tokenizer": pre_tokenizer,
            "post_processor": post, "decoder": decoder,
            "model": {"type": "BPE", "dropout": null,
                "unk_token": if byte_fallback { Some("<unk>") } else { None },
                "continuing_subword_prefix": null, "end_of_word_suffix": null,
                "fuse_unk": byte_fallback, "byte_fallback": byte_fallback,
                "ignore_merges": false, "vocab": ids, "merges": merges}})
        .to_string()
    }

    /// A byte-level BPE `tokenizer.json` (GPT-2's form), with `<s>` after `vocab` when `bos`.
    fn byte_level(vocab: &[String], merges: &[&str], bos: bool) -> String {
        let level = serde_json::json!({"type": "ByteLevel", "add_prefix_space": false,
            "trim_offsets": true, "use_regex": true});
        let mut vocab = vocab.to_vec();
        let specials: &[&str] = if bos {
            vocab.push("<s>".into());
            &["<s>"]
        } else {
            &[]
        };
        tokenizer(
            &vocab,
            merges,
            specials,
            Value::Null,
            level.clone(),
            level,
            false,
        )
    }

    /// A SentencePiece `tokenizer.json` as transformers converts Llama 2's: `<unk>`, `<s>`,
    /// `</s>`, the 256 byte tokens `<0xHH>`, then `pieces`; a `▁` before the text and for each
    /// space; `decoder` (Llama 2's sequence when `None`).
    fn sentencepiece(pieces: &[&str], merges: &[&str], decoder: Option<Value>) -> String {
        let mut vocab: Vec<String> = ["<unk>", "<s>", "</s>"].map(String::from).to_vec();
        vocab.extend((0..=255u8).map(|b| format!("<0x{b:02X}>")));
        vocab.extend(pieces.iter().map(|p| p.to_string()));
        let normalizer = serde_json::json!({"type": "Sequence", "normalizers": [
            {"type": "Prepend", "prepend": "\u{2581}"},
            {"type": "Replace", "pattern": {"String": " "}, "content": "\u{2581}"}]});
        let decoder = decoder.unwrap_or_else(|| {
            serde_json::json!({"type": "Sequence", "decoders": [
                {"type": "Replace", "pattern": {"String": "\u{2581}"}, "content": " "},
                {"type": "ByteFallback"}, {"type": "Fuse"},
                {"type": "Strip", "content": " ", "start": 1, "stop": 0}]})
        });
        tokenizer(
            &vocab,
            merges,
            &["<s>", "<unk>", "</s>"],
            normalizer,
            Value::Null,
            decoder,
            true,
        )
    }

    /// Every byte's own token, in byte order.
    fn alphabet() -> Vec<String> {
        byte_chars().iter().map(char::to_string).collect()
    }

    fn refusal(json: &str, width: usize) -> String {
        match HfTokenizer::load(json, width, "m.onnx") {
            Ok(_) => panic!("loaded"),
            Err(e) => {
                assert_eq!(e.kind(), ErrorKind::Policy);
                e.to_string()
            }
        }
    }

    #[test]
    fn a_byte_level_tokenizer_loads_with_each_tokens_bytes() {
        let mut vocab = alphabet();
        vocab.push("ac".into());
        vocab.push("act".into());
        vocab.push("\u{120}X".into()); // " X"
        let json = byte_level(&vocab, &["a c", "ac t", "\u{120} X"], true);
        // One logit more than the vocabulary for `<s>`, and spare ones past it.
        let (t, v) = HfTokenizer::load(&json, 300, "m.onnx").unwrap();
        assert_eq!(v.len(), 300);
        assert_eq!(v.token(u32::from(b'\n')), b"\n");
        assert_eq!(v.token(257), b"act");
        assert_eq!(v.token(258), b" X");
        // `<s>` (id 259) and the spare ids spell nothing: never part of an action.
        assert_eq!(v.token(259), b"");
        assert_eq!(v.token(299), b"");
        // `<s>` before each text.
        assert_eq!(t.overhead(), 1);
        let mut ids = Vec::new();
        t.encode("act X", &mut ids).unwrap();
        assert_eq!(ids, [259, 257, 258]);
    }

    #[test]
    fn a_tokenizer_wider_than_the_logits_is_refused() {
        let json = byte_level(&alphabet(), &[], true);
        let msg = refusal(&json, 256);
        assert!(
            msg.contains("257 tokens but the model only 256 logits"),
            "{msg}"
        );
    }

    #[test]
    fn a_token_outside_the_byte_alphabet_is_refused() {
        let mut vocab = alphabet();
        // U+0100 stands for byte 0; U+0200 stands for no byte (a SentencePiece-style vocabulary
        // read as byte-level would spell such tokens).
        vocab.push("a\u{200}".into());
        let msg = refusal(&byte_level(&vocab, &[], false), 300);
        assert!(
            msg.contains("token 256") && msg.contains("not in the byte-level alphabet"),
            "{msg}"
        );
    }

    #[test]
    fn a_printable_byte_without_a_token_of_its_own_is_refused() {
        // `q` only inside a merged token: an action line holding `q` could not be spelled
        // byte by byte.
        let mut vocab = alphabet();
        vocab[usize::from(b'q')] = "qq".into();
        let msg = refusal(&byte_level(&vocab, &[], false), 256);
        assert!(msg.contains("no token for the byte 'q' alone"), "{msg}");
        // The newline too.
        let mut vocab = alphabet();
        vocab[usize::from(b'\n')] = "\u{10A}\u{10A}".into();
        let msg = refusal(&byte_level(&vocab, &[], false), 256);
        assert!(msg.contains("no token for the byte '\\n' alone"), "{msg}");
    }

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

    #[test]
    fn a_sentencepiece_tokenizer_spells_spaces_and_byte_tokens() {
        let pieces = ["\u{2581}", "a", "c", "t", "ac", "act", "\u{2581}act"];
        let json = sentencepiece(&pieces, &["a c", "ac t", "\u{2581} act"], None);
        let (t, v) = HfTokenizer::load(&json, 272, "m.onnx").unwrap();
        // `<0xHH>` is the byte; `▁` a space; the added tokens spell nothing.
        assert_eq!(v.token(3 + u32::from(b'\n')), b"\n");
        assert_eq!(v.token(3 + u32::from(b'X')), b"X");
        assert_eq!(v.token(3 + 0xE2), [0xE2]);
        assert_eq!(v.token(259), b" ");
        assert_eq!(v.token(265), b" act");
        assert_eq!(v.token(0), b"");
        assert_eq!(v.token(1), b"");
        // `<s>` and the `▁` the normalizer puts before each text.
        assert_eq!(t.overhead(), 2);
        // `<s>`, the text with `▁` before it, and a byte the pieces lack as its byte token.
        let mut ids = Vec::new();
        t.encode("act X", &mut ids).unwrap();
        assert_eq!(ids, [1, 265, 259, 3 + i64::from(b'X')]);
        // A `Metaspace` decoder (transformers' other form): the same spelling, and without
        // `ByteFallback` a `<0xHH>` token is its text, so a byte the pieces lack alone refuses.
        let metaspace = serde_json::json!({"type": "Metaspace", "replacement": "\u{2581}",
            "prepend_scheme": "always", "split": true});
        let json = sentencepiece(&pieces, &["a c", "ac t", "\u{2581} act"], Some(metaspace));
        let msg = refusal(&json, 272);
        assert!(msg.contains("no token for the byte '!' alone"), "{msg}");
    }

    #[test]
    fn decoders_that_do_not_spell_fixed_bytes_are_refused() {
        let cases = [
            (
                serde_json::json!({"type": "WordPiece", "prefix": "##", "cleanup": true}),
                "has a `WordPiece` decoder",
            ),
            (
                serde_json::json!({"type": "Sequence", "decoders": [
                {"type": "Replace", "pattern": {"String": "_"}, "content": "-"}]}),
                "replaces",
            ),
            (
                serde_json::json!({"type": "Sequence", "decoders": [{"type": "ByteFallback"}]}),
                "replaces no character by a space",
            ),
            (
                serde_json::json!({"type": "Sequence", "decoders": [
                {"type": "Replace", "pattern": {"String": "\u{2581}"}, "content": " "},
                {"type": "CTC", "pad_token": "<pad>", "word_delimiter_token": "|",
                 "cleanup": true}]}),
                "holds a `CTC` decoder",
            ),
        ];
        for (decoder, needle) in cases {
            let msg = refusal(&sentencepiece(&["\u{2581}"], &[], Some(decoder)), 300);
            assert!(msg.contains(needle), "{msg} (wanted {needle:?})");
        }
    }
}
