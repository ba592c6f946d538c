//! Status codes and their messages, and the library version. What a failed call says in detail
//! is [`crate::last_error`]'s.

use std::ffi::c_char;

/// What a call did. Every function that can fail returns one; `EVOHARNESS_STATUS_OK` (0) is
/// success, anything else a failure whose details are in `evoharness_last_error_message()`.
///
/// The values are stable: a status keeps its number forever and a retired number is never
/// reused. New statuses may be added, so treat an unknown value as a failure.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum evoharness_status {
    /// Success.
    Ok = 0,
    /// A required pointer argument was NULL.
    NullArgument = 1,
    /// An argument was out of range, malformed (e.g. not UTF-8) or not allowed now.
    InvalidArgument = 2,
    /// An output buffer was too small; nothing was written (the function's documentation says
    /// which size always suffices).
    BufferTooSmall = 3,
    /// Nothing is there: an index past the end, no current event, no finished episode yet, a
    /// tool name the agent does not have.
    NotFound = 4,
    /// Bytes were not a valid wire frame (truncated, another protocol version, malformed).
    Decode = 5,
    /// A workspace snapshot was refused (truncated, corrupted, foreign, other capacities).
    Snapshot = 6,
    /// The inference backend could not be initialised (library missing or too old, a second,
    /// different backend asked for in one process).
    Backend = 7,
    /// A requested device (CUDA, TensorRT) is not available and CPU fallback was not allowed.
    Device = 8,
    /// A policy file is not a valid model or breaks its contract (structured v1 or v2, or
    /// generative-v1); the message names the mismatch.
    Policy = 9,
    /// Inference failed at run time.
    Inference = 10,
    /// The workspace refused something the agent expected it to accept.
    Workspace = 11,
    /// A file could not be read or written.
    Io = 12,
    /// A checkpoint file is corrupted, foreign, or does not match the agent.
    Checkpoint = 13,
    /// Bad configuration (capacities, tool counts, temperatures, a conflicting logger).
    Config = 14,
    /// A Rust panic was caught at the boundary: a bug in evoharness. The objects the call used
    /// are in an unspecified (but memory-safe) state; free them.
    Panic = 15,
    /// Another runtime error (a newer error kind of the runtime).
    Other = 16,
    /// A world written by the host (`evoharness_world_from_callbacks`) failed: one of its
    /// callbacks reported a failure, returned a malformed event, or was missing. The message
    /// names the callback and what it did.
    World = 17,
    /// An experience store's bytes or file were refused (truncated, corrupted, foreign); the
    /// message says why.
    ExperienceStore = 18,
}

impl evoharness_status {
    // Not `pub`: cbindgen would write it into the header as a macro that C cannot use.
    /// Every status, in value order.
    pub(crate) const ALL: [evoharness_status; 19] = [
        Self::Ok,
        Self::NullArgument,
        Self::InvalidArgument,
        Self::BufferTooSmall,
        Self::NotFound,
        Self::Decode,
        Self::Snapshot,
        Self::Backend,
        Self::Device,
        Self::Policy,
        Self::Inference,
        Self::Workspace,
        Self::Io,
        Self::Checkpoint,
        Self::Config,
        Self::Panic,
        Self::Other,
        Self::World,
        Self::ExperienceStore,
    ];

    /// The status with this value, if there is one.
    pub fn from_u32(v: u32) -> Option<Self> {
        Self::ALL.into_iter().find(|s| *s as u32 == v)
    }

    /// A short, static description, NUL-terminated.
    pub fn message(self) -> &'static std::ffi::CStr {
        match self {
            Self::Ok => c"success",
            Self::NullArgument => c"a required pointer argument was NULL",
            Self::InvalidArgument => c"an argument was invalid",
            Self::BufferTooSmall => c"an output buffer was too small; nothing was written",
            Self::NotFound => c"nothing is there (an index past the end, or no such item)",
            Self::Decode => c"the bytes are not a valid wire frame",
            Self::Snapshot => c"the workspace snapshot was refused",
            Self::Backend => c"the inference backend could not be initialised",
            Self::Device => c"the requested device is not available",
            Self::Policy => c"the policy is not a valid model of its contract (structured v1 or v2, generative-v1)",
            Self::Inference => c"inference failed",
            Self::Workspace => c"the workspace refused an action",
            Self::Io => c"a file could not be read or written",
            Self::Checkpoint => c"the checkpoint was refused",
            Self::Config => c"the configuration is invalid",
            Self::Panic => c"a panic was caught inside evoharness (a bug)",
            Self::Other => c"a runtime error",
            Self::World => c"a world written by the host failed",
            Self::ExperienceStore => c"the experience store was refused",
        }
    }
}

/// The library's version ("MAJOR.MINOR.PATCH", the crate's), static and NUL-terminated. It is
/// the version of the ABI too: before 1.0, a new MINOR breaks it (see `bindings/README.md`).
/// Never NULL; do not free it. Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn evoharness_version() -> *const c_char {
    const V: &str = concat!(env!("CARGO_PKG_VERSION"), "\0");
    V.as_ptr().cast()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_status_has_its_value_and_a_message() {
        for (i, s) in evoharness_status::ALL.iter().enumerate() {
            assert_eq!(*s as u32, i as u32);
            assert_eq!(evoharness_status::from_u32(i as u32), Some(*s));
            assert!(!s.message().is_empty());
        }
        assert_eq!(
            evoharness_status::from_u32(evoharness_status::ALL.len() as u32),
            None
        );
    }

    #[test]
    fn the_version_is_the_crates() {
        // SAFETY: a static NUL-terminated string.
        let v = unsafe { std::ffi::CStr::from_ptr(evoharness_version()) };
        assert_eq!(v.to_str().unwrap(), env!("CARGO_PKG_VERSION"));
    }
}
