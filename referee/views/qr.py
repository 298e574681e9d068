"""A QR code as inline SVG (segno, pure Python), for the printed seating sheets."""


def qr_svg(url: str, desc: str = "Scan to open the pages") -> str:
    import segno

    return segno.make(url, error="m").svg_inline(scale=4, title=f"QR code of {url}", desc=desc)
