//! The structured layouts (v1, v2) as JSON, for code in other languages (the Python package, training
//! scripts) that must take sizes, offsets and the meaning of each template from the one
//! source of truth instead of re-typing them.

use evoharness_core::Capacities;
use evoharness_core::obs::{Layout, Template, Version, Width};
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

/// The structured-v1 layout for `caps` as JSON: [`layout_json_of`] with [`Version::V1`].
pub fn layout_json(caps: Capacities) -> Result<String> {
    layout_json_of(caps, Version::V1)
}

/// The layout number `layout_version` (1 or 2) for `caps` as JSON ([`layout_json_of`]); any
/// other number is a [`ErrorKind::Config`] error.
pub fn layout_json_version(caps: Capacities, layout_version: u32) -> Result<String> {
    let version = Version::from_number(layout_version).ok_or_else(|| {
        Error::new(
            ErrorKind::Config,
            format!("layout version {layout_version}: this runtime has 1 and 2"),
        )
    })?;
    layout_json_of(caps, version)
}

/// The layout of `version` for `caps` as a JSON object: `abi`, `layout_version`, the capacities
/// (`facts`, `steps`, `lessons`, `tools`), `obs_len`, `actions`, `segments` (each with `name`,
/// `offset`, `rows`, `width` and `features` as `[name, width]` pairs), and `templates`: for
/// every template index, `[verb, tool]` with the tool index of an `act` template and -1
/// otherwise; `action_texts`: every template's `action-text-v1` line (with its `\n`), what a
/// `generative-v1` policy writes for it (`evoharness_core::text::action`). Capacities out of
/// range are a [`ErrorKind::Config`] error.
pub fn layout_json_of(caps: Capacities, version: Version) -> Result<String> {
    caps.validate()
        .map_err(|e| Error::new(ErrorKind::Config, format!("capacities: {e}")))?;
    let l = Layout::with_version(caps, version);
    let segments: Vec<Value> = l
        .used_segments()
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
    let mut action_texts = Vec::with_capacity(l.actions());
    for t in (0..l.actions()).filter_map(|i| l.template(i)) {
        let mut line = String::new();
        evoharness_core::text::action(t, &mut line)
            .map_err(|_| Error::new(ErrorKind::Config, "writing an action text"))?;
        action_texts.push(line);
    }
    Ok(json!({
        "abi": version.abi(),
        "layout_version": version.number(),
        "facts": caps.facts,
        "steps": caps.steps,
        "lessons": caps.lessons,
        "tools": caps.tools,
        "obs_len": l.obs_len(),
        "actions": l.actions(),
        "segments": segments,
        "templates": templates,
        "action_texts": action_texts,
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
        assert_eq!(v["action_texts"][0], json!("finish ok\n"));
        assert_eq!(v["action_texts"][2], json!("act 0\n"));
        assert_eq!(v["action_texts"].as_array().unwrap().len(), 348);
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

    #[test]
    fn structured_v2_appends_the_harness_segment() {
        let v1: Value = serde_json::from_str(&layout_json(CAPACITIES).unwrap()).unwrap();
        let v2: Value = serde_json::from_str(&layout_json_version(CAPACITIES, 2).unwrap()).unwrap();
        assert_eq!(
            (v2["abi"].as_str(), v2["layout_version"].as_u64()),
            (Some("structured-v2"), Some(2))
        );
        assert_eq!(v2["obs_len"], 579);
        assert_eq!(v2["templates"], v1["templates"]);
        let segs = v2["segments"].as_array().unwrap();
        assert_eq!(segs[..6], v1["segments"].as_array().unwrap()[..]);
        assert_eq!(segs[6]["name"], "harness");
        assert_eq!(segs[6]["offset"], 564);
        assert_eq!(
            layout_json_version(CAPACITIES, 1).unwrap(),
            layout_json(CAPACITIES).unwrap()
        );
        let e = layout_json_version(CAPACITIES, 3).unwrap_err();
        assert!(e.to_string().contains("layout version 3"), "{e}");
    }
}
