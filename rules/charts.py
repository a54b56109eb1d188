"""Bar charts of chances, drawn on the server as SVG (rules/_chart.html): no script and no
inline style, which the Content-Security-Policy allows neither of; colours come from
classes in muster.css. The Table 1 and d10 calculators and the fight odds draw them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from points.numbers import percent

CHART_WIDTH, CHART_HEIGHT = 340, 200
PLOT_LEFT, PLOT_TOP, PLOT_HEIGHT = 36, 18, 140  # 140 = 7 a 5% step, 14 a 10% step
SLOT, BAR = 30, 22
GRID = (0, Fraction(1, 4), Fraction(1, 2), Fraction(3, 4), Fraction(1))
# More than ten bars share the ten bars' width (a unit's losses run to 200): each is
# narrower, without its value above it, and only every few are labelled below.
WIDE_BARS, MIN_SLOT, LABEL_SPACE = 10, 2, 24
TICKS = (1, 2, 5, 10, 20, 25, 50, 100)


@dataclass(frozen=True)
class Bar:
    label: str  # under the bar: the DEF or stat it is for
    percent: str
    x: int
    y: int
    height: int
    current: bool  # the column the player asked about
    width: int = BAR
    value_shown: bool = True  # its percentage above it (not on a narrow bar)
    label_shown: bool = True

    @property
    def middle(self) -> int:
        return self.x + self.width // 2

    @property
    def value_y(self) -> int:
        return self.y - 3


@dataclass(frozen=True)
class Chart:
    title: str
    axis: str  # what the bars run across
    bars: tuple[Bar, ...]
    grid: tuple[tuple[int, str], ...]  # (y, percent) of each horizontal line
    width: int
    height: int = CHART_HEIGHT
    left: int = PLOT_LEFT
    bottom: int = PLOT_TOP + PLOT_HEIGHT
    desc: str = ""  # what a screen reader hears besides the title (SVG <desc>)

    @property
    def grid_label_x(self) -> int:
        return self.left - 4

    @property
    def bar_label_y(self) -> int:
        return self.bottom + 14

    @property
    def axis_label_y(self) -> int:
        return self.height - 2

    @property
    def current(self) -> Bar | None:
        return next((bar for bar in self.bars if bar.current), None)


def chart(
    title: str,
    axis: str,
    chances: Sequence[tuple[int, Fraction | float]],
    current: int | None = None,
    shown: Callable[[Fraction], str] = percent,
    desc: str = "",
) -> Chart:
    """A bar a chance; `shown` writes a chance as a percentage (the fight odds write one
    that is not certain as ">99.9", never "100.0")."""
    n = len(chances)
    slot = SLOT if n <= WIDE_BARS else max(MIN_SLOT, WIDE_BARS * SLOT // n)
    width = BAR if slot == SLOT else max(1, slot - max(1, slot // 4))
    tick = next((t for t in TICKS if t * slot >= LABEL_SPACE), TICKS[-1])
    bars = []
    for i, (label, chance) in enumerate(chances):
        height = round(chance * PLOT_HEIGHT)
        bars.append(
            Bar(
                str(label),
                shown(chance),
                PLOT_LEFT + i * slot + (slot - width) // 2,
                PLOT_TOP + PLOT_HEIGHT - height,
                height,
                label == current,
                width,
                value_shown=slot == SLOT,
                label_shown=slot == SLOT or i % tick == 0,
            )
        )
    grid = tuple((PLOT_TOP + PLOT_HEIGHT - round(g * PLOT_HEIGHT), percent(g)) for g in GRID)
    plot = n * slot + (4 if slot == SLOT else SLOT // 2)  # room for the last label
    return Chart(title, axis, tuple(bars), grid, width=PLOT_LEFT + plot, desc=desc)
