"""The round-flow diagram of a rule card: steps from the card view, laid out for inline SVG.

`flow_layout` decides the steps (what happens in a round, in order) and their
coordinates; the templates draw them (`flow_svg` macro in `card_macros.j2`) so
that step titles go through the message catalog and every spec string is
escaped like the rest of the card. The diagram is a column of boxes joined by
arrows, with a side branch when a condition (a natural) makes everyone stand.
"""

from __future__ import annotations

BOX_X = 16
BOX_W = 560
BOX_H = 58
GAP = 30
WIDTH = 680
BRANCH_X = 640


def _steps(view: dict) -> list[dict]:
    steps: list[dict] = []
    if view["deal"]:
        steps.append({"kind": "deal", "detail": " → ".join(view["deal"])})
    elif view["hand_size"]:
        lo, hi = view["hand_size"]
        steps.append({"kind": "deal_seats", "detail": f"{lo}–{hi}"})
        steps.append({"kind": "hit", "detail": f"{lo}–{hi}"})
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
        steps.append({"kind": "outcome", "detail": " · ".join(o["label"] for o in view["outcomes"])})
    if view["bets"]:
        steps.append({"kind": "settle", "detail": " · ".join(b["label"] for b in view["bets"])})
    elif view["settlement"]:
        steps.append({"kind": "settle_seats", "detail": view["settlement"]["label"] or view["settlement"]["scheme"]})
    return steps


def flow_layout(view: dict) -> dict:
    """Boxes (x, y, w, h, kind, detail), arrows between them, and the stand-all branch if any."""
    steps = _steps(view)
    boxes = []
    for i, s in enumerate(steps):
        y = 12 + i * (BOX_H + GAP)
        boxes.append({**s, "n": i + 1, "x": BOX_X, "y": y, "w": BOX_W, "h": BOX_H,
                      "cx": BOX_X + BOX_W // 2, "ty": y + 24, "dy": y + 45})
    arrows = [{"x": BOX_X + BOX_W // 2, "y1": a["y"] + a["h"], "y2": b["y"] - 2} for a, b in zip(boxes, boxes[1:])]
    branch = None
    stand = next((b for b in boxes if b["kind"] == "stand"), None)
    target = next((b for b in boxes if b["kind"] in ("outcome", "rank")), None)
    if stand is not None and target is not None:
        y1 = stand["y"] + stand["h"] // 2
        y2 = target["y"] + target["h"] // 2
        x0 = BOX_X + BOX_W
        branch = {"path": f"M{x0},{y1} H{BRANCH_X} V{y2} H{x0 + 4}", "lx": x0 + 8, "ly": y1 - 6}
    height = (boxes[-1]["y"] + BOX_H + 12) if boxes else 40
    return {"boxes": boxes, "arrows": arrows, "branch": branch, "width": WIDTH, "height": height}
