//! SQLite through rusqlite (SQLite compiled in), in WAL mode.

use std::time::Duration;

use rusqlite::{Connection, ErrorCode, TransactionBehavior};

use crate::error::SyncError;
use crate::sql::{SELECT, TABLE_SQLITE, upsert};

fn error(e: rusqlite::Error) -> SyncError {
    match e.sqlite_error_code() {
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => SyncError::Busy(e.to_string()),
        Some(ErrorCode::CannotOpen | ErrorCode::NotADatabase) => {
            SyncError::Connection(e.to_string())
        }
        _ => SyncError::Database(e.to_string()),
    }
}

pub(crate) fn connect(path: &str, busy_wait: Duration) -> Result<Connection, SyncError> {
    let c = Connection::open(path).map_err(|e| SyncError::Connection(e.to_string()))?;
    c.busy_timeout(busy_wait).map_err(error)?;
    // WAL: readers never wait for the writer, and a writer killed mid-transaction leaves
    // the database as it was before it.
    let mode: String = c
        .query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))
        .map_err(error)?;
    if !mode.eq_ignore_ascii_case("wal") {
        return Err(SyncError::Database(format!(
            "{path}: journal mode {mode}, not WAL"
        )));
    }
    c.execute(TABLE_SQLITE, []).map_err(error)?;
    Ok(c)
}

pub(crate) fn push(c: &mut Connection, rows: &[(i64, i64, &[u8])]) -> Result<usize, SyncError> {
    // Immediate: the write lock first, so two writers never deadlock upgrading.
    let tx = c
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(error)?;
    let mut changed = 0;
    {
        let mut stmt = tx
            .prepare_cached(upsert!("?1", "?2", "?3"))
            .map_err(error)?;
        for (id, version, lessons) in rows {
            changed += stmt.execute((id, version, lessons)).map_err(error)?;
        }
    }
    tx.commit().map_err(error)?;
    Ok(changed)
}

pub(crate) fn rows(c: &mut Connection) -> Result<Vec<(i64, i64, Vec<u8>)>, SyncError> {
    let mut stmt = c.prepare_cached(SELECT).map_err(error)?;
    let rows = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .map_err(error)?
        .collect::<Result<Vec<_>, _>>()
        .map_err(error)?;
    Ok(rows)
}
