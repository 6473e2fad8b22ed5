"""One owner of the submission's life: outside ``judge/lifecycle.py`` no module of ``judge/`` creates
a submission row, runs an UPDATE or INSERT on the submissions table, or assigns a status, lease or
attempt attribute."""

from __future__ import annotations

import ast
from pathlib import Path

JUDGE = Path(__file__).resolve().parents[2] / "judge"
OWNER = JUDGE / "lifecycle.py"
LIFE_ATTRIBUTES = {"status", "attempt", "worker_id", "lease_expires_at", "lost_judgings"}


def life_writes(source: str) -> list[int]:
    """Line numbers in ``source`` (Python) that write a submission's life: ``Submission(...)``,
    ``update(Submission)`` / ``insert(Submission)``, or ``x.status = …`` (any of ``LIFE_ATTRIBUTES``;
    not ``self.status``)."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            name = node.func.id if isinstance(node.func, ast.Name) else None
            first = node.args[0] if node.args else None
            if name == "Submission" or (
                name in ("update", "insert") and isinstance(first, ast.Name) and first.id == "Submission"
            ):
                lines.append(node.lineno)
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        for target in targets:
            for part in ast.walk(target):
                if isinstance(part, ast.Attribute) and part.attr in LIFE_ATTRIBUTES and not _own_state(part):
                    lines.append(target.lineno)
    return sorted(set(lines))


def _own_state(attribute: ast.Attribute) -> bool:
    """``self.status``: an object's own field (a feed, an error), never a submission row."""
    return isinstance(attribute.value, ast.Name) and attribute.value.id == "self"


def test_each_kind_of_write_is_found():
    writes = [
        "session.execute(update(Submission).where(x).values(verdict='AC'))",
        "session.execute(insert(Submission).values(source='x'))",
        "row = Submission(problem_id='p')",
        "submission.attempt = 3",
        "row.status, row.lease_expires_at = 'done', None",
        "row.lost_judgings += 1",
    ]
    assert [life_writes(w) for w in writes] == [[1]] * len(writes)
    reads = [
        "if row.status == Status.DONE and x.attempt != 2: pass",
        "select(Submission.id).where(Submission.status == 'queued')",
        "SubmissionView(status=row.status, attempt=row.attempt)",
        "update(User).values(last_submission_at=now)",
        "self.status = row.status",
    ]
    assert [life_writes(r) for r in reads] == [[]] * len(reads)


def test_only_the_lifecycle_module_writes_a_submissions_life():
    found = {}
    for path in sorted(JUDGE.rglob("*.py")):
        lines = life_writes(path.read_text())
        if lines and path != OWNER:
            found[str(path.relative_to(JUDGE.parent))] = lines
    assert found == {}
    assert life_writes(OWNER.read_text())  # the owner itself is seen by the same search
