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
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from croupier.outputs import OutputError, write_atomic
from croupier.tools.campaign import UNITS, Job, State
from croupier.tools.spec_texts import SpecTexts
from croupier.tools.tally import count_in, tally_from_json

FORMAT = "croupier-simulate-checkpoint"
VERSION = 1
MAX_BYTES = 50_000_000  # a checkpoint holds spec texts and a tally: far less than this


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
        text = json.dumps(self.to_json(), ensure_ascii=False, indent=1) + "\n"
        try:
            write_atomic(Path(path), text.encode("utf-8"))
        except OutputError as exc:
            raise CheckpointError(str(exc)) from None


def read(path: str | Path) -> Checkpoint:
    """The checkpoint in a file; CheckpointError saying what is wrong with it otherwise."""
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_BYTES + 1)
    except OSError as exc:
        raise CheckpointError(f"cannot read the checkpoint {path}: {exc.strerror or exc}") from None
    try:
        if len(raw) > MAX_BYTES:
            raise ValueError(f"larger than {MAX_BYTES} bytes")
        data = json.loads(raw.decode("utf-8"))
        return from_json(data)
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise CheckpointError(f"{path} is not a checkpoint of croupier simulate: {exc}") from None


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
