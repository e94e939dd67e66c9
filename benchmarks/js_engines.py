"""The JavaScript engines against the Python ones: the same answers, the same shoes, and their speed.

`requests(engine, n, seed)` writes `n` random `play --jsonl` request lines for a game (rounds or
tables with good and bad cards, stakes of every kind, rooms, and lines that are not requests at all);
`differ(spec, lines)` sends them through `croupier play SPEC --jsonl` and `node generated/engines-js/<game>.js`
and returns the first line whose answers differ. `shoes_differ(game, seeds)` deals seeded shoes in both
runtimes, round for round. tests/test_javascript.py runs them at a bounded size; run as a script,
this file runs them at full size (100,000 lines a spec, 1,000 shoes) and measures the speed:

    python3 benchmarks/js_engines.py [--lines N] [--shoes N] [--specs spec/baccarat.rules ...]

It prints, for each spec, whether the answers agree, the time of each JSON Lines runner and their
ratio against its target (3x); then the time per round of `play` in each engine (2,000 rounds of seeded shoes, in
process, each engine warmed first) and the ratio against its target (5x).
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "generated"

PLAY_TARGET = 5  # the JavaScript engine's play(cards) against the Python engine's, per round
RUNNER_TARGET = 3  # node <game>.js against croupier play --jsonl, on the same lines
BAD_LINES = ["", "[1,", '{"cards": ', "null", "42", '"text"', "[]", "{}", '{"cards": null}', "{'a': 1}",
             '{"cards": "AS KH"} x', "\ufeff{}", '{"a": "\\ud800"}', '{"cards": ["\\u0000"]}', "NaN", "-Infinity",
             '{"cards": [1, 2]}', '{"cards": 5}', '"\\x"', '"\\u12"', "tru", "{\"a\" 1}", "[1 2]", "\t", "  {} ",
             '{"hand": null}', '{"hands": {}}', '{"hands": []}', '{"hand": "AS"}', "1" * 30, "1e999", "-0.0",
             # a key given twice (an error naming it, once its object is read), bets that are not an object
             '{"cards": ["AS", "KH", "2C", "3D"], "cards": []}', '{"a": {"b": 1, "b": 2}, "a": 3}',
             '{"a": 1, "a": 2} x', '{"a": 1, "a": 2', '[{"x": 1, "x": 1}]', '{"\\u00e9": 1, "\u00e9": 2}',
             '{"a": 1, "b": 2, "b": 3, "a": 4}', '{"a very long key, longer than twenty": 1, '
             '"a very long key, longer than twenty": 2}', '{"\\u0007": 1, "\\u0007": 2}',
             '{"cards": ["AS", "KH", "2C", "3D"], "bets": {"banker": 10, "banker": 5}}',
             '{"cards": ["AS", "KH", "2C", "3D"], "bets": []}', '{"cards": ["AS", "KH", "2C", "3D"], "bets": 5}',
             '{"cards": ["AS", "KH", "2C", "3D"], "bets": "banker"}', '{"cards": ["AS", "KH", "2C", "3D"], "bets": null}',
             '{"cards": ["AS", "KH", "2C", "3D"], "bets": [1], "room": "nowhere"}']
# Lines about the bound of a request line (1,000,000 bytes): at it, one past it, with a CR before the newline, in
# characters of several bytes, far past it; test_javascript.py sends them through both runners' standard input.
BOUND = 1_000_000
LONG_LINES = ['{"cards": ' + " " * (BOUND - 13) + '[]}', '{"cards": ' + " " * (BOUND - 12) + '[]}',
              '{"cards": ' + " " * (BOUND - 13) + '[]}\r', '{"cards": ' + " " * (BOUND - 12) + '[]}\r',
              '"' + "\u00e9" * ((BOUND - 2) // 2) + '"', '"' + "\u00e9" * ((BOUND - 2) // 2) + 'x"',
              "x" * (3 * BOUND), '{"cards": ["AS", "KH", "2C", "3D"]}']
STAKES = [0, 1, 5, 10, 25, 100, 250, 1000, 99999, "100", "25.5", "0.000001", "0.0000001", "-5", "1/3", "+5",
          "1_0", "١٠٠", -1, 10 ** 15, 10 ** 15 - 1, 1.5, 2.25, 1e3, True, None, [], {}, "", ".5", "5.", "abc"]


def stake(rng: random.Random):
    return rng.choice(STAKES) if rng.random() < 0.3 else rng.choice([10, 20, 50, 100, 200, 500, "12.5", 0.5])


def card_text(rng: random.Random, deck) -> str:
    c = rng.choice(deck)
    r = rng.random()
    if r < 0.02:
        return rng.choice(["ZZ", "1S", "A♠", "ts", " kh ", "AX", "", "10", "JOKER", "a" * 30, "\u00e9S"])
    if r < 0.05:
        return c.lower()
    return c


def round_request(rng: random.Random, engine) -> dict:
    deck = list(engine.DECK)
    n = rng.choice([0, 1, 2, 3, 4, 4, 5, 6, 6, 6, 7, 8])
    cards = [card_text(rng, deck) for _ in range(n)]
    if rng.random() < 0.05:
        cards = " ".join(cards)
    bets = {}
    for name in rng.sample(list(engine.BETS), rng.randint(0, len(engine.BETS))):
        bets[name] = stake(rng)
    if rng.random() < 0.05:
        bets[rng.choice(["nope", "Banker", "", "\u0007"])] = 10
    request = {"cards": cards, "bets": bets if rng.random() > 0.02 else rng.choice([[], 5, "banker", [bets]])}
    if engine.ROOMS and rng.random() < 0.2:
        request["room"] = rng.choice([*engine.ROOMS, "nowhere", 5])
    return request


def table_request(rng: random.Random, engine) -> dict:
    deck = list(engine.DECK)
    if rng.random() < 0.3:
        size = rng.randint(max(0, engine.HAND_SIZE[0] - 1), engine.HAND_SIZE[1] + 1)
        return {"hand": [card_text(rng, deck) for _ in range(size)]}
    low, high = engine.SEATS
    seats = [f"p{i}" for i in range(rng.randint(max(0, low - 1), high + 1))]
    pool = rng.sample(deck, min(len(deck), len(seats) * engine.HAND_SIZE[1]))
    hands = {}
    for s in seats:
        k = rng.randint(engine.HAND_SIZE[0], engine.HAND_SIZE[1])
        hands[s], pool = pool[:k], pool[k:]
    request = {"hands": hands}
    if rng.random() < 0.95:
        request["stakes"] = {s: stake(rng) for s in seats if rng.random() < 0.97}
    if rng.random() < 0.95:
        request["coins"] = {s: rng.choice([0, 100, 1000, 5000, 100000, "250.5", stake(rng)]) for s in seats
                            if rng.random() < 0.97}
    if seats and rng.random() < 0.95:
        request["banker"] = rng.choice(seats + ["nobody"])
    return request


def requests(engine, n: int, seed: int = 0) -> list[str]:
    """`n` request lines for a game: most of them requests (good or bad), some not JSON at all."""
    rng = random.Random(seed)
    make = round_request if hasattr(engine, "HANDS") else table_request
    lines = []
    for _ in range(n):
        if rng.random() < 0.04:
            lines.append(rng.choice(BAD_LINES))
            continue
        line = json.dumps(make(rng, engine), ensure_ascii=rng.random() < 0.5)
        if rng.random() < 0.01:
            line = line[:rng.randint(0, len(line))]
        lines.append(line)
    return lines


def run(command: list[str], lines: list[str]) -> tuple[list[str], tuple[float, float]]:
    """The answer lines of a JSON Lines runner to `lines`, and the (wall, CPU) seconds it took (CPU: user and
    system of every thread, Node's compiler and collector threads included; other work on a shared machine
    slows the wall clock but does not count)."""
    start = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, input="".join(line + "\n" for line in lines).encode("utf-8"),
                          capture_output=True, cwd=ROOT, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    took = time.perf_counter() - start, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode:
        raise RuntimeError(f"{' '.join(command)} failed: {done.stderr.decode(errors='replace')[-2000:]}")
    return done.stdout.decode("utf-8").split("\n")[:-1], took


def differ(spec: Path, game: str, lines: list[str]) -> tuple[str | None, tuple[float, float], tuple[float, float]]:
    """(the first line whose answers differ, shown with both answers, or None; Python's (wall, CPU) seconds;
    Node's)."""
    python, tp = run([sys.executable, "-m", "croupier.cli.main", "play", str(spec), "--jsonl"], lines)
    node, tn = run(["node", str(OUT / "engines-js" / f"{game}.js")], lines)
    for i, line in enumerate(lines):
        a, b = python[i] if i < len(python) else None, node[i] if i < len(node) else None
        if a != b:
            return f"line {i + 1}: {line!r}\n  python: {a}\n  node:   {b}", tp, tn
    if len(python) != len(node):
        return f"{len(python)} answers from Python, {len(node)} from Node", tp, tn
    return None, tp, tn


SHOES_JS = """
const [file, seeds] = process.argv.slice(1);
const { game } = await import(file);
for (const seed of JSON.parse(seeds)) {
  const table = new game.Table(typeof seed === "number" ? BigInt(seed) : seed);
  const rounds = [];
  for (const tr of table.rounds(new Map([["a", new Map([[[...game.BETS.keys()][0], 10n]])]]))) {
    rounds.push([tr.cards, tr.round.outcome, Object.fromEntries(tr.shoeNote || [])]);
  }
  process.stdout.write(JSON.stringify([table.shoe.cut, table.shoe.burned, rounds]) + "\\n");
}
"""


def shoes_differ(engine, game: str, seeds: list, folder: Path = OUT / "engines-js") -> str | None:
    """The first seed whose shoe deals differently in the two runtimes (its cut, burn, every round's cards,
    outcome and shoe note: the cut card, the last round, `ran_out`), or None."""
    done = subprocess.run(["node", "--input-type=module", "-e", SHOES_JS, "--", str(folder / f"{game}.js"),
                           json.dumps(seeds)], capture_output=True, text=True, cwd=ROOT, check=True)
    node = done.stdout.split("\n")
    bet = next(iter(engine.BETS))
    for i, seed in enumerate(seeds):
        table = engine.Table(seed)
        rounds = [[list(tr.cards), tr.round.outcome, tr.shoe_note or {}] for tr in table.rounds({"a": {bet: 10}})]
        python = json.dumps([table.shoe.cut, table.shoe.burned, rounds], separators=(",", ":"))
        if python != node[i]:
            return f"seed {seed!r}: the shoes differ"
    return None


PLAY_JS = """
const [file, rounds, times] = process.argv.slice(1);
const { game } = await import(file);
const list = JSON.parse(rounds);
for (let k = 0; k < Number(times); k++) for (const cards of list) game.play(cards);  // warm: compiled, as Python's is
const t0 = process.cpuUsage();
for (let k = 0; k < Number(times); k++) for (const cards of list) game.play(cards);
const t = process.cpuUsage(t0);
process.stdout.write(String((t.user + t.system) / 1e6));
"""


def play_speed(engine, game: str, rounds: list[list[str]], times: int) -> tuple[float, float]:
    """Seconds per round of `play(cards)` in each engine, on the same rounds, each engine warmed by one pass first
    (a JavaScript engine runs its first thousands of calls uncompiled: timing those measured the compiler); CPU
    time, not wall time, so that other work on the machine does not count."""
    for cards in rounds:
        engine.play(cards)
    start = time.process_time()
    for _ in range(times):
        for cards in rounds:
            engine.play(cards)
    python = (time.process_time() - start) / (times * len(rounds))
    done = subprocess.run(["node", "--input-type=module", "-e", PLAY_JS, "--", str(OUT / "engines-js" / f"{game}.js"),
                           json.dumps(rounds), str(times)], capture_output=True, text=True, cwd=ROOT, check=True)
    return python, float(done.stdout) / (times * len(rounds))


def main() -> None:
    from croupier.driver.compile import compile_spec

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--shoes", type=int, default=1_000)
    parser.add_argument("--specs", nargs="*", type=Path, default=sorted((ROOT / "spec").glob("*.rules")))
    args = parser.parse_args()
    failed = False
    for spec in args.specs:
        compiled = compile_spec(spec)
        engine, game = compiled.engine, compiled.game.name
        lines = requests(engine, args.lines, seed=1)
        problem, tp, tn = differ(spec, game, lines)
        print(f"{game}: {args.lines} lines {'differ: ' + problem if problem else 'byte-identical'}; "
              f"croupier play --jsonl {tp[0]:.2f} s ({tp[1]:.2f} s CPU), node {tn[0]:.2f} s ({tn[1]:.2f} s CPU): "
              f"{tp[0] / tn[0]:.1f}x wall, {tp[1] / tn[1]:.1f}x CPU (target {RUNNER_TARGET}x)")
        failed |= problem is not None
        if hasattr(engine, "HANDS"):
            problem = shoes_differ(engine, game, list(range(args.shoes // 2)) + [f"{k}/{k}" for k in range(args.shoes // 2)])
            print(f"  {args.shoes} seeded shoes: {problem or 'identical round for round'}")
            failed |= problem is not None
            rounds: list[list[str]] = []
            seed = 7
            while len(rounds) < 2000:  # the rounds of as many shoes as it takes
                shoe = engine.Shoe(seed)
                while len(rounds) < 2000 and not shoe.finished:
                    _, start = shoe.next_round()
                    rounds.append(shoe.cards[start:shoe.position])
                seed += 1
            py, js = play_speed(engine, game, rounds, 20)
            print(f"  play(cards): Python {py * 1e6:.2f} us a round, JavaScript {js * 1e6:.2f} us: "
                  f"{py / js:.1f}x (target {PLAY_TARGET}x)")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
