"""The classes pages in a real browser (Debian Chromium through Playwright) against a real server: a
teacher makes two classes from CSV files, runs a contest for one of them, and each class's students
see what is theirs. Screenshots (paths printed) under the artifacts folder of ``tests/web/conftest.py``."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest
from playwright.sync_api import expect

from tests.web import test_teacher_browser
from tests.web.conftest import screenshot, sign_in

pytestmark = pytest.mark.slow
contests_end = test_teacher_browser.contests_end  # the fixture: every contest ends with the test


def _upload(teacher, class_name: str, roster) -> list[tuple[str, str]]:
    """Make the class ``class_name`` from the CSV file ``roster`` on the Classes page; the slips'
    (login, password) pairs."""
    teacher.goto("/teacher/classes")
    teacher.get_by_label("New class").fill(class_name)
    teacher.get_by_role("button", name="Create class").click()
    teacher.wait_for_url(re.compile(r"/teacher/classes/\d+$"))
    teacher.get_by_label("CSV file").set_input_files(str(roster))
    teacher.get_by_role("button", name="Upload and show the new passwords").click()
    slips = teacher.locator(".slip")
    expect(slips.first).to_be_visible()
    return [
        (slip.locator(".slip-login").inner_text(), slip.locator(".slip-password").inner_text()) for slip in slips.all()
    ]


def test_two_classes_and_a_contest_for_one_of_them(live_judge, new_page, tmp_path, contests_end):
    live_judge.add_user("tcls", "teacher", "Ms Classes")
    live_judge.add_user("tother", "teacher")
    teacher = new_page()
    sign_in(teacher, "tcls")
    first = tmp_path / "10a.csv"
    first.write_text("name,display name\nkai,Kai <i>Kaur</i>\nlia,Lia Lung\n", encoding="utf-8")
    second = tmp_path / "10b.csv"
    second.write_text("mos,Mos Moraru\n", encoding="utf-8")
    passwords = dict(_upload(teacher, "10A", first) + _upload(teacher, "10B", second))
    assert set(passwords) == {"kai", "lia", "mos"}

    teacher.get_by_role("link", name="Classes", exact=True).click()
    expect(teacher.locator("table.classes tbody tr")).to_have_count(2)
    screenshot(teacher, "teacher-classes")
    teacher.get_by_role("link", name="10A").click()
    students = teacher.locator("table.class-students tbody tr")
    expect(students).to_have_count(2)
    expect(students.first).to_contain_text("Kai <i>Kaur</i>")  # shown as text
    screenshot(teacher, "teacher-class-page")

    # a contest for 10A only, from the contest form
    teacher.get_by_role("link", name="Contests", exact=True).click()
    teacher.get_by_role("link", name="New contest").click()
    now = datetime.now().astimezone()
    teacher.get_by_label("Name", exact=True).fill("Lab for 10A")
    teacher.get_by_label("Start").fill(f"{now - timedelta(minutes=2):%Y-%m-%dT%H:%M}")
    teacher.get_by_label("End").fill(f"{now + timedelta(hours=1):%Y-%m-%dT%H:%M}")
    teacher.get_by_label("Problem 1", exact=True).select_option("lee")
    teacher.get_by_label("10A").check()
    teacher.get_by_role("button", name="Create contest").click()
    teacher.wait_for_url(re.compile(r"/teacher/contests/\d+$"))
    expect(teacher.locator("dl.limits")).to_contain_text("class 10A")
    board = teacher.locator("#board table.board")
    expect(board).to_contain_text("Lia Lung")
    expect(board).not_to_contain_text("Mos Moraru")
    screenshot(teacher, "teacher-contest-for-a-class")

    # 10A sees the contest; 10B does not, and practises lee meanwhile
    kai = new_page()
    sign_in(kai, "kai", passwords["kai"])
    expect(kai.locator("main")).to_contain_text("Lab for 10A")
    mos = new_page()
    sign_in(mos, "mos", passwords["mos"])
    expect(mos.locator("main")).not_to_contain_text("Lab for 10A")
    mos.goto("/problems/lee")
    expect(mos.get_by_role("button", name="Submit")).to_be_visible()  # 10B practises lee meanwhile
    expect(mos.locator("main")).not_to_contain_text("running contest")
    screenshot(mos, "student-other-class-practises")
    kai.goto("/problems/lee")
    expect(kai.locator("main")).to_contain_text("running contest")  # 10A submits to the contest

    # another teacher sees neither the classes nor their students
    other = new_page()
    sign_in(other, "tother")
    other.goto("/teacher/classes")
    expect(other.locator("main")).to_contain_text("You have no class yet")
    other.goto("/teacher/users")
    expect(other.locator("table.accounts")).not_to_contain_text("kai")


def test_the_classes_pages_fit_a_phone(live_judge, new_page, tmp_path):
    live_judge.add_user("tphc", "teacher")
    page = new_page(390, 844)
    sign_in(page, "tphc")
    roster = tmp_path / "phone.csv"
    roster.write_text("pho1,Phone One\n", encoding="utf-8")
    _upload(page, "Phone class", roster)
    page.goto("/teacher/classes")
    for name, link in (("teacher-phone-classes", None), ("teacher-phone-class-page", "Phone class")):
        if link:
            page.get_by_role("link", name=link).click()
        expect(page.locator("main h1")).to_be_visible()
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"{page.url} is {width} px wide on a 390 px phone"
        screenshot(page, name)


def test_a_bad_row_of_a_class_csv_is_named_by_its_line_in_the_file(live_judge, new_page, tmp_path):
    live_judge.add_user("tline", "teacher", "Mr Lines")
    teacher = new_page()
    sign_in(teacher, "tline")
    roster = tmp_path / "11c.csv"
    # the header and the blank line are lines 1 and 3 of the file; the bad name stands on line 5
    roster.write_text("name,display name\nnia,Nia\n\nodo,Odo\nbad name!,Pia\n", encoding="utf-8")
    teacher.goto("/teacher/classes")
    teacher.get_by_label("New class").fill("11C")
    teacher.get_by_role("button", name="Create class").click()
    teacher.wait_for_url(re.compile(r"/teacher/classes/\d+$"))
    teacher.get_by_label("CSV file").set_input_files(str(roster))
    teacher.get_by_role("button", name="Upload and show the new passwords").click()
    alert = teacher.get_by_role("alert")
    expect(alert).to_contain_text(re.compile(r"^line 5: user name"))
    expect(teacher.locator(".slip")).to_have_count(0)  # nobody was imported
    screenshot(teacher, "teacher-class-csv-line", full_page=False)
