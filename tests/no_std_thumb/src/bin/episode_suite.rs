//! The scripted episode (`src/episode.rs`) with the suite capacity set, for qemu-system-arm:
//! prints its digest and peak stack over semihosting. `examples/episode_host.rs` prints the
//! same digest on the host.
#![no_std]
#![no_main]

use cortex_m_rt::entry;
use evoharness_no_std_thumb::episode::suite;
use evoharness_no_std_thumb::run_episode;

#[entry]
fn main() -> ! {
    run_episode(suite::NAME, suite::run)
}
