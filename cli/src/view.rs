//! `evoharness view`: a trace (`run --trace`, `eval --trace`, or a host's agent writing one
//! through the runtime, C or Python API) as one self-contained HTML page, or served live on
//! loopback while an agent appends to it (`--follow`).
//!
//! The page holds no network reference: its script and styles are inline, and the trace comes
//! in as JSON (embedded, or in follow mode from `/data` on the same server, in pieces). The
//! format it reads is `runtime/TRACE.md`; what reading it holds in memory: [`model`].

mod model;

use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::args::{self, Flag, Usage};
use crate::failure::Failure;
use model::Model;

const FLAGS: &[Flag] = &[
    Flag::value("-o", "a file"),
    Flag::value("--output", "a file"),
    Flag::switch("--follow"),
    Flag::value("--port", "a port number"),
];

/// The page; the trace's name and the data go where the markers are.
const PAGE: &str = include_str!("view/page.html");
const META_MARKER: &str = "/*EVOHARNESS_META*/";
const DATA_MARKER: &str = "/*EVOHARNESS_DATA*/";

/// The most steps one answer of the `--follow` server carries (the page asks again at once for
/// the rest): what an answer costs the server is bounded, whatever the trace's length.
const STEPS_PER_ANSWER: usize = 50_000;

pub(crate) fn help() -> String {
    "\
evoharness view: a trace as a page to read in a browser

Usage:
  evoharness view TRACE.jsonl -o REPORT.html      write one self-contained page (no network needed)
  evoharness view TRACE.jsonl --follow [--port P] serve the page on 127.0.0.1 and update it
                                                  while an agent appends to the trace

Options:
  -o, --output FILE  the page to write
  --follow           serve the page live (loopback only; the page and the trace, nothing else)
  --port P           the port to serve on (default 0: any free port; the address is printed)

The page shows the episodes; a timeline of world and harness actions, error events and the
steps at which the world's count of violations rose (aggregated to the zoom); the budget and
harness actions against steps; how each episode ended and where it went wrong; and the
workspace (event, Belief, Progress, Experience) at any step, chosen with the slider or a click
on the timeline. Actions and lessons are in words, with the world's tool names and argument
values. Step numbers, budget spent and the workspace's lifetime clock are the records' own,
also after a line that cannot be read, which is listed with its line number. Live, the page
stays with the newest step, across episodes, until you pick another episode or step (it says
which). PAGE#ep=N&step=S opens episode N (from 1) at task step S.

Memory: about 220 bytes a step of the trace (the suite's traces), whatever the page's size.
The trace format: runtime/TRACE.md in the source.
"
    .to_string()
}

pub(crate) fn main(args: impl Iterator<Item = String>) -> Result<(), Failure> {
    let p = args::parse("view", FLAGS, args)?;
    if p.help {
        print!("{}", help());
        return Ok(());
    }
    let [trace] = p.positionals([("TRACE", "a trace file, JSON lines")])?;
    let output = match (p.value("-o"), p.value("--output")) {
        (Some(_), Some(_)) => {
            return Err(
                Usage::new("view", "`-o` and `--output` are the same flag; give one").into(),
            );
        }
        (a, b) => a.or(b),
    };
    let port: Option<u16> = p.parse("--port", "a port number (0 to 65535)")?;
    if p.switch("--follow") {
        if output.is_some() {
            return Err(Usage::new("view", "`--follow` serves the page; it takes no `-o`").into());
        }
        return follow(trace, port.unwrap_or(0));
    }
    if port.is_some() {
        return Err(Usage::new("view", "`--port` goes with `--follow`").into());
    }
    let Some(output) = output else {
        return Err(Usage::new(
            "view",
            "missing `-o REPORT.html` (or `--follow` to serve the page live)",
        )
        .into());
    };
    let mut file =
        std::fs::File::open(trace).map_err(|e| Failure::io(trace, "cannot open the trace", &e))?;
    let mut model = Model::default();
    let mut tail = Tail::default();
    tail.read(&mut file, &mut model, true)
        .map_err(|e| Failure::io(trace, "cannot read the trace", &e))?;
    let out = std::fs::File::create(output)
        .map_err(|e| Failure::io(output, "cannot write the page", &e))?;
    let mut out = std::io::BufWriter::with_capacity(1 << 20, out);
    write_page(&mut out, Some(&model), trace)
        .and_then(|()| out.flush())
        .map_err(|e| Failure::io(output, "cannot write the page", &e))?;
    let bad = model.bad_lines();
    println!(
        "{output}: {} steps in {} episode(s) from {trace}",
        model.steps(),
        model.episodes()
    );
    if let Some(b) = bad.first() {
        eprintln!(
            "warning: {trace}: {} line(s) could not be read and are listed on the page; \
             the first: line {}: {}",
            bad.len(),
            b.line,
            b.message
        );
    }
    Ok(())
}

/// Writes the page: with all of the trace's data in it (streamed from the model, never
/// copied), or with none (`None`: `--follow`, whose page asks the server).
fn write_page(w: &mut impl Write, model: Option<&Model>, name: &str) -> std::io::Result<()> {
    let (head, rest) = PAGE.split_once(META_MARKER).unwrap_or((PAGE, ""));
    let (middle, tail) = rest.split_once(DATA_MARKER).unwrap_or((rest, ""));
    w.write_all(head.as_bytes())?;
    let meta = serde_json::json!({"name": name, "follow": model.is_none()});
    let mut safe = ScriptSafe { w, lt: false };
    serde_json::to_writer(&mut safe, &meta)?;
    safe.w.write_all(middle.as_bytes())?;
    match model {
        Some(m) => m.write_payload(0, m.steps(), 0, &mut safe)?,
        None => safe.w.write_all(b"null")?,
    }
    w.write_all(tail.as_bytes())
}

/// JSON inside a `<script>` element: only `</` can end the element early, and JSON has it
/// only inside strings, where `<\/` means the same.
struct ScriptSafe<'a, W: Write> {
    w: &'a mut W,
    /// Whether the last byte written was `<`.
    lt: bool,
}

impl<W: Write> Write for ScriptSafe<'_, W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut start = 0;
        for (i, &b) in buf.iter().enumerate() {
            if b == b'/' && self.lt {
                self.w.write_all(&buf[start..i])?;
                self.w.write_all(b"\\")?;
                start = i;
            }
            self.lt = b == b'<';
        }
        self.w.write_all(&buf[start..])?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.w.flush()
    }
}

/// Where reading a growing trace has got to.
#[derive(Default)]
struct Tail {
    /// Bytes of the file read.
    offset: u64,
    /// The start of a line whose end has not been written yet.
    partial: Vec<u8>,
}

impl Tail {
    /// Feeds the whole lines written since the last read; with `at_end`, a last line without
    /// its end of line too (a finished file: a cut line is reported as such).
    fn read(
        &mut self,
        file: &mut std::fs::File,
        model: &mut Model,
        at_end: bool,
    ) -> std::io::Result<()> {
        file.seek(SeekFrom::Start(self.offset))?;
        let mut r = BufReader::with_capacity(1 << 20, file);
        loop {
            let n = r.read_until(b'\n', &mut self.partial)?;
            if n == 0 {
                break;
            }
            self.offset += n as u64;
            if self.partial.last() == Some(&b'\n') {
                self.partial.pop();
                feed(model, &self.partial);
                self.partial.clear();
            }
        }
        if at_end && !self.partial.is_empty() {
            feed(model, &self.partial);
            self.partial.clear();
        }
        Ok(())
    }
}

fn feed(model: &mut Model, line: &[u8]) {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    match std::str::from_utf8(line) {
        Ok(s) => model.feed(s),
        Err(_) => model.feed_binary(),
    }
}

/// The followed trace, shared by the connections.
struct Followed {
    path: String,
    model: Model,
    tail: Tail,
    /// Bumped when the file was replaced or cut short: the page starts over.
    generation: u64,
}

impl Followed {
    fn refresh(&mut self) -> std::io::Result<()> {
        let mut file = std::fs::File::open(&self.path)?;
        if file.metadata()?.len() < self.tail.offset {
            self.model = Model::default();
            self.tail = Tail::default();
            self.generation += 1;
        }
        self.tail.read(&mut file, &mut self.model, false)
    }
}

fn follow(trace: &str, port: u16) -> Result<(), Failure> {
    // Read once first, so a missing file is an error now, not a blank page.
    let mut state = Followed {
        path: trace.to_string(),
        model: Model::default(),
        tail: Tail::default(),
        generation: 0,
    };
    state
        .refresh()
        .map_err(|e| Failure::io(trace, "cannot read the trace", &e))?;
    let listener = TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, port)))
        .map_err(|e| Failure::io(&format!("127.0.0.1:{port}"), "cannot listen", &e))?;
    let addr = listener
        .local_addr()
        .map_err(|e| Failure::io("127.0.0.1", "cannot listen", &e))?;
    println!("serving http://{addr}/ (following {trace}; Ctrl-C stops)");
    let _ = std::io::stdout().flush();
    let mut page = Vec::new();
    write_page(&mut page, None, trace)
        .map_err(|e| Failure::io(trace, "cannot make the page", &e))?;
    let page = Arc::new(String::from_utf8_lossy(&page).into_owned());
    let state = Arc::new(Mutex::new(state));
    for conn in listener.incoming() {
        let Ok(conn) = conn else { continue };
        let page = Arc::clone(&page);
        let state = Arc::clone(&state);
        std::thread::spawn(move || {
            // A connection that fails is the browser's business; the server goes on.
            let _ = serve(conn, addr.port(), &page, &state);
        });
    }
    Ok(())
}

/// Answers one request: `GET /` (the page) or `GET /data?from=N&strings=M` (what the trace
/// holds from step N and string M on); anything else is refused.
fn serve(
    mut conn: TcpStream,
    port: u16,
    page: &str,
    state: &Mutex<Followed>,
) -> std::io::Result<()> {
    conn.set_read_timeout(Some(Duration::from_secs(10)))?;
    let head = read_head(&mut conn)?;
    let mut lines = head.lines();
    let request = lines.next().unwrap_or("");
    let mut parts = request.split(' ');
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    // A page on another site cannot reach this server through a name that resolves to
    // loopback (DNS rebinding): the Host must be the loopback address itself.
    let host_ok = lines.any(|l| {
        l.split_once(':').is_some_and(|(k, v)| {
            k.eq_ignore_ascii_case("host")
                && [format!("127.0.0.1:{port}"), format!("localhost:{port}")]
                    .iter()
                    .any(|h| h == v.trim())
        })
    });
    if !host_ok {
        return respond(
            &mut conn,
            "403 Forbidden",
            "text/plain",
            b"forbidden host\n",
        );
    }
    if method != "GET" {
        return respond(
            &mut conn,
            "405 Method Not Allowed",
            "text/plain",
            b"GET only\n",
        );
    }
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    match path {
        "/" => respond(
            &mut conn,
            "200 OK",
            "text/html; charset=utf-8",
            page.as_bytes(),
        ),
        "/data" => {
            let arg = |name: &str| {
                query
                    .split('&')
                    .filter_map(|kv| kv.split_once('='))
                    .find(|(k, _)| *k == name)
                    .and_then(|(_, v)| v.parse::<u64>().ok())
                    .unwrap_or(0)
            };
            let body = {
                let mut s = state
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                let _ = s.refresh();
                let (from, strings) = if arg("generation") == s.generation {
                    (arg("from"), arg("strings"))
                } else {
                    (0, 0)
                };
                let from = usize::try_from(from).unwrap_or(usize::MAX);
                let to = s.model.chunk_end(from, STEPS_PER_ANSWER);
                let mut body =
                    format!(r#"{{"generation":{},"payload":"#, s.generation).into_bytes();
                s.model.write_payload(
                    from,
                    to,
                    usize::try_from(strings).unwrap_or(usize::MAX),
                    &mut body,
                )?;
                body.push(b'}');
                body
            };
            respond(&mut conn, "200 OK", "application/json", &body)
        }
        _ => respond(&mut conn, "404 Not Found", "text/plain", b"not found\n"),
    }
}

/// The request's head, up to 16 KiB.
fn read_head(conn: &mut TcpStream) -> std::io::Result<String> {
    let mut head = Vec::new();
    let mut buf = [0u8; 2048];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = conn.read(&mut buf)?;
        if n == 0 || head.len() > 16 * 1024 {
            break;
        }
        head.extend_from_slice(&buf[..n]);
    }
    Ok(String::from_utf8_lossy(&head).into_owned())
}

fn respond(conn: &mut TcpStream, status: &str, kind: &str, body: &[u8]) -> std::io::Result<()> {
    write!(
        conn,
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\n\
         Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n\
         Content-Security-Policy: default-src 'none'; script-src 'unsafe-inline'; \
         style-src 'unsafe-inline'; img-src data:; connect-src 'self'\r\n\
         Connection: close\r\n\r\n",
        body.len()
    )?;
    conn.write_all(body)?;
    conn.flush()
}
