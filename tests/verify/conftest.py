"""A small good package built from scratch in tmp: ``split`` (write n as a sum of two positive
integers). It has several valid answers, so the checker audit has alternatives to accept.

``make_split_package(root)`` writes the package and its judge answers (made by its reference, as
``judge problem generate`` does) and returns its folder. Tests break copies of it on purpose.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from judge.generate import generate
from tests.slots import slot

VERIFY_SLOT = slot(51)  # a sandbox slot of its own: test_shipped_packages takes 50, e2e tests 40

INPUT_VALIDATOR = r"""
import re, sys
data = sys.stdin.buffer.read()
if not re.fullmatch(rb"[1-9][0-9]{0,9}\n", data) or not 2 <= int(data) <= 10**9:
    print("expected one line with n, 2 <= n <= 10^9", file=sys.stderr)
    sys.exit(43)
sys.exit(42)
"""

CHECKER = r"""
import os, re, sys
n = int(open(sys.argv[1]).read())
tokens = sys.stdin.buffer.read().split()

def verdict(code, message):
    with open(os.path.join(sys.argv[3], "judgemessage.txt"), "w") as feedback:
        feedback.write(message + "\n")
    sys.exit(code)

if len(tokens) != 2 or not all(re.fullmatch(rb"[0-9]{1,10}", t) for t in tokens):
    verdict(43, "expected two positive integers")
a, b = map(int, tokens)
if a < 1 or b < 1:
    verdict(43, "both parts must be positive")
if a + b != n:
    verdict(43, f"{a} + {b} is not {n}")
verdict(42, "a valid split")
"""

REFERENCE = "n = int(input())\nprint(1, n - 1)\n"
HALVES = "n = int(input())\nprint(n // 2, n - n // 2)\n"
ZERO_PART = "n = int(input())\nprint(0, n)\n"

MUTATIONS = """
def wrong_answers(input_text, answer_text):
    n = int(input_text)
    return [("a zero part", f"0 {n}\\n"), ("sum one too big", f"1 {n}\\n")]

def alternative_answers(input_text, answer_text):
    n = int(input_text)
    return [f"{n - 1} 1\\n", f"{n // 2} {n - n // 2}\\n"]
"""

FILES = {
    "problem.yaml": "name: Split a number\nvalidation: custom\nlimits:\n  time_limit: 1\n  memory: 128\n",
    "statement/problem.en.md": "# Split a number\n\nWrite n as a + b with a, b >= 1.\n",
    "data/sample/01.in": "5\n",
    "data/secret/01-smallest.in": "2\n",
    "data/secret/02-largest.in": "1000000000\n",
    "input_validators/validate/validate.py": INPUT_VALIDATOR,
    "output_validators/check/check.py": CHECKER,
    "generators/mutations.py": MUTATIONS,
    "submissions/accepted/reference.py": REFERENCE,
    "submissions/accepted/halves.py": HALVES,
    "submissions/wrong_answer/zero_part.py": ZERO_PART,
}


def make_split_package(root: Path) -> Path:
    """Write the ``split`` package under ``root`` with its judge answers; return its folder."""
    package = root / "split"
    for name, text in FILES.items():
        path = package / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"))
    generate(package)
    return package


@pytest.fixture
def split_package(tmp_path) -> Path:
    """A fresh, good ``split`` package in tmp."""
    return make_split_package(tmp_path)
