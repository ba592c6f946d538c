// The C example (examples/c/agent.c) in C++17 with the header-only wrapper (evoharness.hpp and
// evoharness_train.hpp): an agent runs a migration task of the suite in-process, the host serves
// the task's `verify` tool with a lambda, and halfway the agent is checkpointed to a file and
// resumed from it.
//
//   agent POLICY.onnx [CHECKPOINT_FILE] [BACKEND]
//
// As in C: POLICY.onnx is a policy for the suite's capacities (the shipped, trained
// examples/policies/generalist.onnx, or the random-weight fixture
// runtime/tests/fixtures/suite_mlp.onnx); CHECKPOINT_FILE defaults to agent.ckpt; BACKEND is
// auto (default), tract or onnxruntime. Errors are exceptions (evoharness::Error). It links
// libevoharness_train: see README.md beside this file for the build commands.
#include <evoharness_train.hpp>

#include <iomanip>
#include <iostream>
#include <string>

namespace eh = evoharness;

static void print_workspace(const eh::WorkspaceView& ws) {
    static const char* const status[] = {"pending", "active", "done", "failed", "blocked", "skipped"};
    evoharness_workspace_info info = ws.info();
    std::cout << "workspace: " << info.facts << " facts, " << info.plan_steps << " plan steps, "
              << info.lessons << " lessons; budget " << info.spent << " of " << info.budget
              << " spent\n";
    for (const eh::Fact& f : ws.facts()) {
        std::cout << "  fact " << f.key << " = " << eh::format(f.value) << " (confidence "
                  << std::fixed << std::setprecision(2) << f.confidence << ")\n";
    }
    int i = 0;
    for (const evoharness_plan_step& s : ws.plan()) {
        std::cout << "  step " << i++ << " " << eh::format(s.label) << ": " << status[s.status]
                  << ", " << s.attempts << " attempts\n";
    }
    for (const evoharness_lesson& l : ws.lessons()) {
        std::cout << "  lesson " << eh::format(l.trigger) << " -> " << eh::format(l.remedy) << " ("
                  << l.uses << " uses)\n";
    }
}

static void print_summary(const char* when, const evoharness_summary& s) {
    std::cout << when << ": " << s.steps << " steps (" << s.world_actions << " world actions, "
              << s.harness_actions << " harness actions), budget spent " << s.spent << ", "
              << (s.finished < 0 ? "not finished" : s.finished ? "finished claiming success" : "gave up")
              << "\n";
}

int main(int argc, char** argv) {
    if (argc < 2 || argc > 4) {
        std::cerr << "usage: " << argv[0] << " POLICY.onnx [CHECKPOINT_FILE] [auto|tract|onnxruntime]\n";
        return 2;
    }
    const std::string policy_path = argv[1];
    const std::string checkpoint = argc > 2 ? argv[2] : "agent.ckpt";
    const std::string backend = argc > 3 ? argv[3] : "auto";
    try {
        std::cout << "evoharness " << eh::version() << "\n";
        eh::set_log_callback(
            [](evoharness_log_level, std::string_view, std::string_view message) {
                std::cerr << "[evoharness] " << message << "\n";
            },
            EVOHARNESS_LOG_LEVEL_WARN);

        eh::PolicyOptions options;
        if (backend == "tract") {
            options.backend = EVOHARNESS_BACKEND_TRACT;
        } else if (backend == "onnxruntime") {
            options.backend = EVOHARNESS_BACKEND_ONNXRUNTIME;
        } else if (backend != "auto") {
            std::cerr << "unknown backend " << backend << ": auto, tract or onnxruntime\n";
            return 2;
        }
        eh::Policy policy = eh::Policy::load(policy_path, options);
        evoharness_policy_abi abi = policy.abi();
        std::cout << "policy: " << abi.abi << ", " << abi.obs_len << " observation floats, "
                  << abi.actions << " action templates, " << abi.capacities.tools << " tools, on "
                  << (abi.backend == EVOHARNESS_BACKEND_TRACT ? "tract" : "onnxruntime") << "\n";

        // The same task, organisation and seed as the C example.
        evoharness_agent_config config = eh::suite_agent_config(EVOHARNESS_TASK_MIGRATION, 50);
        config.temperature = 1.0f;
        config.seed = 19;

        // The host's `verify`: every fifth call its audit service is down, and the tool fails.
        int calls = 0, outages = 0;
        eh::Tool verify = [&](const eh::ToolCall&, eh::ToolResult& result) {
            if (++calls % 5 == 0) {
                outages++;
                throw eh::ToolFailure{503};
            }
            result.add_int("audited", calls).add_text("by", "host");
        };

        evoharness_summary summary;
        {
            eh::Agent agent = eh::Agent::create(
                std::move(policy), eh::suite_world(EVOHARNESS_TASK_MIGRATION, 50, 1), config);
            agent.register_tool("verify", verify);
            summary = agent.run(30);
            print_summary("before the checkpoint", summary);
            print_workspace(agent.workspace());
            agent.checkpoint(checkpoint);
            std::cout << "checkpoint written to " << checkpoint << "\n";
        }  // the agent is gone

        // The same policy file and a world made the same way: the checkpoint holds its state.
        eh::Agent agent = eh::Agent::resume(eh::Policy::load(policy_path, options),
                                            eh::suite_world(EVOHARNESS_TASK_MIGRATION, 50, 1),
                                            config, checkpoint);
        agent.register_tool("verify", verify);
        print_summary("resumed from the checkpoint", agent.run(0));
        summary = agent.run(1000000);
        print_summary("at the end", summary);
        print_workspace(agent.workspace());
        evoharness_task_stats stats = eh::task_stats(agent).value();
        std::cout << "task: " << stats.landed << " of " << stats.items << " items landed, "
                  << stats.duplicates << " duplicates, " << stats.wrong_writes << " wrong writes: "
                  << (stats.success ? "succeeded" : "did not succeed") << "\n";
        std::cout << "host verify: " << calls << " calls, " << outages << " reported failures\n";
        eh::set_log_callback(nullptr);
    } catch (const eh::Error& e) {
        std::cerr << "error: " << evoharness_status_message(e.status()) << ": " << e.what() << "\n";
        return 1;
    }
    return 0;
}
