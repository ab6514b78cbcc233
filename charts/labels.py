"""Direct labels that never cover another label or a mark: a label goes beside its marks where there is room
(``candidate_places``); where the crowd leaves none, it moves away along rings of growing distance and a leader
line joins it to its mark (``leader_places``). Every chart that writes names beside marks places them here; a
label's width is ``text.text_width``'s."""
from dataclasses import dataclass

from .text import ASCENT_UNITS, DESCENT_UNITS, LINE_HEIGHT, MIDDLE_BASELINE

LABEL_GAP = 3  # between a mark and its name
LEADER_RINGS = 12  # how far a label may move from its mark: this many lines, at most
LEADER_GAP = 2  # between a leader's end and its label's box


@dataclass(frozen=True)
class Box:
    left: int
    top: int
    right: int
    bottom: int

    def overlaps(self, other):
        return (self.left < other.right and other.left < self.right
                and self.top < other.bottom and other.top < self.bottom)

    def inside(self, other):
        return (other.left <= self.left and self.right <= other.right
                and other.top <= self.top and self.bottom <= other.bottom)

    @property
    def centre(self):
        return (self.left + self.right) // 2, (self.top + self.bottom) // 2


@dataclass(frozen=True)
class Leader:
    """A line from the edge of a label's mark to its label, drawn when the label had to move away."""

    x1: int
    y1: int
    x2: int
    y2: int


@dataclass(frozen=True)
class Label:
    text: str
    names: tuple  # the names of the marks it labels
    x: int
    y: int  # baseline
    anchor: str  # SVG text-anchor: start, middle or end
    box: Box
    leader: Leader | None = None


def text_box(x, baseline, anchor, width):
    left = {"start": x, "end": x - width, "middle": x - (width + 1) // 2}[anchor]
    return Box(left, baseline - ASCENT_UNITS, left + width, baseline + DESCENT_UNITS)


def extent_of(boxes):
    return Box(min(b.left for b in boxes), min(b.top for b in boxes), max(b.right for b in boxes),
               max(b.bottom for b in boxes))


def candidate_places(extent, width, bounds):
    """Where a label ``width`` wide may go beside marks covering ``extent``: right, left, above, below (moved
    sideways to stay inside ``bounds``), then half a line higher or lower at the right and at the left, then
    the four corners; as (x, baseline, anchor)."""
    x, y = extent.centre
    right, left = extent.right + LABEL_GAP, extent.left - LABEL_GAP
    middle = y + MIDDLE_BASELINE
    above, below = extent.top - LABEL_GAP - DESCENT_UNITS, extent.bottom + LABEL_GAP + ASCENT_UNITS
    half = (width + 1) // 2
    centred = min(max(x, bounds.left + half), bounds.right - half)
    nudge = LINE_HEIGHT // 2
    return [
        (right, middle, "start"), (left, middle, "end"), (centred, above, "middle"), (centred, below, "middle"),
        (right, middle - nudge, "start"), (right, middle + nudge, "start"),
        (left, middle - nudge, "end"), (left, middle + nudge, "end"),
        (x, above, "start"), (x, above, "end"), (x, below, "start"), (x, below, "end"),
    ]


def leader_places(extent, width, bounds):
    """Places further from the marks, nearest first: on rings one line apart, above and below (centred, or
    starting or ending at the mark) and beside it, higher and lower; as (x, baseline, anchor)."""
    x, y = extent.centre
    half = (width + 1) // 2
    centred = min(max(x, bounds.left + half), bounds.right - half)
    places = []
    for ring in range(1, LEADER_RINGS + 1):
        lift = ring * LINE_HEIGHT
        above, below = extent.top - LABEL_GAP - DESCENT_UNITS - lift, extent.bottom + LABEL_GAP + ASCENT_UNITS + lift
        middle = y + MIDDLE_BASELINE
        places += [
            (centred, above, "middle"), (centred, below, "middle"),
            (x, above, "start"), (x, above, "end"), (x, below, "start"), (x, below, "end"),
            (extent.right + LABEL_GAP + lift, middle, "start"), (extent.left - LABEL_GAP - lift, middle, "end"),
            (extent.right + LABEL_GAP, middle - lift, "start"), (extent.right + LABEL_GAP, middle + lift, "start"),
            (extent.left - LABEL_GAP, middle - lift, "end"), (extent.left - LABEL_GAP, middle + lift, "end"),
        ]
    return places


def leader_to(extent, box):
    """A line from the edge of ``extent`` (the marks) towards the nearest point of the label's ``box``."""
    x, y = extent.centre
    target_x = min(max(x, box.left - LEADER_GAP), box.right + LEADER_GAP)
    target_y = min(max(y, box.top - LEADER_GAP), box.bottom + LEADER_GAP)
    start_x = min(max(target_x, extent.left), extent.right)
    start_y = min(max(target_y, extent.top), extent.bottom)
    return Leader(start_x, start_y, target_x, target_y)


def labels_at(text, names, extent, width, places, bounds, obstacles, leader=False):
    """The labels at ``places`` inside ``bounds`` that cover none of ``obstacles``, in the places' order."""
    found = []
    for x, baseline, anchor in places:
        box = text_box(x, baseline, anchor, width)
        if box.inside(bounds) and not any(box.overlaps(other) for other in obstacles):
            found.append(Label(text, names, x, baseline, anchor, box, leader_to(extent, box) if leader else None))
    return found


def place_free(requests, marks, bounds, placed=()):
    """A label for each request, (text, names, width, extent of its marks), in order, each over no mark and no
    label placed before it (``placed``, then the earlier requests'): beside its marks if it can, else moved away
    with a leader; None for a request no place inside ``bounds`` fits."""
    taken = [label.box for label in placed]
    labels = []
    for text, names, width, extent in requests:
        obstacles = [*marks, *taken]
        options = (labels_at(text, names, extent, width, candidate_places(extent, width, bounds), bounds, obstacles)
                   or labels_at(text, names, extent, width, leader_places(extent, width, bounds), bounds, obstacles,
                                leader=True))
        label = options[0] if options else None
        if label is not None:
            taken.append(label.box)
        labels.append(label)
    return labels
