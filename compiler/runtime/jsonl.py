"""Engine runtime: the JSON Lines loop, one answer per request line, errors included."""
# ruff: noqa: F821 - `adjudicate` comes from another runtime part of the engine

import json
from decimal import Decimal

# ---- engine ----


def answer(line):
    """The JSON answer to one request line; bad input gives {"error": …}, never an exception."""
    try:
        request = json.loads(line, parse_float=Decimal)
    except ValueError as exc:
        return json.dumps({"error": f"not JSON: {exc}"})
    except RecursionError:
        return json.dumps({"error": "the request is nested too deeply"})
    try:
        result = adjudicate(request)
    except EngineError as exc:
        result = {"error": str(exc)}
    except RecursionError:
        result = {"error": "the request is nested too deeply"}
    return json.dumps(result, ensure_ascii=False)


def run_jsonl(lines, write):
    """Answer every line of a stream, in order, in constant memory."""
    for line in lines:
        if line.endswith("\n"):
            line = line[:-1]
        write(answer(line) + "\n")
