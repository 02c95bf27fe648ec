"""A sweep folder and the identity of its points.

    OUT/sweep.json            the sweep: vp-run used, parameter columns, options
    OUT/points.csv            point id -> config, workload and swept values (one row per point)
    OUT/sweep.csv             the merged results (rewritten atomically at every merge)
    OUT/points/<id>/point.json    what the point runs (files, overrides, arguments)
    OUT/points/<id>/started.json  written when it starts (host, pid, Slurm task)
    OUT/points/<id>/status.json   written when it ends: state, exit code, error, wall time
    OUT/points/<id>/run/          vp-run's output folder (stats.json, stats.csv, config.yaml ...)
    OUT/points/<id>/stdout.log, stderr.log
    OUT/slurm/<n>/            one Slurm submission: job scripts, task lists, logs

A point's id is a hash of its resolved parameters (the contents of its config and workload
files, its overrides sorted by key, the extra vp-run arguments), never of its position, so
reordering values or parameters files every result under the same id."""

import csv
import errno
import fcntl
import hashlib
import io
import json
import os
import socket
import time

# Point states. A rerun runs NOT_RUN and KILLED points, and FAILED and TIMEOUT ones with
# --retry-failed; DONE points are kept.
DONE, FAILED, TIMEOUT, KILLED, RUNNING, NOT_RUN = "done", "failed", "timeout", "killed", "running", "not run"
STATES = (DONE, FAILED, TIMEOUT, KILLED, RUNNING, NOT_RUN)
ID_CHARS = 16


def write_atomic(path, text):
    """Writes through a temporary file in the same folder and renames it over `path`, so a
    reader sees the old or the new file, never a partial one."""
    tmp = "%s.tmp-%d-%s" % (path, os.getpid(), socket.gethostname())
    with open(tmp, "w", encoding="utf-8", newline="") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def read_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def file_digest(path, cache={}):
    """sha256 of a file's bytes (cached per path for the life of the process)."""
    if path not in cache:
        h = hashlib.sha256()
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        cache[path] = h.hexdigest()
    return cache[path]


class Point:
    """One run: config and workload (as given and as found), overrides, extra arguments."""

    def __init__(self, params, config, workload, config_path, workload_path, sets, args, flags=()):
        self.params = params              # [(column, value)] of the swept parameters
        self.config, self.workload = config, workload
        self.config_path, self.workload_path = config_path, workload_path
        self.sets = sorted(sets)          # [(key, value)], fixed and swept, by key
        self.args = list(args)
        self.flags = list(flags)          # vp-run flags outside the identity (--allow-unused)
        self.label = list(params)         # what names the point in messages
        resolved = {"config": file_digest(config_path), "workload": file_digest(workload_path),
                    "set": [[k, v] for k, v in self.sets], "args": self.args}
        canon = json.dumps(resolved, sort_keys=True, separators=(",", ":"))
        self.id = hashlib.sha256(canon.encode("utf-8")).hexdigest()[:ID_CHARS]

    def to_json(self):
        return {"id": self.id, "config": self.config, "workload": self.workload,
                "config_path": self.config_path, "workload_path": self.workload_path,
                "set": [[k, v] for k, v in self.sets], "args": self.args, "flags": self.flags,
                "params": [[k, v] for k, v in self.params], "label": [[k, v] for k, v in self.label]}

    def describe(self):
        return " ".join("%s=%s" % kv for kv in self.label) or self.id


class SweepDir:
    def __init__(self, root):
        self.root = os.path.abspath(root)
        self._lock = None

    def path(self, *parts):
        return os.path.join(self.root, *parts)

    def point_dir(self, pid):
        return self.path("points", pid)

    # -- the definition ----------------------------------------------------------------
    def write_definition(self, meta, columns, points):
        os.makedirs(self.path("points"), exist_ok=True)
        for p in points:
            d = self.point_dir(p.id)
            os.makedirs(d, exist_ok=True)
            f = os.path.join(d, "point.json")
            text = json.dumps(p.to_json(), indent=1) + "\n"
            if read_json(f) != p.to_json():
                write_atomic(f, text)
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["point", "config_file", "workload_file"] + columns)
        for p in points:
            vals = dict(p.params)
            w.writerow([p.id, p.config, p.workload] + [vals.get(c, "") for c in columns])
        write_atomic(self.path("points.csv"), buf.getvalue())
        write_atomic(self.path("sweep.json"), json.dumps(meta, indent=1) + "\n")

    def read_definition(self):
        meta = read_json(self.path("sweep.json"))
        if meta is None:
            raise FileNotFoundError(errno.ENOENT, "not a sweep folder (no readable sweep.json)", self.root)
        try:
            with open(self.path("points.csv"), encoding="utf-8", newline="") as f:
                rows = list(csv.reader(f))
        except (ValueError, csv.Error):  # not UTF-8, a NUL byte
            rows = []
        if not rows:
            raise FileNotFoundError(errno.ENOENT, "not a sweep folder (no readable points.csv)", self.root)
        return meta, rows[0], rows[1:]

    def read_point(self, pid):
        p = read_json(os.path.join(self.point_dir(pid), "point.json"))
        if p is None:
            raise FileNotFoundError(errno.ENOENT, "no readable point.json", self.point_dir(pid))
        return p

    # -- states --------------------------------------------------------------------------
    def status(self, pid):
        return read_json(os.path.join(self.point_dir(pid), "status.json"))

    def state(self, pid, final):
        """The point's state. A point that started and never wrote its status is RUNNING
        while runners may be active, and KILLED once none can be (final)."""
        st = self.status(pid)
        if st is not None:
            return st.get("state", FAILED), st
        if os.path.exists(os.path.join(self.point_dir(pid), "started.json")):
            return (KILLED if final else RUNNING), None
        return NOT_RUN, None

    # -- mutual exclusion of local drivers -------------------------------------------------
    def lock(self):
        """Held by the process that plans and runs the sweep; a second vp-sweep on the same
        folder fails instead of running the same points twice."""
        os.makedirs(self.root, exist_ok=True)
        f = open(self.path(".lock"), "a+")
        try:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            f.close()
            return False
        self._lock = f
        return True

    def locked_by_other(self):
        """True when another process holds the lock (a local sweep is running)."""
        try:
            f = open(self.path(".lock"), "a+")
        except OSError:
            return False
        try:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            fcntl.flock(f.fileno(), fcntl.LOCK_UN)
            return False
        except OSError:
            return True
        finally:
            f.close()


def now_iso():
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")
