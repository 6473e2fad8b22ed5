"""Similarity of submitted sources: which students handed in the same program.

The comparison is copydetect's (PyPI ``copydetect``): each source is tokenised by Pygments, names
become ``V``/``F``/``O``, strings ``S``, comments and whitespace vanish, and the k-grams of what is
left are fingerprinted by winnowing (Schleimer, Wilkerson, Aiken, "Winnowing: local algorithms for
document fingerprinting", SIGMOD 2003; the algorithm of Stanford's MOSS). So renaming variables,
re-indenting, reflowing lines and rewriting comments change nothing. Fingerprints of the
*boilerplate* (the problem's template: the files of the package's ``attachments/`` folder, which
the Kattis package format hands to contestants, plus any text the teacher adds) are dropped before
comparing, so code every student was given does not count.

Which sources: each student's latest AC submission to the problem, or their latest submission when
none is AC (the program the student stands behind); jury submissions are left out. Sources are
compared only within one language family (``FAMILIES``: C and C++ together, CPython and PyPy
together), since a program's tokens in two languages share nothing meaningful.

Scores: for a pair (a, b), ``similarity_a`` is the fraction of a's fingerprinted tokens found in b
(0..1), ``similarity_b`` the same for b; a pair's ``score`` is the larger of the two, so a copy
padded with extra code still ranks high. Pairs are ranked by score, highest first.
"""

from __future__ import annotations

import io
import logging
import tarfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from copydetect import CodeFingerprint, compare_files
from sqlalchemy import ColumnElement, select
from sqlalchemy.orm import Session

from judge.models import Problem, Submission, User
from judge.package_store import cached_package
from judge.packages import PackageError
from judge.vocabulary import Verdict

NOISE_CHARACTERS = 25  # copydetect's noise threshold k: matches shorter than this (filtered characters) never count
MAX_DOCUMENTS = 200  # sources one comparison takes: 200 give 19,900 pairs
# language id -> (family shown to the teacher, Pygments lexer that tokenises the whole family)
FAMILIES: dict[str, tuple[str, str]] = {
    "c": ("C/C++", "cpp"),
    "cpp": ("C/C++", "cpp"),
    "cpp20": ("C/C++", "cpp"),
    "python3": ("Python", "python"),
    "pypy3": ("Python", "python"),
    "pascal": ("Pascal", "delphi"),
    "java": ("Java", "java"),
    "javascript": ("JavaScript", "javascript"),
    "kotlin": ("Kotlin", "kotlin"),
    "rust": ("Rust", "rust"),
    "go": ("Go", "go"),
}
logging.getLogger("copydetect").setLevel(logging.ERROR)


class TooManySources(ValueError):
    """More sources than one comparison takes (``MAX_DOCUMENTS``)."""


@dataclass(frozen=True)
class Document:
    """One source to compare: ``key`` (the submission id), its ``language`` id and ``source`` text."""

    key: int
    language: str
    source: str

    @property
    def family(self) -> str:
        """The language family (``FAMILIES``; an unknown language is a family of its own)."""
        return FAMILIES.get(self.language, (self.language, ""))[0]


@dataclass(frozen=True)
class Pair:
    """Two documents of one family and how much of each is found in the other (fractions 0..1).

    matched_tokens: filtered characters of ``first`` that lie in a shared region."""

    first: int
    second: int
    family: str
    similarity_first: float
    similarity_second: float
    matched_tokens: int

    @property
    def score(self) -> float:
        """The larger of the two similarities (0..1)."""
        return max(self.similarity_first, self.similarity_second)


@dataclass(frozen=True)
class Segment:
    """A stretch of a source's own text, ``matched`` when it lies in a region shared with the other source."""

    text: str
    matched: bool


def _fingerprint(document: Document, boilerplate: np.ndarray, window: int = 1) -> CodeFingerprint:
    lexer = FAMILIES.get(document.language, ("", None))[1]
    return CodeFingerprint(
        f"{document.key}.src",
        NOISE_CHARACTERS,
        window,
        boilerplate,
        filter=bool(lexer),
        language=lexer or None,
        fp=io.StringIO(document.source),
    )


def boilerplate_hashes(language: str, texts: Iterable[str]) -> np.ndarray:
    """The fingerprints of every text in ``texts`` read as ``language`` (every k-gram, no winnowing,
    as copydetect treats its boilerplate files): matches made of these do not count."""
    hashes: set[int] = set()
    for text in texts:
        hashes |= _fingerprint(Document(0, language, text), np.array([])).hashes
    return np.array(sorted(hashes))


def _compare(a: CodeFingerprint, b: CodeFingerprint) -> tuple[int, float, float, np.ndarray, np.ndarray]:
    overlap, (sim_a, sim_b), (slices_a, slices_b) = compare_files(a, b)
    return int(overlap), float(sim_a), float(sim_b), slices_a, slices_b


def rank_pairs(documents: Sequence[Document], boilerplate: Sequence[str] = ()) -> list[Pair]:
    """Every pair of ``documents`` of one language family, scored (module docstring), highest first
    (ties by the keys). ``boilerplate``: template texts whose matches do not count.

    Raises TooManySources past ``MAX_DOCUMENTS`` documents."""
    if len(documents) > MAX_DOCUMENTS:
        raise TooManySources(f"{len(documents)} sources: at most {MAX_DOCUMENTS} are compared at once")
    by_family: dict[str, list[Document]] = {}
    for document in documents:
        by_family.setdefault(document.family, []).append(document)
    pairs = []
    for family, members in by_family.items():
        template = boilerplate_hashes(members[0].language, boilerplate)
        prints = [_fingerprint(d, template) for d in members]
        for i, first in enumerate(members):
            for j in range(i + 1, len(members)):
                overlap, sim_a, sim_b, _, _ = _compare(prints[i], prints[j])
                pairs.append(Pair(first.key, members[j].key, family, sim_a, sim_b, overlap))
    return sorted(pairs, key=lambda p: (-p.score, p.first, p.second))


def _segments(text: str, slices: np.ndarray) -> list[Segment]:
    """``text`` cut at the shared regions ``slices`` (copydetect's 2×N start/end character offsets)."""
    spans = (
        sorted((max(0, int(s)), min(len(text), int(e))) for s, e in zip(*slices) if int(e) > int(s))
        if len(slices) and len(slices[0])
        else []
    )
    out, at = [], 0
    for start, end in spans:
        start = max(start, at)
        if start > at:
            out.append(Segment(text[at:start], False))
        if end > start:
            out.append(Segment(text[start:end], True))
            at = end
    if at < len(text):
        out.append(Segment(text[at:], False))
    return out


def matching_regions(
    a: Document, b: Document, boilerplate: Sequence[str] = ()
) -> tuple[Pair, list[Segment], list[Segment]]:
    """The pair (a, b) scored, and each source cut into stretches, the shared ones marked: the
    side-by-side view. Raises ValueError when the two are of different language families."""
    if a.family != b.family:
        raise ValueError(f"a {a.family} source is not compared with a {b.family} one")
    template = boilerplate_hashes(a.language, boilerplate)
    overlap, sim_a, sim_b, slices_a, slices_b = _compare(_fingerprint(a, template), _fingerprint(b, template))
    pair = Pair(a.key, b.key, a.family, sim_a, sim_b, overlap)
    return pair, _segments(a.source, slices_a), _segments(b.source, slices_b)


def package_template(package_root: Path) -> list[str]:
    """The text files (UTF-8) of a package's ``attachments/`` folder: the template the Kattis package
    format hands to contestants, whose code every student may share."""
    folder = package_root / "attachments"
    texts = []
    for path in sorted(folder.rglob("*")) if folder.is_dir() else []:
        try:
            texts.append(path.read_text(encoding="utf-8")) if path.is_file() else None
        except UnicodeDecodeError:
            continue
    return texts


def problem_template(session: Session, problem: Problem, cache_dir: Path) -> list[str]:
    """``package_template`` of the problem's current package (unpacked in ``cache_dir``, as
    ``judge.package_store.cached_package``); none when its archive cannot be read."""
    try:
        package = cached_package(session, problem.package_sha256, problem.id, cache_dir)
    except (PackageError, tarfile.TarError, OSError):  # an archive that does not unpack
        return []
    return package_template(package.root)


def latest_sources(session: Session, problem_id: str, *conditions: ColumnElement[bool]) -> list[Submission]:
    """Each student's source to compare for ``problem_id`` among the submissions matching
    ``conditions`` (e.g. one contest's, or those a teacher may see): the latest AC one, else the
    latest; jury submissions left out. Ordered by user name."""
    rows = session.execute(
        select(Submission, User.name)
        .join(User, User.id == Submission.user_id)
        .where(Submission.problem_id == problem_id, Submission.is_jury.is_(False), *conditions)
        .order_by(Submission.id)
    ).all()
    chosen: dict[str, Submission] = {}
    for submission, name in rows:
        held = chosen.get(name)
        if held is None or held.verdict != Verdict.AC or submission.verdict == Verdict.AC:
            chosen[name] = submission
    return [chosen[name] for name in sorted(chosen)]
