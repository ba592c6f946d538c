//! `evoharness view` as a process: a page from a real trace that holds the trace and needs no
//! network, typed errors for what cannot be read, and the `--follow` server's answers.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn evoharness() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_evoharness"));
    c.env_remove("EVOHARNESS_ORT_LIB");
    c
}

fn temp(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("evoharness-view-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

/// A trace of the fixture policy in the fixture world.
fn trace(name: &str) -> PathBuf {
    let file = temp(name);
    let policy =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../runtime/tests/fixtures/mlp.onnx");
    let o = evoharness()
        .args([
            "run",
            policy.to_str().unwrap(),
            "--backend",
            "tract",
            "--budget",
            "30",
        ])
        .args(["--trace", file.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    file
}

#[test]
fn a_page_holds_the_trace_and_needs_no_network() {
    let t = trace("page.jsonl");
    let page = temp("page.html");
    let o = evoharness()
        .args(["view", t.to_str().unwrap(), "-o", page.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let steps = std::fs::read_to_string(&t).unwrap().lines().count();
    assert!(String::from_utf8_lossy(&o.stdout).contains(&format!("{steps} steps in 1 episode")));
    let html = std::fs::read_to_string(&page).unwrap();
    // The data: one verb per step, embedded where the marker was.
    let start = html
        .find(r#"<script id="data" type="application/json">"#)
        .unwrap();
    let json = &html[start..].split_once('>').unwrap().1;
    let json = json.split_once("</script>").unwrap().0;
    let data: serde_json::Value = serde_json::from_str(json).unwrap();
    assert_eq!(data["verb"].as_array().unwrap().len(), steps);
    // Nothing is fetched from elsewhere.
    for needle in ["http://", "https://", " src=", "@import", "url("] {
        assert!(!html.contains(needle), "the page holds `{needle}`");
    }
    let _ = std::fs::remove_file(&t);
    let _ = std::fs::remove_file(&page);
}

#[test]
fn what_cannot_be_read_is_a_clear_error_or_a_listed_line() {
    let o = evoharness()
        .args(["view", "/nonexistent/t.jsonl", "-o", "x.html"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("/nonexistent/t.jsonl: cannot open the trace"),
        "{err}"
    );
    let o = evoharness().args(["view", "t.jsonl"]).output().unwrap();
    assert!(String::from_utf8_lossy(&o.stderr).contains("missing `-o REPORT.html`"));
    let o = evoharness()
        .args(["view", "t.jsonl", "--port", "9"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&o.stderr).contains("`--port` goes with `--follow`"));
    // Binary garbage and a cut line: listed, the page still made.
    let t = temp("bad.jsonl");
    let good = std::fs::read(trace("good.jsonl")).unwrap();
    let mut bytes = b"\xff\xfe\x00garbage\n".to_vec();
    bytes.extend_from_slice(&good[..good.len() - 20]);
    std::fs::write(&t, bytes).unwrap();
    let page = temp("bad.html");
    let o = evoharness()
        .args(["view", t.to_str().unwrap(), "-o", page.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("2 line(s) could not be read") && err.contains("line 1: not UTF-8"),
        "{err}"
    );
    let _ = std::fs::remove_file(&t);
    let _ = std::fs::remove_file(&page);
}

fn get(port: u16, path: &str, host: &str) -> (String, String) {
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(s, "GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n").unwrap();
    let mut r = String::new();
    s.read_to_string(&mut r).unwrap();
    let (head, body) = r.split_once("\r\n\r\n").unwrap();
    (head.lines().next().unwrap().to_string(), body.to_string())
}

#[test]
fn follow_serves_the_page_and_the_growing_trace_on_loopback_only() {
    let full = std::fs::read_to_string(trace("full.jsonl")).unwrap();
    let lines: Vec<&str> = full.lines().collect();
    let live = temp("live.jsonl");
    std::fs::write(&live, format!("{}\n", lines[..3].join("\n"))).unwrap();
    let mut server = evoharness()
        .args(["view", live.to_str().unwrap(), "--follow", "--port", "0"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    let mut out = server.stdout.take().unwrap();
    let mut byte = [0u8];
    while out.read(&mut byte).unwrap() == 1 && byte[0] != b'\n' {
        first.push(byte[0] as char);
    }
    let addr = first.split_whitespace().nth(1).unwrap();
    assert!(addr.starts_with("http://127.0.0.1:"), "{first}");
    let port: u16 = addr
        .trim_end_matches('/')
        .rsplit(':')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let host = format!("127.0.0.1:{port}");
    let (status, page) = get(port, "/", &host);
    assert!(
        status.contains("200") && page.contains("evoharness trace"),
        "{status}"
    );
    let data = |from: usize| -> serde_json::Value {
        let (status, body) = get(
            port,
            &format!("/data?from={from}&strings=0&generation=0"),
            &host,
        );
        assert!(status.contains("200"), "{status}");
        let v: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert_eq!(v["generation"], 0);
        v["payload"].clone()
    };
    assert_eq!(data(0)["verb"].as_array().unwrap().len(), 3);
    // Half a line is not a step yet; the rest of it and more lines are.
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&live)
        .unwrap();
    f.write_all(&lines[3].as_bytes()[..10]).unwrap();
    f.flush().unwrap();
    assert_eq!(data(3)["verb"].as_array().unwrap().len(), 0);
    f.write_all(format!("{}\n{}\n", &lines[3][10..], lines[4]).as_bytes())
        .unwrap();
    f.flush().unwrap();
    let d = data(3);
    assert_eq!(
        (d["from"].as_u64(), d["verb"].as_array().unwrap().len()),
        (Some(3), 2)
    );
    assert_eq!(d["badCount"], 0);
    // Nothing else is served, and only under the loopback name.
    assert!(get(port, "/../../etc/passwd", &host).0.contains("404"));
    assert!(get(port, "/", "evil.example:80").0.contains("403"));
    server.kill().unwrap();
    let _ = server.wait();
    let _ = std::fs::remove_file(&live);
}

/// `eval --trace` of a rule that writes stale records (the records task, seed 2: wrong writes):
/// the lines carry the world's count of the violations steps caused where it changed,
/// never falling, and its rises are the eval's duplicates and wrong writes.
#[test]
fn trace_lines_say_at_which_steps_violations_happened() {
    let t = temp("violations.jsonl");
    let o = evoharness()
        .args([
            "eval",
            "--task",
            "records",
            "--agent",
            "append-only",
            "--seeds",
            "2..3",
            "--horizon",
            "150",
            "--organisations",
            "1",
            "--json",
            "--trace",
            t.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let caused = report["duplicates"].as_u64().unwrap() + report["wrong_writes"].as_u64().unwrap();
    assert!(caused > 0, "{report}");
    let text = std::fs::read_to_string(&t).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut count = lines[0]["begin"]["violations"].as_u64().unwrap();
    assert_eq!(count, 0);
    let mut rises = 0;
    for l in &lines {
        if let Some(v) = l["violations"].as_u64() {
            assert!(
                v > count,
                "written only where it changed, and it never falls"
            );
            rises += v - count;
            count = v;
        }
    }
    assert_eq!(rises, caused);
    let _ = std::fs::remove_file(&t);
}

/// The `--follow` server answers a long trace in bounded pieces, each with the strings its steps
/// need; the page asks again until it has them all.
#[test]
fn follow_answers_a_long_trace_in_pieces() {
    let t = temp("long.jsonl");
    let o = evoharness()
        .args([
            "eval",
            "--task",
            "migration",
            "--agent",
            "tuned",
            "--seeds",
            "0..1",
            "--horizon",
            "60000",
            "--organisations",
            "1",
            "--trace",
            t.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let steps = std::fs::read_to_string(&t).unwrap().lines().count();
    assert!(steps > 50_000, "{steps}");
    let mut server = evoharness()
        .args(["view", t.to_str().unwrap(), "--follow"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    let mut out = server.stdout.take().unwrap();
    let mut byte = [0u8];
    while out.read(&mut byte).unwrap() == 1 && byte[0] != b'\n' {
        first.push(byte[0] as char);
    }
    let port: u16 = first
        .split_whitespace()
        .nth(1)
        .unwrap()
        .trim_end_matches('/')
        .rsplit(':')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let host = format!("127.0.0.1:{port}");
    let (mut from, mut strings, mut answers) = (0, 0, 0);
    while from < steps {
        let (_, body) = get(
            port,
            &format!("/data?from={from}&strings={strings}&generation=0"),
            &host,
        );
        let p = serde_json::from_str::<serde_json::Value>(&body).unwrap()["payload"].clone();
        assert_eq!(p["steps"], steps);
        let n = p["verb"].as_array().unwrap().len();
        assert!(n > 0 && n <= 50_000 + 4096, "{n}");
        from += n;
        strings += p["strings"].as_array().unwrap().len();
        answers += 1;
    }
    assert_eq!((from, answers), (steps, 2));
    server.kill().unwrap();
    let _ = server.wait();
    let _ = std::fs::remove_file(&t);
}
