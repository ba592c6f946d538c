//! Sharing lessons across a fleet through a database.
//!
//! Each agent's [`ExperienceStore`] writes as one replica and merges as a join (see
//! [`evoharness_runtime::experience_store`]). A [`FleetDb`] keeps one row per replica: its id,
//! its version and its lessons ([`ReplicaBytes`]). An agent **pushes** its store — every
//! replica it holds, in one transaction, each an upsert that keeps the row with the larger
//! `(version, lessons)` — and **pulls** the fleet: every row, joined into its store. The upsert
//! is the join, row by row, done by the database: a push repeated, a push of something the
//! database already has, or two agents pushing at once change nothing that the join would
//! not, so nothing is lost and nothing is counted twice. A push that dies mid-transaction
//! (the process killed, the connection dropped) is rolled back by the database and is simply
//! pushed again later.
//!
//! Databases, by URL ([`FleetDb::open`]), each behind a feature of this crate:
//!
//! | URL | feature | database |
//! |---|---|---|
//! | `sqlite:PATH` or `sqlite://PATH` | `sqlite` (default) | SQLite, compiled in (rusqlite), WAL mode: one machine, many processes |
//! | `postgres://...` or `postgresql://...` | `postgres` | PostgreSQL (rust-postgres, no TLS): many machines |
//!
//! The table, made when missing:
//!
//! ```sql
//! CREATE TABLE evoharness_replicas (
//!     replica BIGINT PRIMARY KEY,   -- the replica's id, its 64 bits as a signed integer
//!     version BIGINT NOT NULL,      -- 1 to 2^63 - 1
//!     lessons BLOB NOT NULL         -- BYTEA on PostgreSQL: ReplicaBytes::lessons
//! );
//! ```
//!
//! # Errors and retries
//!
//! Every failure is a [`SyncError`]. A database locked by another writer past the wait
//! ([`SyncError::Busy`]) and a connection that cannot be made or was lost
//! ([`SyncError::Connection`]) are worth retrying; [`FleetDb::push`] and [`FleetDb::pull`] do
//! so themselves, reconnecting, up to the attempts set by [`FleetDb::with_attempts`] (5 by
//! default, with a growing pause), and return the last error after that. Nothing is lost
//! either way: the store is unchanged by a failed pull and still holds what a failed push
//! did not deliver.

mod error;
#[cfg(feature = "postgres")]
mod postgres;
mod sql;
#[cfg(feature = "sqlite")]
mod sqlite;

use std::fmt;
use std::thread;
use std::time::Duration;

use evoharness_runtime::{ExperienceStore, FileError, ReplicaBytes};

pub use error::SyncError;

#[cfg(not(any(feature = "sqlite", feature = "postgres")))]
compile_error!("evoharness-fleet needs a database: enable the feature sqlite or postgres");

/// What [`FleetDb::push`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pushed {
    /// Replicas offered (every one the store holds that has written something).
    pub replicas: usize,
    /// Rows that changed: the others the database had already, or later.
    pub changed: usize,
    /// Attempts it took (1 when nothing had to be retried).
    pub attempts: u32,
}

/// What [`FleetDb::pull`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pulled {
    /// Rows read and joined into the store.
    pub replicas: usize,
    /// Attempts it took.
    pub attempts: u32,
}

enum Conn {
    #[cfg(feature = "sqlite")]
    Sqlite(rusqlite::Connection),
    #[cfg(feature = "postgres")]
    Postgres(Box<::postgres::Client>),
}

/// A connection to a fleet database; see the [crate docs](crate).
pub struct FleetDb {
    url: String,
    conn: Option<Conn>,
    attempts: u32,
    busy_wait: Duration,
}

impl fmt::Debug for FleetDb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FleetDb")
            .field("url", &self.url)
            .field("connected", &self.conn.is_some())
            .field("attempts", &self.attempts)
            .finish()
    }
}

impl FleetDb {
    /// Connects to the database at `url` (see the [crate docs](crate)) and makes its table
    /// when missing. Not retried: a URL that does not open is [`SyncError::Url`] or
    /// [`SyncError::Connection`].
    pub fn open(url: &str) -> Result<Self, SyncError> {
        let mut db = Self {
            url: url.to_owned(),
            conn: None,
            attempts: 5,
            busy_wait: Duration::from_secs(5),
        };
        db.connect()?;
        Ok(db)
    }

    /// How many times [`FleetDb::push`] and [`FleetDb::pull`] try (at least 1).
    pub fn with_attempts(mut self, attempts: u32) -> Self {
        self.attempts = attempts.max(1);
        self
    }

    /// How long SQLite waits for another writer before an attempt is [`SyncError::Busy`]
    /// (5 s by default; PostgreSQL waits on row locks as long as it takes).
    pub fn with_busy_wait(mut self, wait: Duration) -> Result<Self, SyncError> {
        self.busy_wait = wait;
        self.conn = None;
        self.connect()?;
        Ok(self)
    }

    fn connect(&mut self) -> Result<&mut Conn, SyncError> {
        if self.conn.is_none() {
            self.conn = Some(connect(&self.url, self.busy_wait)?);
        }
        Ok(self.conn.as_mut().expect("connected above"))
    }

    /// Runs `f` on a connection up to the attempts, reconnecting after a lost connection and
    /// pausing after each failure (10 ms, doubling).
    fn retrying<T>(
        &mut self,
        mut f: impl FnMut(&mut Conn) -> Result<T, SyncError>,
    ) -> Result<(T, u32), SyncError> {
        let mut pause = Duration::from_millis(10);
        for attempt in 1.. {
            let result = self.connect().and_then(&mut f);
            match result {
                Ok(t) => return Ok((t, attempt)),
                Err(e) if e.is_retryable() && attempt < self.attempts => {
                    if matches!(e, SyncError::Connection(_)) {
                        self.conn = None;
                    }
                    thread::sleep(pause);
                    pause = pause.saturating_mul(2);
                }
                Err(e) => {
                    if matches!(e, SyncError::Connection(_)) {
                        self.conn = None;
                    }
                    return Err(e);
                }
            }
        }
        unreachable!("the loop returns")
    }

    /// Pushes every replica the store holds, in one transaction, keeping per replica the later
    /// of the database's row and the store's (see the [crate docs](crate)). Retried.
    pub fn push(&mut self, store: &ExperienceStore) -> Result<Pushed, SyncError> {
        let rows = store.replica_bytes();
        let mut params = Vec::with_capacity(rows.len());
        for r in &rows {
            let version = i64::try_from(r.version).map_err(|_| SyncError::Version(r.version))?;
            params.push((r.id as i64, version, &r.lessons[..]));
        }
        let (changed, attempts) = self.retrying(|conn| push_rows(conn, &params))?;
        Ok(Pushed {
            replicas: rows.len(),
            changed,
            attempts,
        })
    }

    /// Every row of the database, in ascending order of replica id. Retried.
    pub fn rows(&mut self) -> Result<Vec<ReplicaBytes>, SyncError> {
        let (mut rows, _) = self.retrying(read_rows)?;
        rows.sort_by_key(|r| r.id);
        Ok(rows)
    }

    /// Joins every row of the database into the store. Retried; a refused row joins nothing.
    pub fn pull(&mut self, store: &mut ExperienceStore) -> Result<Pulled, SyncError> {
        let (rows, attempts) = self.retrying(read_rows)?;
        store.join_bytes(&rows).map_err(SyncError::Refused)?;
        Ok(Pulled {
            replicas: rows.len(),
            attempts,
        })
    }
}

fn connect(url: &str, busy_wait: Duration) -> Result<Conn, SyncError> {
    if let Some(path) = url.strip_prefix("sqlite:") {
        let path = path.strip_prefix("//").unwrap_or(path);
        #[cfg(feature = "sqlite")]
        return sqlite::connect(path, busy_wait).map(Conn::Sqlite);
        #[cfg(not(feature = "sqlite"))]
        return Err(SyncError::Url(format!(
            "{url} (sqlite needs the feature sqlite)"
        )));
    }
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        #[cfg(feature = "postgres")]
        return postgres::connect(url).map(|c| Conn::Postgres(Box::new(c)));
        #[cfg(not(feature = "postgres"))]
        return Err(SyncError::Url(url.to_owned()));
    }
    let _ = busy_wait;
    Err(SyncError::Url(url.to_owned()))
}

fn push_rows(conn: &mut Conn, rows: &[(i64, i64, &[u8])]) -> Result<usize, SyncError> {
    match conn {
        #[cfg(feature = "sqlite")]
        Conn::Sqlite(c) => sqlite::push(c, rows),
        #[cfg(feature = "postgres")]
        Conn::Postgres(c) => postgres::push(c, rows),
    }
}

fn read_rows(conn: &mut Conn) -> Result<Vec<ReplicaBytes>, SyncError> {
    let raw = match conn {
        #[cfg(feature = "sqlite")]
        Conn::Sqlite(c) => sqlite::rows(c)?,
        #[cfg(feature = "postgres")]
        Conn::Postgres(c) => postgres::rows(c)?,
    };
    raw.into_iter()
        .map(|(id, version, lessons)| {
            let version = u64::try_from(version)
                .ok()
                .filter(|&v| v > 0)
                .ok_or(SyncError::Refused(FileError::Malformed("replica version")))?;
            Ok(ReplicaBytes {
                id: id as u64,
                version,
                lessons,
            })
        })
        .collect()
}
