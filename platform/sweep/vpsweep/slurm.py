"""The Slurm backend: the points to run become one job array (several points per array
task, at most N tasks at once with `%N`), followed by a merge job that depends on it with
--dependency=afterany, so sweep.csv is written however the tasks end. Each submission lives
in OUT/slurm/<n>/ (job scripts, task lists, logs, submission.json with the job ids)."""

import json
import os
import re
import shlex
import shutil
import subprocess
import time

from .layout import write_atomic
from .space import SweepError

# sbatch options passed through unchanged to the array and the merge job.
PASSTHROUGH = ("partition", "time", "mem", "account", "qos", "cpus_per_task")
DEFAULT_MAX_ARRAY_SIZE = 1001


def _run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)


def require_tools():
    for t in ("sbatch", "squeue"):
        if not shutil.which(t):
            raise SweepError("--backend slurm: %s is not on PATH (run vp-sweep on a Slurm login node)" % t)


def submissions(sweep):
    d = sweep.path("slurm")
    out = []
    if os.path.isdir(d):
        for name in sorted(os.listdir(d), key=lambda s: int(s) if s.isdigit() else -1):
            try:
                with open(os.path.join(d, name, "submission.json")) as f:
                    out.append(json.load(f))
            except (OSError, ValueError):
                continue
    return out


def queued(job_ids):
    """The jobs among job_ids that are still pending or running (array tasks included), or
    None when squeue could not say (controller unreachable)."""
    if not job_ids:
        return []
    if not shutil.which("squeue"):
        return None
    r = _run(["squeue", "-h", "-o", "%F", "-j", ",".join(job_ids)])
    if r.returncode != 0:
        # "Invalid job id specified": every listed job has left the queue.
        return [] if "nvalid job id" in r.stderr else None
    return sorted({l.strip() for l in r.stdout.splitlines() if l.strip()})


def active_jobs(sweep, include_merge=True):
    ids = []
    for s in submissions(sweep):
        ids.append(s["array_job"])
        if include_merge and s.get("merge_job"):
            ids.append(s["merge_job"])
    q = queued(ids)
    if q is None:
        raise SweepError("%s holds Slurm submissions (jobs %s) and squeue cannot tell whether they are still "
                         "queued; run this where squeue works" % (sweep.root, ", ".join(ids)))
    return q


def max_array_size():
    r = _run(["scontrol", "show", "config"]) if shutil.which("scontrol") else None
    if r is not None and r.returncode == 0:
        m = re.search(r"^MaxArraySize\s*=\s*(\d+)", r.stdout, re.M)
        if m:
            return int(m.group(1))
    return DEFAULT_MAX_ARRAY_SIZE


def _sbatch(args):
    r = _run(["sbatch", "--parsable"] + args)
    if r.returncode != 0:
        raise SweepError("sbatch failed (exit %d): %s" % (r.returncode, r.stderr.strip() or r.stdout.strip()))
    return r.stdout.strip().split(";")[0]


def _script(path, lines):
    write_atomic(path, "#!/bin/sh\n" + "".join(l + "\n" for l in lines))
    os.chmod(path, 0o755)


def submit(sweep, ids, opts, task_cmd, merge_cmd, log):
    """Submits the array and the merge job; returns the submission record."""
    require_tools()
    per_task = opts.points_per_task
    limit = max_array_size() - 1
    if per_task is None:
        per_task = max(1, -(-len(ids) // limit))
    chunks = [ids[i:i + per_task] for i in range(0, len(ids), per_task)]
    if len(chunks) > limit:
        raise SweepError("--points-per-task %d gives %d array tasks, more than the cluster's MaxArraySize "
                         "allows (%d); raise --points-per-task" % (per_task, len(chunks), limit + 1))
    base = sweep.path("slurm")
    os.makedirs(base, exist_ok=True)
    n = 1 + max([int(s) for s in os.listdir(base) if s.isdigit()] or [0])
    sub = os.path.join(base, str(n))
    os.makedirs(os.path.join(sub, "tasks"))
    os.makedirs(os.path.join(sub, "logs"))  # a missing -o folder fails a task without a word
    for i, c in enumerate(chunks):
        write_atomic(os.path.join(sub, "tasks", "%d.txt" % i), "".join(pid + "\n" for pid in c))
    q = shlex.quote
    timeout = ["--point-timeout", str(opts.point_timeout)] if opts.point_timeout else []
    _script(os.path.join(sub, "task.sh"),
            ["# Array task $SLURM_ARRAY_TASK_ID runs the points listed in tasks/$SLURM_ARRAY_TASK_ID.txt",
             "exec %s --list %s/tasks/\"$SLURM_ARRAY_TASK_ID\".txt" % (
                 " ".join(q(a) for a in task_cmd + timeout), q(sub))])
    _script(os.path.join(sub, "merge.sh"),
            ["# Runs when every array task has ended, however it ended (afterany). Exit 3 only says",
             "# that some point did not finish (the counts are in this job's log): the merge worked.",
             "%s --final" % " ".join(q(a) for a in merge_cmd),
             "rc=$?; [ $rc -eq 3 ] && exit 0; exit $rc"])
    common = []
    for name in PASSTHROUGH:
        v = getattr(opts, name, None)
        if v:
            common.append("--%s=%s" % (name.replace("_", "-"), v))
    common += opts.sbatch_arg or []
    throttle = "%%%d" % opts.jobs if opts.jobs else ""
    array = _sbatch(["--array=0-%d%s" % (len(chunks) - 1, throttle), "--job-name=vp-sweep",
                     "--output=%s/logs/task-%%A_%%a.out" % sub] + common + [os.path.join(sub, "task.sh")])
    record = {"submission": n, "array_job": array, "merge_job": None, "points": len(ids),
              "points_per_task": per_task, "tasks": {str(i): c for i, c in enumerate(chunks)},
              "submitted": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
    write_atomic(os.path.join(sub, "submission.json"), json.dumps(record, indent=1) + "\n")
    try:
        record["merge_job"] = _sbatch(["--dependency=afterany:%s" % array, "--job-name=vp-sweep-merge",
                                       "--output=%s/logs/merge-%%j.out" % sub] + common +
                                      [os.path.join(sub, "merge.sh")])
    finally:
        write_atomic(os.path.join(sub, "submission.json"), json.dumps(record, indent=1) + "\n")
    log("submitted array job %s (%d tasks of up to %d points%s) and merge job %s; logs in %s/logs"
        % (array, len(chunks), per_task, ", at most %d at once" % opts.jobs if opts.jobs else "",
           record["merge_job"], sub))
    return record


def wait_for(job_ids, stop, poll_s=1.0):
    """Polls squeue until the jobs have left the queue; False when `stop` was set first."""
    while queued(job_ids) != []:   # None (squeue failed for a moment): keep polling
        if stop.wait(poll_s):
            return False
    return True
