//! What one decision of a policy costs in arithmetic, read from its ONNX graph.
//!
//! A structured-v1 policy is a few matrix products and element-wise operations; the products
//! are nearly all of its arithmetic. For each `Gemm`, `MatMul` or `MatMulInteger` node whose
//! second operand is a 2-D initializer (a weight matrix `K × N`), one row costs `K · N`
//! multiply-adds: two floating-point operations each. The benchmark's arithmetic limit
//! (agent-steps per second at the machine's GEMM throughput) follows from this count.

/// The parts of an ONNX `ModelProto` read here; prost skips every other field (the weights'
/// bytes included, so nothing of their size is copied).
#[derive(Clone, PartialEq, prost::Message)]
struct Model {
    #[prost(message, optional, tag = "7")]
    graph: Option<Graph>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct Graph {
    #[prost(message, repeated, tag = "1")]
    node: Vec<Node>,
    #[prost(message, repeated, tag = "5")]
    initializer: Vec<Initializer>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct Node {
    #[prost(string, repeated, tag = "1")]
    input: Vec<String>,
    #[prost(string, tag = "4")]
    op_type: String,
}

#[derive(Clone, PartialEq, prost::Message)]
struct Initializer {
    #[prost(int64, repeated, tag = "1")]
    dims: Vec<i64>,
    #[prost(string, tag = "8")]
    name: String,
}

/// Floating-point operations of one row through the graph in `bytes`: `2 · Σ K · N` over its
/// matrix products by weight matrices. 0 for bytes that are not a model.
pub(crate) fn per_decision(bytes: &[u8]) -> u64 {
    use prost::Message as _;
    let Ok(Model { graph: Some(g) }) = Model::decode(bytes) else {
        return 0;
    };
    let weights = |name: &str| -> u64 {
        match g.initializer.iter().find(|t| t.name == name) {
            Some(t) if t.dims.len() == 2 => t
                .dims
                .iter()
                .map(|&d| u64::try_from(d).unwrap_or(0))
                .fold(1u64, u64::saturating_mul),
            _ => 0,
        }
    };
    g.node
        .iter()
        .filter(|n| matches!(n.op_type.as_str(), "Gemm" | "MatMul" | "MatMulInteger"))
        .filter_map(|n| n.input.get(1))
        .map(|b| weights(b))
        .fold(0u64, u64::saturating_add)
        .saturating_mul(2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use prost::Message as _;

    #[test]
    fn counts_the_weight_matrices_of_products_only() {
        let t = |name: &str, dims: &[i64]| Initializer {
            dims: dims.to_vec(),
            name: name.into(),
        };
        let n = |op: &str, inputs: &[&str]| Node {
            input: inputs.iter().map(|s| s.to_string()).collect(),
            op_type: op.into(),
        };
        let m = Model {
            graph: Some(Graph {
                node: vec![
                    n("Gemm", &["obs", "w1", "b1"]),
                    n("Relu", &["h"]),
                    n("MatMul", &["h", "w2"]),
                    // Activations times activations: no weight matrix, not counted.
                    n("MatMul", &["h", "h"]),
                    n("Add", &["x", "b1"]),
                ],
                initializer: vec![t("w1", &[10, 4]), t("b1", &[4]), t("w2", &[4, 3])],
            }),
        };
        assert_eq!(per_decision(&m.encode_to_vec()), 2 * (40 + 12));
        assert_eq!(per_decision(b"not a model \xff\xff"), 0);
    }

    #[test]
    fn counts_a_fixture_policy() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../runtime/tests/fixtures/mlp_batch.onnx"
        );
        let bytes = std::fs::read(path).unwrap();
        // Its products: 534 × 16, 16 × 223 (logits) and 16 × 1 (value).
        assert_eq!(per_decision(&bytes), 2 * (534 * 16 + 16 * 223 + 16));
    }
}
