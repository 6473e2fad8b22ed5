"""ICPC and IOI scoring on hand-computed cases (judge.scoring: pure functions, no database)."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from judge import scoring


def attempts(*pairs) -> list[scoring.Attempt]:
    return [scoring.Attempt(minute, verdict) for verdict, minute in pairs]


def test_penalty_is_solve_minute_plus_twenty_per_rejection_and_ce_is_free():
    # WA at 3, CE at 9, TLE at 15, AC at 47: two counted rejections -> 47 + 2 * 20 = 87
    cell = scoring.icpc_cell(attempts(("WA", 3), ("CE", 9), ("TLE", 15), ("AC", 47)))
    assert (cell.solved, cell.minute, cell.penalty, cell.tries) == (True, 47, 87, 3)


def test_judge_errors_cost_nothing():
    cell = scoring.icpc_cell(attempts(("JE", 1), ("JE", 2), ("AC", 10)))
    assert (cell.penalty, cell.tries) == (10, 1)


def test_attempts_after_the_first_ac_do_not_count():
    cell = scoring.icpc_cell(attempts(("RTE", 4), ("AC", 30), ("WA", 31), ("WA", 40), ("AC", 50)))
    assert (cell.minute, cell.penalty, cell.tries) == (30, 50, 2)


def test_unsolved_problem_costs_no_penalty_but_shows_its_tries():
    cell = scoring.icpc_cell(attempts(("WA", 1), ("MLE", 2), ("CE", 3), ("OLE", 4)))
    assert (cell.solved, cell.penalty, cell.tries, cell.minute) == (False, 0, 3, None)


def test_pending_attempts_before_any_ac_are_reported_and_cost_nothing_yet():
    cell = scoring.icpc_cell(attempts(("WA", 1), (None, 5), ("AC", 8), (None, 9)))
    assert (cell.pending, cell.penalty) == (1, 8 + 20)
    assert scoring.icpc_cell(attempts((None, 2), (None, 3))).pending == 2


def test_penalty_per_rejection_is_a_parameter():
    assert scoring.icpc_cell(attempts(("WA", 0), ("WA", 1), ("AC", 5)), penalty_minutes=10).penalty == 25


def test_contest_minutes_are_floored():
    start = datetime(2026, 1, 1, 9, 0, 0)
    assert scoring.contest_minute(start, start + timedelta(seconds=59.9)) == 0
    assert scoring.contest_minute(start, start + timedelta(seconds=60)) == 1
    assert scoring.contest_minute(start, start + timedelta(minutes=119, seconds=59)) == 119


def test_ties_share_a_rank_and_the_next_rank_skips():
    rows = sorted(
        [
            scoring.icpc_rank_key(2, 100),
            scoring.icpc_rank_key(3, 400),
            scoring.icpc_rank_key(2, 100),
            scoring.icpc_rank_key(2, 99),
            scoring.icpc_rank_key(0, 0),
        ]
    )
    # 3 solved first; 2 solved with 99 before 2 solved with 100 (twice, shared rank 3); then 0 solved
    assert rows[0] == scoring.icpc_rank_key(3, 400) and rows[1] == scoring.icpc_rank_key(2, 99)
    assert scoring.competition_ranks(rows) == [1, 2, 3, 3, 5]
    assert scoring.competition_ranks([]) == []


def test_ioi_score_without_groups_is_the_fraction_of_tests_passed():
    assert scoring.ioi_submission_score({"sample": (2, 2), "secret": (5, 8)}, 100) == pytest.approx(70.0)
    assert scoring.ioi_submission_score({"sample": (0, 2), "secret": (0, 8)}, 100) == 0
    assert scoring.ioi_submission_score({}, 100) == 0  # CE: no test ran


def test_ioi_score_with_groups_gives_each_group_all_or_nothing():
    groups = {"sample": (0, 2), "secret/group1": (3, 3), "secret/group2": (2, 3), "secret/group3": (4, 4)}
    assert scoring.ioi_submission_score(groups, 60) == pytest.approx(40.0)  # 2 of 3 groups, 20 points each


def test_ioi_best_of_takes_the_best_judged_submission():
    cell = scoring.ioi_cell(
        [
            scoring.Attempt(1, "WA", 40.0),
            scoring.Attempt(5, "WA", 70.0),
            scoring.Attempt(9, "TLE", 20.0),
            scoring.Attempt(10, "CE", 0.0),
            scoring.Attempt(12, None, 0.0),
        ]
    )
    assert (cell.score, cell.judged, cell.pending) == (70.0, 4, 1)


def test_ioi_rows_with_equal_totals_share_a_rank_despite_float_sums():
    rows = sorted([scoring.ioi_rank_key(0.1 + 0.2), scoring.ioi_rank_key(0.3), scoring.ioi_rank_key(100.0)])
    assert scoring.competition_ranks(rows) == [1, 2, 2]
