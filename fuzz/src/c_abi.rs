//! The `c_abi` target: the C ABI (`libevoharness`, the embedding API) driven from bytes, as a C
//! host would call it, with hostile lengths, buffer sizes, strings, frames, snapshots,
//! checkpoints and policy files, but only valid handles: the target keeps its own handle table
//! (workspaces, policies, agents) and never passes a freed or made-up pointer, which the ABI
//! cannot detect and documents as the caller's to avoid.
//!
//! Each input is a script of up to [`OPS`] calls; every byte the script reads past its end is
//! 0. Checked, besides never panicking or aborting (the ABI catches panics at its boundary and
//! reports `PANIC`, which this target treats as a failure):
//!
//! - every call returns one of the statuses its documentation lists for it;
//! - a refused workspace call leaves the workspace byte-for-byte as it was (snapshot before =
//!   after), and a refused snapshot or read writes nothing the caller can see as success;
//! - a snapshot restores into its own workspace with no change, and fits `snapshot_max_len`;
//! - reads by index succeed exactly below the counts `get_info` reports;
//! - a refused `agent_new` or `agent_resume` hands the policy back (the caller's pointer is
//!   unchanged), an accepted one takes it (the pointer becomes NULL);
//! - a checkpoint an agent writes resumes, into a new agent of the same policy file, to the
//!   same workspace (snapshot bytes equal).
//!
//! Tool callbacks answer with fields whose keys and texts come from the input (too long, not
//! UTF-8, too many fields), or fail.

#![allow(
    unsafe_code,
    reason = "this target calls the C ABI's extern functions, as a C host does"
)]

use std::ffi::{CString, c_void};
use std::path::PathBuf;
use std::ptr;

use evoharness::{
    evoharness_agent, evoharness_agent_config, evoharness_capacities, evoharness_event,
    evoharness_fact, evoharness_lesson, evoharness_plan_step, evoharness_policy,
    evoharness_policy_options, evoharness_status as S, evoharness_step_report, evoharness_summary,
    evoharness_tool_call, evoharness_tool_result, evoharness_workspace,
    evoharness_workspace_config, evoharness_workspace_info,
};
use evoharness_core::snapshot::FORMAT;

/// Calls per input at most.
pub const OPS: usize = 48;

/// Handles of each kind the table holds at most.
const HANDLES: usize = 3;

/// The fixture policy agents run (3 tools, small): loading it is the costly call.
const POLICY: &[u8] = include_bytes!("../../runtime/tests/fixtures/mlp.onnx");

/// The input, read as a script: bytes past the end read as 0.
struct Script<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Script<'a> {
    fn done(&self) -> bool {
        self.pos >= self.data.len()
    }

    fn u8(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }

    fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.u8(), self.u8()])
    }

    /// A length prefix (one byte), then that many bytes (fewer at the end of the input).
    fn bytes(&mut self) -> &'a [u8] {
        let n = usize::from(self.u8());
        let start = self.pos.min(self.data.len());
        let end = (start + n).min(self.data.len());
        self.pos += n;
        &self.data[start..end]
    }

    /// A buffer size near `fit`: none, one byte, just short, exact, or ample.
    fn cap(&mut self, fit: usize) -> usize {
        match self.u8() % 5 {
            0 => 0,
            1 => 1,
            2 => fit.saturating_sub(1),
            3 => fit,
            _ => fit + 64,
        }
    }

    /// A NUL-terminated string of the input's bytes (an interior NUL ends it).
    fn c_string(&mut self) -> CString {
        let b = self.bytes();
        let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
        CString::new(&b[..end]).expect("no interior NUL")
    }

    /// One of `n` slots.
    fn pick(&mut self, n: usize) -> Option<usize> {
        (n > 0).then(|| usize::from(self.u8()) % n)
    }
}

/// Asserts that `status` is one of `allowed` (`PANIC` never is).
#[track_caller]
fn expect(call: &str, status: S, allowed: &[S]) {
    assert!(
        status != S::Panic && allowed.contains(&status),
        "{call} returned {status:?} (allowed: {allowed:?}): {}",
        last_error()
    );
}

fn last_error() -> String {
    // SAFETY: the message is a NUL-terminated string the library owns, valid until the next
    // call on this thread; it is copied at once.
    unsafe { std::ffi::CStr::from_ptr(evoharness::evoharness_last_error_message()) }
        .to_string_lossy()
        .into_owned()
}

/// The workspace's whole state, as its snapshot bytes.
fn state(ws: *const evoharness_workspace) -> Vec<u8> {
    let mut n = 0usize;
    // SAFETY: `ws` is a live workspace from the table (or an agent's lent one); `n` is
    // writable.
    let s = unsafe { evoharness::evoharness_workspace_snapshot_max_len(ws, &mut n) };
    expect("snapshot_max_len", s, &[S::Ok]);
    let mut buf = vec![0u8; n];
    let mut len = 0usize;
    // SAFETY: `buf` has `n` writable bytes; `len` is writable.
    let s = unsafe { evoharness::evoharness_workspace_snapshot(ws, buf.as_mut_ptr(), n, &mut len) };
    expect("snapshot into max_len bytes", s, &[S::Ok]);
    assert!(len <= n, "a snapshot of {len} bytes in {n}");
    buf.truncate(len);
    buf
}

fn info(ws: *const evoharness_workspace) -> evoharness_workspace_info {
    let mut out = std::mem::MaybeUninit::<evoharness_workspace_info>::uninit();
    // SAFETY: `ws` is live; `out` is writable.
    let s = unsafe { evoharness::evoharness_workspace_get_info(ws, out.as_mut_ptr()) };
    expect("get_info", s, &[S::Ok]);
    // SAFETY: `get_info` returned OK, so it wrote the whole struct.
    unsafe { out.assume_init() }
}

fn options(script: &mut Script<'_>) -> evoharness_policy_options {
    let mut o = std::mem::MaybeUninit::<evoharness_policy_options>::uninit();
    // SAFETY: `o` is writable.
    let s = unsafe { evoharness::evoharness_policy_options_default(o.as_mut_ptr()) };
    expect("policy_options_default", s, &[S::Ok]);
    // SAFETY: OK means the defaults were written.
    let mut o = unsafe { o.assume_init() };
    // Tract only: the first policy of a process chooses the backend for all of it.
    o.backend = if script.u8() % 16 == 15 { 99 } else { 1 };
    if script.u8() % 4 == 3 {
        o.limits.max_file_bytes = u64::from(script.u16());
        o.limits.max_nodes = u64::from(script.u8());
        o.limits.max_tensor_elements = u64::from(script.u16());
        o.limits.max_constant_bytes = u64::from(script.u16());
    }
    o
}

/// Loads a policy from `bytes`; returns it if accepted.
fn load(bytes: &[u8], o: &evoharness_policy_options) -> Option<*mut evoharness_policy> {
    let mut p: *mut evoharness_policy = ptr::null_mut();
    // SAFETY: `bytes` is readable for its length; `o` and `p` point at live values.
    let s = unsafe {
        evoharness::evoharness_policy_load_from_memory(bytes.as_ptr(), bytes.len(), o, &mut p)
    };
    expect(
        "policy_load_from_memory",
        s,
        &[S::Ok, S::Policy, S::InvalidArgument, S::Backend],
    );
    if s == S::Ok {
        assert!(!p.is_null(), "an OK load gave NULL");
        Some(p)
    } else {
        assert!(p.is_null(), "a refused load wrote *out");
        None
    }
}

fn agent_config(script: &mut Script<'_>) -> evoharness_agent_config {
    let mut c = std::mem::MaybeUninit::<evoharness_agent_config>::uninit();
    // SAFETY: `c` is writable.
    let s = unsafe { evoharness::evoharness_agent_config_default(c.as_mut_ptr()) };
    expect("agent_config_default", s, &[S::Ok]);
    // SAFETY: OK means the defaults were written.
    let mut c = unsafe { c.assume_init() };
    match script.u8() % 8 {
        3 => c.budget = u32::from(script.u8()),
        4 => c.costs.act = script.u16(),
        5 => c.temperature = 0.7,
        6 => c.temperature = -1.0,
        7 => c.temperature = f32::NAN,
        _ => {}
    }
    c.seed = u64::from(script.u8());
    c
}

/// What a tool callback answers: hostile fields from the input, or a failure.
struct ToolScript {
    bytes: Vec<u8>,
}

unsafe extern "C" fn tool(
    user: *mut c_void,
    call: *const evoharness_tool_call,
    result: *mut evoharness_tool_result,
) -> i32 {
    // SAFETY: `user` is the `ToolScript` registered with this callback, which outlives the
    // agent (the table frees agents before tool scripts); `call` is the live call.
    let (ts, call) = unsafe { (&*(user as *const ToolScript), &*call) };
    assert!(
        call.arg_count <= call.args.len(),
        "{} arguments",
        call.arg_count
    );
    let mut s = Script {
        data: &ts.bytes,
        pos: 0,
    };
    let fields = s.u8() % 24;
    for _ in 0..fields {
        let key = s.c_string();
        let which = s.u8();
        // SAFETY: `result` is the live result lent to this callback; `key` and `text` are
        // NUL-terminated strings; `bytes` is readable for its length.
        let status = unsafe {
            match which % 6 {
                0 => evoharness::evoharness_tool_result_add_bool(result, key.as_ptr(), true),
                1 => evoharness::evoharness_tool_result_add_int(result, key.as_ptr(), -7),
                2 => evoharness::evoharness_tool_result_add_float(result, key.as_ptr(), f64::NAN),
                3 => {
                    let text = s.c_string();
                    evoharness::evoharness_tool_result_add_text(result, key.as_ptr(), text.as_ptr())
                }
                4 => {
                    let b = s.bytes();
                    evoharness::evoharness_tool_result_add_bytes(
                        result,
                        key.as_ptr(),
                        b.as_ptr(),
                        b.len(),
                    )
                }
                _ => evoharness::evoharness_tool_result_set_kind(result, u32::from(s.u8() % 4)),
            }
        };
        expect(
            "tool_result_add",
            status,
            &[S::Ok, S::InvalidArgument, S::BufferTooSmall],
        );
    }
    if s.u8() % 8 == 0 { 3 } else { 0 }
}

/// An agent of the table, with what a resume of its checkpoints needs.
struct AgentEntry {
    agent: *mut evoharness_agent,
    /// The config it was made with.
    config: evoharness_agent_config,
    /// The bytes of its policy file.
    policy: Vec<u8>,
}

/// The handle table: only live handles, freed in `Drop`.
struct Table {
    workspaces: Vec<*mut evoharness_workspace>,
    /// Each with the bytes it was loaded from.
    policies: Vec<(*mut evoharness_policy, Vec<u8>)>,
    agents: Vec<AgentEntry>,
    /// Registered with the agents' tools; dropped after the agents.
    tools: Vec<Box<ToolScript>>,
    dir: PathBuf,
}

impl Drop for Table {
    fn drop(&mut self) {
        // SAFETY: every pointer in the table is live and owned by the table; agents go first,
        // as their callbacks borrow `tools`.
        unsafe {
            for a in self.agents.drain(..) {
                evoharness::evoharness_agent_free(a.agent);
            }
            for (p, _) in self.policies.drain(..) {
                evoharness::evoharness_policy_free(p);
            }
            for w in self.workspaces.drain(..) {
                evoharness::evoharness_workspace_free(w);
            }
        }
    }
}

impl Table {
    fn path(&self, name: &str) -> CString {
        CString::new(self.dir.join(name).to_string_lossy().into_owned()).expect("a path")
    }

    /// The lent workspace of agent `a`.
    fn agent_workspace(&self, a: usize) -> *const evoharness_workspace {
        let mut ws: *const evoharness_workspace = ptr::null();
        // SAFETY: the agent is live; `ws` is writable.
        let s = unsafe { evoharness::evoharness_agent_workspace(self.agents[a].agent, &mut ws) };
        expect("agent_workspace", s, &[S::Ok]);
        ws
    }
}

/// A per-process folder for checkpoint files, made once.
fn scratch() -> PathBuf {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir =
            std::env::temp_dir().join(format!("evoharness-fuzz-c-abi-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a scratch folder");
        dir
    })
    .clone()
}

/// Runs one input; panics on a broken invariant.
pub fn check(data: &[u8]) {
    let mut s = Script { data, pos: 0 };
    let mut t = Table {
        workspaces: Vec::new(),
        policies: Vec::new(),
        agents: Vec::new(),
        tools: Vec::new(),
        dir: scratch(),
    };
    for _ in 0..OPS {
        if s.done() {
            break;
        }
        match s.u8() % 20 {
            0 => workspace_new(&mut s, &mut t),
            1 => {
                if let Some(w) = s.pick(t.workspaces.len()) {
                    apply(&mut s, t.workspaces[w]);
                }
            }
            2 => {
                if let Some(w) = s.pick(t.workspaces.len()) {
                    observe(&mut s, t.workspaces[w]);
                }
            }
            3 => {
                if let Some(w) = s.pick(t.workspaces.len()) {
                    snapshot(&mut s, t.workspaces[w]);
                }
            }
            4 => {
                if let Some(w) = s.pick(t.workspaces.len()) {
                    restore(&mut s, t.workspaces[w]);
                }
            }
            5 => {
                if let Some(w) = s.pick(t.workspaces.len()) {
                    // SAFETY: a live workspace from the table.
                    let st =
                        unsafe { evoharness::evoharness_workspace_reset_task(t.workspaces[w]) };
                    expect("reset_task", st, &[S::Ok]);
                }
            }
            6 => {
                // Reads by index, on a table workspace or an agent's.
                let ws = if s.u8() % 2 == 0 {
                    s.pick(t.workspaces.len())
                        .map(|w| t.workspaces[w].cast_const())
                } else {
                    s.pick(t.agents.len()).map(|a| t.agent_workspace(a))
                };
                if let Some(ws) = ws {
                    reads(&mut s, ws);
                }
            }
            7 => {
                if let Some(w) = s.pick(t.workspaces.len()) {
                    let w = t.workspaces.swap_remove(w);
                    // SAFETY: live and owned by the table, removed from it here.
                    unsafe { evoharness::evoharness_workspace_free(w) };
                }
            }
            8 => {
                if t.policies.len() < HANDLES {
                    let o = options(&mut s);
                    let bytes = policy_bytes(&mut s);
                    if let Some(p) = load(&bytes, &o) {
                        t.policies.push((p, bytes));
                    }
                }
            }
            9 => agent_new(&mut s, &mut t),
            10 | 11 => {
                if let Some(a) = s.pick(t.agents.len()) {
                    step(&mut s, &t, a);
                }
            }
            12 => {
                if let Some(a) = s.pick(t.agents.len()) {
                    register(&mut s, &mut t, a);
                }
            }
            13 => {
                if let Some(a) = s.pick(t.agents.len()) {
                    checkpoint_and_resume(&mut s, &mut t, a);
                }
            }
            14 => resume_hostile(&mut s, &mut t),
            15 => {
                if let Some(a) = s.pick(t.agents.len()) {
                    let a = t.agents.swap_remove(a);
                    // SAFETY: live and owned by the table, removed from it here.
                    unsafe { evoharness::evoharness_agent_free(a.agent) };
                }
            }
            16 => {
                if let Some(p) = s.pick(t.policies.len()) {
                    let (p, _) = t.policies.swap_remove(p);
                    // SAFETY: live and owned by the table, removed from it here.
                    unsafe { evoharness::evoharness_policy_free(p) };
                }
            }
            17 => layout(&mut s),
            18 => {
                if let Some(a) = s.pick(t.agents.len()) {
                    let mut name = vec![0u8; 64];
                    let cap = s.cap(16).min(name.len());
                    let mut len = 0usize;
                    // SAFETY: a live agent; `name` has at least `cap` writable bytes.
                    let st = unsafe {
                        evoharness::evoharness_agent_tool_name(
                            t.agents[a].agent,
                            usize::from(s.u8() % 5),
                            name.as_mut_ptr().cast(),
                            cap,
                            &mut len,
                        )
                    };
                    expect(
                        "agent_tool_name",
                        st,
                        &[S::Ok, S::NotFound, S::BufferTooSmall],
                    );
                    if st == S::Ok {
                        assert!(len < cap && name[len] == 0, "a name of {len} in {cap}");
                    }
                }
            }
            _ => {
                if let Some(a) = s.pick(t.agents.len()) {
                    let mut sum = std::mem::MaybeUninit::<evoharness_summary>::uninit();
                    let n = u64::from(s.u8() % 16);
                    // SAFETY: a live agent; `sum` is writable.
                    let st = unsafe {
                        evoharness::evoharness_agent_run(t.agents[a].agent, n, sum.as_mut_ptr())
                    };
                    expect("agent_run", st, &[S::Ok, S::Inference]);
                }
            }
        }
    }
}

fn workspace_new(s: &mut Script<'_>, t: &mut Table) {
    if t.workspaces.len() >= HANDLES {
        return;
    }
    let mut c = std::mem::MaybeUninit::<evoharness_workspace_config>::uninit();
    // SAFETY: `c` is writable.
    let st = unsafe { evoharness::evoharness_workspace_config_default(c.as_mut_ptr()) };
    expect("workspace_config_default", st, &[S::Ok]);
    // SAFETY: OK means the defaults were written.
    let mut c = unsafe { c.assume_init() };
    if s.u8() % 2 == 0 {
        // Small, sometimes out of range (0, or past the limits).
        let dim = |b: u8| match b % 8 {
            0 => 0,
            1 => 1025,
            n => u16::from(n),
        };
        c.capacities = evoharness_capacities {
            facts: dim(s.u8()),
            steps: dim(s.u8()),
            lessons: dim(s.u8()),
            tools: match s.u8() % 8 {
                0 => 0,
                1 => 65,
                n => u16::from(n),
            },
        };
        c.budget = u32::from(s.u16());
        c.costs.track = u16::from(s.u8() % 4);
    }
    let mut ws: *mut evoharness_workspace = ptr::null_mut();
    // SAFETY: `c` and `ws` point at live values.
    let st = unsafe { evoharness::evoharness_workspace_new(&c, &mut ws) };
    expect("workspace_new", st, &[S::Ok, S::Config, S::InvalidArgument]);
    if st == S::Ok {
        assert!(!ws.is_null());
        t.workspaces.push(ws);
    } else {
        assert!(ws.is_null(), "a refused workspace_new wrote *out");
    }
}

fn apply(s: &mut Script<'_>, ws: *mut evoharness_workspace) {
    let frame = s.bytes();
    let mut out = vec![0u8; evoharness::EVOHARNESS_FRAME_MAX + 64];
    let cap = s.cap(evoharness::EVOHARNESS_FRAME_MAX);
    let before = state(ws);
    let (mut len, mut applied) = (0usize, false);
    // SAFETY: a live workspace; `frame` readable for its length; `out` has at least `cap`
    // writable bytes; `len` and `applied` are writable.
    let st = unsafe {
        evoharness::evoharness_workspace_apply(
            ws,
            frame.as_ptr(),
            frame.len(),
            out.as_mut_ptr(),
            cap,
            &mut len,
            &mut applied,
        )
    };
    expect(
        "workspace_apply",
        st,
        &[S::Ok, S::Decode, S::InvalidArgument, S::BufferTooSmall],
    );
    if st != S::Ok || !applied {
        assert_eq!(state(ws), before, "a refused apply changed the workspace");
    }
    if st == S::Ok {
        assert!(len <= cap, "an outcome of {len} bytes in {cap}");
        evoharness_core::wire::Frame::decode(&out[..len]).expect("the outcome frame decodes");
    }
}

fn observe(s: &mut Script<'_>, ws: *mut evoharness_workspace) {
    let frame = s.bytes();
    let before = state(ws);
    // SAFETY: a live workspace; `frame` readable for its length.
    let st = unsafe { evoharness::evoharness_workspace_observe(ws, frame.as_ptr(), frame.len()) };
    expect(
        "workspace_observe",
        st,
        &[S::Ok, S::Decode, S::InvalidArgument],
    );
    if st != S::Ok {
        assert_eq!(state(ws), before, "a refused observe changed the workspace");
    }
}

fn snapshot(s: &mut Script<'_>, ws: *mut evoharness_workspace) {
    let whole = state(ws);
    let cap = s.cap(whole.len());
    let mut buf = vec![0xa5u8; cap];
    let mut len = 0usize;
    // SAFETY: a live workspace; `buf` has `cap` writable bytes.
    let st =
        unsafe { evoharness::evoharness_workspace_snapshot(ws, buf.as_mut_ptr(), cap, &mut len) };
    expect("workspace_snapshot", st, &[S::Ok, S::BufferTooSmall]);
    if st == S::Ok {
        assert_eq!(&buf[..len], &whole[..], "two snapshots of one state differ");
        // SAFETY: a live workspace; `buf` readable for `len` bytes.
        let st = unsafe { evoharness::evoharness_workspace_restore(ws, buf.as_ptr(), len) };
        expect("restore of its own snapshot", st, &[S::Ok]);
        assert_eq!(
            state(ws),
            whole,
            "restoring its own snapshot changed the workspace"
        );
    } else {
        assert!(
            cap < whole.len(),
            "BUFFER_TOO_SMALL with {cap} for {}",
            whole.len()
        );
    }
}

fn restore(s: &mut Script<'_>, ws: *mut evoharness_workspace) {
    // Hostile bytes, or this workspace's own snapshot with some bytes changed.
    let mut bytes = s.bytes().to_vec();
    if s.u8() % 2 == 0 {
        let mut own = state(ws);
        for &b in bytes.iter().take(4) {
            let i = usize::from(b) % own.len();
            own[i] ^= b | 1;
        }
        bytes = own;
    }
    let before = state(ws);
    // SAFETY: a live workspace; `bytes` readable for its length.
    let st = unsafe { evoharness::evoharness_workspace_restore(ws, bytes.as_ptr(), bytes.len()) };
    expect("workspace_restore", st, &[S::Ok, S::Snapshot]);
    if st == S::Ok {
        let now = state(ws);
        if bytes.get(4..6) == Some(&FORMAT.to_le_bytes()[..]) {
            assert_eq!(now, bytes, "a restored snapshot does not snapshot back");
        } else {
            // An earlier format restores too, and is written back in this one.
            assert_eq!(
                now.get(4..6),
                Some(&FORMAT.to_le_bytes()[..]),
                "a restored snapshot of an earlier format is not written in this one"
            );
        }
    } else {
        assert_eq!(state(ws), before, "a refused restore changed the workspace");
    }
}

fn reads(s: &mut Script<'_>, ws: *const evoharness_workspace) {
    let i = info(ws);
    let index = usize::from(s.u8() % 12);
    let (st, count) = match s.u8() % 4 {
        0 => {
            let mut f = std::mem::MaybeUninit::<evoharness_fact>::uninit();
            // SAFETY: a live workspace; `f` is writable.
            let st = unsafe { evoharness::evoharness_workspace_fact(ws, index, f.as_mut_ptr()) };
            (st, i.facts)
        }
        1 => {
            let mut p = std::mem::MaybeUninit::<evoharness_plan_step>::uninit();
            // SAFETY: as above.
            let st =
                unsafe { evoharness::evoharness_workspace_plan_step(ws, index, p.as_mut_ptr()) };
            (st, i.plan_steps)
        }
        2 => {
            let mut l = std::mem::MaybeUninit::<evoharness_lesson>::uninit();
            // SAFETY: as above.
            let st = unsafe { evoharness::evoharness_workspace_lesson(ws, index, l.as_mut_ptr()) };
            (st, i.lessons)
        }
        _ => {
            let mut e = std::mem::MaybeUninit::<evoharness_event>::uninit();
            // SAFETY: as above.
            let st = unsafe { evoharness::evoharness_workspace_event(ws, e.as_mut_ptr()) };
            let want = if i.has_event { S::Ok } else { S::NotFound };
            assert_eq!(st, want, "workspace_event with has_event {}", i.has_event);
            return;
        }
    };
    let want = if index < count { S::Ok } else { S::NotFound };
    assert_eq!(
        st,
        want,
        "a read of index {index} of {count}: {}",
        last_error()
    );
}

fn policy_bytes(s: &mut Script<'_>) -> Vec<u8> {
    match s.u8() % 4 {
        // The fixture, or the fixture with a few bytes changed.
        0 | 1 => POLICY.to_vec(),
        2 => {
            let mut b = POLICY.to_vec();
            for _ in 0..1 + s.u8() % 4 {
                let i = usize::from(s.u16()) % b.len();
                b[i] ^= s.u8() | 1;
            }
            b
        }
        _ => s.bytes().to_vec(),
    }
}

fn agent_new(s: &mut Script<'_>, t: &mut Table) {
    let Some(p) = s.pick(t.policies.len()) else {
        return;
    };
    if t.agents.len() >= HANDLES {
        return;
    }
    let c = agent_config(s);
    let mut policy = t.policies[p].0;
    let given = policy;
    let mut agent: *mut evoharness_agent = ptr::null_mut();
    // SAFETY: `policy` points at a live policy the table owns; no world; `c` and `agent` live.
    let st =
        unsafe { evoharness::evoharness_agent_new(&mut policy, ptr::null_mut(), &c, &mut agent) };
    expect("agent_new", st, &[S::Ok, S::InvalidArgument, S::Config]);
    if st == S::Ok {
        assert!(
            policy.is_null() && !agent.is_null(),
            "agent_new did not take the policy"
        );
        let (_, bytes) = t.policies.swap_remove(p);
        t.agents.push(AgentEntry {
            agent,
            config: c,
            policy: bytes,
        });
    } else {
        assert!(
            policy == given && agent.is_null(),
            "a refused agent_new kept the policy"
        );
    }
}

fn step(s: &mut Script<'_>, t: &Table, a: usize) {
    let mut r = std::mem::MaybeUninit::<evoharness_step_report>::uninit();
    let _ = s.u8();
    // SAFETY: a live agent; `r` is writable.
    let st = unsafe { evoharness::evoharness_agent_step(t.agents[a].agent, r.as_mut_ptr()) };
    expect("agent_step", st, &[S::Ok, S::Inference]);
    if st == S::Ok {
        // SAFETY: OK means the report was written.
        let r = unsafe { r.assume_init() };
        // Not taken: the task had ended (finished, or no affordable action left), and the
        // report says only how.
        assert!(
            r.taken || (r.step == 0 && r.cost == 0 && r.template_index == 0),
            "a step not taken with fields set: {r:?}"
        );
        assert!(!r.taken || r.step > 0, "a step taken as number 0");
    }
}

fn register(s: &mut Script<'_>, t: &mut Table, a: usize) {
    let names = ["copy", "wait", "verify", "no_such_tool", ""];
    let name = CString::new(names[usize::from(s.u8()) % names.len()]).expect("a name");
    let ts = Box::new(ToolScript {
        bytes: s.bytes().to_vec(),
    });
    let user = (&*ts as *const ToolScript).cast_mut().cast::<c_void>();
    let remove = s.u8() % 8 == 0;
    // SAFETY: a live agent; `name` NUL-terminated; `tool` has the callback type, and `user`
    // stays valid until the table drops (after its agents).
    let st = unsafe {
        evoharness::evoharness_agent_register_tool(
            t.agents[a].agent,
            name.as_ptr(),
            if remove { None } else { Some(tool) },
            user,
        )
    };
    expect("agent_register_tool", st, &[S::Ok, S::NotFound]);
    t.tools.push(ts);
}

fn checkpoint_and_resume(s: &mut Script<'_>, t: &mut Table, a: usize) {
    let path = t.path("agent.ckpt");
    // SAFETY: a live agent; `path` NUL-terminated.
    let st = unsafe { evoharness::evoharness_agent_checkpoint(t.agents[a].agent, path.as_ptr()) };
    expect("agent_checkpoint", st, &[S::Ok]);
    let saved = state(t.agent_workspace(a));
    // The same policy file, loaded again (default limits, which admit what smaller ones
    // did), and the agent's own config.
    let entry = &t.agents[a];
    let Some(mut policy) = load(&entry.policy, &options(&mut Script { data: &[], pos: 0 })) else {
        panic!("a policy file that loaded once does not load again");
    };
    let c = entry.config;
    let _ = s.u8();
    let mut agent: *mut evoharness_agent = ptr::null_mut();
    // SAFETY: `policy` is live and ours; no world; the rest point at live values.
    let st = unsafe {
        evoharness::evoharness_agent_resume(
            &mut policy,
            ptr::null_mut(),
            &c,
            path.as_ptr(),
            &mut agent,
        )
    };
    expect("agent_resume of its own checkpoint", st, &[S::Ok]);
    {
        assert!(policy.is_null());
        let mut ws: *const evoharness_workspace = ptr::null();
        // SAFETY: the new agent is live; `ws` is writable.
        let st = unsafe { evoharness::evoharness_agent_workspace(agent, &mut ws) };
        expect("agent_workspace", st, &[S::Ok]);
        assert_eq!(state(ws), saved, "a resumed agent's workspace differs");
        // SAFETY: the new agent is live and ours.
        unsafe { evoharness::evoharness_agent_free(agent) };
    }
}

fn resume_hostile(s: &mut Script<'_>, t: &mut Table) {
    let Some(p) = s.pick(t.policies.len()) else {
        return;
    };
    let bytes = s.bytes();
    let path = t.path("hostile.ckpt");
    std::fs::write(t.dir.join("hostile.ckpt"), bytes).expect("write the checkpoint");
    let c = agent_config(s);
    let mut policy = t.policies[p].0;
    let given = policy;
    let mut agent: *mut evoharness_agent = ptr::null_mut();
    // SAFETY: `policy` is live and the table's; no world; the rest point at live values.
    let st = unsafe {
        evoharness::evoharness_agent_resume(
            &mut policy,
            ptr::null_mut(),
            &c,
            path.as_ptr(),
            &mut agent,
        )
    };
    expect(
        "agent_resume of hostile bytes",
        st,
        &[S::Ok, S::Checkpoint, S::InvalidArgument, S::Config, S::Io],
    );
    if st == S::Ok {
        assert!(policy.is_null() && !agent.is_null());
        let (_, bytes) = t.policies.swap_remove(p);
        if t.agents.len() < HANDLES {
            t.agents.push(AgentEntry {
                agent,
                config: c,
                policy: bytes,
            });
        } else {
            // SAFETY: live and ours.
            unsafe { evoharness::evoharness_agent_free(agent) };
        }
    } else {
        assert!(
            policy == given && agent.is_null(),
            "a refused resume kept the policy"
        );
    }
}

fn layout(s: &mut Script<'_>) {
    let caps = evoharness_capacities {
        facts: u16::from(s.u8()) * 5,
        steps: u16::from(s.u8()),
        lessons: u16::from(s.u8()),
        tools: u16::from(s.u8() % 70),
    };
    let mut buf = vec![0u8; 1 << 16];
    let cap = match s.u8() % 3 {
        0 => usize::from(s.u16()),
        1 => 0,
        _ => buf.len(),
    };
    let mut len = 0usize;
    // SAFETY: `caps` readable; `buf` has at least `cap` writable bytes (cap <= 65535 < 65536).
    let st = unsafe {
        evoharness::evoharness_layout_json(&caps, buf.as_mut_ptr().cast(), cap, &mut len)
    };
    expect("layout_json", st, &[S::Ok, S::Config, S::BufferTooSmall]);
    if st == S::Ok {
        assert!(len < cap && buf[len] == 0, "a layout of {len} in {cap}");
        std::str::from_utf8(&buf[..len]).expect("UTF-8 JSON");
    }
}

/// Writes scripts for this target (seeds and tests), byte for byte as [`check`] reads them.
/// Each method appends one call; an index picks among the live handles of its kind.
#[derive(Clone, Debug, Default)]
pub struct Writer {
    /// The script so far.
    pub bytes: Vec<u8>,
}

impl Writer {
    fn op(&mut self, op: u8, rest: &[u8]) -> &mut Self {
        self.bytes.push(op);
        self.bytes.extend_from_slice(rest);
        self
    }

    fn with_len(v: &[u8]) -> Vec<u8> {
        let n = u8::try_from(v.len()).expect("at most 255 bytes");
        [&[n][..], v].concat()
    }

    /// A workspace of the default config.
    pub fn workspace_new(&mut self) -> &mut Self {
        self.op(0, &[1])
    }

    /// A workspace of capacities (facts, steps, lessons as `b % 8`, 0 → 0, 1 → 1025) and
    /// tools (`t % 8`, 0 → 0, 1 → 65).
    pub fn workspace_with(&mut self, facts: u8, steps: u8, lessons: u8, tools: u8) -> &mut Self {
        self.op(0, &[0, facts, steps, lessons, tools, 100, 0, 1])
    }

    /// Applies `frame` to workspace `ws` with an outcome buffer of exactly `FRAME_MAX`.
    pub fn apply(&mut self, ws: u8, frame: &[u8]) -> &mut Self {
        let rest = [&[ws][..], &Self::with_len(frame), &[3]].concat();
        self.op(1, &rest)
    }

    /// Observes the event `frame` on workspace `ws`.
    pub fn observe(&mut self, ws: u8, frame: &[u8]) -> &mut Self {
        let rest = [&[ws][..], &Self::with_len(frame)].concat();
        self.op(2, &rest)
    }

    /// Snapshots workspace `ws` into a buffer of exactly its size.
    pub fn snapshot(&mut self, ws: u8) -> &mut Self {
        self.op(3, &[ws, 3])
    }

    /// Restores workspace `ws` from its own snapshot with bytes `flips` changed.
    pub fn restore_own(&mut self, ws: u8, flips: &[u8]) -> &mut Self {
        let rest = [&[ws][..], &Self::with_len(flips), &[0]].concat();
        self.op(4, &rest)
    }

    /// Reads item `index` of table `kind` (0 facts, 1 plan, 2 lessons, 3 the event) of agent
    /// `agent`'s workspace.
    pub fn read_agent(&mut self, agent: u8, index: u8, kind: u8) -> &mut Self {
        self.op(6, &[1, agent, index, kind])
    }

    /// Loads the fixture policy (tract, default limits).
    pub fn load_fixture(&mut self) -> &mut Self {
        self.op(8, &[1, 0, 0])
    }

    /// Loads the fixture policy with byte `at` xor-ed with `x`.
    pub fn load_mutated(&mut self, at: u16, x: u8) -> &mut Self {
        let [a, b] = at.to_le_bytes();
        self.op(8, &[1, 0, 2, 0, a, b, x])
    }

    /// An agent of policy `p`, the default config, seed `seed`.
    pub fn agent_new(&mut self, p: u8, seed: u8) -> &mut Self {
        self.op(9, &[p, 0, seed])
    }

    /// One step of agent `a`.
    pub fn step(&mut self, a: u8) -> &mut Self {
        self.op(10, &[a, 0])
    }

    /// Registers tool `name` (0 copy, 1 wait, 2 verify, 3 unknown, 4 empty) of agent `a`,
    /// answering with the tool script `answer` (see [`Writer::answer`]).
    pub fn register(&mut self, a: u8, name: u8, answer: &[u8]) -> &mut Self {
        let rest = [&[a, name][..], &Self::with_len(answer), &[1]].concat();
        self.op(12, &rest)
    }

    /// A tool's answer: `fields` of (key, kind 0 bool 1 int 2 float 3 text 4 bytes, payload),
    /// then success.
    pub fn answer(fields: &[(&[u8], u8, &[u8])]) -> Vec<u8> {
        let mut v = vec![u8::try_from(fields.len()).expect("few fields")];
        for (key, kind, payload) in fields {
            v.extend(Self::with_len(key));
            v.push(*kind);
            if matches!(kind, 3 | 4) {
                v.extend(Self::with_len(payload));
            }
        }
        v.push(1);
        v
    }

    /// Checkpoints agent `a` and resumes the checkpoint into a new agent.
    pub fn checkpoint_and_resume(&mut self, a: u8) -> &mut Self {
        self.op(13, &[a, 0])
    }

    /// Resumes policy `p` from the checkpoint bytes `bytes`.
    pub fn resume_hostile(&mut self, p: u8, bytes: &[u8]) -> &mut Self {
        let rest = [&[p][..], &Self::with_len(bytes), &[0, 0]].concat();
        self.op(14, &rest)
    }

    /// The layout JSON of capacities (`f * 5`, `s`, `l`, `t % 70`) into an ample buffer.
    pub fn layout(&mut self, f: u8, s: u8, l: u8, t: u8) -> &mut Self {
        self.op(17, &[f, s, l, t, 2])
    }

    /// Tool name `index` of agent `a` into an ample buffer.
    pub fn tool_name(&mut self, a: u8, index: u8) -> &mut Self {
        self.op(18, &[a, 4, index])
    }

    /// Runs agent `a` for `n` steps at most.
    pub fn run(&mut self, a: u8, n: u8) -> &mut Self {
        self.op(19, &[a, n])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_and_short_inputs_pass() {
        check(&[]);
        check(&[0]);
        check(&[255; 64]);
    }

    /// A script that makes a workspace and an agent, steps it, registers a tool, checkpoints
    /// and resumes: the checks of each call run.
    #[test]
    fn a_scripted_session_passes() {
        let mut w = Writer::default();
        w.workspace_new()
            .snapshot(0)
            .restore_own(0, &[3, 9])
            .load_fixture()
            .agent_new(0, 7)
            .register(
                0,
                0,
                &Writer::answer(&[(b"k", 0, b""), (b"note", 3, b"hi")]),
            )
            .step(0)
            .run(0, 6)
            .checkpoint_and_resume(0)
            .read_agent(0, 0, 3)
            .tool_name(0, 1)
            .layout(3, 8, 4, 8);
        check(&w.bytes);
    }
}
