//! Untrusted bytes resumed as an agent checkpoint; see `evoharness_fuzz::checkpoint`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    evoharness_fuzz::checkpoint::check(data);
});
