//! `evoharness fleet`: share experience stores through a database (push, pull, show).

use std::path::Path;

use evoharness_fleet::{FleetDb, SyncError};
use evoharness_runtime::{ExperienceStore, Replica};

use crate::args::{self, Flag, Usage};
use crate::failure::Failure;

const FLAGS: &[Flag] = &[
    Flag::value("--db", "a database URL"),
    Flag::value("--store", "an experience store file"),
    Flag::value("--budget", "a number of lessons"),
    Flag::value("--replica", "a replica id"),
    Flag::switch("--json"),
    // worth
    Flag::value("--task", "migration, records or orchestration"),
    Flag::value("--scenario", "v2 or v3"),
    Flag::value("--horizon", "a number of steps"),
    Flag::value("--organisations", "a number N or a range A..B"),
    Flag::value("--train-seeds", "a range A..B"),
    Flag::value("--seeds", "a range A..B"),
    Flag::value("--agent", "a baseline"),
];

pub(crate) fn help() -> String {
    "\
evoharness fleet: share experience stores through a database

Usage:
  evoharness fleet push --db URL --store FILE   push every replica the store holds
  evoharness fleet pull --db URL --store FILE   join the fleet's replicas into the store
  evoharness fleet show --db URL [--json]       the fleet's replicas and the lessons they add up to
  evoharness fleet worth --db URL --task TASK   what sharing is worth on the task suite

A store writes as one replica (one per agent); the database keeps one row per replica, the
later of what it had and what is pushed, so pushing again, pushing in any order or pulling
and pushing back counts nothing twice. A busy database or a lost connection is retried.

Databases:
  sqlite:PATH                 SQLite (WAL mode): one machine, many processes
  postgres://USER:PASSWORD@HOST:PORT/DB
                              PostgreSQL: many machines

Options:
  --db URL        the fleet's database
  --store FILE    an experience store file (pull makes it when missing)
  --budget N      pull into a new store: its budget (default 1024)
  --replica ID    pull into a new store: its replica (default: drawn at random)
  --json          show, worth: one JSON object instead of a table
  -h, --help      this help

worth (an empty database): one agent per organisation (--organisations, default 0..16) runs
--train-seeds (default 0..20) there and pushes its store; then on each organisation a new agent
that pulls the fleet before its first episode and a new agent that starts empty run the same
--seeds (default 100000..100040), paired episode by episode: reward and failed remedies, with
95% intervals. --agent: a baseline that recalls (default tuned); --scenario v2 (default) or
v3; --horizon (default 100).
"
    .to_string()
}

fn sync_failure(url: &str, e: &SyncError) -> Failure {
    Failure::other(format!("{url}: {e}"))
}

pub(crate) fn main(argv: impl Iterator<Item = String>) -> Result<(), Failure> {
    let p = args::parse("fleet", FLAGS, argv)?;
    if p.help {
        print!("{}", help());
        return Ok(());
    }
    let [action] = p.positionals([("ACTION", "push, pull, show or worth")])?;
    let usage = |m: &str| Usage::new("fleet", m.to_string());
    let url = p
        .value("--db")
        .ok_or_else(|| usage("missing --db URL (sqlite:PATH or postgres://...)"))?;
    let store_path = || {
        p.value("--store")
            .ok_or_else(|| usage("missing --store FILE (an experience store file)"))
    };
    match action {
        "push" => {
            let path = store_path()?;
            let store = ExperienceStore::load(path).map_err(|e| Failure::about(path, &e))?;
            let mut db = FleetDb::open(url).map_err(|e| sync_failure(url, &e))?;
            let pushed = db.push(&store).map_err(|e| sync_failure(url, &e))?;
            println!(
                "pushed {} replicas of {path} ({} rows changed, {} attempts)",
                pushed.replicas, pushed.changed, pushed.attempts
            );
        }
        "pull" => {
            let path = store_path()?;
            let mut store = if Path::new(path).exists() {
                ExperienceStore::load(path).map_err(|e| Failure::about(path, &e))?
            } else {
                let budget = p
                    .parse::<usize>("--budget", "a number of lessons")?
                    .unwrap_or(1024);
                let made = match p.parse::<u64>("--replica", "a replica id (a number)")? {
                    Some(id) => ExperienceStore::for_replica(budget, id),
                    None => ExperienceStore::new(budget),
                };
                made.map_err(|e| Failure::runtime(&e))?
            };
            let mut db = FleetDb::open(url).map_err(|e| sync_failure(url, &e))?;
            let pulled = db.pull(&mut store).map_err(|e| sync_failure(url, &e))?;
            store.save(path).map_err(|e| Failure::about(path, &e))?;
            println!(
                "pulled {} replicas into {path}: {} lessons seen",
                pulled.replicas,
                store.len()
            );
        }
        "show" => {
            let mut db = FleetDb::open(url).map_err(|e| sync_failure(url, &e))?;
            // A store of no replica of its own: the fleet as it is.
            let mut fleet = ExperienceStore::for_replica(1, 0).map_err(|e| Failure::runtime(&e))?;
            db.pull(&mut fleet).map_err(|e| sync_failure(url, &e))?;
            let replicas: Vec<Replica<'_>> = fleet
                .replicas()
                .into_iter()
                .filter(|r| r.version > 0)
                .collect();
            if p.switch("--json") {
                let json = serde_json::json!({
                    "replicas": replicas.iter().map(|r| serde_json::json!({
                        "id": r.id, "version": r.version, "lessons": r.lessons.len(),
                    })).collect::<Vec<_>>(),
                    "lessons": fleet.lessons(),
                });
                println!("{json:#}");
            } else {
                println!("{} replicas", replicas.len());
                println!("  replica               version  lessons");
                for r in &replicas {
                    println!("  {:016x}  {:>9}  {:>7}", r.id, r.version, r.lessons.len());
                }
                println!("{} lessons (summed over replicas)", fleet.len());
                println!(
                    "  trigger                remedy                 helpful harmful uses noted"
                );
                for l in fleet.lessons() {
                    let v = |v| serde_json::to_string(v).unwrap_or_default();
                    println!(
                        "  {:<22} {:<22} {:>7} {:>7} {:>4} {:>5}",
                        v(&l.trigger),
                        v(&l.remedy),
                        l.helpful,
                        l.harmful,
                        l.uses,
                        l.noted
                    );
                }
            }
        }
        "worth" => return crate::fleet_worth::main(&p, url),
        other => {
            return Err(usage(&format!(
                "unknown action `{other}`: expected push, pull, show or worth"
            ))
            .into());
        }
    }
    Ok(())
}
