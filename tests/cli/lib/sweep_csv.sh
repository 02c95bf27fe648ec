# Shared by the vp-sweep tests (sourced): reading sweep.csv files.
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
