//! The SQL both databases run: the table and the join as an upsert.

/// The one table's definition, in SQL both databases read (BLOB is BYTEA on PostgreSQL).
#[cfg(feature = "sqlite")]
pub(crate) const TABLE_SQLITE: &str = "CREATE TABLE IF NOT EXISTS evoharness_replicas (
    replica INTEGER PRIMARY KEY, version INTEGER NOT NULL, lessons BLOB NOT NULL)";
#[cfg(feature = "postgres")]
pub(crate) const TABLE_POSTGRES: &str = "CREATE TABLE IF NOT EXISTS evoharness_replicas (
    replica BIGINT PRIMARY KEY, version BIGINT NOT NULL, lessons BYTEA NOT NULL)";

/// The join as an upsert: the row with the larger (version, lessons) stays. Both databases
/// compare blobs byte by byte, a prefix first, as the store does.
macro_rules! upsert {
    ($a:literal, $b:literal, $c:literal) => {
        concat!(
            "INSERT INTO evoharness_replicas (replica, version, lessons) VALUES (",
            $a,
            ", ",
            $b,
            ", ",
            $c,
            ") ON CONFLICT (replica) DO UPDATE SET version = excluded.version, \
             lessons = excluded.lessons \
             WHERE excluded.version > evoharness_replicas.version \
             OR (excluded.version = evoharness_replicas.version \
             AND excluded.lessons > evoharness_replicas.lessons)"
        )
    };
}

pub(crate) const SELECT: &str = "SELECT replica, version, lessons FROM evoharness_replicas";

pub(crate) use upsert;
