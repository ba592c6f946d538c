// evoharness.hpp: a header-only C++17 wrapper over the C ABI of the embedding library
// (evoharness.h, libevoharness). evoharness_train.hpp adds the task suite's (libevoharness_train).
// SPDX-License-Identifier: MIT OR Apache-2.0
//
// What it adds to the C header:
//
// - RAII handles: Workspace, Policy, World and Agent own their C handle (move-only) and free it
//   in their destructor. WorkspaceView is a non-owning, read-only view (an agent's workspace).
// - Errors are exceptions: every failing call throws evoharness::Error, which carries the
//   evoharness_status and the library's message for the calling thread. A function that only
//   reports "nothing there" (an agent whose world has no judge, no current event) returns
//   std::optional instead.
// - Lambdas as tools, traces and log sinks. No exception ever crosses into the C library: the
//   trampolines catch everything. A tool that throws evoharness::ToolFailure{code} fails with
//   that code, any other exception with code 1; the agent then sees an error event
//   {error: "tool_failed", code} and goes on. An exception from a trace or log lambda is dropped.
//
// Thread safety is the C handles' (see evoharness.h): one thread at a time per Workspace (for
// changes), Policy, World and Agent; tool and trace lambdas run on the thread that steps the
// agent; the log lambda may run on any thread, at once on several.
//
// Link it like the C library (it is header-only over libevoharness, or libevoharness_train,
// which exports the same functions): see bindings/README.md.

#ifndef EVOHARNESS_HPP
#define EVOHARNESS_HPP

#include "evoharness.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace evoharness {

/// A failed call: the status and the library's message.
class Error : public std::runtime_error {
public:
    Error(evoharness_status status, const std::string& message)
        : std::runtime_error(message), status_(status) {}

    /// The status the C function returned.
    evoharness_status status() const noexcept { return status_; }

private:
    evoharness_status status_;
};

/// Thrown by a tool lambda to report that the tool failed, with this code (not 0).
struct ToolFailure {
    std::int32_t code = 1;
};

namespace detail {

inline void check(evoharness_status s) {
    if (s != EVOHARNESS_STATUS_OK) {
        throw Error(s, std::string(evoharness_last_error_message(), evoharness_last_error_length()));
    }
}

template <class T, void (*Free)(T*)>
struct Deleter {
    void operator()(T* p) const noexcept { Free(p); }
};

/// A NUL-terminated copy of a string_view.
inline std::string z(std::string_view s) { return std::string(s); }

}  // namespace detail

/// The library's version, "MAJOR.MINOR.PATCH".
inline std::string version() { return evoharness_version(); }

/// A value's bytes (EVOHARNESS_VALUE_KIND_BYTES).
using Bytes = std::vector<std::uint8_t>;

/// A typed value: bool, 64-bit integer, double, text (std::string) or bytes.
using Value = std::variant<bool, std::int64_t, double, std::string, Bytes>;

/// The C value as a Value.
inline Value to_value(const evoharness_value& v) {
    switch (v.kind) {
        case EVOHARNESS_VALUE_KIND_BOOL:
            return v.boolean;
        case EVOHARNESS_VALUE_KIND_INT:
            return v.integer;
        case EVOHARNESS_VALUE_KIND_FLOAT:
            return v.number;
        case EVOHARNESS_VALUE_KIND_TEXT:
            return std::string(reinterpret_cast<const char*>(v.data), v.len);
        default:
            return Bytes(v.data, v.data + v.len);
    }
}

/// The C value as text: `true`, `42`, `0.5`, `"text"`, `0x0aff`.
inline std::string format(const evoharness_value& v) {
    std::array<char, 256> buf{};
    std::size_t len = 0;
    detail::check(evoharness_value_format(&v, buf.data(), buf.size(), &len));
    return std::string(buf.data(), len);
}

/// A fact of Belief.
struct Fact {
    std::string key;
    evoharness_value value;
    float confidence;
    evoharness_provenance provenance;
    std::uint16_t source;
    std::uint32_t set_at;
    std::uint32_t confirmed_at;
};

/// An event: what the world said.
struct Event {
    evoharness_event_kind kind;
    std::uint16_t source;
    std::vector<std::pair<std::string, evoharness_value>> fields;
};

/// A read-only view of a workspace (owned by a Workspace or lent by an Agent). An agent's view
/// shows the agent as it is at each read and is valid until the agent is destroyed; reading it
/// from the agent's own tool or trace lambdas throws (the agent is busy).
class WorkspaceView {
public:
    explicit WorkspaceView(const evoharness_workspace* ws) noexcept : ws_(ws) {}

    evoharness_workspace_info info() const {
        evoharness_workspace_info i{};
        detail::check(evoharness_workspace_get_info(ws_, &i));
        return i;
    }

    std::vector<Fact> facts() const {
        std::vector<Fact> out;
        for (std::size_t i = 0, n = info().facts; i < n; i++) {
            evoharness_fact f{};
            detail::check(evoharness_workspace_fact(ws_, i, &f));
            out.push_back(Fact{f.key, f.value, f.confidence, f.provenance, f.source, f.set_at,
                               f.confirmed_at});
        }
        return out;
    }

    std::vector<evoharness_plan_step> plan() const {
        std::vector<evoharness_plan_step> out;
        for (std::size_t i = 0, n = info().plan_steps; i < n; i++) {
            evoharness_plan_step s{};
            detail::check(evoharness_workspace_plan_step(ws_, i, &s));
            out.push_back(s);
        }
        return out;
    }

    std::vector<evoharness_lesson> lessons() const {
        std::vector<evoharness_lesson> out;
        for (std::size_t i = 0, n = info().lessons; i < n; i++) {
            evoharness_lesson l{};
            detail::check(evoharness_workspace_lesson(ws_, i, &l));
            out.push_back(l);
        }
        return out;
    }

    /// The current event, if there is one.
    std::optional<Event> event() const {
        evoharness_event e{};
        evoharness_status s = evoharness_workspace_event(ws_, &e);
        if (s == EVOHARNESS_STATUS_NOT_FOUND) return std::nullopt;
        detail::check(s);
        Event out{e.kind, e.source, {}};
        for (std::size_t i = 0; i < e.field_count; i++) {
            out.fields.emplace_back(e.fields[i].key, e.fields[i].value);
        }
        return out;
    }

    /// The whole workspace as a versioned, checksummed snapshot.
    Bytes snapshot() const {
        std::size_t max = 0;
        detail::check(evoharness_workspace_snapshot_max_len(ws_, &max));
        Bytes buf(max);
        std::size_t len = 0;
        detail::check(evoharness_workspace_snapshot(ws_, buf.data(), buf.size(), &len));
        buf.resize(len);
        return buf;
    }

    const evoharness_workspace* get() const noexcept { return ws_; }

private:
    const evoharness_workspace* ws_;
};

/// The outcome of one encoded action.
struct Outcome {
    /// The outcome frame (with the action's sequence number).
    Bytes frame;
    /// Whether the action was applied (false: refused; the frame says why).
    bool applied;
};

/// A workspace of its own, driven by encoded actions.
class Workspace {
public:
    /// The defaults: the suite's capacities, a budget of 1000, the default costs.
    static evoharness_workspace_config default_config() {
        evoharness_workspace_config c{};
        detail::check(evoharness_workspace_config_default(&c));
        return c;
    }

    explicit Workspace(const evoharness_workspace_config& config = default_config()) {
        evoharness_workspace* ws = nullptr;
        detail::check(evoharness_workspace_new(&config, &ws));
        ws_.reset(ws);
    }

    WorkspaceView view() const noexcept { return WorkspaceView(ws_.get()); }

    Outcome apply(const Bytes& action) {
        Outcome out{Bytes(EVOHARNESS_FRAME_MAX), false};
        std::size_t len = 0;
        detail::check(evoharness_workspace_apply(ws_.get(), action.data(), action.size(),
                                                 out.frame.data(), out.frame.size(), &len,
                                                 &out.applied));
        out.frame.resize(len);
        return out;
    }

    void observe(const Bytes& event) {
        detail::check(evoharness_workspace_observe(ws_.get(), event.data(), event.size()));
    }

    void restore(const Bytes& snapshot) {
        detail::check(evoharness_workspace_restore(ws_.get(), snapshot.data(), snapshot.size()));
    }

    void reset_task() { detail::check(evoharness_workspace_reset_task(ws_.get())); }

    evoharness_workspace* get() noexcept { return ws_.get(); }

private:
    std::unique_ptr<evoharness_workspace, detail::Deleter<evoharness_workspace, evoharness_workspace_free>> ws_;
};

/// How to load a policy.
struct PolicyOptions {
    evoharness_backend backend = EVOHARNESS_BACKEND_AUTO;
    /// The ONNX Runtime library; empty for the default lookup.
    std::string ort_library;
    evoharness_device device = EVOHARNESS_DEVICE_CPU;
    std::int32_t device_id = 0;
    /// 0 for the backend's default.
    std::uint32_t threads = 0;
    bool cpu_fallback = false;

    evoharness_policy_options c() const {
        evoharness_policy_options o{};
        detail::check(evoharness_policy_options_default(&o));
        o.backend = backend;
        o.ort_library = ort_library.empty() ? nullptr : ort_library.c_str();
        o.device = device;
        o.device_id = device_id;
        o.threads = threads;
        o.cpu_fallback = cpu_fallback;
        return o;
    }
};

class Agent;

/// A world a library made (such as a task of the suite: evoharness_train.hpp), for an Agent to
/// act in. Given to an Agent, which takes it over (std::move it in).
class World {
public:
    /// Takes over a world handle from the C API (NULL gives an empty World).
    explicit World(evoharness_world* w) noexcept : w_(w) {}

    /// Whether this object still owns a world (false after an Agent took it over).
    explicit operator bool() const noexcept { return static_cast<bool>(w_); }

private:
    friend class Agent;
    friend class Fleet;
    friend class VecEnv;  // evoharness_train.hpp: takes worlds over
    std::unique_ptr<evoharness_world, detail::Deleter<evoharness_world, evoharness_world_free>> w_;
};

/// A loaded, checked policy. Given to an Agent, which takes it over (std::move it in).
class Policy {
public:
    static Policy load(const std::string& path, const PolicyOptions& options = {}) {
        evoharness_policy_options o = options.c();
        evoharness_policy* p = nullptr;
        detail::check(evoharness_policy_load(path.c_str(), &o, &p));
        return Policy(p);
    }

    static Policy load_from_memory(const Bytes& onnx, const PolicyOptions& options = {}) {
        evoharness_policy_options o = options.c();
        evoharness_policy* p = nullptr;
        detail::check(evoharness_policy_load_from_memory(onnx.data(), onnx.size(), &o, &p));
        return Policy(p);
    }

    evoharness_policy_abi abi() const {
        evoharness_policy_abi a{};
        detail::check(evoharness_policy_get_abi(p_.get(), &a));
        return a;
    }

    /// The tool names the file declares (possibly none).
    std::vector<std::string> tool_names() const {
        std::vector<std::string> out;
        for (std::size_t i = 0, n = abi().tool_names; i < n; i++) {
            std::array<char, 256> buf{};
            std::size_t len = 0;
            detail::check(evoharness_policy_tool_name(p_.get(), i, buf.data(), buf.size(), &len));
            out.emplace_back(buf.data(), len);
        }
        return out;
    }

    /// Whether this object still owns a policy (false after an Agent took it over).
    explicit operator bool() const noexcept { return static_cast<bool>(p_); }

private:
    friend class Agent;
    friend class Fleet;
    explicit Policy(evoharness_policy* p) noexcept : p_(p) {}
    std::unique_ptr<evoharness_policy, detail::Deleter<evoharness_policy, evoharness_policy_free>> p_;
};

/// A resolved tool call, as a tool lambda receives it.
struct ToolCall {
    std::uint16_t tool;
    std::string_view name;
    std::vector<Value> args;
};

/// The result a tool lambda writes (valid during the call only).
class ToolResult {
public:
    explicit ToolResult(evoharness_tool_result* r) noexcept : r_(r) {}

    /// Makes the result an error event (the tool ran but failed at its job).
    ToolResult& error() {
        detail::check(evoharness_tool_result_set_kind(r_, EVOHARNESS_EVENT_KIND_ERROR));
        return *this;
    }
    ToolResult& add_bool(std::string_view key, bool v) {
        detail::check(evoharness_tool_result_add_bool(r_, detail::z(key).c_str(), v));
        return *this;
    }
    ToolResult& add_int(std::string_view key, std::int64_t v) {
        detail::check(evoharness_tool_result_add_int(r_, detail::z(key).c_str(), v));
        return *this;
    }
    ToolResult& add_float(std::string_view key, double v) {
        detail::check(evoharness_tool_result_add_float(r_, detail::z(key).c_str(), v));
        return *this;
    }
    ToolResult& add_text(std::string_view key, std::string_view text) {
        detail::check(evoharness_tool_result_add_text(r_, detail::z(key).c_str(),
                                                      detail::z(text).c_str()));
        return *this;
    }
    ToolResult& add_bytes(std::string_view key, const Bytes& b) {
        detail::check(evoharness_tool_result_add_bytes(r_, detail::z(key).c_str(), b.data(), b.size()));
        return *this;
    }
    /// Replaces the whole result with an encoded event frame.
    ToolResult& set_frame(const Bytes& frame) {
        detail::check(evoharness_tool_result_set_frame(r_, frame.data(), frame.size()));
        return *this;
    }

private:
    evoharness_tool_result* r_;
};

/// A tool: reads the call, writes the result; throws ToolFailure (or anything) to fail.
using Tool = std::function<void(const ToolCall&, ToolResult&)>;

/// A world written by the host (evoharness_world_from_callbacks): the tools, the tasks and the
/// judge of a product's own workflow, for an Agent to run (a policy made for its tool count) or a
/// training VecEnv (evoharness_train.hpp) to step. Make one an evoharness::World with host_world(),
/// which takes it over. Called on the thread that uses its owner, one method at a time. An
/// exception from a method is a failure of the world itself (the step that ran it throws
/// evoharness::Error with EVOHARNESS_STATUS_WORLD), not a tool's error event: a tool that fails at
/// its job writes result.error() and returns. Such a world keeps no resume point: an Agent over it
/// cannot be checkpointed.
class HostWorld {
public:
    virtual ~HostWorld() = default;
    /// The tool names, in tool-index order: 1 to 64, distinct.
    virtual std::vector<std::string> tools() const = 0;
    /// Starts a task for `seed` and writes its first event (an empty notice) into `event`.
    virtual void reset(std::uint64_t seed, ToolResult& event) = 0;
    /// Runs one call and writes what the tool returned (an empty result) into `result`.
    virtual void call(const ToolCall& call, ToolResult& result) = 0;
    /// How the task went, given the agent's claim (`std::nullopt`: it has not finished).
    virtual evoharness_verdict judge(std::optional<bool> finished) = 0;
};

namespace detail {

struct HostWorldCallbacks {
    static HostWorld& world(void* user_data) { return *static_cast<HostWorld*>(user_data); }

    static std::int32_t reset(void* user_data, std::uint64_t seed, evoharness_tool_result* r) noexcept {
        try {
            ToolResult event(r);
            world(user_data).reset(seed, event);
            return 0;
        } catch (...) {
            return 1;
        }
    }

    static std::int32_t call(void* user_data, const evoharness_tool_call* call,
                             evoharness_tool_result* r) noexcept {
        try {
            ToolCall c{call->tool, call->name, {}};
            for (std::size_t i = 0; i < call->arg_count; i++) c.args.push_back(to_value(call->args[i]));
            ToolResult result(r);
            world(user_data).call(c, result);
            return 0;
        } catch (...) {
            return 1;
        }
    }

    static std::int32_t judge(void* user_data, std::int8_t finished, evoharness_verdict* v) noexcept {
        try {
            std::optional<bool> f;
            if (finished >= 0) f = finished == 1;
            *v = world(user_data).judge(f);
            return 0;
        } catch (...) {
            return 1;
        }
    }

    static void drop(void* user_data) noexcept { delete static_cast<HostWorld*>(user_data); }
};

}  // namespace detail

/// `world` as a World for an Agent or a VecEnv, which own it from then on (it is deleted with
/// them). Throws evoharness::Error (CONFIG for more than 64 tools, INVALID_ARGUMENT for names
/// that repeat or are empty); `world` is then deleted.
inline World host_world(std::unique_ptr<HostWorld> world) {
    std::vector<std::string> names = world->tools();
    std::vector<const char*> ptrs;
    for (const std::string& n : names) ptrs.push_back(n.c_str());
    evoharness_world_callbacks cb{&detail::HostWorldCallbacks::reset, &detail::HostWorldCallbacks::call,
                                  &detail::HostWorldCallbacks::judge, nullptr, nullptr,
                                  &detail::HostWorldCallbacks::drop};
    evoharness_world* w = nullptr;
    detail::check(evoharness_world_from_callbacks(&cb, world.get(), ptrs.data(), ptrs.size(), &w));
    world.release();  // the world's drop callback deletes it
    return World(w);
}
/// A trace sink: one record per step.
using Trace = std::function<void(const evoharness_trace_record&)>;

/// The defaults: budget 1000, default costs, greedy, seed 0.
inline evoharness_agent_config agent_config() {
    evoharness_agent_config c{};
    detail::check(evoharness_agent_config_default(&c));
    return c;
}

/// An agent: a policy driving its workspace, calling host tools (lambdas) and, for the others,
/// the world it was given (if any).
class Agent {
public:
    /// An agent whose world is the host's tools only. Takes over `policy` (on success it is
    /// left empty; on failure it is untouched).
    static Agent create(Policy&& policy, const evoharness_agent_config& config) {
        return make(policy, nullptr, config, nullptr);
    }

    /// An agent over `world`, with host tools on top. Takes over `policy` and `world` (on
    /// success both are left empty; on failure both are untouched).
    static Agent create(Policy&& policy, World&& world, const evoharness_agent_config& config) {
        return make(policy, &world, config, nullptr);
    }

    /// Continues from a checkpoint file; takes over `policy` as create() does (a refused
    /// checkpoint leaves it untouched). Tools and the trace are not in a checkpoint: register
    /// them again.
    static Agent resume(Policy&& policy, const evoharness_agent_config& config,
                        const std::string& path) {
        return make(policy, nullptr, config, &path);
    }

    /// Continues an agent over `world` from a checkpoint file; takes over `policy` and `world`
    /// as create() does.
    static Agent resume(Policy&& policy, World&& world, const evoharness_agent_config& config,
                        const std::string& path) {
        return make(policy, &world, config, &path);
    }

    /// Serves the tool named `name` with `tool`; an empty function removes the host's tool.
    void register_tool(const std::string& name, Tool tool) {
        if (!tool) {
            detail::check(evoharness_agent_register_tool(agent_.get(), name.c_str(), nullptr, nullptr));
            state_->tools.erase(name);
            return;
        }
        auto owned = std::make_unique<Tool>(std::move(tool));
        detail::check(evoharness_agent_register_tool(agent_.get(), name.c_str(), &Agent::call_tool,
                                                     owned.get()));
        state_->tools[name] = std::move(owned);
    }

    std::vector<std::string> tool_names() const {
        std::vector<std::string> out;
        for (std::size_t i = 0;; i++) {
            std::array<char, 256> buf{};
            std::size_t len = 0;
            evoharness_status s =
                evoharness_agent_tool_name(agent_.get(), i, buf.data(), buf.size(), &len);
            if (s == EVOHARNESS_STATUS_NOT_FOUND) return out;
            detail::check(s);
            out.emplace_back(buf.data(), len);
        }
    }

    /// Sends one record per step to `trace`; an empty function stops tracing.
    void set_trace(Trace trace) {
        if (!trace) {
            detail::check(evoharness_agent_set_trace(agent_.get(), nullptr, nullptr));
            state_->trace.reset();
            return;
        }
        auto owned = std::make_unique<Trace>(std::move(trace));
        detail::check(evoharness_agent_set_trace(agent_.get(), &Agent::call_trace, owned.get()));
        state_->trace = std::move(owned);
    }

    void set_checkpoints(const std::string& path, std::uint64_t every_steps, bool on_commit) {
        detail::check(evoharness_agent_set_checkpoints(agent_.get(), path.c_str(), every_steps, on_commit));
    }
    void stop_checkpoints() {
        detail::check(evoharness_agent_set_checkpoints(agent_.get(), nullptr, 0, false));
    }

    void start_task(std::uint64_t seed) { detail::check(evoharness_agent_start_task(agent_.get(), seed)); }

    /// One step; `taken` is false when the task had ended.
    evoharness_step_report step() {
        evoharness_step_report r{};
        detail::check(evoharness_agent_step(agent_.get(), &r));
        return r;
    }

    evoharness_summary run(std::uint64_t max_steps) {
        evoharness_summary s{};
        detail::check(evoharness_agent_run(agent_.get(), max_steps, &s));
        return s;
    }

    /// How the task went so far, as the world judges it; nullopt when it has no judge (or the
    /// agent no world).
    std::optional<evoharness_verdict> verdict() const {
        evoharness_verdict v{};
        evoharness_status s = evoharness_agent_verdict(agent_.get(), &v);
        if (s == EVOHARNESS_STATUS_NOT_FOUND) return std::nullopt;
        detail::check(s);
        return v;
    }

    void checkpoint(const std::string& path) const {
        detail::check(evoharness_agent_checkpoint(agent_.get(), path.c_str()));
    }

    /// The agent's workspace (valid until the agent is destroyed).
    WorkspaceView workspace() const {
        const evoharness_workspace* ws = nullptr;
        detail::check(evoharness_agent_workspace(agent_.get(), &ws));
        return WorkspaceView(ws);
    }

    evoharness_agent* get() noexcept { return agent_.get(); }
    const evoharness_agent* get() const noexcept { return agent_.get(); }

private:
    Agent() : state_(std::make_unique<State>()) {}

    // The C functions take the policy and the world only on success, and give them back
    // unchanged otherwise: so do these.
    static Agent make(Policy& policy, World* world, const evoharness_agent_config& config,
                      const std::string* path) {
        Agent a;
        evoharness_policy* p = policy.p_.get();
        evoharness_world* w = world != nullptr ? world->w_.get() : nullptr;
        evoharness_world** wp = world != nullptr ? &w : nullptr;
        evoharness_agent* raw = nullptr;
        detail::check(path != nullptr
                          ? evoharness_agent_resume(&p, wp, &config, path->c_str(), &raw)
                          : evoharness_agent_new(&p, wp, &config, &raw));
        policy.p_.release();
        if (world != nullptr) world->w_.release();
        a.agent_.reset(raw);
        return a;
    }

    friend class Fleet;  // serves its agents' tools the same way

    static std::int32_t call_tool(void* user_data, const evoharness_tool_call* call,
                                  evoharness_tool_result* result) noexcept {
        try {
            ToolCall c{call->tool, call->name, {}};
            for (std::size_t i = 0; i < call->arg_count; i++) c.args.push_back(to_value(call->args[i]));
            ToolResult r(result);
            (*static_cast<Tool*>(user_data))(c, r);
            return 0;
        } catch (const ToolFailure& f) {
            return f.code == 0 ? 1 : f.code;
        } catch (...) {
            return 1;
        }
    }

    static void call_trace(void* user_data, const evoharness_trace_record* record) noexcept {
        try {
            (*static_cast<Trace*>(user_data))(*record);
        } catch (...) {
        }
    }

    // The callbacks live on the heap, so their addresses (the C side's user_data) survive moves
    // of the Agent. Declared before agent_, so the agent is freed first.
    struct State {
        std::map<std::string, std::unique_ptr<Tool>> tools;
        std::unique_ptr<Trace> trace;
    };
    std::unique_ptr<State> state_;
    std::unique_ptr<evoharness_agent, detail::Deleter<evoharness_agent, evoharness_agent_free>> agent_;
};

/// A fleet: agents with their own worlds, tools and checkpoints, and one policy that runs once
/// per step() for all of them (a policy file with a dynamic batch dimension; a batch-1 file runs
/// once per agent). Each agent acts and checkpoints exactly as it would alone.
class Fleet {
public:
    /// A fleet with no agents; takes over `policy` (on failure it is untouched).
    static Fleet create(Policy&& policy) {
        Fleet f;
        evoharness_policy* p = policy.p_.get();
        evoharness_fleet* raw = nullptr;
        detail::check(evoharness_fleet_new(&p, &raw));
        policy.p_.release();
        f.fleet_.reset(raw);
        return f;
    }

    /// Adds an agent over the host's tools only; returns its index.
    std::size_t add(const evoharness_agent_config& config) { return add_agent(nullptr, config, nullptr); }

    /// Adds an agent over `world` (taken over on success, untouched on failure); returns its
    /// index.
    std::size_t add(World&& world, const evoharness_agent_config& config) {
        return add_agent(&world, config, nullptr);
    }

    /// Adds an agent continued from a checkpoint file (a fleet's or a lone agent's).
    std::size_t resume(const evoharness_agent_config& config, const std::string& path) {
        return add_agent(nullptr, config, &path);
    }

    std::size_t size() const {
        std::size_t n = 0;
        detail::check(evoharness_fleet_len(fleet_.get(), &n));
        return n;
    }

    /// Serves agent `index`'s tool `name` with `tool`; an empty function removes it.
    void register_tool(std::size_t index, const std::string& name, Tool tool) {
        auto key = std::make_pair(index, name);
        if (!tool) {
            detail::check(evoharness_fleet_register_tool(fleet_.get(), index, name.c_str(), nullptr, nullptr));
            state_->tools.erase(key);
            return;
        }
        auto owned = std::make_unique<Tool>(std::move(tool));
        detail::check(evoharness_fleet_register_tool(fleet_.get(), index, name.c_str(),
                                                     &Agent::call_tool, owned.get()));
        state_->tools[key] = std::move(owned);
    }

    void set_checkpoints(std::size_t index, const std::string& path, std::uint64_t every_steps,
                         bool on_commit) {
        detail::check(evoharness_fleet_set_checkpoints(fleet_.get(), index, path.c_str(), every_steps, on_commit));
    }

    void start_task(std::size_t index, std::uint64_t seed) {
        detail::check(evoharness_fleet_start_task(fleet_.get(), index, seed));
    }

    /// One step of every agent whose task goes on, with one policy run: one report per agent
    /// (`taken` false when its task had ended). An agent's own failure throws after every agent
    /// has stepped.
    std::vector<evoharness_step_report> step() {
        std::vector<evoharness_step_report> reports(size());
        std::size_t stepped = 0;
        detail::check(evoharness_fleet_step(fleet_.get(), reports.data(), nullptr, reports.size(), &stepped));
        return reports;
    }

    std::optional<evoharness_verdict> verdict(std::size_t index) const {
        evoharness_verdict v{};
        evoharness_status s = evoharness_fleet_verdict(fleet_.get(), index, &v);
        if (s == EVOHARNESS_STATUS_NOT_FOUND) return std::nullopt;
        detail::check(s);
        return v;
    }

    void checkpoint(std::size_t index, const std::string& path) const {
        detail::check(evoharness_fleet_checkpoint(fleet_.get(), index, path.c_str()));
    }

    evoharness_fleet* get() noexcept { return fleet_.get(); }

private:
    Fleet() : state_(std::make_unique<State>()) {}

    std::size_t add_agent(World* world, const evoharness_agent_config& config, const std::string* path) {
        evoharness_world* w = world != nullptr ? world->w_.get() : nullptr;
        evoharness_world** wp = world != nullptr ? &w : nullptr;
        std::size_t index = 0;
        detail::check(path != nullptr
                          ? evoharness_fleet_resume(fleet_.get(), wp, &config, path->c_str(), &index)
                          : evoharness_fleet_add(fleet_.get(), wp, &config, &index));
        if (world != nullptr) world->w_.release();
        return index;
    }

    // As an Agent's: the tools live on the heap, declared before fleet_ so it is freed first.
    struct State {
        std::map<std::pair<std::size_t, std::string>, std::unique_ptr<Tool>> tools;
    };
    std::unique_ptr<State> state_;
    std::unique_ptr<evoharness_fleet, detail::Deleter<evoharness_fleet, evoharness_fleet_free>> fleet_;
};

/// A log sink: level, the Rust module that logged, the message.
using LogSink = std::function<void(evoharness_log_level, std::string_view, std::string_view)>;

namespace detail {

struct LogSlot {
    std::mutex lock;
    std::shared_ptr<LogSink> sink;
};

inline LogSlot& log_slot() {
    static LogSlot slot;
    return slot;
}

inline void call_log(void*, std::uint32_t level, const char* target, const char* message) noexcept {
    try {
        std::shared_ptr<LogSink> sink;
        {
            std::lock_guard<std::mutex> g(log_slot().lock);
            sink = log_slot().sink;
        }
        if (sink && *sink) (*sink)(static_cast<evoharness_log_level>(level), target, message);
    } catch (...) {
    }
}

inline void set_log_sink(std::shared_ptr<LogSink> sink) {
    std::lock_guard<std::mutex> g(log_slot().lock);
    log_slot().sink = std::move(sink);
}

}  // namespace detail

/// Sends the library's log records of `max_level` and more severe to `sink` (any thread, at
/// once on several: it must be thread-safe); an empty `sink` stops them. Process-wide.
inline void set_log_callback(LogSink sink, evoharness_log_level max_level = EVOHARNESS_LOG_LEVEL_INFO) {
    if (!sink) {
        detail::check(evoharness_set_log_callback(nullptr, nullptr, EVOHARNESS_LOG_LEVEL_OFF));
        detail::set_log_sink(nullptr);
        return;
    }
    detail::set_log_sink(std::make_shared<LogSink>(std::move(sink)));
    detail::check(evoharness_set_log_callback(&detail::call_log, nullptr, max_level));
}

}  // namespace evoharness

#endif  // EVOHARNESS_HPP
