/*
 * An agent embedded in a C program: it runs a task of the suite (a data migration) in-process,
 * with one of the task's tools, `verify`, served by the host; the suite's simulated world
 * serves the other seven. Halfway the program checkpoints the agent to a file, frees it, and
 * resumes it from the file in a new agent, which runs the task to its end.
 *
 *   agent POLICY.onnx [CHECKPOINT_FILE] [BACKEND]
 *
 * POLICY.onnx is a structured-v1 policy for the suite's capacities (16 facts, 8 steps, 4
 * lessons, 8 tools): the shipped, trained examples/policies/generalist.onnx, or the test
 * fixture runtime/tests/fixtures/suite_mlp.onnx, whose random weights take legal, not sensible
 * actions. The checkpoint goes to CHECKPOINT_FILE (default: agent.ckpt); BACKEND is auto
 * (default), tract or onnxruntime. It links libevoharness_train (the embedding library and the
 * suite): see README.md beside this file for the build commands.
 */
#include <evoharness_train.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the host's `verify` tool keeps between calls. */
struct audit {
    int calls;
    int outages;
};

/* The host's `verify`: an audit service of the host. Every fifth call finds it down, and the
 * tool reports a failure (503): the agent then sees an error event and goes on. */
static int32_t verify(void *user_data, const evoharness_tool_call *call,
                      evoharness_tool_result *result) {
    struct audit *audit = user_data;
    (void)call;
    audit->calls++;
    if (audit->calls % 5 == 0) {
        audit->outages++;
        return 503;
    }
    if (evoharness_tool_result_add_int(result, "audited", audit->calls) != EVOHARNESS_STATUS_OK ||
        evoharness_tool_result_add_text(result, "by", "host") != EVOHARNESS_STATUS_OK)
        return 1;
    return 0;
}

static void on_log(void *user_data, uint32_t level, const char *target, const char *message) {
    (void)user_data;
    (void)target;
    fprintf(stderr, "[evoharness %s] %s\n", level <= EVOHARNESS_LOG_LEVEL_WARN ? "warn" : "info",
            message);
}

/* Prints what failed and why; returns the exit status. */
static int fail(const char *what, evoharness_status status) {
    fprintf(stderr, "%s: %s: %s\n", what, evoharness_status_message(status),
            evoharness_last_error_message());
    return 1;
}

/* evoharness_step_status, by value. */
static const char *const STEP_STATUS[] = {"pending", "active", "done", "failed", "blocked", "skipped"};

static void print_workspace(const evoharness_agent *agent) {
    const evoharness_workspace *ws = NULL;
    evoharness_workspace_info info;
    char text[256];
    size_t len;
    if (evoharness_agent_workspace(agent, &ws) != EVOHARNESS_STATUS_OK ||
        evoharness_workspace_get_info(ws, &info) != EVOHARNESS_STATUS_OK)
        return;
    printf("workspace: %zu facts, %zu plan steps, %zu lessons; budget %u of %u spent\n", info.facts,
           info.plan_steps, info.lessons, info.spent, info.budget);
    for (size_t i = 0; i < info.facts; i++) {
        evoharness_fact fact;
        if (evoharness_workspace_fact(ws, i, &fact) == EVOHARNESS_STATUS_OK &&
            evoharness_value_format(&fact.value, text, sizeof text, &len) == EVOHARNESS_STATUS_OK)
            printf("  fact %s = %s (confidence %.2f)\n", fact.key, text, fact.confidence);
    }
    for (size_t i = 0; i < info.plan_steps; i++) {
        evoharness_plan_step step;
        if (evoharness_workspace_plan_step(ws, i, &step) == EVOHARNESS_STATUS_OK &&
            evoharness_value_format(&step.label, text, sizeof text, &len) == EVOHARNESS_STATUS_OK)
            printf("  step %zu %s: %s, %u attempts\n", i, text, STEP_STATUS[step.status],
                   (unsigned)step.attempts);
    }
    for (size_t i = 0; i < info.lessons; i++) {
        evoharness_lesson lesson;
        char remedy[256];
        if (evoharness_workspace_lesson(ws, i, &lesson) == EVOHARNESS_STATUS_OK &&
            evoharness_value_format(&lesson.trigger, text, sizeof text, &len) == EVOHARNESS_STATUS_OK &&
            evoharness_value_format(&lesson.remedy, remedy, sizeof remedy, &len) == EVOHARNESS_STATUS_OK)
            printf("  lesson %s -> %s (%u uses)\n", text, remedy, (unsigned)lesson.uses);
    }
}

static void print_summary(const char *when, const evoharness_summary *s) {
    printf("%s: %llu steps (%llu world actions, %llu harness actions), budget spent %u, %s\n", when,
           (unsigned long long)s->steps, (unsigned long long)s->world_actions,
           (unsigned long long)s->harness_actions, s->spent,
           s->finished < 0 ? "not finished" : s->finished ? "finished claiming success" : "gave up");
}

int main(int argc, char **argv) {
    if (argc < 2 || argc > 4) {
        fprintf(stderr, "usage: %s POLICY.onnx [CHECKPOINT_FILE] [auto|tract|onnxruntime]\n", argv[0]);
        return 2;
    }
    const char *policy_path = argv[1];
    const char *checkpoint = argc > 2 ? argv[2] : "agent.ckpt";
    const char *backend = argc > 3 ? argv[3] : "auto";
    evoharness_status s;

    printf("evoharness %s\n", evoharness_version());
    s = evoharness_set_log_callback(on_log, NULL, EVOHARNESS_LOG_LEVEL_WARN);
    if (s != EVOHARNESS_STATUS_OK) return fail("log callback", s);

    /* Load the policy: its file says what it was made for, and the library checks it. */
    evoharness_policy_options options;
    evoharness_policy_options_default(&options);
    if (strcmp(backend, "tract") == 0)
        options.backend = EVOHARNESS_BACKEND_TRACT;
    else if (strcmp(backend, "onnxruntime") == 0)
        options.backend = EVOHARNESS_BACKEND_ONNXRUNTIME;
    else if (strcmp(backend, "auto") != 0) {
        fprintf(stderr, "unknown backend %s: auto, tract or onnxruntime\n", backend);
        return 2;
    }
    evoharness_policy *policy = NULL;
    s = evoharness_policy_load(policy_path, &options, &policy);
    if (s != EVOHARNESS_STATUS_OK) return fail("loading the policy", s);
    evoharness_policy_abi abi;
    evoharness_policy_get_abi(policy, &abi);
    printf("policy: %s, %zu observation floats, %zu action templates, %u tools, on %s\n", abi.abi,
           abi.obs_len, abi.actions, (unsigned)abi.capacities.tools,
           abi.backend == EVOHARNESS_BACKEND_TRACT ? "tract" : "onnxruntime");

    /* A migration task of the suite: horizon 50, organisation 1, its budget and costs;
     * sampling, seeded, so that a run is the same every time (with the random-weight fixture,
     * seed 19 happens to run long enough to show every part). */
    evoharness_agent_config config;
    s = evoharness_suite_agent_config(EVOHARNESS_TASK_MIGRATION, 50, &config);
    if (s != EVOHARNESS_STATUS_OK) return fail("config", s);
    config.temperature = 1.0f;
    config.seed = 19;
    evoharness_world *world = NULL;
    s = evoharness_suite_world_new(EVOHARNESS_TASK_MIGRATION, 50, 1, &world);
    if (s != EVOHARNESS_STATUS_OK) return fail("making the world", s);

    /* The agent takes the policy and the world over (both become NULL). */
    evoharness_agent *agent = NULL;
    s = evoharness_agent_new(&policy, &world, &config, &agent);
    if (s != EVOHARNESS_STATUS_OK) {
        evoharness_policy_free(policy);
        evoharness_world_free(world);
        return fail("creating the agent", s);
    }
    struct audit audit = {0, 0};
    s = evoharness_agent_register_tool(agent, "verify", verify, &audit);
    if (s != EVOHARNESS_STATUS_OK) return fail("registering verify", s);

    /* Thirty steps, then a checkpoint, and the agent is gone. */
    evoharness_summary summary;
    s = evoharness_agent_run(agent, 30, &summary);
    if (s != EVOHARNESS_STATUS_OK) return fail("running", s);
    print_summary("before the checkpoint", &summary);
    print_workspace(agent);
    s = evoharness_agent_checkpoint(agent, checkpoint);
    if (s != EVOHARNESS_STATUS_OK) return fail("checkpointing", s);
    printf("checkpoint written to %s\n", checkpoint);
    evoharness_agent_free(agent);

    /* A new agent from the checkpoint: the same policy file, a world made the same way (the
     * checkpoint holds its state), the same config; tools again. */
    s = evoharness_policy_load(policy_path, &options, &policy);
    if (s != EVOHARNESS_STATUS_OK) return fail("reloading the policy", s);
    s = evoharness_suite_world_new(EVOHARNESS_TASK_MIGRATION, 50, 1, &world);
    if (s != EVOHARNESS_STATUS_OK) return fail("making the world", s);
    s = evoharness_agent_resume(&policy, &world, &config, checkpoint, &agent);
    if (s != EVOHARNESS_STATUS_OK) {
        evoharness_policy_free(policy);
        evoharness_world_free(world);
        return fail("resuming", s);
    }
    s = evoharness_agent_register_tool(agent, "verify", verify, &audit);
    if (s != EVOHARNESS_STATUS_OK) return fail("registering verify", s);
    s = evoharness_agent_run(agent, 0, &summary);
    if (s != EVOHARNESS_STATUS_OK) return fail("reading the summary", s);
    print_summary("resumed from the checkpoint", &summary);

    /* To the end of the task: finished, or out of budget. */
    s = evoharness_agent_run(agent, 1000000, &summary);
    if (s != EVOHARNESS_STATUS_OK) return fail("running", s);
    print_summary("at the end", &summary);
    print_workspace(agent);
    evoharness_task_stats stats;
    s = evoharness_suite_task_stats(agent, &stats);
    if (s != EVOHARNESS_STATUS_OK) return fail("task stats", s);
    printf("task: %u of %u items landed, %u duplicates, %u wrong writes: %s\n", stats.landed,
           stats.items, stats.duplicates, stats.wrong_writes,
           stats.success ? "succeeded" : "did not succeed");
    printf("host verify: %d calls, %d reported failures\n", audit.calls, audit.outages);
    evoharness_agent_free(agent);
    return 0;
}
