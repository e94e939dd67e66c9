"""Engine runtime: the JSON Lines loop, one answer per request line, errors included."""
# ruff: noqa: F821 - `adjudicate` comes from another runtime part of the engine

import json
from decimal import Decimal

# ---- engine ----

# One decoder and one encoder for every line (json.loads/json.dumps with options build new ones each call).
REQUEST_DECODER = json.JSONDecoder(parse_float=Decimal)
ANSWER_ENCODER = json.JSONEncoder(ensure_ascii=False)


def answer(line):
    """The JSON answer to one request line; bad input gives {"error": …}, never an exception."""
    try:
        request = REQUEST_DECODER.decode(line)
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
    return ANSWER_ENCODER.encode(result)


def run_jsonl(lines, write):
    """Answer every line of a stream, in order, in constant memory."""
    for line in lines:
        if line.endswith("\n"):
            line = line[:-1]
        write(answer(line) + "\n")
