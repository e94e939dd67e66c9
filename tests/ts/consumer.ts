// A small consumer of the JavaScript engines' public calls: `tsc --noEmit -p tests/ts` type-checks it against the
// generated declarations (tests/test_javascript.py).
import baccarat, { GAME, TITLE, bet_banker, event_natural } from "../../generated/engines-js/baccarat.js";
import tenAndAHalf from "../../generated/engines-js/ten_and_a_half.js";
import {
  EngineError, InvalidBet, InvalidCards, InvalidTable, NotEnoughCards, ShoeRanOut, MissingCell, Random, Q,
  numberText, numJson, readJson, jsonText, tooLongAnswer, MAX_LINE_BYTES, MAX_DECKS, type Exact,
} from "../../generated/engines-js/croupier_runtime.js";

const round = baccarat.play(["2S", "3H", "3C", "4D", "4S", "KH"]);
const explained = baccarat.play("2S 3H 3C 4D 4S KH", true);
const returns: Map<string, Exact> = baccarat.settle(round, { player: 100n, banker: "25.5" });
const fromMap = baccarat.settle(explained, new Map([["tie", 10]]));
const won: Exact = bet_banker(round, 100n);
const natural: boolean = event_natural(round);
const record = baccarat.record(round);
const table = new baccarat.Table(7n);
const first = table.deal({ alice: { banker: 100n } });
for (const tr of table.rounds({ alice: { player: 50n } })) {
  const line: string = jsonText(tr.record());
  if (tr.void !== null) throw new Error(line);
}
const shoe = baccarat.dealShoe("1/2", { banker: 10n });
const ranOut: boolean = new baccarat.Table("seed", null, MAX_DECKS).shoe.ranOut;
const tooLong = tooLongAnswer(MAX_LINE_BYTES);
const answer: string = baccarat.answer('{"cards": ["AS", "KH", "2C", "3D"]}');
const hand = tenAndAHalf.evaluate(["JS", "10H"]);
const settled = tenAndAHalf.settleTable({ hands: { a: ["JS"], b: ["5H"] }, stakes: { a: 10n, b: 10n } });
const points: string = numberText(hand.points);
const json = readJson("[1, 2]");
const rng = new Random(42n);
rng.shuffle([1, 2, 3]);
const half = new Q(1n, 2n);
try {
  baccarat.play(["ZZ"]);
} catch (exc) {
  const known = exc instanceof InvalidCards || exc instanceof InvalidBet || exc instanceof InvalidTable
    || exc instanceof NotEnoughCards || exc instanceof ShoeRanOut || exc instanceof MissingCell;
  if (!(exc instanceof EngineError) || !known) throw exc;
}
export const used = [GAME, TITLE, returns, fromMap, won, natural, record, first, shoe, answer, settled, points, json,
  half, numJson(won), rng.randint(1, 6), ranOut, tooLong];
