"""The Contest API's value types and judgement types (icpc/ccs-specs 2023-06, ``Contest_API.md``
"JSON property types" and "Known judgement types").

- TIME: ISO 8601 with milliseconds and zone, ``2026-12-01T09:00:00.000Z`` (always UTC, always ``.uuu``:
  the specification asks for one form throughout).
- RELTIME: ``(-)h:mm:ss.uuu``, e.g. ``1:22:05.034``.
- Judgement types: our verdicts are all known types of the specification and keep their ids: AC,
  WA, TLE, RTE, CE, JE, and MLE ("Memory Limit Exceeded", big-5 equivalent RTE) and OLE ("Output
  Limit Exceeded", big-5 equivalent WA). ``penalty`` follows ``judge.scoring.NOT_COUNTED``.
"""

from __future__ import annotations

import io
import re
import zipfile
from datetime import UTC, datetime, timedelta

from judge.scoring import NOT_COUNTED
from judge.vocabulary import Verdict

ID = re.compile(r"^[A-Za-z0-9_]([A-Za-z0-9_.-]{0,34}[A-Za-z0-9_-])?$")
RELTIME = re.compile(r"^(-)?(\d+):([0-5]\d):([0-5]\d)(?:\.(\d{3}))?$")
ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # zip's earliest time: archives of equal files are equal bytes

JUDGEMENT_NAMES = {
    Verdict.AC: "Accepted",
    Verdict.WA: "Wrong Answer",
    Verdict.TLE: "Time Limit Exceeded",
    Verdict.MLE: "Memory Limit Exceeded",
    Verdict.RTE: "Run-Time Error",
    Verdict.OLE: "Output Limit Exceeded",
    Verdict.CE: "Compile Error",
    Verdict.JE: "Judging Error",
}


def abstime(moment: datetime) -> str:
    """A TIME: ``moment`` (aware or naive UTC) as ``YYYY-MM-DDThh:mm:ss.uuuZ``."""
    moment = moment.astimezone(UTC) if moment.tzinfo else moment.replace(tzinfo=UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def parse_abstime(text: str) -> datetime:
    """A TIME as an aware UTC datetime (``Z`` or a ``±hh[:mm]`` zone). Raises ValueError without a zone."""
    text = text.strip().replace("Z", "+00:00")
    if re.search(r"[+-]\d\d$", text):  # ``+01``: the specification's short zone
        text += ":00"
    moment = datetime.fromisoformat(text)
    if moment.tzinfo is None:
        raise ValueError(f"time {text!r} has no zone")
    return moment.astimezone(UTC)


def reltime(span: timedelta) -> str:
    """A RELTIME: ``span`` as ``(-)h:mm:ss.uuu`` (milliseconds truncated)."""
    ms = int(span / timedelta(milliseconds=1))
    sign, ms = ("-", -ms) if ms < 0 else ("", ms)
    seconds, ms = divmod(ms, 1000)
    minutes, seconds = divmod(seconds, 60)
    hours, minutes = divmod(minutes, 60)
    return f"{sign}{hours}:{minutes:02d}:{seconds:02d}.{ms:03d}"


def parse_reltime(text: str) -> timedelta:
    """A RELTIME as a timedelta. Raises ValueError for anything else."""
    match = RELTIME.match(str(text).strip())
    if match is None:
        raise ValueError(f"relative time {text!r}: (-)h:mm:ss(.uuu)")
    sign, hours, minutes, seconds, ms = match.groups()
    span = timedelta(hours=int(hours), minutes=int(minutes), seconds=int(seconds), milliseconds=int(ms or 0))
    return -span if sign else span


def judgement_types(penalty: bool) -> list[dict]:
    """The judgement type objects, one per verdict; ``penalty`` flags only when the contest has a
    penalty time (pass-fail scoring)."""
    types = []
    for verdict, name in JUDGEMENT_NAMES.items():
        entry: dict = {"id": str(verdict), "name": name, "solved": verdict == Verdict.AC}
        if penalty:
            entry["penalty"] = verdict not in (Verdict.AC, *NOT_COUNTED)
        types.append(entry)
    return types


def zip_bytes(files: dict[str, bytes]) -> bytes:
    """A zip archive of ``files`` (name → bytes) at its root, deflated, with fixed times."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in sorted(files.items()):
            info = zipfile.ZipInfo(name, ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data)
    return buffer.getvalue()
