"""vp-sweep: design-space sweeps of vp-run, on this machine or on a Slurm cluster.

    vp-sweep [CONFIG WORKLOAD] [--file SWEEP.yaml] [--param key=v1,v2 | key=1:64:x2]...
             [--zip key=v1,v2 key2=w1,w2]... [--set key=value]... [--out DIR]
             [--backend local|parallel|slurm] [-j N] [--point-timeout S] [--retry-failed]
             [--allow-unused] [--dry-run] [-- extra vp-run arguments]
    vp-sweep merge DIR [--final]      rewrite DIR/sweep.csv and print the counts
    vp-sweep task DIR (--list FILE | --point ID...)   run points (what backends call)

Exit codes: 0 every point done, 2 bad input (nothing run), 3 a point failed, timed out,
was killed or did not run, 1 internal error."""

import argparse
import math
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from . import local, slurm
from .layout import DONE, FAILED, KILLED, NOT_RUN, TIMEOUT, Point, SweepDir
from .merge import Merger, exit_code, summary_line
from .runner import PointRunner
from .space import CONFIG, WORKLOAD, Space, SweepError, load_sweep_file, parse_assignment, parse_values
from .space import space_from_file

DATA_SUBDIR = os.path.join("share", "cnn-vp")
# vp-run options that vp-sweep sets itself (or that would stop vp-run from running the point),
# refused in the extra vp-run arguments: the long names and any abbreviation of them (vp-run's
# option parser accepts unambiguous prefixes), and the short options, also in a cluster such
# as -qo DIR or with the value attached (-oDIR).
RESERVED_LONG = ("--out", "--set", "--quiet", "--check", "--check-inputs", "--allow-unused", "--help", "--version")
RESERVED_SHORT = "osqh"  # vp-run's short options: -o --out, -s --set, -q --quiet, -h --help
log = local.log


# -- finding the tools and the data --------------------------------------------------------
def this_script():
    return os.path.realpath(sys.argv[0])


def find_vp_run(explicit):
    """--vp-run, $VP_RUN, vp-run next to this script (PREFIX/bin, build/platform), the build
    folder of the source tree this script is in, then PATH."""
    here = os.path.dirname(this_script())
    # A vp-run the user named is used or refused, never replaced by another one found elsewhere.
    for given, what in ((explicit, "--vp-run"), (os.environ.get("VP_RUN"), "$VP_RUN")):
        if given:
            if os.path.isfile(given) and os.access(given, os.X_OK):
                return os.path.realpath(given)
            raise SweepError("%s %s: %s" % (what, given, "not an executable file" if os.path.exists(given)
                                            else "no such file"))
    cands = [os.path.join(here, "vp-run"), os.path.join(here, "..", "..", "build", "platform", "vp-run"),
             shutil.which("vp-run")]
    for c in cands:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return os.path.realpath(c)
    raise SweepError("vp-run not found (looked next to %s, in build/platform/ and on PATH; "
                     "build it with scripts/build.sh, or give --vp-run / $VP_RUN)" % this_script())


def find_file(path, vp_run, what):
    """A path as given, else under the installed data folder next to vp-run (PREFIX/share/cnn-vp),
    as vp-run itself looks it up. It must be a readable file."""
    data = os.path.join(os.path.dirname(os.path.dirname(vp_run)), DATA_SUBDIR)
    found = None
    if os.path.isfile(path):
        found = os.path.abspath(path)
    elif not os.path.isabs(path) and os.path.isfile(os.path.join(data, path)):
        found = os.path.join(data, path)
    elif os.path.isdir(path):
        raise SweepError("%s %s: is a folder (expected a file)" % (what, path))
    elif os.path.exists(path):
        raise SweepError("%s %s: not a regular file (expected a file)" % (what, path))
    if found is None:
        raise SweepError("%s %s: no such file (also looked in %s)" % (what, path, data))
    try:
        with open(found, "rb"):
            pass
    except OSError as e:
        raise SweepError("%s %s: cannot read it: %s" % (what, path, e.strerror))
    return found


def check_vp_run_args(args, where):
    """Refuses the vp-run options that vp-sweep sets (or that make vp-run not run the point),
    spelt out, abbreviated or as short options."""
    def why(opt):
        if opt in ("--help", "--version"):
            return "vp-run would print its %s instead of running the point" % opt[2:]
        return "vp-sweep sets %s (use vp-sweep --set / --allow-unused / --out)" % opt

    for arg in args:
        name = arg.split("=", 1)[0]
        if arg.startswith("--") and len(name) > 2:
            hits = [r for r in RESERVED_LONG if r.startswith(name)]
            if hits:
                raise SweepError("%svp-run argument %s: %s%s" % (
                    where, arg, "" if name in RESERVED_LONG else "an abbreviation of %s: " % hits[0], why(hits[0])))
        elif len(arg) > 1 and arg[0] == "-" and arg[1] in RESERVED_SHORT:
            opt = next(r for r in RESERVED_LONG if r[2] == arg[1])
            raise SweepError("%svp-run argument %s: -%s is %s: %s" % (where, arg, arg[1], opt, why(opt)))


def check_timeout(value, option):
    """A time limit in seconds: a finite positive number (not nan, not inf)."""
    if value is not None and not (math.isfinite(value) and value > 0):
        raise SweepError("%s expects a positive number of seconds, found %s" % (option, value))


# -- command line ---------------------------------------------------------------------------
def parser_run():
    p = argparse.ArgumentParser(prog="vp-sweep", description="Design-space sweeps of vp-run.",
                                epilog="Exit codes: 0 every point done, 2 bad input, 3 a point failed, timed out, "
                                       "was killed or did not run, 1 internal error. Also: vp-sweep merge DIR.")
    p.add_argument("files", nargs="*", metavar="CONFIG [WORKLOAD]", help="platform YAML and workload (or give "
                   "them in a sweep file, or sweep them with --param config=... / workload=...)")
    p.add_argument("--file", "-f", help="YAML (or JSON) sweep file")
    p.add_argument("--param", "-p", action="append", default=[], metavar="KEY=VALUES",
                   help="one axis of the product: v1,v2 (list values in brackets: [[0,0]],[[1,0]]) or a range "
                   "START:END[:STEP|:xFACTOR]; KEY may be config or workload")
    p.add_argument("--zip", action="append", nargs="+", default=[], metavar="KEY=VALUES",
                   help="keys that vary together (the i-th values of each form one point)")
    p.add_argument("--set", "-s", action="append", default=[], metavar="KEY=VALUE",
                   help="fixed override for every point")
    p.add_argument("--out", "-o", default="sweep-out", help="sweep folder (default: sweep-out)")
    p.add_argument("--backend", "-b", choices=("local", "parallel", "slurm"), default="local")
    p.add_argument("-j", "--jobs", type=int, help="points at once (local: default the CPU count; "
                   "slurm: the array throttle %%N, default none)")
    p.add_argument("--point-timeout", type=float, metavar="S", help="kill a point after S seconds (state timeout)")
    p.add_argument("--retry-failed", action="store_true", help="also rerun failed and timed-out points")
    p.add_argument("--allow-unused", action="store_true",
                   help="accept keys the platform does not read (passed to vp-run)")
    p.add_argument("--dry-run", action="store_true", help="check and list the points, run nothing")
    p.add_argument("--vp-run", help="vp-run to use (default: $VP_RUN, else next to vp-sweep, "
                   "build/platform, PATH; a named one that is not there is an error)")
    p.add_argument("--version", action="store_true", help="print the version of the vp-run it would use, and its path")
    g = p.add_argument_group("parallel backend")
    g.add_argument("--sshloginfile", help="passed to GNU parallel (hosts that share the sweep folder)")
    g = p.add_argument_group("slurm backend")
    for name in slurm.PASSTHROUGH:
        g.add_argument("--" + name.replace("_", "-"), help="passed to sbatch")
    g.add_argument("--sbatch-arg", action="append", metavar="ARG", help="any other sbatch option (repeatable)")
    g.add_argument("--points-per-task", type=int, help="points run one after another by each array task "
                   "(default 1, more when the array would exceed MaxArraySize)")
    g.add_argument("--wait", action="store_true", help="wait for the jobs, then print the counts")
    return p


def split_extra(argv):
    if "--" in argv:
        i = argv.index("--")
        return argv[:i], argv[i + 1:]
    return argv, []


def build_space(a, extra, vp_run):
    space = Space()
    if a.file:
        space_from_file(space, load_sweep_file(find_file(a.file, vp_run, "sweep file")), a.file)
        check_vp_run_args(space.args, "%s: args: " % a.file)
    if len(a.files) > 2:
        raise SweepError("expected CONFIG [WORKLOAD], found %d positional arguments: %s"
                         % (len(a.files), " ".join(a.files)))
    for (k, what), f in zip(((CONFIG, "CONFIG"), (WORKLOAD, "WORKLOAD")), a.files):
        space.add_param(k, [f], what)
    for s in a.set:
        k, v = parse_assignment(s, "--set")
        space.add_fixed(k, v, "--set %s" % k)
    for s in a.param:
        k, v = parse_assignment(s, "--param")
        space.add_param(k, parse_values(v, "--param %s" % k), "--param %s" % k)
    for group in a.zip:
        cols = []
        for s in group:
            k, v = parse_assignment(s, "--zip")
            cols.append((k, parse_values(v, "--zip %s" % k)))
        space.add_zip(cols, "--zip")
    check_vp_run_args(extra, "")
    space.args.extend(extra)
    keys = space.keys()
    for k, what in ((CONFIG, "CONFIG"), (WORKLOAD, "WORKLOAD")):
        if k not in keys:
            raise SweepError("no %s: give CONFIG WORKLOAD, a sweep file with \"%s:\", or --param %s=...%s"
                             % (what, k, k, sweep_file_hint(a)))
    return space


def sweep_file_hint(a):
    """A lone positional argument that reads like a sweep file (top-level params:, zip: or
    workload:) was probably meant as --file."""
    if a.file or len(a.files) != 1:
        return ""
    try:
        with open(a.files[0], encoding="utf-8", errors="replace") as f:
            head = f.read(65536)
    except OSError:
        return ""
    if any(line.startswith(("params:", "zip:", "workload:")) for line in head.splitlines()):
        return "; %s looks like a sweep file: give it with --file %s" % (a.files[0], a.files[0])
    return ""


def plan(space, vp_run, flags):
    """The points of the product, in product order; each point's config and workload are
    taken from its own values."""
    found, points, ids = {}, [], {}
    varied = {k for ax in space.axes if len(ax.rows) > 1 for k in ax.keys}
    for combo in space.product():
        d = dict(combo)
        for k, what in ((CONFIG, "config"), (WORKLOAD, "workload")):
            if d[k] not in found:
                found[d[k]] = find_file(d[k], vp_run, what)
        params = [(k, v) for k, v in combo if k not in (CONFIG, WORKLOAD)]
        p = Point(params, d[CONFIG], d[WORKLOAD], found[d[CONFIG]], found[d[WORKLOAD]],
                  space.fixed + params, space.args, flags)
        p.label = [(k, os.path.basename(v) if k in (CONFIG, WORKLOAD) else v) for k, v in combo if k in varied]
        if p.id in ids:
            raise SweepError("two points resolve to the same parameters (%s) and (%s)"
                             % (ids[p.id].describe(), p.describe()))
        ids[p.id] = p
        points.append(p)
    return points


def check_points(points, vp_run, jobs):
    """vp-run --check-inputs for every point: bad input (an unknown key, a key the platform does not
    read, a bad value, a workload the platform does not run) stops the sweep before it runs. A
    layer that does not fit a point's memories is not bad input but the result of that design
    point (--check-inputs leaves it out): the point runs and is recorded as failed."""

    def one(p):
        cmd = [vp_run, p.config_path, p.workload_path, "--check-inputs", "--quiet"]
        for k, v in p.sets:
            cmd += ["--set", "%s=%s" % (k, v)]
        cmd += p.args + p.flags
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
        msg = " ".join(l.strip() for l in r.stderr.splitlines() if l.strip())
        return p, r.returncode, msg.replace("vp-run: ", "", 1)

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        bad = [(p, rc, m) for p, rc, m in pool.map(one, points) if rc != 0]
    if bad:
        errors = {}
        for p, rc, m in bad:
            errors.setdefault(m, []).append(p)
        lines = []
        for m, ps in list(errors.items())[:5]:
            more = len(ps) - 1
            lines.append("  %s%s: %s" % (ps[0].describe(), " (and %d more point%s)" % (more, "s"[:more > 1])
                                         if more else "", m))
        raise SweepError("%d of %d points have bad input, nothing was run:\n%s"
                         % (len(bad), len(points), "\n".join(lines)))


def needs_run(state, retry_failed):
    return state in (NOT_RUN, KILLED) or (retry_failed and state in (FAILED, TIMEOUT))


def task_command(sweep, vp_run):
    return [sys.executable, this_script(), "task", sweep.root, "--vp-run", vp_run]


def cmd_run(argv):
    argv, extra = split_extra(argv)
    a = parser_run().parse_intermixed_args(argv)
    if a.version:
        vp_run = find_vp_run(a.vp_run)
        r = subprocess.run([vp_run, "--version"], capture_output=True, text=True)
        if r.returncode != 0 or not r.stdout.strip():
            raise SweepError("%s --version failed (exit %d): %s" % (vp_run, r.returncode, r.stderr.strip()))
        print("vp-sweep, running %s: %s" % (vp_run, r.stdout.strip()))
        return 0
    if a.jobs is not None and a.jobs < 1:
        raise SweepError("-j expects a positive integer")
    if a.points_per_task is not None and a.points_per_task < 1:
        raise SweepError("--points-per-task expects a positive integer")
    check_timeout(a.point_timeout, "--point-timeout")
    if os.path.exists(a.out) and not os.path.isdir(a.out):
        raise SweepError("--out %s: exists and is not a folder (give a folder path)" % a.out)
    vp_run = find_vp_run(a.vp_run)
    space = build_space(a, extra, vp_run)
    # --allow-unused changes what vp-run accepts, not what a point runs: not part of the id.
    points = plan(space, vp_run, ["--allow-unused"] if a.allow_unused else [])
    sweep = SweepDir(a.out)
    created = not os.path.isdir(sweep.root)
    try:
        locked = a.dry_run or sweep.lock()
    except OSError as e:
        raise SweepError("--out %s: cannot create the sweep folder: %s" % (a.out, e.strerror))
    if not locked:
        raise SweepError("%s: another vp-sweep is running on this folder" % sweep.root)
    if a.backend == "slurm":
        slurm.require_tools()
        if not os.path.isdir(os.path.join(os.path.dirname(os.path.dirname(vp_run)), DATA_SUBDIR)):
            log("note: %s is not an installed vp-run; the compute nodes must see this path (on a cluster, "
                "cmake --install build --prefix SHARED_PREFIX and run SHARED_PREFIX/bin/vp-sweep)" % vp_run)
    active = slurm.active_jobs(sweep)
    if active:
        raise SweepError("%s: Slurm job(s) %s of an earlier submission are still queued or running; wait for "
                         "them or scancel them first" % (sweep.root, ", ".join(active)))
    jobs = a.jobs or (os.cpu_count() or 1)
    states = {p.id: sweep.state(p.id, final=True)[0] for p in points}
    todo = [p for p in points if needs_run(states[p.id], a.retry_failed)]
    try:
        check_points(todo, vp_run, min(jobs, 8))
    except SweepError:
        if created:
            shutil.rmtree(sweep.root, ignore_errors=True)  # bad input leaves no sweep folder behind
        raise
    if a.dry_run:
        for p in points:
            print("%s  %-8s  %s %s %s" % (p.id, states[p.id], p.config, p.workload, p.describe()))
        log("%d points, %d to run (dry run: nothing run)" % (len(points), len(todo)))
        return 0
    columns = [k for k in space.keys() if k not in (CONFIG, WORKLOAD)]
    meta = {"vp_run": vp_run, "columns": columns, "points": len(points),
            "set": [[k, v] for k, v in space.fixed], "args": space.args, "allow_unused": a.allow_unused}
    sweep.write_definition(meta, columns, points)
    merger = Merger(sweep)
    ids = [p.id for p in todo]
    skipped = len(points) - len(todo)
    kept = sum(1 for p in points if states[p.id] in (FAILED, TIMEOUT) and not a.retry_failed)
    log("%d points, %d to run, %d skipped (%d done%s), %s backend, into %s/"
        % (len(points), len(ids), skipped, skipped - kept,
           ", %d failed or timed out: --retry-failed reruns them" % kept if kept else "", a.backend, sweep.root))
    stop = local.StopOnSignal().install()
    if a.backend == "slurm":
        if ids:
            rec = slurm.submit(sweep, ids, argparse.Namespace(jobs=a.jobs, **{
                k: getattr(a, k) for k in slurm.PASSTHROUGH + ("sbatch_arg", "points_per_task", "point_timeout")}),
                task_command(sweep, vp_run), [sys.executable, this_script(), "merge", sweep.root], log)
        else:
            rec = None
        merger.merge(final=rec is None)
        if not a.wait:
            if rec:
                log("sweep.csv is rewritten when the merge job %s runs; `vp-sweep merge %s` shows progress"
                    % (rec["merge_job"], sweep.root))
            return 0
        if rec and not slurm.wait_for([rec["array_job"], rec["merge_job"]], stop.event):
            log("stopped waiting; the jobs go on (scancel %s %s to cancel them)" % (rec["array_job"], rec["merge_job"]))
            return 128 + stop.signum
    elif ids:
        if a.backend == "parallel":
            local.run_parallel(sweep, ids, jobs, a.point_timeout, task_command(sweep, vp_run), merger, stop,
                               a.sshloginfile)
        else:
            local.run_local(sweep, ids, jobs, vp_run, a.point_timeout, merger, stop)
    counts = merger.merge(final=True)
    ran = sum(1 for pid in ids if sweep.state(pid, final=True)[0] != NOT_RUN)
    log("%s; results in %s" % (summary_line(counts, ran, skipped), sweep.path("sweep.csv")))
    if stop.signum:
        return 128 + stop.signum
    return exit_code(counts)


def cmd_merge(argv):
    p = argparse.ArgumentParser(prog="vp-sweep merge", description="Rewrite DIR/sweep.csv and print the counts.")
    p.add_argument("dir")
    p.add_argument("--final", action="store_true", help="no point can still be running (points that started "
                   "and did not finish are recorded as killed)")
    a = p.parse_args(argv)
    sweep = SweepDir(a.dir)
    try:
        sweep.read_definition()
    except OSError as e:
        raise SweepError("%s: %s" % (a.dir, e.strerror))
    final = a.final
    if not final:
        try:
            final = not sweep.locked_by_other() and not slurm.active_jobs(sweep, include_merge=False)
        except SweepError as e:
            log("note: %s; points that started and have no result are shown as running (--final: killed)" % e)
    counts = Merger(sweep).merge(final)
    log("%s; results in %s" % (summary_line(counts), sweep.path("sweep.csv")))
    return exit_code(counts) if final else 0


def cmd_task(argv):
    p = argparse.ArgumentParser(prog="vp-sweep task", description="Run points of a sweep one after another "
                                "(what the Slurm and parallel backends run).")
    p.add_argument("dir")
    p.add_argument("--list", help="file with one point id per line")
    p.add_argument("--point", action="append", default=[], help="point id (repeatable)")
    p.add_argument("--point-timeout", type=float)
    p.add_argument("--vp-run")
    a = p.parse_args(argv)
    check_timeout(a.point_timeout, "--point-timeout")
    sweep = SweepDir(a.dir)
    try:
        meta, _, _ = sweep.read_definition()
    except OSError as e:
        raise SweepError("%s: %s" % (a.dir, e.strerror))
    ids = list(a.point)
    if a.list:
        try:
            with open(a.list, encoding="utf-8") as f:
                ids += [l.strip() for l in f if l.strip()]
        except OSError as e:
            raise SweepError("--list %s: %s" % (a.list, e.strerror))
        except UnicodeDecodeError:
            raise SweepError("--list %s: not UTF-8 text (expected one point id per line)" % a.list)
    for pid in ids:
        try:
            sweep.read_point(pid)
        except OSError:
            raise SweepError("point %s: not a point of the sweep in %s (no readable point.json)" % (pid, sweep.root))
    stop = local.StopOnSignal().install()
    runner = PointRunner(sweep, a.vp_run or meta["vp_run"], a.point_timeout, stop.event)
    states = []
    for pid in ids:
        if sweep.state(pid, final=False)[0] == DONE:
            states.append(DONE)  # resubmitted while an earlier run finished it
            continue
        state = runner.run(pid)
        states.append(state)
        if state != NOT_RUN:
            st = sweep.status(pid) or {}
            log("%s %s: %s%s" % (pid, local.describe(sweep, pid), state,
                                  " (%s)" % st["error"] if st.get("error") else ""))
    if stop.signum:
        return 128 + stop.signum
    return 0 if all(s == DONE for s in states) else 3


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    try:
        if argv and argv[0] == "merge":
            return cmd_merge(argv[1:])
        if argv and argv[0] == "task":
            return cmd_task(argv[1:])
        return cmd_run(argv)
    except SweepError as e:
        sys.stderr.write("vp-sweep: error: %s\n" % e)
        return 2
    except KeyboardInterrupt:
        return 130
