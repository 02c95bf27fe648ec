// vp-report DIR [--stats REGEX] [--pareto X,Y]: (re)writes DIR/report.html. For a vp-run output
// folder, the run report (vp-run writes the same page); for a vp-sweep folder (with sweep.csv),
// the sweep report, pareto.csv with --pareto, and every point's run report.
// vp-report --compare BASE OTHER: what differs between two run folders, printed (compare.h).
// Exit codes: 0 success, 1 internal error, 2 bad input.
#include <cerrno>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "mapper/common/errors.h"
#include "platform/report/compare.h"
#include "platform/report/report.h"
#include "vp_version.h"

namespace {

const char* const kUsage =
    "usage: vp-report DIR [--stats REGEX] [--pareto X,Y]\n"
    "       vp-report --compare BASE OTHER [--stats REGEX] [--top N] [--csv FILE]\n"
    "       vp-report --help | --version\n";
const char* const kHelp =
    "\nDIR is a vp-run output folder or a vp-sweep folder (with sweep.csv). Writes DIR/report.html,\n"
    "one self-contained page (no network needed). A run's page: summary, bottlenecks in words,\n"
    "per-layer breakdown, roofline, NoC link utilisation, DRAM and compute over time. A sweep's\n"
    "page: the points that did not finish, every statistic that varies against each swept\n"
    "parameter, the Pareto front, and a report per point.\n\n"
    "  --stats REGEX   sweep: chart only the statistics whose name matches (ECMAScript regex);\n"
    "                  --compare: list the statistics whose name matches (default: the module\n"
    "                  totals, names without [i])\n"
    "  --pareto X,Y    sweep: the Pareto front of two statistics, each minimised (max:NAME to\n"
    "                  maximise), as a chart, a table and DIR/pareto.csv\n\n"
    "--compare BASE OTHER prints what differs between two run folders (writes nothing into them):\n"
    "the resolved configuration keys (config.yaml), the statistics (stats.json; largest relative\n"
    "change first) and the time of every layer present in both (layers.json, matched by name).\n"
    "  --top N         rows per table (default 20)\n"
    "  --csv FILE      every configuration difference, statistic and layer of both runs as one CSV\n";

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> dirs;
    vp::report::SweepOptions opt;
    vp::report::CompareOptions cmp;
    bool compare = false, pareto = false, compare_only = false;
    std::string top_text;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "-h" || a == "--help") {
            std::cout << kUsage << kHelp;
            return 0;
        }
        if (a == "--version") {
            std::cout << "vp-report " << VP_VERSION << "\n";
            return 0;
        }
        if (a == "--compare") {
            compare = true;
            continue;
        }
        std::string* target = nullptr;
        std::string value;
        for (const auto& [name, t] : {std::pair<const char*, std::string*>{"--stats", &opt.stats}, {"--pareto", &opt.pareto},
                                      {"--csv", &cmp.csv}, {"--top", &top_text}}) {
            const std::string n = name;
            if (a == n) {
                if (i + 1 >= argc) {
                    std::cerr << "vp-report: error: " << n << " needs a value\n" << kUsage;
                    return 2;
                }
                target = t;
                value = argv[++i];
            } else if (a.rfind(n + "=", 0) == 0) {
                target = t;
                value = a.substr(n.size() + 1);
            }
            if (target == t) {
                if (t == &opt.pareto) pareto = true;
                if (t == &cmp.csv || t == &top_text) compare_only = true;
                break;
            }
        }
        if (target) {
            if (value.empty()) {
                std::cerr << "vp-report: error: " << a << ": empty value\n" << kUsage;
                return 2;
            }
            *target = value;
        } else if (!a.empty() && a[0] == '-') {
            std::cerr << "vp-report: error: unknown option " << a << "\n" << kUsage;
            return 2;
        } else {
            dirs.push_back(a);
        }
    }
    if (compare) {
        if (dirs.size() != 2) {
            std::cerr << "vp-report: error: --compare needs two run folders (BASE OTHER), got " << dirs.size() << "\n" << kUsage;
            return 2;
        }
        if (pareto) {
            std::cerr << "vp-report: error: --pareto applies to a sweep folder, not to --compare\n" << kUsage;
            return 2;
        }
        if (!top_text.empty()) {
            char* end = nullptr;
            errno = 0;
            const long v = std::strtol(top_text.c_str(), &end, 10);
            if (errno || *end || v < 1 || v > 1000000) {
                std::cerr << "vp-report: error: --top " << top_text << ": expected a row count in [1, 1000000]\n" << kUsage;
                return 2;
            }
            cmp.top = int(v);
        }
        cmp.stats = opt.stats;
    } else {
        if (compare_only) {
            std::cerr << "vp-report: error: --csv and --top apply to --compare BASE OTHER\n" << kUsage;
            return 2;
        }
        if (dirs.size() > 1) {
            std::cerr << "vp-report: error: one folder expected, got " << dirs[0] << " and " << dirs[1]
                      << " (--compare BASE OTHER compares two runs)\n" << kUsage;
            return 2;
        }
    }
    if (dirs.empty()) {
        std::cerr << kUsage;
        return 2;
    }
    const std::string dir = dirs[0];
    const bool sweep_option = !opt.stats.empty() || pareto;
    try {
        if (compare) {
            vp::report::compare_runs(dirs[0], dirs[1], cmp, std::cout);
        } else if (vp::report::is_sweep_folder(dir)) {
            vp::report::write_sweep_report(dir, opt);
        } else {
            if (sweep_option)
                throw vp::InputError(dir + ": --stats and --pareto apply to a sweep folder (with sweep.csv), this is none");
            vp::report::write_report(dir);
            std::cerr << "vp-report: " << dir << "/report.html\n";
        }
        return 0;
    } catch (const vp::InputError& e) {
        std::cerr << "vp-report: error: " << e.what() << "\n";
        return 2;
    } catch (const nlohmann::json::exception& e) {
        // Valid JSON of another shape than vp-run writes (a number where an object belongs ...).
        std::cerr << "vp-report: error: " << (compare ? dirs[0] + " or " + dirs[1] : dir)
                  << ": a file of the folder does not hold what vp-run writes: " << e.what() << "\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "vp-report: internal error: " << e.what() << "\n";
        return 1;
    }
}
