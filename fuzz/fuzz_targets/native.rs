//! Untrusted bytes read as a native policy file (`.ehp`) and run; see
//! `evoharness_native::fuzzing`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    evoharness_native::fuzzing::exercise(data);
});
