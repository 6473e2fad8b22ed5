"""The one home of checking: which checker judges a team output, and how.

``check_output`` is what the worker and ``judge problem verify`` call. It picks the package's output
validator (``validation: custom``) or the default checker (``validation: default``); both follow the
Kattis problem package format.

- The default checker (``default_check``) is the Kattis default output validator
  (problemtools ``support/default_validator/default_validator.cc``) with its five flags:
  ``case_sensitive``, ``space_change_sensitive``, ``float_absolute_tolerance ε``,
  ``float_relative_tolerance ε`` and ``float_tolerance ε`` (both). Numbers are read with the judge's
  one token grammar (the shared block below, docs/conventions.md "Checkers"), stricter than the
  ``sscanf("%lf")`` of Kattis' validator.
- A custom output validator is run as ``validator input judge_answer feedback_dir [flags]
  < team_output`` and exits 42 to accept, 43 for a wrong answer; any other exit is a judge error.
  ``check_output`` takes the runner as a parameter (``ValidatorRunner``); the judge's runner is
  ``judge.validators.SandboxedValidators.check``, which builds the validator in any language and
  runs it in the sandbox (never on the host). This module imports neither the sandbox nor
  ``judge.judging``.

Bytes policy (docs/conventions.md "Jury files and team output"): a leading UTF-8 byte order mark and
CR LF line ends never change a verdict: every checker reads jury files and team output through
``plain_text``; jury files holding either are refused when a package is loaded.
"""

from __future__ import annotations

import json
import logging
import os
import re
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from judge.verdicts import AC, JE, WA

if TYPE_CHECKING:
    from judge.packages import ProblemPackage, TestCase

ACCEPT_EXIT, REJECT_EXIT = 42, 43
MESSAGE_LIMIT = 500
EXACT_FLOAT_INTEGERS = 2**53  # integers of larger magnitude are not all representable as a double
FEEDBACK_LIMIT_BYTES = 256 * 1024  # a larger feedback.json is ignored
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class CheckResult:
    """The checker's verdict (AC, WA or JE), its one-line reason for the jury (may be empty), the
    structured feedback its output validator wrote to ``feedback_dir/feedback.json`` (a JSON
    object, or None), the first line of its ``teammessage.txt`` and the number in its
    ``score.txt`` (None when absent or not a finite number)."""

    verdict: str
    message: str = ""
    feedback: dict | None = None
    team_message: str = ""
    score: float | None = None


# >>> shared reading: the same in judge/checkers.py and every package checker (docs/conventions.md "Checkers")
BYTE_ORDER_MARK = b"\xef\xbb\xbf"
INTEGER_TOKEN = re.compile(rb"0|-?[1-9][0-9]{0,99}")
FLOAT_TOKEN = re.compile(rb"-?(?:0|[1-9][0-9]{0,99})(?:\.[0-9]{1,100})?(?:[eE][-+]?[0-9]{1,3})?")


def plain_text(data):
    """Return `data` (bytes of a jury file or a team output) without a leading UTF-8 byte order mark,
    with CR LF line ends read as LF."""
    return (data[len(BYTE_ORDER_MARK) :] if data.startswith(BYTE_ORDER_MARK) else data).replace(b"\r\n", b"\n")


def integer_token(token):
    """Return the int that `token` (bytes, or ASCII str) spells in the integer grammar, else None.

    Integer grammar: `0`, or an optional `-`, a digit 1-9 and at most 99 more digits 0-9.
    """
    if isinstance(token, str):
        token = token.encode("ascii", "replace")
    return int(token) if INTEGER_TOKEN.fullmatch(token) else None


def float_token(token):
    """Return the finite float that `token` (bytes, or ASCII str) spells in the float grammar, else None.

    Float grammar: an optional `-`, an integer part without leading zeros, an optional `.` and
    1-100 digits, an optional exponent `e`/`E`, optional sign, 1-3 digits.
    """
    if isinstance(token, str):
        token = token.encode("ascii", "replace")
    value = float(token) if FLOAT_TOKEN.fullmatch(token) else None
    return value if value is not None and abs(value) < float("inf") else None


# <<< shared reading

FLAG_SWITCHES = ("case_sensitive", "space_change_sensitive")
FLAG_TOLERANCES = ("float_absolute_tolerance", "float_relative_tolerance", "float_tolerance")
WHITESPACE = re.compile(rb"[ \t\n\v\f\r]+")  # C isspace() in the C locale, as the Kattis validator reads
TOKEN = re.compile(rb"[^ \t\n\v\f\r]+")


class FlagError(ValueError):
    """``validator_flags`` the default checker does not know, or a tolerance without a valid value."""


@dataclass(frozen=True)
class DefaultFlags:
    """The default checker's options; a tolerance is None when not set (absolute and relative: ≥ 0)."""

    case_sensitive: bool = False
    space_change_sensitive: bool = False
    absolute: float | None = None
    relative: float | None = None

    @property
    def floats(self) -> bool:
        """True when numeric judge tokens are compared as floats with a tolerance."""
        return self.absolute is not None or self.relative is not None


def parse_flags(flags: Sequence[str]) -> DefaultFlags:
    """Read the default checker's ``validator_flags`` (already split on whitespace).

    A tolerance takes the next item, a finite number ≥ 0 in the float grammar; ``float_tolerance ε``
    sets both tolerances. Raises FlagError for an unknown flag, a missing or invalid value.
    """
    switches: dict[str, bool] = {}
    absolute = relative = None
    items = list(flags)
    while items:
        flag = items.pop(0)
        if flag in FLAG_SWITCHES:
            switches[flag] = True
            continue
        if flag not in FLAG_TOLERANCES:
            known = ", ".join(FLAG_SWITCHES + FLAG_TOLERANCES)
            raise FlagError(f"unknown validator flag {flag!r:.60} (the default checker knows {known})")
        value = float_token(items.pop(0)) if items else None
        if value is None or value < 0:
            raise FlagError(f"validator flag {flag} needs a number >= 0 after it")
        if flag != "float_relative_tolerance":
            absolute = value
        if flag != "float_absolute_tolerance":
            relative = value
    return DefaultFlags(absolute=absolute, relative=relative, **switches)


def _tokens_and_gaps(data: bytes) -> tuple[list[bytes], list[bytes]]:
    """The whitespace-separated tokens of ``data`` and the n + 1 whitespace runs around n tokens."""
    return TOKEN.findall(data), TOKEN.split(data)


def _same_token(team: bytes, judge: bytes, flags: DefaultFlags) -> bool:
    if flags.floats:
        expected = float_token(judge)
        if expected is not None:
            got = float_token(team)
            if got is None:
                return False
            error = abs(got - expected)
            return (flags.absolute is not None and error <= flags.absolute) or (
                flags.relative is not None and error <= flags.relative * abs(expected)
            )
    return team == judge if flags.case_sensitive else team.lower() == judge.lower()


def default_check(team_output: bytes, judge_answer: bytes, flags: Sequence[str] = ()) -> CheckResult:
    """Compare ``team_output`` with ``judge_answer`` by the Kattis default validator's rules.

    Tokens are compared in order: with a float tolerance, a judge token in the float grammar needs a
    team float within the absolute OR relative tolerance; other tokens are compared as strings
    (ASCII case-insensitive unless ``case_sensitive``). With ``space_change_sensitive`` every
    whitespace run (leading, between tokens, trailing) must be the same bytes. Both sides are read
    through ``plain_text``. Raises FlagError for flags ``parse_flags`` refuses.
    """
    options = parse_flags(flags)
    team, team_gaps = _tokens_and_gaps(plain_text(team_output))
    judge, judge_gaps = _tokens_and_gaps(plain_text(judge_answer))
    for index, expected in enumerate(judge):
        if options.space_change_sensitive and team_gaps[index] != judge_gaps[index]:
            return CheckResult(WA, f"space change before token {index + 1}")
        if index == len(team):
            return CheckResult(WA, f"output ends after {len(team)} tokens; expected {len(judge)}")
        if not _same_token(team[index], expected, options):
            shown_team, shown_judge = team[index][:40].decode(errors="replace"), expected[:40].decode(errors="replace")
            return CheckResult(WA, f"token {index + 1}: expected {shown_judge!r}, got {shown_team!r}")
    if len(team) > len(judge):
        return CheckResult(WA, f"extra output after {len(judge)} tokens")
    if options.space_change_sensitive and team_gaps[-1] != judge_gaps[-1]:
        return CheckResult(WA, "space change after the last token")
    return CheckResult(AC)


def inexact_integers(judge_answer: bytes, flags: Sequence[str]) -> list[str]:
    """Integer tokens of a judge answer that a float tolerance cannot compare exactly.

    With a float tolerance the default checker reads integer tokens as doubles; beyond 2^53 in
    magnitude neighbouring integers read as the same double, so a wrong answer can be accepted.
    Returns those tokens (decoded, in order); empty without a float tolerance.
    """
    if not parse_flags(flags).floats:
        return []
    found = []
    for token in TOKEN.findall(plain_text(judge_answer)):
        value = integer_token(token)
        if value is not None and abs(value) > EXACT_FLOAT_INTEGERS:
            found.append(token.decode())
    return found


def _refuse_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")  # NaN and Infinity: PostgreSQL's json type refuses them


def read_feedback(path: Path) -> dict | None:
    """The JSON object in ``path`` (an output validator's ``feedback.json``), or None when there is
    none, it is over FEEDBACK_LIMIT_BYTES, it is not a plain regular file (a link, a FIFO: the
    validator wrote it, so it is never followed), or it is not a JSON object (logged; never an
    error: feedback is for pictures and never changes a verdict)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY)
    except FileNotFoundError:
        return None
    except OSError as exc:
        log.warning("feedback.json not read: %s", exc)
        return None
    with os.fdopen(fd, "rb") as file:
        info = os.fstat(file.fileno())
        if not stat.S_ISREG(info.st_mode) or info.st_nlink != 1:
            log.warning("feedback.json ignored: not a plain regular file")
            return None
        data = file.read(FEEDBACK_LIMIT_BYTES + 1)
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


class ValidatorRunner(Protocol):
    """Runs a package's output validator (``program``: a file or folder of the package) on one
    team output; ``judge.validators.SandboxedValidators.check`` is the judge's."""

    def __call__(
        self, program: Path, input_path: Path, answer_path: Path, team_output_path: Path, flags: Sequence[str] = ()
    ) -> CheckResult: ...


def check_output(
    package: ProblemPackage,
    test: TestCase,
    team_output: Path,
    run_validator: ValidatorRunner,
    data: bytes | None = None,
) -> CheckResult:
    """The checker's verdict on the team output in file ``team_output`` for ``test`` of ``package``;
    with ``data`` (the output's bytes, held by the caller) the file is written only when an
    output validator needs it, and never read.

    ``validation: custom``: the package's output validator, run by ``run_validator``; ``validation:
    default``: ``default_check`` with the package's flags (checked when the package was loaded, so a
    FlagError here is a judge error).
    """
    if package.output_validator is not None:
        if data is not None:
            team_output.write_bytes(data)
        return run_validator(
            package.output_validator,
            test.input_path,
            test.answer_path,
            team_output,
            (*package.validator_flags, *test.output_validator_flags),
        )
    try:
        flags = (*package.validator_flags, *test.output_validator_flags)
        return default_check(team_output.read_bytes() if data is None else data, test.answer_path.read_bytes(), flags)
    except FlagError as exc:
        return CheckResult(JE, str(exc))
