//! What can go wrong talking to a fleet database.

use std::fmt;

use evoharness_runtime::FileError;

/// What went wrong talking to a fleet database.
#[derive(Debug)]
#[non_exhaustive]
pub enum SyncError {
    /// Another writer held the database past the wait, or the database gave up a transaction
    /// over a conflict: worth retrying.
    Busy(String),
    /// The connection could not be made or was lost: worth retrying, reconnecting.
    Connection(String),
    /// Anything else the database said.
    Database(String),
    /// A row the database holds is not a replica's lessons.
    Refused(FileError),
    /// A URL no database of this build opens.
    Url(String),
    /// A replica's version past what the database's signed 64-bit column holds.
    Version(u64),
}

impl SyncError {
    /// Whether trying again may succeed: [`SyncError::Busy`] and [`SyncError::Connection`].
    pub fn is_retryable(&self) -> bool {
        matches!(self, Self::Busy(_) | Self::Connection(_))
    }
}

impl fmt::Display for SyncError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Busy(m) => write!(f, "the fleet database is busy (retry): {m}"),
            Self::Connection(m) => write!(f, "no connection to the fleet database (retry): {m}"),
            Self::Database(m) => write!(f, "the fleet database failed: {m}"),
            Self::Refused(e) => write!(f, "a row of the fleet database was refused: {e}"),
            Self::Url(u) => write!(
                f,
                "{u:?} is not a fleet database this build opens (sqlite:PATH{})",
                if cfg!(feature = "postgres") {
                    ", postgres://..."
                } else {
                    "; postgres://... needs the feature postgres"
                }
            ),
            Self::Version(v) => write!(f, "version {v} is past what the database holds (2^63 - 1)"),
        }
    }
}

impl std::error::Error for SyncError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Refused(e) => Some(e),
            _ => None,
        }
    }
}
