/*
 * The bad-input corpus's C class: misuse of the embedding API (libevoharness), one call per
 * line. Each call must return its typed status with the exact message listed for it in
 * ../expected.tsv (as `c/misuse.c#LABEL`), and must change nothing: a refused workspace call
 * leaves the workspace as it was, a refused resume hands the policy back.
 *
 *   misuse CORPUS_DIR FIXTURES_DIR
 *
 * Works inside CORPUS_DIR (tests/bad_inputs), so the messages name relative paths, and reads
 * the corpus's own files (frame/, snapshot/, checkpoint/, policy/). Prints
 * `c/misuse.c#LABEL<TAB>STATUS: last error` per call; exits 1 if a "nothing changed" check
 * failed. tests/c_abi.rs compares the lines with expected.tsv.
 */
#include "evoharness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const NAMES[] = {
    "OK",        "NULL_ARGUMENT", "INVALID_ARGUMENT", "BUFFER_TOO_SMALL", "NOT_FOUND",
    "DECODE",    "SNAPSHOT",      "BACKEND",          "DEVICE",           "POLICY",
    "INFERENCE", "WORKSPACE",     "IO",               "CHECKPOINT",       "CONFIG",
    "PANIC",     "OTHER",         "WORLD",
};

static int broken = 0;

static void report(const char *label, evoharness_status s) {
    const char *name = s < sizeof NAMES / sizeof NAMES[0] ? NAMES[s] : "UNKNOWN";
    printf("c/misuse.c#%s\t%s: %s\n", label, name,
           s == EVOHARNESS_STATUS_OK ? "" : evoharness_last_error_message());
}

static void require(int cond, const char *what) {
    if (!cond) {
        fprintf(stderr, "misuse: %s\n", what);
        broken = 1;
    }
}

/* The bytes of a corpus file; exits if it cannot be read. */
static uint8_t *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "misuse: cannot open %s\n", path);
        exit(2);
    }
    static uint8_t buf[1 << 16];
    *len = fread(buf, 1, sizeof buf, f);
    fclose(f);
    uint8_t *copy = malloc(*len ? *len : 1);
    memcpy(copy, buf, *len);
    return copy;
}

static struct evoharness_workspace_info info(const struct evoharness_workspace *ws) {
    struct evoharness_workspace_info i;
    memset(&i, 0, sizeof i);
    evoharness_workspace_get_info(ws, &i);
    return i;
}

/* Whether the workspace reports the same numbers as `before`, field by field. */
static void unchanged(const struct evoharness_workspace *ws,
                      const struct evoharness_workspace_info *before, const char *label) {
    struct evoharness_workspace_info now = info(ws);
    int same = now.budget == before->budget && now.spent == before->spent &&
               now.remaining == before->remaining && now.clock == before->clock &&
               now.finished == before->finished && now.facts == before->facts &&
               now.plan_steps == before->plan_steps && now.lessons == before->lessons &&
               now.has_event == before->has_event && now.last_act == before->last_act;
    if (!same) {
        fprintf(stderr, "misuse: %s changed the workspace\n", label);
        broken = 1;
    }
}

int main(int argc, char **argv) {
    if (argc != 3 || chdir(argv[1]) != 0) {
        fprintf(stderr, "usage: misuse CORPUS_DIR FIXTURES_DIR\n");
        return 2;
    }
    const char *fixtures = argv[2];

    /* Workspaces. */
    report("workspace-null-config", evoharness_workspace_new(NULL, NULL));
    struct evoharness_workspace_config config;
    evoharness_workspace_config_default(&config);
    struct evoharness_workspace *ws = NULL;
    config.capacities.facts = 0;
    report("workspace-zero-facts", evoharness_workspace_new(&config, &ws));
    require(ws == NULL, "a refused workspace_new wrote *out");
    evoharness_workspace_config_default(&config);
    config.capacities.tools = 65;
    report("workspace-65-tools", evoharness_workspace_new(&config, &ws));
    evoharness_workspace_config_default(&config);
    if (evoharness_workspace_new(&config, &ws) != EVOHARNESS_STATUS_OK) return 2;
    struct evoharness_workspace_info before = info(ws);

    uint8_t outcome[EVOHARNESS_FRAME_MAX];
    size_t outcome_len = 0;
    bool applied = false;
    size_t len = 0;
    uint8_t *bytes = slurp("frame/version-2.bin", &len);
    report("apply-foreign-version",
           evoharness_workspace_apply(ws, bytes, len, outcome, sizeof outcome, &outcome_len,
                                      &applied));
    unchanged(ws, &before, "apply-foreign-version");
    free(bytes);
    bytes = slurp("frame/text-not-utf8.bin", &len);
    report("apply-malformed", evoharness_workspace_apply(ws, bytes, len, outcome, sizeof outcome,
                                                         &outcome_len, &applied));
    unchanged(ws, &before, "apply-malformed");
    report("apply-small-outcome-buffer",
           evoharness_workspace_apply(ws, bytes, len, outcome, 4, &outcome_len, &applied));
    unchanged(ws, &before, "apply-small-outcome-buffer");
    free(bytes);
    report("apply-null-frame-with-a-length",
           evoharness_workspace_apply(ws, NULL, 8, outcome, sizeof outcome, &outcome_len,
                                      &applied));
    unchanged(ws, &before, "apply-null-frame-with-a-length");
    bytes = slurp("frame/truncated.bin", &len);
    report("observe-truncated", evoharness_workspace_observe(ws, bytes, len));
    unchanged(ws, &before, "observe-truncated");
    free(bytes);

    bytes = slurp("snapshot/checksum.bin", &len);
    report("restore-corrupted", evoharness_workspace_restore(ws, bytes, len));
    unchanged(ws, &before, "restore-corrupted");
    free(bytes);
    bytes = slurp("snapshot/version-99.bin", &len);
    report("restore-foreign-version", evoharness_workspace_restore(ws, bytes, len));
    unchanged(ws, &before, "restore-foreign-version");
    free(bytes);
    uint8_t snap[8];
    report("snapshot-small-buffer", evoharness_workspace_snapshot(ws, snap, sizeof snap, &len));
    unchanged(ws, &before, "snapshot-small-buffer");
    struct evoharness_fact fact;
    report("fact-past-the-last", evoharness_workspace_fact(ws, 99, &fact));
    unchanged(ws, &before, "fact-past-the-last");
    evoharness_workspace_free(ws);

    /* Policies. */
    struct evoharness_policy_options options;
    evoharness_policy_options_default(&options);
    options.backend = EVOHARNESS_BACKEND_TRACT;
    struct evoharness_policy *policy = NULL;
    report("policy-missing-file", evoharness_policy_load("policy/no-such-file.onnx", &options,
                                                         &policy));
    bytes = slurp("policy/dangling-output.onnx", &len);
    report("policy-dangling-output",
           evoharness_policy_load_from_memory(bytes, len, &options, &policy));
    free(bytes);
    bytes = slurp("policy/huge-constant.onnx", &len);
    report("policy-huge-constant",
           evoharness_policy_load_from_memory(bytes, len, &options, &policy));
    free(bytes);
    require(policy == NULL, "a refused policy load wrote *out");
    struct evoharness_policy_options bad = options;
    bad.backend = 99;
    report("policy-unknown-backend", evoharness_policy_load("policy/not-onnx.onnx", &bad,
                                                            &policy));
    bad = options;
    bad.limits.max_file_bytes = 8;
    char path[2048];
    snprintf(path, sizeof path, "%s/mlp.onnx", fixtures);
    report("policy-over-the-size-limit",
           evoharness_policy_load_from_memory((const uint8_t *)"0123456789", 10, &bad, &policy));
    if (evoharness_policy_load(path, &options, &policy) != EVOHARNESS_STATUS_OK) return 2;

    /* Agents. */
    struct evoharness_agent_config agent_config;
    evoharness_agent_config_default(&agent_config);
    struct evoharness_agent *agent = NULL;
    struct evoharness_policy *given = policy;
    report("resume-bad-magic", evoharness_agent_resume(&policy, NULL, &agent_config,
                                                       "checkpoint/bad-magic.bin", &agent));
    require(policy == given && agent == NULL, "a refused resume kept the policy");
    report("resume-another-policy", evoharness_agent_resume(&policy, NULL, &agent_config,
                                                            "checkpoint/another-policy.bin",
                                                            &agent));
    require(policy == given && agent == NULL, "a refused resume kept the policy");
    struct evoharness_agent_config hot = agent_config;
    hot.temperature = -1.0f;
    report("agent-negative-temperature", evoharness_agent_new(&policy, NULL, &hot, &agent));
    require(policy == given && agent == NULL, "a refused agent_new kept the policy");
    if (evoharness_agent_new(&policy, NULL, &agent_config, &agent) != EVOHARNESS_STATUS_OK)
        return 2;
    char name[8];
    report("tool-name-past-the-last", evoharness_agent_tool_name(agent, 99, name, sizeof name,
                                                                 &len));
    report("tool-name-small-buffer", evoharness_agent_tool_name(agent, 0, name, 1, &len));
    report("register-unknown-tool", evoharness_agent_register_tool(agent, "no_such_tool", NULL,
                                                                   NULL));
    evoharness_agent_free(agent);
    return broken;
}
