"""Bar charts of chances, drawn on the server as SVG (rules/_chart.html): no script and no
inline style, which the Content-Security-Policy allows neither of; colours come from
classes in muster.css. The Table 1 and d10 calculators and the fight odds draw them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from armies import aids

CHART_WIDTH, CHART_HEIGHT = 340, 200
PLOT_LEFT, PLOT_TOP, PLOT_HEIGHT = 36, 18, 140  # 140 = 7 a 5% step, 14 a 10% step
SLOT, BAR = 30, 22
GRID = (0, Fraction(1, 4), Fraction(1, 2), Fraction(3, 4), Fraction(1))


@dataclass(frozen=True)
class Bar:
    label: str  # under the bar: the DEF or stat it is for
    percent: str
    x: int
    y: int
    height: int
    current: bool  # the column the player asked about
    width: int = BAR

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
    title: str, axis: str, chances: Sequence[tuple[int, Fraction]], current: int | None = None
) -> Chart:
    bars = []
    for i, (label, chance) in enumerate(chances):
        height = round(chance * PLOT_HEIGHT)
        bars.append(
            Bar(
                str(label),
                aids.percent(chance),
                PLOT_LEFT + i * SLOT + (SLOT - BAR) // 2,
                PLOT_TOP + PLOT_HEIGHT - height,
                height,
                label == current,
            )
        )
    grid = tuple((PLOT_TOP + PLOT_HEIGHT - round(g * PLOT_HEIGHT), aids.percent(g)) for g in GRID)
    return Chart(title, axis, tuple(bars), grid, width=PLOT_LEFT + len(bars) * SLOT + 4)
