//! Semihosting, the least a device needs to talk through a debugger: print a line, and end the
//! run with a status. `qemu-system-arm -semihosting-config enable=on,target=native` serves the
//! calls (ARM's semihosting specification: `bkpt 0xAB`, the operation in `r0`, its argument in
//! `r1`).
//!
//! On a board with no debugger attached, `bkpt` is a fault: these images are for qemu (or a
//! probe), not for flashing as they are.

use core::arch::asm;
use core::fmt;

/// SYS_WRITE0: write a NUL-terminated string to the debugger's console.
const SYS_WRITE0: u32 = 0x04;
/// SYS_EXIT: the application stopped, for the reason in `r1`.
const SYS_EXIT: u32 = 0x18;
/// ADP_Stopped_ApplicationExit: a normal end (qemu exits with status 0).
const APPLICATION_EXIT: u32 = 0x2_0026;
/// ADP_Stopped_RunTimeErrorUnknown: a failure (qemu exits with status 1).
const RUN_TIME_ERROR: u32 = 0x2_0023;

/// Makes semihosting call `op` with argument `arg`.
///
/// # Safety
///
/// `arg` must be what `op` expects: for [`SYS_WRITE0`], a pointer to a NUL-terminated string
/// that stays valid for the call.
unsafe fn call(op: u32, arg: usize) -> u32 {
    let ret;
    // SAFETY: `bkpt 0xAB` traps to the debugger (qemu), which performs `op` and returns in r0;
    // it reads only the memory `arg` points to, which the caller vouches for. Without a
    // debugger, the trap is a HardFault that halts, never undefined behaviour.
    unsafe {
        asm!("bkpt 0xAB", inout("r0") op => ret, in("r1") arg, options(nostack, preserves_flags));
    }
    ret
}

/// Ends the run: status 0 when `success`, else 1 (as qemu reports it).
pub fn exit(success: bool) -> ! {
    let reason = if success {
        APPLICATION_EXIT
    } else {
        RUN_TIME_ERROR
    };
    // SAFETY: on 32-bit ARM, SYS_EXIT takes the reason code itself in r1, not a pointer.
    unsafe { call(SYS_EXIT, reason as usize) };
    crate::halt()
}

/// A console writer: `write!(Console::new(), ...)` prints through SYS_WRITE0, a line at a time.
pub struct Console {
    line: [u8; 128],
    len: usize,
}

impl Console {
    /// An empty line.
    pub const fn new() -> Self {
        Self {
            line: [0; 128],
            len: 0,
        }
    }

    fn flush(&mut self) {
        if self.len == 0 {
            return;
        }
        self.line[self.len] = 0;
        // SAFETY: `line[..=len]` is a NUL-terminated string in this struct, alive for the call.
        unsafe { call(SYS_WRITE0, self.line.as_ptr() as usize) };
        self.len = 0;
    }
}

impl Default for Console {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Write for Console {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        for &b in s.as_bytes() {
            // A NUL would end the string early; semihosting output is text.
            self.line[self.len] = if b == 0 { b'?' } else { b };
            self.len += 1;
            // Keep one byte for the terminating NUL.
            if b == b'\n' || self.len == self.line.len() - 1 {
                self.flush();
            }
        }
        Ok(())
    }
}

impl Drop for Console {
    fn drop(&mut self) {
        self.flush();
    }
}
