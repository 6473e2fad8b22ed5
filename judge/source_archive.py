"""A contest's sources as one zip archive, for the jury to read offline or hand to another checker.

Layout: one folder per author (the user name), in it one file per submission named
``<letter>-<problem>_<submission id>_<verdict>_<UTC time YYYYMMDD-HHMMSS>.<extension>``, e.g.
``ana/A-lee_17_AC_20261201-091503.cpp``; the verdict is the status (``queued``, ``judging``) while
there is none, the extension the language's own (``judge.languages``). Every name part is cut to
``[A-Za-z0-9_.-]`` with no leading dot, so no entry can climb out of the folder it is unpacked in
(``..``, ``/``, absolute paths, control characters); two authors whose names would collapse into
one folder keep apart by their user id. Entries carry the submission's time (UTC) as their date.
"""

from __future__ import annotations

import io
import re
import zipfile

from sqlalchemy import select
from sqlalchemy.orm import Session

from judge.languages import LANGUAGES
from judge.models import Contest, Submission, User

UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")
ZIP_EPOCH_YEAR = 1980  # the zip format cannot date an entry earlier


def safe_name(text: str, limit: int = 64) -> str:
    """``text`` as one harmless file name part: runs of other characters become ``_``, leading
    dots and dashes go, at most ``limit`` characters; ``_`` for nothing left."""
    return UNSAFE.sub("_", text).lstrip(".-")[:limit] or "_"


def _file_name(submission: Submission, letter: str) -> str:
    language = LANGUAGES.get(submission.language)
    extension = language.extensions[0] if language and language.extensions else ".txt"
    outcome = submission.verdict or submission.status
    stamp = f"{submission.created_at:%Y%m%d-%H%M%S}"
    parts = (f"{letter}-{submission.problem_id}", str(submission.id), outcome, stamp)
    return "_".join(safe_name(p) for p in parts) + extension


def contest_sources_zip(session: Session, contest: Contest) -> bytes:
    """Every submission of ``contest`` (jury ones included, each under its author) as zip bytes
    (layout in the module docstring)."""
    letters = {p.problem_id: p.letter for p in contest.problems}
    rows = session.execute(
        select(Submission, User)
        .join(User, User.id == Submission.user_id)
        .where(Submission.contest_id == contest.id)
        .order_by(User.name, Submission.id)
    ).all()
    folders: dict[int, str] = {}
    taken: set[str] = set()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for submission, author in rows:
            if author.id not in folders:
                folder = safe_name(author.name)
                folders[author.id] = folder if folder not in taken else f"{folder}_{author.id}"
                taken.add(folders[author.id])
            name = f"{folders[author.id]}/{_file_name(submission, letters.get(submission.problem_id, '-'))}"
            moment = submission.created_at
            stamp = moment.timetuple()[:6] if moment.year >= ZIP_EPOCH_YEAR else (ZIP_EPOCH_YEAR, 1, 1, 0, 0, 0)
            entry = zipfile.ZipInfo(name, date_time=stamp)
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, submission.source.encode("utf-8", "replace"))
    return buffer.getvalue()
