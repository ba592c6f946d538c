//! `evoharness convert`: an ONNX structured MLP policy to the native format (`.ehp`), for the
//! native backend and for devices without an operating system (`native/FORMAT.md`).

use evoharness_runtime::native;
use evoharness_runtime::{Backend, PolicyBuilder};

use crate::args::{self, Flag, Usage};
use crate::failure::Failure;

const HELP: &str = "\
evoharness convert: an ONNX MLP policy to the native format

Usage: evoharness convert POLICY.onnx -o POLICY.ehp [--json]

Converts a structured policy (runtime/POLICY.md) made of Gemm, MatMul, Add, Sub, Mul, Relu,
Tanh and Sigmoid, or int8 products as ONNX Runtime's dynamic quantization writes them, into the
native format (native/FORMAT.md): a versioned, checksummed file of dense products (f32 or int8),
elementwise operations and weights, with the policy's metadata, that the native
backend (`--backend native`) and the no_std evaluator (evoharness-native) run. The result is
loaded and checked against the contract before it is written. A graph with another operator is
refused with its name, a file that is not a valid policy with exit status 2.

Options:
  -o, --output FILE    where to write the converted policy (required)
  --json               print what was written as one JSON object
  -h, --help           this help
";

pub(crate) fn help() -> String {
    HELP.to_string()
}

const FLAGS: &[Flag] = &[
    Flag::value("-o", "the output file"),
    Flag::value("--output", "the output file"),
    Flag::switch("--json"),
];

pub(crate) fn main(argv: impl IntoIterator<Item = String>) -> Result<(), Failure> {
    let p = args::parse("convert", FLAGS, argv)?;
    if p.help {
        print!("{}", help());
        return Ok(());
    }
    let [file] = p.positionals([("POLICY", "the .onnx policy file to convert")])?;
    let out = p
        .value("-o")
        .or_else(|| p.value("--output"))
        .ok_or_else(|| Usage::new("convert", "missing -o FILE"))?;
    crate::init_log(false);
    let bytes = std::fs::read(file).map_err(|e| Failure::io(file, "read", &e))?;
    let ehp = native::convert(&bytes, file).map_err(|e| Failure::about(file, &e))?;
    // What is written must load: the contract checks of the runtime, on the converted bytes.
    let policy = PolicyBuilder::new()
        .backend(Backend::Native)
        .commit_from_memory(&ehp)
        .map_err(|e| Failure::about(file, &e))?;
    let tmp = format!("{out}.tmp");
    std::fs::write(&tmp, &ehp).map_err(|e| Failure::io(&tmp, "write", &e))?;
    std::fs::rename(&tmp, out).map_err(|e| Failure::io(out, "write", &e))?;
    let m = native::describe(&ehp, out).map_err(|e| Failure::about(out, &e))?;
    let abi = policy.abi();
    if p.switch("--json") {
        println!(
            "{}",
            serde_json::json!({
                "input": file,
                "output": out,
                "bytes": ehp.len(),
                "onnx_bytes": bytes.len(),
                "operations": m.operations,
                "weights": m.weights,
                "scratch_floats_per_row": m.scratch_per_row,
                "macs_per_row": m.macs_per_row,
                "abi": abi.abi,
                "obs_len": abi.obs_len,
                "actions": abi.actions,
            })
        );
    } else {
        println!(
            "{out}: {} bytes (the ONNX file: {}), {} operations, {} weights, {} scratch floats \
             per row, {} multiply-adds per decision; {} {}x{}",
            ehp.len(),
            bytes.len(),
            m.operations,
            m.weights,
            m.scratch_per_row,
            m.macs_per_row,
            abi.abi,
            abi.obs_len,
            abi.actions
        );
    }
    Ok(())
}
