"""vp-sweep and vp-report: sweeps of vp-run and their reports (Python 3 standard library)."""
