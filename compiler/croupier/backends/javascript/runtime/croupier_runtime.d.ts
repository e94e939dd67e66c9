// croupier_runtime.d.ts: the TypeScript declarations of croupier_runtime.js, the runtime of the JavaScript engines.

export declare const VERSION: string;

/** An exact number: a BigInt when whole, else a Q (a fraction in lowest terms). */
export type Exact = bigint | Q;
/** A stake or an amount as the API takes it: exact, a whole number, or a decimal text ("25.5"). */
export type Amount = Exact | number | string;
/** Bets or stakes by name: a Map (in the order given) or a plain object. */
export type Named<T> = Map<string, T> | { [name: string]: T };

export declare class EngineError extends Error {}
export declare class InvalidCards extends EngineError {}
export declare class InvalidBet extends EngineError {}
export declare class InvalidTable extends EngineError {}
export declare class MissingCell extends EngineError {
  constructor(rule: string, key: unknown);
  rule: string;
  key: unknown;
}
export declare class NotEnoughCards extends InvalidCards {}
export declare class ShoeRanOut extends InvalidTable {}

export declare class Q {
  constructor(n: bigint, d: bigint);
  readonly n: bigint;
  readonly d: bigint;
}
export declare function frac(n: bigint | number, d?: bigint | number): Exact;
export declare function add(a: Exact, b: Exact): Exact;
export declare function sub(a: Exact, b: Exact): Exact;
export declare function mul(a: Exact, b: Exact): Exact;
export declare function neg(a: Exact): Exact;
export declare function abs(a: Exact): Exact;
export declare function exactDiv(a: Exact, b: Exact): Exact;
export declare function exactMod(a: Exact, b: Exact): Exact;
export declare function floor(a: Exact): bigint;
export declare function cmp(a: Exact, b: Exact): -1 | 0 | 1;
export declare function eq(a: unknown, b: unknown): boolean;
export declare function ne(a: unknown, b: unknown): boolean;
export declare function lt(a: Exact, b: Exact): boolean;
export declare function le(a: Exact, b: Exact): boolean;
export declare function gt(a: Exact, b: Exact): boolean;
export declare function ge(a: Exact, b: Exact): boolean;
export declare function min(...xs: Exact[]): Exact;
export declare function max(...xs: Exact[]): Exact;
export declare function paysTo(stake: Exact, ratio: Exact, commission: Exact | null, unit: Exact | null,
  rounding: string | null): Exact;
export declare function loses(stake: Exact, part: Exact): Exact;
/** An exact number as the spec would write it: 3, 10.5, 1/3. */
export declare function numberText(value: Exact): string;
/** An exact number for JSON: a BigInt when whole, else its text. */
export declare function numJson(value: Exact): bigint | string;

/** A JSON value as the engines read it: objects are Maps, whole numbers BigInts. */
export type Json = null | boolean | bigint | string | Decimal | PyFloat | Json[] | Map<string, Json>;
export declare class Decimal {
  static parse(text: string): Decimal;
  adjusted(): number;
  toString(): string;
}
export declare class PyFloat {}
/** One JSON value from a line of text (Python's json module, with its error messages); EngineError if not JSON. */
export declare function readJson(text: string): Json;
/** JSON text as Python's json.dumps writes it. */
export declare function jsonText(value: unknown, asciiOnly?: boolean): string;
export declare function parseMoney(value: unknown, what: string): Exact;
export declare function kindOf(value: unknown): string;
export declare function checkName(value: unknown, what: string, error?: typeof EngineError): string;
export declare function encodeAnswer(result: unknown): string;
export declare function answerLine(adjudicate: (request: Json) => unknown, line: string): string;
/** Answer `play --jsonl` requests from standard input on standard output (Node). */
export declare function main(game: JsonLinesGame): Promise<void>;
/** A request line's bytes; a longer line is answered with `tooLongAnswer`. */
export declare const MAX_LINE_BYTES: number;
export declare function tooLongAnswer(maxLineBytes: number): Map<string, string>;
/** The decks a table's shoe may hold, and a text seed's length. */
export declare const MAX_DECKS: number;
export declare const MAX_SEED_CHARS: number;

/** Python's random.Random (MT19937), seeded as Python seeds it. */
export declare class Random {
  constructor(seed?: bigint | number | string | null);
  next32(): number;
  randbelow(n: number): number;
  randint(a: number, b: number): number;
  shuffle<T>(x: T[]): void;
}

export declare class JsonLinesGame {
  /** Answer one `play --jsonl` request (a JSON value as `readJson` gives it). */
  adjudicate(request: Json): Map<string, unknown>;
  /** The JSON answer to one request line; bad input gives {"error": …}, never an exception. */
  answer(line: string): string;
  runJsonl(input: AsyncIterable<Uint8Array>, write: (text: string) => unknown, maxLineBytes?: number): Promise<void>;
}

export declare class CardGame extends JsonLinesGame {
  readonly GAME: string;
  readonly DECKS: number;
  readonly DECK: readonly string[];
  shoeCards(decks: number): string[];
  parseCard(text: string): string;
  parseCards(cards: readonly string[] | string): string[];
  checkCopies(codes: readonly string[]): void;
}

/** One adjudicated round: each hand's cards (by the hand's name), the outcome, the cards used and the steps. */
export interface Round {
  outcome: string | null;
  cards_used: number;
  steps: Map<string, unknown>[];
  [hand: string]: unknown;
}

export declare class DealtRound extends CardGame {
  readonly HANDS: readonly string[];
  readonly BETS: Map<string, (r: Round, stake: Exact) => Exact>;
  readonly ROOMS: Map<string, Map<string, [Exact, Exact]>>;
  /** Adjudicate one round from cards in dealing order; with `explain`, `steps` lists every rule applied. */
  play(cards: readonly string[] | string, explain?: boolean): Round;
  /** What each bet returns, stake included (0 when lost). */
  settle(round: Round, bets: Named<Amount>): Map<string, Exact>;
  /** The round as the JSON record of the `play --jsonl` contract. */
  record(round: Round): Map<string, unknown>;
  total(cards: readonly string[]): Exact;
  checkLimits(room: string, bets: Map<string, unknown>): void;
  tableBets(bets: Named<Named<Amount>> | Named<Amount>, room?: string | null): Map<string, Map<string, Exact>>;
  /** A table dealing one shoe of this game from a seed (the same cards as the Python engine's `Table(seed)`). */
  Table: new (seed?: bigint | number | string | null, room?: string | null, decks?: bigint | number | null) => Table;
  dealShoe(seed: bigint | number | string | null, bets: Named<Named<Amount>> | Named<Amount>, room?: string | null): TableRound[];
}

export declare class Shoe {
  readonly cards: string[];
  readonly cut: number;
  readonly burned: string[];
  readonly position: number;
  readonly finished: boolean;
  /** The shoe ended because the rest of it could not finish the next round (dealt from a fresh shoe). */
  readonly ranOut: boolean;
}

export declare class TableRound {
  readonly number: number | null;
  readonly cards: string[];
  readonly round: Round;
  readonly returns: Map<string, Map<string, Exact>>;
  readonly valid: Map<string, Exact>;
  void: string | null;
  /** The round as a JSON record (the log line of `play --jsonl --log`). */
  record(): Map<string, unknown>;
}

export declare class Table {
  readonly shoe: Shoe;
  readonly finished: boolean;
  /** Play the next round with {bettor: {bet: stake}}. */
  deal(bets: Named<Named<Amount>> | Named<Amount>): TableRound;
  /** Every round until the shoe ends, each with the same bets. */
  rounds(bets: Named<Named<Amount>> | Named<Amount>): Generator<TableRound>;
}

export declare class HandValue {
  readonly cards: string[];
  readonly type: string;
  readonly points: Exact;
  readonly wild: boolean;
  readonly substitution: [number, string, string][];
  asJson(withSubstitution?: boolean): Map<string, unknown>;
}

/** A seat game. Its names follow the JavaScript convention: Python's settle_table is settleTable. */
export declare class SeatGame extends CardGame {
  /** A hand's type and points (and what each wild card stands for). */
  evaluate(cards: readonly string[] | string): HandValue;
  /** Settle one table: {hands, stakes, coins[, banker]} -> hands, order or results, transfers and nets. */
  settleTable(request: Map<string, unknown> | { [key: string]: unknown }): Map<string, unknown>;
}
