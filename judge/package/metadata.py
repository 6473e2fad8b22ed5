"""``problem.yaml`` of a problem package, every key of each format version, read into ``Metadata``.

Source: the Kattis problem package format, versions ``legacy`` (also written ``legacy-icpc``; the
default when ``problem_format_version`` is absent), ``2023-07`` (``2023-07-draft``, as problemtools
reads it) and ``2025-09`` (``2025-09-draft``, ``draft``), and problemtools' ``metadata.py`` for the
defaults. What 2025-09 changes from 2023-07 for this reader: test data configuration lives in
``test_group.yaml`` with ``max_score`` / ``score_aggregation`` / ``require_pass`` instead of
``testdata.yaml`` with graders (``judge.package.testdata``), and ``allow_file_writing`` defaults to
false.

Every key is either honoured, refused with a ``PackageError`` naming the key and why (a key this
judge cannot honour: a problem type it cannot judge, a minimising objective, resource guarantees
above what it gives, constants), or, when the version does not define it, reported in
``Metadata.warnings`` (never dropped silently). Beside the format's keys this judge reads ``io``
(file input and output, docs/conventions.md) in every version, and ``limits.time_limit`` in legacy.
"""

from __future__ import annotations

import math
import reprlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

LEGACY, V2023, V2025 = "legacy", "2023-07", "2025-09"
VERSIONS = {
    "legacy": LEGACY,
    "legacy-icpc": LEGACY,
    "2023-07": V2023,
    "2023-07-draft": V2023,
    "2025-09": V2025,
    "2025-09-draft": V2025,
    "draft": V2025,
}
INFORMATION: tuple[str, ...] = (
    "uuid",
    "version",
    "author",
    "source",
    "source_url",
    "credits",
    "license",
    "rights_owner",
)
INFORMATION += ("embargo_until", "keywords")
KEYS = {
    LEGACY: {"problem_format_version", "type", "name", "limits", "validation", "validator_flags", "grading", "io"},
    V2023: {"problem_format_version", "type", "name", "limits", "languages", "allow_file_writing", "constants", "io"},
}
KEYS[V2025] = KEYS[V2023]
LIMIT_KEYS = {
    LEGACY: {"time_multiplier", "time_safety_margin", "time_limit"},
    V2023: {"time_multipliers", "time_limit", "time_resolution", "validation_passes"},
}
LIMIT_KEYS[V2025] = LIMIT_KEYS[V2023]
SIZE_LIMITS: tuple[str, ...] = ("memory", "output", "code", "compilation_time", "compilation_memory")
SIZE_LIMITS += ("validation_time", "validation_memory", "validation_output")
GRADING_KEYS = {"objective", "show_test_data_groups", "accept_score", "reject_score", "range", "on_reject"}
TYPES = {"pass-fail", "scoring", "interactive", "multi-pass", "submit-answer"}
JUDGED_TYPES = {"pass-fail", "scoring", "interactive"}

# The format's system defaults as problemtools sets them (config/problem.yaml): MiB, KiB, seconds.
DEFAULT_LIMITS = {
    "memory": 1024,
    "output": 8,
    "code": 128,
    "compilation_time": 60,
    "compilation_memory": 1024,
    "validation_time": 60,
    "validation_memory": 1024,
    "validation_output": 8,
}
# What this judge gives a compilation (judge.judging.COMPILE_LIMITS): a package asking for more is refused.
COMPILE_GIVEN = {"compilation_time": 20, "compilation_memory": 512}
# The largest limit a package may set (seconds, MiB, KiB as DEFAULT_LIMITS): more is no limit at all on
# a judging host (a memory limit past its memory, a time limit in ms taken as seconds) and is refused.
LARGEST_LIMITS = {"time_limit": 60, "memory": 16384, "output": 1024, "code": 1 << 20}
LARGEST_LIMITS |= {"validation_time": 600, "validation_memory": 16384, "validation_output": 1024}


class PackageError(ValueError):
    """A package that breaks the format; the message names the file and what is wrong."""


# how a value read from a package's YAML is quoted in a PackageError: a few levels and items of it.
# YAML aliases share one object many times over ("billion laughs"): a full repr would be exponential.
_SHOWN = reprlib.Repr()
_SHOWN.maxlevel, _SHOWN.maxlist, _SHOWN.maxtuple, _SHOWN.maxdict, _SHOWN.maxset = 3, 4, 4, 4, 4
_SHOWN.maxstring = _SHOWN.maxother = 60


def shown(value: object) -> str:
    """``repr(value)`` cut to at most a few hundred characters (nested lists, maps and long strings
    elided with ``...``), for a PackageError's message."""
    return _SHOWN.repr(value)


# The largest problem.yaml or testdata.yaml read (bytes): real ones hold a few hundred; parsing YAML
# takes CPU time in proportion to its size, and a zip packs megabytes of it into kilobytes.
MAX_CONFIG_BYTES = 64 * 1024
# libyaml's safe loader where PyYAML was built with it (much faster), else the pure Python one.
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_config(path: Path) -> dict:
    """The mapping in the YAML file ``path`` (``problem.yaml``, ``testdata.yaml``; YAML's safe
    subset, no tags of Python's). Raises PackageError when it is over ``MAX_CONFIG_BYTES``, not UTF-8
    YAML, or not a mapping (an empty file is an empty one)."""
    size = path.stat().st_size
    if size > MAX_CONFIG_BYTES:
        raise PackageError(f"{path}: {size} bytes; a configuration file holds at most {MAX_CONFIG_BYTES}")
    return parse_config(path.read_bytes(), path)


def parse_config(text: bytes, path: Path) -> dict:
    """The mapping in the YAML ``text`` of the file ``path`` (named in messages), as ``read_config``
    reads it. Raises PackageError when it is not UTF-8 YAML or not a mapping."""
    try:
        data = yaml.load(text.decode("utf-8"), Loader=SAFE_LOADER) or {}
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise PackageError(f"{path}: not valid YAML: {exc}") from exc
    if not isinstance(data, dict):
        raise PackageError(f"{path}: must be a mapping of keys")
    return data


@dataclass(frozen=True)
class Timing:
    """How a time limit is derived when the package gives none (Kattis "Problem timing"): the
    slowest accepted run × ``ac_to_time_limit``, rounded up to a multiple of ``resolution_s``
    (at least one); a time_limit_exceeded submission must still TLE at limit × ``limit_to_tle``.
    Legacy names: ``time_multiplier`` (default 5) and ``time_safety_margin`` (default 2); 2023-07
    and later: ``time_multipliers.ac_to_time_limit`` (2.0) and ``time_limit_to_tle`` (1.5)."""

    ac_to_time_limit: float
    limit_to_tle: float
    resolution_s: float = 1.0

    def limit_ms(self, slowest_accepted_ms: int) -> int:
        """The derived time limit (ms) for the slowest accepted run ``slowest_accepted_ms`` (ms CPU)."""
        steps = max(1, math.ceil(slowest_accepted_ms / 1000 * self.ac_to_time_limit / self.resolution_s - 1e-9))
        return int(round(steps * self.resolution_s * 1000))


@dataclass(frozen=True)
class Metadata:
    """``problem.yaml`` as read: ``version`` (``legacy``, ``2023-07``, ``2025-09``), ``types`` (the
    problem types), ``names`` (language code → name; empty when a legacy package leaves the name
    to its statements), ``time_limit_s`` (None: derive it, see ``Timing``), ``memory_mib``,
    ``output_mib``, ``code_kib`` (None: no limit of the package's own), ``validation_limits``
    (seconds / MiB for output validators: ``validation_time``, ``validation_memory``,
    ``validation_output``), ``validation`` (``default`` or ``custom``), ``custom_score`` (the
    validator writes ``score.txt``), ``validator_flags``, ``grading`` (legacy's problem-wide
    ``accept_score`` … ``on_reject``), ``languages`` (language codes; None: all), ``io``,
    ``information`` (author, source, license … as given) and ``warnings``."""

    version: str
    types: frozenset[str]
    names: dict[str, str]
    time_limit_s: float | None
    timing: Timing
    memory_mib: float
    output_mib: float
    code_kib: float | None
    validation_limits: dict[str, float]
    validation: str
    custom_score: bool
    validator_flags: tuple[str, ...]
    grading: dict[str, Any]
    languages: tuple[str, ...] | None
    allow_file_writing: bool
    io: dict[str, Any]
    information: dict[str, Any] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()

    @property
    def scoring(self) -> bool:
        """True for a scoring problem (a submission earns a score beside its verdict)."""
        return "scoring" in self.types

    @property
    def interactive(self) -> bool:
        """True when the output validator runs interactively with the submission."""
        return "interactive" in self.types


def _positive(value: Any, what: str, path: Path) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0 or value == math.inf:
        raise PackageError(f"{path}: {what} must be a positive number, not {shown(value)}")
    return float(value)


def _mapping(value: Any, what: str, path: Path) -> dict:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise PackageError(f"{path}: {what} must be a mapping of keys, not {shown(value)}")
    return value


def _version(meta: dict, path: Path) -> str:
    raw = meta.get("problem_format_version", "legacy")
    version = VERSIONS.get(str(raw))
    if version is None:
        raise PackageError(f"{path}: problem_format_version {shown(raw)} is not one of {', '.join(VERSIONS)}")
    return version


def _types(meta: dict, version: str, path: Path) -> frozenset[str]:
    raw = meta.get("type", "pass-fail")
    listed = [raw] if isinstance(raw, str) else raw
    if not isinstance(listed, list) or not listed or not all(isinstance(t, str) for t in listed):
        raise PackageError(f"{path}: type must be a problem type or a list of them, not {shown(raw)}")
    allowed = {"pass-fail", "scoring"} if version == LEGACY else TYPES
    unknown = [t for t in listed if t not in allowed]
    if unknown:
        raise PackageError(f"{path}: type {shown(unknown[0])} is not one of {', '.join(sorted(allowed))}")
    types = set(listed)
    if {"pass-fail", "scoring"} <= types:
        raise PackageError(f"{path}: type cannot be both pass-fail and scoring")
    refused = sorted(types - JUDGED_TYPES)
    if refused:
        raise PackageError(
            f"{path}: type {refused[0]} is not judged by this judge (it judges {', '.join(sorted(JUDGED_TYPES))})"
        )
    return frozenset(types | ({"pass-fail"} if "scoring" not in types else set()))


def _names(meta: dict, version: str, path: Path) -> dict[str, str]:
    raw = meta.get("name")
    if raw is None:
        if version != LEGACY:
            raise PackageError(f"{path}: name is required in version {version}")
        return {}
    names: dict[str, str] | None = None
    if isinstance(raw, (str, int, float)) and not isinstance(raw, bool):
        names = {"en": str(raw)}
    elif version != LEGACY and isinstance(raw, dict) and raw and all(isinstance(k, str) for k in raw):
        if all(isinstance(v, str) and v.strip() for v in raw.values()):
            names = {k: v for k, v in raw.items()}
    if names is not None:
        for language, name in names.items():
            if any(ord(c) < 32 or 127 <= ord(c) < 160 or 0xD800 <= ord(c) < 0xE000 for c in name):
                raise PackageError(f"{path}: name ({shown(language)}) must be one line of text, not {shown(name)}")
        return names
    expected = "a string" if version == LEGACY else "a string or a map of language code to name"
    raise PackageError(f"{path}: name must be {expected}, not {shown(raw)}")


def _validation(meta: dict, version: str, path: Path) -> tuple[str, bool, frozenset[str]]:
    """(``default`` or ``custom``, custom score, extra types) from legacy ``validation``."""
    words = str(meta.get("validation", "default")).split() or ["default"]
    if words[0] not in ("default", "custom") or (words[0] == "default" and words[1:]):
        raise PackageError(
            f"{path}: validation must be 'default' or 'custom' [score] [interactive], not {shown(' '.join(words))}"
        )
    extra = set(words[1:]) - {"score", "interactive"}
    if extra:
        raise PackageError(
            f"{path}: validation: unknown option {shown(sorted(extra)[0])} (custom takes score, interactive)"
        )
    return words[0], "score" in words, frozenset({"interactive"} if "interactive" in words else set())


def _grading(meta: dict, types: frozenset[str], path: Path, warnings: list[str]) -> dict[str, Any]:
    grading = _mapping(meta.get("grading"), "grading", path)
    for key in sorted(set(grading) - GRADING_KEYS):
        warnings.append(f"{path}: grading.{key} is not a key of the format; ignored")
    if grading.get("objective", "max") != "max":
        raise PackageError(f"{path}: grading.objective {shown(grading['objective'])}: this judge only maximises scores")
    on_reject = grading.get("on_reject")
    if on_reject is not None and on_reject not in ("first_error", "worst_error", "grade"):
        raise PackageError(
            f"{path}: grading.on_reject must be first_error, worst_error or grade, not {shown(on_reject)}"
        )
    scored = {k: grading[k] for k in ("accept_score", "reject_score", "range") if grading.get(k) is not None}
    if scored and "scoring" not in types:
        raise PackageError(f"{path}: grading.{next(iter(scored))} is only for scoring problems (type: scoring)")
    return {k: v for k, v in grading.items() if k in GRADING_KEYS}


def _timing(limits: dict, version: str, path: Path) -> Timing:
    if version == LEGACY:
        multiplier = limits.get("time_multiplier", 5.0)
        margin = limits.get("time_safety_margin", 2.0)
        resolution = 1.0
    else:
        multipliers = _mapping(limits.get("time_multipliers"), "limits.time_multipliers", path)
        for key in sorted(set(multipliers) - {"ac_to_time_limit", "time_limit_to_tle"}):
            raise PackageError(f"{path}: limits.time_multipliers.{key} is not a key of the format")
        multiplier = multipliers.get("ac_to_time_limit", 2.0)
        margin = multipliers.get("time_limit_to_tle", 1.5)
        resolution = _positive(limits.get("time_resolution", 1.0), "limits.time_resolution", path)
    for value, what in ((multiplier, "time multiplier"), (margin, "time safety margin")):
        if _positive(value, what, path) < 1:
            raise PackageError(f"{path}: the {what} must be at least 1, not {shown(value)}")
    return Timing(float(multiplier), float(margin), resolution)


def _limits(meta: dict, version: str, path: Path, warnings: list[str]) -> tuple[dict, dict, Timing]:
    limits = _mapping(meta.get("limits"), "limits", path)
    for key in sorted(set(limits) - LIMIT_KEYS[version] - set(SIZE_LIMITS)):
        warnings.append(f"{path}: limits.{key} is not a limit of version {version}; ignored")
    if "validation_passes" in limits:
        raise PackageError(
            f"{path}: limits.validation_passes is only for multi-pass problems, which this judge does not judge"
        )
    values: dict[str, float] = {
        key: _positive(limits.get(key, default), f"limits.{key}", path) for key, default in DEFAULT_LIMITS.items()
    }
    for key, given in COMPILE_GIVEN.items():
        if key in limits and values[key] > given:
            raise PackageError(
                f"{path}: limits.{key} {limits[key]} is more than this judge gives a compilation ({given})"
            )
    optional = {
        key: _positive(limits[key], f"limits.{key}", path) if key in limits else None for key in ("code", "time_limit")
    }
    for key, largest in LARGEST_LIMITS.items():
        if (value := values.get(key, optional.get(key))) is not None and value > largest:
            raise PackageError(f"{path}: limits.{key} {limits[key]} is more than this judge allows ({largest})")
    return values, optional, _timing(limits, version, path)


def _languages(meta: dict, path: Path) -> tuple[str, ...] | None:
    raw = meta.get("languages", "all")
    if raw == "all":
        return None
    listed = [raw] if isinstance(raw, str) else raw
    if not isinstance(listed, list) or not listed or not all(isinstance(x, str) for x in listed):
        raise PackageError(f"{path}: languages must be 'all' or a list of language codes, not {shown(raw)}")
    return tuple(listed)


def read_metadata(meta: dict, path: Path) -> Metadata:
    """Read the mapping ``meta`` of ``problem.yaml`` at ``path`` (named in messages).

    Raises PackageError for a malformed value or a key this judge cannot honour (module docstring).
    """
    version = _version(meta, path)
    warnings: list[str] = []
    for key in sorted(set(meta) - KEYS[version] - set(INFORMATION)):
        if version != LEGACY and key in ("validation", "validator_flags", "grading"):
            raise PackageError(
                f"{path}: {key} is a legacy key; version {version} sets it in the test data configuration"
            )
        warnings.append(f"{path}: {key} is not a key of version {version}; ignored")
    types = _types(meta, version, path)
    custom_score = False
    validation = "default"
    grading: dict[str, Any] = {}
    if version == LEGACY:
        validation, custom_score, extra = _validation(meta, version, path)
        types = types | extra
        grading = _grading(meta, types, path, warnings)
        if custom_score and "scoring" not in types:
            raise PackageError(f"{path}: validation 'custom score' is only for scoring problems (type: scoring)")
    else:
        custom_score = "scoring" in types
    if "constants" in meta:
        raise PackageError(f"{path}: constants are not substituted by this judge; write the values out")
    limits, optional, timing = _limits(meta, version, path, warnings)
    allow_writing = meta.get("allow_file_writing", version != V2025)
    if not isinstance(allow_writing, bool):
        raise PackageError(f"{path}: allow_file_writing must be true or false, not {shown(allow_writing)}")
    if not allow_writing:
        warnings.append(
            f"{path}: allow_file_writing is false, but a submission may still write in its own run folder "
            "(emptied after every test)"
        )
    return Metadata(
        version=version,
        types=types,
        names=_names(meta, version, path),
        time_limit_s=optional["time_limit"],
        timing=timing,
        memory_mib=limits["memory"],
        output_mib=limits["output"],
        code_kib=optional["code"],
        validation_limits={k: limits[k] for k in ("validation_time", "validation_memory", "validation_output")},
        validation=validation,
        custom_score=custom_score,
        validator_flags=tuple(str(meta.get("validator_flags") or "").split()),
        grading=grading,
        languages=_languages(meta, path) if version != LEGACY else None,
        allow_file_writing=allow_writing,
        io=_mapping(meta.get("io"), "io", path),
        information={k: meta[k] for k in INFORMATION if k in meta},
        warnings=tuple(warnings),
    )
