"""A line plot with error bars, axis labels, a title and a legend, written as a PNG with ``zlib``
only (no plotting dependency): the AlphaZero example's win-rate curve.

Text uses a 5×7 bitmap font of capitals, digits and a little punctuation (lower case is drawn
in capitals), drawn twice its size so that it stays readable."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path
from typing import NamedTuple

#: Each glyph: seven rows of five pixels, top to bottom, ``1`` = ink.
FONT = {
    "A": "01110 10001 10001 11111 10001 10001 10001",
    "B": "11110 10001 10001 11110 10001 10001 11110",
    "C": "01110 10001 10000 10000 10000 10001 01110",
    "D": "11110 10001 10001 10001 10001 10001 11110",
    "E": "11111 10000 10000 11110 10000 10000 11111",
    "F": "11111 10000 10000 11110 10000 10000 10000",
    "G": "01110 10001 10000 10111 10001 10001 01111",
    "H": "10001 10001 10001 11111 10001 10001 10001",
    "I": "01110 00100 00100 00100 00100 00100 01110",
    "J": "00111 00010 00010 00010 00010 10010 01100",
    "K": "10001 10010 10100 11000 10100 10010 10001",
    "L": "10000 10000 10000 10000 10000 10000 11111",
    "M": "10001 11011 10101 10101 10001 10001 10001",
    "N": "10001 10001 11001 10101 10011 10001 10001",
    "O": "01110 10001 10001 10001 10001 10001 01110",
    "P": "11110 10001 10001 11110 10000 10000 10000",
    "Q": "01110 10001 10001 10001 10101 10010 01101",
    "R": "11110 10001 10001 11110 10100 10010 10001",
    "S": "01111 10000 10000 01110 00001 00001 11110",
    "T": "11111 00100 00100 00100 00100 00100 00100",
    "U": "10001 10001 10001 10001 10001 10001 01110",
    "V": "10001 10001 10001 10001 10001 01010 00100",
    "W": "10001 10001 10001 10101 10101 10101 01010",
    "X": "10001 10001 01010 00100 01010 10001 10001",
    "Y": "10001 10001 01010 00100 00100 00100 00100",
    "Z": "11111 00001 00010 00100 01000 10000 11111",
    "0": "01110 10001 10011 10101 11001 10001 01110",
    "1": "00100 01100 00100 00100 00100 00100 01110",
    "2": "01110 10001 00001 00010 00100 01000 11111",
    "3": "11111 00010 00100 00010 00001 10001 01110",
    "4": "00010 00110 01010 10010 11111 00010 00010",
    "5": "11111 10000 11110 00001 00001 10001 01110",
    "6": "00110 01000 10000 11110 10001 10001 01110",
    "7": "11111 00001 00010 00100 01000 01000 01000",
    "8": "01110 10001 10001 01110 10001 10001 01110",
    "9": "01110 10001 10001 01111 00001 00010 01100",
    " ": "00000 00000 00000 00000 00000 00000 00000",
    ".": "00000 00000 00000 00000 00000 01100 01100",
    ",": "00000 00000 00000 00000 01100 00100 01000",
    ":": "00000 01100 01100 00000 01100 01100 00000",
    "-": "00000 00000 00000 11111 00000 00000 00000",
    "(": "00010 00100 01000 01000 01000 00100 00010",
    ")": "01000 00100 00010 00010 00010 00100 01000",
    "%": "11000 11001 00010 00100 01000 10011 00011",
    "/": "00000 00001 00010 00100 01000 10000 00000",
    "=": "00000 00000 11111 00000 11111 00000 00000",
    "+": "00000 00100 00100 11111 00100 00100 00000",
}
GLYPH_WIDTH, GLYPH_HEIGHT = 5, 7
#: Pixels per font pixel.
SCALE = 2
#: Horizontal advance per character (a glyph and one blank column), in image pixels.
ADVANCE = (GLYPH_WIDTH + 1) * SCALE
BLACK, GREY, WHITE = (0, 0, 0), (210, 210, 210), (255, 255, 255)


class Series(NamedTuple):
    """One curve: its legend text, colour, and per point x, y and the interval ``[low, high]``
    (ys and bounds in [0, 1])."""

    label: str
    colour: tuple[int, int, int]
    xs: list[float]
    ys: list[float]
    lows: list[float]
    highs: list[float]


class Canvas:
    """An RGB image as rows of pixels, with the few drawing operations the plot needs."""

    def __init__(self, width: int, height: int):
        self.width, self.height = width, height
        self.pixels = [[WHITE] * width for _ in range(height)]

    def dot(self, x: int, y: int, colour) -> None:
        if 0 <= x < self.width and 0 <= y < self.height:
            self.pixels[y][x] = colour

    def line(self, x0: int, y0: int, x1: int, y1: int, colour, thickness: int = 1) -> None:
        steps = max(abs(x1 - x0), abs(y1 - y0), 1)
        for i in range(steps + 1):
            x = x0 + round((x1 - x0) * i / steps)
            y = y0 + round((y1 - y0) * i / steps)
            for d in range(-(thickness // 2), thickness - thickness // 2):
                if abs(x1 - x0) >= abs(y1 - y0):
                    self.dot(x, y + d, colour)
                else:
                    self.dot(x + d, y, colour)

    def square(self, x: int, y: int, radius: int, colour) -> None:
        for dy in range(-radius, radius + 1):
            for dx in range(-radius, radius + 1):
                self.dot(x + dx, y + dy, colour)

    def text(self, x: int, y: int, text: str, colour=BLACK, vertical: bool = False) -> None:
        """``text`` with its top-left corner at ``(x, y)``; ``vertical``: read bottom to top,
        ``(x, y)`` being then the bottom-left corner."""
        for index, char in enumerate(text.upper()):
            rows = FONT.get(char, FONT[" "]).split()
            for row, bits in enumerate(rows):
                for column, bit in enumerate(bits):
                    if bit != "1":
                        continue
                    for sy in range(SCALE):
                        for sx in range(SCALE):
                            across = index * ADVANCE + column * SCALE + sx
                            down = row * SCALE + sy
                            if vertical:
                                self.dot(x + down, y - across, colour)
                            else:
                                self.dot(x + across, y + down, colour)

    def png(self) -> bytes:
        raw = b"".join(b"\x00" + bytes(c for pixel in row for c in pixel) for row in self.pixels)

        def chunk(kind: bytes, data: bytes) -> bytes:
            body = kind + data
            return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

        header = struct.pack(">IIBBBBB", self.width, self.height, 8, 2, 0, 0, 0)
        png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
        return png + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def text_width(text: str) -> int:
    return len(text) * ADVANCE - SCALE


def write_plot(
    path: Path,
    series: list[Series],
    title: str,
    x_label: str,
    y_label: str,
    width: int = 720,
    height: int = 480,
) -> None:
    """A line plot of ``series`` (y from 0 to 1, grid every 0.25 with tick labels, x ticks at
    the points' xs), each point with its interval as an error bar; title on top, axis labels,
    a legend in the lower right corner."""
    glyph = GLYPH_HEIGHT * SCALE
    left, right, top, bottom = 3 * glyph + 5 * ADVANCE, 20, 2 * glyph + 12, 2 * glyph + 24
    canvas = Canvas(width, height)
    all_x = sorted({x for s in series for x in s.xs}) or [0.0]
    low, high = all_x[0], max(all_x[-1], all_x[0] + 1)
    plot_width, plot_height = width - left - right, height - top - bottom

    def to_pixel(x: float, y: float) -> tuple[int, int]:
        px = left + round((x - low) / (high - low) * plot_width)
        py = top + plot_height - round(min(max(y, 0.0), 1.0) * plot_height)
        return px, py

    canvas.text((width - text_width(title)) // 2, 6, title)
    for quarter in range(5):
        y = quarter / 4
        _, py = to_pixel(low, y)
        canvas.line(left, py, left + plot_width, py, GREY if quarter % 4 else BLACK)
        tick = f"{y:g}"
        canvas.text(left - 8 - text_width(tick), py - glyph // 2, tick)
    canvas.line(left, top, left, top + plot_height, BLACK)
    last_tick_end = -1
    for x in all_x:
        px, py = to_pixel(x, 0.0)
        canvas.line(px, py, px, py + 5, BLACK)
        tick = f"{x:g}"
        start = px - text_width(tick) // 2
        if start > last_tick_end + ADVANCE:  # ticks too close together: every other label
            canvas.text(start, py + 9, tick)
            last_tick_end = start + text_width(tick)
    canvas.text(left + (plot_width - text_width(x_label)) // 2, height - glyph - 6, x_label)
    canvas.text(8, top + (plot_height + text_width(y_label)) // 2, y_label, vertical=True)
    for index, s in enumerate(series):
        # Each series' points shifted sideways a little so that the error bars do not overlap.
        shift = (index - (len(series) - 1) / 2) * 4
        points = [to_pixel(x, y) for x, y in zip(s.xs, s.ys)]
        points = [(px + round(shift), py) for px, py in points]
        for (x0, y0), (x1, y1) in zip(points, points[1:]):
            canvas.line(x0, y0, x1, y1, s.colour, thickness=2)
        for (px, py), lo, hi in zip(points, s.lows, s.highs):
            _, y_low = to_pixel(low, lo)
            _, y_high = to_pixel(low, hi)
            canvas.line(px, y_low, px, y_high, s.colour)
            canvas.line(px - 3, y_low, px + 3, y_low, s.colour)
            canvas.line(px - 3, y_high, px + 3, y_high, s.colour)
            canvas.square(px, py, 3, s.colour)
    # The legend: a short line with a dot, then the label, one row per series.
    legend_width = 40 + max((text_width(s.label) for s in series), default=0)
    x0 = left + plot_width - legend_width - 10
    y0 = top + plot_height - 10 - len(series) * (glyph + 8)
    for row, s in enumerate(series):
        y = y0 + row * (glyph + 8)
        canvas.line(x0, y + glyph // 2, x0 + 28, y + glyph // 2, s.colour, thickness=2)
        canvas.square(x0 + 14, y + glyph // 2, 3, s.colour)
        canvas.text(x0 + 40, y, s.label)
    path.write_bytes(canvas.png())
