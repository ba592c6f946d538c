//! The fixtures' toy environment lives in the library now, as
//! `evoharness_runtime::FixtureWorld`; this alias keeps the tests and benches that include this
//! file (`#[path = "common/toy.rs"] mod toy;`) working. New code should use `FixtureWorld`.

pub(crate) type Toy = evoharness_runtime::FixtureWorld;
