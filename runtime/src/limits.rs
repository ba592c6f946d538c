//! What loading a policy file may cost: a policy file is untrusted input.
//!
//! A policy downloaded from the wrong place must not crash, hang or exhaust the host. Before
//! any inference session exists, [`PolicyLimits::check`] reads the file's ONNX structure (with
//! prost, which refuses malformed bytes and nests no deeper than its recursion limit) and
//! refuses, with [`ErrorKind::Policy`] and the limit named, a file
//! that is too large, has too many nodes (subgraphs included), declares a tensor with too many
//! elements or a negative dimension, or whose constant tensors (initialisers and tensor
//! attributes, subgraphs included) declare more bytes than allowed. The defaults admit policies
//! a thousand times the size of the shipped one (537 KB, 10 nodes).
//!
//! It also refuses a graph that names a value nothing defines (a node input or a graph output
//! that is no graph input, initialiser or node output of its graph or an enclosing one), and a
//! graph output that is no value of its own graph (an empty name; a subgraph's output that
//! names an enclosing graph's value none of its nodes uses): tract panics on such files inside
//! its C-ABI shim, which aborts the process, and mutated files found both.
//!
//! The limits bound what a file *declares*; what its operators compute at run time (a `Tile`
//! or `ConstantOfShape` fed by a huge constant, say) is the backend's to bound, and the
//! element limit keeps such constants small.

use crate::error::{Error, ErrorKind, Result};

/// The caps on a policy file; see the [module docs](self). `PolicyBuilder::limits` sets them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PolicyLimits {
    /// The file's size in bytes (default 256 MiB).
    pub max_file_bytes: u64,
    /// Nodes in the graph and all its subgraphs (default 100,000).
    pub max_nodes: u64,
    /// Elements of any one tensor the file declares (default 64 Mi, 2^26).
    pub max_tensor_elements: u64,
    /// Bytes all constant tensors declare together: elements × element size (default 256
    /// MiB).
    pub max_constant_bytes: u64,
}

impl Default for PolicyLimits {
    fn default() -> Self {
        Self {
            max_file_bytes: 256 << 20,
            max_nodes: 100_000,
            max_tensor_elements: 1 << 26,
            max_constant_bytes: 256 << 20,
        }
    }
}

/// The parts of an ONNX `ModelProto` the limits look at (field numbers of onnx.proto3); prost
/// skips every other field.
mod proto {
    #[derive(Clone, PartialEq, prost::Message)]
    pub(super) struct Model {
        #[prost(message, optional, tag = "7")]
        pub(super) graph: Option<Graph>,
    }

    #[derive(Clone, PartialEq, prost::Message)]
    pub(super) struct Graph {
        #[prost(message, repeated, tag = "1")]
        pub(super) node: Vec<Node>,
        #[prost(message, repeated, tag = "5")]
        pub(super) initializer: Vec<Tensor>,
        #[prost(message, repeated, tag = "11")]
        pub(super) input: Vec<ValueInfo>,
        #[prost(message, repeated, tag = "12")]
        pub(super) output: Vec<ValueInfo>,
        #[prost(message, repeated, tag = "15")]
        pub(super) sparse_initializer: Vec<SparseTensor>,
    }

    #[derive(Clone, PartialEq, prost::Message)]
    pub(super) struct ValueInfo {
        #[prost(string, tag = "1")]
        pub(super) name: String,
    }

    #[derive(Clone, PartialEq, prost::Message)]
    pub(super) struct Node {
        #[prost(string, repeated, tag = "1")]
        pub(super) input: Vec<String>,
        #[prost(string, repeated, tag = "2")]
        pub(super) output: Vec<String>,
        #[prost(message, repeated, tag = "5")]
        pub(super) attribute: Vec<Attribute>,
    }

    #[derive(Clone, PartialEq, prost::Message)]
    pub(super) struct Attribute {
        #[prost(message, optional, tag = "5")]
        pub(super) t: Option<Tensor>,
        #[prost(message, optional, tag = "6")]
        pub(super) g: Option<Graph>,
        #[prost(message, repeated, tag = "10")]
        pub(super) tensors: Vec<Tensor>,
        #[prost(message, repeated, tag = "11")]
        pub(super) graphs: Vec<Graph>,
        #[prost(message, optional, tag = "22")]
        pub(super) sparse_tensor: Option<SparseTensor>,
    }

    #[derive(Clone, PartialEq, prost::Message)]
    pub(super) struct Tensor {
        #[prost(int64, repeated, tag = "1")]
        pub(super) dims: Vec<i64>,
        #[prost(int32, tag = "2")]
        pub(super) data_type: i32,
        #[prost(string, tag = "8")]
        pub(super) name: String,
        #[prost(bytes = "vec", tag = "9")]
        pub(super) raw_data: Vec<u8>,
    }

    #[derive(Clone, PartialEq, prost::Message)]
    pub(super) struct SparseTensor {
        #[prost(message, optional, tag = "1")]
        pub(super) values: Option<Tensor>,
        #[prost(int64, repeated, tag = "3")]
        pub(super) dims: Vec<i64>,
    }
}

/// Bytes of one element of an ONNX `TensorProto.DataType`; 8 for types this crate does not
/// know (strings and future types), which overestimates rather than admits.
fn element_size(data_type: i32) -> u64 {
    match data_type {
        2 | 3 | 9 | 17..=23 => 1, // uint8, int8, bool, the float8 and 4-bit kinds
        4 | 5 | 10 | 16 => 2,     // uint16, int16, float16, bfloat16
        1 | 6 | 12 => 4,          // float, int32, uint32
        7 | 11 | 13 | 14 => 8,    // int64, double, uint64, complex64
        15 => 16,                 // complex128
        _ => 8,
    }
}

/// Whether a tensor of ONNX `TensorProto.DataType` `data_type` may carry `raw_data`: the
/// numeric and boolean types the backends load from raw bytes. tract aborts the process on any
/// other (`unimplemented!` inside an `extern "system"` function), and the ONNX specification
/// forbids raw strings.
fn raw_loadable(data_type: i32) -> bool {
    // float, uint8, int8, uint16, int16, int32, int64, bool, float16, double, uint32, uint64
    matches!(data_type, 1..=7 | 9..=13)
}

/// What the walk counted so far.
struct Tally<'l> {
    limits: &'l PolicyLimits,
    nodes: u64,
    constant_bytes: u64,
}

impl Tally<'_> {
    fn refuse(&self, name: &str, what: String) -> Error {
        Error::new(
            ErrorKind::Policy,
            format!("{name}: {what} (a limit of PolicyLimits, to protect the host)"),
        )
    }

    fn elements(&self, dims: &[i64], name: &str) -> Result<u64> {
        let mut n: u64 = 1;
        for &d in dims {
            let d = u64::try_from(d)
                .map_err(|_| self.refuse(name, format!("a tensor declares the dimension {d}")))?;
            n = n
                .checked_mul(d)
                .filter(|&n| n <= self.limits.max_tensor_elements)
                .ok_or_else(|| {
                    self.refuse(
                        name,
                        format!(
                            "a tensor of shape {dims:?} has more than {} elements",
                            self.limits.max_tensor_elements
                        ),
                    )
                })?;
        }
        Ok(n)
    }

    fn constant(&mut self, t: &proto::Tensor, name: &str) -> Result<()> {
        if !t.raw_data.is_empty() && !raw_loadable(t.data_type) {
            return Err(Error::new(
                ErrorKind::Policy,
                format!(
                    "{name}: a tensor of ONNX data type {} carries raw data, which the policy \
                     backends cannot load (raw data is for numeric and boolean tensors)",
                    t.data_type
                ),
            ));
        }
        let bytes = self.elements(&t.dims, name)? * element_size(t.data_type);
        self.constant_bytes = self.constant_bytes.saturating_add(bytes);
        if self.constant_bytes > self.limits.max_constant_bytes {
            return Err(self.refuse(
                name,
                format!(
                    "its constant tensors declare more than {} bytes",
                    self.limits.max_constant_bytes
                ),
            ));
        }
        Ok(())
    }

    fn sparse(&mut self, s: &proto::SparseTensor, name: &str) -> Result<()> {
        self.elements(&s.dims, name)?;
        if let Some(v) = &s.values {
            self.constant(v, name)?;
        }
        Ok(())
    }

    /// Walks graph `g`; `outer` holds the names its enclosing graphs define.
    fn graph(&mut self, g: &proto::Graph, outer: &[&str], name: &str) -> Result<()> {
        self.nodes = self.nodes.saturating_add(g.node.len() as u64);
        if self.nodes > self.limits.max_nodes {
            return Err(self.refuse(
                name,
                format!("its graphs have more than {} nodes", self.limits.max_nodes),
            ));
        }
        // The names this graph can see: its enclosing graphs' and its own.
        let mut defined: Vec<&str> = outer.to_vec();
        defined.extend(g.input.iter().map(|v| v.name.as_str()));
        defined.extend(g.initializer.iter().map(|t| t.name.as_str()));
        defined.extend(
            g.sparse_initializer
                .iter()
                .filter_map(|s| s.values.as_ref().map(|v| v.name.as_str())),
        );
        defined.extend(
            g.node
                .iter()
                .flat_map(|n| n.output.iter().map(String::as_str)),
        );
        defined.sort_unstable();
        let used = g
            .node
            .iter()
            .flat_map(|n| n.input.iter())
            .chain(g.output.iter().map(|v| &v.name));
        for u in used.filter(|u| !u.is_empty()) {
            if defined.binary_search(&u.as_str()).is_err() {
                return Err(Error::new(
                    ErrorKind::Policy,
                    format!(
                        "{name}: the graph uses a value `{}` that nothing defines",
                        u.escape_debug()
                    ),
                ));
            }
        }
        // tract finds a graph's outputs among its own inputs, initialisers and node inputs and
        // outputs only (not its enclosing graphs', not sparse initialisers), and panics where
        // it finds none: an output with an empty name, or a subgraph's output that names an
        // enclosing graph's value no node of the subgraph uses. A mutated file found the first.
        let mut own: Vec<&str> = g.input.iter().map(|v| v.name.as_str()).collect();
        own.extend(g.initializer.iter().map(|t| t.name.as_str()));
        own.extend(
            g.node
                .iter()
                .flat_map(|n| n.input.iter().chain(&n.output))
                .map(String::as_str)
                .filter(|v| !v.is_empty()),
        );
        own.sort_unstable();
        if let Some(o) = g
            .output
            .iter()
            .find(|o| own.binary_search(&o.name.as_str()).is_err())
        {
            return Err(Error::new(
                ErrorKind::Policy,
                format!(
                    "{name}: a graph's output `{}` is no value of that graph",
                    o.name.escape_debug()
                ),
            ));
        }
        for t in &g.initializer {
            self.constant(t, name)?;
        }
        for s in &g.sparse_initializer {
            self.sparse(s, name)?;
        }
        for a in g.node.iter().flat_map(|n| &n.attribute) {
            for t in a.t.iter().chain(&a.tensors) {
                self.constant(t, name)?;
            }
            if let Some(s) = &a.sparse_tensor {
                self.sparse(s, name)?;
            }
            for sub in a.g.iter().chain(&a.graphs) {
                self.graph(sub, &defined, name)?;
            }
        }
        Ok(())
    }
}

impl PolicyLimits {
    /// Refuses a file of `len` bytes over [`PolicyLimits::max_file_bytes`], before it is read.
    pub fn check_len(&self, len: u64, name: &str) -> Result<()> {
        if len > self.max_file_bytes {
            return Err(Error::new(
                ErrorKind::Policy,
                format!(
                    "{name}: {len} bytes, more than the {} a policy file may have (a limit of \
                     PolicyLimits, to protect the host)",
                    self.max_file_bytes
                ),
            ));
        }
        Ok(())
    }

    /// Checks the ONNX file in `bytes` against every limit; see the [module docs](self).
    pub fn check(&self, bytes: &[u8], name: &str) -> Result<()> {
        use prost::Message as _;
        self.check_len(bytes.len() as u64, name)?;
        let model = proto::Model::decode(bytes).map_err(|e| {
            Error::new(
                ErrorKind::Policy,
                format!("{name} is not a valid ONNX model"),
            )
            .with_source(e)
        })?;
        let mut tally = Tally {
            limits: self,
            nodes: 0,
            constant_bytes: 0,
        };
        let Some(g) = &model.graph else {
            // An empty file decodes as an empty model: say what it is.
            return Err(Error::new(
                ErrorKind::Policy,
                format!("{name} is not an ONNX model: it has no graph (is it empty?)"),
            ));
        };
        tally.graph(g, &[], name)
    }
}

#[cfg(test)]
mod tests {
    use super::proto::{Attribute, Graph, Model, Node, Tensor};
    use super::*;
    use prost::Message as _;

    fn bytes(graph: Graph) -> Vec<u8> {
        Model { graph: Some(graph) }.encode_to_vec()
    }

    fn tensor(dims: &[i64]) -> Tensor {
        Tensor {
            dims: dims.to_vec(),
            data_type: 1,
            name: String::new(),
            raw_data: Vec::new(),
        }
    }

    fn refusal(b: &[u8], limits: PolicyLimits) -> String {
        let e = limits.check(b, "p.onnx").unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Policy);
        e.to_string()
    }

    #[test]
    fn hostile_declarations_are_refused_without_allocating_them() {
        let l = PolicyLimits::default();
        // A tensor of 2^40 elements, declared in a few bytes.
        let huge = bytes(Graph {
            initializer: vec![tensor(&[1 << 20, 1 << 20])],
            ..Graph::default()
        });
        assert!(refusal(&huge, l).contains("more than 67108864 elements"));
        // Dimensions whose product overflows u64.
        let overflow = bytes(Graph {
            initializer: vec![tensor(&[i64::MAX, i64::MAX, 4])],
            ..Graph::default()
        });
        assert!(refusal(&overflow, l).contains("elements"));
        let negative = bytes(Graph {
            initializer: vec![tensor(&[3, -1])],
            ..Graph::default()
        });
        assert!(refusal(&negative, l).contains("dimension -1"));
        // Many small constants that add up.
        let many = bytes(Graph {
            initializer: vec![tensor(&[1 << 24]); 5],
            ..Graph::default()
        });
        assert!(refusal(&many, l).contains("constant tensors declare more than"));
        // A constant hidden in a subgraph of an attribute.
        let nested = bytes(Graph {
            node: vec![Node {
                attribute: vec![Attribute {
                    g: Some(Graph {
                        node: vec![Node {
                            attribute: vec![Attribute {
                                t: Some(tensor(&[1 << 30])),
                                ..Attribute::default()
                            }],
                            ..Node::default()
                        }],
                        ..Graph::default()
                    }),
                    ..Attribute::default()
                }],
                ..Node::default()
            }],
            ..Graph::default()
        });
        assert!(refusal(&nested, l).contains("elements"));
        // Nodes, counted through subgraphs.
        let nodes = bytes(Graph {
            node: vec![Node::default(); 50],
            ..Graph::default()
        });
        let few = PolicyLimits { max_nodes: 49, ..l };
        assert!(refusal(&nodes, few).contains("more than 49 nodes"));
        assert!(l.check(&nodes, "p.onnx").is_ok());
        // Size, and bytes that are no model.
        assert!(
            refusal(
                &nodes,
                PolicyLimits {
                    max_file_bytes: 10,
                    ..l
                }
            )
            .contains("bytes, more than the 10")
        );
        assert!(refusal(&[0xff; 16], l).contains("not a valid ONNX model"));
    }

    #[test]
    fn a_value_nothing_defines_is_refused_and_outer_names_are_seen_in_subgraphs() {
        use super::proto::ValueInfo;
        let node = |i: &[&str], o: &[&str]| Node {
            input: i.iter().map(|s| s.to_string()).collect(),
            output: o.iter().map(|s| s.to_string()).collect(),
            attribute: vec![],
        };
        let info = |n: &str| ValueInfo { name: n.into() };
        let good = Graph {
            input: vec![info("obs")],
            node: vec![node(&["obs", ""], &["h"]), node(&["h"], &["logits"])],
            output: vec![info("logits")],
            ..Graph::default()
        };
        assert!(
            PolicyLimits::default()
                .check(&bytes(good.clone()), "p.onnx")
                .is_ok()
        );
        let dangling_output = Graph {
            output: vec![info("logitz")],
            ..good.clone()
        };
        assert!(
            refusal(&bytes(dangling_output), PolicyLimits::default())
                .contains("`logitz` that nothing defines")
        );
        let dangling_input = Graph {
            node: vec![node(&["nope"], &["logits"])],
            ..good.clone()
        };
        assert!(refusal(&bytes(dangling_input), PolicyLimits::default()).contains("`nope`"));
        // A subgraph may use its enclosing graph's values, not the other way round.
        let mut with_sub = good;
        with_sub.node.push(Node {
            attribute: vec![Attribute {
                g: Some(Graph {
                    node: vec![node(&["h"], &["inner"])],
                    output: vec![info("inner")],
                    ..Graph::default()
                }),
                ..Attribute::default()
            }],
            ..node(&[], &["unused"])
        });
        assert!(
            PolicyLimits::default()
                .check(&bytes(with_sub.clone()), "p.onnx")
                .is_ok()
        );
        with_sub.output.push(info("inner"));
        assert!(refusal(&bytes(with_sub.clone()), PolicyLimits::default()).contains("`inner`"));
        // A graph output must be a value of its own graph: not an empty name, and in a
        // subgraph not an enclosing graph's value that none of its nodes uses.
        with_sub.output.pop();
        let mut unnamed = with_sub.clone();
        unnamed.output.push(info(""));
        assert!(
            refusal(&bytes(unnamed), PolicyLimits::default())
                .contains("a graph's output `` is no value of that graph")
        );
        let sub = |output: &str| {
            let mut g = with_sub.clone();
            let a = &mut g.node.last_mut().unwrap().attribute[0];
            a.g.as_mut().unwrap().output = vec![info(output)];
            bytes(g)
        };
        assert!(
            refusal(&sub("obs"), PolicyLimits::default())
                .contains("a graph's output `obs` is no value")
        );
        // ... which it may return where one of its nodes uses it.
        assert!(PolicyLimits::default().check(&sub("h"), "p.onnx").is_ok());
    }

    #[test]
    fn subgraphs_nested_beyond_reason_are_refused() {
        let mut g = Graph::default();
        for _ in 0..200 {
            g = Graph {
                node: vec![Node {
                    attribute: vec![Attribute {
                        g: Some(g),
                        ..Attribute::default()
                    }],
                    ..Node::default()
                }],
                ..Graph::default()
            };
        }
        // prost's recursion limit stops the decode: an error, not a stack overflow.
        assert!(refusal(&bytes(g), PolicyLimits::default()).contains("not a valid ONNX model"));
    }

    /// Found by the `c_abi` fuzz target: a string tensor with raw data made tract panic
    /// ("FIXME, raw tensor loading") inside `CreateSessionFromArray`, an `extern "system"`
    /// function, which aborted the process.
    #[test]
    fn raw_data_only_for_the_types_the_backends_load_from_it() {
        for (data_type, refused) in [(8, true), (14, true), (16, true), (0, true), (1, false)] {
            for at in 0..2 {
                let t = Tensor {
                    raw_data: vec![0; 4],
                    data_type,
                    ..tensor(&[1])
                };
                let mut g = Graph::default();
                if at == 0 {
                    g.initializer.push(t);
                } else {
                    g.node.push(Node {
                        attribute: vec![Attribute {
                            t: Some(t),
                            ..Attribute::default()
                        }],
                        ..Node::default()
                    });
                }
                let r = PolicyLimits::default().check(&bytes(g), "p.onnx");
                let e = r.map_err(|e| e.to_string()).err().unwrap_or_default();
                assert_eq!(
                    e.contains("carries raw data"),
                    refused,
                    "type {data_type}: {e}"
                );
            }
        }
    }

    #[test]
    fn an_empty_file_is_refused_as_no_model() {
        let e = refusal(b"", PolicyLimits::default());
        assert!(e.contains("no graph"), "{e}");
    }
}
