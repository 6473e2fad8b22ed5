"""Similarity of sources (``judge.similarity``, copydetect) on real solutions of ``lee`` and ``lines``:
a renamed and reformatted copy scores high, an independent correct solution scores low, the
problem's template does not count, and the shared regions cut each source exactly."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.similarity import (
    MAX_DOCUMENTS,
    Document,
    TooManySources,
    matching_regions,
    package_template,
    rank_pairs,
)

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).parent / "fixtures"
LEE, LINES = ROOT / "problems/lee/submissions", ROOT / "problems/lines/submissions"
HIGH, LOW = 0.8, 0.3  # a copy finds at least 80% of itself in its original; independent work below 30%

COPIES = [  # (a real solution, a copy with other names, layout and comments)
    ("cpp", LEE / "accepted/bfs.cpp", FIXTURES / "lee_bfs_renamed.cpp"),
    ("cpp", LINES / "accepted/wave.cpp", FIXTURES / "lines_wave_renamed.cpp"),
    ("python3", LEE / "accepted/from_cheese.py", FIXTURES / "lee_from_cheese_renamed.py"),
    ("python3", LINES / "accepted/other_path.py", FIXTURES / "lines_other_path_renamed.py"),
]
INDEPENDENT = [  # two correct solutions of one problem written apart
    ("cpp", LEE / "accepted/bfs.cpp", FIXTURES / "lee_queue_of_pairs.cpp"),
    ("cpp", LINES / "accepted/wave.cpp", FIXTURES / "lines_recursive_marks.cpp"),
    ("python3", LEE / "accepted/from_cheese.py", ROOT / "reference/lee.py"),
    ("python3", LINES / "accepted/other_path.py", ROOT / "reference/lines.py"),
    ("python3", LEE / "accepted/from_cheese.py", FIXTURES / "lee_parent_dict.py"),
]


def score(language: str, first: Path, second: Path, template: tuple[str, ...] = ()) -> float:
    pairs = rank_pairs([Document(1, language, first.read_text()), Document(2, language, second.read_text())], template)
    assert len(pairs) == 1
    return pairs[0].score


@pytest.mark.parametrize(("language", "original", "copy"), COPIES, ids=lambda v: getattr(v, "name", v))
def test_a_renamed_and_reformatted_copy_scores_high(language, original, copy):
    assert score(language, original, copy) >= HIGH


@pytest.mark.parametrize(("language", "first", "second"), INDEPENDENT, ids=lambda v: getattr(v, "name", v))
def test_two_independent_correct_solutions_score_low(language, first, second):
    assert score(language, first, second) < LOW


def test_cpp_and_c_are_one_family_and_python_is_another():
    cpp = (LEE / "accepted/bfs.cpp").read_text()
    pairs = rank_pairs(
        [Document(1, "cpp", cpp), Document(2, "c", cpp), Document(3, "python3", cpp), Document(4, "pypy3", cpp)]
    )
    assert {(p.first, p.second, p.family) for p in pairs} == {(1, 2, "C/C++"), (3, 4, "Python")}


def test_code_from_the_problem_template_does_not_count(tmp_path):
    template = (
        "import sys\n\n\ndef read_grid():\n    data = sys.stdin.read().split()\n"
        "    n, m = int(data[0]), int(data[1])\n"
        "    grid = [[int(data[2 + r * m + c]) for c in range(m)] for r in range(n)]\n"
        "    return n, m, grid, [int(x) for x in data[2 + n * m : 6 + n * m]]\n\n\n"
    )
    ana = template + "def main():\n    n, m, grid, ends = read_grid()\n    print(-1 if grid[0][0] else 0)\n\n\nmain()\n"
    bob = template + "n, m, grid, ends = read_grid()\nfor row in grid:\n    print(sum(row))\n"
    documents = [Document(1, "python3", ana), Document(2, "python3", bob)]
    assert rank_pairs(documents)[0].score >= HIGH  # the shared template alone looks like copying
    (tmp_path / "attachments").mkdir()
    (tmp_path / "attachments" / "template.py").write_text(template)
    (tmp_path / "attachments" / "picture.png").write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")  # not text: skipped
    assert package_template(tmp_path) == [template]
    assert rank_pairs(documents, package_template(tmp_path))[0].score < LOW


def test_the_side_by_side_regions_cut_each_source_exactly_and_mark_the_copied_part():
    original, copy = (LEE / "accepted/bfs.cpp").read_text(), (FIXTURES / "lee_bfs_renamed.cpp").read_text()
    pair, left, right = matching_regions(Document(1, "cpp", original), Document(2, "cpp", copy))
    assert "".join(s.text for s in left) == original and "".join(s.text for s in right) == copy
    assert pair.score >= HIGH
    marked = "".join(s.text for s in right if s.matched)
    assert "dist[nx][ny] = dist[x][y] + 1" in marked  # the renamed BFS step is found
    assert "my solution for the mouse problem" not in marked  # a comment never matches
    with pytest.raises(ValueError, match="not compared"):
        matching_regions(Document(1, "cpp", original), Document(2, "python3", copy))


def test_empty_and_tiny_sources_score_zero_and_too_many_are_refused():
    pairs = rank_pairs(
        [Document(1, "python3", ""), Document(2, "python3", "print(1)\n"), Document(3, "brainfuck", "+")]
    )
    assert [p.score for p in pairs] == [0.0]
    with pytest.raises(TooManySources):
        rank_pairs([Document(i, "python3", "print(1)") for i in range(MAX_DOCUMENTS + 1)])
