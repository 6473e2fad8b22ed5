"""The frame of every page in a real browser (Debian Chromium through Playwright) against a real
server: the site's own icon, linked and at ``/favicon.ico``, and the admin's navigation in one line
on a 1280 px wide screen. Each test saves a screenshot (path printed)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.web.conftest import REPO, screenshot, sign_in

pytestmark = pytest.mark.slow
ICON = REPO / "judge" / "web" / "static" / "favicon.svg"


def test_every_page_has_our_icon_and_favicon_ico_answers_it(live_judge, new_page):
    live_judge.add_user("ivo", display_name="Ivo")
    page = new_page()
    missing: list[str] = []
    page.on("response", lambda r: missing.append(r.url) if r.status == 404 else None)
    sign_in(page, "ivo")
    page.goto("/")
    icon = page.locator("head link[rel=icon]")
    expect(icon).to_have_attribute("href", "/static/web/favicon.svg")
    expect(icon).to_have_attribute("type", "image/svg+xml")
    for address in ("/static/web/favicon.svg", "/favicon.ico"):
        answer = page.request.get(address)
        assert (answer.status, answer.headers["content-type"]) == (200, "image/svg+xml"), address
        assert answer.body() == ICON.read_bytes()
    assert missing == [], missing

    picture = new_page(200, 140)  # the icon as a tab shows it (16 px), and larger
    picture.set_content(
        "".join(f'<img src="{live_judge.url}/favicon.ico" width="{n}" height="{n}" alt="">' for n in (16, 32, 128))
    )
    sizes = picture.locator("img").evaluate_all("images => images.map(i => i.complete && i.naturalWidth > 0)")
    assert sizes == [True, True, True]  # each drawn: an image the browser can read
    screenshot(picture, "site-icon", full_page=False)


def _boxes(page) -> list[tuple[str, float, float]]:
    """Each item of the main navigation with the top and the bottom of its box (px)."""
    return page.get_by_role("navigation", name="Main").evaluate(
        "nav => [...nav.children].map(c => [c.textContent.trim(), c.getBoundingClientRect().top,"
        " c.getBoundingClientRect().bottom])"
    )


def _one_line(boxes: list[tuple[str, float, float]]) -> bool:
    """Whether the boxes stand side by side: every one starts above the end of every other (items
    of another size are centred in the line, a little lower or higher)."""
    return max(top for _, top, _ in boxes) < min(bottom for _, _, bottom in boxes)


@pytest.mark.parametrize("role, name", [("admin", "Administrator"), ("teacher", "Teodora Teacher")])
def test_the_navigation_of_the_jury_fits_one_line_at_1280_px(live_judge, new_page, role, name):
    login = f"nav{role}"
    live_judge.add_user(login, role, name)
    page = new_page(1280, 800)
    sign_in(page, login)
    for address in ("/", "/teacher/contests"):
        page.goto(address)
        boxes = _boxes(page)
        assert len(boxes) == 11 and _one_line(boxes), boxes  # the brand, 8 links, who is signed in, Log out
        who = page.get_by_role("navigation", name="Main").locator(".who")
        expect(who).to_have_text(f"Signed in as {name} ({login}, {role})")
        assert who.locator("strong").evaluate("s => s.scrollWidth <= s.clientWidth"), "the name is cut"
    screenshot(page, f"navigation-{role}-1280", full_page=False)
