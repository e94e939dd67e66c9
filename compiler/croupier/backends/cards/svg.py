"""The round-flow diagram of a rule card: its steps (from the card view) laid out for inline SVG.

`flow_steps` says what happens in a round, in order, in the card's language (titles from the
message catalog, details from the view's words); `flow_layout` gives each step a box and wraps
its text into lines. The diagram is narrow (`WIDTH` user units, drawn at most that many CSS
pixels wide), so that on a phone it is drawn at full scale and its text keeps its size: the
font sizes here are CSS pixels on every screen. Text is wrapped by an estimate of its width
(a wide East Asian character one em, anything else `NARROW` em), by words where the text has
spaces and by characters where it has none. A side branch runs from a stand-all step to the
comparison when a condition (a natural) makes everyone stand.
"""

from __future__ import annotations

import unicodedata

from croupier.backends.cards.words import N_, Phrases

WIDTH = 330
BOX_X = 6
BOX_W = 284
BRANCH_X = 312
PAD = 12
TITLE_PX = 15
DETAIL_PX = 14
LINE = 1.35  # line height, in font sizes
GAP = 26
NARROW = 0.62  # width of a narrow character, in em (a generous estimate, so that text never overflows)

TITLES = {
    "deal": N_("Deal"),
    "deal_seats": N_("Deal each seat a hand"),
    "hit": N_("Each player takes cards or stands"),
    "stand": N_("Stand at once?"),
    "draw": N_("Draw or stand by the table"),
    "rank": N_("Rank the hands by type"),
    "outcome": N_("Compare the totals"),
    "settle": N_("Settle the bets"),
    "settle_seats": N_("Settle between players"),
}


def text_width(text: str, px: float) -> float:
    return sum(px if unicodedata.east_asian_width(ch) in "WFA" else px * NARROW for ch in text)


def wrap(text: str, px: float, width: float) -> list[str]:
    """Lines of `text` that fit `width` pixels at font size `px`."""
    lines: list[str] = []
    line = ""
    for token in text.split(" "):
        piece = token if not line else " " + token
        if text_width(line + piece, px) <= width:
            line += piece
            continue
        if line:
            lines.append(line)
            line = ""
        for ch in token if text_width(token, px) > width else [token]:
            if text_width(line + ch, px) > width and line:
                lines.append(line)
                line = ""
            line += ch
    if line:
        lines.append(line)
    return lines or [""]


def flow_steps(view: dict, p: Phrases) -> list[dict]:
    """The steps of a round, in order, with their title and detail in the card's language."""
    steps: list[dict] = []
    if view["deal"]:
        steps.append({"kind": "deal", "detail": " → ".join(view["deal"])})
    elif view["hand_size"]:
        lo, hi = view["hand_size"]
        per_hand = p.say(N_("%(n)s cards per hand"), n=f"{lo}–{hi}")
        steps.append({"kind": "deal_seats", "detail": per_hand})
        steps.append({"kind": "hit", "detail": per_hand})
    if view["stand"]:
        steps.append({"kind": "stand", "detail": view["stand"]})
    seen = []
    for d in view["draws"]:
        if d["hand_name"] not in seen:
            seen.append(d["hand_name"])
            steps.append({"kind": "draw", "detail": d["hand"]})
    if view["types"]:
        steps.append({"kind": "rank", "detail": " > ".join(t["label"] for t in view["types"])})
    if view["outcomes"]:
        steps.append({"kind": "outcome", "detail": " · ".join(view["outcomes"])})
    if view["bets"]:
        steps.append({"kind": "settle", "detail": " · ".join(b["label"] for b in view["bets"])})
    elif view["settlement"]:
        steps.append({"kind": "settle_seats", "detail": view["settlement"]["label"]})
    for s in steps:
        s["title"] = p.say(TITLES[s["kind"]])
    return steps


def flow_layout(view: dict, p: Phrases) -> dict:
    """Boxes (x, y, w, h, kind, title and detail lines with their baselines), arrows, and the stand-all branch."""
    boxes = []
    y = 8
    inner = BOX_W - 2 * PAD
    for i, s in enumerate(flow_steps(view, p)):
        title = wrap(f"{i + 1}. {s['title']}", TITLE_PX, inner)
        detail = wrap(s["detail"], DETAIL_PX, inner) if s["detail"] else []
        lines = []
        base = y + PAD + TITLE_PX
        for t in title:
            lines.append({"text": t, "y": round(base), "cls": "stitle"})
            base += TITLE_PX * LINE
        for t in detail:
            lines.append({"text": t, "y": round(base), "cls": "sdetail"})
            base += DETAIL_PX * LINE
        h = round(base - y - DETAIL_PX * LINE + PAD + 4) if detail else round(base - y - TITLE_PX * LINE + PAD + 4)
        boxes.append({**s, "n": i + 1, "x": BOX_X, "y": y, "w": BOX_W, "h": h, "tx": BOX_X + PAD, "lines": lines})
        y += h + GAP
    arrows = [{"x": BOX_X + BOX_W // 2, "y1": a["y"] + a["h"], "y2": b["y"] - 2} for a, b in zip(boxes, boxes[1:])]
    branch = None
    stand = next((b for b in boxes if b["kind"] == "stand"), None)
    target = next((b for b in boxes if b["kind"] in ("outcome", "rank")), None)
    if stand is not None and target is not None:
        y1 = stand["y"] + stand["h"] // 2
        y2 = target["y"] + target["h"] // 2
        x0 = BOX_X + BOX_W
        branch = {"path": f"M{x0},{y1} H{BRANCH_X} V{y2} H{x0 + 4}", "lx": x0 + 3, "ly": y1 - 6,
                  "label": p.say(N_("yes"))}
    height = (boxes[-1]["y"] + boxes[-1]["h"] + 8) if boxes else 40
    return {"boxes": boxes, "arrows": arrows, "branch": branch, "width": WIDTH, "height": height,
            "title_px": TITLE_PX, "detail_px": DETAIL_PX}
