//! Many actions on one small workspace, cheap checks; see `evoharness_fuzz::apply_fast`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    evoharness_fuzz::apply_fast::check(data);
});
