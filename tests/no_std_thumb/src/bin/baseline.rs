//! The firmware skeleton without evoharness-core: reset handler, vector table, panic handler
//! and a main loop whose work the optimiser cannot remove. `check.sh` subtracts its size from
//! the firmware's to tell what the workspace and the protocol cost.
#![no_std]
#![no_main]

use core::hint::black_box;

use cortex_m_rt::entry;
use evoharness_no_std_thumb::check;

#[entry]
fn main() -> ! {
    let mut tick: u32 = 0;
    loop {
        tick = tick.wrapping_add(black_box(1));
        check(black_box(tick) != u32::MAX);
    }
}
