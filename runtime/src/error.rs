//! The runtime's one error type: a kind to match on, a message that says what to do, and the
//! underlying cause as `source()`.

use std::fmt;

/// What went wrong, to match on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The inference backend could not be initialised (library missing or too old, a second,
    /// conflicting backend choice, a backend not compiled in).
    Backend,
    /// A requested execution device (CUDA, TensorRT) is not available and CPU fallback was not
    /// allowed.
    Device,
    /// The policy file is not a valid model, or breaks the structured-v1 ABI.
    Policy,
    /// Inference failed at run time.
    Inference,
    /// The workspace refused something the runtime expected it to accept.
    Workspace,
    /// A file could not be read or written.
    Io,
    /// A checkpoint file is corrupted, foreign or does not match the agent.
    Checkpoint,
    /// An experience store's bytes or file are corrupted or foreign (see
    /// [`crate::experience_store`]).
    Experience,
    /// Bad configuration or arguments.
    Config,
    /// The world itself failed, not a tool at its job (that is an error event): a callback of
    /// a world written by a host reported a failure, returned something malformed, or raised.
    World,
}

/// An error of the runtime.
#[derive(Debug)]
pub struct Error {
    kind: ErrorKind,
    message: String,
    source: Option<Box<dyn std::error::Error + Send + Sync + 'static>>,
}

impl Error {
    /// An error with a message.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: message.into(),
            source: None,
        }
    }

    /// Attaches the underlying cause.
    pub fn with_source(mut self, source: impl std::error::Error + Send + Sync + 'static) -> Self {
        self.source = Some(Box::new(source));
        self
    }

    /// What went wrong.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The message, without the cause.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        if let Some(s) = &self.source {
            write!(f, ": {s}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source
            .as_deref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}

/// The runtime's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Turns `ort`'s errors into ours, with a message that says what was being done.
pub(crate) trait Context<T> {
    fn context(self, kind: ErrorKind, what: impl FnOnce() -> String) -> Result<T>;
}

impl<T, E: std::error::Error + Send + Sync + 'static> Context<T> for std::result::Result<T, E> {
    fn context(self, kind: ErrorKind, what: impl FnOnce() -> String) -> Result<T> {
        self.map_err(|e| Error::new(kind, what()).with_source(e))
    }
}
