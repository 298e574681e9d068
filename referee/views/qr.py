"""A QR code as inline SVG (segno, pure Python), for the printed seating sheets."""


def qr_svg(url: str, desc: str = "Scan to open the pages") -> str:
    """The code at 4 px a module, with a viewBox: a page's CSS may print it at any size, scaled whole (a
    width and height alone would crop it, or leave it small, in a box of another size)."""
    import segno

    code = segno.make(url, error="m")
    width, height = code.symbol_size(scale=4)
    svg = code.svg_inline(scale=4, omitsize=True, title=f"QR code of {url}", desc=desc)
    return svg.replace("<svg ", f'<svg width="{width}" height="{height}" ', 1)
