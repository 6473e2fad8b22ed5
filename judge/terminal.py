"""What the command line prints, and how: user data as plain text, control characters shown.

Every text that comes from users, packages or a server (names, display names, contest names,
compiler messages, a program's output) is printed as a Rich ``Text``, never parsed as Rich markup
or emoji codes, so ``Ana [/b] Pop`` or ``print("[/x]")`` print as written. Control characters
(C0 and C1 except newline and tab, DEL, and the Unicode bidirectional overrides and isolates) are
shown as ``\\x1b`` or ``\\u202e`` escapes, so a compiler message cannot retitle, clear or recolour
the teacher's terminal.

Width: on a terminal, Rich's (the terminal's width). Anywhere else (a pipe, a file, a test's captured
output) lines are never wrapped and tables take their natural width, so a message or a table row
reads the same whatever the width of the terminal that started the command.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from typing import TextIO

from rich.console import Console
from rich.table import Table
from rich.text import Text

# Output that is not a terminal: wide enough that no table is ever squeezed or wrapped.
UNWRAPPED_WIDTH = 1_000_000
_HIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _console(file: TextIO) -> Console:
    terminal = file.isatty()
    return Console(
        file=file,
        width=None if terminal else UNWRAPPED_WIDTH,
        soft_wrap=not terminal,
        highlight=False,
        emoji=False,
    )


def out() -> Console:
    """A console on the current standard output (looked up on each call, so redirections hold)."""
    return _console(sys.stdout)


def errors() -> Console:
    """A console on the current standard error."""
    return _console(sys.stderr)


def visible(text: str) -> str:
    """``text`` with each control character replaced by its escape (``\\x1b``, ``\\x07``,
    ``\\u202e``), and each character the standard output's encoding cannot write (a Latin-1
    terminal) by its ``\\u`` escape; newlines and tabs are kept."""
    text = _HIDDEN.sub(lambda m: repr(m.group(0))[1:-1], text)
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    return text.encode(encoding, "backslashreplace").decode(encoding)


def plain(value: object, style: str = "") -> Text:
    """``str(value)`` as a Rich Text in ``style``: no markup, no emoji codes, control characters shown."""
    return Text(visible(str(value)), style=style)


def say(message: object) -> None:
    """Print ``str(message)`` and a newline on standard output with control characters shown
    (``visible``) and nothing else changed: no markup, tabs kept."""
    sys.stdout.write(visible(str(message)) + "\n")


def table(title: object, columns: Iterable[str], rows: Iterable[Iterable[object]]) -> Table:
    """A Rich table whose title and cells are plain text (``plain``)."""
    result = Table(title=plain(title))
    for column in columns:
        result.add_column(plain(column))
    for row in rows:
        result.add_row(*(plain(cell) for cell in row))
    return result
