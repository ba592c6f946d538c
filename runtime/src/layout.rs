//! The structured-v1 layout as JSON, for code in other languages (the Python package, training
//! scripts) that must take sizes, offsets and the meaning of each template from the one
//! source of truth instead of re-typing them.

use evoharness_core::Capacities;
use evoharness_core::obs::{ABI, LAYOUT_VERSION, Layout, Template, Width};
use serde_json::{Value, json};

use crate::error::{Error, ErrorKind, Result};

/// The verb of a template, as the JSON names it: `finish`, `act`, `track`, `commit`, `recall`
/// or `note`.
pub fn template_verb(t: Template) -> &'static str {
    match t {
        Template::Finish { .. } => "finish",
        Template::Act { .. } => "act",
        Template::Track { .. }
        | Template::Confirm { .. }
        | Template::Retract { .. }
        | Template::Compress => "track",
        Template::Plan { .. } | Template::Step { .. } | Template::Cursor { .. } => "commit",
        Template::Recall { .. } => "recall",
        Template::NoteFact { .. }
        | Template::NoteField { .. }
        | Template::Rate { .. }
        | Template::Consolidate => "note",
    }
}

/// The layout for `caps` as a JSON object: `abi`, `layout_version`, the capacities
/// (`facts`, `steps`, `lessons`, `tools`), `obs_len`, `actions`, `segments` (each with `name`,
/// `offset`, `rows`, `width` and `features` as `[name, width]` pairs), and `templates`: for
/// every template index, `[verb, tool]` with the tool index of an `act` template and -1
/// otherwise. Capacities out of range are a [`ErrorKind::Config`] error.
pub fn layout_json(caps: Capacities) -> Result<String> {
    caps.validate()
        .map_err(|e| Error::new(ErrorKind::Config, format!("capacities: {e}")))?;
    let l = Layout::new(caps);
    let segments: Vec<Value> = l
        .segments()
        .iter()
        .map(|s| {
            let features: Vec<Value> = s
                .features
                .iter()
                .map(|f| {
                    let w = match f.width {
                        Width::Fixed(n) => n,
                        Width::Tools => usize::from(caps.tools),
                    };
                    json!([f.name, w])
                })
                .collect();
            json!({
                "name": s.name,
                "offset": s.offset,
                "rows": s.rows,
                "width": s.width,
                "features": features,
            })
        })
        .collect();
    let templates: Vec<Value> = (0..l.actions())
        .filter_map(|i| l.template(i))
        .map(|t| {
            let tool = match t {
                Template::Act { tool, .. } => i64::from(tool),
                _ => -1,
            };
            json!([template_verb(t), tool])
        })
        .collect();
    Ok(json!({
        "abi": ABI,
        "layout_version": LAYOUT_VERSION,
        "facts": caps.facts,
        "steps": caps.steps,
        "lessons": caps.lessons,
        "tools": caps.tools,
        "obs_len": l.obs_len(),
        "actions": l.actions(),
        "segments": segments,
        "templates": templates,
    })
    .to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The task suite's capacities: 16 facts, 8 steps, 4 lessons, 8 tools.
    const CAPACITIES: Capacities = Capacities {
        facts: 16,
        steps: 8,
        lessons: 4,
        tools: 8,
    };

    #[test]
    fn the_suite_layout_has_every_size_and_template() {
        let v: Value = serde_json::from_str(&layout_json(CAPACITIES).unwrap()).unwrap();
        assert_eq!(v["obs_len"], 564);
        assert_eq!(v["actions"], 348);
        assert_eq!(v["templates"].as_array().unwrap().len(), 348);
        assert_eq!(v["templates"][0], json!(["finish", -1]));
        assert_eq!(v["templates"][2], json!(["act", 0]));
        let segs = v["segments"].as_array().unwrap();
        assert_eq!(segs.len(), 6);
        let last = &segs[5];
        assert_eq!(
            last["offset"].as_u64().unwrap()
                + last["rows"].as_u64().unwrap() * last["width"].as_u64().unwrap(),
            564
        );
        let bad = Capacities {
            tools: 0,
            ..CAPACITIES
        };
        assert!(layout_json(bad).is_err());
    }
}
