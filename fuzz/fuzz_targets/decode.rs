//! Untrusted bytes as a frame (plain, streamed, COBS) and as a snapshot; see
//! `evoharness_fuzz::decode`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    evoharness_fuzz::decode::check(data);
});
