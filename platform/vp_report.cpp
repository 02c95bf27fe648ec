// vp-report DIR [--stats REGEX] [--pareto X,Y]: (re)writes DIR/report.html. For a vp-run output
// folder, the run report (vp-run writes the same page); for a vp-sweep folder (with sweep.csv),
// the sweep report, pareto.csv with --pareto, and every point's run report.
// Exit codes: 0 success, 1 internal error, 2 bad input.
#include <iostream>
#include <string>

#include "mapper/common/errors.h"
#include "platform/report/report.h"

namespace {

const char* const kUsage = "usage: vp-report DIR [--stats REGEX] [--pareto X,Y]\n";
const char* const kHelp =
    "\nDIR is a vp-run output folder or a vp-sweep folder (with sweep.csv). Writes DIR/report.html,\n"
    "one self-contained page (no network needed). A run's page: summary, bottlenecks in words,\n"
    "per-layer breakdown, roofline, NoC link utilisation, DRAM and compute over time. A sweep's\n"
    "page: the points that did not finish, every statistic that varies against each swept\n"
    "parameter, the Pareto front, and a report per point.\n\n"
    "  --stats REGEX   sweep: chart only the statistics whose name matches (ECMAScript regex)\n"
    "  --pareto X,Y    sweep: the Pareto front of two statistics, each minimised (max:NAME to\n"
    "                  maximise), as a chart, a table and DIR/pareto.csv\n";

}  // namespace

int main(int argc, char** argv) {
    std::string dir;
    vp::report::SweepOptions opt;
    bool sweep_option = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "-h" || a == "--help") {
            std::cout << kUsage << kHelp;
            return 0;
        }
        std::string* target = nullptr;
        std::string value;
        for (const auto& [name, t] : {std::pair<const char*, std::string*>{"--stats", &opt.stats}, {"--pareto", &opt.pareto}}) {
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
        }
        if (target) {
            if (value.empty()) {
                std::cerr << "vp-report: error: " << a << ": empty value\n" << kUsage;
                return 2;
            }
            *target = value;
            sweep_option = true;
        } else if (!a.empty() && a[0] == '-') {
            std::cerr << "vp-report: error: unknown option " << a << "\n" << kUsage;
            return 2;
        } else if (!dir.empty()) {
            std::cerr << "vp-report: error: one folder expected, got " << dir << " and " << a << "\n" << kUsage;
            return 2;
        } else {
            dir = a;
        }
    }
    if (dir.empty()) {
        std::cerr << kUsage;
        return 2;
    }
    try {
        if (vp::report::is_sweep_folder(dir)) {
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
        std::cerr << "vp-report: error: " << dir << ": a file of the folder does not hold what vp-run writes: " << e.what()
                  << "\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "vp-report: internal error: " << e.what() << "\n";
        return 1;
    }
}
