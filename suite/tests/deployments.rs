//! Scenario v3: deployments. Each organisation draws a deployment (its card in the first
//! event, the model's remedy guesses, crashes that roll the agent back to its last commit
//! while the world keeps what it did); the tuned rule's knobs are retunable, and tuning finds
//! different settings for different deployments.

use evoharness_core::{EventBuf, Value};
use evoharness_runtime::{Agent, World};
use evoharness_suite::baselines::{Guess, TunedHarness};
use evoharness_suite::eval::{self, AgentSpec, EvalSpec};
use evoharness_suite::{
    Deployment, MachineTier, ModelTier, Scenario, SuiteWorld, TaskConfig, TaskKind, episode, tune,
};

fn call(tool: u16, arg: Option<&Value>) -> evoharness_core::ToolCall {
    let mut args = evoharness_core::heapless::Vec::new();
    if let Some(v) = arg {
        let _ = args.push(v.clone());
    }
    evoharness_core::ToolCall { tool, args }
}

fn int(e: &EventBuf, key: &str) -> Option<i64> {
    match e.get(key) {
        Some(Value::Int(i)) => Some(*i),
        _ => None,
    }
}

#[test]
fn deployments_cover_both_ends_of_the_family_and_the_card_tells_the_host_part() {
    let ds: Vec<Deployment> = (0..300).map(Deployment::of).collect();
    assert_eq!(
        ds[7],
        Deployment::of(7),
        "drawn from the organisation alone"
    );
    let share = |f: &dyn Fn(&Deployment) -> bool| ds.iter().filter(|d| f(d)).count() as f64 / 300.0;
    // "Weak model, costly failures, durable store, flaky machines" and "strong model, costly
    // memory, stable machines" each carry real weight.
    let weak_end = share(&|d| {
        d.model == ModelTier::Weak
            && d.machines == MachineTier::Flaky
            && d.lockout >= 10
            && d.store_life >= 20
    });
    let strong_end = share(&|d| {
        d.model == ModelTier::Strong && d.machines == MachineTier::Stable && d.costly_memory()
    });
    assert!(
        weak_end > 0.25 && strong_end > 0.25,
        "{weak_end} {strong_end}"
    );
    for d in &ds {
        assert!(
            (1..=16).contains(&d.recall_cost) && (1..=16).contains(&d.note_cost),
            "{d:?}"
        );
        assert!(d.lockout <= 20 && (1..=50).contains(&d.store_life), "{d:?}");
        let q = match d.model {
            ModelTier::Weak => 0.45..0.75,
            ModelTier::Strong => 0.92..0.995,
        };
        assert!(q.contains(&d.quality), "{d:?}");
    }
    // The first event carries the card, and nothing hidden.
    let mut w = SuiteWorld::new(TaskConfig::v3(TaskKind::Records, 100), 11);
    let d = w.config().deployment.unwrap();
    assert_eq!(d, Deployment::of(11));
    let first = w.reset(3);
    assert_eq!(
        first.get("model"),
        Some(&Value::text(d.model.name()).unwrap())
    );
    assert_eq!(
        first.get("machines"),
        Some(&Value::text(d.machines.name()).unwrap())
    );
    assert_eq!(int(&first, "recall_cost"), Some(i64::from(d.recall_cost)));
    assert_eq!(int(&first, "note_cost"), Some(i64::from(d.note_cost)));
    assert_eq!(int(&first, "store_life"), Some(i64::from(d.store_life)));
    assert!(first.get("quality").is_none() && first.get("crash").is_none());
    // The deployment's prices are the agent's costs, its back-off the world's.
    let t = TaskConfig::v3(TaskKind::Records, 100).deployed(11);
    assert_eq!(
        (t.costs().recall, t.costs().note),
        (d.recall_cost, d.note_cost)
    );
    assert_eq!(t.faults.lockout, d.lockout);
    // v2 is unchanged by any of it.
    assert_eq!(
        TaskConfig::v2(TaskKind::Records, 100).deployed(11),
        TaskConfig::v2(TaskKind::Records, 100)
    );
    assert_eq!("v3".parse::<Scenario>(), Ok(Scenario::V3));
}

#[test]
fn the_models_guess_is_right_as_often_as_its_quality_says() {
    for (org, want) in
        [(ModelTier::Weak, false), (ModelTier::Strong, true)].map(|(tier, strong)| {
            let org = (0..).find(|&o| Deployment::of(o).model == tier).unwrap();
            (org, strong)
        })
    {
        let q = Deployment::of(org).quality;
        let (mut right, mut all) = (0u32, 0u32);
        for seed in 0..60 {
            let mut w = SuiteWorld::new(TaskConfig::v3(TaskKind::Migration, 100), org);
            w.reset(seed);
            for _ in 0..w.items() {
                let e = w.call(&call(0, None));
                let Some(item) = e.get("batch").cloned() else {
                    break;
                };
                // Land with the right tool until rejected; the guess is about the remedy.
                let r = loop {
                    let r = w.call(&call(if w.drifted() { 2 } else { 1 }, Some(&item)));
                    if r.get("error") != Some(&Value::text("timeout").unwrap())
                        && r.get("retry_in").is_none()
                    {
                        break r;
                    }
                    while w.outage_left() > 0 {
                        w.call(&call(3, None));
                    }
                };
                if let Some(g) = int(&r, "guess") {
                    let id = w.index_of(int(&r, "batch").unwrap()).unwrap();
                    right += u32::from(w.remedy(id) == Some(g as u16));
                    all += 1;
                    w.call(&call(w.remedy(id).unwrap(), Some(&item)));
                }
            }
        }
        let rate = f64::from(right) / f64::from(all);
        assert!(all > 100, "{all}");
        assert!(
            (rate - q).abs() < 0.08,
            "org {org}: right {rate} of {all}, quality {q}"
        );
        assert_eq!(rate > 0.85, want);
    }
}

#[test]
fn after_a_crash_the_queue_is_read_again_from_the_durable_position() {
    let mut w = SuiteWorld::new(TaskConfig::v3(TaskKind::Migration, 100), 5);
    w.reset(1);
    let mut ids = Vec::new();
    for _ in 0..6 {
        let e = w.call(&call(0, None));
        ids.push(e.get("batch").unwrap().clone());
    }
    // Land the first two (whatever faults say, until landed), then commit.
    let land = |w: &mut SuiteWorld, id: &Value| {
        for _ in 0..50 {
            let r = w.call(&call(1, Some(id)));
            if r.get("written").is_some() || r.get("fixed").is_some() {
                return;
            }
            while w.outage_left() > 0 {
                w.call(&call(3, None));
            }
            if let Some(Value::Int(_)) = r.get("code") {
                let i = w.index_of(int(&r, "batch").unwrap()).unwrap();
                w.call(&call(w.remedy(i).unwrap(), Some(id)));
                return;
            }
        }
        panic!("never landed");
    };
    land(&mut w, &ids[0]);
    land(&mut w, &ids[1]);
    w.mark_durable();
    land(&mut w, &ids[3]);
    let notice = w.restart();
    assert_eq!(notice.get("restarted"), Some(&Value::Bool(true)));
    // From the first item fetched and not landed (the third), everything fetched comes again,
    // what landed since marked so; then new items.
    let again: Vec<EventBuf> = (0..5).map(|_| w.call(&call(0, None))).collect();
    assert_eq!(again[0].get("batch"), Some(&ids[2]));
    assert!(again[0].get("landed").is_none());
    assert_eq!(again[1].get("batch"), Some(&ids[3]));
    assert_eq!(again[1].get("landed"), Some(&Value::Bool(true)));
    assert_eq!(again[3].get("batch"), Some(&ids[5]));
    assert!(again[4].get("landed").is_none() && !ids.contains(again[4].get("batch").unwrap()));
    // A resume point taken after the crash restores the same episode.
    let mut resume_point = Vec::new();
    assert!(w.save_resume_point(&mut resume_point));
    let mut other = SuiteWorld::new(TaskConfig::v3(TaskKind::Migration, 100), 5);
    other.restore_resume_point(&resume_point).unwrap();
    let mut again_resume_point = Vec::new();
    other.save_resume_point(&mut again_resume_point);
    assert_eq!(resume_point, again_resume_point);
    // Cut resume points are refused.
    assert!(
        other
            .restore_resume_point(&resume_point[..resume_point.len() - 1])
            .is_err()
    );
    // A commit while the queue is delivered again moves the durable position past the
    // replay's; that state's resume point restores too (it was refused once, in training).
    let mut w = SuiteWorld::new(TaskConfig::v3(TaskKind::Migration, 100), 5);
    w.reset(1);
    let ids: Vec<Value> = (0..4)
        .map(|_| w.call(&call(0, None)).get("batch").unwrap().clone())
        .collect();
    for id in &ids[..3] {
        land(&mut w, id);
    }
    w.restart();
    let again = w.call(&call(0, None));
    assert_eq!(again.get("batch"), Some(&ids[0]));
    w.mark_durable();
    let mut resume_point = Vec::new();
    assert!(w.save_resume_point(&mut resume_point));
    let mut other = SuiteWorld::new(TaskConfig::v3(TaskKind::Migration, 100), 5);
    other.restore_resume_point(&resume_point).unwrap();
    assert_eq!(
        format!("{:?}", w.call(&call(0, None))),
        format!("{:?}", other.call(&call(0, None)))
    );
}

/// Flaky organisations at horizon 100.
fn flaky() -> Vec<u64> {
    (0..200)
        .filter(|&o| Deployment::of(o).machines == MachineTier::Flaky)
        .take(6)
        .collect()
}

#[test]
fn crashes_roll_the_agent_back_and_commits_make_them_cheap() {
    let mut crashes = 0;
    let mut spent = [0u64; 2];
    for org in flaky() {
        for (k, rule) in ["tuned", "tuned:commit-6"].iter().enumerate() {
            let world = SuiteWorld::new(TaskConfig::v3(TaskKind::Migration, 100), org);
            let task = *world.config();
            let ctl = TunedHarness::parse(rule).unwrap();
            let mut agent = Agent::new(ctl, world, episode::agent_config(&task, 0)).unwrap();
            for seed in 0..6 {
                agent.start_task(seed);
                let mut durable = episode::Durable::new(&agent).unwrap();
                durable.begin(&agent).unwrap();
                let mut score = evoharness_train::Score::begin(&agent, &episode::SuiteAccount);
                while let Some(r) = agent.step().unwrap() {
                    score.step(&agent, &r, &episode::SuiteAccount);
                    if durable.step(&mut agent, &r).unwrap() {
                        // Rolled back: nothing tracked since the last commit is left.
                        assert_eq!(
                            agent.workspace().event().unwrap().get("restarted"),
                            Some(&Value::Bool(true))
                        );
                        assert!(agent.workspace().last_act().is_none());
                    }
                }
                score.close(&agent, &episode::SuiteAccount);
                let s = score.stats();
                // Nothing is landed twice or wrongly after a roll-back; without commits the
                // reading again may spend the whole budget (then items are left).
                let v = s.violations;
                assert_eq!(
                    (v.duplicates, v.wrong_writes),
                    (0, 0),
                    "{rule} org {org} seed {seed}: {s:?}"
                );
                assert!(
                    s.success || (k == 0 && s.finished.is_none()),
                    "{rule} org {org} seed {seed}: {s:?}"
                );
                crashes += durable.crashes();
                spent[k] += u64::from(s.cost);
            }
        }
    }
    assert!(crashes > 20, "flaky machines crash: {crashes}");
    // Reading the queue again from the start costs more than committing every few items.
    assert!(spent[1] < spent[0], "{spent:?}");
}

#[test]
fn the_tuned_rules_knobs_round_trip_and_bad_names_are_refused() {
    let all = TunedHarness::knobs();
    assert_eq!(all.len(), 96);
    for t in &all {
        assert_eq!(TunedHarness::parse(&t.label()), Some(*t), "{}", t.label());
        assert_eq!(t.label().parse::<AgentSpec>().unwrap().name(), t.label());
    }
    assert_eq!(
        TunedHarness::parse("tuned:plain:guess-first:no-note:commit-6"),
        Some(TunedHarness::new(false, false).with_knobs(Guess::First, false, 6))
    );
    for bad in [
        "tuned:commit-0",
        "tuned:commit-06",
        "tuned:no-note:guess-first",
        "tuned:guess-first:guess-unknown",
        "tuned:commit-6:no-note",
        "tuned:hint-all:commit-6",
        "tuned:commit-x",
        "tuned:plain:plain",
    ] {
        assert_eq!(TunedHarness::parse(bad), None, "{bad}");
        assert!(bad.parse::<AgentSpec>().is_err(), "{bad}");
    }
    let card = TunedHarness::parse("tuned:commit-6:card").unwrap();
    assert_eq!(
        card,
        TunedHarness::default()
            .with_knobs(Guess::Never, true, 6)
            .with_card()
    );
    assert_eq!(card.label(), "tuned:commit-6:card");
    assert_eq!(TunedHarness::parse("tuned:card:commit-6"), None);
    let fixed = "fixed-best".parse::<AgentSpec>().unwrap();
    assert_eq!(fixed.name(), tune::FIXED_BEST);
}

#[test]
fn tuning_finds_settings_that_differ_between_deployments_and_retuned_runs_per_organisation() {
    let spec = EvalSpec {
        organisations: 0..6,
        threads: 2,
        ..EvalSpec::new(TaskConfig::v3(TaskKind::Migration, 50), 0..24)
    };
    let r = tune::tune(&spec).unwrap();
    assert_eq!(r.settings, 96);
    assert_eq!(r.organisations.len(), 6);
    // Retuning pays somewhere (in-sample, it cannot lose).
    assert!(r.retuning_gain > 0.0, "{r:?}");
    // Each organisation's figures are its own episodes': the retuned rule evaluated alone
    // earns there what the report says (episode s runs in organisation s mod 6).
    for o in &r.organisations[..2] {
        let rule = o.retuned.rule.parse::<AgentSpec>().unwrap();
        let (_, eps) = eval::run(&spec, &rule, &|_, _| {}).unwrap();
        let mine: Vec<f64> = (0..24u64)
            .zip(&eps)
            .filter(|(s, _)| s % 6 == o.organisation)
            .map(|(_, e)| e.reward)
            .collect();
        let mean = mine.iter().sum::<f64>() / mine.len() as f64;
        assert!(
            (mean - o.retuned.mean_reward).abs() < 1e-12,
            "{o:?}: {mean}"
        );
        // Every setting's reward is listed, the retuned one's the highest.
        assert_eq!((o.rewards.len(), r.rules.len()), (96, 96));
        let at = r.rules.iter().position(|x| *x == o.retuned.rule).unwrap();
        assert_eq!(o.rewards[at], o.retuned.mean_reward);
        assert!(o.rewards.iter().all(|&x| x <= o.retuned.mean_reward));
    }
    let distinct: std::collections::BTreeSet<&str> = r
        .organisations
        .iter()
        .map(|o| o.retuned.rule.as_str())
        .collect();
    assert!(
        distinct.len() > 1,
        "one setting fits every deployment: {r:?}"
    );
    // `retuned` evaluates on the evaluation's seeds what was tuned on others.
    let small = EvalSpec {
        organisations: 0..2,
        threads: 1,
        ..EvalSpec::new(TaskConfig::v3(TaskKind::Migration, 50), 0..4)
    };
    let (report, eps) = eval::run(&small, &AgentSpec::Retuned(tune::retune), &|_, _| {}).unwrap();
    assert_eq!((report.agent.as_str(), eps.len()), ("retuned", 4));
    let rule = tune::retune(TaskConfig::v3(TaskKind::Migration, 50), 0, u64::MAX).unwrap();
    assert!(TunedHarness::knobs().contains(&rule));
}

#[test]
fn a_training_environment_runs_each_deployment_as_evaluation_does() {
    use evoharness_suite::{SuiteVecEnv, Teacher};
    // Groups of one organisation each; the fixed-best teacher acting.
    let orgs = 40..48;
    let mut v = SuiteVecEnv::grouped(
        TaskConfig::v3(TaskKind::Orchestration, 60),
        8,
        1,
        orgs.clone(),
        7,
    )
    .unwrap();
    for i in 0..8 {
        let d = Deployment::of(orgs.start + i as u64);
        let a = v.env(i).unwrap();
        assert_eq!(
            a.config().costs.recall,
            d.recall_cost,
            "each agent pays its own prices"
        );
        assert_eq!(a.config().costs.note, d.note_cost);
        assert!(a.experience_store().is_some());
    }
    let mut b = v.buffers().unwrap();
    let mut restarts = 0;
    let mut done = 0;
    for _ in 0..6_000 {
        v.teacher_actions(Teacher::FixedBest, &mut b.actions)
            .unwrap();
        assert!(!b.actions.contains(&evoharness_suite::NO_LABEL));
        v.step_into(&mut b).unwrap();
        for i in 0..8 {
            let e = v.env(i).unwrap().workspace().event().unwrap();
            restarts += usize::from(e.get("restarted").is_some());
        }
        done += b.done.iter().filter(|&&d| d == 1).count();
    }
    assert!(restarts > 0, "flaky deployments crash in training too");
    let episodes: Vec<_> = (0..8).filter_map(|i| v.last_episode(i).copied()).collect();
    assert!(
        done > 40 && episodes.iter().all(|e| e.violations.duplicates == 0),
        "{episodes:?}"
    );
    let ok = episodes.iter().filter(|e| e.success).count();
    assert!(ok >= 7, "{episodes:?}");
}

#[test]
fn the_commit_cadence_is_what_a_policy_sees() {
    use evoharness_core::obs::Template;
    use evoharness_core::obs::hash01;
    // `:commit-K` commits a landed id whose observed hash is below 1/K: a track of the id,
    // then the cursor while that fact is fresh, and never a second cursor for the same id.
    let world = SuiteWorld::new(TaskConfig::v3(TaskKind::Migration, 100), 3);
    let task = *world.config();
    let ctl = TunedHarness::parse("tuned:plain:commit-6").unwrap();
    let mut agent = Agent::new(ctl, world, episode::agent_config(&task, 0)).unwrap();
    let key = TaskKind::Migration.ok_key();
    let (mut landed, mut committed) = (0, 0);
    for seed in 0..4 {
        agent.start_task(seed);
        let mut cursors = Vec::new();
        let mut last = None;
        while let Some(r) = agent.step().unwrap() {
            let t = r.template.and_then(|i| agent.layout().template(i));
            if let Some(Template::Cursor { .. }) = t {
                let e = agent.workspace().event().unwrap();
                let id = e.get(key).or_else(|| e.get("fixed")).unwrap().clone();
                assert!(hash01(id.fnv1a()) < 1.0 / 6.0, "{id:?}");
                assert!(
                    matches!(last, Some(Template::Track { .. })),
                    "a track of the id first: {last:?}"
                );
                assert!(!cursors.contains(&id), "{id:?} committed twice");
                cursors.push(id);
                committed += 1;
            }
            if let Some(e) = agent.workspace().event()
                && e.get(key).is_some()
                && matches!(t, Some(Template::Act { .. }))
            {
                landed += 1;
            }
            last = t;
        }
    }
    // About one landing in six, give or take.
    assert!(
        committed * 12 > landed && committed * 3 < landed,
        "{committed} of {landed}"
    );
}

#[test]
fn the_retuned_teacher_is_each_organisations_own_setting() {
    use evoharness_suite::SuiteVecEnv;
    let task = TaskConfig::v3(TaskKind::Migration, 50);
    let orgs = 100..104;
    let mut v = SuiteVecEnv::new(task, 4, orgs.clone(), 3).unwrap();
    let space = tune::search_space();
    assert_eq!(
        space.len(),
        tune::SEARCH_SPACE.len(),
        "every setting of the search space parses"
    );
    let rules: Vec<TunedHarness> = orgs
        .clone()
        .map(|o| {
            tune::retune_among(task, o, u64::MAX, &space)
                .unwrap()
                .with_card()
        })
        .collect();
    labels_are_the_rules(&mut v, evoharness_suite::Teacher::Retuned, &rules, 400);
}

/// Steps `v` for `steps` steps on `teacher`'s labels, checking that environment `i`'s label is
/// what `rules[i]` decides there.
fn labels_are_the_rules(
    v: &mut evoharness_suite::SuiteVecEnv,
    teacher: evoharness_suite::Teacher,
    rules: &[TunedHarness],
    steps: usize,
) {
    use evoharness_runtime::{Controller, Decision, rng::SplitMix64};
    let mut b = v.buffers().unwrap();
    let mut rng = SplitMix64(0);
    for _ in 0..steps {
        v.teacher_actions(teacher, &mut b.actions).unwrap();
        for (i, rule) in rules.iter().enumerate() {
            let mut rule = *rule;
            let want = rule.decide(&v.env(i).unwrap().view(), &mut rng).unwrap();
            assert_eq!(want, Decision::Template(b.actions[i] as usize), "env {i}");
        }
        v.step_into(&mut b).unwrap();
    }
}

#[test]
fn the_regional_teacher_is_the_setting_of_its_cards_tiers() {
    use evoharness_suite::{SuiteVecEnv, Teacher};
    let task = TaskConfig::v3(TaskKind::Migration, 50);
    // Every pair of tiers has its entry, each a rule of the search space; each organisation
    // gets its pair's, keeping the card.
    let mut seen = std::collections::BTreeSet::new();
    for o in 0..200 {
        let d = SuiteWorld::new(task, o).config().deployment.unwrap();
        let (_, _, want) = tune::REGIONAL
            .iter()
            .find(|(m, c, _)| *m == d.model.name() && *c == d.machines.name())
            .expect("every pair of tiers is in REGIONAL");
        assert!(tune::SEARCH_SPACE.contains(want), "{want}");
        let rule = tune::regional(task, o, u64::MAX).unwrap();
        assert_eq!(
            rule,
            TunedHarness::parse(want).unwrap().with_card(),
            "org {o}"
        );
        seen.insert((d.model.name(), d.machines.name()));
    }
    assert_eq!(
        seen.len(),
        4,
        "organisations 0-199 show every pair: {seen:?}"
    );
    // Different cards, different behaviour: the map is not one rule.
    let distinct: std::collections::BTreeSet<_> = tune::REGIONAL.iter().map(|r| r.2).collect();
    assert!(distinct.len() > 1);
    // The v1 and v2 tasks have no card: the fixed-best setting.
    let v2 = tune::regional(TaskConfig::v2(TaskKind::Migration, 50), 0, u64::MAX).unwrap();
    assert_eq!(
        v2,
        TunedHarness::parse(tune::FIXED_BEST).unwrap().with_card()
    );
    // The teacher labels what the rule decides, environment by environment.
    let orgs = 0..8;
    let mut v = SuiteVecEnv::new(task, 8, orgs.clone(), 5).unwrap();
    let rules: Vec<TunedHarness> = orgs
        .map(|o| tune::regional(task, o, u64::MAX).unwrap())
        .collect();
    labels_are_the_rules(&mut v, Teacher::Regional, &rules, 300);
    // As an agent: `regional`, evaluated per organisation.
    let spec: AgentSpec = "regional".parse().unwrap();
    assert_eq!(spec.name(), "regional");
    let small = EvalSpec {
        organisations: 0..2,
        threads: 1,
        ..EvalSpec::new(task, 0..4)
    };
    let (report, eps) = eval::run(&small, &spec, &|_, _| {}).unwrap();
    assert_eq!((report.agent.as_str(), eps.len()), ("regional", 4));
}

#[test]
fn a_model_upgrade_changes_the_tier_and_keeps_the_rest_of_the_deployment() {
    let task = TaskConfig::v3(TaskKind::Migration, 100);
    let mut upgraded = 0;
    for o in 0..200 {
        let d = Deployment::of(o);
        for tier in [ModelTier::Weak, ModelTier::Strong] {
            let e = d.with_model(tier);
            let (lo, hi) = match tier {
                ModelTier::Weak => (0.45, 0.75),
                ModelTier::Strong => (0.92, 0.995),
            };
            assert!(e.quality >= lo - 1e-12 && e.quality <= hi + 1e-12, "{e:?}");
            assert_eq!(
                Deployment {
                    model: d.model,
                    quality: d.quality,
                    ..e
                },
                d,
                "only the model's tier and quality move"
            );
            if tier == d.model {
                assert_eq!(e, d);
            } else {
                upgraded += 1;
                // The way back is where it started.
                assert!((e.with_model(d.model).quality - d.quality).abs() < 1e-12);
            }
            // Through the task: the world runs it and the card says it.
            let t = TaskConfig {
                model: Some(tier),
                ..task
            };
            let w = SuiteWorld::new(t, o);
            assert_eq!(w.config().deployment, Some(e));
            assert_eq!(ModelTier::parse(tier.name()), Some(tier));
        }
    }
    assert!(upgraded >= 150, "{upgraded}");
    assert_eq!(ModelTier::parse("medium"), None);
}
