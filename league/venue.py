"""At the venue: the printable round and the projector page's QR code (segno, as SVG)."""

from __future__ import annotations

import io

import segno


def qr_svg(url: str) -> str:
    """An inline SVG QR code of ``url``, scaled by the page (no fixed size)."""
    out = io.BytesIO()
    segno.make(url, error="m").save(
        out, kind="svg", xmldecl=False, svgns=True, scale=1, border=2, omitsize=True
    )
    return out.getvalue().decode()
