# Shared by the vp-sweep tests (sourced): reading sweep.csv files, finding processes.
# no_wall CSV: the file without its wall-time column (the one column allowed to differ
#   between backends and machines).
# col CSV COLUMN KEYCOL KEY: the values of COLUMN in the rows whose KEYCOL equals KEY.
no_wall() {
  /usr/bin/python3 -c 'import csv, sys
r = list(csv.reader(open(sys.argv[1]))); i = r[0].index("wall_s")
w = csv.writer(sys.stdout, lineterminator="\n")
for x in r: w.writerow(x[:i] + x[i + 1:])' "$1"
}
col() {
  /usr/bin/python3 -c 'import csv, sys
path, column, keycol, key = sys.argv[1:5]
for r in csv.DictReader(open(path)):
    if r[keycol] == key: print(r[column])' "$@"
}
# running_with STR: succeeds when a process (other than this check) has STR in its command
#   line (reads /proc: pgrep is not on a minimal Debian).
running_with() {
  /usr/bin/python3 -c 'import os, sys
me = os.getpid()
for p in os.listdir("/proc"):
    if p.isdigit() and int(p) != me:
        try:
            cmd = open("/proc/%s/cmdline" % p, "rb").read().replace(b"\0", b" ").decode("utf-8", "replace")
        except OSError:
            continue
        if sys.argv[1] in cmd:
            sys.exit(0)
sys.exit(1)' "$1"
}
