//! PostgreSQL through the synchronous postgres client (no TLS).

use postgres::error::SqlState;
use postgres::{Client, NoTls};

use crate::error::SyncError;
use crate::sql::{SELECT, TABLE_POSTGRES, upsert};

fn error(e: postgres::Error) -> SyncError {
    match e.code() {
        Some(c)
            if *c == SqlState::T_R_SERIALIZATION_FAILURE
                || *c == SqlState::T_R_DEADLOCK_DETECTED
                || *c == SqlState::LOCK_NOT_AVAILABLE =>
        {
            SyncError::Busy(e.to_string())
        }
        Some(c)
            if *c == SqlState::ADMIN_SHUTDOWN
                || *c == SqlState::CRASH_SHUTDOWN
                || *c == SqlState::CANNOT_CONNECT_NOW
                || c.code().starts_with("08") =>
        {
            SyncError::Connection(e.to_string())
        }
        Some(_) => SyncError::Database(e.to_string()),
        // No SQL state: the connection itself (closed, reset, refused).
        None => SyncError::Connection(e.to_string()),
    }
}

pub(crate) fn connect(url: &str) -> Result<Client, SyncError> {
    let mut c = Client::connect(url, NoTls).map_err(|e| SyncError::Connection(e.to_string()))?;
    // Two first pushes may race to make the table: one waits for the other's lock.
    c.batch_execute(&format!(
        "SELECT pg_advisory_lock(7269); {TABLE_POSTGRES}; SELECT pg_advisory_unlock(7269)"
    ))
    .map_err(error)?;
    Ok(c)
}

pub(crate) fn push(c: &mut Client, rows: &[(i64, i64, &[u8])]) -> Result<usize, SyncError> {
    let mut tx = c.transaction().map_err(error)?;
    let stmt = tx.prepare(upsert!("$1", "$2", "$3")).map_err(error)?;
    let mut changed = 0;
    // In ascending id order, as the store gives them: concurrent pushes lock rows in one
    // order and never deadlock.
    for (id, version, lessons) in rows {
        changed += tx.execute(&stmt, &[id, version, lessons]).map_err(error)? as usize;
    }
    tx.commit().map_err(error)?;
    Ok(changed)
}

pub(crate) fn rows(c: &mut Client) -> Result<Vec<(i64, i64, Vec<u8>)>, SyncError> {
    Ok(c.query(SELECT, &[])
        .map_err(error)?
        .into_iter()
        .map(|r| (r.get(0), r.get(1), r.get(2)))
        .collect())
}
