//! Prints the structured layout for given capacities as JSON, so that code in other
//! languages (fixture and training scripts) takes its sizes from the one source of truth.
//!
//! `cargo run -q -p evoharness-core --example layout -- FACTS STEPS LESSONS TOOLS [VERSION]`
//! (VERSION: 1 for structured-v1, the default, or 2 for structured-v2)

use evoharness_core::Capacities;
use evoharness_core::obs::{Layout, Version, Width};

fn main() {
    let args: Vec<u16> = std::env::args()
        .skip(1)
        .map(|a| {
            a.parse()
                .unwrap_or_else(|_| usage(&format!("not a number: {a}")))
        })
        .collect();
    let (facts, steps, lessons, tools, version) = match args[..] {
        [f, s, l, t] => (f, s, l, t, 1),
        [f, s, l, t, v] => (f, s, l, t, v),
        _ => usage("four or five numbers expected"),
    };
    let Some(version) = Version::from_number(u32::from(version)) else {
        usage(&format!("layout version {version}: 1 or 2"))
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
    let l = Layout::with_version(caps, version);
    let segments: Vec<String> = l
        .used_segments()
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
        "{{\"abi\": \"{}\", \"layout_version\": {}, \"facts\": {facts}, \"steps\": {steps}, \
         \"lessons\": {lessons}, \"tools\": {tools}, \"obs_len\": {}, \"actions\": {}, \"segments\": [{}]}}",
        version.abi(),
        version.number(),
        l.obs_len(),
        l.actions(),
        segments.join(", ")
    );
}

fn usage(why: &str) -> ! {
    eprintln!("layout: {why}\nusage: layout FACTS STEPS LESSONS TOOLS [VERSION]");
    std::process::exit(2)
}
