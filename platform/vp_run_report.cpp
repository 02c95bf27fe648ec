// vp-run-report DIR: (re)writes DIR/report.html from the files of a vp-run output folder, or, for
// a sweep folder (one with sweep.csv), the sweep's page and every point's report. `vp-report DIR`
// runs it for a run folder, and after its own charts for a sweep folder.
// Exit codes: 0 success, 1 internal error, 2 bad input.
#include <iostream>
#include <string>

#include "mapper/common/errors.h"
#include "platform/report/report.h"

int main(int argc, char** argv) {
    const std::string usage = "usage: vp-run-report DIR    (a vp-run output folder, or a sweep folder with sweep.csv)\n";
    if (argc != 2) {
        std::cerr << usage;
        return 2;
    }
    const std::string a = argv[1];
    if (a == "-h" || a == "--help") {
        std::cout << usage << "\nWrites DIR/report.html: one self-contained page (no network needed) with the run's summary,\n"
                  << "per-layer breakdown, roofline, NoC link utilisation, DRAM and compute over time and the\n"
                  << "bottlenecks in words; for a sweep folder, statistics against each parameter and a report\n"
                  << "per point.\n";
        return 0;
    }
    try {
        if (vp::report::is_sweep_folder(a)) vp::report::write_sweep_report(a);
        else vp::report::write_report(a);
        std::cout << a << "/report.html\n";
        return 0;
    } catch (const vp::InputError& e) {
        std::cerr << "vp-run-report: error: " << e.what() << "\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "vp-run-report: internal error: " << e.what() << "\n";
        return 1;
    }
}
