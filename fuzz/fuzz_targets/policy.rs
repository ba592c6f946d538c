//! Untrusted bytes loaded as a policy file through tract; see `evoharness_fuzz::policy`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    evoharness_fuzz::policy::check(data);
});
