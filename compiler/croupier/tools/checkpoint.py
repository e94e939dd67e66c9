"""Checkpoints of a simulation campaign: the merged tally of the seed range done, as JSON.

A long run writes its state every few seconds (and when it ends or is stopped)
with `write_atomic`, so the file is always whole: the old state or the new. It is
data only, read back field by field, never unpickled or executed:

    {"format": "croupier-simulate-checkpoint", "version": 1,
     "spec": {"shown": …, "sources": [[path, text], …]}, "spec_digest": …, "engine_digest": …,
     "job": {"kind", "seed", …}, "unit": "shoes" | "rounds" | "tables", "total": N,
     "done": [0, k], "finished": false, "tally": {…}}

`done` is the seed range whose units are merged into `tally` (units 0..k-1).
`--resume` refuses a checkpoint of other spec texts, another engine, seed or job.

Every checkpoint is sealed over all of that (its content, the spec texts and their digest, the seed):
`"seal": {"hmac-sha256": …}` made with the cache's secret (`cache.sign`), or, when the cache is off,
`"seal": {"sha256": …}`. A checkpoint whose seal does not match is refused with the reason, and so is an
unkeyed one while the cache's secret is at hand (anyone could have made it). A sealed checkpoint is still
checked for consistency (its counts agree with each other; its sums stay within bounds), so that no file
ends in an arithmetic error.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from croupier import cache
from croupier.outputs import OutputError, write_atomic
from croupier.reading import read_regular
from croupier.tools.campaign import UNITS, Job, State
from croupier.tools.spec_texts import SpecTexts
from croupier.tools.tally import count_in, tally_from_json

FORMAT = "croupier-simulate-checkpoint"
VERSION = 1
MAX_BYTES = 50_000_000  # a checkpoint holds spec texts and a tally: far less than this
MAX_SUM_DIGITS = 200  # digits of a sum in a tally (sums of squares of stakes over trillions of rounds fit)
SEAL_KIND = "simulate-checkpoint"


class CheckpointError(Exception):
    """A checkpoint that cannot be written, read, or resumed by this run."""


@dataclass
class Checkpoint:
    """A campaign as its file holds it."""

    spec: SpecTexts
    engine_digest: str
    state: State
    finished: bool = False

    def to_json(self) -> dict:
        s = self.state
        return {"format": FORMAT, "version": VERSION, "spec": self.spec.to_json(),
                "spec_digest": self.spec.digest, "engine_digest": self.engine_digest,
                "job": s.job.to_json(), "unit": s.unit, "total": s.total, "done": [0, s.done],
                "finished": s.finished(), "tally": s.tally.to_json()}

    def save(self, path: str | Path) -> None:
        data = self.to_json()
        text = json.dumps({**data, "seal": seal(data)}, ensure_ascii=False, indent=1) + "\n"
        try:
            write_atomic(Path(path), text.encode("utf-8"))
        except OutputError as exc:
            raise CheckpointError(str(exc)) from None


def read(path: str | Path) -> Checkpoint:
    """The checkpoint in a file; CheckpointError saying what is wrong with it otherwise."""
    try:
        raw = read_regular(path, MAX_BYTES)
    except OSError as exc:
        raise CheckpointError(f"cannot read the checkpoint {path}: {exc.strerror or exc}") from None
    try:
        data = json.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise CheckpointError(f"{path} is not a checkpoint of croupier simulate: {exc}") from None
    if isinstance(data, dict):
        why = unsealed(data)
        if why:
            raise CheckpointError(f"{path} is not a checkpoint of croupier simulate that this run can trust: {why}")
    try:
        return from_json(data)
    except (ValueError, RecursionError) as exc:
        raise CheckpointError(f"{path} is not a checkpoint of croupier simulate: {exc}") from None


def _payload(data: dict) -> bytes:
    """The bytes a seal covers: every field but the seal, as canonical JSON."""
    return json.dumps({k: v for k, v in data.items() if k != "seal"}, ensure_ascii=False, sort_keys=True,
                      separators=(",", ":")).encode("utf-8", "surrogatepass")


def seal(data: dict) -> dict:
    """The seal of a checkpoint's fields: an HMAC with the cache's secret, else a SHA-256 digest."""
    payload = _payload(data)
    mac = cache.sign(SEAL_KIND, payload)
    return {"hmac-sha256": mac} if mac is not None else {"sha256": hashlib.sha256(payload).hexdigest()}


def unsealed(data: dict) -> str | None:
    """Why a checkpoint's seal does not vouch for its fields, or None when it does."""
    given = data.get("seal")
    if not isinstance(given, dict) or len(given) != 1:
        return "it carries no seal (it was not written by this croupier, or was edited)"
    payload = _payload(data)
    if "hmac-sha256" in given:
        ok = cache.verify(SEAL_KIND, payload, given["hmac-sha256"])
        if ok is None:
            return ("it is sealed with the key of a Croupier cache this run cannot use (is the cache off, "
                    "or CROUPIER_CACHE another folder?)")
        return None if ok else "its seal does not match its content: it was edited, or made with another key"
    if "sha256" in given:
        if given["sha256"] != hashlib.sha256(payload).hexdigest():
            return "its digest does not match its content: it was edited or cut short"
        if cache.sign(SEAL_KIND, payload) is not None:
            return ("it is sealed only with a digest, which anyone can recompute; a checkpoint this run can "
                    "trust carries the cache's key (it was written with the cache off)")
        return None
    return "its seal is of an unknown kind"


def from_json(data: object) -> Checkpoint:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError("no \"format\": \"croupier-simulate-checkpoint\"")
    if data.get("version") != VERSION:
        raise ValueError(f"version {data.get('version')!r}, this croupier reads version {VERSION}")
    spec = SpecTexts.from_json(data.get("spec"))
    if data.get("spec_digest") != spec.digest:
        raise ValueError("the spec texts do not match their digest")
    job = Job.from_json(data.get("job"))
    unit = data.get("unit")
    if unit not in UNITS or (unit == "tables") != (job.kind == "tables"):
        raise ValueError(f"unknown unit {unit!r}")
    done = data.get("done")
    if not isinstance(done, list) or len(done) != 2 or done[0] != 0:
        raise ValueError("\"done\" is not a seed range [0, k]")
    tally = tally_from_json(data.get("tally"))
    if tally.units != count_in(done[1], "done"):
        raise ValueError("the tally does not cover the seed range done")
    engine_digest = data.get("engine_digest")
    if not isinstance(engine_digest, str):
        raise ValueError("no engine digest")
    consistent(tally)
    state = State(job, unit, count_in(data.get("total"), "total"), done[1], tally)
    return Checkpoint(spec, engine_digest, state, bool(data.get("finished")))


def mismatch(cp: Checkpoint, spec: SpecTexts, engine_digest: str, job: Job, unit: str, total: int) -> str | None:
    """Why this run cannot resume the checkpoint, or None."""
    if cp.spec.digest != spec.digest:
        return f"it was made from another text of the spec (or of its bases) than {spec.shown} has now"
    if cp.engine_digest != engine_digest:
        return "its spec compiles to another engine with this croupier (another version of croupier?)"
    was = cp.state.job
    if was.seed != job.seed:
        return f"it was made with --seed {was.seed}, not {job.seed}"
    if cp.state.unit != unit:
        return f"it counts {cp.state.unit}, not {unit}"
    if was != job:
        return (f"it deals tables of {was.players} players hitting below {was.threshold}, stake {was.stake}, "
                f"coins {was.coins}; this run asks for another table")
    t = cp.state.tally
    if unit == "rounds" and (t.rounds > total or (t.shoes_cut and t.rounds != total)):
        return f"it played {t.rounds} rounds, the last shoe cut short: more than --rounds {total} allows"
    if unit != "rounds" and cp.state.done > total:
        return f"it played {cp.state.done} {unit}, more than the {total} asked"
    return None


def consistent(tally) -> None:
    """ValueError when a tally's counts disagree with each other or a sum is beyond the bounds."""
    sums = [v for values in tally.net.values() for v in values]
    if hasattr(tally, "shoes"):  # a shoe game's tally
        whole = tally.shoes - tally.shoes_cut
        if tally.shoes_cut > min(tally.shoes, 1) or sum(tally.rounds_per_shoe.values()) != whole:
            raise ValueError("the shoe counts disagree")
        if sum(tally.outcomes.values()) != tally.rounds or (tally.shoes and not tally.rounds):
            raise ValueError("the outcome counts do not add up to the rounds played")
        if any(sum(c.values()) != tally.rounds for c in tally.returns.values()):
            raise ValueError("the returns counted do not add up to the rounds played")
        sums += [k for c in tally.returns.values() for k in c]
    else:
        if sum(tally.results.values()) > tally.tables * 64:
            raise ValueError("the results counted exceed the tables played")
        sums += tally.unit + [v for values in tally.types.values() for v in values]
    for v in sums:
        for part in (getattr(v, "numerator", v), getattr(v, "denominator", 1)):
            if abs(part) >= 10 ** MAX_SUM_DIGITS:
                raise ValueError(f"a sum has more than {MAX_SUM_DIGITS} digits")
