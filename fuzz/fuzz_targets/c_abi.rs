//! The C ABI driven from bytes with a handle table; see `evoharness_fuzz::c_abi`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    evoharness_fuzz::c_abi::check(data);
});
