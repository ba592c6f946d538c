#!/usr/bin/env python3
"""Checks the book (docs/src/*.md), the README, the changelog and .ci/README.md the way a reader
meets them: every relative link and #anchor resolves, and every code block is what it says.

- Links: a relative path must exist from the page's folder; an anchor (`#x` or `page.md#x`) must
  be a heading of that page, slugged as GitHub and mdBook do. Links to this repository's files
  on GitHub (the book's links out of the book) are checked against the checkout: nothing goes
  to the network.
- Code blocks, by the first word of the info string: `sh`/`bash` parse (`bash -n`); `c` and
  `cpp` compile as the C ABI's test programs do (`-Wall -Wextra -Wpedantic -Werror`), and with
  `--run LIBDIR` a whole program (one with `main`) links against LIBDIR's libevoharness and
  runs from the repository root; `python` compiles; `toml` and `json` parse; `text` and
  `console` are not code. Rust blocks are doctests: the page must be included by tests/docs.rs,
  which `cargo test --workspace` compiles and runs. A block without a language fails (rustdoc
  would take it for Rust), and so does one in a language this script does not know.
  `ignore` after the language (`c ignore`, `rust,ignore`) skips a block that cannot stand
  alone; each is counted in the summary.

    scripts/check-docs.py [--run LIBDIR]
"""

import argparse
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import tomllib
import unicodedata

ROOT = pathlib.Path(__file__).resolve().parent.parent
REPO_URLS = ("https://github.com/evoharness/evoharness/blob/main/",
             "https://github.com/evoharness/evoharness/tree/main/",
             "https://raw.githubusercontent.com/evoharness/evoharness/main/")
DOCTESTS = ROOT / "tests" / "docs.rs"
FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})(.*)$")
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")


def pages():
    out = sorted((ROOT / "docs" / "src").glob("*.md"))
    out += [ROOT / "README.md", ROOT / "CHANGELOG.md", ROOT / ".ci" / "README.md"]
    return out


def split(text):
    """The page's prose lines (code blocks blanked) and its code blocks (info, code, line)."""
    prose, blocks, fence = [], [], None
    for n, line in enumerate(text.split("\n"), 1):
        m = FENCE.match(line)
        if fence is None and m and "`" not in m.group(3):
            fence, info, start, code = m.group(2), m.group(3).strip(), n, []
            prose.append("")
        elif fence is not None and line.strip().startswith(fence[0] * len(fence)) \
                and set(line.strip()) == {fence[0]}:
            blocks.append((info, "\n".join(code) + "\n", start))
            fence = None
            prose.append("")
        elif fence is not None:
            code.append(line)
            prose.append("")
        else:
            prose.append(line)
    if fence is not None:
        raise SystemExit(f"a code block opened at line {start} is never closed")
    return prose, blocks


def slug(heading):
    """GitHub's anchor for a heading (mdBook's is the same for the headings we write)."""
    text = re.sub(r"`([^`]*)`", r"\1", heading)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"<[^>]+>", "", text).strip().lower()
    out = []
    for ch in text:
        if ch in "-_" or ch.isalnum() or unicodedata.category(ch).startswith("M"):
            out.append(ch)
        elif ch == " ":
            out.append("-")
    return "".join(out)


_anchors = {}


def anchors(path):
    if path not in _anchors:
        prose, _ = split(path.read_text())
        seen, found = {}, set()
        for line in prose:
            m = re.match(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$", line)
            if not m:
                continue
            s = slug(m.group(2))
            n = seen.get(s, 0)
            seen[s] = n + 1
            found.add(s if n == 0 else f"{s}-{n}")
        _anchors[path] = found
    return _anchors[path]


def check_link(page, target, errors, where):
    for prefix in REPO_URLS:
        if target.startswith(prefix):
            rel, base = target[len(prefix):], ROOT
            break
    else:
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):
            return  # another site: not checked (no network)
        rel, base = target, page.parent
    path_part, _, anchor = rel.partition("#")
    path = (base / path_part).resolve() if path_part else page
    if not path.exists():
        errors.append(f"{where}: {target}: no such file")
        return
    if anchor:
        if path.suffix != ".md":
            errors.append(f"{where}: {target}: an anchor into a file that is not Markdown")
        elif anchor not in anchors(path):
            errors.append(f"{where}: {target}: no heading with that anchor in {path.relative_to(ROOT)}")


def compile_c(lang, code, name, run_dir, errors, where, tmp):
    is_c = lang == "c"
    src = pathlib.Path(tmp) / (name + (".c" if is_c else ".cpp"))
    src.write_text(code)
    cmd = ["cc", "-std=c11"] if is_c else ["c++", "-std=c++17"]
    cmd += ["-Wall", "-Wextra", "-Wpedantic", "-Werror", f"-I{ROOT}/bindings/c/include",
            f"-I{ROOT}/bindings/train-c/include", f"-I{ROOT}/bindings/cpp/include"]
    whole = re.search(r"\bint\s+main\s*\(", code) is not None
    exe = pathlib.Path(tmp) / name
    if run_dir and whole:
        cmd += [str(src), f"-L{run_dir}", "-levoharness", f"-Wl,-rpath,{run_dir}", "-o", str(exe)]
    else:
        cmd += ["-c", str(src), "-o", str(exe) + ".o"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        errors.append(f"{where}: does not compile:\n{r.stderr}")
        return False
    if run_dir and whole:
        env = {k: v for k, v in os.environ.items() if k != "EVOHARNESS_ORT_LIB"}
        r = subprocess.run([str(exe)], cwd=ROOT, capture_output=True, text=True, env=env,
                           timeout=300)
        if r.returncode != 0:
            errors.append(f"{where}: exits with {r.returncode}:\n{r.stdout}{r.stderr}")
            return False
        return "ran"
    return "compiled"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--run", metavar="LIBDIR",
                    help="link whole C and C++ programs against LIBDIR/libevoharness and run them")
    args = ap.parse_args()
    run_dir = str(pathlib.Path(args.run).resolve()) if args.run else None
    doctests = DOCTESTS.read_text() if DOCTESTS.exists() else ""
    errors, counts = [], {}

    def count(key):
        counts[key] = counts.get(key, 0) + 1

    with tempfile.TemporaryDirectory() as tmp:
        for page in pages():
            rel = page.relative_to(ROOT)
            text = page.read_text()
            prose, blocks = split(text)
            for n, line in enumerate(prose, 1):
                line = re.sub(r"`[^`]*`", "", line)
                for m in LINK.finditer(line):
                    count("links")
                    check_link(page, m.group(1), errors, f"{rel}:{n}")
            rust = False
            for i, (info, code, line) in enumerate(blocks):
                where = f"{rel}:{line}"
                words = [w for w in re.split(r"[,\s]+", info) if w]
                lang = words[0] if words else ""
                if "ignore" in words[1:]:
                    count(f"{lang} ignored")
                    continue
                if lang == "rust":
                    rust = True
                    count("rust (doctests)")
                elif lang in ("sh", "bash", "shell"):
                    r = subprocess.run(["bash", "-n"], input=code, capture_output=True, text=True)
                    if r.returncode != 0:
                        errors.append(f"{where}: shell block does not parse:\n{r.stderr}")
                    count("shell parsed")
                elif lang in ("c", "cpp"):
                    name = re.sub(r"\W", "_", f"{rel}_{line}")
                    done = compile_c(lang, code, name, run_dir, errors, where, tmp)
                    if done:
                        count(f"{lang} {done}")
                elif lang == "python":
                    try:
                        compile(code, where, "exec")
                    except SyntaxError as e:
                        errors.append(f"{where}: Python block does not compile: {e}")
                    count("python compiled")
                elif lang == "toml":
                    try:
                        tomllib.loads(code)
                    except tomllib.TOMLDecodeError as e:
                        errors.append(f"{where}: TOML block does not parse: {e}")
                    count("toml parsed")
                elif lang == "json":
                    try:
                        json.loads(code)
                    except json.JSONDecodeError as e:
                        errors.append(f"{where}: JSON block does not parse: {e}")
                    count("json parsed")
                elif lang in ("text", "console"):
                    count("text")
                elif not lang:
                    errors.append(f"{where}: a code block without a language (rustdoc takes it for Rust)")
                else:
                    errors.append(f"{where}: a code block in `{lang}`, which this script cannot check")
            if rust and f'"../{rel}"' not in doctests and f'"../../{rel}"' not in doctests:
                errors.append(f"{rel}: has Rust blocks, but tests/docs.rs does not include it")
    summary = ", ".join(f"{v} {k}" for k, v in sorted(counts.items()))
    print(f"{len(pages())} pages: {summary}")
    for e in errors:
        print(f"FAIL {e}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
