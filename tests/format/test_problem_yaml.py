"""problem.yaml of each format version: every key honoured, refused with a reason, or warned about;
names as a string or a language map; limits and their defaults; the time limit's sources."""

from __future__ import annotations

import pytest

from judge.package.metadata import Timing
from judge.packages import NO_TIME_LIMIT_MS, PackageError, load_package
from tests.format.conftest import FIXTURES, write_package


def test_legacy_fixture_takes_its_names_from_the_latex_statements_and_its_limit_from_timelimit():
    package = load_package(FIXTURES / "oldtimer")
    assert package.metadata.version == "legacy"
    assert package.names == {"en": "Stair Sum", "ro": "Suma scărilor"}
    assert package.name == "Stair Sum"
    assert (package.time_limit_ms, package.time_limit_source) == (1500, ".timelimit")
    assert package.memory_kib == 1024 * 1024  # the format's system default (problemtools): 1024 MiB
    assert package.metadata.information["license"] == "cc by-sa"
    assert sorted(package.statements) == ["en", "ro"]
    assert package.statements["en"].parent.name == "problem_statement"
    assert package.warnings == ()


def test_2023_07_fixture_reads_a_name_map_and_limits():
    package = load_package(FIXTURES / "greeting")
    assert package.metadata.version == "2023-07"
    assert package.names == {"en": "Greeting", "ro": "Salutul"}
    assert package.title("ro") == "Salutul" and package.title("de") == "Greeting"
    assert (package.time_limit_ms, package.time_limit_source) == (2000, "problem.yaml")
    assert package.memory_kib == 512 * 1024
    assert package.metadata.information["keywords"] == ["strings", "beginner"]


def test_no_time_limit_anywhere_leaves_it_to_be_derived(tmp_path):
    package = load_package(write_package(tmp_path / "free", "name: Free\n"))
    assert (package.time_limit_ms, package.time_limit_source) == (NO_TIME_LIMIT_MS, "")
    assert package.timing == Timing(5.0, 2.0, 1.0)  # legacy: time_multiplier 5, time_safety_margin 2


def test_explicit_limit_wins_over_timelimit_file(tmp_path):
    root = write_package(tmp_path / "both", "name: Both\nlimits: {time_limit: 3}\n", {".timelimit": "7\n"})
    assert load_package(root).time_limit_ms == 3000


@pytest.mark.parametrize(
    ("yaml_text", "timing"),
    [
        ("name: A\nlimits: {time_multiplier: 3, time_safety_margin: 1.5}\n", Timing(3.0, 1.5, 1.0)),
        ("problem_format_version: 2023-07\nname: A\n", Timing(2.0, 1.5, 1.0)),
        (
            "problem_format_version: 2025-09\nname: A\nlimits:\n  time_multipliers: {ac_to_time_limit: 3}\n"
            "  time_resolution: 0.5\n",
            Timing(3.0, 1.5, 0.5),
        ),
    ],
)
def test_time_multipliers_of_each_version(tmp_path, yaml_text, timing):
    assert load_package(write_package(tmp_path / "timed", yaml_text)).timing == timing


def test_derived_limit_is_the_slowest_accepted_run_times_the_multiplier_rounded_up():
    # problemtools: max(1, ceil(slowest × multiplier / resolution)) × resolution
    assert Timing(5.0, 2.0).limit_ms(30) == 1000
    assert Timing(5.0, 2.0).limit_ms(300) == 2000
    assert Timing(2.0, 1.5, 0.5).limit_ms(1100) == 2500
    assert Timing(2.0, 1.5, 0.25).limit_ms(10) == 250


@pytest.mark.parametrize("text", ["fast\n", "0\n", "-1\n", "inf\n", "1e308\n", "1000\n"])
def test_a_malformed_timelimit_file_is_refused(tmp_path, text):
    root = write_package(tmp_path / "bad", "name: Bad\n", {".timelimit": text})
    with pytest.raises(PackageError, match=r"\.timelimit"):
        load_package(root)


@pytest.mark.parametrize(
    ("yaml_text", "reason"),
    [
        ("problem_format_version: 2023-07\nname: A\ntype: multi-pass\n", "multi-pass is not judged"),
        ("problem_format_version: 2025-09\nname: A\ntype: submit-answer\n", "submit-answer is not judged"),
        ("problem_format_version: 2023-07\nname: A\ntype: [pass-fail, scoring]\n", "both pass-fail and scoring"),
        ("type: scoring\nname: A\ngrading: {objective: min}\n", "only maximises"),
        ("name: A\ngrading: {accept_score: 2}\n", "only for scoring problems"),
        ("name: A\nlimits: {compilation_memory: 4096}\n", "more than this judge gives"),
        ("problem_format_version: 2023-07\nname: A\nconstants: {n: 5}\n", "constants"),
        ("problem_format_version: 2023-07\nname: A\nvalidation: custom\n", "legacy key"),
        ("problem_format_version: 2023-07\nname: A\nlimits: {validation_passes: 3}\n", "multi-pass"),
        ("problem_format_version: 2023-07\n", "name is required"),
        ("problem_format_version: 2023-07\nname: {en: 5}\n", "map of language code"),
        ("problem_format_version: 1999-01\nname: A\n", "problem_format_version"),
        ("name: A\nvalidation: custom sideways\n", "unknown option"),
        ("name: A\nvalidation: custom score\n", "only for scoring problems"),
        ("name: A\nlimits: {time_multiplier: 0.5}\n", "at least 1"),
        ("name: A\nlimits: {memory: -5}\n", "positive number"),
        ("name: A\nlimits: {time_limit: 1.0e+308}\n", "limits.time_limit .* more than this judge allows"),
        ("name: A\nlimits: {time_limit: 1000}\n", "limits.time_limit 1000 is more than this judge allows"),  # ms?
        ("name: A\nlimits: {time_limit: 1, memory: 262144}\n", "limits.memory 262144 is more"),  # KiB?
        ("name: A\nlimits: {time_limit: 1, memory: 1.0e+300}\n", "limits.memory"),
        ("name: A\nlimits: {time_limit: 1, output: 100000000}\n", "limits.output"),
        ("problem_format_version: 2023-07\nname: A\nlanguages: []\n", "languages"),
    ],
)
def test_a_key_this_judge_cannot_honour_is_refused_at_load(tmp_path, yaml_text, reason):
    with pytest.raises(PackageError, match=reason):
        load_package(write_package(tmp_path / "refused", yaml_text))


def test_unknown_keys_are_warned_about_never_dropped_silently(tmp_path):
    root = write_package(
        tmp_path / "odd",
        "name: Odd\nlibraries: gmp\nlimits: {time_limit: 1, cpu_cores: 4}\ngrading: {show_groups: true}\n",
    )
    warnings = load_package(root).warnings
    assert any("libraries is not a key of version legacy" in w for w in warnings)
    assert any("limits.cpu_cores" in w for w in warnings)
    assert any("grading.show_groups" in w for w in warnings)


def test_2025_09_forbids_file_writing_by_default_and_says_it_is_not_enforced(tmp_path):
    root = write_package(tmp_path / "ro", "problem_format_version: 2025-09\nname: A\nlimits: {time_limit: 1}\n")
    package = load_package(root)
    assert package.metadata.allow_file_writing is False
    assert any("allow_file_writing" in w for w in package.warnings)


def test_legacy_custom_interactive_and_score_set_the_problem_types(tmp_path):
    root = write_package(
        tmp_path / "game",
        "name: Game\ntype: scoring\nvalidation: custom interactive score\nlimits: {time_limit: 1}\n",
        {"output_validators/check/check.py": "import sys\nsys.exit(42)\n"},
    )
    package = load_package(root)
    assert package.interactive and package.scoring and package.metadata.custom_score


def test_languages_and_code_limit_are_kept_for_judging(tmp_path):
    root = write_package(
        tmp_path / "py",
        "problem_format_version: 2023-07\nname: A\nlanguages: [python3]\nlimits: {time_limit: 1, code: 2}\n",
    )
    package = load_package(root)
    assert package.metadata.languages == ("python3",)
    assert package.code_bytes == 2048


def test_the_seed_packages_still_load_with_their_limits():
    from judge.verify import find_packages

    seeds = {"basic", "lee", "lines", "queens", "snakes"}
    roots = [r for r in find_packages(FIXTURES.parent.parent.parent / "problems") if r.name in seeds]
    assert len(roots) == len(seeds)
    for root in roots:
        package = load_package(root)
        assert (package.time_limit_ms, package.memory_kib, package.time_limit_source) == (1000, 262144, "problem.yaml")
        assert package.warnings == ()
        assert {t.group for t in package.tests} == {"sample", "secret"}


@pytest.mark.parametrize("config", ["problem.yaml", "data/testdata.yaml", "data/secret/g1/testdata.yaml"])
def test_a_configuration_file_too_large_to_parse_quickly_is_refused(tmp_path, config):
    big = "keywords: [" + "a, " * 30_000 + "a]\n"  # 90 KB: seconds of YAML parsing, past the cap
    files = {
        "data/sample/1.in": "1\n",
        "data/sample/1.ans": "1\n",
        "data/secret/g1/1.in": "2\n",
        "data/secret/g1/1.ans": "2\n",
    }
    yaml_text = "name: Big\nlimits: {time_limit: 1}\n"
    if config == "problem.yaml":
        yaml_text += big
    else:
        files[config] = "on_reject: continue\n" + big.replace("keywords", "range_note")
    root = write_package(tmp_path / "big", yaml_text, files)
    with pytest.raises(PackageError, match=rf"{config}: \d+ bytes; a configuration file holds at most"):
        load_package(root)
