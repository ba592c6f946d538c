//! The book's and the README's Rust blocks as doctests: each page is a module's documentation,
//! so `cargo test --workspace` compiles and runs every Rust block of it with the workspace's
//! crates as dependencies (this crate's dev-dependencies). `scripts/check-docs.py` fails on a
//! page with Rust blocks that is not included here, and checks the other languages' blocks.
//! Blocks that load files move to the repository root first (hidden lines); the README's runs
//! nowhere, as its relative paths need that root and it shows no hidden lines (`no_run`).

#[cfg(doctest)]
#[doc = include_str!("../README.md")]
mod readme {}

#[cfg(doctest)]
#[doc = include_str!("../docs/src/embed-rust.md")]
mod embed_rust {}

#[cfg(doctest)]
#[doc = include_str!("../docs/src/protocol.md")]
mod protocol {}
