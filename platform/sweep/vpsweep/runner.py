"""Runs one point: vp-run in its own process group, with an optional time limit, and
records how it ended in status.json. The local, GNU parallel and Slurm backends all run
points through this code, so a point ends in the same files whichever backend ran it."""

import json
import os
import shutil
import signal
import socket
import subprocess
import time

from .layout import DONE, FAILED, KILLED, NOT_RUN, TIMEOUT, now_iso, write_atomic

KILL_GRACE_S = 5.0  # SIGTERM, then SIGKILL after this long
POLL_S = 0.1


def first_error(stderr_path, rc):
    """The line of vp-run's stderr that says what went wrong ("error: ...",
    "simulation failed: ..."), else the exit code."""
    try:
        with open(stderr_path, encoding="utf-8", errors="replace") as f:
            lines = [l.strip() for l in f if l.strip()]
    except OSError:
        lines = []
    pick = next((l for l in lines if l.startswith("vp-run:")), lines[0] if lines else "")
    if pick.startswith("vp-run: "):
        pick = pick[len("vp-run: "):]
    if not pick:
        pick = "exit code %d" % rc if rc >= 0 else "killed by %s" % signal_name(-rc)
    return pick[:500]


def signal_name(n):
    try:
        return signal.Signals(n).name
    except ValueError:
        return "signal %d" % n


def slurm_task():
    j, t = os.environ.get("SLURM_ARRAY_JOB_ID"), os.environ.get("SLURM_ARRAY_TASK_ID")
    return "%s_%s" % (j, t) if j and t else os.environ.get("SLURM_JOB_ID")


class PointRunner:
    """run(id) -> state. `stop` is a threading.Event-like object: once set, a running point
    is killed and recorded as killed, and a point not yet started is left NOT_RUN."""

    def __init__(self, sweep, vp_run, point_timeout, stop):
        self.sweep, self.vp_run, self.timeout, self.stop = sweep, vp_run, point_timeout, stop

    def command(self, p, run_dir):
        cmd = [self.vp_run, p["config_path"], p["workload_path"], "--out", run_dir, "--quiet"]
        for k, v in p["set"]:
            cmd += ["--set", "%s=%s" % (k, v)]
        return cmd + p["args"] + p.get("flags", [])

    def run(self, pid):
        if self.stop.is_set():
            return NOT_RUN
        d = self.sweep.point_dir(pid)
        p = self.sweep.read_point(pid)
        run_dir = os.path.join(d, "run")
        for stale in ("status.json", "started.json"):
            try:
                os.remove(os.path.join(d, stale))
            except FileNotFoundError:
                pass
        shutil.rmtree(run_dir, ignore_errors=True)
        started = {"started": now_iso(), "host": socket.gethostname(), "pid": os.getpid()}
        if slurm_task():
            started["slurm_task"] = slurm_task()
        write_atomic(os.path.join(d, "started.json"), json.dumps(started, indent=1) + "\n")
        t0 = time.monotonic()
        with open(os.path.join(d, "stdout.log"), "wb") as out, open(os.path.join(d, "stderr.log"), "wb") as err:
            try:
                proc = subprocess.Popen(self.command(p, run_dir), stdout=out, stderr=err,
                                        stdin=subprocess.DEVNULL, start_new_session=True)
            except OSError as e:
                return self._finish(d, started, FAILED, None, "cannot start vp-run: %s" % e, t0)
            state, why = self._wait(proc, t0)
        rc = proc.returncode
        if state is None:
            if rc == 0:
                state, error = DONE, ""
            elif rc < 0:
                # Killed by a signal that we did not send: the OOM killer, a scheduler, a user.
                state, error = KILLED, "killed by %s" % signal_name(-rc)
            else:
                state, error = FAILED, first_error(os.path.join(d, "stderr.log"), rc)
        else:
            error = why
        return self._finish(d, started, state, rc if rc is not None and rc >= 0 else None, error, t0)

    def _wait(self, proc, t0):
        """Waits for vp-run; returns (None, "") when it exited by itself, else the state we
        ended it with and why."""
        while True:
            try:
                proc.wait(timeout=POLL_S)
                return None, ""
            except subprocess.TimeoutExpired:
                pass
            if self.stop.is_set():
                self._kill(proc)
                return KILLED, "killed: the sweep was interrupted or its task cancelled"
            if self.timeout and time.monotonic() - t0 > self.timeout:
                self._kill(proc)
                return TIMEOUT, "exceeded --point-timeout %g s" % self.timeout

    @staticmethod
    def _kill(proc):
        for sig, grace in ((signal.SIGTERM, KILL_GRACE_S), (signal.SIGKILL, None)):
            try:
                os.killpg(proc.pid, sig)
            except ProcessLookupError:
                pass
            try:
                proc.wait(timeout=grace)
                return
            except subprocess.TimeoutExpired:
                continue

    def _finish(self, d, started, state, rc, error, t0):
        status = {"state": state, "exit_code": rc, "error": error,
                  "wall_s": round(time.monotonic() - t0, 3),
                  "started": started["started"], "finished": now_iso(), "host": started["host"]}
        if "slurm_task" in started:
            status["slurm_task"] = started["slurm_task"]
        write_atomic(os.path.join(d, "status.json"), json.dumps(status, indent=1) + "\n")
        return state
