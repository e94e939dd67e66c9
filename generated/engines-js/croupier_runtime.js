// croupier_runtime.js: the library every generated JavaScript engine runs on (croupier's runtime, in JavaScript).
//
// A hand-written port of the Python runtime (croupier/runtime/): the same game objects (DealtRound, SeatGame), the
// same errors by name and message, the same answers to `play --jsonl` requests byte for byte, and the same shoes
// for the same seed. No dependency: an ES module that runs in Node 20 and in a browser.
//
// Numbers are exact: a whole number is a BigInt, any other a `Q` (a fraction of two BigInts in lowest terms, its
// denominator above 1); the rules' arithmetic goes through `add`, `sub`, `mul`, `eq`, `lt`… which take either.
// Request data is read as JSON by `readJson`, the port of Python's `json` module with its error messages: objects
// are `Map`s (in the order written), whole numbers BigInts, other numbers `Decimal`s as written.
//
// Seeded shoes: `Random(seed)` is Python's `random.Random`: the Mersenne Twister MT19937 seeded by init_by_array
// from the seed's 32-bit words (a text seed: its UTF-8 bytes followed by their SHA-512, read as one big-endian
// number, Python's seed version 2), `shuffle` the Fisher-Yates shuffle from the last card down, drawing each index
// j <= i by `randbelow(i + 1)` (getrandbits of i + 1's bit length, drawn again while too large), and the cut card
// by `randint`. So `Table(seed)` deals in JavaScript the cards the Python engine deals for the same seed.

export const VERSION = "0.1.0";

// ---- errors -------------------------------------------------------------------------------------------------

/** Base of every error this engine raises for bad input; the message says what is wrong. */
export class EngineError extends Error {
  constructor(message) {
    if (!captureStacks) {  // the JSON Lines loop: an error is an answer there, so it is built without a stack
      const e = Object.create(new.target.prototype);
      e.message = message;
      e.name = new.target.name;
      return e;
    }
    super(message);
    this.name = new.target.name;
  }
}
let captureStacks = true;
/** A card that is not in the deck, too few cards, or a card seen too often. */
export class InvalidCards extends EngineError {}
/** An unknown bet, or a stake that is not a non-negative amount, or outside the table limits. */
export class InvalidBet extends EngineError {}
/** A table that cannot be settled: wrong number of players, missing stakes or coins. */
export class InvalidTable extends EngineError {}
/** A draw table has no cell for the key a round reaches (a gap in the spec's grid). */
export class MissingCell extends EngineError {
  constructor(rule, key) {
    super(`the table ${pyRepr(rule)} has no cell for ${pyStr(key)}`);
    this.rule = rule;
    this.key = key;
  }
}
/** The cards given ran out before the round was over (a hand still had to draw). */
export class NotEnoughCards extends InvalidCards {}
/** The cards ran out in the middle of a round. */
export class ShoeRanOut extends InvalidTable {}

// ---- exact numbers ------------------------------------------------------------------------------------------

function gcd(a, b) {
  if (a < 0n) a = -a;
  if (b < 0n) b = -b;
  while (b) { const t = a % b; a = b; b = t; }
  return a;
}

/** An exact fraction n/d in lowest terms, d > 1 (a whole number is a BigInt, never a Q). */
export class Q {
  constructor(n, d) { this.n = n; this.d = d; }
}

/** The exact number n/d: a BigInt when whole, else a Q. */
export function frac(n, d = 1n) {
  n = BigInt(n);
  d = BigInt(d);
  if (d === 0n) throw new EngineError("a formula divided by zero");
  if (d < 0n) { n = -n; d = -d; }
  const g = gcd(n, d);
  if (g !== 1n) { n /= g; d /= g; }
  return d === 1n ? n : new Q(n, d);
}

const num = (x) => (typeof x === "bigint" ? [x, 1n] : [x.n, x.d]);

export function add(a, b) {
  if (typeof a === "bigint" && typeof b === "bigint") return a + b;
  const [an, ad] = num(a), [bn, bd] = num(b);
  return frac(an * bd + bn * ad, ad * bd);
}
export function sub(a, b) {
  if (typeof a === "bigint" && typeof b === "bigint") return a - b;
  const [an, ad] = num(a), [bn, bd] = num(b);
  return frac(an * bd - bn * ad, ad * bd);
}
export function mul(a, b) {
  if (typeof a === "bigint" && typeof b === "bigint") return a * b;
  const [an, ad] = num(a), [bn, bd] = num(b);
  return frac(an * bn, ad * bd);
}
export function neg(a) { return typeof a === "bigint" ? -a : new Q(-a.n, a.d); }
export function abs(a) { return lt(a, 0n) ? neg(a) : a; }
/** Exact division for spec formulas. */
export function exactDiv(a, b) {
  if (eq(b, 0n)) throw new EngineError("a formula divided by zero");
  const [an, ad] = num(a), [bn, bd] = num(b);
  return frac(an * bd, ad * bn);
}
/** The floor of an exact number, a BigInt. */
export function floor(a) {
  if (typeof a === "bigint") return a;
  const q = a.n / a.d;
  return a.n < 0n && q * a.d !== a.n ? q - 1n : q;
}
/** The remainder of an exact division for spec formulas (its sign is the divisor's). */
export function exactMod(a, b) {
  if (typeof a === "bigint" && typeof b === "bigint" && b !== 0n) {
    const r = a % b;
    return r !== 0n && (r < 0n) !== (b < 0n) ? r + b : r;
  }
  if (eq(b, 0n)) throw new EngineError("a formula took a remainder modulo zero");
  return sub(a, mul(b, floor(exactDiv(a, b))));
}
/** -1, 0 or 1 as a < b, a = b, a > b (exact numbers). */
export function cmp(a, b) {
  if (typeof a === "bigint" && typeof b === "bigint") return a < b ? -1 : a > b ? 1 : 0;
  const [an, ad] = num(a), [bn, bd] = num(b);
  const l = an * bd, r = bn * ad;
  return l < r ? -1 : l > r ? 1 : 0;
}
/** Equality of two values a rule compares: exact numbers by value, anything else (text, null) as itself. */
export function eq(a, b) {
  if (typeof a === "bigint" && typeof b === "bigint") return a === b;
  if (isNumber(a) && isNumber(b)) return cmp(a, b) === 0;
  return a === b;
}
export const ne = (a, b) => !eq(a, b);
export const lt = (a, b) => cmp(a, b) < 0;
export const le = (a, b) => cmp(a, b) <= 0;
export const gt = (a, b) => cmp(a, b) > 0;
export const ge = (a, b) => cmp(a, b) >= 0;
export function min(...xs) { let m = xs[0]; for (const x of xs) if (lt(x, m)) m = x; return m; }
export function max(...xs) { let m = xs[0]; for (const x of xs) if (gt(x, m)) m = x; return m; }
const isNumber = (x) => typeof x === "bigint" || x instanceof Q;

/** Round an exact amount to a multiple of `unit` (down, up, half-up, half-even). */
export function roundTo(amount, unit, mode) {
  if (unit === null || mode === null) return amount;
  const q = exactDiv(amount, unit);
  const f = floor(q);
  const rest = sub(q, f);
  const half = new Q(1n, 2n);
  let n;
  if (mode === "down") n = f;
  else if (mode === "up") n = f + (eq(rest, 0n) ? 0n : 1n);
  else if (mode === "half-up") n = f + (ge(rest, half) ? 1n : 0n);
  else n = f + (gt(rest, half) || (eq(rest, half) && f % 2n !== 0n) ? 1n : 0n);
  return mul(n, unit);
}
/** Stake back plus winnings at `ratio` to one, less a rounded commission on the win. */
export function paysTo(stake, ratio, commission, unit, rounding) {
  let win = mul(stake, ratio);
  if (commission !== null && !eq(commission, 0n)) win = sub(win, roundTo(mul(win, commission), unit, rounding));
  return add(stake, win);
}
/** What a stake returns when the bet loses `part` of it (1: all). */
export function loses(stake, part) { return mul(stake, sub(1n, part)); }

/** An exact number as the spec would write it: 3, 10.5, -0.25, 1/3 (a decimal when it has one). */
export function numberText(value) {
  if (typeof value === "bigint") return value.toString();
  let d = value.d;
  while (d % 2n === 0n) d /= 2n;
  while (d % 5n === 0n) d /= 5n;
  if (d !== 1n) return `${value.n}/${value.d}`;
  let digits = 0;
  let v = value;
  while (typeof v !== "bigint") { v = mul(v, 10n); digits += 1; }
  const sign = v < 0n ? "-" : "";
  const s = (v < 0n ? -v : v).toString().padStart(digits + 1, "0");
  return `${sign}${s.slice(0, -digits)}.${s.slice(-digits)}`;
}
/** An exact number for JSON: a BigInt when whole, else its text (`numberText`). */
export function numJson(x) { return typeof x === "bigint" ? x : numberText(x); }
/** An amount of money for JSON: always its exact text ("200", "29.25", else "n/d"), as the Python engine. */
export function amountJson(x) { return numberText(x); }

// ---- Python's texts: repr, str, printable ---------------------------------------------------------------------

const NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;
const cpLen = (s) => { let n = 0; for (const _ of s) n += 1; return n; };
const cpSlice = (s, n) => Array.from(s).slice(0, n).join("");
function isPrintable(s) {
  for (const ch of s) if (ch !== " " && NOT_PRINTABLE.test(ch)) return false;
  return true;
}
const hex = (n, w) => n.toString(16).padStart(w, "0");

/** Python's repr() of a text (`asciiOnly`: ascii()). */
export function pyReprText(s, asciiOnly = false) {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const c = ch.codePointAt(0);
    if (ch === quote || ch === "\\") out += "\\" + ch;
    else if (ch === "\t") out += "\\t";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (c < 0x20 || c === 0x7f) out += "\\x" + hex(c, 2);
    else if (c < 0x7f) out += ch;
    else if (!asciiOnly && isPrintable(ch)) out += ch;
    else if (c <= 0xff) out += "\\x" + hex(c, 2);
    else if (c <= 0xffff) out += "\\u" + hex(c, 4);
    else out += "\\U" + hex(c, 8);
  }
  return out + quote;
}
/** Python's repr() of a value a message shows. */
export function pyRepr(v) {
  if (typeof v === "string") return pyReprText(v);
  if (v instanceof Q) return `Fraction(${v.n}, ${v.d})`;
  return pyStr(v);
}
/** Python's str() of a value a message shows (a key of a draw table: a number, a text, a pair). */
export function pyStr(v) {
  if (v === null || v === undefined) return "None";
  if (typeof v === "bigint") return v.toString();
  if (v instanceof Q) return `${v.n}/${v.d}`;
  if (typeof v === "boolean") return v ? "True" : "False";
  if (Array.isArray(v)) return "(" + v.map(pyRepr).join(", ") + (v.length === 1 ? ",)" : ")");
  return String(v);
}

// ---- JSON, as Python's json module reads and writes it ------------------------------------------------------------

/** A JSON number with a point or an exponent, exactly as written (Python's Decimal): sign, digits, exponent. */
export class Decimal {
  constructor(sign, digits, exp) { this.sign = sign; this.digits = digits; this.exp = exp; }
  static parse(text) {
    const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([-+]?\d+))?$/.exec(text);
    let digits = (m[2] + (m[3] || "")).replace(/^0+/, "") || "0";
    return new Decimal(m[1] ? 1 : 0, digits, Number(m[4] || 0) - (m[3] || "").length);
  }
  adjusted() { return this.exp + this.digits.length - 1; }
  toString() {  // Python's Decimal.__str__ (scientific notation as Python writes it)
    const d = this.digits, left = this.exp + d.length;
    const dot = this.exp <= 0 && left > -6 ? left : 1;
    let ip, fp;
    if (dot <= 0) { ip = "0"; fp = "." + "0".repeat(-dot) + d; }
    else if (dot >= d.length) { ip = d + "0".repeat(dot - d.length); fp = ""; }
    else { ip = d.slice(0, dot); fp = "." + d.slice(dot); }
    const e = left === dot ? "" : "E" + (left - dot >= 0 ? "+" : "") + (left - dot);
    return (this.sign ? "-" : "") + ip + fp + e;
  }
}
/** A JSON NaN or Infinity (Python reads it as a float). */
export class PyFloat { constructor(text) { this.text = text; } }

class JsonError {  // not an Error: caught inside readJson, which says what it means
  constructor(msg, s, pos) {
    const before = s.slice(0, pos);
    const line = (before.match(/\n/g) || []).length + 1;
    const col = cpLen(before.slice(before.lastIndexOf("\n") + 1)) + 1;
    this.message = `${msg}: line ${line} column ${col} (char ${cpLen(before)})`;
  }
}
class StopScan { constructor(pos) { this.pos = pos; } }
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y;
const ESCAPES = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
const MAX_DEPTH = 900;  // containers one inside another; Python's stops near its recursion limit
const INT_DIGITS = 4300;  // Python's limit on the digits of a whole number read from text

function skip(s, i) {  // past JSON's whitespace: space, tab, line feed, carriage return
  for (let c = s.charCodeAt(i); c === 32 || c === 10 || c === 13 || c === 9; c = s.charCodeAt(++i));
  return i;
}

function hex4(s, i) {
  const t = s.slice(i, i + 4);
  return /^[0-9a-fA-F]{4}$/.test(t) ? parseInt(t, 16) : -1;
}

function scanString(s, end) {  // `end` just after the opening quote: [text, index after the closing quote]
  const begin = end - 1;
  let out = "";
  const n = s.length;
  for (;;) {
    let j = end;
    while (j < n) {
      const c = s.charCodeAt(j);
      if (c === 34 || c === 92 || c < 0x20) break;
      j++;
    }
    if (j >= n) throw new JsonError("Unterminated string starting at", s, begin);
    out += s.slice(end, j);
    const c = s.charCodeAt(j);
    if (c === 34) return [out, j + 1];
    if (c !== 92) throw new JsonError("Invalid control character at", s, j);
    if (j + 1 >= n) throw new JsonError("Unterminated string starting at", s, begin);
    const e = s[j + 1];
    if (e !== "u") {
      if (!(e in ESCAPES)) throw new JsonError("Invalid \\escape", s, j);
      out += ESCAPES[e];
      end = j + 2;
      continue;
    }
    const u = j + 1;
    end = u + 5;
    if (end >= n) throw new JsonError("Invalid \\uXXXX escape", s, u);
    let code = hex4(s, u + 1);
    if (code < 0) throw new JsonError("Invalid \\uXXXX escape", s, u);
    if (code >= 0xd800 && code <= 0xdbff && end + 6 < n && s[end] === "\\" && s[end + 1] === "u") {
      const low = hex4(s, end + 2);
      if (low < 0) throw new JsonError("Invalid \\uXXXX escape", s, end + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
        end += 6;
      }
    }
    out += String.fromCodePoint(code);
  }
}

function scanValue(s, i, depth) {  // [value, index after it]; StopScan where no value starts
  const c = s[i];
  if (c === '"') return scanString(s, i + 1);
  if (c === "{" || c === "[") {
    if (depth >= MAX_DEPTH) throw new RangeError("nested too deeply");
    return c === "{" ? scanObject(s, i + 1, depth + 1) : scanArray(s, i + 1, depth + 1);
  }
  if (c === "n" && s.startsWith("null", i)) return [null, i + 4];
  if (c === "t" && s.startsWith("true", i)) return [true, i + 4];
  if (c === "f" && s.startsWith("false", i)) return [false, i + 5];
  if (c === "N" && s.startsWith("NaN", i)) return [new PyFloat("NaN"), i + 3];
  if (c === "I" && s.startsWith("Infinity", i)) return [new PyFloat("Infinity"), i + 8];
  if (c === "-" && s.startsWith("-Infinity", i)) return [new PyFloat("-Infinity"), i + 9];
  NUMBER.lastIndex = i;
  const m = NUMBER.exec(s);
  if (m === null) throw new StopScan(i);
  const text = m[0];
  if (m[1] !== undefined || m[2] !== undefined) return [Decimal.parse(text), i + text.length];
  const digits = text.length - (text[0] === "-" ? 1 : 0);
  if (digits > INT_DIGITS) {
    throw new EngineError(`not JSON: Exceeds the limit (${INT_DIGITS} digits) for integer string conversion: value `
      + `has ${digits} digits; use sys.set_int_max_str_digits() to increase the limit`);
  }
  return [BigInt(text), i + text.length];
}

function scanObject(s, i, depth) {
  const out = new Map();
  let twice;  // the first key given twice: an error once the object is read (Python's `unique_object`)
  i = skip(s, i);
  if (s[i] === "}") return [out, i + 1];
  for (;;) {
    if (s[i] !== '"') throw new JsonError("Expecting property name enclosed in double quotes", s, i);
    let key;
    [key, i] = scanString(s, i + 1);
    i = skip(s, i);
    if (s[i] !== ":") throw new JsonError("Expecting ':' delimiter", s, i);
    i = skip(s, i + 1);
    let value;
    try {
      [value, i] = scanValue(s, i, depth);
    } catch (e) {
      if (e instanceof StopScan) throw new JsonError("Expecting value", s, e.pos);
      throw e;
    }
    if (twice === undefined && out.has(key)) twice = key;
    out.set(key, value);
    i = skip(s, i);
    if (s[i] === "}") {
      if (twice !== undefined) throw new EngineError(`the key ${pyReprText(shownText(twice))} is given twice in one object`);
      return [out, i + 1];
    }
    if (s[i] !== ",") throw new JsonError("Expecting ',' delimiter", s, i);
    i = skip(s, i + 1);
  }
}

function scanArray(s, i, depth) {
  const out = [];
  i = skip(s, i);
  if (s[i] === "]") return [out, i + 1];
  for (;;) {
    let value;
    try {
      [value, i] = scanValue(s, i, depth);
    } catch (e) {
      if (e instanceof StopScan) throw new JsonError("Expecting value", s, e.pos);
      throw e;
    }
    out.push(value);
    i = skip(s, i);
    if (s[i] === "]") return [out, i + 1];
    if (s[i] !== ",") throw new JsonError("Expecting ',' delimiter", s, i);
    i = skip(s, i + 1);
  }
}

/** One JSON value from a line of input; not JSON, or nested too deeply, is an EngineError. */
export function readJson(text) {
  try {
    let [value, end] = scanValue(text, skip(text, 0), 0);
    end = skip(text, end);
    if (end !== text.length) throw new JsonError("Extra data", text, end);
    return value;
  } catch (e) {
    if (e instanceof StopScan) e = new JsonError("Expecting value", text, e.pos);
    if (e instanceof JsonError) throw new EngineError(`not JSON: ${e.message}`);
    if (e instanceof RangeError) throw new EngineError("the request is nested too deeply");
    throw e;
  }
}

const JSON_ESCAPES = { '"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f" };

const ESCAPED = /["\\\x00-\x1f]/, ESCAPED_ALL = /["\\\x00-\x1f]/g, NOT_ASCII_ALL = /["\\\x00-\x1f\u007f-\uffff]/g;

function jsonString(s, asciiOnly) {
  if (!asciiOnly && !ESCAPED.test(s)) return '"' + s + '"';  // the usual case: nothing to escape
  const re = asciiOnly ? NOT_ASCII_ALL : ESCAPED_ALL;
  return '"' + s.replace(re, (ch) => JSON_ESCAPES[ch] || "\\u" + hex(ch.charCodeAt(0), 4)) + '"';
}

/** JSON text as Python's json.dumps writes it (", " and ": " between items; `asciiOnly`: ensure_ascii). */
export function jsonText(value, asciiOnly = false) {
  if (value === null || value === undefined) return "null";
  if (value === true) return "true";
  if (value === false) return "false";
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return jsonString(value, asciiOnly);
  if (value instanceof Q) return jsonString(numberText(value), asciiOnly);
  let out = "", sep = "";
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) { out += sep + jsonText(value[i], asciiOnly); sep = ", "; }
    return "[" + out + "]";
  }
  const entries = value instanceof Map ? value : Object.entries(value);
  for (const [k, v] of entries) { out += sep + jsonString(String(k), asciiOnly) + ": " + jsonText(v, asciiOnly); sep = ", "; }
  return "{" + out + "}";
}

// ---- the input layer --------------------------------------------------------------------------------------------

export const STAKE_DIGITS = 15;
export const STAKE_PLACES = 6;
const STAKE_RULE = `an amount is a whole or decimal number in ASCII digits, at most ${STAKE_DIGITS} digits before `
  + `the point and ${STAKE_PLACES} after, like 100 or 25.5`;
const STAKE_LIMIT = 10n ** BigInt(STAKE_DIGITS);
export const MAX_NAME = 200;

/** Python's type name of a JSON value (in a message). */
function typeName(v) {
  if (v === null || v === undefined) return "NoneType";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "bigint") return "int";
  if (typeof v === "number") return Number.isInteger(v) ? "int" : "float";
  if (v instanceof Decimal) return "Decimal";
  if (v instanceof PyFloat) return "float";
  if (typeof v === "string") return "str";
  if (Array.isArray(v)) return "list";
  if (v instanceof Map) return "dict";
  return typeof v;
}

/** How a JSON value is called in an error message. */
export function kindOf(value) {
  if (value === null || value === undefined) return "null";
  if (typeof value === "boolean") return "true/false";
  if (value instanceof PyFloat || (typeof value === "number" && !Number.isInteger(value))) {
    return "a float (amounts are exact: an int, a Decimal or a decimal text)";
  }
  if (typeof value === "bigint" || typeof value === "number" || value instanceof Decimal || value instanceof Q) {
    return "a number";
  }
  if (typeof value === "string") return "text";
  if (Array.isArray(value)) return "a list";
  if (value instanceof Map) return "an object";
  return typeName(value);
}

const BIG = 10n ** 20n;
/** A value shown in a message: short, one line, and only characters any output can encode. */
export function shownText(value) {
  let text;
  if (typeof value === "string") text = value;
  else if (value instanceof Decimal) text = value.toString();
  else if (typeof value === "bigint" && -BIG < value && value < BIG) text = value.toString();
  else text = kindOf(value);
  if (cpLen(text) > 20) text = cpSlice(text, 20) + "…";
  return isPrintable(text) ? text : pyReprText(text, true).slice(1, -1);
}

/** A name from a request (room, bettor, seat, banker): printable text of at most MAX_NAME characters. */
export function checkName(value, what, error = EngineError) {
  if (typeof value !== "string") throw new error(`${what} must be text, not ${kindOf(value)}`);
  if (cpLen(value) > MAX_NAME) throw new error(`${what} is longer than ${MAX_NAME} characters`);
  if (!isPrintable(value)) {
    throw new error(`${what} ${pyReprText(shownText(value))} holds a control character or a lone surrogate`);
  }
  return value;
}

/** A JSON object field as a Map; null or absent reads as an empty Map when `missingOk`. */
export function checkObject(value, what, error = EngineError, missingOk = true) {
  if ((value === null || value === undefined) && missingOk) return new Map();
  if (value !== null && typeof value === "object" && !(value instanceof Map) && !Array.isArray(value)
      && Object.getPrototypeOf(value) === Object.prototype) {
    return new Map(Object.entries(value));  // a plain object given through the API
  }
  if (!(value instanceof Map)) throw new error(`${what} is an object, not ${kindOf(value)}`);
  return value;
}

function digitsAmount(negative, whole, places, what, value) {
  whole = whole.replace(/^0+/, "");
  places = places.replace(/0+$/, "");
  if (whole.length > STAKE_DIGITS || places.length > STAKE_PLACES) {
    throw new InvalidBet(`${what} has too many digits (${shownText(value)}): ${STAKE_RULE}`);
  }
  const amount = frac(BigInt(whole + places || "0"), 10n ** BigInt(places.length));
  if (negative && !eq(amount, 0n)) throw new InvalidBet(`${what} must not be negative (${shownText(value)})`);
  return amount;
}

/** An exact, non-negative amount (stake, coins) from a JSON int, a JSON number or a decimal text. */
export function parseMoney(value, what) {
  if (typeof value === "number" && Number.isSafeInteger(value)) value = BigInt(value);  // through the API
  if (typeof value === "bigint") {
    if (value >= 0n && value < STAKE_LIMIT) return value;
    if (!(-STAKE_LIMIT < value && value < STAKE_LIMIT)) throw new InvalidBet(`${what} has too many digits: ${STAKE_RULE}`);
    throw new InvalidBet(`${what} must not be negative (${value})`);
  }
  if (typeof value === "string") {
    const negative = value.slice(0, 1) === "-";
    const rest = value.slice(negative ? 1 : 0);
    const dot = rest.indexOf(".");
    const whole = dot < 0 ? rest : rest.slice(0, dot);
    const places = dot < 0 ? "" : rest.slice(dot + 1);
    if (!(/^[0-9]+$/.test(whole) && (dot < 0 || /^[0-9]+$/.test(places)))) {
      throw new InvalidBet(`${what} must be a number, not ${pyReprText(shownText(value))}: ${STAKE_RULE}`);
    }
    return digitsAmount(negative, whole, places, what, value);
  }
  if (!(value instanceof Decimal)) throw new InvalidBet(`${what} must be a number, not ${kindOf(value)}: ${STAKE_RULE}`);
  const text = value.digits.replace(/0+$/, "");
  if (!text) return 0n;
  const exponent = value.exp + value.digits.length - text.length;
  if (value.adjusted() >= STAKE_DIGITS || exponent < -STAKE_PLACES) {
    throw new InvalidBet(`${what} has too many digits (${shownText(value)}): ${STAKE_RULE}`);
  }
  if (value.sign) throw new InvalidBet(`${what} must not be negative (${shownText(value)})`);
  return frac(BigInt(text) * 10n ** BigInt(Math.max(exponent, 0)), 10n ** BigInt(Math.max(-exponent, 0)));
}

// ---- the JSON Lines loop ----------------------------------------------------------------------------------------

export const MAX_LINE_BYTES = 1000000;  // a request line's bytes (`croupier play --jsonl --max-line-bytes` raises it)

/** The answer for an exception no input check foresaw: named, short, for this line only. */
export function internalError(exc) {
  return new Map([["error", `internal error: ${exc && exc.name}: ${shownText(String(exc && exc.message))}`]]);
}

/** The answer as one line of JSON text that UTF-8 can always encode (no lone surrogates). */
export function encodeAnswer(result) {
  const text = jsonText(result);
  return text.isWellFormed() ? text : jsonText(result, true);
}

/** The JSON answer of `adjudicate` to one request line; bad input gives {"error": …}, never an exception. */
export function answerLine(adjudicate, line) {
  let result;
  try {
    result = adjudicate(readJson(line));
  } catch (exc) {
    if (exc instanceof EngineError) result = new Map([["error", exc.message]]);
    else if (exc instanceof RangeError && /call stack/.test(exc.message)) {
      result = new Map([["error", "the request is nested too deeply"]]);
    } else result = internalError(exc);
  }
  return encodeAnswer(result);
}

/** What every engine offers besides its game: the errors, the input layer, the `play --jsonl` loop. */
export class JsonLinesGame {
  adjudicate(_request) { throw new Error("each kind of game says how it answers"); }
  /** The JSON answer to one request line; bad input gives {"error": …}, never an exception. */
  answer(line) { return answerLine((r) => this.adjudicate(r), line); }
  /** Answer every line of standard input (Node), in order, in constant memory; a line longer than
   * `maxLineBytes` (a carriage return before its newline not counted) is answered with an error and never held
   * whole (Python's `bounded_lines`). */
  async runJsonl(input, write, maxLineBytes = MAX_LINE_BYTES) {
    const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
    const adjudicate = (r) => this.adjudicate(r);
    const tooLong = jsonText(tooLongAnswer(maxLineBytes), true);
    let pending = [];
    let held = 0;  // the bytes in `pending`
    let skipping = false;  // the line is longer than the bound: its bytes are dropped as they come
    let out = "";
    const answer = () => {
      if (skipping) return tooLong;
      let bytes = pending.length === 1 ? pending[0] : Buffer.concat(pending);
      if (bytes.length && bytes[bytes.length - 1] === 13) bytes = bytes.subarray(0, bytes.length - 1);
      return bytes.length > maxLineBytes ? tooLong : answerLine(adjudicate, decoder.decode(bytes));
    };
    const hold = (bytes) => {
      if (skipping || !bytes.length) return;
      held += bytes.length;
      if (held > maxLineBytes + 1) { pending = []; held = 0; skipping = true; }  // too long even without a CR
      else pending.push(bytes);
    };
    for await (const chunk of input) {
      let start = 0;
      for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, start)) {
        hold(chunk.subarray(start, i));
        out += answer() + "\n";
        pending = [];
        held = 0;
        skipping = false;
        start = i + 1;
        if (out.length > 65536) { await write(out); out = ""; }
      }
      if (start < chunk.length) hold(chunk.subarray(start));
      if (out) { await write(out); out = ""; }
    }
    if (pending.length || skipping) out += answer() + "\n";
    if (out) await write(out);
  }
}

/** The answer to a request line longer than the bound (Python's `too_long`). */
export function tooLongAnswer(maxLineBytes) {
  return new Map([["error", `the request line is longer than ${groupDigits(maxLineBytes)} bytes (the bound of a line; `
    + "`croupier play --jsonl --max-line-bytes N` raises it)"]]);
}

const groupDigits = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

/** Run a game as a script: answer `play --jsonl` requests from standard input on standard output (Node). */
export async function main(game) {
  captureStacks = false;  // an error here is an answer ({"error": …}), never a trace: no stack to capture
  const write = (text) => new Promise((done) => { if (process.stdout.write(text)) done(); else process.stdout.once("drain", done); });
  await game.runJsonl(process.stdin, write);
}

// ---- cards ------------------------------------------------------------------------------------------------------

const SUIT_SYMBOLS = [["♠", "S"], ["♥", "H"], ["♣", "C"], ["♦", "D"]];
// Python's str.split() and str.strip() whitespace
const PY_SPACE = "\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const PY_SPLIT = new RegExp(`[${PY_SPACE}]+`);
const PY_STRIP = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, "g");

/** The cards of one game: `decks` copies of `deck` (card codes, jokers among them), valued by rank. */
export class CardGame extends JsonLinesGame {
  constructor(game, decks, deck, jokers, values) {
    super();
    this.GAME = game;
    this.DECKS = decks;
    this.DECK = deck;
    this.JOKERS = jokers;
    this.VALUE = values;
    const perDeck = new Map();
    for (const code of deck) perDeck.set(code, (perDeck.get(code) || 0) + 1);
    this.PER_DECK = perDeck;
    this.RANK_OF = new Map();
    this.SUIT_OF = new Map();
    for (const code of perDeck.keys()) {
      this.RANK_OF.set(code, jokers.includes(code) ? code : code.slice(0, -1));
      this.SUIT_OF.set(code, jokers.includes(code) ? null : code.slice(-1));
    }
  }

  /** Every card of a shoe of `decks` decks, in the order of the deck (each card's copies together). */
  shoeCards(decks) {
    const out = [];
    for (const [code, n] of this.PER_DECK) for (let i = 0; i < n * decks; i++) out.push(code);
    return out;
  }

  /** The canonical code of a card written as `10S`, `ts`, `A♠` or `BJ`. */
  parseCard(text) {
    if (typeof text !== "string") throw new InvalidCards(`a card is written as text like "AS", not ${typeName(text)}`);
    if (this.PER_DECK.has(text)) return text;
    let t = text.replace(PY_STRIP, "").toUpperCase();
    for (const [symbol, letter] of SUIT_SYMBOLS) t = t.split(symbol).join(letter);
    if (t.slice(0, 1) === "T") t = "10" + t.slice(1);
    if (!this.PER_DECK.has(t)) {
      const shown = cpLen(text) <= 12 ? text : cpSlice(text, 12) + "…";
      throw new InvalidCards(`unknown card ${pyReprText(shown)}`);
    }
    return t;
  }

  /** Card codes from a list of card texts or one space-separated string. */
  parseCards(cards) {
    if (typeof cards === "string") cards = cards.split(",").join(" ").split(PY_SPLIT).filter((c) => c !== "");
    if (!Array.isArray(cards)) throw new InvalidCards('cards come as a list like ["3S", "2H"]');
    return cards.map((c) => this.parseCard(c));
  }

  /** Reject a card seen more often than the shoe holds it. */
  checkCopies(codes) {
    const decks = this.DECKS;
    if (codes.length <= decks) return;
    const seen = new Map();
    for (const code of codes) {
      const n = (seen.get(code) || 0) + 1;
      seen.set(code, n);
      const held = decks * this.PER_DECK.get(code);
      if (n > held) {
        if (held === 1) throw new InvalidCards(`card ${code} appears twice, but the deck holds it once`);
        throw new InvalidCards(`card ${code} appears ${n} times, but the shoe holds it ${held} times`);
      }
    }
  }
}

// ---- what rules read of a hand --------------------------------------------------------------------------------

/** The third card of a hand, or null when it has only two. */
export const third = (cards) => (cards.length > 2 ? cards[2] : null);
/** The first card of a hand, or null when it holds none. */
export const firstCard = (cards) => (cards.length ? cards[0] : null);
/** The last card of a hand, or null when it holds none. */
export const lastCard = (cards) => (cards.length ? cards[cards.length - 1] : null);
/** How many cards a hand holds (a BigInt, as every number a rule reads). */
export const count = (cards) => BigInt(cards.length);
/** The card at a position of a hand, counted from 1; null when the hand holds no such card. */
export function cardAt(cards, position) {
  if (!eq(position, floor(position))) throw new EngineError(`a card's position is a whole number, not ${pyStr(position)}`);
  const p = Number(floor(position));
  return p >= 1 && p <= cards.length ? cards[p - 1] : null;
}

/** A key of a fast path's draw table as a Map key: itself (a number or a text). */
export const fastKey = (key) => key;

/** A key of a draw table as a Map key: a BigInt or a text as itself, a fraction as its text, null as "none". */
export function keyId(key) {
  if (key instanceof Q) return `q${key.n}/${key.d}`;
  if (key === null || key === undefined) return "none";
  return typeof key === "bigint" ? key : "s" + key;
}

/** A draw table from its grid, as the spec writes it: rows of D (draw) and S (stand) under the columns' keys
 * (`columns` null: one row of marks under its keys). The result maps a key (a row's, then a column's) to true
 * (draw) or false (stand). */
export function gridTable(columns, rows, id = keyId) {
  const table = new Map();
  for (const [row, cells] of rows) {
    const marks = cells.split(" ");
    if (columns === null) {
      row.forEach((key, i) => { if ("DS".includes(marks[i])) table.set(id(key), marks[i] === "D"); });
      continue;
    }
    const line = new Map();
    columns.forEach((col, i) => { if ("DS".includes(marks[i])) line.set(id(col), marks[i] === "D"); });
    table.set(id(row), line);
  }
  return table;
}

/** [rule, key, draws] of a hand deciding by a draw table at `key` (a pair for a grid of rows and columns);
 * MissingCell when the table has no cell there. */
export function drawDecision(table, rule, key) {
  const draws = Array.isArray(key) ? table.get(keyId(key[0]))?.get(keyId(key[1])) : table.get(keyId(key));
  if (draws === undefined) throw new MissingCell(rule, key);
  return [rule, key, draws];
}

/** What a dealt round's rules read of cards by the game's values, ranks, suits and classes. */
export class HandReads extends CardGame {
  constructor(game, decks, deck, jokers, values, cardValues = null, modulus = 0n, soft = null, cardClasses = null) {
    super(game, decks, deck, jokers, values);
    cardValues = cardValues || new Map();
    this.CARD_VALUE = new Map();
    for (const code of this.PER_DECK.keys()) {
      this.CARD_VALUE.set(code, cardValues.has(code) ? cardValues.get(code) : values.get(this.RANK_OF.get(code)));
    }
    this.MODULUS = modulus;
    this.soft = soft;
    this.CARD_CLASSES = cardClasses || new Map();
  }

  /** {code: value} as plain numbers, for a generated fast path (its emitter checked they are exact doubles). */
  numberValues() {
    const out = new Map();
    for (const [code, v] of this.CARD_VALUE) out.set(code, typeof v === "bigint" ? Number(v) : Number(v.n) / Number(v.d));
    return out;
  }

  /** The total of some cards in plain numbers (a fast path's; no soft values there). */
  numberTotal(cards) {
    const values = this.fastValues || (this.fastValues = this.numberValues());
    let s = 0;
    for (let i = 0; i < cards.length; i++) s += values.get(cards[i]);
    if (!this.MODULUS) return s;
    const m = Number(this.MODULUS), r = s % m;
    return r < 0 ? r + m : r;
  }

  /** The value of one card; asking for a card that was not dealt is an error. */
  cardValue(card) {
    if (card === null) throw new EngineError("a rule asked for a card that was not dealt");
    return this.CARD_VALUE.get(card);
  }

  /** [total, cards counted at their other value]: the highest total not over the soft limit. */
  bestTotal(cards) {
    const [ranks, extra, limit] = this.soft || [[], 0n, 0n];
    let base = 0n, soft = 0;
    for (const c of cards) {
      base = add(base, this.CARD_VALUE.get(c));
      if (ranks.includes(this.RANK_OF.get(c))) soft += 1;
    }
    let best = 0;
    for (let k = 1; k <= soft; k++) {
      if (gt(add(base, mul(BigInt(k), extra)), limit)) break;
      best = k;
    }
    return [add(base, mul(BigInt(best), extra)), best];
  }

  /** The total of some cards, by the spec's values (the best of them with soft values). */
  total(cards) {
    if (this.soft !== null) return this.bestTotal(cards)[0];
    let s = 0n;
    const value = this.CARD_VALUE;
    for (let i = 0; i < cards.length; i++) {
      const v = value.get(cards[i]);
      s = typeof s === "bigint" && typeof v === "bigint" ? s + v : add(s, v);
    }
    return this.MODULUS ? exactMod(s, this.MODULUS) : s;
  }

  /** Whether the best total counts a card at its other value (a soft total). */
  isSoft(cards) { return this.bestTotal(cards)[1] > 0; }

  cardRank(card) {
    if (card === null) throw new EngineError("a rule asked for the rank of a card that was not dealt");
    return this.RANK_OF.get(card);
  }

  cardSuit(card) {
    if (card === null) throw new EngineError("a rule asked for the suit of a card that was not dealt");
    return this.SUIT_OF.get(card);
  }

  /** Whether all the cards are of one rank (a pair, for two cards). */
  sameRank(cards) {
    if (cards.length < 2) return false;
    const rank = this.RANK_OF.get(cards[0]);
    return cards.every((c) => this.RANK_OF.get(c) === rank);
  }

  /** Whether all the cards are of one suit (two cards or more; a joker has no suit). */
  sameSuit(cards) {
    if (cards.length < 2 || this.SUIT_OF.get(cards[0]) === null) return false;
    const suit = this.SUIT_OF.get(cards[0]);
    return cards.every((c) => this.SUIT_OF.get(c) === suit);
  }

  countClass(cards, name) { const m = this.CARD_CLASSES.get(name); return count(cards.filter((c) => m.includes(c))); }
  countSuit(cards, suit) { return count(cards.filter((c) => this.SUIT_OF.get(c) === suit)); }
  countRank(cards, rank) { return count(cards.filter((c) => this.RANK_OF.get(c) === rank)); }
}

// ---- seeded shuffles: Python's random.Random ---------------------------------------------------------------------

const K512 = [
  "428a2f98d728ae22", "7137449123ef65cd", "b5c0fbcfec4d3b2f", "e9b5dba58189dbbc", "3956c25bf348b538", "59f111f1b605d019",
  "923f82a4af194f9b", "ab1c5ed5da6d8118", "d807aa98a3030242", "12835b0145706fbe", "243185be4ee4b28c", "550c7dc3d5ffb4e2",
  "72be5d74f27b896f", "80deb1fe3b1696b1", "9bdc06a725c71235", "c19bf174cf692694", "e49b69c19ef14ad2", "efbe4786384f25e3",
  "0fc19dc68b8cd5b5", "240ca1cc77ac9c65", "2de92c6f592b0275", "4a7484aa6ea6e483", "5cb0a9dcbd41fbd4", "76f988da831153b5",
  "983e5152ee66dfab", "a831c66d2db43210", "b00327c898fb213f", "bf597fc7beef0ee4", "c6e00bf33da88fc2", "d5a79147930aa725",
  "06ca6351e003826f", "142929670a0e6e70", "27b70a8546d22ffc", "2e1b21385c26c926", "4d2c6dfc5ac42aed", "53380d139d95b3df",
  "650a73548baf63de", "766a0abb3c77b2a8", "81c2c92e47edaee6", "92722c851482353b", "a2bfe8a14cf10364", "a81a664bbc423001",
  "c24b8b70d0f89791", "c76c51a30654be30", "d192e819d6ef5218", "d69906245565a910", "f40e35855771202a", "106aa07032bbd1b8",
  "19a4c116b8d2d0c8", "1e376c085141ab53", "2748774cdf8eeb99", "34b0bcb5e19b48a8", "391c0cb3c5c95a63", "4ed8aa4ae3418acb",
  "5b9cca4f7763e373", "682e6ff3d6b2b8a3", "748f82ee5defb2fc", "78a5636f43172f60", "84c87814a1f0ab72", "8cc702081a6439ec",
  "90befffa23631e28", "a4506cebde82bde9", "bef9a3f7b2c67915", "c67178f2e372532b", "ca273eceea26619c", "d186b8c721c0c207",
  "eada7dd6cde0eb1e", "f57d4f7fee6ed178", "06f067aa72176fba", "0a637dc5a2c898a6", "113f9804bef90dae", "1b710b35131c471b",
  "28db77f523047d84", "32caab7b40c72493", "3c9ebe0a15c9bebc", "431d67c49c100d4c", "4cc5d4becb3e42b6", "597f299cfc657e2a",
  "5fcb6fab3ad6faec", "6c44198c4a475817",
].map((h) => BigInt("0x" + h));
const H512 = ["6a09e667f3bcc908", "bb67ae8584caa73b", "3c6ef372fe94f82b", "a54ff53a5f1d36f1", "510e527fade682d1",
  "9b05688c2b3e6c1f", "1f83d9abfb41bd6b", "5be0cd19137e2179"].map((h) => BigInt("0x" + h));
const M64 = (1n << 64n) - 1n;
const rotr = (x, n) => ((x >> n) | (x << (64n - n))) & M64;

/** SHA-512 of some bytes (a text seed's digest, as Python's random seeds from text). */
export function sha512(bytes) {
  const len = bytes.length;
  const total = Math.ceil((len + 17) / 128) * 128;
  const m = new Uint8Array(total);
  m.set(bytes);
  m[len] = 0x80;
  const bits = BigInt(len) * 8n;
  for (let i = 0; i < 16; i++) m[total - 1 - i] = Number((bits >> BigInt(8 * i)) & 0xffn);
  const h = H512.slice();
  const w = new Array(80);
  for (let off = 0; off < total; off += 128) {
    for (let t = 0; t < 16; t++) {
      let x = 0n;
      for (let b = 0; b < 8; b++) x = (x << 8n) | BigInt(m[off + t * 8 + b]);
      w[t] = x;
    }
    for (let t = 16; t < 80; t++) {
      const s0 = rotr(w[t - 15], 1n) ^ rotr(w[t - 15], 8n) ^ (w[t - 15] >> 7n);
      const s1 = rotr(w[t - 2], 19n) ^ rotr(w[t - 2], 61n) ^ (w[t - 2] >> 6n);
      w[t] = (w[t - 16] + s0 + w[t - 7] + s1) & M64;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let t = 0; t < 80; t++) {
      const S1 = rotr(e, 14n) ^ rotr(e, 18n) ^ rotr(e, 41n);
      const ch = (e & f) ^ (~e & M64 & g);
      const t1 = (hh + S1 + ch + K512[t] + w[t]) & M64;
      const S0 = rotr(a, 28n) ^ rotr(a, 34n) ^ rotr(a, 39n);
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (S0 + maj) & M64;
      hh = g; g = f; f = e; e = (d + t1) & M64; d = c; c = b; b = a; a = (t1 + t2) & M64;
    }
    [a, b, c, d, e, f, g, hh].forEach((x, i) => { h[i] = (h[i] + x) & M64; });
  }
  const out = new Uint8Array(64);
  h.forEach((x, i) => { for (let b = 0; b < 8; b++) out[i * 8 + b] = Number((x >> BigInt(56 - 8 * b)) & 0xffn); });
  return out;
}

/** Python's random.Random: MT19937 seeded as Python seeds it (a whole number, or a text by seed version 2). */
export class Random {
  constructor(seed = null) {
    this.mt = new Uint32Array(624);
    this.index = 624;
    let n;
    if (seed === null || seed === undefined) {
      const words = new Uint32Array(4);
      globalThis.crypto.getRandomValues(words);
      n = words.reduce((acc, w) => (acc << 32n) | BigInt(w), 0n);
    } else if (typeof seed === "string") {
      const bytes = new TextEncoder().encode(seed);
      const all = new Uint8Array(bytes.length + 64);
      all.set(bytes);
      all.set(sha512(bytes), bytes.length);
      n = all.reduce((acc, b) => (acc << 8n) | BigInt(b), 0n);
    } else if (typeof seed === "bigint" || Number.isSafeInteger(seed)) {
      n = BigInt(seed);
    } else {
      throw new EngineError(`a seed is a whole number or a text, not ${kindOf(seed)}`);
    }
    if (n < 0n) n = -n;
    const key = [];
    while (n > 0n) { key.push(Number(n & 0xffffffffn)); n >>= 32n; }
    this.initByArray(key.length ? key : [0]);
  }

  initGenrand(s) {
    const mt = this.mt;
    mt[0] = s >>> 0;
    for (let i = 1; i < 624; i++) {
      const p = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = (Math.imul(1812433253, p) + i) >>> 0;
    }
    this.index = 624;
  }

  initByArray(key) {
    const mt = this.mt;
    this.initGenrand(19650218);
    let i = 1, j = 0;
    for (let k = Math.max(624, key.length); k; k--) {
      const p = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(p, 1664525)) + key[j] + j) >>> 0;
      i++; j++;
      if (i >= 624) { mt[0] = mt[623]; i = 1; }
      if (j >= key.length) j = 0;
    }
    for (let k = 623; k; k--) {
      const p = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(p, 1566083941)) - i) >>> 0;
      i++;
      if (i >= 624) { mt[0] = mt[623]; i = 1; }
    }
    mt[0] = 0x80000000;
  }

  /** The next 32 random bits (genrand_uint32). */
  next32() {
    const mt = this.mt;
    if (this.index >= 624) {
      for (let k = 0; k < 624; k++) {
        const y = (mt[k] & 0x80000000) | (mt[(k + 1) % 624] & 0x7fffffff);
        mt[k] = mt[(k + 397) % 624] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      this.index = 0;
    }
    let y = mt[this.index++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** A random whole number 0 <= r < n (n below 2**32), as Python's _randbelow draws it. */
  randbelow(n) {
    const k = 32 - Math.clz32(n);
    let r = this.next32() >>> (32 - k);
    while (r >= n) r = this.next32() >>> (32 - k);
    return r;
  }

  randint(a, b) { return a + this.randbelow(b - a + 1); }

  shuffle(x) {
    for (let i = x.length - 1; i > 0; i--) {
      const j = this.randbelow(i + 1);
      [x[i], x[j]] = [x[j], x[i]];
    }
  }
}

/** What a generated fast path throws when a round is anything but plain: the runtime deals it again on the
 * exact rule functions, which say what is wrong. A constant, thrown without a stack. */
export const SLOW = Symbol("deal this round on the exact path");

// ---- a dealt round ------------------------------------------------------------------------------------------------

/** One adjudicated round: each hand's cards, the outcome, the cards used and the steps. */
export class Round {
  constructor(hands) {
    for (const hand of hands) this[hand] = [];
    this.outcome = null;
    this.cards_used = 0;
    this.steps = [];
  }
}

function pushedTest(clauses) {
  return (r) => {
    for (const [kind, test] of clauses) if (test(r)) return kind === "push";
    return false;
  };
}

const setIn = (set, x) => set.includes(x);

/** A dealt-round game: its data, then (`rules`) the functions generated from its rules. */
export class DealtRound extends HandReads {
  constructor(game, decks, deck, jokers, values, hands, dealOrder, options = {}) {
    const o = options;
    super(game, decks, deck, jokers, values, o.cardValues, o.modulus ?? 0n, o.soft ?? null, o.cardClasses);
    this.HANDS = hands;
    this.DEAL_ORDER = dealOrder;
    this.DEALT = new Map(hands.map((h) => [h, BigInt(dealOrder.filter((x) => x === h).length)]));
    this.REPEATS = o.repeats || [];
    this.DEAL_RULE = o.dealRule || "";
    this.STAND_RULE = o.standRule || "";
    this.OUTCOME_RULES = o.outcomeRules || new Map();
    this.ROOMS = o.rooms || new Map();
    this.SHOE_PROCEDURE = o.shoeProcedure || { cutLow: null, cutHigh: null, burnReveal: 0, burnValues: new Map(),
      lastRound: "at-cut" };
    [this.SQUEEZE_BETS, this.SQUEEZE_TIES_TO, this.SQUEEZE_ORDER] = o.squeeze || [[], null, []];
    this.VALID_PUSHED_NONE = !!o.validPushedNone;
    this.VOID_RETURNS_STAKES = !!o.voidReturnsStakes;
    this.SCHEDULE_ORDER = [...this.SQUEEZE_ORDER, ...hands.filter((h) => !this.SQUEEZE_ORDER.includes(h))];
    this.SCHEDULE = this.SCHEDULE_ORDER.map((h) => [h, Number(this.DEALT.get(h))]);
    const game_ = this;
    /** A table dealing one shoe of this game: `deal(bets)` plays the next round; `rounds(bets)` plays them all. */
    this.Table = class extends Table { constructor(seed = null, room = null, decks = null) { super(game_, seed, room, decks); } };
  }

  /** Give the game the functions generated from its rules. */
  rules({ standAll, drawers, outcomeOf, events, bets, betClauses, noValidBets, dealFast = null }) {
    this.dealFast = dealFast;
    this.standAll = standAll;
    this.DRAWERS = drawers;
    this.outcomeOf = outcomeOf;
    this.EVENTS = events;
    this.BETS = bets;
    this.noValidBets = noValidBets;
    const clauses = new Map();
    for (const [bet, kind, , test] of betClauses) {
      if (!clauses.has(bet)) clauses.set(bet, []);
      clauses.get(bet).push([kind, test]);
    }
    this.PUSHED = new Map([...clauses].filter(([, c]) => c.some(([k]) => k === "push")).map(([b, c]) => [b, pushedTest(c)]));
    return this;
  }

  /** [hand, decide] for each draw decision of a round, in order; a hand that draws while a condition holds
   * (REPEATS) is asked again after every card it draws, until it stands. */
  drawingSteps(r) {
    return this.REPEATS.length ? this.repeatedSteps(r) : this.DRAWERS;
  }

  *repeatedSteps(r) {
    for (const [hand, decide] of this.DRAWERS) {
      if (!this.REPEATS.includes(hand)) { yield [hand, decide]; continue; }
      for (;;) {
        const held = r[hand].length;
        yield [hand, decide];
        if (r[hand].length === held) break;
      }
    }
  }

  /** The fewest cards a shoe keeps for a round: the deal and one card per drawing hand. */
  roundMaxCards() { return this.DEAL_ORDER.length + this.DRAWERS.length; }

  /** The round dealt from `cards[start]` on (canonical codes); cards running out: `ranOut(hand, n)`'s error. */
  dealAt(cards, start, explain = false, ranOut = null) {
    if (!explain && this.dealFast !== null) {
      try {
        return this.dealFast(cards, start);
      } catch (e) {
        if (e !== SLOW) throw e;
      }
    }
    const r = new Round(this.HANDS);
    const n = cards.length;
    const dealOrder = this.DEAL_ORDER;
    if (n - start < dealOrder.length) {
      throw ranOut ? ranOut(null, n) : new ShoeRanOut("the shoe ran out of cards in the middle of a round");
    }
    for (let i = 0; i < dealOrder.length; i++) r[dealOrder[i]].push(cards[start + i]);
    let pos = start + dealOrder.length;
    if (explain) {
      dealOrder.forEach((hand, i) => r.steps.push(new Map([["step", "deal"], ["hand", hand], ["card", cards[start + i]],
        ["rule", this.DEAL_RULE]])));
    }
    if (this.standAll(r)) {
      if (explain) r.steps.push(new Map([["step", "stand all"], ["rule", this.STAND_RULE]]));
    } else {
      for (const [hand, decide] of this.drawingSteps(r)) {
        const [rule, key, draws] = decide(r);
        if (draws) {
          if (pos >= n) {
            throw ranOut ? ranOut(hand, n) : new ShoeRanOut("the shoe ran out of cards in the middle of a round");
          }
          r[hand].push(cards[pos]);
          pos += 1;
        }
        if (explain) {
          const step = new Map([["step", draws ? "draw" : "stand"], ["hand", hand], ["rule", rule], ["key", key]]);
          if (draws) step.set("card", cards[pos - 1]);
          r.steps.push(step);
        }
      }
    }
    r.outcome = this.outcomeOf(r);
    r.cards_used = pos - start;
    if (explain) {
      r.steps.push(new Map([["step", "outcome"], ["outcome", r.outcome], ["rule", this.OUTCOME_RULES.get(r.outcome)]]));
    }
    return r;
  }

  /** Adjudicate one round from cards in dealing order; unused cards are left over. With `explain`,
   * `round.steps` lists every deal and decision with the rule behind it. */
  play(cards, explain = false) {
    const codes = this.parseCards(cards);
    this.checkCopies(codes);
    const need = this.DEAL_ORDER.length;
    return this.dealAt(codes, 0, explain, (hand, n) => (hand === null
      ? new InvalidCards(`not enough cards: the deal needs ${need}, got ${n}`)
      : new NotEnoughCards(`not enough cards: ${hand} draws, but the cards ran out after ${n}`)));
  }

  /** What each bet returns, stake included (0 when lost), for an adjudicated round: a Map of exact numbers. */
  settle(r, bets) {
    bets = checkObject(bets, "bets (bet name to stake)", InvalidBet, false);
    const out = new Map();
    for (const [name, stake] of bets) {
      const pay = typeof name === "string" ? this.BETS.get(name) : undefined;
      if (pay === undefined) {
        throw new InvalidBet(`unknown bet ${pyReprText(shownText(name))}; this game's bets are ${[...this.BETS.keys()].join(", ")}`);
      }
      out.set(name, pay(r, parseMoney(stake, `the stake on ${name}`)));
    }
    return out;
  }

  /** The round as the JSON record of the `play --jsonl` contract. */
  record(r) {
    const out = new Map();
    for (const hand of this.HANDS) out.set(hand, r[hand]);
    for (const hand of this.HANDS) out.set(hand + "_total", numJson(this.total(r[hand])));
    for (const [name, test] of this.EVENTS) out.set(name, test(r));
    out.set("outcome", r.outcome);
    out.set("cards_used", BigInt(r.cards_used));
    return out;
  }

  /** [cards, bets, room] of a `play --jsonl` request, every field's type checked. */
  readRequest(request) {
    if (!(request instanceof Map)) throw new EngineError('a request is a JSON object like {"cards": [...], "bets": {...}}');
    const cards = request.get("cards");
    if (cards === null || cards === undefined) throw new InvalidCards('the request has no "cards"');
    const bets = checkObject(request.get("bets"), '"bets" (bet name to stake)', InvalidBet);
    const room = request.get("room") ?? null;
    if (room !== null) checkName(room, '"room"', InvalidBet);
    return [cards, bets, room];
  }

  /** Answer one `play --jsonl` request: {"cards": [...], "bets": {...}[, "room": name]}. */
  adjudicate(request) {
    const [cards, bets, room] = this.readRequest(request);
    if (room !== null) this.checkLimits(room, bets);
    const r = this.play(cards);
    const out = this.record(r);
    const returns = new Map();
    for (const [name, v] of this.settle(r, bets)) returns.set(name, amountJson(v));
    out.set("returns", returns);
    return out;
  }

  /** Reject a stake outside the room's limits, naming the room and the limit. */
  checkLimits(room, bets) {
    const limits = this.ROOMS.get(checkName(room, "the room", InvalidBet));
    if (limits === undefined) {
      throw new InvalidBet(`unknown room ${pyReprText(shownText(room))}; rooms: ${[...this.ROOMS.keys()].join(", ") || "none"}`);
    }
    for (const [name, stake] of checkObject(bets, "bets (bet name to stake)", InvalidBet, false)) {
      const limit = limits.get(name);
      if (limit === undefined || limit === null) continue;  // the room sets no limit on this bet (`no limit`)
      const [low, high] = limit;
      const amount = parseMoney(stake, `the stake on ${name}`);
      if (!(le(low, amount) && le(amount, high))) {
        throw new InvalidBet(`the stake ${numberText(amount)} on ${name} is outside the limit of room ${room}: `
          + `${numberText(low)} to ${numberText(high)}`);
      }
    }
  }

  // ---- at a table ----------------------------------------------------------------------------------------

  /** Exact stakes per bettor from {bettor: {bet: stake}} (or one bettor's {bet: stake}). */
  tableBets(bets, room = null) {
    bets = checkObject(bets, "bets (bettor to {bet: stake})", InvalidBet);
    const isObject = (v) => v instanceof Map || (v !== null && typeof v === "object" && !Array.isArray(v)
      && !(v instanceof Decimal) && !(v instanceof PyFloat));
    if (bets.size && ![...bets.values()].some(isObject)) bets = new Map([["bettor", bets]]);
    const out = new Map();
    for (const [bettor, given] of bets) {
      checkName(bettor, "a bettor's name", InvalidBet);
      const stakes = checkObject(given, `the bets of ${shownText(bettor)} (bet name to stake)`, InvalidBet, false);
      if (room !== null) this.checkLimits(room, stakes);
      const exact = new Map();
      for (const [name, stake] of stakes) {
        if (!this.BETS.has(name)) {
          throw new InvalidBet(`unknown bet ${pyReprText(shownText(name))}; this game's bets are ${[...this.BETS.keys()].join(", ")}`);
        }
        const amount = parseMoney(stake, `the stake of ${bettor} on ${name}`);
        if (!eq(amount, 0n)) exact.set(name, amount);
      }
      out.set(bettor, exact);
    }
    return out;
  }

  /** The hand each bettor may squeeze: the squeezing bet with the larger stake, ties as the spec says. */
  squeezeSides(bets) {
    const sides = new Map();
    for (const [bettor, stakes] of bets) {
      const placed = this.SQUEEZE_BETS.filter((b) => stakes.has(b)).map((b) => [stakes.get(b), b]);
      if (!placed.length) continue;
      const top = max(...placed.map(([s]) => s));
      const best = placed.filter(([s]) => eq(s, top)).map(([, b]) => b);
      sides.set(bettor, best.includes(this.SQUEEZE_TIES_TO) ? this.SQUEEZE_TIES_TO : best[0]);
    }
    return sides;
  }

  /** {hand: [bettors…]} for every hand, in the squeeze order. */
  squeezePlan(bets) {
    const sides = this.squeezeSides(bets);
    return new Map(this.SCHEDULE_ORDER.map((hand) => [hand, [...sides].filter(([, s]) => s === hand).map(([b]) => b)]));
  }

  /** [phase, hand, cards, bettors] steps: each hand's dealt cards, then each drawn card, in order. */
  squeezeSchedule(r, plan) {
    const dealt = [], drawn = [];
    for (const [hand, first] of this.SCHEDULE) {
      const cards = r[hand];
      dealt.push(["deal", hand, cards.slice(0, first), plan.get(hand)]);
      if (cards.length > first) drawn.push(["draw", hand, cards.slice(first), plan.get(hand)]);
    }
    return [...dealt, ...drawn];
  }

  /** The bets whose stakes come back by their push rule this round, when pushes count no valid bet. */
  pushedBets(r) {
    if (!this.VALID_PUSHED_NONE) return [];
    return [...this.PUSHED].filter(([, test]) => test(r)).map(([name]) => name);
  }

  /** [every bettor's returns, every bettor's stakes not pushed] of a round. */
  settleBettors(r, bets) {
    const pushed = this.pushedBets(r);
    const returns = new Map(), counted = new Map();
    for (const [bettor, stakes] of bets) {
      returns.set(bettor, new Map([...stakes].map(([name, s]) => [name, this.BETS.get(name)(r, s)])));
      let sum = 0n;
      for (const [name, s] of stakes) if (!setIn(pushed, name)) sum = add(sum, s);
      counted.set(bettor, sum);
    }
    return [returns, counted];
  }

  /** Void a round (a misdeal): every stake comes back and no valid bet counts. */
  voidRound(tr, reason) {
    if (!this.VOID_RETURNS_STAKES) throw new InvalidTable("this game's spec has no void rule (`void returns stakes`)");
    tr.void = reason ? String(reason) : "void";
    tr.returns = new Map([...tr.bets].map(([b, s]) => [b, new Map(s)]));
    tr.valid = new Map([...tr.bets.keys()].map((b) => [b, 0n]));
    return tr;
  }

  /** All the rounds of one shoe dealt from `seed`, with the same bets every round. */
  dealShoe(seed, bets, room = null) { return [...new this.Table(seed, room).rounds(bets)]; }
}

/** One round at a table: number, cards, the round, returns, valid bets, squeeze schedule. */
export class TableRound {
  constructor(game, number, cards, r, bets, plan, room = null) {
    this.game = game;
    this.number = number;
    this.cards = cards;
    this.round = r;
    this.bets = bets;
    const [returns, counted] = game.settleBettors(r, bets);
    this.returns = returns;
    this.valid = new Map([...bets].map(([b, s]) => [b, !s.size || game.noValidBets(r, [...s.keys()]) ? 0n : counted.get(b)]));
    this.squeeze = game.squeezeSchedule(r, plan);
    this.void = null;
    this.room = room;
    this.shoeNote = null;
  }

  /** The round as a JSON record (the log line of `play --jsonl --log` and `simulate --log`). */
  record() {
    const money = (m) => new Map([...m].map(([k, v]) => [k, amountJson(v)]));
    const out = new Map([["round", this.number === null ? null : BigInt(this.number)], ["cards", [...this.cards]]]);
    if (this.room !== null) out.set("room", this.room);
    out.set("bets", new Map([...this.bets].map(([b, s]) => [b, money(s)])));
    for (const [k, v] of this.game.record(this.round)) out.set(k, v);
    if (this.void !== null) { out.set("void", this.void); out.set("outcome", null); }
    out.set("returns", new Map([...this.returns].map(([b, s]) => [b, money(s)])));
    out.set("valid", money(this.valid));
    out.set("squeeze", this.squeeze.map(([p, h, c, who]) => new Map([["phase", p], ["hand", h], ["cards", [...c]], ["bettors", [...who]]])));
    if (this.shoeNote) for (const [k, v] of this.shoeNote) out.set(k, v);
    return out;
  }
}

/** A shuffled shoe of the spec's decks, dealt by the spec's procedure (Python's `Shoe`). */
export class Shoe {
  constructor(game, seed = null, decks = null) {
    this.game = game;
    this.seed = seed;
    this.decks = decks || game.DECKS;
    this.cards = game.shoeCards(this.decks);
    const rng = new Random(seed);
    rng.shuffle(this.cards);
    const n = this.cards.length;
    const p = game.SHOE_PROCEDURE;
    this.cut = p.cutLow !== null ? n - rng.randint(p.cutLow, p.cutHigh) : n;
    this.position = 0;
    this.burned = [];
    this.roundsDealt = 0;
    this.cutOut = null;
    this.last = !!p.shuffleEachRound;  // the next round is the shoe's last (each one, when shuffled before each)
    this.finished = false;
    this.ranOut = false;  // the shoe ended because the rest of it could not finish the next round
    this.ahead = null;  // the round at `position`, dealt one ahead
    this.keep = game.roundMaxCards();
    if (p.burnReveal) {
      let c = p.burnReveal;
      for (const card of this.cards.slice(0, p.burnReveal)) c += p.burnValues.get(game.RANK_OF.get(card)) || 0;
      this.burned = this.cards.slice(0, c);
      this.position = c;
    }
  }

  /** Deal the next round and apply the last-round rule; return [round, first card index]. A round the rest of
   * the shoe cannot finish is not dealt from it: each round is dealt one ahead, and the shoe ends before such a
   * round (`ranOut`), which is dealt from a fresh shoe. */
  nextRound() {
    if (this.finished) throw new InvalidTable("the shoe has ended; start a new shoe");
    const start = this.position;
    let r = this.ahead;
    this.ahead = null;
    if (r === null) {
      try {
        r = this.game.dealAt(this.cards, start);
      } catch (e) {  // the shoe's first round
        if (!(e instanceof ShoeRanOut)) throw e;
        this.finished = this.ranOut = true;
        if (!this.roundsDealt) throw new InvalidTable("a round needs more cards than a fresh shoe holds");
        throw new InvalidTable("the shoe has ended: the next round is dealt from a fresh shoe");
      }
    }
    const pos = this.position = start + r.cards_used;
    this.roundsDealt += 1;
    if (this.last || pos >= this.cut || this.cards.length - pos < this.keep) this.afterRound(start);
    if (!this.finished) {
      try {
        this.ahead = this.game.dealAt(this.cards, pos);
      } catch (e) {  // the next round is dealt from a fresh shoe
        if (!(e instanceof ShoeRanOut)) throw e;
        this.finished = this.ranOut = true;
      }
    }
    return [r, start];
  }

  afterRound(start) {
    if (this.last) this.finished = true;
    else if (this.cutOut === null && this.position >= this.cut) {
      this.cutOut = start < this.cut && this.cut < this.position ? "during" : "between";
      if (this.game.SHOE_PROCEDURE.lastRound === "at-cut") this.finished = true;
      else this.last = true;
    }
    if (this.cards.length - this.position < this.keep) this.finished = true;
  }
}

export const MAX_DECKS = 64;  // decks a table's shoe may hold (`Table(decks=…)`)
export const MAX_SEED_CHARS = 1000;  // a text seed's length (a whole number seed is any)

/** A table dealing one shoe: `deal(bets)` plays the next round; `rounds(bets)` plays them all. */
export class Table {
  constructor(game, seed = null, room = null, decks = null) {
    if (decks !== null && decks !== undefined) {
      const whole = typeof decks === "bigint" || Number.isSafeInteger(decks);
      if (!whole || decks < 1 || decks > MAX_DECKS) {
        throw new InvalidTable(`decks must be a whole number from 1 to ${MAX_DECKS}, not ${shownText(whole ? BigInt(decks) : decks)}`);
      }
      decks = Number(decks);
    }
    if (seed !== null && seed !== undefined && typeof seed !== "bigint" && typeof seed !== "string"
        && !Number.isSafeInteger(seed)) {
      throw new InvalidTable(`a seed is a whole number or a text, not ${kindOf(seed)}`);
    }
    if (typeof seed === "string" && cpLen(seed) > MAX_SEED_CHARS) {
      throw new InvalidTable(`a seed is at most ${MAX_SEED_CHARS} characters long`);
    }
    if (room !== null && !game.ROOMS.has(checkName(room, "the room", InvalidBet))) {
      throw new InvalidBet(`unknown room ${pyReprText(shownText(room))}; rooms: ${[...game.ROOMS.keys()].join(", ") || "none"}`);
    }
    this.game = game;
    this.shoe = new Shoe(game, seed, decks);
    this.room = room;
    this.number = 0;
  }

  get finished() { return this.shoe.finished; }

  /** Play the next round with {bettor: {bet: stake}} (checked each time unless `checked`). */
  deal(bets, checked = false) {
    const game = this.game;
    if (!checked) bets = game.tableBets(bets, this.room);
    const plan = game.squeezePlan(bets);
    const shoe = this.shoe;
    const cutBefore = shoe.cutOut;
    const [r, start] = shoe.nextRound();
    this.number += 1;
    const tr = new TableRound(game, this.number, shoe.cards.slice(start, shoe.position), r, bets, plan, this.room);
    if (shoe.cutOut !== cutBefore || shoe.finished) {
      const note = new Map();
      if (shoe.cutOut !== cutBefore) note.set("cut_card", shoe.cutOut);
      if (shoe.finished) {
        note.set("last", true);
        if (shoe.ranOut) note.set("ran_out", true);  // the rest of the shoe could not finish the next round
      }
      tr.shoeNote = note;
    }
    return tr;
  }

  /** Every round until the shoe ends, each with the same bets (checked once). */
  *rounds(bets) {
    bets = this.game.tableBets(bets, this.room);
    while (!this.shoe.finished) yield this.deal(bets, true);
  }
}

// ---- seat games -------------------------------------------------------------------------------------------------

const BRINGS = { "every seat": "every seat", players: "every player (the banker excepted)", banker: "the banker" };
export const MAX_WILD_TRIES = 20000;

function cmpTuple(a, b) {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const c = cmp(a[i], b[i]);
    if (c) return c;
  }
  return a.length - b.length;
}

function comb(n, k) {
  let r = 1n;
  for (let i = 1n; i <= BigInt(k); i++) r = (r * (BigInt(n) - BigInt(k) + i)) / i;
  return r;
}

function* combinationsWithReplacement(pool, k) {
  const n = pool.length;
  if (!n && k) return;
  const idx = new Array(k).fill(0);
  yield idx.map((i) => pool[i]);
  for (;;) {
    let i = k - 1;
    while (i >= 0 && idx[i] === n - 1) i--;
    if (i < 0) return;
    idx.fill(idx[i] + 1, i);
    yield idx.map((j) => pool[j]);
  }
}

/** An evaluated hand: its cards, type, points, wild substitution and ranking strength. */
export class HandValue {
  asJson(withSubstitution = false) {
    const out = new Map([["type", this.type], ["points", numJson(this.points)], ["wild", this.wild]]);
    if (withSubstitution) out.set("substitution", substitutionJson(this.substitution));
    return out;
  }
}

/** {card: rank} for each wild card; a code the hand holds twice is keyed "BJ@3" by its position (from 1). */
export function substitutionJson(substitution) {
  const codes = substitution.map(([, code]) => code);
  return new Map(substitution.map(([pos, code, rank]) => [codes.filter((c) => c === code).length === 1 ? code : `${code}@${pos + 1}`, rank]));
}

/** One table being settled: seats in order, their hands, stakes, coins and what they paid. */
export class SeatTable {
  constructor(game, seats, values, stakes, coins, banker) {
    this.game = game;
    this.seats = seats;
    this.values = values;
    this.stakes = stakes;
    this.coins = coins;
    this.banker = banker;
    this.paid = new Map(seats.map((s) => [s, 0n]));
    this.received = new Map(seats.map((s) => [s, 0n]));
    this.players = BigInt(seats.length);
    this.poorest = coins.size ? min(...coins.values()) : 0n;
    for (const [name, formula] of game.FORMULAS) this["formula_" + name] = formula(this);
  }
  stake(seat) { return this.stakes.get(seat); }
  multiplier(seat) { return this.game.MULTIPLIER.get(this.values.get(seat).type); }
  typeOf(seat) { return this.values.get(seat).type; }
  transfer(loser, winner, amount, transfers) {
    if (gt(amount, 0n)) {
      this.paid.set(loser, add(this.paid.get(loser), amount));
      this.received.set(winner, add(this.received.get(winner), amount));
      transfers.push(new Map([["from", loser], ["to", winner], ["amount", amountJson(amount)]]));
    }
  }
}

function seatAmounts(request, key, seats, banker, neededFrom) {
  const given = checkObject(request.get(key), `"${key}" (player to amount)`, InvalidTable);
  const needed = neededFrom === "every seat" ? seats : neededFrom === "players" ? seats.filter((s) => s !== banker)
    : neededFrom === "banker" ? [banker] : [];
  const out = new Map();
  for (const seat of seats) {
    if (!given.has(seat)) {
      if (needed.includes(seat)) {
        const what = key.endsWith("s") ? key.slice(0, -1) : key;
        throw new InvalidTable(`missing ${what} for ${seat}: this game needs a ${what} from ${BRINGS[neededFrom]}`);
      }
      continue;
    }
    out.set(seat, parseMoney(given.get(seat), `the ${key} of ${seat}`));
  }
  return out;
}

/** A seat game: its data, then (`rules`) the functions generated from its rules. */
export class SeatGame extends CardGame {
  constructor(game, decks, deck, jokers, values, seats, handSize, classes, types, multiplier, tiebreak, scheme, o = {}) {
    super(game, decks, deck, jokers, values);
    this.SEATS = seats;
    this.HAND_SIZE = handSize;
    this.CLASSES = classes;
    this.TYPES = types;
    this.MULTIPLIER = multiplier;
    this.TIEBREAK = tiebreak;
    this.SCHEME = scheme;
    this.NEEDS_BANKER = scheme === "against-banker";
    this.CARD_ORDER = o.cardOrder || [];
    this.SUIT_ORDER = o.suitOrder || [];
    [this.WILD_RANKS, this.WILD_CARDS, this.WILD_CHOICES, this.WILD_BEST_BY] = o.wild || [[], [], [], []];
    this.TYPE_LABELS = o.typeLabels || new Map();
    this.STAKES_FROM = o.stakesFrom || "";
    this.COINS_FROM = o.coinsFrom || "";
    this.CARD_STRENGTH = new Map(this.CARD_ORDER.map((r, i) => [r, BigInt(this.CARD_ORDER.length - i)]));
    this.SUIT_STRENGTH = new Map(this.SUIT_ORDER.map((s, i) => [s, BigInt(this.SUIT_ORDER.length - i)]));
    this.TYPE_INDEX = new Map(types.map((t, i) => [t, i]));
    const seen = new Map();
    for (const r of this.WILD_CHOICES) {
      const id = keyId(values.get(r) ?? null) + [...classes.values()].map((m) => (m.includes(r) ? "1" : "0")).join("");
      if (!seen.has(id)) seen.set(id, r);
    }
    this.WILD_TRIES = [...seen.values()];
  }

  rules({ typeTests, formulas, verdict, payment }) {
    this.TYPE_TESTS = typeTests;
    this.FORMULAS = formulas;
    this.verdict = verdict;
    this.payment = payment;
    return this;
  }

  /** The facts of a hand of these ranks: count, total, wild, classes. */
  handFacts(ranks, wild) {
    let total = 0n;
    for (const r of ranks) total = add(total, this.VALUE.get(r));
    const classes = new Map([...this.CLASSES].map(([name, members]) => [name, count(ranks.filter((r) => members.includes(r)))]));
    return { count: count(ranks), total, wild, classes };
  }

  /** The first hand type (highest first) whose predicate holds, or null. */
  classify(facts) {
    for (const [name, test] of this.TYPE_TESTS) if (test(facts)) return name;
    return null;
  }

  topPlace(c) {
    return [this.CARD_STRENGTH.get(this.RANK_OF.get(c)) ?? 0n,
      this.JOKERS.includes(c) ? 0n : this.SUIT_STRENGTH.get(c.slice(-1)) ?? 0n];
  }

  /** The highest card of a hand by the card order, ties broken by suit. */
  topCard(codes) {
    let best = codes[0];
    for (const c of codes) if (cmpTuple(this.topPlace(c), this.topPlace(best)) > 0) best = c;
    return best;
  }

  /** A sortable key: higher is stronger (type first, then the type's tie-breaks). */
  strength(value) {
    const key = [BigInt(-this.TYPE_INDEX.get(value.type))];
    let top = null;
    for (const k of this.TIEBREAK.get(value.type)) {
      if (k === "total") key.push(value.points);
      else if (k === "no wild") key.push(value.wild ? 0n : 1n);
      else if (k === "count") key.push(BigInt(value.cards.length));
      else {
        top = top || this.topCard(value.cards);
        if (k === "high card") key.push(this.CARD_STRENGTH.get(this.RANK_OF.get(top)) ?? 0n);
        else key.push(this.JOKERS.includes(top) ? 0n : this.SUIT_STRENGTH.get(top.slice(-1)) ?? 0n);
      }
    }
    return key;
  }

  isWild(code) { return this.WILD_CARDS.includes(code) || this.WILD_RANKS.includes(this.RANK_OF.get(code)); }

  /** Evaluate one hand; a wild card takes the substitution that makes the best hand. */
  evaluate(cards) {
    const codes = this.parseCards(cards);
    const [low, high] = this.HAND_SIZE;
    if (codes.length > high) throw new InvalidCards(`a hand of more than ${high} cards (${codes.length})`);
    if (codes.length < low) throw new InvalidCards(`a hand needs at least ${low} card(s)`);
    this.checkCopies(codes);
    const ranks = codes.map((c) => this.RANK_OF.get(c));
    const wildAt = [];
    codes.forEach((c, i) => { if (this.isWild(c)) wildAt.push(i); });
    let choices = [[]];
    if (wildAt.length) {
      const tries = comb(this.WILD_TRIES.length + wildAt.length - 1, wildAt.length);
      if (tries > BigInt(MAX_WILD_TRIES)) {
        throw new InvalidCards(`a hand with ${wildAt.length} wild cards has ${tries} substitutions to try; `
          + `this engine tries at most ${MAX_WILD_TRIES}`);
      }
      choices = combinationsWithReplacement(this.WILD_TRIES, wildAt.length);
    }
    const wild = wildAt.length > 0;
    let best = null;
    for (const choice of choices) {
      const subbed = ranks.slice();
      wildAt.forEach((i, k) => { subbed[i] = choice[k]; });
      const facts = this.handFacts(subbed, wild);
      const kind = this.classify(facts);
      if (kind === null) continue;
      const score = this.WILD_BEST_BY.map((k) => (k === "type" ? BigInt(-this.TYPE_INDEX.get(kind)) : facts.total));
      if (best === null || cmpTuple(score, best[0]) > 0) best = [score, kind, facts.total, choice];
    }
    if (best === null) throw new EngineError(`no hand type of the spec matches the hand ${codes.join(" ")}`);
    const value = new HandValue();
    value.cards = codes;
    value.type = best[1];
    value.points = best[2];
    value.wild = wild;
    value.substitution = wildAt.map((i, k) => [i, codes[i], best[3][k]]);
    value.strength = this.strength(value);
    return value;
  }

  /** Validate a table request and evaluate every hand. */
  readTable(request) {
    const hands = request.get("hands");
    if (!(hands instanceof Map)) throw new InvalidTable('a table has "hands": an object of player to cards');
    const seats = [...hands.keys()];
    const [low, high] = this.SEATS;
    if (!(low <= seats.length && seats.length <= high)) {
      throw new InvalidTable(`a table seats ${low} to ${high} players, not ${seats.length}`);
    }
    const values = new Map();
    for (const seat of seats) {
      checkName(seat, "a player's name", InvalidTable);
      try {
        values.set(seat, this.evaluate(hands.get(seat)));
      } catch (exc) {
        if (exc instanceof EngineError) throw new exc.constructor(`${seat}: ${exc.message}`);
        throw exc;
      }
    }
    this.checkCopies([...values.values()].flatMap((v) => v.cards));
    let banker = null;
    if (this.NEEDS_BANKER) {
      banker = checkName(request.get("banker") ?? null, '"banker" (the banker\'s name)', InvalidTable);
      if (!hands.has(banker)) throw new InvalidTable(`the banker ${pyReprText(shownText(banker))} is not seated at the table`);
    }
    const stakes = seatAmounts(request, "stakes", seats, banker, this.STAKES_FROM);
    const coins = seatAmounts(request, "coins", seats, banker, this.COINS_FROM);
    return new SeatTable(this, seats, values, stakes, coins, banker);
  }

  /** Settle one table: hands, order or results, transfers in order, and nets. */
  settleTable(request) {
    request = checkObject(request, "a table", InvalidTable, false);
    const t = this.readTable(request);
    const transfers = [];
    const out = new Map([["hands", new Map(t.seats.map((s) => [s, t.values.get(s).asJson()]))]]);
    for (const [name] of this.FORMULAS) out.set(name, amountJson(t["formula_" + name]));
    this.settleSeats(t, out, transfers);
    out.set("transfers", transfers);
    out.set("net", new Map(t.seats.map((s) => [s, amountJson(sub(t.received.get(s), t.paid.get(s)))])));
    return out;
  }

  settleSeats(t, out, transfers) {
    if (this.NEEDS_BANKER) {
      const banker = t.banker;
      const results = new Map();
      for (const player of t.seats) {
        if (player === banker) continue;
        const c = cmpTuple(t.values.get(player).strength, t.values.get(banker).strength);
        let who = this.verdict(t, banker, player, c === 0);
        if (who === "draw") { results.set(player, "draw"); continue; }
        if (who === null) who = c > 0 ? "player" : "banker";
        results.set(player, who);
        const [winner, loser] = who === "player" ? [player, banker] : [banker, player];
        t.transfer(loser, winner, this.payment(t, banker, player, winner, loser), transfers);
      }
      out.set("results", results);
      return;
    }
    const order = t.seats.slice().sort((a, b) => cmpTuple(t.values.get(b).strength, t.values.get(a).strength));
    out.set("order", order);
    order.forEach((winner, i) => {
      for (const loser of order.slice(i + 1)) {
        const tied = cmpTuple(t.values.get(winner).strength, t.values.get(loser).strength) === 0;
        if (this.verdict(t, winner, loser, tied) === "draw") continue;
        t.transfer(loser, winner, this.payment(t, winner, loser), transfers);
      }
    });
  }

  /** Answer one `play --jsonl` request: a table, or {"hand": [...]} for one hand. */
  adjudicate(request) {
    if (!(request instanceof Map)) throw new EngineError('a request is a JSON object: {"hands": …} or {"hand": […]}');
    if (request.has("hand")) {
      const value = this.evaluate(request.get("hand"));
      const out = value.asJson(true);
      out.set("label", this.TYPE_LABELS.get(value.type) ?? value.type);
      return out;
    }
    return this.settleTable(request);
  }
}
