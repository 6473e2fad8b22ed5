"""``judge problem new``: a complete problem package that verifies as it stands.

The skeleton (``judge/skeleton/``) is a small working problem, the sum of N integers, with every part
a package needs (docs/conventions.md, Kattis problem package layout): ``problem.yaml``, a Markdown
statement per language, a hand-written sample, an input validator, a generator with its test plan
(``generators/tests.yaml``), the checker audit's ``generators/mutations.py``, a reference solver in
``reference/<id>.py`` (beside the problems folder, linked from ``submissions/accepted/reference.py``),
a wrong submission, and either the default checker (``validation: default`` with
``validator_flags``) or a custom output validator that writes the structured ``feedback.json``.
After the files are written, ``judge problem generate`` makes the test data, so ``judge problem
verify`` passes on the new package at once. A teacher then replaces the sum by the real problem.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import judge.checkers
from judge.generate import generate
from judge.packages import PROBLEM_ID, PackageError

SKELETON = Path(__file__).parent / "skeleton"
TEMPLATE_SUFFIX = ".tmpl"
CHECKERS = ("default", "custom")
LANGUAGE = re.compile(r"^[a-z]{2,3}$")
SHARED_READING = re.compile(r"^# >>> shared reading.*?^# <<< shared reading$", re.MULTILINE | re.DOTALL)
DEFAULT_FLAGS = "float_tolerance 1e-6"  # an example in problem.yaml's comment; the sum needs none


def problem_yaml(name: str, checker: str) -> str:
    """The ``problem.yaml`` text of a new package (Kattis keys plus ``limits.time_limit``)."""
    lines = [f"name: {name}", f"validation: {checker}"]
    if checker == "default":
        lines += [
            "# flags of the default checker (docs/conventions.md): case_sensitive, space_change_sensitive,",
            "# float_absolute_tolerance E, float_relative_tolerance E, float_tolerance E",
            f"# validator_flags: {DEFAULT_FLAGS}",
        ]
    lines += [
        "limits:",
        "  time_limit: 1        # seconds of CPU per test (`judge problem time` derives it)",
        "  memory: 256          # MiB",
        "  output: 8            # MiB",
    ]
    return "\n".join(lines) + "\n"


def shared_reading() -> str:
    """The ``# >>> shared reading`` block of ``judge/checkers.py``, which every checker repeats."""
    found = SHARED_READING.search(Path(judge.checkers.__file__).read_text(encoding="utf-8"))
    if found is None:  # pragma: no cover - judge/checkers.py always holds it
        raise PackageError("judge/checkers.py: no shared reading block")
    return found.group(0)


def _render(text: str, problem_id: str, name: str) -> str:
    return text.replace("__ID__", problem_id).replace("__NAME__", name).replace("__SHARED_READING__", shared_reading())


def new_problem(
    problems_dir: Path | str,
    problem_id: str,
    *,
    languages: tuple[str, ...] = ("en",),
    checker: str = "default",
    name: str | None = None,
) -> Path:
    """Write the package ``problems_dir/<problem_id>`` and its reference ``problems_dir/../reference/<id>.py``,
    then generate its data. Returns the package folder.

    ``languages``: statement languages (``en`` and ``sk`` have their own text, any other starts from
    the English one); ``checker``: ``default`` or ``custom``. Raises PackageError for a bad id,
    language or checker, or when the package folder or the reference file already exists (nothing
    is overwritten).
    """
    if not PROBLEM_ID.match(problem_id):
        raise PackageError(f"{problem_id!r}: a problem id is a-z, 0-9, - and _ (starting with a letter or digit)")
    if checker not in CHECKERS:
        raise PackageError(f"--checker {checker!r}: choose default or custom")
    bad = [lang for lang in languages if not LANGUAGE.match(lang)]
    if bad or not languages:
        raise PackageError(f"--language {bad[0] if bad else ''!r}: a language is a 2- or 3-letter code like en, sk")
    root = Path(problems_dir).resolve() / problem_id
    reference = root.parent.parent / "reference" / f"{problem_id}.py"
    for path in (root, reference):
        if path.exists():
            raise PackageError(f"{path}: exists already; choose another id or remove it")
    title = name or problem_id.replace("-", " ").replace("_", " ").capitalize()
    root.mkdir(parents=True)
    for source in sorted(SKELETON.rglob("*")):
        relative = source.relative_to(SKELETON)
        if source.is_dir() or relative.parts[0] in ("statement", "reference.py.tmpl"):
            continue
        if relative.parts[0] == "output_validators" and checker == "default":
            continue
        target = root / str(relative).removesuffix(TEMPLATE_SUFFIX)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(_render(source.read_text(encoding="utf-8"), problem_id, title), encoding="utf-8")
    for language in dict.fromkeys(languages):
        template = SKELETON / "statement" / f"problem.{language}.md"
        text = (template if template.is_file() else SKELETON / "statement" / "problem.en.md").read_text("utf-8")
        (root / "statement").mkdir(exist_ok=True)
        (root / "statement" / f"problem.{language}.md").write_text(_render(text, problem_id, title), "utf-8")
    (root / "problem.yaml").write_text(problem_yaml(title, checker), encoding="utf-8")
    reference.parent.mkdir(parents=True, exist_ok=True)
    reference.write_text(
        _render((SKELETON / "reference.py.tmpl").read_text("utf-8"), problem_id, title), encoding="utf-8"
    )
    accepted = root / "submissions" / "accepted"
    accepted.mkdir(parents=True, exist_ok=True)
    (accepted / "reference.py").symlink_to(os.path.relpath(reference, accepted))
    (root / "data" / "secret").mkdir(parents=True, exist_ok=True)
    generate(root)
    return root
