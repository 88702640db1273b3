"""``memlab agents list`` / ``memlab agents resolve``: output and exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from memlab.cli import main
from tests.agents.conftest import agent_md, write


@pytest.fixture
def project(repo: Path, home: Path) -> Path:
    write(repo / ".grok/agents/reviewer.md", agent_md("reviewer", effort="low"))
    write(repo / ".grok/roles/reviewer.toml", 'model = "grok-4"\ndefault_isolation = "worktree"\n')
    write(repo / ".grok/personas/pirate.toml", 'instructions = "Speak like a pirate."\n')
    write(repo / ".grok/personas/broken.toml", 'instructions_file = "missing.md"\n')
    write(home / "agents/explore.md", agent_md("explore", model="hijack"))
    write(home / "agents/helper.md", agent_md("helper"))
    return repo


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def common(repo: Path, home: Path) -> list[str]:
    return ["--cwd", str(repo), "--grok-home", str(home)]


def test_list_text(project: Path, home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "agents", "list", *common(project, home))
    assert (code, err) == (0, "")
    assert "reviewer" in out and "project" in out
    assert "helper" in out and "user" in out
    assert "cannot shadow the built-in 'explore'" in out
    assert "pirate" in out and "roles:" in out and "personas:" in out


def test_list_json(project: Path, home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "agents", "list", "--json", *common(project, home))
    assert code == 0
    data = json.loads(out)
    agents = {row["name"]: row for row in data["agents"]}
    assert agents["explore"]["tier"] == "built-in"
    assert agents["reviewer"]["tier"] == "project"
    assert agents["helper"]["source"] == str(home / "agents/helper.md")
    assert [r["name"] for r in data["roles"]] == ["reviewer"]
    assert data["searched"]["agents"][-1] == {
        "tier": "bundled",
        "path": str(home / "bundled/agents"),
    }


def test_resolve_json(project: Path, home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys,
        "agents",
        "resolve",
        "reviewer",
        "--persona",
        "pirate",
        "--set",
        "capability_mode=read-only",
        "--parent-model",
        "p",
        "--json",
        *common(project, home),
    )
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert set(data["config"]) == {
        "model",
        "reasoning_effort",
        "capability_mode",
        "persona",
        "persona_instructions",
        "role_prompt",
        "role_prompt_warning",
        "role_name",
        "persona_error",
        "isolation",
    }
    assert data["config"]["model"] == "grok-4"
    assert data["config"]["reasoning_effort"] == "low"
    assert data["config"]["capability_mode"] == "read-only"
    assert data["config"]["isolation"] == "worktree"
    assert data["decision"] == {"proceed": True, "error": None, "warnings": []}
    levels = {row["field"]: row["level"] for row in data["provenance"]}
    assert levels["reasoning_effort"] == "definition"
    assert levels["capability_mode"] == "override"
    assert data["persona_block"] == "<persona>\nSpeak like a pirate.\n</persona>"


def test_resolve_text(project: Path, home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "agents", "resolve", "reviewer", "--set", "model=grok-9", *common(project, home)
    )
    assert code == 0
    assert "FIELD" in out and "LEVEL" in out
    model_line = next(line for line in out.splitlines() if line.startswith("model "))
    assert "grok-9" in model_line and "override" in model_line and "role=grok-4" in model_line
    assert "spawn: proceeds" in out


def test_resolve_aborts_on_persona_error(
    project: Path, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(
        capsys, "agents", "resolve", "reviewer", "--persona", "pirat", *common(project, home)
    )
    assert code == 1
    assert "spawn aborted: persona 'pirat' not found; did you mean 'pirate'?" in err
    assert "spawn: aborted" in out


def test_resolve_aborts_on_unreadable_persona_file(
    project: Path, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(
        capsys,
        "agents",
        "resolve",
        "reviewer",
        "--persona",
        "broken",
        "--json",
        *common(project, home),
    )
    assert code == 1
    data = json.loads(out)
    assert data["decision"]["proceed"] is False
    assert "cannot read instructions_file" in err
    # early return: the role's model and isolation are not there
    assert data["config"]["model"] is None
    assert data["config"]["isolation"] == "none"


def test_resolve_warns_on_role_prompt_and_proceeds(
    project: Path, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(project / ".grok/roles/reviewer.toml", 'model = "grok-4"\nprompt_file = "gone.md"\n')
    code, out, err = run(capsys, "agents", "resolve", "reviewer", *common(project, home))
    assert code == 0
    assert err.startswith("memlab: warning: role 'reviewer': cannot read prompt_file")
    assert "gone.md" in err
    assert "spawn: proceeds" in out
    assert "grok-4" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--set", "modle=x"], "unknown override field 'modle'; did you mean 'model'?"),
        (["--set", "isolation=tree"], "unknown isolation 'tree'"),
        (["--persona", "a", "--set", "persona=b"], "give the persona once"),
    ],
)
def test_resolve_bad_input_exits_2(
    project: Path, home: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, "agents", "resolve", "reviewer", *argv, *common(project, home))
    assert (code, out) == (2, "")
    assert err.startswith("memlab: error: ") and message in err


def test_resolve_unknown_type_exits_2(
    project: Path, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "agents", "resolve", "reveiwer", *common(project, home))
    assert code == 2
    assert "unknown agent type 'reveiwer'; did you mean 'reviewer'?" in err


def test_malformed_file_exits_2_naming_file_and_line(
    project: Path, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = write(project / ".grok/roles/bad.toml", 'model = "a"\nmodel = "b"\n')
    code, _, err = run(capsys, "agents", "list", *common(project, home))
    assert code == 2
    assert f"{bad}:2: invalid TOML" in err


def test_config_file_option(project: Path, home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = write(project / "agents.toml", '[personas.pirate]\ninstructions = "Inline wins."\n')
    code, out, _ = run(
        capsys,
        "agents",
        "resolve",
        "reviewer",
        "--persona",
        "pirate",
        "--config",
        str(cfg),
        "--json",
        *common(project, home),
    )
    assert code == 0
    assert json.loads(out)["config"]["persona_instructions"] == "Inline wins."


def test_subprocess_python_m_memlab(project: Path, home: Path) -> None:
    env = {**os.environ, "GROK_HOME": str(home)}
    base = [sys.executable, "-m", "memlab", "agents", "resolve", "reviewer", "--cwd", str(project)]
    ok = subprocess.run([*base, "--json"], capture_output=True, text=True, env=env, check=False)
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["config"]["model"] == "grok-4"
    bad = subprocess.run(
        [*base, "--persona", "ghost"], capture_output=True, text=True, env=env, check=False
    )
    assert bad.returncode == 1
    assert "spawn aborted: persona 'ghost' not found" in bad.stderr
