//! A workspace of fuzzed capacities driven by a fuzzed script; see `evoharness_fuzz::apply`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    evoharness_fuzz::apply::check(data);
});
