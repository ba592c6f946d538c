// Drives the C++ wrapper (evoharness.hpp and evoharness_train.hpp, over libevoharness_train):
// RAII and moves, exceptions with statuses, lambdas as tools (including ones that throw), traces
// and log sinks, checkpoints, the workspace, suite worlds, worlds written in C++ (HostWorld) and
// the vectorised environment. Built with -Wall -Wextra -Wpedantic -Werror and run plain, under
// AddressSanitizer/UBSan and under valgrind by tests/c_abi.rs.
//
//   wrapper FIXTURES_DIR WORK_DIR
//
// Exits 0 when every check passed; otherwise prints each failed check and exits 1.
#include <evoharness_train.hpp>

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <variant>
#include <fstream>
#include <iostream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

namespace eh = evoharness;

static int failures = 0;
static int checks = 0;

#define CHECK(cond)                                                                      \
    do {                                                                                 \
        checks++;                                                                        \
        if (!(cond)) {                                                                   \
            failures++;                                                                  \
            std::cerr << __FILE__ << ":" << __LINE__ << ": check failed: " #cond "\n";  \
        }                                                                                \
    } while (0)

// The status of the evoharness::Error that `f` throws (EVOHARNESS_STATUS_OK if none).
template <class F>
static evoharness_status thrown(F&& f) {
    try {
        f();
    } catch (const eh::Error& e) {
        CHECK(std::strlen(e.what()) > 0);
        return e.status();
    }
    return EVOHARNESS_STATUS_OK;
}

static std::string fixtures, work;
static eh::PolicyOptions tract() {
    eh::PolicyOptions o;
    o.backend = EVOHARNESS_BACKEND_TRACT;
    return o;
}
static eh::Policy load(const std::string& name) { return eh::Policy::load(fixtures + "/" + name, tract()); }

static void test_errors_and_policies() {
    CHECK(!eh::version().empty());
    CHECK(thrown([] { load("truncated.onnx"); }) == EVOHARNESS_STATUS_POLICY);
    CHECK(thrown([] { load("missing.onnx"); }) == EVOHARNESS_STATUS_IO);
    try {
        load("wrong_abi.onnx");
        CHECK(false);
    } catch (const eh::Error& e) {
        CHECK(std::string(e.what()).find("generative-v1") != std::string::npos);
    }

    std::ifstream f(fixtures + "/mlp.onnx", std::ios::binary);
    eh::Bytes bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    eh::Policy p = eh::Policy::load_from_memory(bytes, tract());
    CHECK(p.abi().capacities.tools == 3);
    CHECK((p.tool_names() == std::vector<std::string>{"copy", "wait", "verify"}));
    CHECK(load("suite_mlp.onnx").tool_names().empty());
}

static void test_workspace() {
    evoharness_workspace_config c = eh::Workspace::default_config();
    c.capacities.tools = 3;
    eh::Workspace ws(c);
    CHECK(!ws.view().event().has_value());
    // An error event from tool 2 with code = 429, and "track field 0" (core/PROTOCOL.md, 10).
    ws.observe({0x01, 0x07, 0x02, 0x01, 0x02, 0x01, 0x04, 'c', 'o', 'd', 'e', 0x01, 0xda, 0x06});
    eh::Outcome o = ws.apply({0x01, 0x01, 0x00, 0x01, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x00, 0x80, 0x3f});
    CHECK(o.applied && (o.frame == eh::Bytes{0x01, 0x01, 0x01, 0x00, 0x01, 0x00, 0x00}));
    CHECK(!ws.apply({0x01, 0x01, 0x00, 0x01, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x00, 0x80, 0x3f}).applied);
    CHECK(thrown([&] { ws.apply({0x01}); }) == EVOHARNESS_STATUS_DECODE);
    std::vector<eh::Fact> facts = ws.view().facts();
    CHECK(facts.size() == 1 && facts[0].key == "code");
    CHECK(std::get<std::int64_t>(eh::to_value(facts[0].value)) == 429 && eh::format(facts[0].value) == "429");
    std::optional<eh::Event> e = ws.view().event();
    CHECK(e && e->kind == EVOHARNESS_EVENT_KIND_ERROR && e->fields.size() == 1);
    eh::Bytes snap = ws.view().snapshot();
    ws.reset_task();
    CHECK(ws.view().facts().empty() && ws.view().plan().empty() && ws.view().lessons().empty());
    eh::Bytes bad = snap;
    bad[bad.size() / 2] ^= 1;
    CHECK(thrown([&] { ws.restore(bad); }) == EVOHARNESS_STATUS_SNAPSHOT);
    ws.restore(snap);
    CHECK(ws.view().snapshot() == snap);
    c.capacities.facts = 0;
    CHECK(thrown([&] { eh::Workspace w(c); }) == EVOHARNESS_STATUS_CONFIG);
}

static void test_agent() {
    int warnings = 0;
    eh::set_log_callback(
        [&](evoharness_log_level level, std::string_view, std::string_view message) {
            if (level == EVOHARNESS_LOG_LEVEL_WARN && message.find("no callback serves") != std::string_view::npos)
                warnings++;
        },
        EVOHARNESS_LOG_LEVEL_WARN);

    evoharness_agent_config config = eh::agent_config();
    config.temperature = 1.0f;
    config.seed = 3;
    config.budget = 200;

    // A failed create leaves the policy with us; a successful one takes it.
    eh::Policy p = load("mlp.onnx");
    evoharness_agent_config bad = config;
    bad.temperature = -1.0f;
    CHECK(thrown([&] { eh::Agent::create(std::move(p), bad); }) == EVOHARNESS_STATUS_INVALID_ARGUMENT);
    CHECK(static_cast<bool>(p));
    eh::Agent a = eh::Agent::create(std::move(p), config);
    CHECK(!static_cast<bool>(p));
    CHECK((a.tool_names() == std::vector<std::string>{"copy", "wait", "verify"}));
    CHECK(!a.verdict().has_value() && !eh::task_stats(a).has_value());

    // Unserved tools: warnings through the log lambda (tasks until some world actions: a
    // random policy may finish at any step).
    std::uint64_t world = 0;
    for (std::uint64_t seed = 20; seed < 60 && world < 10; seed++) {
        a.start_task(seed);
        world += a.run(30).world_actions;
    }
    CHECK(world >= 10 && warnings == static_cast<int>(world));
    eh::set_log_callback(nullptr);

    // Lambdas: one that throws ToolFailure{42}, one a std::runtime_error, one that answers.
    int calls = 0;
    a.register_tool("copy", [&](const eh::ToolCall& c, eh::ToolResult&) {
        calls++;
        CHECK(c.name == "copy" && c.tool == 0);
        throw eh::ToolFailure{42};
    });
    a.register_tool("wait", [&](const eh::ToolCall&, eh::ToolResult&) {
        calls++;
        throw std::runtime_error("the host's wait broke");
    });
    a.register_tool("verify", [&](const eh::ToolCall&, eh::ToolResult& r) {
        calls++;
        r.error().add_text("error", "mismatch").add_bytes("digest", {0xde, 0xad}).add_float("x", 0.5);
        CHECK(thrown([&] { r.add_text("key_that_is_far_too_long", "x"); }) == EVOHARNESS_STATUS_INVALID_ARGUMENT);
    });
    int traced = 0;
    a.set_trace([&](const evoharness_trace_record& r) {
        traced++;
        CHECK(r.json_len == std::strlen(r.json));
    });
    int seen_failure[3] = {0, 0, 0};
    for (std::uint64_t seed = 5; seed < 60 && calls < 20; seed++) {
        a.start_task(seed);
        for (int i = 0; i < 150; i++) {
            evoharness_step_report r = a.step();
            if (!r.taken) break;
            if (r.tool < 0) continue;
            std::optional<eh::Event> e = a.workspace().event();
            CHECK(e.has_value() && e->kind == EVOHARNESS_EVENT_KIND_ERROR && e->source == r.tool);
            if (r.tool == 2) {
                seen_failure[2]++;
                CHECK(e->fields.size() == 3 && e->fields[0].first == "error");
            } else {
                // {error: "tool_failed", code: 42 or 1}
                CHECK(e->fields.size() == 2 && eh::format(e->fields[0].second) == "\"tool_failed\"");
                CHECK(std::get<std::int64_t>(eh::to_value(e->fields[1].second)) == (r.tool == 0 ? 42 : 1));
                seen_failure[r.tool]++;
            }
        }
    }
    CHECK(calls == seen_failure[0] + seen_failure[1] + seen_failure[2] && calls >= 20);
    CHECK(seen_failure[0] > 0 && seen_failure[1] > 0 && seen_failure[2] > 0);
    CHECK(traced > 0);
    a.set_trace(nullptr);

    // A moved agent keeps its lambdas.
    eh::Agent b = std::move(a);
    int before = calls;
    std::uint64_t moved_world = 0;
    for (std::uint64_t seed = 60; seed < 100 && moved_world == 0; seed++) {
        b.start_task(seed);
        moved_world += b.run(100).world_actions;
    }
    CHECK(moved_world > 0 && calls == before + static_cast<int>(moved_world));
    CHECK(thrown([&] { a.run(1); }) == EVOHARNESS_STATUS_NULL_ARGUMENT);

    // Checkpoint and resume: the same steps after.
    b.register_tool("copy", [](const eh::ToolCall&, eh::ToolResult& r) { r.add_bool("ok", true); });
    b.register_tool("wait", nullptr);
    uint64_t seed = 10;
    for (; seed < 100; seed++) {
        b.start_task(seed);
        if (b.run(20).steps == 20 && b.run(0).finished < 0) break;
    }
    b.checkpoint(work + "/wrapper.ckpt");
    std::vector<uint32_t> after;
    for (int i = 0; i < 15; i++) {
        evoharness_step_report r = b.step();
        if (!r.taken) break;
        after.push_back(r.template_index);
    }
    CHECK(thrown([&] { eh::Agent::resume(load("mlp.onnx"), config, work + "/missing.ckpt"); }) ==
          EVOHARNESS_STATUS_IO);
    eh::Agent c = eh::Agent::resume(load("mlp.onnx"), config, work + "/wrapper.ckpt");
    c.register_tool("copy", [](const eh::ToolCall&, eh::ToolResult& r) { r.add_bool("ok", true); });
    c.register_tool("verify", [](const eh::ToolCall&, eh::ToolResult& r) {
        r.error().add_text("error", "mismatch").add_bytes("digest", {0xde, 0xad}).add_float("x", 0.5);
    });
    std::vector<uint32_t> resumed;
    for (std::size_t i = 0; i < after.size() + 5; i++) {
        evoharness_step_report r = c.step();
        if (!r.taken) break;
        resumed.push_back(r.template_index);
    }
    resumed.resize(std::min(resumed.size(), after.size()));
    CHECK(!after.empty() && after == resumed);
}

static void test_suite_and_vec_env() {
    // A failed create leaves the policy and the world with us; a successful one takes both.
    eh::Policy small = load("mlp.onnx");
    eh::World w = eh::suite_world(EVOHARNESS_TASK_RECORDS, 50, 2);
    evoharness_agent_config config = eh::suite_agent_config(EVOHARNESS_TASK_RECORDS, 50);
    CHECK(thrown([&] { eh::Agent::create(std::move(small), std::move(w), config); }) ==
          EVOHARNESS_STATUS_CONFIG);
    CHECK(static_cast<bool>(small) && static_cast<bool>(w));
    eh::Agent a = eh::Agent::create(load("suite_mlp.onnx"), std::move(w), config);
    CHECK(!static_cast<bool>(w));
    CHECK(thrown([&] { eh::Agent::create(load("suite_mlp.onnx"), std::move(w), config); }) ==
          EVOHARNESS_STATUS_NULL_ARGUMENT);  // a moved-from world
    CHECK(a.tool_names().back() == "merge");
    a.register_tool("merge", [](const eh::ToolCall&, eh::ToolResult& r) { r.add_int("merged", 0); });
    a.run(30);
    a.checkpoint(work + "/suite.ckpt");
    evoharness_summary end = a.run(1000000);
    std::optional<evoharness_task_stats> st = eh::task_stats(a);
    CHECK(st && st->items == 20 && st->finished == end.finished);
    std::optional<evoharness_verdict> v = a.verdict();
    CHECK(v && v->success == st->success);

    // Resume over a world made the same way; a refused one leaves both with us.
    eh::World other = eh::suite_world(EVOHARNESS_TASK_MIGRATION, 50, 2);
    eh::Policy p = load("suite_mlp.onnx");
    CHECK(thrown([&] { eh::Agent::resume(std::move(p), std::move(other), config, work + "/suite.ckpt"); }) ==
          EVOHARNESS_STATUS_CHECKPOINT);
    CHECK(static_cast<bool>(p) && static_cast<bool>(other));
    eh::Agent b = eh::Agent::resume(std::move(p), eh::suite_world(EVOHARNESS_TASK_RECORDS, 50, 2),
                                    config, work + "/suite.ckpt");
    b.register_tool("merge", [](const eh::ToolCall&, eh::ToolResult& r) { r.add_int("merged", 0); });
    CHECK(b.run(0).steps == 30);
    evoharness_summary end_b = b.run(1000000);
    CHECK(end_b.steps == end.steps && end_b.spent == end.spent && end_b.finished == end.finished);
    CHECK(eh::task_stats(b)->landed == st->landed);
    CHECK(thrown([] { eh::suite_agent_config(static_cast<evoharness_task>(3), 50); }) ==
          EVOHARNESS_STATUS_INVALID_ARGUMENT);
    evoharness_capacities caps = eh::suite_capacities();
    CHECK(caps.facts == 16 && caps.tools == 8);

    eh::VecEnv v2(EVOHARNESS_TASK_MIGRATION, 50, 2, 0, 1, 9);
    CHECK(v2.size() == 2 && v2.group() == 1 && v2.obs_len() > 0 && v2.actions() > 0);
    CHECK(!v2.last_episode(0).has_value());
    CHECK(thrown([&] { v2.last_episode(2); }) == EVOHARNESS_STATUS_NOT_FOUND);
    CHECK(thrown([&] { v2.episodes(2); }) == EVOHARNESS_STATUS_NOT_FOUND);
    std::vector<float> obs, reward;
    std::vector<std::uint8_t> mask, done;
    v2.observe(obs, mask);
    std::vector<std::uint32_t> actions(2);
    for (int s = 0; s < 5000 && v2.episodes(0) == 0; s++) {
        for (std::size_t i = 0; i < 2; i++) {
            for (std::size_t k = 0; k < v2.actions(); k++) {
                std::size_t t = (k + static_cast<std::size_t>(s) * 5) % v2.actions();
                if (mask[i * v2.actions() + t]) {
                    actions[i] = static_cast<std::uint32_t>(t);
                    break;
                }
            }
        }
        v2.step(actions, obs, mask, reward, done);
    }
    CHECK(v2.episodes(0) > 0 && v2.last_episode(0).has_value());
    CHECK(thrown([&] { v2.step({0}, obs, mask, reward, done); }) == EVOHARNESS_STATUS_INVALID_ARGUMENT);
    CHECK(thrown([] { eh::VecEnv(static_cast<evoharness_task>(3), 50, 2, 0, 1, 9); }) ==
          EVOHARNESS_STATUS_INVALID_ARGUMENT);

    // Groups follow the lean teacher to the same successful episode.
    eh::VecEnv g(EVOHARNESS_TASK_ORCHESTRATION, 50, 4, 0, 2, 3, 2);
    CHECK(g.group() == 2);
    g.set_lifetime(1);  // a new agent after every episode
    g.observe(obs, mask);
    while (g.episodes(1) < 2) g.step(g.teacher_actions(EVOHARNESS_TEACHER_LEAN), obs, mask, reward, done);
    CHECK(g.last_episode(0)->success && g.last_episode(0)->steps == g.last_episode(1)->steps);
    CHECK(g.teacher_actions(EVOHARNESS_TEACHER_ORACLE).size() == 4);

    // A copy mid-episode follows its source under the same actions.
    g.step(g.teacher_actions(EVOHARNESS_TEACHER_LEAN), obs, mask, reward, done);
    g.copy(0, 3);
    CHECK(thrown([&] { g.copy(0, 4); }) == EVOHARNESS_STATUS_NOT_FOUND);
    CHECK(g.episodes(3) == g.episodes(0));
    do {
        auto a = g.teacher_actions(EVOHARNESS_TEACHER_LEAN);
        a[3] = a[0];
        g.step(a, obs, mask, reward, done);
        CHECK(reward[0] == reward[3] && done[0] == done[3]);
    } while (!done[0]);
    CHECK(g.last_episode(0)->steps == g.last_episode(3)->steps);
}

// A world written in C++ (eh::HostWorld): invoices to pay exactly once, three tools.
struct Invoices : eh::HostWorld {
    std::int64_t items = 0, next = 0;
    std::vector<int> paid;
    std::string last;          // what the last event said: "invoice", "done" or ""
    bool throw_on_audit = false;
    int* deleted = nullptr;

    ~Invoices() override {
        if (deleted) ++*deleted;
    }
    std::vector<std::string> tools() const override { return {"next", "pay", "audit"}; }
    void reset(std::uint64_t seed, eh::ToolResult& event) override {
        items = 2 + static_cast<std::int64_t>(seed % 3);
        next = 0;
        paid.assign(static_cast<std::size_t>(items), 0);
        last.clear();
        event.add_int("items", items);
    }
    void call(const eh::ToolCall& call, eh::ToolResult& result) override {
        last.clear();
        if (call.name == "next") {
            if (next < items) {
                last = "invoice";
                result.add_int("invoice", 100 + next++);
            } else {
                last = "done";
                result.add_bool("done", true);
            }
        } else if (call.name == "pay") {
            const std::int64_t* id = call.args.empty() ? nullptr : std::get_if<std::int64_t>(&call.args[0]);
            if (id == nullptr || *id < 100 || *id >= 100 + items) {
                result.error().add_text("code", "unknown invoice");
                return;
            }
            paid[static_cast<std::size_t>(*id - 100)]++;
            result.add_int("paid", *id);
        } else {
            if (throw_on_audit) throw std::runtime_error("the audit service is down");
            result.add_int("left", static_cast<std::int64_t>(std::count(paid.begin(), paid.end(), 0)));
        }
    }
    evoharness_verdict judge(std::optional<bool> finished) override {
        evoharness_verdict v{};
        v.success = finished == true && std::all_of(paid.begin(), paid.end(), [](int p) { return p == 1; });
        v.violations = static_cast<std::uint32_t>(std::count_if(paid.begin(), paid.end(), [](int p) { return p > 1; }));
        return v;
    }
};

static void test_host_world() {
    int deleted = 0;
    // Under an agent with the three-tool fixture policy.
    {
        auto inv = std::make_unique<Invoices>();
        inv->deleted = &deleted;
        Invoices* seen = inv.get();
        evoharness_agent_config config = eh::agent_config();
        config.temperature = 1.0f;
        config.budget = 200;
        eh::Agent a = eh::Agent::create(load("mlp.onnx"), eh::host_world(std::move(inv)), config);
        evoharness_summary s = a.run(40);
        CHECK(s.world_actions > 0 && seen->items >= 2);
        CHECK(a.verdict().has_value());
        CHECK(thrown([&] { a.checkpoint(work + "/host.ckpt"); }) == EVOHARNESS_STATUS_WORLD);
        seen->throw_on_audit = true;
        evoharness_status st = thrown([&] { a.run(1000); });
        CHECK(st == EVOHARNESS_STATUS_WORLD || st == EVOHARNESS_STATUS_OK);  // if it audits
    }
    CHECK(deleted == 1);

    // In a training VecEnv, scripted from what each world said last.
    std::vector<eh::World> worlds;
    std::vector<Invoices*> seen;
    for (int i = 0; i < 2; i++) {
        auto inv = std::make_unique<Invoices>();
        inv->deleted = &deleted;
        seen.push_back(inv.get());
        worlds.push_back(eh::host_world(std::move(inv)));
    }
    evoharness_vec_env_config config = eh::vec_env_config();
    config.budget = 40;
    evoharness_vec_env_config bad = config;
    bad.capacities.tools = 5;
    CHECK(thrown([&] {
              eh::VecEnv refused(worlds, bad);
              (void)refused;
          }) == EVOHARNESS_STATUS_CONFIG);
    CHECK(static_cast<bool>(worlds[0]) && static_cast<bool>(worlds[1]));
    {
        eh::VecEnv v(worlds, config);
        CHECK(!static_cast<bool>(worlds[0]) && !static_cast<bool>(worlds[1]));
        std::vector<float> obs, reward;
        std::vector<std::uint8_t> mask, done;
        v.observe(obs, mask);
        std::vector<std::uint32_t> actions(2);
        for (int s = 0; s < 400 && (v.episodes(0) < 2 || v.episodes(1) < 2); s++) {
            for (std::size_t i = 0; i < 2; i++) {
                const std::string& last = seen[i]->last;
                actions[i] = last == "invoice" ? v.intent_template(i, R"({"call": "pay", "arg": )" +
                                                                       std::to_string(100 + seen[i]->next - 1) + "}")
                             : last == "done" ? v.intent_template(i, R"({"finish": true})")
                                              : v.intent_template(i, R"({"call": "next"})");
            }
            v.step(actions, obs, mask, reward, done);
        }
        CHECK(v.episodes(0) >= 2 && v.last_episode(0)->success && v.last_episode(1)->success);
        CHECK(thrown([&] { v.intent_template(0, R"({"call": "refund"})"); }) ==
              EVOHARNESS_STATUS_INVALID_ARGUMENT);
        seen[1]->throw_on_audit = true;
        std::uint32_t audit = v.intent_template(0, R"({"call": "audit"})");
        CHECK(thrown([&] { v.step({audit, audit}, obs, mask, reward, done); }) == EVOHARNESS_STATUS_WORLD);
    }
    CHECK(deleted == 3);
    // Too many tools: refused, and the world deleted.
    struct Wide : Invoices {
        std::vector<std::string> tools() const override {
            std::vector<std::string> t;
            for (int i = 0; i < 65; i++) t.push_back("t" + std::to_string(i));
            return t;
        }
    };
    auto wide = std::make_unique<Wide>();
    wide->deleted = &deleted;
    CHECK(thrown([&] { eh::host_world(std::move(wide)); }) == EVOHARNESS_STATUS_CONFIG);
    CHECK(deleted == 4);
}

// A fleet of four agents on the batched fixture takes the templates four lone agents take, with
// lambdas as tools; its checkpoints resume alone.
static void test_fleet() {
    evoharness_agent_config config = eh::agent_config();
    config.temperature = 1.0f;
    config.budget = 60;
    int calls = 0;
    auto tool = [&](const eh::ToolCall&, eh::ToolResult& r) {
        calls++;
        r.add_int("ok", 1);
    };
    const std::size_t n = 4;
    std::vector<std::vector<std::uint32_t>> alone(n);
    for (std::size_t i = 0; i < n; i++) {
        config.seed = 70 + i;
        eh::Agent a = eh::Agent::create(load("mlp_batch.onnx"), config);
        for (const char* t : {"copy", "wait", "verify"}) a.register_tool(t, tool);
        for (int k = 0; k < 20; k++) {
            evoharness_step_report r = a.step();
            if (!r.taken) break;
            alone[i].push_back(r.template_index);
        }
    }
    eh::Policy p = load("mlp_batch.onnx");
    eh::Fleet f = eh::Fleet::create(std::move(p));
    CHECK(!static_cast<bool>(p) && f.size() == 0);
    for (std::size_t i = 0; i < n; i++) {
        config.seed = 70 + i;
        CHECK(f.add(config) == i);
        for (const char* t : {"copy", "wait", "verify"}) f.register_tool(i, t, tool);
    }
    CHECK(f.size() == n);
    CHECK(thrown([&] { f.register_tool(9, "copy", tool); }) == EVOHARNESS_STATUS_NOT_FOUND);
    std::vector<std::vector<std::uint32_t>> together(n);
    for (int k = 0; k < 20; k++) {
        std::vector<evoharness_step_report> reports = f.step();
        CHECK(reports.size() == n);
        for (std::size_t i = 0; i < n; i++)
            if (reports[i].taken) together[i].push_back(reports[i].template_index);
    }
    CHECK(together == alone && calls > 0);
    CHECK(!f.verdict(0).has_value());  // no world, no judge
    f.checkpoint(1, work + "/fleet.ckpt");
    config.seed = 71;
    eh::Agent back = eh::Agent::resume(load("mlp_batch.onnx"), config, work + "/fleet.ckpt");
    CHECK(f.resume(config, work + "/fleet.ckpt") == n);
    f.register_tool(0, "copy", nullptr);
    f.start_task(2, 99);
    f.set_checkpoints(3, work + "/fleet3.ckpt", 1, true);
    f.start_task(3, 123);  // a task that goes on: its first step writes the checkpoint
    CHECK(f.step()[3].taken);
    std::ifstream written(work + "/fleet3.ckpt");
    CHECK(written.good());
}

int main(int argc, char** argv) {
    if (argc != 3) {
        std::cerr << "usage: " << argv[0] << " FIXTURES_DIR WORK_DIR\n";
        return 2;
    }
    fixtures = argv[1];
    work = argv[2];
    try {
        test_errors_and_policies();
        test_workspace();
        test_agent();
        test_suite_and_vec_env();
        test_host_world();
        test_fleet();
    } catch (const std::exception& e) {
        std::cerr << "unexpected exception: " << e.what() << "\n";
        failures++;
    }
    std::cout << checks << " checks, " << failures << " failed\n";
    return failures == 0 ? 0 : 1;
}
