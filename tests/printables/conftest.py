"""Fixtures for the printables tests: build a sheet to bytes, read it back, render, scan.

Rendering uses poppler's ``pdftoppm`` and QR decoding uses zbar's ``zbarimg``
(``make debs`` installs both); a missing tool fails the test rather than skipping it.
"""

from __future__ import annotations

import io
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

from tests.conftest import sheet_pdf


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.fail(f"{name} is missing: run `make debs`")
    return path


@pytest.fixture
def render(tmp_path: Path) -> Callable[..., Image.Image]:
    """render(pdf, page, dpi=200, mode="L"): one page (1-based) as an image, greyscale unless
    mode says otherwise ("RGB"), via pdftoppm."""

    def _render(data: bytes, page: int, dpi: int = 200, mode: str = "L") -> Image.Image:
        pdf = tmp_path / "sheet.pdf"
        pdf.write_bytes(data)
        prefix = tmp_path / f"page{page}-{dpi}"
        cmd = [_tool("pdftoppm"), "-r", str(dpi), "-png", "-f", str(page), "-l", str(page), "-singlefile"]
        subprocess.run([*cmd, str(pdf), str(prefix)], check=True)
        return Image.open(prefix.with_suffix(".png")).convert(mode)

    return _render


@pytest.fixture
def scan(tmp_path: Path) -> Callable[[Image.Image], list[str]]:
    """scan(image): every QR code zbarimg decodes in the image."""

    def _scan(image: Image.Image) -> list[str]:
        png = tmp_path / "scan.png"
        image.save(png)
        result = subprocess.run([_tool("zbarimg"), "--raw", "-q", str(png)], capture_output=True, text=True)
        return result.stdout.splitlines()

    return _scan


@pytest.fixture
def build_pdf() -> Callable[..., bytes]:
    """build_pdf(sheet, **options): the PDF bytes of ``printables.build`` with those options."""
    return sheet_pdf


@pytest.fixture
def read_pdf() -> Callable[[bytes], PdfReader]:
    """read_pdf(data): a pypdf reader over PDF bytes."""
    return lambda data: PdfReader(io.BytesIO(data))


@pytest.fixture
def dark_fraction() -> Callable[..., float]:
    """dark_fraction(image, box=None): the share of pixels darker than mid-grey, in box if given."""

    def _dark(image: Image.Image, box: tuple[int, int, int, int] | None = None) -> float:
        histogram = (image.crop(box) if box else image).histogram()
        return sum(histogram[:128]) / max(1, sum(histogram))

    return _dark
