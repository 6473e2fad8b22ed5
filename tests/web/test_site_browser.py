"""The frame of every page in a real browser (Debian Chromium through Playwright) against a real
server: the site's own icon, linked and at ``/favicon.ico``. Each test saves a screenshot (path
printed)."""

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
