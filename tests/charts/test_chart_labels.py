"""The direct labels of every chart (issue 44): placed beside their marks, or moved away with a leader line,
a label never covers another label or a mark and stays inside its bounds; property-tested on any data, and
on the estimator's chart, whose labelled marks sit in a crowd."""
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from charts import labels
from charts.cost_chart import cost_chart
from charts.labels import Box
from charts.scatter_chart import mark_box
from charts.text import FONT_SIZE, text_width

BOUNDS = Box(60, 40, 620, 440)
RADIUS = 7

marks_strategy = st.lists(st.tuples(st.integers(BOUNDS.left, BOUNDS.right), st.integers(BOUNDS.top, BOUNDS.bottom)),
                          min_size=1, max_size=40)
texts = st.text(alphabet="ABCDEFGHRTXabc0123456789 ×:", min_size=1, max_size=24)


def mark(x, y):
    return Box(x - RADIUS, y - RADIUS, x + RADIUS, y + RADIUS)


def assert_clear(placed, marks, bounds):
    for index, label in enumerate(placed):
        assert label.box.inside(bounds), label
        assert not any(label.box.overlaps(other) for other in marks), label
        for other in placed[index + 1:]:
            assert not label.box.overlaps(other.box), (label, other)


@settings(max_examples=200, deadline=None)
@given(marks_strategy, st.data())
def test_no_label_covers_another_label_or_a_mark(centres, data):
    marks = [mark(x, y) for x, y in centres]
    chosen = data.draw(st.lists(st.integers(0, len(centres) - 1), unique=True, min_size=1, max_size=len(centres)))
    requests = []
    for index in chosen:
        text = data.draw(texts)
        requests.append((text, (str(index),), text_width(text, FONT_SIZE), marks[index]))
    result = labels.place_free(requests, marks, BOUNDS)
    assert len(result) == len(requests)
    placed = [label for label in result if label is not None]
    assert_clear(placed, marks, BOUNDS)
    for (text, names, _width, extent), label in zip(requests, result, strict=True):
        if label is None:
            continue
        assert (label.text, label.names) == (text, names)
        if label.leader is not None:
            # The leader starts on its mark's box and ends next to its label.
            leader = label.leader
            assert extent.left <= leader.x1 <= extent.right and extent.top <= leader.y1 <= extent.bottom
            gap = labels.LEADER_GAP
            assert label.box.left - gap <= leader.x2 <= label.box.right + gap
            assert label.box.top - gap <= leader.y2 <= label.box.bottom + gap


def test_a_label_in_a_crowd_moves_away_with_a_leader():
    # A ring of marks around the labelled one: no room beside it, so the label moves and a leader joins it.
    centre = (300, 240)
    ring = [(centre[0] + dx, centre[1] + dy) for dx in range(-120, 121, 12) for dy in range(-36, 37, 12)]
    marks = [mark(*centre)] + [mark(x, y) for x, y in ring if (x, y) != centre]
    text = "Fastest: B200 × 64"
    [label] = labels.place_free([(text, ("b200",), text_width(text, FONT_SIZE), marks[0])], marks, BOUNDS)
    assert label is not None and label.leader is not None
    assert_clear([label], marks, BOUNDS)


def log_items(count):
    # A grid of configurations, as the estimator plots them: time against cost, both above zero.
    return [(f"GPU {n}", Fraction(10 + (n % 7) * 13), Fraction(1000 + (n // 7) * 170 + (n % 3) * 40))
            for n in range(count)]


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 40), st.data())
def test_the_estimators_labels_cover_no_mark_and_no_other_label(count, data):
    items = log_items(count)
    highlighted = {data.draw(st.integers(0, count - 1)): "Cheapest: H100 SXM × 64",
                   data.draw(st.integers(0, count - 1)): "Fastest: B200 × 64"}
    ladder = [(Fraction(10) ** power, f"1e{power}") for power in range(6)]
    layout = cost_chart(items, highlighted, "Time", "Cost", ladder, ladder, str, str)
    marks = [mark_box(point) for point in layout.points]
    assert_clear(list(layout.labels), marks, layout.plot)
    assert len(layout.labels) == len(highlighted)
