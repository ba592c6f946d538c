//! Each crate's modules form layers: no module imports one that (directly or through others)
//! imports it back. A reader can then list the modules bottom-up, and a new circle fails here
//! with the modules that form it.
//!
//! The graph comes from the source text: a module `m` depends on module `n` when `m`'s files
//! (its own file and its submodules' files, test modules left out) name `crate::n`, also inside
//! a grouped `use crate::{n::..., ...}`. The crate root (`lib.rs` or `main.rs`) declares and
//! re-exports modules and is above all of them, so paths to root items (`crate::KEY_MAX`) are
//! not edges.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The crates whose modules must form layers, relative to the workspace root.
const CRATES: &[&str] = &[
    "core",
    "native",
    "runtime",
    "train",
    "suite",
    "cli",
    "fleet",
    "bindings/c",
    "bindings/train-c",
];

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Every `.rs` file under `dir`, recursively.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The source without line comments and without a trailing `#[cfg(test)] mod tests` block.
fn code_of(text: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("#[cfg(test)]")
            && lines
                .peek()
                .is_some_and(|next| next.trim_start().starts_with("mod tests"))
        {
            break;
        }
        if trimmed.starts_with("//") {
            continue;
        }
        out.push_str(line.split(" // ").next().unwrap_or(line));
        out.push('\n');
    }
    out
}

fn identifier_at(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The first path segment of every `crate::...` path in `code`, grouped uses included.
fn crate_paths(code: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // Top-level items of the group: the segment after `{` and after each depth-1 comma.
            let mut depth = 1;
            let mut start = true;
            for (i, c) in group.char_indices() {
                if start && !c.is_whitespace() {
                    found.insert(identifier_at(&group[i..]).to_string());
                    start = false;
                }
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    ',' if depth == 1 => start = true,
                    _ => {}
                }
            }
        } else {
            found.insert(identifier_at(rest).to_string());
        }
    }
    found
}

/// Module name → the modules it names, for one crate.
fn module_graph(krate: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let src = krate.join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let module_of = |file: &Path| -> Option<String> {
        let rel = file.strip_prefix(&src).unwrap();
        let first = rel.components().next()?.as_os_str().to_str()?.to_string();
        let name = first.strip_suffix(".rs").unwrap_or(&first).to_string();
        // The root, and binaries of their own, are not modules of the crate.
        (!matches!(name.as_str(), "lib" | "main" | "bin")).then_some(name)
    };
    let modules: BTreeSet<String> = files.iter().filter_map(|f| module_of(f)).collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = modules
        .iter()
        .map(|m| (m.clone(), BTreeSet::new()))
        .collect();
    for file in &files {
        let Some(module) = module_of(file) else {
            continue;
        };
        let code = code_of(&fs::read_to_string(file).unwrap());
        for target in crate_paths(&code) {
            if target != module && modules.contains(&target) {
                graph.get_mut(&module).unwrap().insert(target);
            }
        }
    }
    graph
}

/// The strongly connected components with more than one module (Tarjan).
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct Tarjan<'a> {
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        found: Vec<Vec<String>>,
    }
    impl<'a> Tarjan<'a> {
        fn visit(&mut self, v: &'a str) {
            let i = self.index.len();
            self.index.insert(v, i);
            self.low.insert(v, i);
            self.stack.push(v);
            self.on_stack.insert(v);
            for w in &self.graph[v] {
                let w = w.as_str();
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w]);
                    self.low.insert(v, low);
                } else if self.on_stack.contains(w) {
                    let low = self.low[v].min(self.index[w]);
                    self.low.insert(v, low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut component = Vec::new();
                loop {
                    let w = self.stack.pop().unwrap();
                    self.on_stack.remove(w);
                    component.push(w.to_string());
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    self.found.push(component);
                }
            }
        }
    }
    let mut t = Tarjan {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in graph.keys() {
        if !t.index.contains_key(v.as_str()) {
            t.visit(v);
        }
    }
    t.found
}

/// The modules bottom-up: each after everything it names (the graph has no circles).
fn layers(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    let mut placed: BTreeSet<&str> = BTreeSet::new();
    let mut out = Vec::new();
    while placed.len() < graph.len() {
        let layer: Vec<String> = graph
            .iter()
            .filter(|(m, deps)| {
                !placed.contains(m.as_str()) && deps.iter().all(|d| placed.contains(d.as_str()))
            })
            .map(|(m, _)| m.clone())
            .collect();
        assert!(!layer.is_empty(), "no layer can be placed: a circle");
        placed.extend(
            graph
                .keys()
                .filter(|m| layer.contains(m))
                .map(String::as_str),
        );
        out.push(layer);
    }
    out
}

#[test]
fn no_module_imports_one_that_imports_it_back() {
    let root = workspace_root();
    let mut failures = Vec::new();
    for krate in CRATES {
        let graph = module_graph(&root.join(krate));
        assert!(
            graph.len() > 1,
            "{krate}: found no modules; is the path right?"
        );
        let found = circles(&graph);
        if found.is_empty() {
            println!("{krate}, bottom-up:");
            for (depth, layer) in layers(&graph).iter().enumerate() {
                println!("  {depth}: {}", layer.join(" "));
            }
        } else {
            for circle in found {
                failures.push(format!("{krate}: {}", circle.join(" <-> ")));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "modules that import each other:\n{}",
        failures.join("\n")
    );
}

#[test]
fn the_checker_sees_grouped_uses_and_finds_a_circle() {
    let code = code_of(
        "use crate::{a::X, b, c::{D, E}};\n// use crate::commented;\nfn f() { crate::g::h(); }\n\
         #[cfg(test)]\nmod tests { use crate::only_in_tests; }\n",
    );
    let names: Vec<String> = crate_paths(&code).into_iter().collect();
    assert_eq!(names, ["a", "b", "c", "g"]);

    let graph: BTreeMap<String, BTreeSet<String>> = [
        ("x", vec!["y"]),
        ("y", vec!["z"]),
        ("z", vec!["x"]),
        ("w", vec!["x"]),
    ]
    .into_iter()
    .map(|(m, deps)| (m.to_string(), deps.into_iter().map(String::from).collect()))
    .collect();
    assert_eq!(
        circles(&graph),
        vec![vec!["x".to_string(), "y".into(), "z".into()]]
    );
    let acyclic: BTreeMap<String, BTreeSet<String>> = [("a", vec![]), ("b", vec!["a"])]
        .into_iter()
        .map(|(m, deps)| (m.to_string(), deps.into_iter().map(String::from).collect()))
        .collect();
    assert_eq!(
        layers(&acyclic),
        vec![vec!["a".to_string()], vec!["b".to_string()]]
    );
}
