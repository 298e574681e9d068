"""Where each page lives: served (`referee serve`, absolute paths) or published as static files
(`referee tournament publish`, relative ``.html`` paths that work from ``file://`` and any web host)."""

from __future__ import annotations

from urllib.parse import quote


def _q(part) -> str:
    return quote(str(part), safe="")


class ServedLinks:
    static = False

    def __call__(self, kind: str, *args) -> str:
        a = [_q(x) for x in args]
        return {
            "index": lambda: "/",
            "game": lambda: f"/games/{a[0]}",
            "round": lambda: f"/games/{a[0]}/rounds/{a[1]}",
            "round_svg": lambda: f"/games/{a[0]}/rounds/{a[1]}.svg",
            "board_svg": lambda: f"/games/{a[0]}/board.svg",
            "api_game": lambda: f"/api/games/{a[0]}",
            "tournament": lambda: f"/tournaments/{a[0]}",
            "seating": lambda: f"/tournaments/{a[0]}/seating/{a[1]}",
            "tables": lambda: f"/tournaments/{a[0]}/tables/{a[1]}",
            "player": lambda: f"/tournaments/{a[0]}/players/{a[1]}",
            "projector": lambda: f"/tournaments/{a[0]}/projector",
            "sheet": lambda: f"/tournaments/{a[0]}/sheet/{a[1]}",
            "swiss_round": lambda: f"/tournaments/{a[0]}/rounds/{a[1]}",
            "swiss_slips": lambda: f"/tournaments/{a[0]}/rounds/{a[1]}/slips",
            "api_tournament": lambda: f"/api/tournaments/{a[0]}/standings",
        }[kind]()


class StaticLinks:
    """Links between published files; ``depth``: how many folders below the site's root the page is."""

    static = True

    def __init__(self, depth: int = 0):
        self.up = "../" * depth

    def __call__(self, kind: str, *args) -> str:
        a = [_q(x).replace("%", "~") for x in args]  # file names without percent signs
        up = self.up
        return {
            "index": lambda: f"{up}index.html",
            "game": lambda: f"{up}games/{a[0]}.html",
            "round": lambda: f"{up}games/{a[0]}-round-{a[1]}.html",
            "round_svg": lambda: f"{up}games/{a[0]}-round-{a[1]}.svg",
            "board_svg": lambda: f"{up}games/{a[0]}-board.svg",
            "api_game": lambda: "",
            "tournament": lambda: f"{up}index.html",
            "seating": lambda: f"{up}seating-{a[1]}.html",
            "tables": lambda: f"{up}tables-{a[1]}.html",
            "player": lambda: f"{up}players/{a[1]}.html",
            "projector": lambda: "",
            "sheet": lambda: f"{up}sheets/seating-{a[1]}.html",
            "swiss_round": lambda: f"{up}round-{a[1]}.html",
            "swiss_slips": lambda: f"{up}sheets/slips-{a[1]}.html",
            "api_tournament": lambda: "",
        }[kind]()
