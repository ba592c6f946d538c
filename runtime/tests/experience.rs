//! An agent with an experience store behind its working set: notes, ratings and recalls write
//! through, a recall brings the store's matches in, and the store travels in checkpoints.

use evoharness_core::obs::Template;
use evoharness_core::{Capacities, EventBuf, EventKind, Outcome, ToolCall, Value};
use evoharness_runtime::checkpoint::{self, Checkpoint};
use evoharness_runtime::{
    Agent, AgentConfig, CheckpointError, Decision, ErrorKind, ExperienceStore, External, FileError,
    World,
};

/// One tool; every call (and the reset) shows the next error code of the list, as field 0.
struct Codes {
    codes: Vec<&'static str>,
    next: usize,
}

impl Codes {
    fn new(codes: &[&'static str]) -> Self {
        Self {
            codes: codes.to_vec(),
            next: 0,
        }
    }

    fn event(&mut self, kind: EventKind) -> EventBuf {
        let code = self.codes[self.next % self.codes.len()];
        self.next += 1;
        EventBuf::new(kind, 0)
            .with("code", Value::text(code).unwrap())
            .unwrap()
    }
}

impl World for Codes {
    fn tools(&self) -> u16 {
        1
    }

    fn reset(&mut self, _seed: u64) -> EventBuf {
        self.next = 0;
        self.event(EventKind::Notice)
    }

    fn call(&mut self, _call: &ToolCall) -> EventBuf {
        self.event(EventKind::Result)
    }
}

const CAPS: Capacities = Capacities {
    facts: 4,
    steps: 4,
    lessons: 3,
    tools: 1,
};

fn agent(codes: &[&'static str]) -> Agent<Codes, External> {
    Agent::new(External(CAPS), Codes::new(codes), AgentConfig::default()).unwrap()
}

fn step(a: &mut Agent<Codes, External>, t: Template) -> Outcome {
    let i = a.layout().index(t).unwrap();
    a.step_with(&Decision::Template(i))
        .unwrap()
        .unwrap()
        .outcome
}

const ACT: Template = Template::Act { tool: 0, arg: None };
const NOTE: Template = Template::NoteField { field: 0 };
const RECALL: Template = Template::Recall { field: 0 };

fn rate(lesson: u16, helpful: bool) -> Template {
    Template::Rate { lesson, helpful }
}

fn text(s: &str) -> Value {
    Value::text(s).unwrap()
}

fn snapshot(a: &Agent<Codes, External>) -> Vec<u8> {
    let ws = a.workspace();
    let mut buf = vec![0; evoharness_core::snapshot::max_len(ws.capacities())];
    let n = ws.snapshot(&mut buf).unwrap().len();
    buf.truncate(n);
    buf
}

#[test]
fn notes_ratings_and_recalls_write_through() {
    let mut a = agent(&["E429", "E500"]);
    assert!(
        a.set_experience_store(ExperienceStore::new(8).unwrap())
            .is_none()
    );
    step(&mut a, ACT);
    step(&mut a, NOTE);
    step(&mut a, rate(0, true));
    step(&mut a, rate(0, false));
    step(&mut a, rate(0, true));
    step(&mut a, NOTE);
    let recalled = step(&mut a, RECALL);
    assert!(matches!(recalled, Outcome::Recalled(ref r) if r.len() == 1));
    let ws = &a.workspace().experience().lessons()[0];
    let st = a.experience_store().unwrap().get(&text("E500")).unwrap();
    assert_eq!(ws.trigger, text("E500"));
    assert_eq!(
        (&st.remedy, st.helpful, st.harmful, st.noted, st.uses),
        (&ws.remedy, ws.helpful, ws.harmful, ws.noted, ws.uses)
    );
    assert_eq!((st.helpful, st.harmful, st.noted, st.uses), (2, 1, 2, 1));
    // Consolidation evicts from the working set only.
    let i = a.layout().index(Template::Consolidate).unwrap();
    a.step_with(&Decision::Template(i)).unwrap();
    assert_eq!(a.experience_store().unwrap().len(), 1);
    let store = a.take_experience_store().unwrap();
    assert!(a.experience_store().is_none());
    assert_eq!(store.len(), 1);
}

#[test]
fn an_agent_that_forgets_starts_as_a_new_one() {
    let mut a = agent(&["E429", "E500"]);
    a.set_experience_store(ExperienceStore::new(8).unwrap());
    step(&mut a, ACT);
    step(&mut a, NOTE);
    a.start_task(1);
    assert_eq!(
        a.workspace().experience().len(),
        1,
        "a new task keeps Experience"
    );
    assert!(a.workspace().clock() > 0);
    a.forget().unwrap();
    a.start_task(2);
    let ws = a.workspace();
    assert_eq!((ws.experience().len(), ws.clock(), ws.spent()), (0, 0, 0));
    assert_eq!(ws.capacities(), CAPS);
    let store = a.experience_store().expect("the store is kept, emptied");
    assert_eq!((store.len(), store.budget()), (0, 8));
    assert_eq!(
        step(&mut a, RECALL),
        Outcome::Recalled(Default::default()),
        "nothing left to recall"
    );
    // Without a store it stays without one.
    let mut plain = agent(&["E429"]);
    plain.forget().unwrap();
    assert!(plain.experience_store().is_none());
}

#[test]
fn a_recall_brings_the_stores_matches_into_the_working_set() {
    // One agent learns what to do about E429 and E500.
    let mut teacher = agent(&["start", "E429", "E500"]);
    teacher.set_experience_store(ExperienceStore::new(8).unwrap());
    step(&mut teacher, ACT);
    step(&mut teacher, NOTE);
    step(&mut teacher, rate(0, true));
    step(&mut teacher, ACT);
    step(&mut teacher, NOTE);
    let store = teacher.take_experience_store().unwrap();
    assert_eq!(store.len(), 2);

    // Without a store a fresh agent recalls nothing; with it, the lesson comes in.
    let mut plain = agent(&["E429"]);
    assert_eq!(
        step(&mut plain, RECALL),
        Outcome::Recalled(Default::default())
    );
    let mut a = agent(&["E429"]);
    a.set_experience_store(store.clone());
    let Outcome::Recalled(found) = step(&mut a, RECALL) else {
        panic!("a recall recalls");
    };
    assert_eq!(found.len(), 1);
    let l = &a.workspace().experience().lessons()[usize::from(found[0].slot)];
    assert_eq!((&l.trigger, l.helpful, l.uses), (&text("E429"), 1, 1));
    assert_eq!(a.summary().harness_actions, 1);
    assert_eq!(a.workspace().spent(), 1, "a recall costs its step, as ever");

    // A full working set makes room: the weakest lesson that does not match the query goes.
    let mut full = agent(&["start", "X1", "X2", "X3", "E429"]);
    full.set_experience_store(ExperienceStore::new(8).unwrap());
    step(&mut full, ACT);
    step(&mut full, NOTE);
    step(&mut full, ACT);
    step(&mut full, NOTE);
    step(&mut full, rate(1, true));
    step(&mut full, ACT);
    step(&mut full, NOTE);
    step(&mut full, rate(2, true));
    step(&mut full, ACT);
    // The fleet's lessons arrive: merged into this agent's store.
    full.experience_store_mut().unwrap().merge(&store);
    let Outcome::Recalled(found) = step(&mut full, RECALL) else {
        panic!("a recall recalls");
    };
    let triggers: Vec<_> = full
        .workspace()
        .experience()
        .lessons()
        .iter()
        .map(|l| l.trigger.clone())
        .collect();
    assert_eq!(triggers, [text("X2"), text("X3"), text("E429")]);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].slot, 2);
}

#[test]
fn a_refused_recall_loads_nothing() {
    let mut a = agent(&["E429"]);
    let mut s = ExperienceStore::new(4).unwrap();
    s.note(text("E429"), Value::Int(0));
    a.set_experience_store(s);
    let before = snapshot(&a);
    // Field 5 of an event of one field.
    let i = a.layout().index(Template::Recall { field: 5 }).unwrap();
    assert!(a.step_with(&Decision::Template(i)).is_err());
    assert_eq!(snapshot(&a), before);
}

#[test]
fn the_store_travels_in_checkpoints() {
    let mut a = agent(&["start", "E1", "E2"]);
    a.set_experience_store(ExperienceStore::new(8).unwrap());
    step(&mut a, ACT);
    step(&mut a, NOTE);
    step(&mut a, rate(0, false));
    step(&mut a, ACT);
    step(&mut a, NOTE);
    let mut bytes = Vec::new();
    a.checkpoint_bytes(&mut bytes).unwrap();
    let c = Checkpoint::decode(&bytes).unwrap();
    assert_eq!(&bytes[4..6], &checkpoint::FORMAT.to_le_bytes());
    let b = Agent::resume_from_bytes(
        External(CAPS),
        Codes::new(&["start", "E1", "E2"]),
        AgentConfig::default(),
        &bytes,
    )
    .unwrap();
    assert_eq!(
        b.experience_store().unwrap().to_bytes(),
        a.experience_store().unwrap().to_bytes()
    );
    assert_eq!(snapshot(&b), snapshot(&a));

    // A store that does not check out refuses the whole checkpoint.
    let mut store = c.store.unwrap().to_vec();
    let n = store.len();
    store[n - 1] ^= 1;
    let mut bad = Vec::new();
    Checkpoint {
        store: Some(&store),
        ..c
    }
    .encode(&mut bad);
    let e = Agent::resume_from_bytes(
        External(CAPS),
        Codes::new(&["E1"]),
        AgentConfig::default(),
        &bad,
    )
    .err()
    .unwrap();
    assert_eq!(e.kind(), ErrorKind::Checkpoint);
    let src = std::error::Error::source(&e)
        .unwrap()
        .downcast_ref::<CheckpointError>()
        .unwrap();
    assert_eq!(*src, CheckpointError::ExperienceStore(FileError::Checksum));
}

/// Version 1 of the format (before the store section) is still read: as written by an agent
/// without a store, whose checkpoints are version 2's bytes less the store flag.
#[test]
fn a_version_1_checkpoint_still_resumes() {
    let mut a = agent(&["start", "E1", "E2"]);
    step(&mut a, ACT);
    step(&mut a, NOTE);
    step(&mut a, ACT);
    let mut v2 = Vec::new();
    a.checkpoint_bytes(&mut v2).unwrap();
    let body = &v2[10..v2.len() - 4];
    assert_eq!(body.last(), Some(&0), "no store");
    let body = &body[..body.len() - 1];
    let mut v1 = b"EVHA".to_vec();
    v1.extend_from_slice(&1u16.to_le_bytes());
    v1.extend_from_slice(&(body.len() as u32).to_le_bytes());
    v1.extend_from_slice(body);
    let crc = crc::Crc::<u32>::new(&crc::CRC_32_ISO_HDLC).checksum(&v1);
    v1.extend_from_slice(&crc.to_le_bytes());
    let mut b = Agent::resume_from_bytes(
        External(CAPS),
        Codes::new(&["start", "E1", "E2"]),
        AgentConfig::default(),
        &v1,
    )
    .unwrap();
    assert!(b.experience_store().is_none());
    assert_eq!(snapshot(&b), snapshot(&a));
    assert_eq!(b.summary(), a.summary());
    // It goes on, and its next checkpoint is version 2.
    step(&mut b, NOTE);
    let mut again = Vec::new();
    b.checkpoint_bytes(&mut again).unwrap();
    assert_eq!(&again[4..6], &2u16.to_le_bytes());
}
