// Entry point of the fuzz targets in the ordinary (g++) build: runs each input file given on
// the command line once through LLVMFuzzerTestOneInput. CTest replays the seed corpus and every
// input that once failed (fuzz/regressions/) this way, also under ASan/UBSan; the libFuzzer
// build (-DVP_FUZZ=ON) links libFuzzer's own main instead.
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz/fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char** argv) {
    int n = 0, accepted = 0;
    for (int i = 1; i < argc; ++i) {
        std::ifstream in(argv[i], std::ios::binary);
        if (!in) {
            std::cerr << "replay: cannot open " << argv[i] << "\n";
            return 1;
        }
        const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        std::cout << "replay: " << argv[i] << " (" << bytes.size() << " bytes): " << std::flush;
        LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
        const std::string& why = vp::fuzz::last_rejection();
        std::cout << (why.empty() ? std::string("accepted") : "rejected: " + why.substr(0, 200)) << "\n";
        ++n;
        accepted += why.empty() ? 1 : 0;
    }
    std::cout << "replay: " << n << " inputs, " << accepted << " accepted, the others rejected with an input error\n";
    return n > 0 ? 0 : 1;
}
