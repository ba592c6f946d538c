//! A fleet database under faults: processes pushing and pulling at once, killed with SIGKILL at
//! random (mid-transaction among other places), pushing twice; a database locked by another
//! writer; a connection dropped by the server. Afterwards the database holds, per replica,
//! exactly that replica's last state — nothing lost, nothing counted twice — and every failure
//! on the way was a typed error and a retry.
//!
//! SQLite runs with `cargo test -p evoharness-fleet`. PostgreSQL needs a server:
//! `scripts/start-postgres.sh` starts one and prints its URL; then
//!
//! ```sh
//! EVOHARNESS_TEST_POSTGRES=$(scripts/start-postgres.sh) \
//!   cargo test -p evoharness-fleet --features postgres --test faults -- --ignored postgres
//! ```

use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use evoharness_core::Value;
use evoharness_fleet::{FleetDb, SyncError};
use evoharness_runtime::{ExperienceStore, ReplicaBytes};

const WORKERS: u64 = 8;
/// Each worker's own lessons reach this version, then it stops.
const TARGET: u64 = 240;
const BUDGET: usize = 6;
const WORKER_ENV: &str = "EVOHARNESS_FLEET_WORKER";

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("fleet-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn mix(a: u64, b: u64) -> u64 {
    let mut z = a ^ b.wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(17);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// One worker: replica `id`, continuing from its file. Each round changes its lessons, saves
/// the file (so the file always holds at least what was pushed), pushes (sometimes twice) and
/// sometimes pulls the fleet. Killed at any instant, it continues from its file when started
/// again.
fn work(url: &str, dir: &Path, id: u64) {
    let file = dir.join(format!("{id}.evhe"));
    let mut store = ExperienceStore::load(&file)
        .unwrap_or_else(|_| ExperienceStore::for_replica(BUDGET, id).unwrap());
    let mut db = FleetDb::open(url)
        .expect("the fleet database")
        .with_attempts(50);
    while store.version() < TARGET {
        let r = mix(id, store.version());
        for k in 0..1 + r % 4 {
            let x = mix(r, k);
            let trigger = Value::text(&format!("E{}", x % 12)).unwrap();
            // The first change is a note, so every round moves the version on.
            match if k == 0 { 0 } else { x >> 60 } {
                0..=7 => {
                    store.note(trigger, Value::Int((x >> 8) as i64 % 3));
                }
                8..=13 => {
                    store.rate(&trigger, x & 1 == 0);
                }
                _ => {
                    store.count_use(&trigger);
                }
            }
        }
        store.save(&file).unwrap();
        // A mark while pushing: the test counts the kills that land inside a push.
        let mark = dir.join(format!("{id}.pushing"));
        std::fs::write(&mark, b"").unwrap();
        db.push(&store).expect("a push, retried");
        if r.is_multiple_of(5) {
            db.push(&store).expect("the same push again");
        }
        std::fs::remove_file(&mark).unwrap();
        if r.is_multiple_of(3) {
            db.pull(&mut store).expect("a pull, retried");
            store.save(&file).unwrap();
        }
    }
    // Killed after its last save and before its push, a worker started again has nothing
    // left to change but still its last state to push.
    db.push(&store).expect("the last push");
}

/// Run by the fault tests in processes of their own (this test binary again); does nothing
/// otherwise.
#[test]
#[ignore = "a worker process of the fault tests"]
fn worker() {
    let Ok(spec) = std::env::var(WORKER_ENV) else {
        return;
    };
    let mut parts = spec.splitn(3, '|');
    let (id, dir, url) = (
        parts.next().unwrap().parse().unwrap(),
        PathBuf::from(parts.next().unwrap()),
        parts.next().unwrap(),
    );
    work(url, &dir, id);
}

fn spawn(url: &str, dir: &Path, id: u64) -> Child {
    Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "worker", "--ignored", "--test-threads=1", "-q"])
        .env(WORKER_ENV, format!("{id}|{}|{url}", dir.display()))
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap()
}

/// Eight workers, killed at random for `kill_for`, then run to the end; the database must
/// hold each replica's last state.
fn kill_and_check(url: &str, dir: &Path, kill_for: Duration) {
    let mut children: Vec<Child> = (0..WORKERS).map(|i| spawn(url, dir, i + 1)).collect();
    let start = Instant::now();
    let (mut kills, mut in_push, mut r) = (0, 0, 12345u64);
    while start.elapsed() < kill_for {
        r = mix(r, kills);
        std::thread::sleep(Duration::from_millis(5 + r % 40));
        let i = (r >> 32) as usize % children.len();
        if children[i].try_wait().unwrap().is_none() {
            children[i].kill().unwrap(); // SIGKILL
            children[i].wait().unwrap();
            kills += 1;
            let mark = dir.join(format!("{}.pushing", i + 1));
            if std::fs::remove_file(mark).is_ok() {
                in_push += 1;
            }
        }
        children[i] = spawn(url, dir, i as u64 + 1);
    }
    let deadline = Instant::now() + Duration::from_secs(300);
    for (i, c) in children.iter_mut().enumerate() {
        loop {
            if let Some(status) = c.try_wait().unwrap() {
                assert!(status.success(), "worker {} failed: {status}", i + 1);
                break;
            }
            assert!(Instant::now() < deadline, "worker {} did not finish", i + 1);
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    assert!(kills >= 10, "only {kills} kills");
    assert!(in_push >= 1, "no kill landed inside a push ({kills} kills)");
    // Every replica's last state is its file's own lessons.
    let finals: Vec<ExperienceStore> = (1..=WORKERS)
        .map(|i| ExperienceStore::load(dir.join(format!("{i}.evhe"))).unwrap())
        .collect();
    let expected: Vec<ReplicaBytes> = finals
        .iter()
        .map(|s| {
            let own = s
                .replica_bytes()
                .into_iter()
                .find(|r| r.id == s.replica())
                .unwrap();
            assert_eq!(own.version, TARGET.max(own.version));
            own
        })
        .collect();
    let mut db = FleetDb::open(url).unwrap();
    let rows = db.rows().unwrap();
    assert_eq!(
        rows, expected,
        "the database lost or changed a replica's last state"
    );
    // And what an agent pulls is the join of those states: each lesson counted once.
    let mut pulled = ExperienceStore::for_replica(1, 1000).unwrap();
    db.pull(&mut pulled).unwrap();
    let mut joined = ExperienceStore::for_replica(1, 1000).unwrap();
    for s in &finals {
        joined.join_bytes(&s.replica_bytes()).unwrap();
    }
    let lessons = |s: &ExperienceStore| {
        s.lessons()
            .iter()
            .map(|l| {
                (
                    format!("{:?}{:?}", l.trigger, l.remedy),
                    [l.helpful, l.harmful, l.uses, l.noted],
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(lessons(&pulled), lessons(&joined));
    let sum_noted: u32 = expected
        .iter()
        .map(|r| {
            let mut one = ExperienceStore::for_replica(1, 2000).unwrap();
            one.join_bytes(std::slice::from_ref(r)).unwrap();
            one.lessons()
                .iter()
                .map(|l| u32::from(l.noted))
                .sum::<u32>()
        })
        .sum();
    let seen_noted: u32 = pulled.lessons().iter().map(|l| u32::from(l.noted)).sum();
    assert!(seen_noted <= sum_noted);
    eprintln!(
        "{kills} kills, {in_push} inside a push; {} replicas, {} lessons seen",
        rows.len(),
        pulled.len()
    );
}

/// Two stores that disagree, pushed in every order and twice: the database ends the same.
fn pushes_are_a_join(url: &str) {
    let mut a = ExperienceStore::for_replica(4, 1).unwrap();
    let mut b = ExperienceStore::for_replica(4, 2).unwrap();
    let e = Value::text("E429").unwrap();
    a.note(e.clone(), Value::Int(1));
    a.rate(&e, true);
    b.note(e.clone(), Value::Int(1));
    let mut db = FleetDb::open(url).unwrap();
    let first = db.push(&a).unwrap();
    assert_eq!((first.replicas, first.changed, first.attempts), (1, 1, 1));
    assert_eq!(
        db.push(&a).unwrap().changed,
        0,
        "a push again changed a row"
    );
    db.push(&b).unwrap();
    // b pulls a's lessons and pushes both: a's row is already there, unchanged.
    db.pull(&mut b).unwrap();
    let p = db.push(&b).unwrap();
    assert_eq!((p.replicas, p.changed), (2, 0));
    assert_eq!(b.get(&e).unwrap().noted, 2);
    // An older state of a is no news.
    let old = a.clone();
    a.rate(&e, true);
    db.push(&a).unwrap();
    assert_eq!(db.push(&old).unwrap().changed, 0);
    let mut c = ExperienceStore::for_replica(4, 3).unwrap();
    db.pull(&mut c).unwrap();
    db.pull(&mut c).unwrap();
    let l = c.get(&e).unwrap();
    assert_eq!((l.helpful, l.noted), (2, 2));
}

#[test]
fn sqlite_pushes_are_a_join() {
    let dir = scratch("sqlite-join");
    pushes_are_a_join(&format!("sqlite:{}", dir.join("fleet.db").display()));
}

#[test]
fn sqlite_keeps_every_replicas_last_state_through_kills() {
    let dir = scratch("sqlite-kills");
    let url = format!("sqlite:{}", dir.join("fleet.db").display());
    kill_and_check(&url, &dir, Duration::from_secs(4));
}

#[test]
fn a_locked_sqlite_database_is_a_typed_error_and_a_retry() {
    let dir = scratch("sqlite-locked");
    let path = dir.join("fleet.db");
    let url = format!("sqlite:{}", path.display());
    let mut store = ExperienceStore::for_replica(4, 1).unwrap();
    store.note(Value::Int(1), Value::Int(2));
    let mut db = FleetDb::open(&url)
        .unwrap()
        .with_attempts(1)
        .with_busy_wait(Duration::from_millis(50))
        .unwrap();
    // Another writer holds the database.
    let holder = rusqlite_holder(&path);
    match db.push(&store) {
        Err(e @ SyncError::Busy(_)) => assert!(e.is_retryable(), "{e}"),
        other => panic!("{other:?}"),
    }
    // Retried while the other writer lets go: it lands.
    let mut db = db.with_attempts(20);
    let release = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(200));
        drop(holder);
    });
    let pushed = db.push(&store).unwrap();
    release.join().unwrap();
    assert!(pushed.attempts > 1, "{pushed:?}");
    assert_eq!(db.rows().unwrap(), store.replica_bytes());
}

/// A process that holds a write transaction open, until dropped.
struct Holder(Child);

impl Drop for Holder {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Another process in an open write transaction on the database at `path`, until dropped.
fn rusqlite_holder(path: &Path) -> Holder {
    // sqlite3's shell may be missing: hold the lock from this very binary instead.
    let child = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "lock_holder",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
            "-q",
        ])
        .env("EVOHARNESS_FLEET_LOCK", path)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut child = child;
    // Wait for "locked" on its stdout (after the test harness's own lines).
    use std::io::Read;
    let mut out = child.stdout.take().unwrap();
    let mut seen = Vec::new();
    let mut byte = [0u8; 1];
    while !seen.ends_with(b"locked") {
        assert_eq!(out.read(&mut byte).unwrap(), 1, "the lock holder ended");
        seen.push(byte[0]);
    }
    Holder(child)
}

/// Holds a write lock on the SQLite database named by the environment until killed.
#[test]
#[ignore = "a helper process of the locked-database test"]
fn lock_holder() {
    let Some(path) = std::env::var_os("EVOHARNESS_FLEET_LOCK") else {
        return;
    };
    let url = format!("sqlite:{}", Path::new(&path).display());
    let _db = FleetDb::open(&url).unwrap();
    let c = rusqlite::Connection::open(&path).unwrap();
    c.execute_batch("BEGIN IMMEDIATE").unwrap();
    use std::io::Write;
    print!("locked");
    std::io::stdout().flush().unwrap();
    std::thread::sleep(Duration::from_secs(60));
}

#[test]
fn urls_no_database_opens_are_refused() {
    for url in ["", "mysql://x", "/tmp/x.db"] {
        assert!(
            matches!(FleetDb::open(url), Err(SyncError::Url(_))),
            "{url}"
        );
    }
    let missing = scratch("missing").join("no/such/dir/fleet.db");
    let e = FleetDb::open(&format!("sqlite:{}", missing.display())).unwrap_err();
    assert!(matches!(e, SyncError::Connection(_)), "{e}");
}

#[cfg(feature = "postgres")]
mod postgres_server {
    use super::*;

    fn url() -> String {
        std::env::var("EVOHARNESS_TEST_POSTGRES").expect(
            "EVOHARNESS_TEST_POSTGRES: the URL scripts/start-postgres.sh prints (a server to test \
             against)",
        )
    }

    fn fresh(url: &str) {
        let mut c = postgres::Client::connect(url, postgres::NoTls)
            .unwrap_or_else(|e| panic!("cannot connect to EVOHARNESS_TEST_POSTGRES={url:?}: {e}"));
        c.batch_execute("DROP TABLE IF EXISTS evoharness_replicas")
            .unwrap();
    }

    /// One test, in order: they share the server's one table.
    #[test]
    #[ignore = "needs a PostgreSQL server: EVOHARNESS_TEST_POSTGRES (see the module docs)"]
    fn postgres_joins_survives_kills_and_dropped_connections() {
        let url = url();
        fresh(&url);
        pushes_are_a_join(&url);

        // The server drops the connection: the next push is a typed error without retries,
        // and lands with them (reconnecting).
        fresh(&url);
        let mut store = ExperienceStore::for_replica(4, 1).unwrap();
        store.note(Value::Int(1), Value::Int(2));
        let mut db = FleetDb::open(&url).unwrap().with_attempts(1);
        db.push(&store).unwrap();
        let terminate = |url: &str| {
            let mut admin = postgres::Client::connect(url, postgres::NoTls).unwrap();
            admin
                .batch_execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
                     WHERE usename = current_user AND pid <> pg_backend_pid()",
                )
                .unwrap();
        };
        terminate(&url);
        store.note(Value::Int(2), Value::Int(3));
        match db.push(&store) {
            Err(e @ SyncError::Connection(_)) => assert!(e.is_retryable(), "{e}"),
            other => panic!("{other:?}"),
        }
        let mut db = db.with_attempts(5);
        terminate(&url);
        let pushed = db.push(&store).unwrap();
        assert_eq!(pushed.changed, 1);
        assert_eq!(db.rows().unwrap(), store.replica_bytes());

        fresh(&url);
        let dir = scratch("postgres-kills");
        kill_and_check(&url, &dir, Duration::from_secs(4));
    }
}
