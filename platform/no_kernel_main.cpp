// Programs that link the model libraries but never start a SystemC kernel (benchmarks of
// plain C++ parts) still pull in libsystemc, whose main() references sc_main.
extern "C" int sc_main(int, char**) { return 0; }
