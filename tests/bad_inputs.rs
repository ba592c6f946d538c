//! The bad-input corpus: `tests/bad_inputs/`, one folder per class of untrusted input (wire
//! frames, workspace snapshots, agent checkpoints, experience stores, policy files; C-call
//! misuse is `c/misuse.c`, run by `c_abi.rs`), each file listed in
//! `tests/bad_inputs/expected.tsv` with the exact typed error it must get. Every file must be refused with exactly that error, and
//! refusing it must change nothing.
//!
//! The binary files are written by [`write_the_corpus`] (ignored; run it to regenerate them
//! after a deliberate format change, then review the diff of `expected.tsv`):
//!
//! ```sh
//! cargo test -p evoharness-tests --test bad_inputs -- --ignored write_the_corpus
//! ```

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use evoharness_core::wire::{Frame, Message};
use evoharness_core::{Action, Arg, Config, HeapWorkspace, Key, KeyArg, Text, Track, ValueRef};
use evoharness_runtime::checkpoint::Checkpoint;
use evoharness_runtime::{
    Agent, AgentConfig, Backend, CheckpointError, Error, ExperienceStore, FixtureWorld, Policy,
    PolicyBuilder,
};

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("bad_inputs")
}

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../runtime/tests/fixtures")
        .join(name)
}

/// `expected.tsv`: path (relative to the corpus) → the error, as [`refusal`] writes it.
fn expected() -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(corpus().join("expected.tsv")).expect("expected.tsv");
    text.lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (path, error) = l.split_once('\t').unwrap_or_else(|| panic!("no tab: {l}"));
            (path.to_string(), error.to_string())
        })
        .collect()
}

/// A workspace of the suite's capacities, with some state, for snapshots to be restored into.
fn workspace() -> HeapWorkspace {
    let mut ws = HeapWorkspace::with_capacities(8, 6, 4, Config::new(3, 100)).expect("capacities");
    ws.apply(&Action::Track(Track::Set {
        key: KeyArg::Lit(Key::new("region").expect("a key")),
        value: Arg::Lit(ValueRef::Int(7)),
        confidence: 1.0,
    }))
    .expect("a track");
    ws
}

fn snapshot(ws: &HeapWorkspace) -> Vec<u8> {
    let mut buf = vec![0; evoharness_core::snapshot::max_len(ws.capacities())];
    ws.snapshot(&mut buf).expect("a snapshot").to_vec()
}

fn policy(name: &str) -> Policy {
    PolicyBuilder::new()
        .backend(Backend::Tract)
        .commit_from_file(fixture(name))
        .expect("a fixture policy")
}

/// A runtime error as the corpus lists it: its kind, and its typed source where it has one.
fn runtime_error(e: &Error) -> String {
    let source = std::error::Error::source(e);
    match source.and_then(|s| s.downcast_ref::<CheckpointError>()) {
        Some(c) => format!("{:?}({c:?})", e.kind()),
        None => format!("{:?}: {e}", e.kind()),
    }
}

/// Feeds one corpus file to what reads its class; returns the refusal as `expected.tsv` lists
/// it, after checking that the refusal changed nothing. Panics if the file is accepted.
fn refusal(path: &str, bytes: &[u8]) -> String {
    let class = path.split('/').next().expect("a class folder");
    match class {
        "frame" => {
            let e = if path.ends_with(".cobs") {
                let mut copy = bytes.to_vec();
                Frame::decode_cobs(&mut copy).err()
            } else {
                Frame::decode(bytes).err()
            };
            format!("{:?}", e.unwrap_or_else(|| panic!("{path} decoded")))
        }
        "snapshot" => {
            let mut ws = workspace();
            let before = snapshot(&ws);
            let e = ws
                .restore(bytes)
                .err()
                .unwrap_or_else(|| panic!("{path} restored"));
            assert_eq!(
                snapshot(&ws),
                before,
                "{path}: a refused restore changed the workspace"
            );
            format!("{e:?}")
        }
        "checkpoint" => {
            let refused = Agent::try_resume_from_bytes(
                policy("mlp.onnx"),
                FixtureWorld::new(),
                AgentConfig::default(),
                bytes,
            )
            .err()
            .unwrap_or_else(|| panic!("{path} resumed"));
            assert_eq!(refused.world.calls(), 0, "{path}: the world was used");
            assert_eq!(
                refused.controller.state(),
                policy("mlp.onnx").state(),
                "{path}: the policy was changed"
            );
            runtime_error(&refused.error)
        }
        "experience_store" => {
            let e = ExperienceStore::from_bytes(bytes)
                .err()
                .unwrap_or_else(|| panic!("{path} was read"));
            format!("{e:?}")
        }
        "policy" => {
            let e = PolicyBuilder::new()
                .backend(Backend::Tract)
                .commit_from_memory(bytes)
                .err()
                .unwrap_or_else(|| panic!("{path} loaded"));
            runtime_error(&e)
        }
        _ => panic!("{path}: no class {class}"),
    }
}

#[test]
fn every_bad_input_gets_its_exact_typed_error() {
    let expected = expected();
    let mut seen = 0;
    let mut wrong = String::new();
    for (path, error) in &expected {
        if path.starts_with("c/") {
            continue; // c_abi.rs runs the C programs
        }
        let bytes = std::fs::read(corpus().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
        let got = refusal(path, &bytes);
        if &got != error {
            writeln!(wrong, "{path}: expected {error}, got {got}").unwrap();
        }
        seen += 1;
    }
    assert!(wrong.is_empty(), "{wrong}");
    // Every class has at least one file, and every file is listed.
    for class in [
        "frame",
        "snapshot",
        "checkpoint",
        "experience_store",
        "policy",
    ] {
        let files: Vec<_> = std::fs::read_dir(corpus().join(class))
            .unwrap_or_else(|e| panic!("{class}: {e}"))
            .map(|e| {
                format!(
                    "{class}/{}",
                    e.expect("an entry").file_name().to_string_lossy()
                )
            })
            .collect();
        assert!(!files.is_empty(), "no {class} inputs");
        for f in files {
            assert!(expected.contains_key(&f), "{f} is not in expected.tsv");
        }
    }
    assert!(seen >= 20, "only {seen} inputs");
}

/// A valid frame that carries text, and where that text is in its bytes.
fn track_frame() -> (Vec<u8>, usize) {
    let frame = Frame::new(
        7,
        Message::Action(Action::Track(Track::Set {
            key: KeyArg::Lit(Key::new("region").expect("a key")),
            value: Arg::Lit(ValueRef::Text(Text::new("eu-west").expect("text"))),
            confidence: 1.0,
        })),
    );
    let mut buf = [0; evoharness_core::wire::FRAME_MAX];
    let bytes = frame.encode(&mut buf).expect("encodes").to_vec();
    let at = bytes
        .windows(7)
        .position(|w| w == b"eu-west")
        .expect("the text is in the frame");
    (bytes, at)
}

/// A minimal ONNX model, encoded with prost (field numbers of onnx.proto3), for the policy
/// files the fixtures do not have.
mod onnx {
    #[derive(Clone, PartialEq, prost::Message)]
    pub(crate) struct Model {
        #[prost(int64, tag = "1")]
        pub(crate) ir_version: i64,
        #[prost(message, optional, tag = "7")]
        pub(crate) graph: Option<Graph>,
        #[prost(message, repeated, tag = "8")]
        pub(crate) opset_import: Vec<OpSet>,
        #[prost(message, repeated, tag = "14")]
        pub(crate) metadata_props: Vec<Entry>,
    }

    #[derive(Clone, PartialEq, prost::Message)]
    pub(crate) struct Entry {
        #[prost(string, tag = "1")]
        pub(crate) key: String,
        #[prost(string, tag = "2")]
        pub(crate) value: String,
    }

    #[derive(Clone, PartialEq, prost::Message)]
    pub(crate) struct OpSet {
        #[prost(string, tag = "1")]
        pub(crate) domain: String,
        #[prost(int64, tag = "2")]
        pub(crate) version: i64,
    }

    #[derive(Clone, PartialEq, prost::Message)]
    pub(crate) struct Graph {
        #[prost(message, repeated, tag = "1")]
        pub(crate) node: Vec<Node>,
        #[prost(string, tag = "2")]
        pub(crate) name: String,
        #[prost(message, repeated, tag = "5")]
        pub(crate) initializer: Vec<Tensor>,
        #[prost(message, repeated, tag = "11")]
        pub(crate) input: Vec<ValueInfo>,
        #[prost(message, repeated, tag = "12")]
        pub(crate) output: Vec<ValueInfo>,
    }

    #[derive(Clone, PartialEq, prost::Message)]
    pub(crate) struct Node {
        #[prost(string, repeated, tag = "1")]
        pub(crate) input: Vec<String>,
        #[prost(string, repeated, tag = "2")]
        pub(crate) output: Vec<String>,
        #[prost(string, tag = "3")]
        pub(crate) name: String,
        #[prost(string, tag = "4")]
        pub(crate) op_type: String,
    }

    #[derive(Clone, PartialEq, prost::Message)]
    pub(crate) struct Tensor {
        #[prost(int64, repeated, tag = "1")]
        pub(crate) dims: Vec<i64>,
        #[prost(int32, tag = "2")]
        pub(crate) data_type: i32,
        #[prost(string, tag = "8")]
        pub(crate) name: String,
        #[prost(bytes = "vec", tag = "9")]
        pub(crate) raw_data: Vec<u8>,
    }

    #[derive(Clone, PartialEq, prost::Message)]
    pub(crate) struct ValueInfo {
        #[prost(string, tag = "1")]
        pub(crate) name: String,
        #[prost(message, optional, tag = "2")]
        pub(crate) r#type: Option<Type>,
    }

    #[derive(Clone, PartialEq, prost::Message)]
    pub(crate) struct Type {
        #[prost(message, optional, tag = "1")]
        pub(crate) tensor: Option<TensorType>,
    }

    #[derive(Clone, PartialEq, prost::Message)]
    pub(crate) struct TensorType {
        #[prost(int32, tag = "1")]
        pub(crate) elem_type: i32,
        #[prost(message, optional, tag = "2")]
        pub(crate) shape: Option<Shape>,
    }

    #[derive(Clone, PartialEq, prost::Message)]
    pub(crate) struct Shape {
        #[prost(message, repeated, tag = "1")]
        pub(crate) dim: Vec<Dim>,
    }

    #[derive(Clone, PartialEq, prost::Message)]
    pub(crate) struct Dim {
        #[prost(int64, optional, tag = "1")]
        pub(crate) value: Option<i64>,
    }

    /// A float tensor type of these dimensions.
    pub(crate) fn f32_tensor(dims: &[i64]) -> Option<Type> {
        Some(Type {
            tensor: Some(TensorType {
                elem_type: 1,
                shape: Some(Shape {
                    dim: dims.iter().map(|&d| Dim { value: Some(d) }).collect(),
                }),
            }),
        })
    }

    /// `obs` → Identity → `logits`, opset 13; `extra` changes it into a bad file.
    pub(crate) fn model(extra: impl FnOnce(&mut Graph)) -> Vec<u8> {
        use prost::Message as _;
        let io = |n: &str| ValueInfo {
            name: n.into(),
            r#type: None,
        };
        let mut graph = Graph {
            node: vec![Node {
                input: vec!["obs".into()],
                output: vec!["logits".into()],
                name: String::new(),
                op_type: "Identity".into(),
            }],
            name: "bad".into(),
            initializer: vec![],
            input: vec![io("obs")],
            output: vec![io("logits")],
        };
        extra(&mut graph);
        Model {
            ir_version: 8,
            graph: Some(graph),
            opset_import: vec![OpSet {
                domain: String::new(),
                version: 13,
            }],
            metadata_props: vec![],
        }
        .encode_to_vec()
    }

    /// `model` with the `evoharness.*` metadata of the ONNX file `of`: a file that passes
    /// the contract check, so that its graph reaches the inference engine.
    pub(crate) fn with_metadata_of(model: Vec<u8>, of: &[u8]) -> Vec<u8> {
        use prost::Message as _;
        let mut m = Model::decode(&model[..]).expect("a model made here");
        m.metadata_props = Model::decode(of).expect("an ONNX file").metadata_props;
        m.encode_to_vec()
    }
}

/// Every corpus file but the C program, from valid encodings made here.
fn corpus_files() -> Vec<(&'static str, Vec<u8>)> {
    let mut files = Vec::new();
    let mut add = |path: &'static str, bytes: Vec<u8>| files.push((path, bytes));

    // Wire frames (core/PROTOCOL.md).
    let (frame, text_at) = track_frame();
    add("frame/empty.bin", vec![]);
    add("frame/version-2.bin", {
        let mut b = frame.clone();
        b[0] = 2;
        b
    });
    add("frame/truncated.bin", frame[..text_at + 3].to_vec());
    add(
        "frame/trailing-bytes.bin",
        [&frame[..], &[0, 0, 0]].concat(),
    );
    add("frame/unknown-message.bin", {
        // version 1, seq 7, message variant 9 (there are three).
        vec![1, 7, 9, 0, 0]
    });
    add("frame/text-not-utf8.bin", {
        let mut b = frame.clone();
        b[text_at] = 0xff;
        b
    });
    add("frame/length-past-the-end.bin", {
        // The text's length prefix claims 127 bytes.
        let mut b = frame.clone();
        b[text_at - 1] = 0x7f;
        b
    });
    add("frame/zero-inside.cobs", vec![3, 1, 0, 7, 0]);

    // Workspace snapshots (core's snapshot module), restored into `workspace()`.
    let snap = snapshot(&workspace());
    add("snapshot/bad-magic.bin", {
        let mut b = snap.clone();
        b[0] ^= 0xff;
        b
    });
    add("snapshot/truncated.bin", snap[..snap.len() - 5].to_vec());
    add("snapshot/version-99.bin", {
        let mut b = snap.clone();
        b[4..6].copy_from_slice(&99u16.to_le_bytes());
        b
    });
    add("snapshot/checksum.bin", {
        let mut b = snap.clone();
        b[12] ^= 0x01;
        b
    });
    add("snapshot/trailing-bytes.bin", [&snap[..], &[0]].concat());
    add("snapshot/other-capacities.bin", {
        let ws = HeapWorkspace::with_capacities(4, 6, 4, Config::new(3, 100)).expect("capacities");
        snapshot(&ws)
    });

    // Agent checkpoints (the runtime's checkpoint module), resumed into an agent of the
    // fixture policy `mlp.onnx` and the fixture world.
    let checkpoint_of = |model: &str, steps: u64| {
        let mut agent = Agent::new(policy(model), FixtureWorld::new(), AgentConfig::default())
            .expect("an agent");
        agent.run(steps).expect("steps");
        let mut out = Vec::new();
        agent.checkpoint_bytes(&mut out).expect("a checkpoint");
        out
    };
    let ckpt = checkpoint_of("mlp.onnx", 5);
    add("checkpoint/empty.bin", vec![]);
    add("checkpoint/bad-magic.bin", {
        let mut b = ckpt.clone();
        b[1] = b'X';
        b
    });
    add("checkpoint/truncated.bin", ckpt[..ckpt.len() / 2].to_vec());
    add("checkpoint/version-9.bin", {
        let mut b = ckpt.clone();
        b[4..6].copy_from_slice(&9u16.to_le_bytes());
        b
    });
    add("checkpoint/checksum.bin", {
        let mut b = ckpt.clone();
        b[20] ^= 0x01;
        b
    });
    add("checkpoint/trailing-bytes.bin", [&ckpt[..], b"!"].concat());
    add(
        "checkpoint/another-policy.bin",
        // Before its first step: a recurrent policy's checkpoint holds its hidden state, whose
        // last bits depend on the CPU's kernels (tract picks them by instruction set), and this
        // corpus is compared byte for byte on any machine.
        checkpoint_of("recurrent.onnx", 0),
    );

    // Experience stores (the runtime's experience_store module), read on their own and inside
    // a checkpoint.
    let text = |t: &str| evoharness_core::Value::text(t).expect("a text");
    let mut store = ExperienceStore::for_replica(4, 1).expect("a budget");
    for (t, r) in [("E429", 1), ("E500", 2), ("E503", 1)] {
        store.note(text(t), evoharness_core::Value::Int(r));
    }
    store.rate(&text("E500"), true);
    let good = store.to_bytes();
    // A store body with a good checksum, as a writer could not have made it, in format 2 or 1.
    let reframed_as = |format: u16, body: &[u8]| {
        let mut b = good[..4].to_vec();
        b.extend_from_slice(&format.to_le_bytes());
        b.extend_from_slice(&(body.len() as u32).to_le_bytes());
        b.extend_from_slice(body);
        let crc = crc::Crc::<u32>::new(&crc::CRC_32_ISO_HDLC).checksum(&b);
        b.extend_from_slice(&crc.to_le_bytes());
        b
    };
    let reframed = |body: &[u8]| reframed_as(2, body);
    // budget, clock, replica, version, own count | own lessons | others count (0)
    let body = &good[10..good.len() - 4];
    let own = 4 + 4 + 8 + 8 + 4;
    let lessons = &body[own..body.len() - 4];
    add("experience_store/empty.bin", vec![]);
    add("experience_store/bad-magic.bin", {
        let mut b = good.clone();
        b[3] = b'X';
        b
    });
    add(
        "experience_store/truncated.bin",
        good[..good.len() / 2].to_vec(),
    );
    add("experience_store/version-9.bin", {
        let mut b = good.clone();
        b[4..6].copy_from_slice(&9u16.to_le_bytes());
        b
    });
    add("experience_store/checksum.bin", {
        let mut b = good.clone();
        b[16] ^= 0x01;
        b
    });
    add(
        "experience_store/trailing-bytes.bin",
        [&good[..], b"!"].concat(),
    );
    add("experience_store/lesson-count-too-large.bin", {
        // More lessons for one replica than any store keeps.
        let mut b = body.to_vec();
        b[own - 4..own].copy_from_slice(&(1u32 << 17).to_le_bytes());
        reframed(&b)
    });
    add("experience_store/budget-too-large.bin", {
        let mut b = body.to_vec();
        b[..4].copy_from_slice(&u32::MAX.to_le_bytes());
        reframed(&b)
    });
    add("experience_store/lessons-out-of-order.bin", {
        // The first lesson ("E429": 6 + 2 + 12 bytes) moved after the others.
        let first = 6 + 2 + 12;
        let mut b = body[..own].to_vec();
        b.extend_from_slice(&lessons[first..]);
        b.extend_from_slice(&lessons[..first]);
        b.extend_from_slice(&body[body.len() - 4..]);
        reframed(&b)
    });
    add("experience_store/another-replica-named-as-its-own.bin", {
        // A merged store whose other replica (2) is renamed to the store's own (1).
        let mut other = ExperienceStore::for_replica(4, 2).expect("a budget");
        other.note(text("E429"), evoharness_core::Value::Int(2));
        let mut merged = store.clone();
        merged.merge(&other);
        let bytes = merged.to_bytes();
        let mut b = bytes[10..bytes.len() - 4].to_vec();
        let id = own + lessons.len() + 4;
        b[id..id + 8].copy_from_slice(&1u64.to_le_bytes());
        reframed(&b)
    });
    add("experience_store/format-1-over-budget.bin", {
        // Format 1 (budget, clock, count, lessons): the count (3) above a budget of 2.
        let mut b = 2u32.to_le_bytes().to_vec();
        b.extend_from_slice(&body[4..8]);
        b.extend_from_slice(&3u32.to_le_bytes());
        b.extend_from_slice(lessons);
        reframed_as(1, &b)
    });
    add("checkpoint/experience-store-checksum.bin", {
        let mut agent = Agent::new(
            policy("mlp.onnx"),
            FixtureWorld::new(),
            AgentConfig::default(),
        )
        .expect("an agent");
        agent.set_experience_store(store.clone());
        agent.run(5).expect("steps");
        let mut ckpt = Vec::new();
        agent.checkpoint_bytes(&mut ckpt).expect("a checkpoint");
        let c = Checkpoint::decode(&ckpt).expect("a good checkpoint");
        let mut bad_store = c.store.expect("a store").to_vec();
        bad_store[16] ^= 0x01;
        let mut out = Vec::new();
        Checkpoint {
            store: Some(&bad_store),
            ..c
        }
        .encode(&mut out);
        out
    });

    // Policy files: refused before any inference session exists (the runtime's limits
    // module), or by the contract check.
    add(
        "policy/not-onnx.onnx",
        b"this is not an ONNX model\n".to_vec(),
    );
    add("policy/empty.onnx", vec![]);
    add(
        "policy/truncated.onnx",
        std::fs::read(fixture("mlp.onnx")).expect("mlp.onnx")[..300].to_vec(),
    );
    add(
        "policy/huge-constant.onnx",
        onnx::model(|g| {
            g.initializer.push(onnx::Tensor {
                dims: vec![1 << 20, 1 << 20],
                data_type: 1,
                name: "w".into(),
                raw_data: Vec::new(),
            });
        }),
    );
    add(
        "policy/negative-dimension.onnx",
        onnx::model(|g| {
            g.initializer.push(onnx::Tensor {
                dims: vec![4, -1],
                data_type: 1,
                name: "w".into(),
                raw_data: Vec::new(),
            });
        }),
    );
    add(
        "policy/dangling-output.onnx",
        onnx::model(|g| {
            g.output.push(onnx::ValueInfo {
                name: "ghost".into(),
                r#type: None,
            })
        }),
    );
    add("policy/no-metadata.onnx", onnx::model(|_| {}));
    // Found by the `policy` fuzz target: tract's error quotes the node, and a NUL in it
    // aborted the process inside ort-sys's error type; our ort-tract port writes it as `\0`
    // (vendor/ort-tract.patch).
    add(
        "policy/nul-in-node.onnx",
        onnx::with_metadata_of(
            onnx::model(|g| {
                g.input[0].r#type = onnx::f32_tensor(&[1, 4]);
                g.node[0].name = "na\0me".into();
                g.node[0].op_type = "No\0SuchOp".into();
            }),
            &std::fs::read(fixture("mlp.onnx")).expect("mlp.onnx"),
        ),
    );
    // Found by the `c_abi` fuzz target: tract panicked on a string tensor with raw data inside
    // an `extern "system"` function, which aborted the process (runtime/src/limits.rs).
    add(
        "policy/raw-string-tensor.onnx",
        onnx::with_metadata_of(
            onnx::model(|g| {
                g.initializer.push(onnx::Tensor {
                    dims: vec![1],
                    data_type: 8,
                    name: "s".into(),
                    raw_data: b"text".to_vec(),
                });
            }),
            &std::fs::read(fixture("mlp.onnx")).expect("mlp.onnx"),
        ),
    );
    // Found by the `policy` fuzz target: tract looks a graph output up among its own graph's
    // values and panics on one with an empty name, which aborted the process.
    add(
        "policy/unnamed-output.onnx",
        onnx::with_metadata_of(
            onnx::model(|g| {
                g.output.push(onnx::ValueInfo {
                    name: String::new(),
                    r#type: None,
                })
            }),
            &std::fs::read(fixture("mlp.onnx")).expect("mlp.onnx"),
        ),
    );
    files
}

/// Writes the corpus files and `expected.tsv` (keeping its C entries), each with the error it
/// gets now. Review the diff before committing it.
#[test]
#[ignore = "writes the corpus: run it after a deliberate format change"]
fn write_the_corpus() {
    let dir = corpus();
    let mut lines: Vec<String> = expected()
        .into_iter()
        .filter(|(p, _)| p.starts_with("c/"))
        .map(|(p, e)| format!("{p}\t{e}"))
        .collect();
    for (path, bytes) in corpus_files() {
        let file = dir.join(path);
        std::fs::create_dir_all(file.parent().expect("a folder")).expect("mkdir");
        std::fs::write(&file, &bytes).expect("write");
        lines.push(format!("{path}\t{}", refusal(path, &bytes)));
    }
    lines.sort();
    let head = "# The bad-input corpus: each file (relative to this folder) and the exact typed \
                error it must get.\n# Written by `write_the_corpus` in tests/bad_inputs.rs; \
                c/ entries by hand (c/misuse.c prints them).\n";
    std::fs::write(
        dir.join("expected.tsv"),
        format!("{head}{}\n", lines.join("\n")),
    )
    .expect("write expected.tsv");
}

#[test]
fn the_corpus_is_what_its_generator_writes() {
    for (path, bytes) in corpus_files() {
        let on_disk = std::fs::read(corpus().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(on_disk, bytes, "{path} is stale: run write_the_corpus");
    }
}
