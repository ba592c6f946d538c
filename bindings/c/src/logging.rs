//! The log bridge: the runtime's `log` records to a host callback.

use std::cell::RefCell;
use std::ffi::{c_char, c_void};
use std::io::Write as _;
use std::sync::{OnceLock, RwLock};

use crate::ffi::{Error, guard};
use crate::status::evoharness_status;

/// How severe a log record is (the `log` crate's levels).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum evoharness_log_level {
    /// No records (as a maximum level: logging off).
    Off = 0,
    /// Something failed.
    Error = 1,
    /// Something is off but the library goes on (e.g. a CPU fallback, a tool nobody serves).
    Warn = 2,
    /// Milestones (e.g. which backend was chosen).
    Info = 3,
    /// Details for debugging.
    Debug = 4,
    /// Very verbose details.
    Trace = 5,
}

/// A log callback: `level` is an `evoharness_log_level` (1 to 5), `target` the Rust module
/// that logged (e.g. `evoharness_runtime::policy`) and `message` the text, both NUL-terminated
/// and valid during the call only. It may be called from any thread that uses the library, at
/// the same time on several: it must be thread-safe, must return normally (no unwinding out of
/// it) and must not call `evoharness_set_log_callback`.
pub type evoharness_log_fn = Option<
    unsafe extern "C" fn(
        user_data: *mut c_void,
        level: u32,
        target: *const c_char,
        message: *const c_char,
    ),
>;

#[derive(Clone, Copy)]
struct Sink {
    f: unsafe extern "C" fn(*mut c_void, u32, *const c_char, *const c_char),
    user_data: *mut c_void,
}

// SAFETY: the host promised (see `evoharness_log_fn`) that the callback with its `user_data`
// may be called from any thread, at once on several.
unsafe impl Send for Sink {}
// SAFETY: as above.
unsafe impl Sync for Sink {}

static SINK: RwLock<Option<Sink>> = RwLock::new(None);

/// Whether this library's logger is the process's (`log` accepts one logger, once).
static INSTALLED: OnceLock<bool> = OnceLock::new();

struct Bridge;

static BRIDGE: Bridge = Bridge;

thread_local! {
    /// Reused per thread: the target and the message, each followed by a NUL.
    static LINE: RefCell<(Vec<u8>, Vec<u8>)> = const { RefCell::new((Vec::new(), Vec::new())) };
}

fn nul_terminated(buf: &mut Vec<u8>) {
    // C sees a string up to its first NUL: replace the NULs inside.
    for b in buf.iter_mut() {
        if *b == 0 {
            *b = b' ';
        }
    }
    buf.push(0);
}

impl log::Log for Bridge {
    fn enabled(&self, _: &log::Metadata<'_>) -> bool {
        // `log::set_max_level` filters by level before records get here.
        true
    }

    fn log(&self, record: &log::Record<'_>) {
        // Copied out, so no lock is held while host code runs.
        let sink = *SINK.read().unwrap_or_else(|p| p.into_inner());
        let Some(sink) = sink else { return };
        let level = match record.level() {
            log::Level::Error => evoharness_log_level::Error,
            log::Level::Warn => evoharness_log_level::Warn,
            log::Level::Info => evoharness_log_level::Info,
            log::Level::Debug => evoharness_log_level::Debug,
            log::Level::Trace => evoharness_log_level::Trace,
        } as u32;
        // A callback that logs through this library again on the same thread finds the
        // buffers borrowed; its record is dropped rather than deadlocking or panicking.
        let _ = LINE.try_with(|line| {
            let Ok(mut line) = line.try_borrow_mut() else {
                return;
            };
            let (target, message) = &mut *line;
            target.clear();
            target.extend_from_slice(record.target().as_bytes());
            nul_terminated(target);
            message.clear();
            let _ = write!(message, "{}", record.args());
            nul_terminated(message);
            // SAFETY: the host registered `f` with `user_data` for calls from any thread (see
            // `evoharness_log_fn`); both strings are NUL-terminated and live across the call.
            unsafe {
                (sink.f)(
                    sink.user_data,
                    level,
                    target.as_ptr().cast(),
                    message.as_ptr().cast(),
                )
            }
        });
    }

    fn flush(&self) {}
}

/// Sends the library's log records (the Rust `log` facade) of `max_level` (an
/// `evoharness_log_level`) and more severe to `log(user_data, ...)`; a NULL `log` or
/// `EVOHARNESS_LOG_LEVEL_OFF` stops them. Process-wide: the last call wins. Any thread.
///
/// After a call replaces or removes the callback, a record already being delivered on another
/// thread may still reach the old one: keep its `user_data` valid until such calls are done.
///
/// Errors: `INVALID_ARGUMENT` for a level out of range; `CONFIG` when other code in the process
/// already installed a Rust logger (`log` allows one per process).
///
/// # Safety
/// `log` is NULL or a function of the `evoharness_log_fn` type that may be called with
/// `user_data` from any thread while it is set.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_set_log_callback(
    log: evoharness_log_fn,
    user_data: *mut c_void,
    max_level: u32,
) -> evoharness_status {
    guard(|| {
        let filter = match max_level {
            0 => log::LevelFilter::Off,
            1 => log::LevelFilter::Error,
            2 => log::LevelFilter::Warn,
            3 => log::LevelFilter::Info,
            4 => log::LevelFilter::Debug,
            5 => log::LevelFilter::Trace,
            l => {
                return Err(Error::invalid(format!(
                    "max_level is {l}: an evoharness_log_level is 0 (off) to 5 (trace)"
                )));
            }
        };
        let installed = *INSTALLED.get_or_init(|| log::set_logger(&BRIDGE).is_ok());
        if !installed {
            return Err(Error::new(
                evoharness_status::Config,
                "another logger is installed in this process (log::set_logger was called by \
                 other code), so the library's records go there",
            ));
        }
        let sink = log.map(|f| Sink { f, user_data });
        *SINK.write().unwrap_or_else(|p| p.into_inner()) = sink;
        log::set_max_level(if sink.is_some() {
            filter
        } else {
            log::LevelFilter::Off
        });
        Ok(())
    })
}
