//! Peak stack use, measured by painting: fill the unused stack with a pattern, run, and find
//! the lowest word that no longer holds it. Everything the episode keeps (both workspaces, the
//! observation, the mask, the snapshot and frame buffers) lives on the stack, so the peak is
//! the RAM it needs besides the statics.
//!
//! The stack runs from cortex-m-rt's `_stack_start` (the initial stack pointer, the top of RAM)
//! down to `_stack_end` (the end of the statics); see its `link.x`.

use core::arch::asm;
use core::ptr;

unsafe extern "C" {
    /// The stack's top: the initial stack pointer.
    static _stack_start: u32;
    /// The lowest address the stack may reach: the end of `.data`, `.bss` and `.uninit`.
    static _stack_end: u32;
}

/// The pattern; a used stack word holds it only by an unlikely coincidence.
const PAINT: u32 = 0x5A17_C0DE;

fn top() -> usize {
    // Only the symbol's address is used, never its value.
    (&raw const _stack_start) as usize
}

fn bottom() -> usize {
    (&raw const _stack_end) as usize
}

/// The stack's size in bytes: all the RAM the statics leave.
pub fn size() -> usize {
    top() - bottom()
}

/// Paints the stack below the current stack pointer. Call it first thing in `main`, with
/// interrupts off (an exception handler would push onto the painted area meanwhile, which is
/// harmless but makes the peak include it).
#[inline(never)]
pub fn paint() {
    let sp: usize;
    // SAFETY: reads the stack pointer into a register; no memory is touched.
    unsafe { asm!("mov {}, sp", out(reg) sp, options(nomem, nostack, preserves_flags)) };
    let mut p = bottom();
    while p + 4 <= sp {
        // SAFETY: [bottom, sp) is RAM that the linker left to the stack (cortex-m-rt checks
        // `_stack_end` is word-aligned) and that lies below the stack pointer, so no live frame
        // or static is there; nothing else in this program owns it.
        unsafe { ptr::write_volatile(p as *mut u32, PAINT) };
        p += 4;
    }
}

/// The most stack used since [`paint`], in bytes: from the top down to the lowest word that
/// no longer holds the pattern.
pub fn peak() -> usize {
    let mut p = bottom();
    while p < top() {
        // SAFETY: [bottom, top) is the stack's RAM, mapped and word-aligned; reading a word of
        // it (painted, or written by a frame since) has no side effect.
        if unsafe { ptr::read_volatile(p as *const u32) } != PAINT {
            break;
        }
        p += 4;
    }
    top() - p
}
