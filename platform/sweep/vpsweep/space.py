"""The parameter space of a sweep: value lists, ranges, cartesian products, zipped
parameters, and YAML/JSON sweep files. Everything here is pure logic on strings; the
values are passed to vp-run as `--set key=value`, which parses them as YAML."""

import json
import json.decoder
import json.scanner
import re
from decimal import Decimal, InvalidOperation

# The two parameters that are not configuration keys: the files of a point.
CONFIG = "config"
WORKLOAD = "workload"

KEY_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")
NUM = r"-?(?:\d+(?:\.\d*)?|\.\d+)"
RANGE_RE = re.compile(r"^(%s):(%s)(?::([x*]?)(%s))?$" % (NUM, NUM, NUM))
MAX_RANGE_VALUES = 100000  # a typo such as 1:1000000 should not plan a million points
MAX_POINTS = 100000  # the same bound on the product of all axes (two ranges of 10^5 would be 10^10)
PLAIN_SCALAR_RE = re.compile(r"^[A-Za-z0-9_.+\-/]+$")


class SweepError(Exception):
    """Bad sweep input: the message names the option or file and what was expected (exit 2)."""


def split_values(text, where):
    """Splits "a,b,[1,2],{x: 1}" at the commas outside brackets, braces and quotes, so that
    list-valued keys can be swept: "mesh.cores=[[2,0]],[[3,0]]" gives two values."""
    items, cur, depth, quote = [], [], 0, None
    for ch in text:
        if quote:
            cur.append(ch)
            if ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
            cur.append(ch)
        elif ch in "[{":
            depth += 1
            cur.append(ch)
        elif ch in "]}":
            depth -= 1
            if depth < 0:
                raise SweepError("%s: unbalanced \"%s\" in \"%s\"" % (where, ch, text))
            cur.append(ch)
        elif ch == "," and depth == 0:
            items.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if depth != 0 or quote:
        raise SweepError("%s: unbalanced brackets or quotes in \"%s\"" % (where, text))
    items.append("".join(cur).strip())
    if any(v == "" for v in items):
        raise SweepError("%s: empty value in \"%s\" (expected v1,v2,...)" % (where, text))
    return items


def _fmt(d, integral):
    if integral:
        return str(int(d))
    s = format(d, "f")
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    return s if s not in ("", "-0") else "0"


def expand_range(item, where):
    """"START:END[:STEP]" with STEP = N (add N) or xN (multiply by N); END is included when
    the steps reach it exactly. Returns None when the item is not a range."""
    m = RANGE_RE.match(item)
    if not m:
        return None
    try:
        start, end = Decimal(m.group(1)), Decimal(m.group(2))
        geometric = m.group(3) in ("x", "*")
        step = Decimal(m.group(4)) if m.group(4) is not None else Decimal(1)
    except InvalidOperation:
        raise SweepError("%s: bad range \"%s\"" % (where, item))
    integral = all(x == x.to_integral_value() and "." not in s
                   for x, s in ((start, m.group(1)), (end, m.group(2)),
                                (step, m.group(4) or "1")))
    values = []
    if geometric:
        if start <= 0 or end < start or step <= 1:
            raise SweepError("%s: range \"%s\": a geometric range START:END:xN needs "
                             "0 < START <= END and N > 1" % (where, item))
        x = start
        while x <= end:
            values.append(x)
            x *= step
            if len(values) > MAX_RANGE_VALUES:
                break
    else:
        if step == 0 or (end - start) * step < 0:
            raise SweepError("%s: range \"%s\": the step must be non-zero and go from START "
                             "towards END" % (where, item))
        n = int((end - start) / step) + 1
        if n > MAX_RANGE_VALUES:
            raise SweepError("%s: range \"%s\" has %d values (at most %d)"
                             % (where, item, n, MAX_RANGE_VALUES))
        values = [start + i * step for i in range(n)]
    if len(values) > MAX_RANGE_VALUES:
        raise SweepError("%s: range \"%s\" has more than %d values" % (where, item, MAX_RANGE_VALUES))
    return [_fmt(v, integral) for v in values]


def parse_values(text, where):
    """A command-line value list: comma-separated values, each possibly a range."""
    out = []
    for item in split_values(text, where):
        r = expand_range(item, where)
        out.extend(r if r is not None else [item])
    return out


def format_value(v, where):
    """A value read from a sweep file as vp-run's --set expects it (YAML flow syntax)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return v
    if isinstance(v, list):
        return "[" + ",".join(_flow_item(x, where) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ",".join("%s: %s" % (_flow_item(k, where), _flow_item(x, where))
                              for k, x in v.items()) + "}"
    raise SweepError("%s: unsupported value %r" % (where, v))


def _flow_item(v, where):
    if isinstance(v, str) and not PLAIN_SCALAR_RE.match(v):
        return json.dumps(v)
    return format_value(v, where)


def check_key(key, where):
    if not KEY_RE.match(key):
        raise SweepError("%s: \"%s\" is not a configuration key (expected section.key, "
                         "e.g. dram.scheduler)" % (where, key))


def parse_assignment(text, where):
    """"key=values" -> (key, text after '=')."""
    key, eq, vals = text.partition("=")
    key = key.strip()
    if not eq or not key or vals.strip() == "":
        raise SweepError("%s \"%s\": expected key=v1,v2,..." % (where, text))
    return key, vals


class Axis:
    """One dimension of the product: a single key, or several zipped keys that take their
    i-th values together."""

    def __init__(self, keys, rows, where):
        self.keys, self.rows, self.where = keys, rows, where


class Space:
    """Axes (config and workload are axes too), fixed overrides, extra vp-run arguments."""

    def __init__(self):
        self.axes = []
        self.fixed = []      # [(key, value)] applied to every point
        self.args = []       # extra vp-run arguments, e.g. ["--seed", "3"]

    def keys(self):
        return [k for a in self.axes for k in a.keys]

    def _claim(self, key, where):
        if key in self.keys() or key in [k for k, _ in self.fixed]:
            raise SweepError("%s: \"%s\" is given more than once" % (where, key))

    def add_param(self, key, values, where):
        if key not in (CONFIG, WORKLOAD):
            check_key(key, where)
        self._claim(key, where)
        if not values:
            raise SweepError("%s: \"%s\" has no values" % (where, key))
        self.axes.append(Axis([key], [[v] for v in values], where))

    def add_zip(self, columns, where):
        """columns: [(key, [values])], all of the same length."""
        lengths = {len(v) for _, v in columns}
        if len(lengths) != 1:
            raise SweepError("%s: zipped parameters need the same number of values (%s)"
                             % (where, ", ".join("%s: %d" % (k, len(v)) for k, v in columns)))
        for k, _ in columns:
            if k not in (CONFIG, WORKLOAD):
                check_key(k, where)
            self._claim(k, where)
        n = lengths.pop()
        if n == 0:
            raise SweepError("%s: zipped parameters have no values" % where)
        self.axes.append(Axis([k for k, _ in columns],
                              [[v[i] for _, v in columns] for i in range(n)], where))

    def add_fixed(self, key, value, where):
        check_key(key, where)
        self._claim(key, where)
        self.fixed.append((key, value))

    def product(self):
        """Every point as an ordered list of (key, value): the first axis varies slowest."""
        n = 1
        for a in self.axes:
            n *= len(a.rows)
        if n > MAX_POINTS:
            raise SweepError("the sweep has %d points (%s), at most %d: split it into several sweeps"
                             % (n, " x ".join("%s: %d" % (",".join(a.keys), len(a.rows)) for a in self.axes if len(a.rows) > 1),
                                MAX_POINTS))
        combos = [[]]
        for a in self.axes:
            combos = [c + list(zip(a.keys, row)) for c in combos for row in a.rows]
        return combos


MAX_DEPTH = 100  # nesting levels of a sweep file (a few are needed)
MAX_NODES = 1000000  # values of a sweep file, aliases expanded (a "billion laughs" file)
SWEEP_FILE_KEYS = ("config", "workload", "set", "params", "zip", "args")


def load_sweep_file(path):
    """Reads a YAML (or JSON) sweep file:

        config: configs/mesh-4x4.yaml        # or a list of configs
        workload: [workloads/alexnet.json]   # or a list
        set: {sim.threads: 1}                # fixed overrides
        params:                              # one axis each: a list, or "v1,v2" / "1:64:x2"
          dram.preset: [ddr3-1600, ddr4-2400]
          mesh.cores: [[[2, 0]], [[3, 0]]]   # list-valued key: each item is one value
        zip:                                 # keys that vary together
          - {mesh.width: [4, 8], mesh.height: [4, 8]}
        args: [--seed, 3]                    # extra vp-run arguments

    Scalars are kept as text (no YAML 1.1 typing: "0:10:2" is a range, not a number). The file
    must be UTF-8; a key given twice in a mapping, at any level, is an error (as in vp-run's
    configs), and so are JSON's non-standard NaN and Infinity."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise SweepError("%s: cannot read the sweep file: %s" % (path, e.strerror))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise SweepError("%s:%d: not UTF-8 text (byte 0x%02x at offset %d); expected a YAML or JSON "
                         "sweep file in UTF-8" % (path, line, data[e.start], e.start))
    try:
        if path.endswith(".json"):
            doc = _load_json(text, path)
        else:
            doc = _load_yaml(text, path)
    except RecursionError:
        raise SweepError("%s: nested too deeply" % path)
    if not isinstance(doc, dict):
        raise SweepError("%s: expected a mapping with keys %s" % (path, ", ".join(SWEEP_FILE_KEYS)))
    for k in doc:
        if k not in SWEEP_FILE_KEYS:
            raise SweepError("%s: unknown key \"%s\" (expected one of: %s)"
                             % (path, k, ", ".join(SWEEP_FILE_KEYS)))
    return doc


def _duplicate(path, where, key, first, again):
    return SweepError("%s:%d: %sduplicate key \"%s\" (first on line %d, again on line %d)"
                      % (path, again, "" if where is None else "%s: " % (where or "top level"), key, first, again))


def _load_yaml(text, path):
    try:
        import yaml
    except ImportError:
        raise SweepError("%s: reading YAML sweep files needs PyYAML (Debian: apt-get install "
                         "python3-yaml); a .json sweep file works without it" % path)

    class Loader(yaml.BaseLoader):
        def construct_mapping(self, node, deep=False):
            check(node, "")
            return super().construct_mapping(node, deep)

    def check(node, where):
        """Duplicate keys, named by their path from the top (params.dram.preset)."""
        seen = {}
        for k, v in node.value:
            if not isinstance(k, yaml.ScalarNode):
                continue  # a complex key: refused by the constructor
            line = k.start_mark.line + 1
            if k.value in seen:
                raise _duplicate(path, where, k.value, seen[k.value], line)
            seen[k.value] = line

    sizes, on_path = {}, []

    def walk(node, where):
        """Checks every mapping once and returns the node count once aliases are expanded."""
        if any(n is node for n in on_path):
            raise SweepError("%s:%d: %s: recursive alias (the value contains itself)"
                             % (path, node.start_mark.line + 1, where or "top level"))
        if not isinstance(node, (yaml.MappingNode, yaml.SequenceNode)):
            return 1
        if id(node) in sizes:
            return sizes[id(node)]  # an alias of a node already checked
        if len(on_path) >= MAX_DEPTH:
            raise SweepError("%s:%d: nested too deeply (at most %d levels)" % (path, node.start_mark.line + 1, MAX_DEPTH))
        on_path.append(node)
        n = 1
        if isinstance(node, yaml.MappingNode):
            check(node, where)
            for k, v in node.value:
                if isinstance(k, yaml.ScalarNode):
                    n += 1 + walk(v, "%s.%s" % (where, k.value) if where else k.value)
        else:
            for i, v in enumerate(node.value):
                n += walk(v, "%s[%d]" % (where, i))
        on_path.pop()
        sizes[id(node)] = n
        return n

    loader = Loader(text)
    loader.name = path  # error marks name the file, not "<unicode string>"
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        # Before constructing, so that the message names the key's path.
        if walk(node, "") > MAX_NODES:
            raise SweepError("%s: more than %d values once its aliases are expanded" % (path, MAX_NODES))
        return loader.construct_document(node)
    except yaml.YAMLError as e:
        raise SweepError("%s: YAML syntax error: %s" % (path, e))
    finally:
        loader.dispose()


def _load_json(text, path):
    def line_of(pos):
        return text.count("\n", 0, pos) + 1

    def parse_object(s_and_end, strict, scan_once, object_hook, object_pairs_hook, memo):
        # The pure-Python scanner with the value positions recorded: a duplicate key is named
        # with its line, as for YAML.
        starts = []

        def scan(s, idx):
            starts.append(idx)
            return scan_once(s, idx)

        pairs, end = json.decoder.JSONObject(s_and_end, strict, scan, None, lambda p: p, memo)
        seen = {}
        for (k, _), pos in zip(pairs, starts):
            if k in seen:
                raise _duplicate(path, None, k, line_of(seen[k]), line_of(pos))
            seen[k] = pos
        return dict(pairs), end

    def constant(name):
        raise SweepError("%s: %s is not JSON (expected a number or a string such as \"%s\")"
                         % (path, name, name.lower()))

    def number(s):
        v = float(s)
        if v != v or v in (float("inf"), float("-inf")):
            raise SweepError("%s: number %s is out of range (expected a finite number)" % (path, s))
        return v

    dec = json.JSONDecoder(parse_constant=constant, parse_float=number)
    dec.parse_object = parse_object
    dec.scan_once = json.scanner.py_make_scanner(dec)
    try:
        return dec.decode(text[1:] if text.startswith("\ufeff") else text)  # a UTF-8 BOM, as YAML allows
    except ValueError as e:
        raise SweepError("%s: JSON syntax error: %s" % (path, e))


def file_values(v, where):
    """A sweep-file value list: a list (each item one value, as is), or a scalar parsed
    like the command line (commas and ranges)."""
    if isinstance(v, list):
        if not v:
            raise SweepError("%s: empty list" % where)
        return [format_value(x, where) for x in v]
    if isinstance(v, dict):
        raise SweepError("%s: expected a list of values or \"v1,v2\", found a mapping" % where)
    return parse_values(format_value(v, where), where)


def space_from_file(space, doc, path):
    """Adds the sweep file's axes, fixed overrides and arguments to `space`."""
    for key in (CONFIG, WORKLOAD):
        if key in doc:
            v = doc[key]
            vals = [format_value(x, path) for x in v] if isinstance(v, list) else [format_value(v, path)]
            space.add_param(key, vals, "%s: %s" % (path, key))
    fixed = doc.get("set", {})
    if not isinstance(fixed, dict):
        raise SweepError("%s: set: expected a mapping of key: value" % path)
    for k, v in fixed.items():
        space.add_fixed(k, format_value(v, path), "%s: set.%s" % (path, k))
    params = doc.get("params", {})
    if not isinstance(params, dict):
        raise SweepError("%s: params: expected a mapping of key: values" % path)
    for k, v in params.items():
        where = "%s: params.%s" % (path, k)
        space.add_param(k, file_values(v, where), where)
    zips = doc.get("zip", [])
    if isinstance(zips, dict):
        zips = [zips]
    if not isinstance(zips, list):
        raise SweepError("%s: zip: expected a list of mappings key: values" % path)
    for i, group in enumerate(zips):
        where = "%s: zip[%d]" % (path, i)
        if not isinstance(group, dict) or not group:
            raise SweepError("%s: expected a mapping key: values" % where)
        space.add_zip([(k, file_values(v, "%s.%s" % (where, k))) for k, v in group.items()], where)
    args = doc.get("args", [])
    if not isinstance(args, list):
        raise SweepError("%s: args: expected a list of vp-run arguments" % path)
    for i, a in enumerate(args):
        if isinstance(a, (list, dict)):
            raise SweepError("%s: args[%d]: expected a vp-run argument (a string or number), found a %s"
                             % (path, i, "list" if isinstance(a, list) else "mapping"))
        space.args.append(format_value(a, path))
