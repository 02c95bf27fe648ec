"""Merges the points of a sweep into OUT/sweep.csv: one row per point of points.csv, in
that order, with the swept values, the point's state, exit code and error, its wall time,
and every statistic of its stats.csv (the union of the columns, in first-seen order).

Only `wall_s` depends on the machine and the backend; every other column is the same
whichever backend ran the points."""

import csv
import io
import os

from .layout import DONE, STATES, write_atomic

WALL_COLUMNS = ("wall_s",)


class Merger:
    def __init__(self, sweep):
        self.sweep = sweep
        self._stats = {}   # id -> (mtime, header, row): stats.csv files do not change once written

    def _read_stats(self, pid):
        path = os.path.join(self.sweep.point_dir(pid), "run", "stats.csv")
        try:
            mtime = os.stat(path).st_mtime_ns
        except OSError:
            return [], []
        cached = self._stats.get(pid)
        if cached and cached[0] == mtime:
            return cached[1], cached[2]
        with open(path, encoding="utf-8", newline="") as f:
            rows = list(csv.reader(f))
        header, row = (rows[0], rows[1]) if len(rows) >= 2 else ([], [])
        self._stats[pid] = (mtime, header, row)
        return header, row

    def merge(self, final):
        """Rewrites sweep.csv; returns {state: count} over the points of the sweep."""
        _, head, rows = self.sweep.read_definition()
        params = head[1:]                      # config_file, workload_file, swept keys
        counts = {s: 0 for s in STATES}
        stat_cols, seen, records = [], set(params) | {"point", "state", "exit_code", "error"}, []
        for r in rows:
            pid = r[0]
            state, st = self.sweep.state(pid, final)
            counts[state] += 1
            st = st or {}
            stats = {}
            if state == DONE:
                header, row = self._read_stats(pid)
                for k, v in zip(header, row):
                    if k in seen and k not in stats and k not in stat_cols:
                        k = k + " (stat)"      # a statistic named like a parameter column
                    if k not in seen:
                        seen.add(k)
                        stat_cols.append(k)
                    stats[k] = v
            rc = st.get("exit_code")
            wall = st.get("wall_s")
            records.append(r + [state, "" if rc is None else str(rc), st.get("error", ""),
                                "" if wall is None else "%.3f" % wall, stats])
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["point"] + params + ["state", "exit_code", "error"] + list(WALL_COLUMNS) + stat_cols)
        for rec in records:
            stats = rec.pop()
            w.writerow(rec + [stats.get(c, "") for c in stat_cols])
        write_atomic(self.sweep.path("sweep.csv"), buf.getvalue())
        return counts


def summary_line(counts, ran=None, skipped=None):
    total = sum(counts.values())
    parts = ["%d done" % counts["done"], "%d failed" % counts["failed"],
             "%d timed out" % counts["timeout"], "%d killed" % counts["killed"]]
    if counts["running"]:
        parts.append("%d running" % counts["running"])
    parts.append("%d not run" % counts["not run"])
    line = "%d points: %s" % (total, ", ".join(parts))
    if ran is not None:
        line += " (%d run now, %d skipped)" % (ran, skipped)
    return line


def exit_code(counts):
    """0 when every point is done, 3 when a point failed, timed out, was killed or did not run."""
    return 0 if counts["done"] == sum(counts.values()) else 3
