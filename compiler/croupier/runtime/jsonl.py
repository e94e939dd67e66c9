"""The JSON Lines loop, one answer per request line, errors included; and what every engine offers.

Nothing that one line holds can stop the stream: a bad line gets an `{"error": …}` answer
(an EngineError says what is wrong; anything else is reported as an internal error of that
line only), and every answer is text that any UTF-8 output can take. `JsonLinesGame` is the
base of both kinds of game: it answers lines with the game's `adjudicate`, and gives every
engine the errors and the input layer by the same names.
"""

import json
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

MAX_LINE_BYTES = 1_000_000  # a request line's bytes (`play --jsonl --max-line-bytes` raises it)
READ_CHUNK = 1 << 16  # the bytes of an oversized line read at a time while it is skipped


def unique_object(pairs):
    """A JSON object from its (key, value) pairs; a key given twice is an EngineError naming it
    (`{"banker": 100, "banker": 5}` would otherwise keep the last)."""
    out = dict(pairs)
    if len(out) != len(pairs):
        seen = set()
        for key, _value in pairs:
            if key in seen:
                raise EngineError(f"the key {json_text(key)!r} is given twice in one object")
            seen.add(key)
    return out


# One decoder and one encoder for every line (json.loads/json.dumps with options build new ones each call).
REQUEST_DECODER = json.JSONDecoder(parse_float=Decimal, object_pairs_hook=unique_object)
ANSWER_ENCODER = json.JSONEncoder(ensure_ascii=False)
ASCII_ENCODER = json.JSONEncoder()


def read_json(text):
    """One JSON value from a line of input; not JSON, or nested too deeply, is an EngineError."""
    try:
        return REQUEST_DECODER.decode(text)
    except EngineError:  # a key given twice (`unique_object`)
        raise
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

    def run_jsonl(self, lines, write, max_line_bytes=MAX_LINE_BYTES):
        """Answer every line of a stream, in order, in constant memory; a line longer than
        `max_line_bytes` is answered with an error, read in chunks and never held whole."""
        adjudicate = self.adjudicate
        for line in bounded_lines(lines, max_line_bytes):
            if line is None:
                write(ASCII_ENCODER.encode(too_long(max_line_bytes)) + "\n")
                continue
            write(answer_line(adjudicate, line) + "\n")


def too_long(max_line_bytes):
    """The answer to a request line longer than the bound."""
    return {"error": f"the request line is longer than {max_line_bytes:,} bytes (the bound of a line; "
                     "`croupier play --jsonl --max-line-bytes N` raises it)"}


def bounded_lines(lines, max_line_bytes=MAX_LINE_BYTES):
    """The lines of a stream without their newline, None in place of each line longer than `max_line_bytes`.

    A text stream over bytes (stdin, an open file) is read from its bytes, at most one byte past the bound
    of a line at a time: an oversized line is skipped in chunks, never held whole. Bytes that are not
    UTF-8 are replaced, so the line is answered rather than fatal. Any other iterable of text is taken
    line by line and measured in UTF-8.
    """
    raw = getattr(lines, "buffer", None)
    if raw is None or not hasattr(raw, "readline"):
        for line in lines:
            line = line[:-1] if line.endswith("\n") else line
            yield None if len(line.encode("utf-8", "surrogatepass")) > max_line_bytes else line
        return
    readline = raw.readline
    while True:
        data = readline(max_line_bytes + 2)  # the line, its \r\n, and one byte to see it is longer
        if not data:
            return
        body = data[:-1] if data.endswith(b"\n") else data
        body = body[:-1] if body.endswith(b"\r") else body
        if len(body) <= max_line_bytes:
            yield body.decode("utf-8", "replace")
            continue
        while not data.endswith(b"\n"):  # skip the rest of the oversized line
            data = readline(READ_CHUNK)
            if not data:
                break
        yield None
