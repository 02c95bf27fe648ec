"""vp-sweep: sweeps of vp-run (Python 3 standard library); vp-report (C++) charts them."""
