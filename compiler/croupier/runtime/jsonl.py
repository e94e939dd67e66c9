"""The JSON Lines loop, one answer per request line, errors included; and what every engine offers.

Nothing that one line holds can stop the stream: a bad line gets an `{"error": …}` answer
(an EngineError says what is wrong; anything else is reported as an internal error of that
line only), and every answer is text that any UTF-8 output can take. `JsonLinesGame` is the
base of both kinds of game: it answers lines with the game's `adjudicate`, and gives every
engine the errors and the input layer by the same names.
"""

import json
import sys
from decimal import Decimal

from croupier.runtime.errors import (
    EngineError,
    InvalidBet,
    InvalidCards,
    InvalidTable,
    MissingCell,
    NotEnoughCards,
    ShoeRanOut,
)
from croupier.runtime.numbers import amount_json, num_json
from croupier.runtime.requests import check_name, check_object, json_text, kind_of, parse_money

# One decoder and one encoder for every line (json.loads/json.dumps with options build new ones each call).
REQUEST_DECODER = json.JSONDecoder(parse_float=Decimal)
ANSWER_ENCODER = json.JSONEncoder(ensure_ascii=False)
ASCII_ENCODER = json.JSONEncoder()


def read_json(text):
    """One JSON value from a line of input; not JSON, or nested too deeply, is an EngineError."""
    try:
        return REQUEST_DECODER.decode(text)
    except ValueError as exc:
        raise EngineError(f"not JSON: {exc}") from None
    except RecursionError:
        raise EngineError("the request is nested too deeply") from None


def internal_error(exc):
    """The answer for an exception no input check foresaw: named, short, for this line only."""
    return {"error": f"internal error: {type(exc).__name__}: {json_text(str(exc))}"}


def encode_answer(result):
    """The answer as one line of JSON text that UTF-8 can always encode (no lone surrogates)."""
    try:
        text = ANSWER_ENCODER.encode(result)
    except Exception as exc:  # an answer that is not JSON is a bug, but it stays this line's bug
        return ASCII_ENCODER.encode(internal_error(exc))
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            text = ASCII_ENCODER.encode(result)
    return text


def answer_line(adjudicate, line):
    """The JSON answer of `adjudicate` to one request line; bad input gives {"error": …}, never an exception."""
    try:
        result = adjudicate(read_json(line))
    except EngineError as exc:
        result = {"error": str(exc)}
    except RecursionError:
        result = {"error": "the request is nested too deeply"}
    except Exception as exc:  # last resort: one line's answer, never the end of the stream
        result = internal_error(exc)
    return encode_answer(result)


class JsonLinesGame:
    """What every engine offers besides its game: the errors, the input layer, the `play --jsonl` loop."""

    EngineError = EngineError
    InvalidCards = InvalidCards
    InvalidBet = InvalidBet
    InvalidTable = InvalidTable
    MissingCell = MissingCell
    NotEnoughCards = NotEnoughCards
    ShoeRanOut = ShoeRanOut
    kind_of = staticmethod(kind_of)
    json_text = staticmethod(json_text)
    check_name = staticmethod(check_name)
    check_object = staticmethod(check_object)
    parse_money = staticmethod(parse_money)
    num_json = staticmethod(num_json)
    amount_json = staticmethod(amount_json)
    read_json = staticmethod(read_json)
    internal_error = staticmethod(internal_error)
    encode_answer = staticmethod(encode_answer)

    def adjudicate(self, request):
        """Answer one `play --jsonl` request (each kind of game says how)."""
        raise NotImplementedError

    def answer(self, line):
        """The JSON answer to one request line; bad input gives {"error": …}, never an exception."""
        return answer_line(self.adjudicate, line)

    def run_jsonl(self, lines, write):
        """Answer every line of a stream, in order, in constant memory."""
        if lines is sys.stdin and hasattr(lines, "reconfigure"):
            lines.reconfigure(errors="replace")  # a line of invalid UTF-8 is answered, not fatal
        adjudicate = self.adjudicate
        for line in lines:
            if line.endswith("\n"):
                line = line[:-1]
            write(answer_line(adjudicate, line) + "\n")
