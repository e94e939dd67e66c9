"""The JavaScript engines (generated/engines-js/): the reference cases under Node, the same answers as the Python
engines byte for byte, the same seeded shoes, declarations that type-check, and the project's `targets`.

A bounded differential test: for every spec, random request lines (good and bad, `benchmarks/js_engines.py`
writes them) through the Python engine's `answer` (what `croupier play --jsonl` writes for each line) and
through `node generated/engines-js/<game>.js`; benchmarks/js_engines.py runs the same at full size. In CI
(CI=true) a missing Node or TypeScript is a failure, never a skip.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import SOFT_GAME

from croupier.backends.javascript.build import javascript_files, runtime_outputs
from croupier.driver.compile import compile_spec
from croupier.project import ProjectError, find_project

ROOT = Path(__file__).resolve().parent.parent
SPECS = sorted((ROOT / "spec").glob("*.rules"))
TSC = ROOT / "node_modules" / ".bin" / "tsc"


def bench():
    spec = importlib.util.spec_from_file_location("js_engines", ROOT / "benchmarks" / "js_engines.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["js_engines"] = module
    spec.loader.exec_module(module)
    return module


def need(tool: str | Path) -> None:
    if shutil.which(str(tool)) is None and not Path(tool).exists():
        if os.environ.get("CI"):
            pytest.fail(f"{tool} is needed in CI")
        pytest.skip(f"{tool} is not installed")


def test_reference_cases_under_node():
    need("node")
    done = subprocess.run(["node", "--test", "generated/tests-js/"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:]
    assert "# fail 0" in done.stdout


@pytest.mark.parametrize("spec", SPECS, ids=[p.stem for p in SPECS])
def test_same_answers_to_the_byte(spec):
    need("node")
    js = bench()
    engine = compile_spec(spec).engine
    lines = js.requests(engine, 400, seed=hash(spec.stem) % 1000) + js.BAD_LINES
    python = [engine.answer(line) for line in lines]
    node, _ = js.run(["node", str(ROOT / "generated" / "engines-js" / f"{spec.stem}.js")], lines)
    assert len(node) == len(lines)
    for line, a, b in zip(lines, python, node):
        assert a == b, f"request {line!r}"


def test_jsonl_stream_like_croupier_play():
    """Invalid UTF-8, a line without its newline, CR LF, a BOM, lines at the bound of a line and past it (answered
    with an error, never held whole), a CR alone: the stream as `croupier play --jsonl` reads it."""
    need("node")
    long = "".join(line + "\n" for line in bench().LONG_LINES).encode("utf-8")
    data = (b'{"cards": ["AS", "KH", "2C", "3D"]}\r\n\xff\xfe{}\n\xef\xbb\xbf{}\n\n\r\n\r\r\n' + long
            + b'{"cards": "\xe2\x99\xa0"}' + b"y" * 1_000_001)
    play = subprocess.run([sys.executable, "-m", "croupier.cli.main", "play", "spec/baccarat.rules", "--jsonl"],
                          input=data, capture_output=True, cwd=ROOT, check=True)
    node = subprocess.run(["node", "generated/engines-js/baccarat.js"], input=data, capture_output=True, cwd=ROOT,
                          check=True)
    assert node.stdout == play.stdout
    answers = play.stdout.decode("utf-8").split("\n")
    assert len(answers) == 16 and answers[-1] == ""
    too_long = [i for i, a in enumerate(answers) if "longer than 1,000,000 bytes" in a]
    assert too_long == [7, 9, 11, 12, 14]  # the long lines one past the bound and more, and the last line


def test_seeded_shoes_deal_alike():
    need("node")
    js = bench()
    for spec in SPECS:
        engine = compile_spec(spec).engine
        if hasattr(engine, "HANDS"):
            assert js.shoes_differ(engine, spec.stem, [0, 1, 2 ** 40 + 3, -5, "7/0", "é"]) is None


def test_shoes_that_run_out_deal_alike(tmp_path):
    """A hand drawing while a condition holds may need more cards than the rest of a shoe holds: that round is
    dealt from a fresh shoe in both runtimes, the shoe's last round noted `ran_out`."""
    need("node")
    spec = tmp_path / "soft.rules"
    spec.write_text(SOFT_GAME + 'bet pw "P"\n    wins when outcome is pw, pays 1 to 1\n', encoding="utf-8")
    compiled = compile_spec(spec)
    for name, text in {**javascript_files(compiled.game, str(spec), []), **runtime_outputs()}.items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    seeds = list(range(40))
    notes = [tr.shoe_note or {} for s in seeds for tr in compiled.engine.Table(s).rounds({"a": {"pw": 1}})]
    assert any(note.get("ran_out") for note in notes)  # shoes that so end are among them
    assert bench().shoes_differ(compiled.engine, compiled.game.name, seeds, tmp_path / "engines-js") is None


def test_declarations_type_check():
    """A consumer of every public call type-checks against the generated .d.ts files."""
    need(TSC)
    done = subprocess.run([str(TSC), "--noEmit", "-p", "tests/ts"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout


def test_targets_of_a_project(tmp_path):
    assert find_project(ROOT).targets == ("python", "javascript")
    (tmp_path / "croupier.toml").write_text("")
    assert find_project(tmp_path).targets == ("python",)
    for bad in ('["go"]', '["javascript"]', '"python"', '["python", "python"]'):
        (tmp_path / "croupier.toml").write_text(f"targets = {bad}\n")
        with pytest.raises(ProjectError, match="targets|target"):
            find_project(tmp_path)
