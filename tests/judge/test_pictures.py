"""judge.pictures: every picture drawn from a real checker's feedback, parsed back as SVG; the fault
marked at the checker's cell; hostile strings escaped; malformed feedback draws nothing."""

from __future__ import annotations

import copy
import re
import xml.etree.ElementTree as ET

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markupsafe import Markup

from judge.pictures import SCRIPT, render_picture
from tests.checker_runs import answer, run, wrong

SVG = "{http://www.w3.org/2000/svg}"
WRONG = {
    "lee": ("sample/01", "a path through a wall cell"),
    "lines": ("sample/01", "a + on a ball"),
    "snakes": ("sample/01", "count + 1"),
    "basic": ("sample/02", "a position that is not a permutation"),
    "queens": ("secret/07-n9", "an attacking placement (one column)"),
}


@pytest.fixture(scope="module")
def feedbacks(tmp_path_factory) -> dict[str, dict]:
    """One real wrong-answer feedback per problem, from the package's checker."""
    made = {}
    for problem, (test, kind) in WRONG.items():
        code, _, feedback = run(problem, test, wrong(problem, test)[kind], tmp_path_factory.mktemp(problem))
        assert code == 43 and feedback is not None
        made[problem] = feedback
    return made


def svg_of(picture: Markup) -> ET.Element:
    """The picture's <svg> element, parsed as XML (raises if it is not well-formed)."""
    match = re.search(r"<svg.*</svg>", str(picture), re.S)
    assert match, picture
    return ET.fromstring(match.group(0))


@pytest.mark.parametrize("problem", list(WRONG))
def test_each_problem_draws_a_titled_svg_with_a_caption(feedbacks, problem):
    picture = render_picture(feedbacks[problem])
    assert isinstance(picture, Markup)
    svg = svg_of(picture)
    assert svg[0].tag == f"{SVG}title" and svg[0].text and svg.get("aria-labelledby") == svg[0].get("id")
    assert str(picture).startswith(f'<figure class="picture picture-{problem}">')
    caption = re.search(r"<figcaption>(.*)</figcaption>", str(picture), re.S)
    assert caption and len(caption.group(1)) > 20


def fault_mark(svg: ET.Element) -> ET.Element:
    (mark,) = [g for g in svg.iter(f"{SVG}g") if g.get("class") == "picture-fault"]
    return mark


@pytest.mark.parametrize("problem", ["lee", "lines"])
def test_the_bad_step_is_marked_at_the_checkers_cell(feedbacks, problem):
    feedback = feedbacks[problem]
    row, col = feedback["fault"]["cell"]
    svg = svg_of(render_picture(feedback))
    side = float(svg.get("viewBox").split()[2]) / (len(feedback["grid"][0]) + 2)
    mark = fault_mark(svg)
    square = mark.find(f"{SVG}rect")
    assert (mark.get("data-row"), mark.get("data-col")) == (str(row), str(col))
    centre_x = float(square.get("x")) + float(square.get("width")) / 2
    centre_y = float(square.get("y")) + float(square.get("height")) / 2
    assert (centre_x / side - 0.5, centre_y / side - 0.5) == (col, row)
    reason = {"lee": "is a wall", "lines": "goes through a ball"}[problem]
    assert f"{reason}" in str(render_picture(feedback)) and f"(row {row}, column {col})" in str(
        render_picture(feedback)
    )


def test_lee_picture_draws_the_wave_layers_and_a_range_to_step_through_them(feedbacks):
    feedback = feedbacks["lee"]
    picture = str(render_picture(feedback))
    farthest = max(max(row) for row in feedback["distance"])
    layers = [int(rect.get("data-d")) for rect in svg_of(Markup(picture)).iter(f"{SVG}rect") if rect.get("data-d")]
    reachable = sorted(d for row in feedback["distance"] for d in row if d >= 0)
    assert sorted(layers) == reachable
    assert f'type="range" min="0" max="{farthest}" value="{farthest}"' in picture
    assert 'class="picture-controls" hidden=""' in picture  # shown by pictures.js; the svg needs no script
    assert "data-picture-wave" in SCRIPT.read_text()


def test_basic_outlines_the_position_at_fault(feedbacks):
    feedback = feedbacks["basic"]
    svg = svg_of(render_picture(feedback))
    (outline,) = [r for r in svg.iter(f"{SVG}rect") if r.get("class") == "picture-fault"]
    step = feedback["fault"]["step"]
    assert round((float(outline.get("x")) + 3 - 4) / (3 * 22 + 16)) == step % 8


def test_queens_marks_the_attacking_pair(feedbacks):
    feedback = feedbacks["queens"]
    svg = svg_of(render_picture(feedback))
    marked = {c.get("data-row") for c in svg.iter(f"{SVG}circle") if c.get("stroke") == "#b00020"}
    assert marked == {str(row) for row in feedback["fault"]["rows"]}
    lines = [line.get("data-rows") for line in svg.iter(f"{SVG}line") if line.get("class") == "picture-attack"]
    assert sorted(lines) == sorted(f"{a} {b}" for a, b, _ in feedback["attacked"])


def test_an_accepted_answer_has_no_fault_mark(tmp_path):
    _, _, feedback = run("lee", "sample/01", answer("lee", "sample/01"), tmp_path)
    picture = render_picture(feedback)
    assert picture is not None and "picture-fault" not in picture and "Accepted: a shortest path of 12 moves" in picture


def legend_of(picture: Markup) -> list[str]:
    """The words of the picture's legend entries (without their colour square), in order."""
    legend = re.search(r'<ul class="picture-legend">(.*?)</ul>', str(picture), re.S)
    assert legend, picture
    return [
        re.sub(r"<[^>]*>", "", item).lstrip("\u25a0 ").strip()
        for item in re.findall(r"<li>(.*?)</li>", legend.group(1), re.S)
    ]


def test_the_legend_lists_only_what_is_drawn(feedbacks, tmp_path):
    wrong_path = legend_of(render_picture(feedbacks["lee"]))
    assert [w.split(" (")[0] for w in wrong_path] == [
        "BFS distance layers from the start",
        "one shortest path",
        "your path",
        "the first fault",
        "wall",
    ]
    _, _, out_of_reach = run("lee", "sample/03", answer("lee", "sample/03"), tmp_path)  # -1: no path at all
    assert out_of_reach is not None and out_of_reach["shortest"] is None and not out_of_reach["path"]
    picture = render_picture(out_of_reach)
    assert picture is not None and "picture-shortest" not in picture
    assert [w.split(" (")[0] for w in legend_of(picture)] == ["BFS distance layers from the start", "wall"]


def test_hostile_strings_are_escaped(feedbacks):
    feedback = copy.deepcopy(feedbacks["basic"])
    feedback["positions"] = ['<script>"', "</svg><b>", "&amp;'x"]
    feedback["fault"] = {"reason": "wrong_start", "step": 0}
    picture = str(render_picture(feedback))
    assert "<script>" not in picture and "</svg><b>" not in picture and "<b>" not in picture
    assert "The first position &lt;script&gt;&#34; is not" in picture  # the caption quotes it as text
    assert ">&amp;</text>" in picture  # a tile shows the character itself
    svg_of(Markup(picture))  # still well-formed
    assert render_picture({"kind": "<script>", "version": 1}) is None


def broken(feedbacks: dict) -> list[dict]:
    lee, basic, queens, snakes = (feedbacks[k] for k in ("lee", "basic", "queens", "snakes"))
    return [
        {},
        {"kind": "lee"},
        lee | {"version": 2},
        lee | {"grid": ["012"] * 3},
        lee | {"grid": ["01", "0"]},
        lee | {"grid": ["0" * 101] * 101},
        lee | {"distance": [[0]]},
        lee | {"path": [[1, "2"]]},
        lee | {"path": [[True, 1]]},
        lee | {"start": [0, 1]},
        lee | {"fault": {"reason": "<b>made up</b>"}},
        lee | {"fault": {"reason": "wall", "cell": [1.5, 2]}},
        lee | {"accepted": "yes"},
        lee | {"shortest_moves": float("nan")},
        basic | {"positions": "BASIC*"},
        basic | {"positions": ["x" * 13]},
        basic | {"fault": {"reason": "illegal_move", "step": 99}},
        queens | {"size": 13},
        queens | {"attacked": [[1, 2]]},
        queens | {"attacked": [[1, 2, "row"]]},
        queens | {"columns": [1] * 65},
        snakes | {"route": [{"from": 0, "throw": 7, "land": 7, "to": 7}]},
        snakes | {"transitions": [[1, 2, 3]]},
        snakes | {"distance": [0]},
    ]


def test_malformed_feedback_draws_nothing(feedbacks):
    for feedback in broken(feedbacks):
        assert render_picture(feedback) is None, feedback
    assert render_picture(None) is None and render_picture([1, 2]) is None  # type: ignore[arg-type]


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**12), 10**12) | st.floats(allow_nan=True) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(problem=st.sampled_from(list(WRONG)), key_index=st.integers(0, 30), value=JSON)
def test_any_value_in_any_field_renders_or_draws_nothing(feedbacks, problem, key_index, value):
    feedback = copy.deepcopy(feedbacks[problem])
    keys = sorted(feedback)
    feedback[keys[key_index % len(keys)]] = value
    picture = render_picture(feedback)
    assert picture is None or isinstance(picture, Markup)
    if picture is not None:
        svg_of(picture)


def test_the_generic_answer_picture_escapes_and_refuses_bad_shapes():
    wrong = {
        "kind": "answer",
        "version": 1,
        "accepted": False,
        "fault": {"reason": "wrong sum <b>", "token": "5"},
        "expected": "6",
        "received": "<script>5</script>",
    }
    picture = render_picture(wrong)
    assert picture is not None and "picture-fault" in picture and "<script>" not in picture
    assert "Wrong answer: wrong sum &lt;b&gt;" in picture
    right = {"kind": "answer", "version": 1, "accepted": True, "fault": None, "expected": "6", "received": "6"}
    assert "Accepted: 6." in (render_picture(right) or "")
    for broken in ({**right, "expected": 6}, {**right, "received": "x" * 201}, {**right, "fault": {"reason": 1}}):
        assert render_picture(broken) is None
