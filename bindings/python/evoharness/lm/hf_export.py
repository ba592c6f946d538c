"""Exports a Hugging Face causal language model into the ``generative-v1`` layout
(``runtime/POLICY.md``): one ONNX file with the key/value cache inputs and outputs, the
model's ``tokenizer.json`` and the metadata the runtime checks.

    python -m evoharness.lm.hf_export MODEL_DIR OUT.onnx --capacities FACTS,STEPS,LESSONS,TOOLS

``MODEL_DIR`` is what ``save_pretrained`` writes (``config.json``, the weights, and a *fast*
tokenizer: ``tokenizer.json``). Decoder-only models whose forward takes a ``DynamicCache``
export (tested: Llama and GPT-2 from transformers 5.25; Qwen2, Mistral and SmolLM share Llama's
cache interface but are untested); the tokenizer must spell each token as fixed bytes, which the
runtime spells actions with: byte-level BPE (a ``ByteLevel`` decoder: GPT-2, Llama 3, Qwen) or
SentencePiece (a ``Metaspace`` decoder, or ``Replace`` of ``▁`` by a space with ``ByteFallback``,
``Fuse`` and ``Strip``: Llama 2, TinyLlama, Mistral).
``--capacities`` are the workspace capacities and tool count of the host's world, the ones the
model was fine-tuned on (``suite``: the task suite's). ``--context`` defaults to the config's
``max_position_embeddings``; the runtime refuses a context shorter than the longest prompt of
those capacities.

The export is torch's TorchScript exporter (opset 17, which both backends run), then checked:
ONNX Runtime's logits for a prompt run whole and in two pieces through the exported cache must
match the torch model's within ``1e-3``.

``python -m evoharness.lm.hf_export --tiny DIR`` writes a small random model with a byte-level BPE
tokenizer trained here (no download), for trying the pipeline and for the tests
(``--tiny-tokenizer sentencepiece``: one shaped as Llama 2's, with byte fallback).
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys
import warnings

import numpy as np

from .model import ABI, GRAMMAR_VERSION, TEXT_VERSION

OPSET = 17

#: A ``workspace-text-v1`` prompt (``core/PROTOCOL.md`` §11's worked example) for the checks.
CHECK_PROMPT = ("tools 3 budget 100 costs 1 1 1 1 1 0\nlessons 0/2\nplan 1/2\n"
                "S0 pending 42 tries 0\nfacts 1/4\nF0 id = 42 conf 0.90 from event:1 seen 1\n"
                "now clock 2 spent 2 left 98 streak 2 last commit\nevent result from 1\n"
                "X0 id = 42 known\nX1 note = \"a 'b'?\"\n> ")


def _torch():
    try:
        import torch
        import transformers
    except ImportError as e:  # pragma: no cover - the train extra brings them
        raise SystemExit("evoharness.lm.hf_export needs torch and transformers: "
                         "pip install 'evoharness[train]'") from e
    return torch, transformers


def parse_capacities(text: str) -> dict:
    """``FACTS,STEPS,LESSONS,TOOLS`` or ``suite`` (the task suite's, from the library)."""
    if text == "suite":
        from ..vec_env import suite_capacities

        return dict(suite_capacities())
    parts = text.split(",")
    if len(parts) != 4 or not all(p.strip().isdigit() for p in parts):
        raise SystemExit(f"--capacities: `{text}` is not FACTS,STEPS,LESSONS,TOOLS or `suite`")
    return dict(zip(("facts", "steps", "lessons", "tools"), (int(p) for p in parts)))


def _cache_kwarg(model) -> str:
    """The keyword a model's forward takes its cache by: ``cache`` (transformers 5.2x) or
    ``past_key_values`` (before)."""
    import inspect

    return "cache" if "cache" in inspect.signature(model.forward).parameters else "past_key_values"


def _cache_of(out):
    return out["cache"] if "cache" in out else out["past_key_values"]


def _flat(model, layers: int):
    """The model behind the layout's flat signature: ``(input_ids, attention_mask,
    position_ids, *past)`` in, ``(logits, *present)`` out (key then value of each layer)."""
    torch, transformers = _torch()
    kwarg = _cache_kwarg(model)

    class Flat(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.model = model

        def forward(self, input_ids, attention_mask, position_ids, *past):
            cache = transformers.DynamicCache(config=self.model.config)
            for i in range(layers):
                cache.update(past[2 * i], past[2 * i + 1], i)
            out = self.model(input_ids=input_ids, attention_mask=attention_mask,
                             position_ids=position_ids, use_cache=True, **{kwarg: cache})
            flat = []
            for layer in _cache_of(out).layers[:layers]:
                flat += [layer.keys, layer.values]
            return (out.logits, *flat)

    return Flat()


def _tokenizer_json(tokenizer) -> str:
    if not getattr(tokenizer, "is_fast", False):
        raise SystemExit("the model's tokenizer is not a fast tokenizer (no tokenizer.json): "
                         "the runtime encodes prompts with tokenizer.json")
    text = tokenizer.backend_tokenizer.to_str()
    why = _unspellable(json.loads(text).get("decoder") or {})
    if why:
        raise SystemExit(f"{why}: the runtime spells actions with byte-level BPE (a ByteLevel "
                         "decoder) or SentencePiece (a Metaspace decoder, or Replace of one "
                         "character by a space with ByteFallback, Fuse and Strip) only")
    return text


def _unspellable(decoder: dict) -> str | None:
    """Why a tokenizer with this decoder (its JSON) does not spell each token as fixed bytes,
    or ``None`` where it does (the runtime's check at load, ``runtime/src/hf_tokenizer.rs``)."""
    kind = decoder.get("type")
    if kind in ("ByteLevel", "Metaspace"):
        return None
    if kind != "Sequence":
        return f"the tokenizer's decoder is {kind!r}"
    space = False
    for d in decoder.get("decoders") or []:
        if d.get("type") == "Replace":
            pattern = (d.get("pattern") or {}).get("String")
            one = isinstance(pattern, str) and len(pattern) == 1
            if space or not one or d.get("content") != " ":
                return (f"the tokenizer's decoder replaces {d.get('pattern')} by "
                        f"{d.get('content')!r}")
            space = True
        elif d.get("type") not in ("ByteFallback", "Fuse", "Strip"):
            return f"the tokenizer's decoder sequence holds {d.get('type')!r}"
    return None if space else "the tokenizer's decoder sequence replaces no character by a space"


def export(model_dir, out, capacities: dict, context: int | None = None) -> dict:
    """Exports ``model_dir`` to ``out``; returns what was written (sizes, the check's largest
    difference)."""
    torch, transformers = _torch()
    import onnx

    from ..train.export import write_metadata

    transformers.utils.logging.disable_progress_bar()
    model_dir, out = pathlib.Path(model_dir), pathlib.Path(out)
    tokenizer = transformers.AutoTokenizer.from_pretrained(model_dir)
    tok_json = _tokenizer_json(tokenizer)
    model = transformers.AutoModelForCausalLM.from_pretrained(model_dir, dtype=torch.float32)
    model.eval()
    cfg = model.config
    layers = cfg.num_hidden_layers
    context = context or getattr(cfg, "max_position_embeddings", None) or getattr(
        cfg, "n_positions", None)
    if not context:
        raise SystemExit("the config has no max_position_embeddings: pass --context")
    # The cache's shape from the model itself (grouped-query attention, head_dim).
    with torch.no_grad():
        probe = _cache_of(model(input_ids=torch.tensor([[1, 2]]), use_cache=True))
    heads, head_dim = probe.layers[0].keys.shape[1], probe.layers[0].keys.shape[3]
    # In eval mode (no dropout), and left so: the exporter restores the wrapper's mode after
    # tracing, and a wrapper in training mode would put the model back into it.
    flat = _flat(model, layers).eval()
    past_names = [f"past_key_values.{i}.{kv}" for i in range(layers) for kv in ("key", "value")]
    present_names = [f"present.{i}.{kv}" for i in range(layers) for kv in ("key", "value")]
    ids = torch.tensor([[3, 4, 5]])
    past = [torch.zeros(1, heads, 2, head_dim)] * (2 * layers)
    args = (ids, torch.ones(1, 5, dtype=torch.long), torch.arange(2, 5)[None], *past)
    dyn = {"input_ids": {1: "sequence"}, "attention_mask": {1: "total"},
           "position_ids": {1: "sequence"}, "logits": {1: "sequence"}}
    dyn.update({n: {2: "past"} for n in past_names})
    dyn.update({n: {2: "total"} for n in present_names})
    with torch.no_grad(), warnings.catch_warnings():
        # TorchScript tracing's notices (traced branches, deprecations) are expected here.
        warnings.simplefilter("ignore")
        torch.onnx.export(flat, args, str(out), input_names=["input_ids", "attention_mask",
                          "position_ids", *past_names], output_names=["logits", *present_names],
                          dynamic_axes=dyn, opset_version=OPSET, dynamo=False)
    m = onnx.load(str(out))
    del m.graph.value_info[:]  # tract refuses symbolic value_info
    meta = {"evoharness.abi": ABI, "evoharness.text_version": str(TEXT_VERSION),
            "evoharness.grammar_version": str(GRAMMAR_VERSION),
            "evoharness.context": str(context), "evoharness.tokenizer": "tokenizer.json",
            "evoharness.tokenizer_json": tok_json,
            **{f"evoharness.{k}": str(capacities[k])
               for k in ("facts", "steps", "lessons", "tools")},
            # The module's name before it moved into evoharness.lm: files made since carry
            # the same bytes (runtime/tests/fixtures/make_hf_fixture.py --check).
            "evoharness.producer": f"evoharness.hf_export ({cfg.model_type}, "
                                   f"transformers {transformers.__version__})"}
    write_metadata(m, meta)
    onnx.save(m, str(out))
    diff = check(model, tokenizer, out)
    return {"out": str(out), "bytes": out.stat().st_size, "layers": layers, "heads": heads,
            "head_dim": head_dim, "vocab": int(cfg.vocab_size), "context": int(context),
            "max_diff": diff}


def check(model, tokenizer, path, prompt: str = CHECK_PROMPT) -> float:
    """The largest difference between the torch model's logits and ONNX Runtime's on the
    export, for ``prompt`` run whole and in two pieces through the cache; raises above 1e-3."""
    torch, _ = _torch()
    import onnxruntime as ort

    sess = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    ids = tokenizer(prompt)["input_ids"]
    with torch.no_grad():
        want = model(input_ids=torch.tensor([ids])).logits[0].numpy()
    names = [i.name for i in sess.get_inputs()]
    outs = [o.name for o in sess.get_outputs()]
    shape = {i.name: i.shape for i in sess.get_inputs()}

    def run(chunk, start, past):
        feeds = {"input_ids": np.array([chunk], np.int64),
                 "attention_mask": np.ones((1, start + len(chunk)), np.int64),
                 "position_ids": np.arange(start, start + len(chunk), dtype=np.int64)[None]}
        cache = [n for n in names if n.startswith("past_key_values.")]
        for k, name in enumerate(cache):
            _, h, _, d = shape[name]
            feeds[name] = past[k] if past else np.zeros((1, h, 0, d), np.float32)
        return sess.run(outs, feeds)

    whole = run(ids, 0, None)
    cut = len(ids) // 2
    first = run(ids[:cut], 0, None)
    second = run(ids[cut:], cut, first[1:])
    d = max(float(np.abs(whole[0][0] - want).max()),
            float(np.abs(second[0][0] - want[cut:]).max()))
    if d > 1e-3:
        raise RuntimeError(f"the export differs from torch by {d}")
    return d


def _sentencepiece(corpus: list[str], vocab: int):
    """A SentencePiece-style BPE tokenizer as transformers converts Llama 2's (``<unk>``, ``<s>``,
    ``</s>``, the byte tokens ``<0x00>``..``<0xFF>``, then ``vocab`` pieces learned from
    ``corpus``; ``▁`` before the text and for each space; byte fallback)."""
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers

    space = "\u2581"
    norm = normalizers.Sequence([normalizers.Prepend(space), normalizers.Replace(" ", space)])
    learn = Tokenizer(models.BPE())
    learn.normalizer = norm
    # Pieces learned within words, as SentencePiece learns them (none holds a `▁` inside).
    learn.pre_tokenizer = pre_tokenizers.Metaspace(space, prepend_scheme="never", split=True)
    learn.train_from_iterator(corpus, trainers.BpeTrainer(vocab_size=vocab, show_progress=False))
    learned = json.loads(learn.to_str())["model"]
    ids = {t: i for i, t in enumerate(["<unk>", "<s>", "</s>"]
                                       + [f"<0x{b:02X}>" for b in range(256)])}
    for t, _ in sorted(learned["vocab"].items(), key=lambda kv: kv[1]):
        ids.setdefault(t, len(ids))
    merges = [tuple(m.split(" ")) if isinstance(m, str) else tuple(m) for m in learned["merges"]]
    tok = Tokenizer(models.BPE(vocab=ids, merges=merges, unk_token="<unk>", fuse_unk=True,
                               byte_fallback=True))
    tok.normalizer = norm
    tok.decoder = decoders.Sequence([decoders.Replace(space, " "), decoders.ByteFallback(),
                                     decoders.Fuse(), decoders.Strip(" ", 1, 0)])
    tok.add_special_tokens(["<unk>", "<s>", "</s>"])
    return tok


def tiny_model(out_dir, *, arch: str = "llama", vocab: int = 320, seed: int = 0,
               corpus: list[str] | None = None, tokenizer: str = "bpe") -> pathlib.Path:
    """Writes a small random causal LM and a tokenizer trained on ``corpus`` (default:
    prompt-shaped text) to ``out_dir``, as ``save_pretrained`` does: a stand-in for a host's
    fine-tuned model, built without any download. ``tokenizer``: ``bpe`` (byte-level BPE) or
    ``sentencepiece`` (shaped as transformers converts Llama 2's: ``▁`` for spaces, the 256
    byte tokens ``<0xHH>`` to fall back on, ``vocab`` tokens more)."""
    torch, transformers = _torch()
    transformers.utils.logging.disable_progress_bar()
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers

    out_dir = pathlib.Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    corpus = corpus or [CHECK_PROMPT, "act 0\n", "act 1 F0\n", "act 2 X1\n", "finish ok\n",
                        "track X0\n", "note F0\n", "recall X0\n", "step S0 complete\n"] * 4
    if tokenizer == "bpe":
        tok = Tokenizer(models.BPE())
        tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
        tok.decoder = decoders.ByteLevel()
        trainer = trainers.BpeTrainer(vocab_size=vocab, special_tokens=["<s>", "</s>"],
                                      initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                                      show_progress=False)
        tok.train_from_iterator(corpus, trainer)
        unk = {}
    elif tokenizer == "sentencepiece":
        tok = _sentencepiece(corpus, vocab)
        unk = {"unk_token": "<unk>"}
    else:
        raise SystemExit(f"--tiny-tokenizer: `{tokenizer}` is not bpe or sentencepiece")
    bos = tok.token_to_id("<s>")
    # A beginning-of-sequence token on every text, as Llama's tokenizers add.
    tok.post_processor = processors.TemplateProcessing(single="<s> $A", special_tokens=[("<s>", bos)])
    fast = transformers.PreTrainedTokenizerFast(tokenizer_object=tok, bos_token="<s>",
                                                eos_token="</s>", **unk)
    fast.save_pretrained(out_dir)
    torch.manual_seed(seed)
    width = (tok.get_vocab_size() + 7) // 8 * 8  # padded, as many models' embeddings are
    if arch == "llama":
        cfg = transformers.LlamaConfig(vocab_size=width, hidden_size=32, intermediate_size=64,
                                       num_hidden_layers=2, num_attention_heads=4,
                                       num_key_value_heads=2, max_position_embeddings=8192,
                                       bos_token_id=bos, eos_token_id=tok.token_to_id("</s>"))
    elif arch == "gpt2":
        cfg = transformers.GPT2Config(vocab_size=width, n_embd=32, n_layer=2, n_head=4,
                                      n_positions=8192, bos_token_id=bos,
                                      eos_token_id=tok.token_to_id("</s>"))
    else:
        raise SystemExit(f"--tiny-arch: `{arch}` is not llama or gpt2")
    model = transformers.AutoModelForCausalLM.from_config(cfg)
    model.save_pretrained(out_dir)
    return out_dir


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m evoharness.lm.hf_export", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("model_dir", nargs="?", type=pathlib.Path)
    ap.add_argument("out", nargs="?", type=pathlib.Path)
    ap.add_argument("--capacities", default=None,
                    help="FACTS,STEPS,LESSONS,TOOLS of the host's world, or `suite`")
    ap.add_argument("--context", type=int, default=None,
                    help="declared context in tokens (default: the config's)")
    ap.add_argument("--tiny", type=pathlib.Path, metavar="DIR",
                    help="write a small random model and tokenizer to DIR instead")
    ap.add_argument("--tiny-arch", default="llama", help="llama or gpt2 (with --tiny)")
    ap.add_argument("--tiny-tokenizer", default="bpe",
                    help="bpe (byte-level) or sentencepiece (with --tiny)")
    args = ap.parse_args(argv)
    if args.tiny:
        print(tiny_model(args.tiny, arch=args.tiny_arch, tokenizer=args.tiny_tokenizer))
        return 0
    if not (args.model_dir and args.out and args.capacities):
        ap.error("MODEL_DIR, OUT and --capacities are required (or --tiny DIR)")
    report = export(args.model_dir, args.out, parse_capacities(args.capacities), args.context)
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
