"""Persona and role files stay inside the project and the user directory (issue 12, item 4).

The findings: ``instructions_file`` / ``prompt_file`` read any absolute path, a ``../``
escape or a symbolic link (a cloned repository could pull ``/etc/passwd`` into a
prompt and ``agents resolve`` printed it); a FIFO hung; ``/dev/zero`` read until
MemoryError; a 200 MB file gave 840 MB of JSON. Now: inside the project (git root),
``$GROK_HOME``, the ``--config`` file's folder or an ``--allow-dir``; regular files
only; at most 1 MiB; every refusal one line. A persona still fails closed and a
role prompt still degrades softly (SPEC §8.3).
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from memlab.agents.project import load_workspace, resolve_agent
from memlab.agents.types import SpawnOverrides
from memlab.cli import main
from memlab.errors import AgentConfigError

from .conftest import agent_md, write

SECRET = "root:x:0:0:hunter2"


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    return write(tmp_path / "elsewhere" / "secret.txt", SECRET + "\n")


def persona_with(repo: Path, instructions_file: str) -> None:
    write(repo / ".grok" / "personas" / "p.toml", f'instructions_file = "{instructions_file}"\n')
    write(repo / ".grok" / "roles" / "explore.toml", 'prompt_file = "../prompts/explore.md"\n')
    write(repo / ".grok" / "prompts" / "explore.md", "Explore carefully.\n")


def resolved(repo: Path, home: Path, *allow: Path) -> tuple[str | None, str | None]:
    ws = load_workspace(cwd=repo, grok_home=home, allow_dirs=allow)
    res = resolve_agent(ws, "explore", SpawnOverrides(persona="p"))
    return res.config.persona_instructions, res.config.persona_error


@pytest.mark.parametrize("how", ["absolute", "dotdot", "symlink"])
def test_persona_file_outside_the_project_fails_closed(
    repo: Path, home: Path, outside: Path, how: str
) -> None:
    name = {
        "absolute": str(outside),
        "dotdot": "../../../elsewhere/secret.txt",
        "symlink": "link.md",
    }[how]
    persona_with(repo, name)
    if how == "symlink":
        os.symlink(outside, repo / ".grok" / "personas" / "link.md")
    text, error = resolved(repo, home)
    assert text is None and error is not None and SECRET not in error
    assert "outside the project and user directories" in error and "--allow-dir" in error
    assert "\n" not in error
    text, error = resolved(repo, home, outside.parent)  # explicitly allowed
    assert error is None and text == SECRET


def test_fifo_device_and_huge_files_are_refused_without_reading(
    repo: Path, home: Path, tmp_path: Path
) -> None:
    os.mkfifo(repo / "fifo.md")
    os.symlink("/dev/zero", repo / "zero.md")
    huge = repo / "huge.md"
    with open(huge, "wb") as fh:
        fh.truncate(200 * 1024 * 1024)
    cases = {"../../fifo.md": "FIFO", "../../zero.md": "outside", "../../huge.md": "limit"}
    for name, word in cases.items():
        persona_with(repo, name)
        box: list[tuple[str | None, str | None]] = []
        worker = threading.Thread(target=lambda b=box: b.append(resolved(repo, home)), daemon=True)
        worker.start()
        worker.join(60)
        assert box, f"{name}: reading blocked"
        text, error = box[0]
        assert text is None and error is not None and word in error, error


def test_role_prompt_outside_degrades_softly(repo: Path, home: Path, outside: Path) -> None:
    persona_with(repo, "p.md")
    write(repo / ".grok" / "personas" / "p.md", "Be brief.\n")
    write(repo / ".grok" / "roles" / "explore.toml", f'prompt_file = "{outside}"\n')
    ws = load_workspace(cwd=repo, grok_home=home)
    res = resolve_agent(ws, "explore", SpawnOverrides(persona="p"))
    assert res.decision.proceed and res.config.persona_instructions == "Be brief."
    warning = res.config.role_prompt_warning or ""
    assert res.config.role_prompt is None and "outside" in warning and SECRET not in warning


def test_a_discovered_agent_file_linked_out_is_refused(
    repo: Path, home: Path, outside: Path
) -> None:
    agents = repo / ".grok" / "agents"
    agents.mkdir(parents=True)
    os.symlink(outside, agents / "evil.md")
    with pytest.raises(AgentConfigError, match="outside") as info:
        load_workspace(cwd=repo, grok_home=home)
    assert SECRET not in str(info.value)


def test_cli_never_prints_the_secret(
    repo: Path, home: Path, outside: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The finding end to end: ``agents resolve`` printed /etc/passwd-like content."""
    persona_with(repo, str(outside))
    write(repo / ".grok" / "agents" / "worker.md", agent_md("worker"))
    argv = ["agents", "resolve", "explore", "--persona", "p", "--cwd", str(repo),
            "--grok-home", str(home), "--json"]  # fmt: skip
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 1 and SECRET not in out + err  # the persona fails closed: spawn aborted
    assert json.loads(out)["decision"]["proceed"] is False
    code = main([*argv, "--allow-dir", str(outside.parent)])
    assert code == 0 and SECRET in capsys.readouterr().out
