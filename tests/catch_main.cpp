#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

// Unit tests link the model libraries, and with them libsystemc, whose own main()
// wants an sc_main. Unit tests never start a kernel; this one is never called.
extern "C" int sc_main(int, char**) { return 0; }
