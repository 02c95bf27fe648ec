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


if __name__ == "__main__":
    unittest.main()
