// evoharness_train.hpp: the training kit's part of the header-only C++17 wrapper, over
// evoharness_train.h (libevoharness_train, which exports every function of libevoharness too:
// link it instead of libevoharness, never both).
// SPDX-License-Identifier: MIT OR Apache-2.0
//
// What it adds to evoharness.hpp: VecEnv, the vectorised environment for training (RAII,
// move-only, with groups and the suite's teachers' labels), and the task suite to train on: a
// task as an evoharness::World (suite_world), the agent config a task needs
// (suite_agent_config), how a suite agent's task went (task_stats), the suite's capacities. Errors are evoharness::Error exceptions, as there.
//
// Thread safety is the C handles' (see evoharness_train.h): one thread at a time per VecEnv.

#ifndef EVOHARNESS_TRAIN_HPP
#define EVOHARNESS_TRAIN_HPP

#include "evoharness.hpp"
#include "evoharness_train.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace evoharness {

/// The capacities of the suite's workspaces (what a policy for the suite is made for).
inline evoharness_capacities suite_capacities() {
    evoharness_capacities c{};
    detail::check(evoharness_suite_capacities(&c));
    return c;
}

/// A suite task's config: its budget and costs, greedy, seed 0.
inline evoharness_agent_config suite_agent_config(evoharness_task task, std::uint32_t horizon) {
    evoharness_agent_config c{};
    detail::check(evoharness_suite_agent_config(task, horizon, &c));
    return c;
}

/// A world that runs the suite's task `task` of `horizon` steps for `organisation`, to give to
/// Agent::create or Agent::resume.
inline World suite_world(evoharness_task task, std::uint32_t horizon, std::uint64_t organisation) {
    evoharness_world* w = nullptr;
    detail::check(evoharness_suite_world_new(task, horizon, organisation, &w));
    return World(w);
}

/// How the agent's suite task went so far; nullopt when its world is not one of the suite's.
inline std::optional<evoharness_task_stats> task_stats(const Agent& agent) {
    evoharness_task_stats t{};
    evoharness_status s = evoharness_suite_task_stats(agent.get(), &t);
    if (s == EVOHARNESS_STATUS_NOT_FOUND && agent.get() != nullptr) return std::nullopt;
    detail::check(s);
    return t;
}

/// The defaults of a VecEnv over host worlds: the suite's capacities with the worlds' tool
/// count, budget 200, default costs, seed 0, no groups.
inline evoharness_vec_env_config vec_env_config() {
    evoharness_vec_env_config c{};
    detail::check(evoharness_vec_env_config_default(&c));
    return c;
}

/// The vectorised environment, for training: the suite's tasks, or worlds written by the host.
class VecEnv {
public:
    /// `n` environments of `task`, in organisations `organisation_start` to
    /// `organisation_start + organisation_count - 1`, in groups of `group` that run the same
    /// organisation and seeds.
    VecEnv(evoharness_task task, std::uint32_t horizon, std::size_t n,
           std::uint64_t organisation_start, std::uint64_t organisation_count, std::uint64_t seed,
           std::size_t group = 1) {
        evoharness_vec_env* v = nullptr;
        detail::check(evoharness_vec_env_new_grouped(task, horizon, n, group, organisation_start,
                                                     organisation_count, seed, &v));
        v_.reset(v);
        detail::check(evoharness_vec_env_get_info(v_.get(), &info_));
    }

    /// One environment over each world of `worlds` (host_world()s, or other worlds of one tool
    /// count), with `config` (vec_env_config(): the suite's capacities with the worlds' tool
    /// count, budget 200). Takes the worlds over; if it throws, the worlds it did not take are
    /// still in `worlds` (all of them, unless a world failed in its first reset: WORLD).
    VecEnv(std::vector<World>& worlds, const evoharness_vec_env_config& config) {
        std::vector<evoharness_world*> raw;
        for (World& w : worlds) raw.push_back(w.w_.get());
        evoharness_vec_env* v = nullptr;
        evoharness_status s = evoharness_vec_env_new_worlds(raw.data(), raw.size(), &config, &v);
        for (std::size_t i = 0; i < worlds.size(); i++) {
            if (raw[i] == nullptr) worlds[i].w_.release();  // the library has it now
        }
        detail::check(s);
        v_.reset(v);
        detail::check(evoharness_vec_env_get_info(v_.get(), &info_));
    }

    std::size_t size() const noexcept { return info_.n; }
    std::size_t group() const noexcept { return info_.group; }
    std::size_t obs_len() const noexcept { return info_.obs_len; }
    std::size_t actions() const noexcept { return info_.actions; }

    /// Fills `obs` and `mask` (resized to fit) with every environment's observation and mask.
    void observe(std::vector<float>& obs, std::vector<std::uint8_t>& mask) const {
        obs.resize(size() * obs_len());
        mask.resize(size() * actions());
        detail::check(evoharness_vec_env_observe(v_.get(), obs.data(), obs.size(), mask.data(), mask.size()));
    }

    /// Steps every environment with its template; fills the outputs (resized to fit).
    void step(const std::vector<std::uint32_t>& actions, std::vector<float>& obs,
              std::vector<std::uint8_t>& mask, std::vector<float>& reward,
              std::vector<std::uint8_t>& done) {
        obs.resize(size() * obs_len());
        mask.resize(size() * this->actions());
        reward.resize(size());
        done.resize(size());
        detail::check(evoharness_vec_env_step(v_.get(), actions.data(), actions.size(), obs.data(),
                                              obs.size(), mask.data(), mask.size(), reward.data(),
                                              reward.size(), done.data(), done.size()));
    }

    /// The template `teacher` would choose now in every environment.
    std::vector<std::uint32_t> teacher_actions(evoharness_teacher teacher) const {
        std::vector<std::uint32_t> out(size());
        detail::check(evoharness_vec_env_teacher_actions(v_.get(), teacher, out.data(), out.size()));
        return out;
    }

    /// The stats of environment `i`'s last finished episode, if it finished one.
    std::optional<evoharness_episode_stats> last_episode(std::size_t i) const {
        evoharness_episode_stats st{};
        evoharness_status s = evoharness_vec_env_last_episode(v_.get(), i, &st);
        if (s == EVOHARNESS_STATUS_NOT_FOUND && i < size()) return std::nullopt;
        detail::check(s);
        return st;
    }

    /// The template that does a teacher's high-level action (JSON, as
    /// evoharness_vec_env_intent_template says) in environment `i`'s current state.
    std::uint32_t intent_template(std::size_t i, const std::string& intent_json) const {
        std::uint32_t t = 0;
        detail::check(evoharness_vec_env_intent_template(v_.get(), i, intent_json.c_str(), &t));
        return t;
    }

    /// Gives every environment's agent a lifetime of `episodes` episodes (0: forever): then a
    /// new agent that knows nothing takes over, on the next organisation (see
    /// evoharness_vec_env_set_lifetime).
    void set_lifetime(std::uint64_t episodes) {
        detail::check(evoharness_vec_env_set_lifetime(v_.get(), episodes));
    }

    /// Makes environment `dst` an exact copy of environment `src` mid-episode: the same
    /// actions then give both the same steps to the episode's end (see
    /// evoharness_vec_env_copy).
    void copy(std::size_t src, std::size_t dst) {
        detail::check(evoharness_vec_env_copy(v_.get(), src, dst));
    }

    /// Episodes environment `i` has finished.
    std::uint64_t episodes(std::size_t i) const {
        std::uint64_t n = 0;
        detail::check(evoharness_vec_env_episodes(v_.get(), i, &n));
        return n;
    }

private:
    std::unique_ptr<evoharness_vec_env, detail::Deleter<evoharness_vec_env, evoharness_vec_env_free>> v_;
    evoharness_vec_env_info info_{};
};

}  // namespace evoharness

#endif  // EVOHARNESS_TRAIN_HPP
