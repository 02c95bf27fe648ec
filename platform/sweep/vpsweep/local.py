"""Backends that run points on this machine.

`local` is an in-house runner: N worker threads, each running one point at a time through
PointRunner. It is used instead of GNU parallel by default because everything that matters
for a sweep is per point and has to work the same under Slurm, where parallel is usually not
installed: resume is by point id (parallel's --resume-failed matches jobs by sequence
number, which is how a reordered value list filed results under the wrong values), the
point timeout is recorded as a state of its own, an interrupted sweep records its running
points as killed, and sweep.csv is merged while points finish. It needs nothing but Python.

`parallel` hands the same per-point command (`vp-sweep task OUT --point ID`) to GNU parallel,
with --joblog OUT/parallel/joblog, for users who want parallel's --sshloginfile to spread a
sweep over hosts that share OUT without Slurm."""

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait

from .runner import PointRunner
from .space import SweepError

MERGE_PERIOD_S = 5.0


def log(msg):
    sys.stderr.write("vp-sweep: %s\n" % msg)
    sys.stderr.flush()


class StopOnSignal:
    """SIGINT / SIGTERM set an event instead of raising, so that running points are
    killed and recorded before the process exits."""

    def __init__(self):
        self.event = threading.Event()
        self.signum = None

    def install(self):
        for s in (signal.SIGINT, signal.SIGTERM):
            signal.signal(s, self._handle)
        return self

    def _handle(self, signum, frame):
        self.signum = signum
        self.event.set()


def run_local(sweep, ids, jobs, vp_run, point_timeout, merger, stop):
    runner = PointRunner(sweep, vp_run, point_timeout, stop.event)
    total, finished, last_merge = len(ids), 0, time.monotonic()
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        pending = {pool.submit(runner.run, pid): pid for pid in ids}
        while pending:
            done, _ = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
            for f in done:
                pid = pending.pop(f)
                state = f.result()
                if state != "not run":
                    finished += 1
                    st = sweep.status(pid) or {}
                    log("[%d/%d] %s %s: %s%s" % (finished, total, pid, describe(sweep, pid), state,
                                                  (" (%s)" % st["error"]) if st.get("error") else ""))
            if time.monotonic() - last_merge > MERGE_PERIOD_S:
                merger.merge(final=False)
                last_merge = time.monotonic()


def describe(sweep, pid):
    try:
        p = sweep.read_point(pid)
    except OSError:
        return ""
    return " ".join("%s=%s" % (k, v) for k, v in p.get("label", p["params"]))


def run_parallel(sweep, ids, jobs, point_timeout, task_cmd, merger, stop, sshloginfile=None):
    exe = shutil.which("parallel")
    if not exe:
        raise SweepError("--backend parallel: GNU parallel is not installed (Debian: apt-get install parallel)")
    d = sweep.path("parallel")
    os.makedirs(d, exist_ok=True)
    idfile = os.path.join(d, "ids.txt")
    with open(idfile, "w") as f:
        f.write("".join(pid + "\n" for pid in ids))
    cmd = [exe, "--will-cite", "-j", str(jobs), "--joblog", os.path.join(d, "joblog"), "--arg-file", idfile]
    if sshloginfile:
        cmd += ["--sshloginfile", sshloginfile]
    cmd += task_cmd + (["--point-timeout", str(point_timeout)] if point_timeout else []) + ["--point", "{}"]
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL)
    last_merge = time.monotonic()
    terms = 0
    while proc.poll() is None:
        time.sleep(0.2)
        if stop.event.is_set() and terms < 2:
            # GNU parallel stops starting jobs on the first SIGTERM and kills the running
            # ones on the second; the task runners then record their points as killed.
            proc.send_signal(signal.SIGTERM)
            terms += 1
            time.sleep(0.2)
        if time.monotonic() - last_merge > MERGE_PERIOD_S:
            merger.merge(final=False)
            last_merge = time.monotonic()
    return proc.returncode
