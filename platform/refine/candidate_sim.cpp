#include "platform/refine/candidate_sim.h"

#include <fstream>
#include <sstream>

#include "mapper/common/errors.h"
#include "platform/refine/child_runner.h"

namespace vp::refine {

nlohmann::json single_layer_workload(const nlohmann::json& doc, std::size_t index) {
    nlohmann::json w = doc;
    nlohmann::json layer = doc.at("layers").at(index);
    layer.erase("inputs");  // the child has no graph: its one layer reads the network input
    w.erase("batch");       // one sample of the layer
    w["layers"] = nlohmann::json::array({layer});
    w["name"] = doc.value("name", std::string("workload")) + "/" + layer.value("name", std::string("layer"));
    return w;
}

namespace {

void write_file(const std::string& path, const std::string& text) {
    std::ofstream f(path);
    f << text;
    if (!f) throw std::runtime_error("cannot write " + path);
}

std::string last_line(const std::string& path) {
    std::ifstream f(path);
    std::string line, last;
    while (std::getline(f, line))
        if (!line.empty()) last = line;
    return last;
}

}  // namespace

std::vector<CandidateResult> simulate_candidates(const config::PlatformSpec& spec, const SimSetup& setup,
                                                 const std::vector<CandidateJob>& jobs) {
    std::vector<CandidateResult> out(jobs.size());
    if (jobs.empty()) return out;
    const std::string dir = make_temp_dir(setup.tag);
    try {
        config::PlatformSpec child = spec;
        child.mapper.refine = 0;
        child.sim.threads = 1;
        child.trace.enabled = false;
        const std::string cfg = dir + "/config.yaml";
        write_file(cfg, config::to_yaml(child));
        std::vector<ChildJob> cj;
        for (std::size_t i = 0; i < jobs.size(); ++i) {
            const std::string d = dir + "/job" + std::to_string(i);
            write_file(d + ".json", jobs[i].workload.dump());
            ChildJob j;
            j.argv = {setup.vp_run, cfg, d + ".json", "--out", d, "--quiet"};
            for (const auto& s : jobs[i].sets) {
                j.argv.push_back("--set");
                j.argv.push_back(s);
            }
            j.log = d + ".log";
            cj.push_back(std::move(j));
        }
        const std::vector<int> rc = run_children(cj, setup.parallel);
        for (std::size_t i = 0; i < jobs.size(); ++i) {
            const std::string d = dir + "/job" + std::to_string(i);
            if (rc[i] != 0) {
                out[i].error = "exit code " + std::to_string(rc[i]) + ": " + last_line(d + ".log");
                continue;
            }
            std::ifstream f(d + "/stats.json");
            nlohmann::json st = nlohmann::json::parse(f, nullptr, false);
            const nlohmann::json* root = st.is_discarded() ? nullptr : &st["stats"];
            auto read = [&](const std::string& p, double& v) {
                const nlohmann::json* n = root;
                std::istringstream path(p);
                std::string k;
                while (n && std::getline(path, k, '.')) n = n->contains(k) ? &(*n)[k] : nullptr;
                if (!n || !n->contains("value")) {
                    out[i].error = "no statistic " + p + " in " + d + "/stats.json";
                    return false;
                }
                v = (*n)["value"].get<double>();
                return true;
            };
            if (!read(setup.stat_path, out[i].value)) continue;
            out[i].extras.assign(setup.extra_stats.size(), 0.0);
            bool all = true;
            for (std::size_t e = 0; e < setup.extra_stats.size() && all; ++e) all = read(setup.extra_stats[e], out[i].extras[e]);
            if (!all) continue;
            out[i].ok = true;
        }
    } catch (...) {
        remove_tree(dir);
        throw;
    }
    remove_tree(dir);
    return out;
}

}  // namespace vp::refine
