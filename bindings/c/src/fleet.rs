//! A fleet's experience stores through a database (`evoharness-fleet`): push a store's
//! replicas, pull the fleet's. Only in a library built with the feature `fleet` (the suite
//! library, `libevoharness_train`, has it; the default embedding library links no database):
//! the header declares these functions when `EVOHARNESS_FLEET` is defined.

use std::ffi::c_char;

use evoharness_fleet::{FleetDb, SyncError};

use crate::experience_store::evoharness_experience_store;
use crate::ffi::{self, Error, guard};
use crate::status::evoharness_status;

fn failed(url: &str, e: &SyncError) -> Error {
    let status = match e {
        // Busy or disconnected after the built-in attempts: worth trying again later.
        SyncError::Busy(_) | SyncError::Connection(_) => evoharness_status::Io,
        SyncError::Url(_) | SyncError::Version(_) => evoharness_status::InvalidArgument,
        SyncError::Refused(_) => evoharness_status::ExperienceStore,
        _ => evoharness_status::Other,
    };
    Error::new(status, format!("{url}: {e}"))
}

/// Pushes every replica `store` holds to the fleet database at `url` (`sqlite:PATH` or
/// `postgres://USER:PASSWORD@HOST:PORT/DB`), in one transaction: per replica the database keeps
/// the later of its row and the store's, so pushing again, or pushing what was pulled, changes
/// nothing. A busy database or a lost connection is retried (5 attempts, reconnecting). On
/// success `*changed` (if not NULL) is how many rows changed.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for a URL no database of this build opens;
/// `IO` when the database stayed busy or unreachable through the attempts (try again later:
/// nothing was lost); `OTHER` for anything else the database said.
///
/// # Safety
/// `store` is a live store that no thread changes meanwhile; `url` a NUL-terminated string;
/// `changed` NULL or a writable `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_fleet_push(
    store: *const evoharness_experience_store,
    url: *const c_char,
    changed: *mut usize,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let (store, url) = unsafe { (ffi::try_ref(store, "store")?, ffi::text(url, "url")?) };
        let mut db = FleetDb::open(url).map_err(|e| failed(url, &e))?;
        let pushed = db.push(store).map_err(|e| failed(url, &e))?;
        if !changed.is_null() {
            // SAFETY: the caller's contract: NULL or writable.
            unsafe { changed.write(pushed.changed) };
        }
        Ok(())
    })
}

/// Joins every replica of the fleet database at `url` into `store` (see
/// `evoharness_fleet_push`). Retried as a push is; on failure the store is unchanged. On
/// success `*replicas` (if not NULL) is how many rows were joined.
///
/// Errors: as `evoharness_fleet_push`, and `EXPERIENCE_STORE` for a row that is not a
/// replica's lessons (nothing is joined then).
///
/// # Safety
/// `store` is a live store that no other thread uses; `url` a NUL-terminated string;
/// `replicas` NULL or a writable `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn evoharness_fleet_pull(
    store: *mut evoharness_experience_store,
    url: *const c_char,
    replicas: *mut usize,
) -> evoharness_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let (store, url) = unsafe { (ffi::try_mut(store, "store")?, ffi::text(url, "url")?) };
        let mut db = FleetDb::open(url).map_err(|e| failed(url, &e))?;
        let pulled = db.pull(store).map_err(|e| failed(url, &e))?;
        if !replicas.is_null() {
            // SAFETY: the caller's contract: NULL or writable.
            unsafe { replicas.write(pulled.replicas) };
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experience_store::{
        evoharness_experience_store_free, evoharness_experience_store_lesson,
        evoharness_experience_store_new_replica, evoharness_experience_store_note,
        evoharness_experience_store_rate,
    };
    use crate::value::evoharness_value;
    use crate::workspace::evoharness_lesson;
    use std::ffi::CString;
    use std::ptr::{null, null_mut};

    fn text(s: &str) -> evoharness_value {
        evoharness_value::from_value(&evoharness_core::Value::text(s).unwrap())
    }

    #[test]
    fn push_and_pull_through_sqlite_count_once_and_fail_typed() {
        let dir = std::env::temp_dir().join(format!("evoharness-c-fleet-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let url = CString::new(format!("sqlite:{}", dir.join("fleet.db").display())).unwrap();
        let e = text("E429");
        let one = evoharness_value::from_value(&evoharness_core::Value::Int(1));
        // SAFETY: live stores, readable values and strings throughout.
        unsafe {
            let (mut a, mut b) = (null_mut(), null_mut());
            evoharness_experience_store_new_replica(4, 1, &mut a);
            evoharness_experience_store_new_replica(4, 2, &mut b);
            evoharness_experience_store_note(a, &e, &one);
            evoharness_experience_store_rate(a, &e, true);
            let mut changed = 9;
            assert_eq!(
                evoharness_fleet_push(a, url.as_ptr(), &mut changed),
                evoharness_status::Ok
            );
            assert_eq!(changed, 1);
            evoharness_fleet_push(a, url.as_ptr(), &mut changed);
            assert_eq!(changed, 0);
            let mut n = 0;
            for _ in 0..2 {
                assert_eq!(
                    evoharness_fleet_pull(b, url.as_ptr(), &mut n),
                    evoharness_status::Ok
                );
            }
            assert_eq!(n, 1);
            let mut l = std::mem::zeroed::<evoharness_lesson>();
            evoharness_experience_store_lesson(b, &e, &mut l);
            assert_eq!((l.helpful, l.noted), (1, 1));
            assert_eq!(
                evoharness_fleet_push(b, url.as_ptr(), null_mut()),
                evoharness_status::Ok
            );
            let bad = CString::new("mysql://x").unwrap();
            assert_eq!(
                evoharness_fleet_pull(b, bad.as_ptr(), null_mut()),
                evoharness_status::InvalidArgument
            );
            let missing = CString::new("sqlite:/no/such/dir/fleet.db").unwrap();
            assert_eq!(
                evoharness_fleet_push(a, missing.as_ptr(), null_mut()),
                evoharness_status::Io
            );
            assert_eq!(
                evoharness_fleet_push(null(), url.as_ptr(), null_mut()),
                evoharness_status::NullArgument
            );
            evoharness_experience_store_free(a);
            evoharness_experience_store_free(b);
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
