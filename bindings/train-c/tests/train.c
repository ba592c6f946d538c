/*
 * Drives every function of evoharness_train.h (libevoharness_train: the task suite), with its
 * error paths: the suite's worlds given to agents (with a host tool on top, checkpointed and
 * resumed, refused and handed back), their stats and verdicts, the vectorised environment,
 * groups and teachers. The embedding functions are bindings/c/tests/api.c's; this program
 * links libevoharness_train, which exports them too. Built with -Wall -Wextra -Wpedantic
 * -Werror and run plain, under AddressSanitizer/UBSan and under valgrind by tests/c_abi.rs.
 *
 *   suite FIXTURES_DIR WORK_DIR VERSION
 *
 * FIXTURES_DIR holds the runtime's test policies, WORK_DIR is an empty writable directory for
 * checkpoint files, VERSION the version the library must report. Exits 0 when every check
 * passed; otherwise prints each failed check and exits 1.
 */
#include "evoharness_train.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../c/tests/check.h"
#include "../../c/tests/ledger.h"

static struct evoharness_policy *load(const char *name) {
    struct evoharness_policy_options o;
    OK(evoharness_policy_options_default(&o));
    o.backend = EVOHARNESS_BACKEND_TRACT;
    struct evoharness_policy *p = NULL;
    OK(evoharness_policy_load(fixture(name), &o, &p));
    CHECK(p != NULL);
    return p;
}

static struct evoharness_world *world(uint32_t task, uint32_t horizon, uint64_t organisation) {
    struct evoharness_world *w = NULL;
    OK(evoharness_suite_world_new(task, horizon, organisation, &w));
    CHECK(w != NULL);
    return w;
}

/* Steps `n` times; writes the chosen templates to `out`. */
static int steps(struct evoharness_agent *a, int n, uint32_t *out) {
    int taken = 0;
    for (int i = 0; i < n; i++) {
        struct evoharness_step_report r;
        OK(evoharness_agent_step(a, &r));
        if (!r.taken) break;
        out[taken++] = r.template_index;
    }
    return taken;
}

/* ---------------------------------------------------------------------------------------- */

static void test_tasks(const char *version) {
    /* The embedding library's functions are this one's too, with its version. */
    CHECK(strcmp(evoharness_version(), version) == 0);

    struct evoharness_capacities caps = {0, 0, 0, 0};
    OK(evoharness_suite_capacities(&caps));
    CHECK(caps.facts == 16 && caps.steps == 8 && caps.lessons == 4 && caps.tools == 8);
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_suite_capacities(NULL));
    /* The workspace defaults are the suite's capacities. */
    struct evoharness_workspace_config wc;
    OK(evoharness_workspace_config_default(&wc));
    CHECK(memcmp(&wc.capacities, &caps, sizeof caps) == 0);

    struct evoharness_agent_config config;
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT,
           evoharness_suite_agent_config(EVOHARNESS_TASK_MIGRATION, 50, NULL));
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT, evoharness_suite_agent_config(3, 50, &config));
    CHECK(error_mentions("0 migration"));
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT, evoharness_suite_agent_config(0, 0, &config));
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT, evoharness_suite_agent_config(0, 10000001, &config));
    OK(evoharness_suite_agent_config(EVOHARNESS_TASK_RECORDS, 50, &config));
    CHECK(config.budget == 4 * 50 + 256 && config.temperature == 0.0f && config.seed == 0);
    CHECK(config.costs.act == 1 && config.costs.track == 1 && config.costs.finish == 0);
    /* v2: twice the budget, world calls and commits at two units. */
    OK(evoharness_suite_agent_config(EVOHARNESS_TASK_V2 | EVOHARNESS_TASK_RECORDS, 50, &config));
    CHECK(config.budget == 2 * (4 * 50 + 256));
    CHECK(config.costs.act == 2 && config.costs.commit == 2 && config.costs.track == 1);
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT,
           evoharness_suite_agent_config(EVOHARNESS_TASK_V2 | 3, 50, &config));
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT, evoharness_suite_agent_config(0x400, 50, &config));
    /* v3: v2's budget; v2 and v3 together are refused. */
    OK(evoharness_suite_agent_config(EVOHARNESS_TASK_V3 | EVOHARNESS_TASK_RECORDS, 50, &config));
    CHECK(config.budget == 2 * (4 * 50 + 256) && config.costs.act == 2);
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT,
           evoharness_suite_agent_config(EVOHARNESS_TASK_V2 | EVOHARNESS_TASK_V3, 50, &config));
    CHECK(error_mentions("not both"));

    struct evoharness_world *w = NULL;
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_suite_world_new(0, 50, 1, NULL));
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT, evoharness_suite_world_new(3, 50, 1, &w));
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT, evoharness_suite_world_new(0, 0, 1, &w));
    CHECK(w == NULL);
    w = world(EVOHARNESS_TASK_ORCHESTRATION, 10000000, UINT64_MAX);
    evoharness_world_free(w); /* never given to an agent */
}

/* ---------------------------------------------------------------------------------------- */

/* The migration task's `verify`, served by the host. */
static int32_t verify(void *user_data, const struct evoharness_tool_call *call,
                      struct evoharness_tool_result *result) {
    int *calls = user_data;
    (*calls)++;
    if (call->tool != 7 || strcmp(call->name, "verify") != 0) return 1;
    return evoharness_tool_result_add_bool(result, "checked", true) == EVOHARNESS_STATUS_OK ? 0 : 1;
}

static void test_suite_agent(void) {
    struct evoharness_agent_config config;
    OK(evoharness_suite_agent_config(EVOHARNESS_TASK_MIGRATION, 50, &config));
    config.temperature = 1.0f;
    config.seed = 5;

    /* A policy made for 3 tools cannot drive the suite's 8: both stay ours, unchanged. */
    struct evoharness_policy *p = load("mlp.onnx");
    struct evoharness_world *w = world(EVOHARNESS_TASK_MIGRATION, 50, 3);
    struct evoharness_policy *p0 = p;
    struct evoharness_world *w0 = w;
    struct evoharness_agent *a = NULL;
    EXPECT(EVOHARNESS_STATUS_CONFIG, evoharness_agent_new(&p, &w, &config, &a));
    CHECK(error_mentions("8") && p == p0 && w == w0 && a == NULL);
    /* The same 3-tool policy without a world: the host's tools only, and no suite stats. */
    OK(evoharness_agent_new(&p, NULL, &config, &a));
    struct evoharness_task_stats ts;
    EXPECT(EVOHARNESS_STATUS_NOT_FOUND, evoharness_suite_task_stats(a, &ts));
    CHECK(error_mentions("not a suite task"));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_suite_task_stats(NULL, &ts));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_suite_task_stats(a, NULL));
    evoharness_agent_free(a);

    /* The suite's policy over the world; the host serves `verify`. */
    p = load("suite_mlp.onnx");
    OK(evoharness_agent_new(&p, &w, &config, &a));
    CHECK(p == NULL && w == NULL && a != NULL); /* the agent took both */
    char name[16];
    size_t len;
    OK(evoharness_agent_tool_name(a, 7, name, sizeof name, &len)); /* named by the world */
    CHECK(strcmp(name, "verify") == 0);
    OK(evoharness_agent_tool_name(a, 0, name, sizeof name, &len));
    CHECK(strcmp(name, "read") == 0);
    int verifies = 0;
    OK(evoharness_agent_register_tool(a, "verify", verify, &verifies));

    struct evoharness_summary s;
    OK(evoharness_agent_run(a, 60, &s));
    OK(evoharness_suite_task_stats(a, &ts));
    CHECK(ts.items == 20 && ts.gaps == ts.items - ts.landed && ts.landed <= ts.delivered);
    struct evoharness_verdict v;
    OK(evoharness_agent_verdict(a, &v)); /* the world judges */
    CHECK(v.success == ts.success && v.violations == ts.duplicates + ts.gaps + ts.wrong_writes);
    OK(evoharness_agent_checkpoint(a, work_file("suite.ckpt")));
    uint32_t after[64];
    int n = steps(a, 40, after);
    struct evoharness_task_stats ts_a;
    OK(evoharness_suite_task_stats(a, &ts_a));

    /* A world of another task kind or horizon does not take the checkpoint's resume point; the
     * policy and the world come back as they were. */
    p = load("suite_mlp.onnx");
    struct evoharness_agent *b = NULL;
    struct evoharness_world *records = world(EVOHARNESS_TASK_RECORDS, 50, 3);
    p0 = p;
    w0 = records;
    EXPECT(EVOHARNESS_STATUS_CHECKPOINT,
           evoharness_agent_resume(&p, &records, &config, work_file("suite.ckpt"), &b));
    CHECK(error_mentions("suite.ckpt") && p == p0 && records == w0 && b == NULL);
    evoharness_world_free(records);
    struct evoharness_world *longer = world(EVOHARNESS_TASK_MIGRATION, 60, 3);
    EXPECT(EVOHARNESS_STATUS_CHECKPOINT,
           evoharness_agent_resume(&p, &longer, &config, work_file("suite.ckpt"), &b));
    CHECK(p == p0 && longer != NULL);
    evoharness_world_free(longer);
    /* No world: the checkpoint holds a world's resume point. */
    EXPECT(EVOHARNESS_STATUS_CHECKPOINT,
           evoharness_agent_resume(&p, NULL, &config, work_file("suite.ckpt"), &b));
    CHECK(error_mentions("no world") && p == p0);

    /* Resume: the world is where it was, and the run goes on identically. */
    w = world(EVOHARNESS_TASK_MIGRATION, 50, 3);
    OK(evoharness_agent_resume(&p, &w, &config, work_file("suite.ckpt"), &b));
    CHECK(p == NULL && w == NULL);
    int verifies_b = 0;
    OK(evoharness_agent_register_tool(b, "verify", verify, &verifies_b));
    struct evoharness_task_stats ts_b;
    OK(evoharness_suite_task_stats(b, &ts_b));
    CHECK(ts_b.landed == ts.landed && ts_b.delivered == ts.delivered);
    uint32_t resumed[64];
    int m = steps(b, 40, resumed);
    CHECK(m == n && memcmp(after, resumed, sizeof(uint32_t) * (size_t)n) == 0);
    OK(evoharness_suite_task_stats(b, &ts_b));
    CHECK(ts_b.landed == ts_a.landed && ts_b.delivered == ts_a.delivered);
    CHECK(ts_b.duplicates == ts_a.duplicates && ts_b.wrong_writes == ts_a.wrong_writes);

    /* To the end: the stats are the world's judgement (a random policy does not succeed, and
     * nothing here claims it does; success must agree with the rules). */
    OK(evoharness_agent_run(b, 1000000, &s));
    OK(evoharness_suite_task_stats(b, &ts_b));
    CHECK(ts_b.finished == s.finished);
    CHECK(ts_b.success == (s.finished == 1 && ts_b.duplicates == 0 && ts_b.gaps == 0 &&
                           ts_b.wrong_writes == 0));
    OK(evoharness_agent_verdict(b, &v));
    CHECK(v.success == ts_b.success);
    evoharness_agent_free(a);
    evoharness_agent_free(b);
}

/* ---------------------------------------------------------------------------------------- */

static void test_vec_env(void) {
    struct evoharness_vec_env *v = NULL;
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_vec_env_new(0, 50, 3, 0, 2, 1, NULL));
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT, evoharness_vec_env_new(3, 50, 3, 0, 2, 1, &v));
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT, evoharness_vec_env_new(0, 0, 3, 0, 2, 1, &v));
    EXPECT(EVOHARNESS_STATUS_CONFIG, evoharness_vec_env_new(0, 50, 0, 0, 2, 1, &v));
    EXPECT(EVOHARNESS_STATUS_CONFIG, evoharness_vec_env_new(0, 50, 3, 0, 0, 1, &v));
    EXPECT(EVOHARNESS_STATUS_CONFIG, evoharness_vec_env_new(0, 50, 3, UINT64_MAX, 2, 1, &v));
    CHECK(error_mentions("organisation"));
    CHECK(v == NULL);
    OK(evoharness_vec_env_new(EVOHARNESS_TASK_ORCHESTRATION, 50, 3, 0, 2, 7, &v));
    struct evoharness_vec_env_info info;
    OK(evoharness_vec_env_get_info(v, &info));
    size_t n = info.n, ol = info.obs_len, al = info.actions;
    CHECK(n == 3 && info.group == 1 && ol == 564 && al == 348);
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_vec_env_get_info(NULL, &info));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_vec_env_get_info(v, NULL));
    uint64_t episodes = 99;
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_vec_env_episodes(NULL, 0, &episodes));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_vec_env_episodes(v, 0, NULL));
    EXPECT(EVOHARNESS_STATUS_NOT_FOUND, evoharness_vec_env_episodes(v, 3, &episodes));
    CHECK(error_mentions("no environment 3") && episodes == 99);
    OK(evoharness_vec_env_episodes(v, 2, &episodes));
    CHECK(episodes == 0);
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_vec_env_set_lifetime(NULL, 12));
    OK(evoharness_vec_env_set_lifetime(v, 0));
    /* structured-v2 observations: 15 floats more, the same templates; back to v1. */
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_vec_env_set_layout_version(NULL, 2));
    EXPECT(EVOHARNESS_STATUS_CONFIG, evoharness_vec_env_set_layout_version(v, 3));
    CHECK(error_mentions("layout version 3"));
    OK(evoharness_vec_env_set_layout_version(v, 2));
    OK(evoharness_vec_env_get_info(v, &info));
    CHECK(info.obs_len == 579 && info.actions == 348);
    OK(evoharness_vec_env_set_layout_version(v, 1));
    OK(evoharness_vec_env_get_info(v, &info));
    CHECK(info.obs_len == 564);

    float *obs = calloc(n * ol, sizeof(float));
    uint8_t *mask = calloc(n * al, 1);
    float reward[3];
    uint8_t done[3];
    uint32_t actions[3];
    OK(evoharness_vec_env_observe(v, obs, n * ol, mask, n * al));
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT, evoharness_vec_env_observe(v, obs, n * ol - 1, mask, n * al));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_vec_env_observe(NULL, obs, n * ol, mask, n * al));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_vec_env_observe(v, NULL, n * ol, mask, n * al));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_vec_env_observe(v, obs, n * ol, NULL, n * al));

    /* The workspace as a language model's prompt: text ending in "> ", bounded. */
    char text[8192];
    size_t text_len = 0;
    OK(evoharness_vec_env_text(v, 0, text, sizeof text, &text_len));
    CHECK(text_len > 20 && text_len < 5882 && strlen(text) == text_len);
    CHECK(strncmp(text, "tools 8 budget ", 15) == 0 && strcmp(text + text_len - 2, "> ") == 0);
    EXPECT(EVOHARNESS_STATUS_BUFFER_TOO_SMALL, evoharness_vec_env_text(v, 0, text, 10, &text_len));
    EXPECT(EVOHARNESS_STATUS_NOT_FOUND, evoharness_vec_env_text(v, n, text, sizeof text, &text_len));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_vec_env_text(NULL, 0, text, sizeof text, &text_len));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_vec_env_text(v, 0, NULL, sizeof text, &text_len));

    struct evoharness_episode_stats st;
    EXPECT(EVOHARNESS_STATUS_NOT_FOUND, evoharness_vec_env_last_episode(v, 0, &st));
    EXPECT(EVOHARNESS_STATUS_NOT_FOUND, evoharness_vec_env_last_episode(v, 3, &st));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_vec_env_last_episode(NULL, 0, &st));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_vec_env_last_episode(v, 0, NULL));

    /* An illegal template (mask 0) changes nothing. */
    for (size_t i = 0; i < n; i++) {
        actions[i] = 0;
        for (size_t t = 0; t < al; t++)
            if (mask[i * al + t]) { actions[i] = (uint32_t)t; break; }
    }
    uint32_t illegal = 0;
    while (illegal < al && mask[al + illegal]) illegal++;
    CHECK(illegal < al);
    uint32_t bad_actions[3] = {actions[0], illegal, actions[2]};
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT,
           evoharness_vec_env_step(v, bad_actions, 3, obs, n * ol, mask, n * al, reward, 3, done, 3));
    CHECK(error_mentions("environment 1"));
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT,
           evoharness_vec_env_step(v, actions, 2, obs, n * ol, mask, n * al, reward, 3, done, 3));
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT,
           evoharness_vec_env_step(v, actions, 3, obs, n * ol, mask, n * al, reward, 3, done, 2));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT,
           evoharness_vec_env_step(NULL, actions, 3, obs, n * ol, mask, n * al, reward, 3, done, 3));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT,
           evoharness_vec_env_step(v, NULL, 3, obs, n * ol, mask, n * al, reward, 3, done, 3));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT,
           evoharness_vec_env_step(v, actions, 3, obs, n * ol, mask, n * al, NULL, 3, done, 3));

    /* Step with a rotating legal choice until every environment finished an episode. */
    int ends = 0;
    uint64_t e[3] = {0, 0, 0};
    for (int s = 0; s < 20000 && (e[0] == 0 || e[1] == 0 || e[2] == 0); s++) {
        for (size_t i = 0; i < n; i++) {
            for (size_t k = 0; k < al; k++) {
                size_t t = (k + (size_t)s * 7 + i) % al;
                if (mask[i * al + t]) { actions[i] = (uint32_t)t; break; }
            }
        }
        OK(evoharness_vec_env_step(v, actions, 3, obs, n * ol, mask, n * al, reward, 3, done, 3));
        for (size_t i = 0; i < n; i++) {
            ends += done[i];
            OK(evoharness_vec_env_episodes(v, i, &e[i]));
        }
    }
    CHECK(ends >= 3);
    CHECK((uint64_t)ends == e[0] + e[1] + e[2]);
    OK(evoharness_vec_env_last_episode(v, 0, &st));
    CHECK(st.steps > 0 && st.items == 20 && st.landed <= st.items);
    CHECK(st.success == (st.finished == 1 && st.duplicates == 0 && st.gaps == 0 && st.wrong_writes == 0));

    /* A copy plays on like its source: the same actions, the same steps to the episode's end. */
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_vec_env_copy(NULL, 0, 1));
    EXPECT(EVOHARNESS_STATUS_NOT_FOUND, evoharness_vec_env_copy(v, 3, 0));
    CHECK(error_mentions("no environment 3"));
    EXPECT(EVOHARNESS_STATUS_NOT_FOUND, evoharness_vec_env_copy(v, 0, 3));
    OK(evoharness_vec_env_copy(v, 1, 1));
    OK(evoharness_vec_env_copy(v, 0, 2));
    OK(evoharness_vec_env_episodes(v, 2, &e[2]));
    CHECK(e[2] == e[0]);
    OK(evoharness_vec_env_observe(v, obs, n * ol, mask, n * al));
    int copied_steps = 0;
    for (;;) {
        CHECK(memcmp(obs, obs + 2 * ol, ol * sizeof(float)) == 0);
        CHECK(memcmp(mask, mask + 2 * al, al) == 0);
        OK(evoharness_vec_env_teacher_actions(v, EVOHARNESS_TEACHER_LEAN, actions, 3));
        actions[2] = actions[0];
        OK(evoharness_vec_env_step(v, actions, 3, obs, n * ol, mask, n * al, reward, 3, done, 3));
        copied_steps++;
        CHECK(reward[0] == reward[2] && done[0] == done[2]);
        if (done[0] || copied_steps > 20000) break;
    }
    CHECK(copied_steps > 5 && done[0]);

    free(obs);
    free(mask);
    evoharness_vec_env_free(v);
    evoharness_vec_env_free(NULL);
}

/* Groups and a teacher's labels: what a training loop in another language needs. */
static void test_training(void) {
    struct evoharness_vec_env *v = NULL;
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_vec_env_new_grouped(0, 50, 4, 2, 0, 2, 1, NULL));
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT, evoharness_vec_env_new_grouped(9, 50, 4, 2, 0, 2, 1, &v));
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT, evoharness_vec_env_new_grouped(0, 0, 4, 2, 0, 2, 1, &v));
    EXPECT(EVOHARNESS_STATUS_CONFIG, evoharness_vec_env_new_grouped(0, 50, 4, 3, 0, 2, 1, &v));
    EXPECT(EVOHARNESS_STATUS_CONFIG, evoharness_vec_env_new_grouped(0, 50, 4, 0, 0, 2, 1, &v));
    EXPECT(EVOHARNESS_STATUS_CONFIG, evoharness_vec_env_new_grouped(0, 50, 4, 2, UINT64_MAX, 2, 1, &v));
    CHECK(v == NULL);
    OK(evoharness_vec_env_new_grouped(EVOHARNESS_TASK_RECORDS, 60, 4, 2, 0, 2, 3, &v));
    struct evoharness_vec_env_info info;
    OK(evoharness_vec_env_get_info(v, &info));
    CHECK(info.n == 4 && info.group == 2);
    size_t n = info.n, ol = info.obs_len, al = info.actions;
    float *obs = malloc(n * ol * sizeof *obs);
    uint8_t *mask = malloc(n * al);
    float reward[4];
    uint8_t done[4];
    uint32_t actions[4] = {7, 7, 7, 7};
    OK(evoharness_vec_env_observe(v, obs, n * ol, mask, n * al));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT,
           evoharness_vec_env_teacher_actions(NULL, EVOHARNESS_TEACHER_LEAN, actions, 4));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT,
           evoharness_vec_env_teacher_actions(v, EVOHARNESS_TEACHER_LEAN, NULL, 4));
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT, evoharness_vec_env_teacher_actions(v, 8, actions, 4));
    CHECK(error_mentions("0 lean, 1 oracle, 2 static, 3 tuned, 4 static-lean,"));
    CHECK(error_mentions("5 fixed-best, 6 retuned or 7 regional"));
    CHECK(actions[0] == 7 && actions[3] == 7); /* nothing written on failure */
    /* The retuned teacher tunes each organisation on first request: a legal label each. */
    OK(evoharness_vec_env_teacher_actions(v, EVOHARNESS_TEACHER_RETUNED, actions, 4));
    for (size_t i = 0; i < n; i++) CHECK(mask[i * al + actions[i]] == 1);
    /* The regional one reads its organisation's card tiers: a legal label each too. */
    OK(evoharness_vec_env_teacher_actions(v, EVOHARNESS_TEACHER_REGIONAL, actions, 4));
    for (size_t i = 0; i < n; i++) CHECK(mask[i * al + actions[i]] == 1);
    for (size_t i = 0; i < n; i++) actions[i] = 7;
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT,
           evoharness_vec_env_teacher_actions(v, EVOHARNESS_TEACHER_LEAN, actions, 3));
    CHECK(actions[0] == 7 && actions[3] == 7); /* nothing written on failure */
    /* Following the lean teacher, both members of a group run the same episode, successfully. */
    uint64_t episodes = 0;
    for (int s = 0; s < 20000 && episodes == 0; s++) {
        OK(evoharness_vec_env_teacher_actions(v, EVOHARNESS_TEACHER_LEAN, actions, 4));
        for (size_t i = 0; i < n; i++) CHECK(mask[i * al + actions[i]] == 1);
        OK(evoharness_vec_env_step(v, actions, 4, obs, n * ol, mask, n * al, reward, 4, done, 4));
        OK(evoharness_vec_env_episodes(v, 3, &episodes));
    }
    struct evoharness_episode_stats a, b;
    OK(evoharness_vec_env_last_episode(v, 2, &a));
    OK(evoharness_vec_env_last_episode(v, 3, &b));
    CHECK(a.success && b.success && a.steps == b.steps && a.reward == b.reward);
    OK(evoharness_vec_env_teacher_actions(v, EVOHARNESS_TEACHER_ORACLE, actions, 4));
    for (size_t i = 0; i < n; i++) CHECK(mask[i * al + actions[i]] == 1);
    /* The static teacher keeps an agenda: followed, it lands every record too, with more
     * harness actions than world actions. Where the lean teacher led, the static one may have
     * no legal action (it records a cursor in a plan step the lean one never made): no label,
     * and the first legal template stands in, as a learner's own choice would. */
    uint64_t before = 0;
    OK(evoharness_vec_env_episodes(v, 0, &before));
    episodes = before;
    int unlabelled = 0;
    for (int s = 0; s < 40000 && episodes <= before + 1; s++) {
        OK(evoharness_vec_env_teacher_actions(v, EVOHARNESS_TEACHER_STATIC, actions, 4));
        for (size_t i = 0; i < n; i++) {
            if (actions[i] == EVOHARNESS_VEC_ENV_NO_LABEL) {
                /* Only in the episode the static teacher took over. */
                CHECK(i != 0 || episodes == before);
                unlabelled++;
                actions[i] = 0;
                while (mask[i * al + actions[i]] == 0) actions[i]++;
            }
            CHECK(mask[i * al + actions[i]] == 1);
        }
        OK(evoharness_vec_env_step(v, actions, 4, obs, n * ol, mask, n * al, reward, 4, done, 4));
        OK(evoharness_vec_env_episodes(v, 0, &episodes));
    }
    CHECK(episodes == before + 2);
    CHECK(unlabelled > 0); /* the take-over reached such states: NO_LABEL is written */
    /* The episode after the take-over is the static teacher's alone. */
    OK(evoharness_vec_env_last_episode(v, 0, &a));
    CHECK(a.success && a.harness[0] + a.harness[1] + a.harness[2] + a.harness[3] > a.world_actions);
    evoharness_vec_env_free(v);

    /* v2 and the tuned teacher: every episode succeeds, and it recalls from the store. */
    OK(evoharness_vec_env_new_grouped(EVOHARNESS_TASK_V2 | EVOHARNESS_TASK_RECORDS, 150, 4, 1, 0, 2,
                                      5, &v));
    OK(evoharness_vec_env_observe(v, obs, n * ol, mask, n * al));
    uint64_t recalls = 0, done_v2 = 0;
    for (int s = 0; s < 40000 && done_v2 < 8; s++) {
        OK(evoharness_vec_env_teacher_actions(v, EVOHARNESS_TEACHER_TUNED, actions, 4));
        for (size_t i = 0; i < n; i++) CHECK(mask[i * al + actions[i]] == 1);
        OK(evoharness_vec_env_step(v, actions, 4, obs, n * ol, mask, n * al, reward, 4, done, 4));
        for (size_t i = 0; i < n; i++) {
            if (!done[i]) continue;
            OK(evoharness_vec_env_last_episode(v, i, &a));
            CHECK(a.success && a.cost >= 2 * a.world_actions);
            recalls += a.harness[2];
            done_v2++;
        }
    }
    CHECK(done_v2 >= 8 && recalls > 0);

    free(obs);
    free(mask);
    evoharness_vec_env_free(v);
}

/* A world whose callback calls back into its own environment: refused, never aliased. */
static struct evoharness_vec_env *reentered_env = NULL;
static evoharness_status reentered_observe = EVOHARNESS_STATUS_OK;
static evoharness_status reentered_step = EVOHARNESS_STATUS_OK;
static int reentered_in_use = 0; /* both refusals said why */

static int32_t reentering_call(void *user_data, const evoharness_tool_call *call,
                               evoharness_tool_result *result) {
    float obs[1];
    uint8_t mask[1], done[1];
    float reward[1];
    uint32_t action[1] = {0};
    reentered_observe = evoharness_vec_env_observe(reentered_env, obs, 1, mask, 1);
    reentered_in_use = error_mentions("the environment is in use");
    reentered_step =
        evoharness_vec_env_step(reentered_env, action, 1, obs, 1, mask, 1, reward, 1, done, 1);
    reentered_in_use &= error_mentions("the environment is in use");
    evoharness_vec_env_free(reentered_env); /* refused: a no-op, with the last error set */
    return ledger_call(user_data, call, result);
}

static void test_reentering_world(void) {
    int dropped = 0;
    struct ledger l;
    memset(&l, 0, sizeof l);
    l.dropped = &dropped;
    evoharness_world_callbacks cb = LEDGER_CALLBACKS;
    cb.call = reentering_call;
    evoharness_world *w = NULL;
    OK(evoharness_world_from_callbacks(&cb, &l, LEDGER_TOOLS, 3, &w));
    struct evoharness_vec_env_config config;
    OK(evoharness_vec_env_config_default(&config));
    OK(evoharness_vec_env_new_worlds(&w, 1, &config, &reentered_env));
    struct evoharness_vec_env_info info;
    OK(evoharness_vec_env_get_info(reentered_env, &info));
    float *obs = malloc(info.obs_len * sizeof *obs);
    uint8_t *mask = malloc(info.actions);
    float reward[1];
    uint8_t done[1];
    uint32_t next[1] = {2};
    OK(evoharness_vec_env_step(reentered_env, next, 1, obs, info.obs_len, mask, info.actions,
                               reward, 1, done, 1));
    CHECK(reentered_observe == EVOHARNESS_STATUS_INVALID_ARGUMENT);
    CHECK(reentered_step == EVOHARNESS_STATUS_INVALID_ARGUMENT && reentered_in_use);
    CHECK(error_mentions("evoharness_vec_env_free: the environment is in use"));
    CHECK(l.calls == 1 && dropped == 0);
    OK(evoharness_vec_env_observe(reentered_env, obs, info.obs_len, mask, info.actions));
    free(obs);
    free(mask);
    evoharness_vec_env_free(reentered_env);
    CHECK(dropped == 1);
}

/* Worlds written by the host (ledger.h) in a VecEnv: the library's workspace, layout, budget,
 * rewards and episode stats over the host's tools and judge. */
static void test_worlds_vec_env(void) {
    struct evoharness_vec_env_config config;
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_vec_env_config_default(NULL));
    OK(evoharness_vec_env_config_default(&config));
    CHECK(config.capacities.facts == 16 && config.capacities.tools == 0);
    CHECK(config.budget == 200 && config.costs.act == 1 && config.seed == 0 && config.group == 1);
    config.budget = 60;
    config.seed = 5;

    enum { N = 2 };
    int dropped = 0;
    struct ledger l[N];
    evoharness_world *worlds[N];
    for (int i = 0; i < N; i++) worlds[i] = ledger_world(&l[i], &dropped);
    CHECK(worlds[0] != NULL && worlds[1] != NULL);
    struct evoharness_vec_env *v = NULL;
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_vec_env_new_worlds(NULL, N, &config, &v));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_vec_env_new_worlds(worlds, N, NULL, &v));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_vec_env_new_worlds(worlds, N, &config, NULL));
    EXPECT(EVOHARNESS_STATUS_CONFIG, evoharness_vec_env_new_worlds(worlds, 0, &config, &v));
    struct evoharness_vec_env_config bad = config;
    bad.capacities.tools = 4;
    EXPECT(EVOHARNESS_STATUS_CONFIG, evoharness_vec_env_new_worlds(worlds, N, &bad, &v));
    CHECK(error_mentions("the worlds have 3 tools"));
    bad = config;
    bad.group = 3;
    EXPECT(EVOHARNESS_STATUS_CONFIG, evoharness_vec_env_new_worlds(worlds, N, &bad, &v));
    bad = config;
    bad.capacities.facts = 0;
    EXPECT(EVOHARNESS_STATUS_CONFIG, evoharness_vec_env_new_worlds(worlds, N, &bad, &v));
    evoharness_world *same[N] = {worlds[0], worlds[0]};
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT, evoharness_vec_env_new_worlds(same, N, &config, &v));
    CHECK(error_mentions("worlds[1] is worlds[0] again"));
    CHECK(v == NULL && worlds[0] != NULL && worlds[1] != NULL && dropped == 0); /* still ours */
    OK(evoharness_vec_env_new_worlds(worlds, N, &config, &v));
    CHECK(worlds[0] == NULL && worlds[1] == NULL);
    CHECK(l[0].resets == 1 && l[1].resets == 1);

    struct evoharness_vec_env_info info;
    OK(evoharness_vec_env_get_info(v, &info));
    size_t n = info.n, ol = info.obs_len, al = info.actions;
    /* The layout of (16, 8, 4, 3): fewer templates than the suite's 348. */
    CHECK(n == N && info.group == 1 && al < 348 && ol < 564);
    float *obs = malloc(n * ol * sizeof *obs);
    uint8_t *mask = malloc(n * al);
    float reward[N];
    uint8_t done[N];
    uint32_t actions[N];
    OK(evoharness_vec_env_observe(v, obs, n * ol, mask, n * al));
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT,
           evoharness_vec_env_teacher_actions(v, EVOHARNESS_TEACHER_LEAN, actions, N));
    CHECK(error_mentions("suite's tasks only"));

    /* Scripted from what each world said last: next, pay it (field 0), ..., finish. Templates
     * of the layout: finish(success) 0, then per tool t 25 act templates from 2 + 25 t (no
     * argument, 16 facts, 8 fields). */
    uint64_t episodes[N] = {0, 0};
    for (int s = 0; s < 1000 && (episodes[0] < 3 || episodes[1] < 3); s++) {
        for (size_t i = 0; i < n; i++) {
            if (l[i].last == LEDGER_SAW_ITEM) actions[i] = 2 + 25 * 1 + 1 + 16 + 0;
            else if (l[i].last == LEDGER_SAW_DONE) actions[i] = 0;
            else actions[i] = 2;
            CHECK(mask[i * al + actions[i]] == 1);
        }
        OK(evoharness_vec_env_step(v, actions, N, obs, n * ol, mask, n * al, reward, N, done, N));
        for (size_t i = 0; i < n; i++) {
            if (!done[i]) continue;
            struct evoharness_episode_stats st;
            OK(evoharness_vec_env_last_episode(v, i, &st));
            CHECK(st.success && st.finished == 1 && reward[i] > 1.0f);
            CHECK(st.harness[0] + st.harness[1] + st.harness[2] + st.harness[3] == 0);
            CHECK(st.world_actions % 2 == 1 && st.items == 0);
            OK(evoharness_vec_env_episodes(v, i, &episodes[i]));
        }
    }
    CHECK(episodes[0] >= 3 && episodes[1] >= 3);

    /* A teacher's high-level actions, mapped to templates by the library. */
    uint32_t t = 99;
    OK(evoharness_vec_env_intent_template(v, 0, "{\"call\": \"next\"}", &t));
    CHECK(t == 2);
    OK(evoharness_vec_env_intent_template(v, 1, "{\"finish\": true}", &t));
    CHECK(t == 0);
    t = 99;
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT,
           evoharness_vec_env_intent_template(v, 0, "{\"call\": \"pay\", \"arg\": 999}", &t));
    CHECK(error_mentions("cannot express a call of \"pay\" with Int(999)") && t == 99);
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT,
           evoharness_vec_env_intent_template(v, 0, "{\"call\": \"refund\"}", &t));
    CHECK(error_mentions("no tool \"refund\""));
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT, evoharness_vec_env_intent_template(v, 0, "{\"fly\": 1}", &t));
    CHECK(error_mentions("no action"));
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT, evoharness_vec_env_intent_template(v, 0, "nope", &t));
    EXPECT(EVOHARNESS_STATUS_NOT_FOUND, evoharness_vec_env_intent_template(v, 2, "{\"finish\": true}", &t));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_vec_env_intent_template(v, 0, NULL, &t));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_vec_env_intent_template(v, 0, "{}", NULL));

    /* A world that fails: the step says which environment, and why. */
    l[1].fail_call = 9;
    actions[0] = actions[1] = 2;
    EXPECT(EVOHARNESS_STATUS_WORLD,
           evoharness_vec_env_step(v, actions, N, obs, n * ol, mask, n * al, reward, N, done, N));
    CHECK(error_mentions("environment 1") && error_mentions("returned 9"));
    l[1].fail_call = 0;
    OK(evoharness_vec_env_step(v, actions, N, obs, n * ol, mask, n * al, reward, N, done, N));

    free(obs);
    free(mask);
    evoharness_vec_env_free(v);
    CHECK(dropped == N); /* the environment freed its worlds */
}

/* The fleet database calls (libevoharness_train has them: its header defines
 * EVOHARNESS_FLEET): two stores pushed to a SQLite file, one twice, pulled into a third; each
 * lesson counted once; a URL no database opens and a missing folder are typed errors. */
static void test_fleet(void) {
    char url[1200];
    snprintf(url, sizeof url, "sqlite:%s", work_file("fleet.db"));
    remove(work_file("fleet.db"));
    struct evoharness_experience_store *a = NULL, *b = NULL, *c = NULL;
    OK(evoharness_experience_store_new_replica(4, 1, &a));
    OK(evoharness_experience_store_new_replica(4, 2, &b));
    OK(evoharness_experience_store_new_replica(4, 3, &c));
    struct evoharness_value e, seven;
    memset(&e, 0, sizeof e);
    memset(&seven, 0, sizeof seven);
    e.kind = EVOHARNESS_VALUE_KIND_TEXT;
    e.len = 4;
    memcpy(e.data, "E429", 4);
    seven.kind = EVOHARNESS_VALUE_KIND_INT;
    seven.integer = 7;
    OK(evoharness_experience_store_note(a, &e, &seven));
    OK(evoharness_experience_store_rate(a, &e, true));
    OK(evoharness_experience_store_note(b, &e, &seven));
    size_t changed = 99, replicas = 0;
    OK(evoharness_fleet_push(a, url, &changed));
    CHECK(changed == 1);
    OK(evoharness_fleet_push(a, url, &changed));
    CHECK(changed == 0); /* nothing new */
    OK(evoharness_fleet_push(b, url, NULL));
    OK(evoharness_fleet_pull(c, url, &replicas));
    OK(evoharness_fleet_pull(c, url, &replicas));
    CHECK(replicas == 2);
    struct evoharness_lesson l;
    OK(evoharness_experience_store_lesson(c, &e, &l));
    CHECK(l.helpful == 1 && l.noted == 2);
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT, evoharness_fleet_pull(c, "mysql://x", NULL));
    EXPECT(EVOHARNESS_STATUS_IO, evoharness_fleet_push(a, "sqlite:/no/such/dir/f.db", NULL));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_fleet_push(a, NULL, NULL));
    evoharness_experience_store_free(a);
    evoharness_experience_store_free(b);
    evoharness_experience_store_free(c);
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s FIXTURES_DIR WORK_DIR VERSION\n", argv[0]);
        return 2;
    }
    snprintf(fixtures, sizeof fixtures, "%s", argv[1]);
    snprintf(work, sizeof work, "%s", argv[2]);

    test_tasks(argv[3]);
    test_suite_agent();
    test_vec_env();
    test_training();
    test_worlds_vec_env();
    test_reentering_world();
    test_fleet();

    printf("%d checks, %d failed\n", checks, failures);
    return failures == 0 ? 0 : 1;
}
