//! What the firmware images share: a panic handler and the one way to stop, and the scripted
//! episode (with, on the device, semihosting output and a stack gauge).
//!
//! No `#[global_allocator]` is defined anywhere in this crate, on purpose: linking
//! `evoharness-core` into a final image without one is the claim this crate checks.
//!
//! The library also builds for the host (without the device-only modules), so that
//! `examples/episode_host.rs` runs the very same [`episode`] natively.
#![no_std]

pub mod episode;
#[cfg(target_os = "none")]
pub mod semihosting;
#[cfg(target_os = "none")]
pub mod stack;

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

#[cfg(target_os = "none")]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    halt()
}

/// The device's `main` for a scripted episode: paints the stack, runs the episode, prints its
/// digest and the peak stack over semihosting, and ends qemu's run (status 1 on a failure).
#[cfg(target_os = "none")]
pub fn run_episode(name: &str, run: fn() -> Result<episode::Digest, episode::Failure>) -> ! {
    use core::fmt::Write;
    stack::paint();
    let result = run();
    let peak = stack::peak();
    let mut out = semihosting::Console::new();
    let ok = match result {
        Ok(d) => {
            let _ = writeln!(out, "episode {name}: {d}");
            let _ = writeln!(
                out,
                "stack {name}: {peak} bytes at most, of {}",
                stack::size()
            );
            true
        }
        Err(e) => {
            let _ = writeln!(out, "episode {name}: failed at {e}");
            false
        }
    };
    drop(out);
    semihosting::exit(ok)
}
