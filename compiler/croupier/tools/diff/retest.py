"""What to retest: the reference cases whose expected answer changes under the new version.

Each hand-written case of the old version (`tests/cases`, see `semantics.cases`)
is answered by both engines, as the conformance tests answer it (`answer(line)`);
a case is listed when the two answers differ in a field the case pins down (its
`expect`), or when the new engine answers with an error where the old did not.
Such a case must be worked again by hand.
"""

from __future__ import annotations

import json
from pathlib import Path

from croupier.semantics.cases import cases_for


def pinned(answer, expect):
    """The part of an answer that a case's expectation names."""
    if isinstance(expect, dict):
        if not isinstance(answer, dict):
            return answer
        return {k: pinned(answer.get(k), v) for k, v in expect.items()}
    return answer


def pinned_error(answer: dict, expect: dict):
    """What a case pins of an error: that the error names its expected text (as the conformance test checks),
    else the error itself."""
    if "error" not in answer:
        return None
    wanted = str(expect.get("error", "")).lower()
    return wanted in answer["error"].lower() if wanted else answer["error"]


def cases_to_retest(game_name: str, cases_dir: Path | None, old_engine, new_engine) -> dict:
    """{"cases": number of cases checked, "retest": [{"id", "source", "fields": [...]}]}."""
    if cases_dir is None:
        return {"cases": 0, "retest": []}
    cases, _diags = cases_for(game_name, cases_dir)
    out = []
    for case in cases:
        line = json.dumps(case.input, ensure_ascii=False)
        a, b = json.loads(old_engine.answer(line)), json.loads(new_engine.answer(line))
        keys = list(case.expect) if "error" not in case.expect else ["error"]
        if "error" in b and "error" not in a:
            keys = ["error"]
        fields = [k for k in keys if (pinned_error(a, case.expect) != pinned_error(b, case.expect) if k == "error"
                                      else pinned(a.get(k), case.expect.get(k)) != pinned(b.get(k), case.expect.get(k)))]
        if fields:
            out.append({"id": case.id, "source": case.source, "fields": fields,
                        "old": {k: pinned(a.get(k), case.expect.get(k)) for k in fields},
                        "new": {k: pinned(b.get(k), case.expect.get(k)) for k in fields}})
    return {"cases": len(cases), "retest": out}
