"""Attacks through a spec's file name: the name reaches the engine's header and docstring and the
conformance test's header, and must stay text there.

The injection corpus of test_injection (as written and with its escapes taken literally: real
line breaks and quotes) is used as file names for `play`, `build --out` and the generated
conformance test. No payload may run, and the generated modules, with every string constant
blanked, are exactly the modules generated from the plain spec: the payload is only ever text.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cli_run import child_env
from conftest import BACCARAT, ROOT
from test_injection import PAYLOADS

from croupier.cli.main import main

SHARED_MARKER = Path("/tmp/croupier_pwned")  # what the PAYLOADS of test_injection would create
CARDS = "3S 2H 4D 2C 6H AS"


def file_payloads(marker: Path) -> list[str]:
    """File names built to break out of a comment line or a docstring and open `marker`."""
    opener = f'open("{marker}","w")'
    return [
        *PAYLOADS,
        *(p.encode("ascii").decode("unicode_escape") for p in PAYLOADS),
        f"evil\n{opener}\n#",
        f'evil"""\n{opener}\n"""',
        f"evil\r{opener}\r#",
        f"evil\u2028{opener}\u2029#\x0c{opener}",
        f"evil\\\n{opener}\\",
        f'evil"\n{opener}\n"',
        os.fsdecode(b"evil\xff\xfe\n") + opener,
    ]


def spec_at(base: Path, name: str) -> Path:
    """A copy of the baccarat spec under a file name holding `name` (its slashes make folders)."""
    path = Path(f"{base}/{name}.rules")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(BACCARAT.read_bytes())
    return path


def code_without_strings(source: str) -> str:
    """The module's code with every string constant (docstrings included) blanked; comments are gone too."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            node.value = ""
    return ast.unparse(tree)


@pytest.fixture
def marker(tmp_path):
    SHARED_MARKER.unlink(missing_ok=True)
    mark = tmp_path / "PWNED"
    yield mark
    assert not mark.exists(), "a payload in a file name ran"
    assert not SHARED_MARKER.exists(), "a payload in a file name ran"


@pytest.mark.parametrize("index", range(len(file_payloads(Path("/m")))))
def test_play_runs_no_payload_from_the_file_name(index, marker, tmp_path, capsys):
    spec = spec_at(tmp_path / "specs", file_payloads(marker)[index])
    assert main(["play", str(spec), "--cards", CARDS]) == 0
    assert "outcome" in capsys.readouterr().out.lower()


def test_the_engine_of_a_hostile_file_name_is_the_plain_engine_plus_text(marker, tmp_path):
    from croupier.backends.engine.emitter import emit_engine
    from croupier.backends.pywriter import safe_text
    from croupier.semantics.resolve import Loader

    game, _ = Loader().load(str(BACCARAT))
    plain = code_without_strings(emit_engine(game, "spec/baccarat.rules"))
    for name in file_payloads(marker):
        shown = str(spec_at(tmp_path / "specs", name))
        source = emit_engine(game, shown)
        assert safe_text(shown) in source.splitlines()[0], "the header names the spec"
        assert code_without_strings(source) == plain, f"the file name {name!r} changed the engine's code"


def test_build_and_conformance_test_of_a_hostile_file_name(marker, tmp_path, capsys):
    """Every payload at once in one path (each a folder of the next), built into a hostile --out, in a
    project whose reference cases are this repository's."""
    shutil.copytree(ROOT / "tests" / "cases", tmp_path / "cases")  # `cases` lies inside its project
    (tmp_path / "croupier.toml").write_text('cases = "cases"\n', encoding="utf-8")
    name = "/".join(file_payloads(marker))
    spec = spec_at(tmp_path / "specs", name)
    out = Path(f"{tmp_path}/out/{file_payloads(marker)[-4]}/generated")
    assert main(["build", str(spec), "--out", str(out)]) == 0, capsys.readouterr().err
    engine = (out / "engines" / "baccarat.py").read_text(encoding="utf-8")
    test = (out / "tests" / "test_baccarat.py").read_text(encoding="utf-8")
    assert "PWNED" in engine.splitlines()[0] and "PWNED" in test.splitlines()[0], "the header names the spec"
    committed = ROOT / "generated"
    assert code_without_strings(engine) == code_without_strings(
        (committed / "engines" / "baccarat.py").read_text(encoding="utf-8"))
    assert code_without_strings(test) == code_without_strings(
        (committed / "tests" / "test_baccarat.py").read_text(encoding="utf-8"))
    line = '{"cards": ["3S","2H","4D","2C","6H","AS"], "bets": {"banker": 100}}\n'
    proc = subprocess.run([sys.executable, "-I", str(out / "engines" / "baccarat.py")], input=line,
                          capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 0 and '"outcome"' in proc.stdout, proc.stderr
    # the generated tests need pytest alone: none of the plugins installed for this suite (Hypothesis, xdist,
    # pytest-benchmark), whose loading cost the child more than the 81 cases it runs
    env = dict(os.environ, PYTEST_DISABLE_PLUGIN_AUTOLOAD="1")
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(out / "tests")],
                          capture_output=True, text=True, timeout=300, check=False, cwd=tmp_path, env=env)
    assert proc.returncode == 0, proc.stdout[-2000:]


def test_the_reported_repro(tmp_path):
    """The attack report's own command line, as a subprocess: `croupier play` on that file name."""
    pwned = tmp_path / "PWNED"
    spec = Path(f'{tmp_path}/evil\nopen("{pwned}","w")\n#.rules')
    spec.parent.mkdir(parents=True)
    spec.write_bytes(BACCARAT.read_bytes())
    env = child_env()
    proc = subprocess.run([sys.executable, "-m", "croupier.cli.main", "play", str(spec), "--cards", CARDS], env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    assert not pwned.exists()
