"""What the host tests of tools/bench share: tools/bench on the import
path, and check()/close() counting failures under the test's label."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)),
                                "..", "..", "tools", "bench"))


class Checks:
    def __init__(self, label):
        self.label = label
        self.failures = 0

    def check(self, cond, what):
        if not cond:
            self.failures += 1
            print(f"FAIL {self.label}: {what}")

    def close(self, a, b, what):
        """a equals b but for float rounding (a None is a failure)."""
        self.check(a is not None and abs(a - b) < 1e-6, f"{what}: {a} != {b}")
