//! Prints the structured-v1 layout for given capacities as JSON, so that code in other
//! languages (fixture and training scripts) takes its sizes from the one source of truth.
//!
//! `cargo run -q -p evoharness-core --example layout -- FACTS STEPS LESSONS TOOLS`

use evoharness_core::Capacities;
use evoharness_core::obs::{ABI, LAYOUT_VERSION, Layout, Width};

fn main() {
    let args: Vec<u16> = std::env::args()
        .skip(1)
        .map(|a| {
            a.parse()
                .unwrap_or_else(|_| usage(&format!("not a number: {a}")))
        })
        .collect();
    let [facts, steps, lessons, tools] = args[..] else {
        usage("four numbers expected")
    };
    let caps = Capacities {
        facts,
        steps,
        lessons,
        tools,
    };
    if let Err(e) = caps.validate() {
        usage(&e.to_string());
    }
    let l = Layout::new(caps);
    let segments: Vec<String> = l
        .segments()
        .iter()
        .map(|s| {
            let features: Vec<String> = s
                .features
                .iter()
                .map(|f| {
                    let w = match f.width {
                        Width::Fixed(n) => n,
                        Width::Tools => usize::from(tools),
                    };
                    format!("[\"{}\", {w}]", f.name)
                })
                .collect();
            format!(
                "{{\"name\": \"{}\", \"offset\": {}, \"rows\": {}, \"width\": {}, \"features\": [{}]}}",
                s.name,
                s.offset,
                s.rows,
                s.width,
                features.join(", ")
            )
        })
        .collect();
    println!(
        "{{\"abi\": \"{ABI}\", \"layout_version\": {LAYOUT_VERSION}, \"facts\": {facts}, \"steps\": {steps}, \
         \"lessons\": {lessons}, \"tools\": {tools}, \"obs_len\": {}, \"actions\": {}, \"segments\": [{}]}}",
        l.obs_len(),
        l.actions(),
        segments.join(", ")
    );
}

fn usage(why: &str) -> ! {
    eprintln!("layout: {why}\nusage: layout FACTS STEPS LESSONS TOOLS");
    std::process::exit(2)
}
