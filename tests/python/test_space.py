"""Pure-logic tests of vp-sweep's parameter space and point identity (vp-report's Pareto front
is tested in tests/unit/report)."""
import os
import tempfile
import unittest

from vpsweep import space
from vpsweep.layout import Point
from vpsweep.space import Space, SweepError


class Values(unittest.TestCase):
    def test_split_keeps_list_values_whole(self):
        self.assertEqual(space.split_values("[[2,0]],[[3,0]]", "t"), ["[[2,0]]", "[[3,0]]"])
        self.assertEqual(space.split_values("a, b ,{x: 1, y: 2}", "t"), ["a", "b", "{x: 1, y: 2}"])
        self.assertEqual(space.split_values('"a,b",c', "t"), ['"a,b"', "c"])

    def test_split_errors(self):
        for bad in ("[1,2", "a]", "a,,b", ",a", '"a'):
            with self.assertRaises(SweepError):
                space.split_values(bad, "t")

    def test_ranges(self):
        r = space.expand_range
        self.assertEqual(r("1:64:x2", "t"), ["1", "2", "4", "8", "16", "32", "64"])
        self.assertEqual(r("1:100:x3", "t"), ["1", "3", "9", "27", "81"])
        self.assertEqual(r("0:10:5", "t"), ["0", "5", "10"])
        self.assertEqual(r("10:0:-4", "t"), ["10", "6", "2"])
        self.assertEqual(r("1:4", "t"), ["1", "2", "3", "4"])
        self.assertEqual(r("0.1:0.5:0.1", "t"), ["0.1", "0.2", "0.3", "0.4", "0.5"])
        self.assertIsNone(r("ddr3-1600", "t"))
        self.assertIsNone(r("[1,2]", "t"))
        for bad in ("1:64:x1", "0:8:x2", "8:1:x2", "0:10:0", "0:10:-1", "0:1000000000"):
            with self.assertRaises(SweepError, msg=bad):
                r(bad, "t")

    def test_parse_values_mixes_items_and_ranges(self):
        self.assertEqual(space.parse_values("1:4:x2,16,fcfs", "t"), ["1", "2", "4", "16", "fcfs"])

    def test_format_value_for_set(self):
        f = space.format_value
        self.assertEqual(f(True, "t"), "true")
        self.assertEqual(f(4, "t"), "4")
        self.assertEqual(f(0.25, "t"), "0.25")
        self.assertEqual(f([[0, 0], [7, 7]], "t"), "[[0,0],[7,7]]")
        self.assertEqual(f(["dram.*", "a b", "x_1"], "t"), '["dram.*","a b",x_1]')


class Product(unittest.TestCase):
    def test_first_axis_varies_slowest_and_zip_pairs(self):
        s = Space()
        s.add_param("a", ["1", "2"], "t")
        s.add_zip([("b", ["x", "y"]), ("c", ["X", "Y"])], "t")
        self.assertEqual(s.product(), [
            [("a", "1"), ("b", "x"), ("c", "X")], [("a", "1"), ("b", "y"), ("c", "Y")],
            [("a", "2"), ("b", "x"), ("c", "X")], [("a", "2"), ("b", "y"), ("c", "Y")]])

    def test_errors(self):
        s = Space()
        s.add_param("a", ["1"], "t")
        with self.assertRaises(SweepError):
            s.add_param("a", ["2"], "t")          # twice
        with self.assertRaises(SweepError):
            s.add_fixed("a", "2", "t")
        with self.assertRaises(SweepError):
            s.add_zip([("b", ["1", "2"]), ("c", ["1"])], "t")   # unequal lengths
        with self.assertRaises(SweepError):
            s.add_param("not a key", ["1"], "t")

    def test_product_size_is_bounded(self):
        # Each axis is within the range bound, their product is not: refused before any point
        # is built (it would otherwise plan 10^10 points and never return).
        s = Space()
        s.add_param("a", space.expand_range("1:100000", "t"), "t")
        s.add_param("b", space.expand_range("1:100000", "t"), "t")
        with self.assertRaises(SweepError) as e:
            s.product()
        self.assertIn("10000000000 points (a: 100000 x b: 100000)", str(e.exception))
        s = Space()
        s.add_param("a", space.expand_range("1:1000", "t"), "t")
        s.add_param("b", space.expand_range("1:100", "t"), "t")
        self.assertEqual(len(s.product()), space.MAX_POINTS)


class Identity(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.cfg = os.path.join(self.dir.name, "c.yaml")
        self.wl = os.path.join(self.dir.name, "w.json")
        with open(self.cfg, "w") as f:
            f.write("platform: dram\n")
        with open(self.wl, "w") as f:
            f.write("{}\n")

    def tearDown(self):
        self.dir.cleanup()

    def point(self, sets, cfg=None, args=()):
        return Point(sets, "c", "w", cfg or self.cfg, self.wl, sets, args)

    def test_id_depends_on_values_not_their_order(self):
        a = self.point([("dram.scheduler", "fcfs"), ("dram.queue_depth", "8")])
        b = self.point([("dram.queue_depth", "8"), ("dram.scheduler", "fcfs")])
        c = self.point([("dram.scheduler", "frfcfs"), ("dram.queue_depth", "8")])
        self.assertEqual(a.id, b.id)
        self.assertNotEqual(a.id, c.id)
        self.assertNotEqual(a.id, self.point(a.params, args=["--seed", "2"]).id)

    def test_id_depends_on_file_contents_not_paths(self):
        other = os.path.join(self.dir.name, "copy.yaml")
        with open(other, "w") as f:
            f.write("platform: dram\n")
        self.assertEqual(self.point([]).id, self.point([], cfg=other).id)
        changed = os.path.join(self.dir.name, "changed.yaml")
        with open(changed, "w") as f:
            f.write("platform: dram\nseed: 2\n")
        self.assertNotEqual(self.point([]).id, self.point([], cfg=changed).id)


class SweepFile(unittest.TestCase):
    """Bad sweep files are SweepErrors (exit 2) naming the file, the line and the key."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.dir.cleanup()

    def write(self, name, data):
        path = os.path.join(self.dir.name, name)
        with open(path, "wb") as f:
            f.write(data.encode("utf-8") if isinstance(data, str) else data)
        return path

    def error(self, name, data):
        path = self.write(name, data)
        with self.assertRaises(SweepError) as cm:
            space.load_sweep_file(path)
        msg = str(cm.exception)
        self.assertIn(path, msg)
        return msg

    def test_good_file(self):
        doc = space.load_sweep_file(self.write("s.yaml", "config: c.yaml\nparams:\n  a.b: [1, 2]\n"))
        self.assertEqual(doc, {"config": "c.yaml", "params": {"a.b": ["1", "2"]}})
        doc = space.load_sweep_file(self.write("s.json", '\ufeff{"config": "c.yaml", "params": {"a.b": [1, 0.5]}}'))
        self.assertEqual(doc, {"config": "c.yaml", "params": {"a.b": [1, 0.5]}})
        # An alias used twice is not a duplicate.
        doc = space.load_sweep_file(self.write("a.yaml", "set: &s {a.b: 1}\nparams: {x.y: [*s, *s]}\n"))
        self.assertEqual(doc["params"]["x.y"], [{"a.b": "1"}, {"a.b": "1"}])

    def test_not_utf8(self):
        msg = self.error("s.yaml", b"config: c.yaml\nworkload: caf\xe9.json\n")
        self.assertIn("s.yaml:2: not UTF-8 text (byte 0xe9", msg)
        self.assertIn("not UTF-8", self.error("s.json", b'\xff\xfe{\x00}\x00'))  # UTF-16

    def test_duplicate_keys_at_every_level(self):
        cases = [
            ("config: a\nconfig: b\n", 'top level: duplicate key "config" (first on line 1, again on line 2)', 2),
            ("params:\n  a.b: [1]\n  a.b: [2]\n", 'params: duplicate key "a.b" (first on line 2, again on line 3)', 3),
            ("set: {a.b: 1, a.b: 2}\n", 'set: duplicate key "a.b"', 1),
            ("zip:\n  - {a.b: [1], c.d: [2]}\n  - a.b: [1]\n    a.b: [2]\n", 'zip[1]: duplicate key "a.b"', 4),
            ("params:\n  a.b: [{x: 1, x: 2}]\n", 'params.a.b[0]: duplicate key "x"', 2),
        ]
        for text, want, line in cases:
            msg = self.error("d.yaml", text)
            self.assertIn("d.yaml:%d: %s" % (line, want), msg)
        msg = self.error("d.json", '{"params": {"a.b": [1],\n  "a.b": [2]}}')
        self.assertIn('d.json:2: duplicate key "a.b" (first on line 1, again on line 2)', msg)
        msg = self.error("d.json", '{"params": {"a.b": [{"x": 1, "x": 2}]}}')
        self.assertIn('duplicate key "x"', msg)

    def test_json_non_finite_numbers(self):
        for text in ('{"params": {"a.b": [NaN]}}', '{"params": {"a.b": [Infinity]}}', '{"params": {"a.b": [-Infinity]}}',
                     '{"params": {"a.b": [1e999]}}'):
            self.error("n.json", text)

    def test_aliases(self):
        self.assertIn("recursive alias", self.error("r.yaml", "params:\n  a.b: &a [1, *a]\n"))
        laughs = "a: &a [x,x,x,x,x,x,x,x,x,x]\n" + "".join(
            "%s: &%s [%s]\n" % (n, n, ",".join(["*" + p] * 10)) for p, n in zip("abcdef", "bcdefg"))
        self.assertIn("aliases are expanded", self.error("l.yaml", laughs))
        self.assertIn("nested too deeply", self.error("deep.yaml", "params: " + "[" * 500 + "]" * 500 + "\n"))
        self.assertIn("nested too deeply", self.error("deep.json", '{"params": ' + "[" * 5000 + "]" * 5000 + "}"))

    def test_args_items_are_scalars(self):
        with self.assertRaises(SweepError):
            space.space_from_file(Space(), {"args": [["--seed", "3"]]}, "f.yaml")


class Options(unittest.TestCase):
    def test_point_timeout_is_finite_and_positive(self):
        from vpsweep import cli
        for bad in (float("nan"), float("inf"), float("-inf"), 0.0, -1.0):
            with self.assertRaises(SweepError, msg=bad):
                cli.check_timeout(bad, "--point-timeout")
        cli.check_timeout(None, "--point-timeout")
        cli.check_timeout(0.5, "--point-timeout")

    def test_vp_run_args_that_vp_sweep_sets(self):
        from vpsweep import cli
        for bad in (["--out", "x"], ["--out=x"], ["--ou", "x"], ["-o", "x"], ["-ox"], ["-qo", "x"], ["--set", "a=1"],
                    ["-sa.b=1"], ["--quiet"], ["--check"], ["--allow-unused"], ["--help"], ["-h"], ["--vers"]):
            with self.assertRaises(SweepError, msg=bad) as cm:
                cli.check_vp_run_args(bad, "f.yaml: args: ")
            self.assertTrue(str(cm.exception).startswith("f.yaml: args: vp-run argument " + bad[0]))
        cli.check_vp_run_args(["--seed", "3", "--refine", "2", "--trace", "-1"], "")

    def test_find_file_refuses_folders(self):
        from vpsweep import cli
        with tempfile.TemporaryDirectory() as d:
            with self.assertRaises(SweepError) as cm:
                cli.find_file(d, os.path.join(d, "bin", "vp-run"), "sweep file")
            self.assertIn("is a folder", str(cm.exception))


if __name__ == "__main__":
    unittest.main()
