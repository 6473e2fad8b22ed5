"""Checking a program's output: the default token comparison and package output validators.

Both follow the Kattis problem package format: the default validator compares whitespace-separated
tokens (case-insensitive unless ``case_sensitive``; floats with ``float_tolerance``,
``float_absolute_tolerance`` or ``float_relative_tolerance`` accept an absolute OR relative error
within it); a custom output validator is run as ``validator input judge_answer feedback_dir [flags]
< team_output`` and exits 42 to accept, 43 for a wrong answer; any other exit is a judge error.
"""

from __future__ import annotations

import json
import logging
import math
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from judge.verdicts import AC, JE, WA

ACCEPT_EXIT, REJECT_EXIT = 42, 43
VALIDATOR_TIMEOUT_S = 30
MESSAGE_LIMIT = 500
FEEDBACK_LIMIT_BYTES = 256 * 1024  # a larger feedback.json is ignored
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class CheckResult:
    """The checker's verdict (AC, WA or JE), its one-line reason (may be empty) and the structured
    feedback its output validator wrote to ``feedback_dir/feedback.json`` (a JSON object, or None)."""

    verdict: str
    message: str = ""
    feedback: dict | None = None


def _parse_flags(flags: tuple[str, ...]) -> tuple[bool, float | None, float | None]:
    case_sensitive, absolute, relative = False, None, None
    items = list(flags)
    while items:
        flag = items.pop(0)
        if flag == "case_sensitive":
            case_sensitive = True
        elif flag in ("float_tolerance", "float_absolute_tolerance", "float_relative_tolerance") and items:
            value = float(items.pop(0))
            if flag != "float_relative_tolerance":
                absolute = value
            if flag != "float_absolute_tolerance":
                relative = value
    return case_sensitive, absolute, relative


def _floats_close(team: str, judge: str, absolute: float | None, relative: float | None) -> bool:
    try:
        a, b = float(team), float(judge)
    except ValueError:
        return False
    if not (math.isfinite(a) and math.isfinite(b)):
        return False
    err = abs(a - b)
    return (absolute is not None and err <= absolute) or (relative is not None and err <= relative * abs(b))


def default_check(team_output: bytes, judge_answer: bytes, flags: tuple[str, ...] = ()) -> CheckResult:
    """Compare tokens of ``team_output`` and ``judge_answer`` by the Kattis default validator's rules."""
    case_sensitive, absolute, relative = _parse_flags(flags)
    team = team_output.split()
    judge = judge_answer.split()
    for index, (t, j) in enumerate(zip(team, judge), start=1):
        ts, js = t.decode(errors="replace"), j.decode(errors="replace")
        if (ts if case_sensitive else ts.lower()) == (js if case_sensitive else js.lower()):
            continue
        if (absolute is not None or relative is not None) and _floats_close(ts, js, absolute, relative):
            continue
        return CheckResult(WA, f"token {index}: expected {js[:40]!r}, got {ts[:40]!r}")
    if len(team) < len(judge):
        return CheckResult(WA, f"output ends after {len(team)} tokens; expected {len(judge)}")
    if len(team) > len(judge):
        return CheckResult(WA, f"extra output after {len(judge)} tokens")
    return CheckResult(AC)


def _first_line(path: Path) -> str:
    try:
        text = path.read_bytes()[:4096].decode("utf-8", errors="replace").strip()
    except OSError:
        return ""
    return text.splitlines()[0][:MESSAGE_LIMIT] if text else ""


def _refuse_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")  # NaN and Infinity: PostgreSQL's json type refuses them


def read_feedback(path: Path) -> dict | None:
    """The JSON object in ``path`` (an output validator's ``feedback.json``), or None when there is
    none, it is over FEEDBACK_LIMIT_BYTES, or it is not a JSON object (logged; never an error:
    feedback is for pictures and never changes a verdict)."""
    try:
        with open(path, "rb") as file:
            data = file.read(FEEDBACK_LIMIT_BYTES + 1)
    except FileNotFoundError:
        return None
    except OSError as exc:
        log.warning("feedback.json not read: %s", exc)
        return None
    if len(data) > FEEDBACK_LIMIT_BYTES:
        log.warning("feedback.json ignored: over %d bytes", FEEDBACK_LIMIT_BYTES)
        return None
    try:
        feedback = json.loads(data, parse_constant=_refuse_constant)
    except (ValueError, RecursionError) as exc:  # UnicodeDecodeError is a ValueError
        log.warning("feedback.json ignored: not JSON (%s)", str(exc)[:200])
        return None
    if not isinstance(feedback, dict):
        log.warning("feedback.json ignored: a JSON %s, not an object", type(feedback).__name__)
        return None
    return feedback


def run_output_validator(
    program: Path,
    input_path: Path,
    answer_path: Path,
    team_output_path: Path,
    flags: tuple[str, ...] = (),
    timeout_s: float = VALIDATOR_TIMEOUT_S,
) -> CheckResult:
    """Run a package's output validator (a ``.py`` program) on one team output.

    Returns AC on exit 42, WA on 43, JE on any other exit, a crash or a time-out; the message is the
    first line of ``judgemessage.txt`` (or the reason of the judge error); the feedback is
    ``feedback.json`` as ``read_feedback`` gives it, on AC and WA.
    """
    with tempfile.TemporaryDirectory(prefix="judge-feedback-") as feedback:
        # -S: no site import; validators use only the standard library, and it halves start-up
        argv = [sys.executable, "-S", str(program), str(input_path), str(answer_path), feedback + "/", *flags]
        try:
            with open(team_output_path, "rb") as team:
                proc = subprocess.run(argv, stdin=team, capture_output=True, timeout=timeout_s, cwd=program.parent)
        except subprocess.TimeoutExpired:
            return CheckResult(JE, f"output validator ran over {timeout_s} s")
        except OSError as exc:
            return CheckResult(JE, f"output validator could not start: {exc}")
        message = _first_line(Path(feedback) / "judgemessage.txt")
        if proc.returncode == ACCEPT_EXIT:
            return CheckResult(AC, message, read_feedback(Path(feedback) / "feedback.json"))
        if proc.returncode == REJECT_EXIT:
            return CheckResult(WA, message or "wrong answer", read_feedback(Path(feedback) / "feedback.json"))
        tail = proc.stderr.decode(errors="replace").strip().splitlines()[-1:] or [""]
        return CheckResult(JE, f"output validator exited with {proc.returncode}: {tail[0][:MESSAGE_LIMIT]}")
