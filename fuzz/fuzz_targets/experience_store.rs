//! Untrusted bytes read as an experience store; see `evoharness_fuzz::experience_store`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    evoharness_fuzz::experience_store::check(data);
});
