"""`make bench`'s printable sheets: each sheet's build against plain ReportLab drawing the same.

The plain drawing is Castellan's own: every call a sheet's build makes on its ReportLab canvas
(and on the paths and text objects the canvas hands out) is recorded, then replayed on a new
canvas made with the same arguments, the same embedded fonts, and saved: the replay's PDF is
byte for byte the build's (checked). The replay is what
ReportLab itself costs for those primitives; the ratio build/replay is what Castellan adds
(the goal: at most 2). Both are CPU time, the median of a few runs; the replay's own loop over
the recorded calls is counted in ReportLab's time, a small favour to the ratio.
"""

from __future__ import annotations

import io
import statistics
import time
from unittest import mock

from reportlab.pdfgen import canvas as pdfcanvas
from reportlab.pdfgen.pathobject import PDFPathObject
from reportlab.pdfgen.textobject import PDFTextObject

import printables
from printables import draw

RUNS = 3
_CANVAS = pdfcanvas.Canvas  # ReportLab's own, kept here: the recording replaces it while a sheet is built
_HANDED_OUT = (PDFPathObject, PDFTextObject)  # objects the canvas makes that later calls use


class _Recorded:
    """Stands for one recorded object (the canvas, a path, a text object): its calls are logged."""

    def __init__(self, log: list, number: int, real: object):
        self._log, self._number, self._real = log, number, real

    def __getattr__(self, name: str):
        value = getattr(self._real, name)
        if not callable(value):
            return value

        def call(*args, **kwargs):
            result = value(*_real(args), **{key: _real(item) for key, item in kwargs.items()})
            made = None
            if isinstance(result, _HANDED_OUT):
                made = len(self._log) + 1_000_000  # any number no other object has
                result = _Recorded(self._log, made, result)
            self._log.append(
                (self._number, name, _refs(args), {key: _refs(item) for key, item in kwargs.items()}, made)
            )
            return result

        return call


def _real(args):
    if isinstance(args, _Recorded):
        return args._real
    if isinstance(args, tuple):
        return tuple(_real(item) for item in args)
    return args


def _refs(args):
    if isinstance(args, _Recorded):
        return ("ref", args._number)
    if isinstance(args, tuple):
        return tuple(_refs(item) for item in args)
    return args


def record(sheet) -> tuple[tuple, dict, list]:
    """Build ``sheet`` once, recording its canvas: (the canvas's arguments, the calls)."""
    log: list = []
    made: dict = {}

    def recording_canvas(*args, **kwargs):
        made["args"], made["kwargs"] = args, kwargs
        return _Recorded(log, 0, _CANVAS(*args, **kwargs))

    with mock.patch.object(draw.canvas, "Canvas", recording_canvas):
        printables.build(sheet, io.BytesIO(), paper="a4", base_url="http://192.168.1.20:5000")
    return made["args"][1:], made["kwargs"], log


def replay(args: tuple, kwargs: dict, log: list) -> bytes:
    """The recorded calls on a plain canvas; the PDF's bytes."""
    out = io.BytesIO()
    objects = {0: _CANVAS(out, *args, **kwargs)}

    def real(item):
        if isinstance(item, tuple):
            return (
                objects[item[1]]
                if len(item) == 2 and item[0] == "ref"
                else tuple(real(part) for part in item)
            )
        return item

    for number, name, call_args, call_kwargs, made in log:
        result = getattr(objects[number], name)(
            *real(call_args), **{key: real(item) for key, item in call_kwargs.items()}
        )
        if made is not None:
            objects[made] = result
    return out.getvalue()


def _cpu(work) -> float:
    times = []
    for _ in range(RUNS):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return statistics.median(times)


def main() -> None:
    """Print each sheet's size, build time, plain ReportLab's time for the same calls, and the ratio."""
    print(
        "\nPrintable sheets (A4): build against plain ReportLab replaying the same canvas calls "
        f"(CPU ms, median of {RUNS}; goal: ratio at most 2)"
    )
    ratios = []
    for sheet in printables.all_sheets():
        if sheet.kind == "kit":
            continue  # a kit draws the sheets measured here, and each twice (once to count its pages)
        out = io.BytesIO()
        printables.build(sheet, out, paper="a4", base_url="http://192.168.1.20:5000")
        args, kwargs, log = record(sheet)
        built = _cpu(
            lambda sheet=sheet: printables.build(
                sheet, io.BytesIO(), paper="a4", base_url="http://192.168.1.20:5000"
            )
        )
        plain = _cpu(lambda args=args, kwargs=kwargs, log=log: replay(args, kwargs, log))
        assert replay(args, kwargs, log) == out.getvalue(), f"{sheet.slug}: the replay drew another PDF"
        ratios.append(built / plain)
        print(
            f"  {sheet.slug:28} {len(out.getvalue()):9,} bytes  {len(log):7,} calls  build {built * 1000:6.0f}"
            f"  ReportLab {plain * 1000:6.0f}  ratio {built / plain:4.2f}"
        )
    print(f"  ratio: median {statistics.median(ratios):4.2f}, worst {max(ratios):4.2f}")


if __name__ == "__main__":
    main()
