//! The skeleton both firmware images share: a panic handler and the one way to stop.
//!
//! No `#[global_allocator]` is defined anywhere in this crate, on purpose: linking
//! `evoharness-core` into a final image without one is the claim this crate checks.
#![no_std]

use core::panic::PanicInfo;

/// Stops the device: spins forever. A firmware would reset or report here.
#[inline(never)]
pub fn halt() -> ! {
    loop {
        core::hint::spin_loop();
    }
}

/// The value of `Ok`, or [`halt`] on `Err`. Every call in the firmware is expected to succeed;
/// this avoids `unwrap`, whose `Debug` formatting is code a device would not carry.
pub fn ok<T, E>(r: Result<T, E>) -> T {
    match r {
        Ok(v) => v,
        Err(_) => halt(),
    }
}

/// [`halt`] unless `cond` holds.
pub fn check(cond: bool) {
    if !cond {
        halt();
    }
}

#[panic_handler]
fn panic(_: &PanicInfo<'_>) -> ! {
    halt()
}
