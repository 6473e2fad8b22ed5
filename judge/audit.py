"""Generic checker-audit outputs: wrong answers and harmless re-formattings of any judge answer.

``judge problem verify`` (step 5) feeds these to a package's checker next to the problem-specific
ones of its ``generators/mutations.py``. Every problem reads its output as whitespace-separated
tokens; the wrong answers break that whatever the problem: an output cut short, an extra token after
the expected output, a token replaced by garbage (``x``, a 31-digit number, binary bytes), nothing
at all. The re-formattings keep every token and only change the whitespace: ``\\r\\n`` line endings,
no final newline, trailing spaces on every line. The idea of proving a checker with mutated outputs
follows mutation testing (DeMillo, Lipton and Sayward 1978), applied to judge answers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

HUGE_NUMBER = b"1" + b"0" * 30
BINARY_GARBAGE = b"\x00\xff\xfe\x80\x1b"
EXTRA_TOKEN = b"1"
TOKEN = re.compile(rb"\S+")


@dataclass(frozen=True)
class AuditOutput:
    """One output to feed to a checker: ``kind`` names how it was made (shown in failures),
    ``output`` is the team output (bytes)."""

    kind: str
    output: bytes


def _replace_token(answer: bytes, span: tuple[int, int], new: bytes) -> bytes:
    start, end = span
    return answer[:start] + new + answer[end:]


def _without_last_line(answer: bytes) -> bytes | None:
    lines = answer.rstrip().split(b"\n")
    if len(lines) < 2:
        return None
    return b"\n".join(lines[:-1]) + b"\n"


def wrong_outputs(answer: bytes) -> list[AuditOutput]:
    """Outputs that no checker may accept, made from the judge answer ``answer`` (bytes).

    Each differs from ``answer`` in its tokens (an output equal to the answer token for token is
    never returned, so a mutation is only used when it really is wrong). Outputs with the same
    tokens as an earlier one are dropped: the first kind to make them keeps them.
    """
    spans = [match.span() for match in TOKEN.finditer(answer)]
    candidates: list[AuditOutput] = []
    if spans:
        candidates.append(AuditOutput("empty output", b""))
        last_start = spans[-1][0]
        candidates.append(AuditOutput("last token dropped", answer[:last_start].rstrip(b" \t") + b"\n"))
        shorter = _without_last_line(answer)
        if shorter is not None:
            candidates.append(AuditOutput("last line dropped", shorter))
    candidates.append(AuditOutput("extra token", answer.rstrip() + b"\n" + EXTRA_TOKEN + b"\n"))
    if spans:  # one kind of garbage per place: the first token, a middle one, the last one
        places = (
            ("first", spans[0], "x", b"x"),
            ("middle", spans[len(spans) // 2], "binary bytes", BINARY_GARBAGE),
            ("last", spans[-1], "a huge number", HUGE_NUMBER),
        )
        for where, span, name, garbage in places:
            candidates.append(AuditOutput(f"{where} token replaced by {name}", _replace_token(answer, span, garbage)))
    seen = {tuple(answer.split())}  # outputs with the answer's tokens, or a token list tried already
    kept = []
    for candidate in candidates:
        tokens = tuple(candidate.output.split())
        if tokens not in seen:
            seen.add(tokens)
            kept.append(candidate)
    return kept


def reformatted_outputs(answer: bytes) -> list[AuditOutput]:
    """The judge answer ``answer`` with only allowed whitespace changes; every checker must accept
    them: ``\\r\\n`` line endings, no final newline, a trailing space on every line.

    Returns only the variants that differ from ``answer`` byte-wise.
    """
    lines = answer.rstrip(b"\n").split(b"\n") if answer.strip() else []
    variants = [
        AuditOutput("CRLF line endings", b"".join(line + b"\r\n" for line in lines)),
        AuditOutput("no final newline", b"\n".join(lines)),
        AuditOutput("trailing spaces", b"".join(line + b"  \n" for line in lines)),
    ]
    return [variant for variant in variants if variant.output != answer and lines]
