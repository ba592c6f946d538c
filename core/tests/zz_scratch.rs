#![allow(missing_docs)]
use evoharness_core::*;
use evoharness_core::obs::{Layout, Width, Template, Source};

#[test]
fn probe() {
    let mut ws = InlineWorkspace::<16, 8, 4>::new(Config::new(3, 100)).unwrap();
    ws.observe(&Event::new(EventKind::Result, 0).with("cursor", ValueRef::Int(42)).unwrap());
    ws.apply(&Action::Track(Track::Set { key: KeyArg::Field(0), value: Arg::Field(0), confidence: 1.0 })).unwrap();
    ws.apply(&Action::Commit(Commit::Plan { label: Arg::Lit(ValueRef::Text(value::Text::new("load").unwrap())) })).unwrap();
    ws.apply(&Action::Commit(Commit::Step { step: StepRef::Index(0), verb: StepVerb::Start, value: None })).unwrap();
    ws.apply(&Action::Act { tool: 1, args: heapless::Vec::new() }).unwrap();
    ws.observe(&Event::new(EventKind::Error, 1).with("code", ValueRef::Int(429)).unwrap().with("cursor", ValueRef::Int(43)).unwrap());
    ws.apply(&Action::Note(Note::Add { trigger: Arg::Field(0), remedy: Arg::LastAct })).unwrap();
    let l = Layout::new(ws.capacities());
    let mut o = vec![0f32; l.obs_len()];
    l.encode(&ws, &mut o).unwrap();
    for s in l.segments() {
        for r in 0..s.rows {
            let mut off = s.offset + r * s.width;
            for f in s.features {
                let w = match f.width { Width::Fixed(n) => n, Width::Tools => 3 };
                for k in 0..w {
                    let x = o[off + k];
                    if x != 0.0 {
                        let nm = if w > 1 { format!("{}[{}]", f.name, k) } else { f.name.to_string() };
                        println!("| {} | {}[{}].{} | {:?} |", off + k, s.name, r, nm, x);
                    }
                }
                off += w;
            }
        }
    }
    let mut m = vec![0u8; l.actions()];
    println!("legal {}", l.mask(&ws, &mut m).unwrap());
    let firsts = [Template::Finish{success:true}, Template::Act{tool:0,arg:None}, Template::Track{field:0}, Template::Confirm{fact:0}, Template::Retract{fact:0}, Template::Compress, Template::Plan{field:0}, Template::Step{step:0, verb: StepVerb::Start}, Template::Checkpoint{field:0}, Template::Recall{field:0}, Template::NoteFact{fact:0}, Template::NoteField{field:0}, Template::Rate{lesson:0, helpful:true}, Template::Consolidate];
    for t in firsts { println!("{:?} {:?}", t, l.index(t)); }
    println!("{:?}", l.index(Template::Act{tool:1, arg: Some(Source::Field(0))}));
    let legal: Vec<usize> = (0..l.actions()).filter(|&i| m[i] == 1).collect();
    println!("{:?}", legal);
    for i in legal { println!("{i} {:?} -> {:?}", l.template(i).unwrap(), l.resolve(&ws, i).unwrap()); }
}
