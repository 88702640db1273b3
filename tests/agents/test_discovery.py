"""Discovery precedence: project > built-in > user > bundled, walking up to the git root."""

from __future__ import annotations

from pathlib import Path

import pytest

from memlab.agents.discovery import (
    Tier,
    discover_agents,
    discover_personas,
    discover_roles,
    find_git_root,
    project_dirs,
    resolve_grok_home,
)
from memlab.agents.parsing import config_from_mapping
from memlab.agents.tables import catalog_table
from memlab.errors import AgentConfigError, ConfigError

from .conftest import agent_md, write


def test_project_beats_user_beats_bundled(repo: Path, home: Path) -> None:
    project = write(repo / ".grok/agents/helper.md", agent_md("helper", model="p"))
    user = write(home / "agents/helper.md", agent_md("helper", model="u"))
    bundled = write(home / "bundled/agents/helper.md", agent_md("helper", model="b"))
    found = discover_agents(repo, home).get("helper")
    assert (found.tier, found.path, found.item.model) == (Tier.PROJECT, project, "p")
    assert [(s.tier, s.path) for s in found.shadowed] == [
        (Tier.USER, user),
        (Tier.BUNDLED, bundled),
    ]
    assert all("shadowed by the project definition" in s.reason for s in found.shadowed)


def test_user_beats_bundled(repo: Path, home: Path) -> None:
    write(home / "agents/helper.md", agent_md("helper", model="u"))
    write(home / "bundled/agents/helper.md", agent_md("helper", model="b"))
    found = discover_agents(repo, home).get("helper")
    assert (found.tier, found.item.model) == (Tier.USER, "u")
    assert [s.tier for s in found.shadowed] == [Tier.BUNDLED]


def test_builtins_are_always_there(repo: Path, home: Path) -> None:
    catalog = discover_agents(repo, home)
    assert {"general-purpose", "explore", "plan"} <= set(catalog.entries)
    assert catalog.get("plan").tier is Tier.BUILTIN
    assert catalog.get("plan").path is None


@pytest.mark.parametrize(
    ("where", "tier"), [("agents", Tier.USER), ("bundled/agents", Tier.BUNDLED)]
)
def test_user_and_bundled_cannot_shadow_a_builtin(
    repo: Path, home: Path, where: str, tier: Tier
) -> None:
    path = write(home / where / "explore.md", agent_md("explore", model="hijack"))
    found = discover_agents(repo, home).get("explore")
    assert found.tier is Tier.BUILTIN
    assert found.item.model is None
    assert [(s.tier, s.path) for s in found.shadowed] == [(tier, path)]
    assert f"a {tier.value} agent cannot shadow the built-in 'explore'" in found.shadowed[0].reason


def test_project_agent_may_shadow_a_builtin(repo: Path, home: Path) -> None:
    write(repo / ".claude/agents/plan.md", agent_md("plan", model="mine"))
    found = discover_agents(repo, home).get("plan")
    assert (found.tier, found.item.model) == (Tier.PROJECT, "mine")
    assert [(s.tier, s.path) for s in found.shadowed] == [(Tier.BUILTIN, None)]


def test_walks_up_to_the_git_root_nearest_first(repo: Path, home: Path, tmp_path: Path) -> None:
    cwd = repo / "pkg" / "sub"
    cwd.mkdir(parents=True)
    near = write(repo / "pkg/.grok/agents/x.md", agent_md("x", model="near"))
    far = write(repo / ".grok/agents/x.md", agent_md("x", model="far"))
    write(repo / ".claude/agents/only-root.md", agent_md("only-root"))
    write(tmp_path / ".grok/agents/above.md", agent_md("above"))  # above the git root
    catalog = discover_agents(cwd, home)
    x = catalog.get("x")
    assert (x.path, x.item.model) == (near, "near")
    assert [s.path for s in x.shadowed] == [far]
    assert "only-root" in catalog.entries
    assert "above" not in catalog.entries
    searched = [p for t, p in catalog.searched if t is Tier.PROJECT]
    assert searched == [
        cwd.resolve() / ".grok/agents",
        cwd.resolve() / ".claude/agents",
        (repo / "pkg").resolve() / ".grok/agents",
        (repo / "pkg").resolve() / ".claude/agents",
        repo.resolve() / ".grok/agents",
        repo.resolve() / ".claude/agents",
    ]


def test_grok_dir_before_claude_dir_in_one_directory(repo: Path, home: Path) -> None:
    grok = write(repo / ".grok/agents/x.md", agent_md("x", model="grok"))
    claude = write(repo / ".claude/agents/x.md", agent_md("x", model="claude"))
    x = discover_agents(repo, home).get("x")
    assert (x.path, [s.path for s in x.shadowed]) == (grok, [claude])


def test_git_file_marks_a_root_too(tmp_path: Path) -> None:
    root = tmp_path / "worktree"
    write(root / ".git", "gitdir: /elsewhere\n")
    (root / "a").mkdir()
    assert find_git_root(root / "a") == root
    assert project_dirs(root / "a") == [(root / "a").resolve(), root.resolve()]


def test_without_git_root_only_cwd_is_searched(tmp_path: Path, home: Path) -> None:
    cwd = tmp_path / "plain" / "dir"
    cwd.mkdir(parents=True)
    write(tmp_path / "plain/.grok/agents/parent.md", agent_md("parent"))
    write(cwd / ".grok/agents/here.md", agent_md("here"))
    if find_git_root(cwd) is not None:
        pytest.skip("the temporary directory is inside a git checkout")
    catalog = discover_agents(cwd, home)
    assert "here" in catalog.entries
    assert "parent" not in catalog.entries


def test_malformed_agent_file_fails_discovery(repo: Path, home: Path) -> None:
    path = write(repo / ".grok/agents/bad.md", "---\nname: [\n---\n")
    with pytest.raises(AgentConfigError, match=str(path)):
        discover_agents(repo, home)


def test_non_markdown_files_are_ignored(repo: Path, home: Path) -> None:
    write(repo / ".grok/agents/notes.txt", "not an agent")
    write(repo / ".grok/agents/a.md", agent_md("a"))
    names = set(discover_agents(repo, home).entries)
    assert "a" in names
    assert "notes" not in names


def test_unknown_agent_type_suggests(repo: Path, home: Path) -> None:
    with pytest.raises(ConfigError, match="unknown agent type 'explor'; did you mean 'explore'"):
        discover_agents(repo, home).get("explor")


def test_grok_home_resolution(tmp_path: Path) -> None:
    assert resolve_grok_home(tmp_path / "x", env={"GROK_HOME": "/ignored"}) == tmp_path / "x"
    assert resolve_grok_home(None, env={"GROK_HOME": str(tmp_path)}) == tmp_path
    assert resolve_grok_home(None, env={}) == Path.home() / ".grok"


def test_grok_home_from_environment(repo: Path, tmp_path: Path) -> None:
    home = tmp_path / "env-home"
    write(home / "agents/mine.md", agent_md("mine"))
    catalog = discover_agents(repo, env={"GROK_HOME": str(home)})
    assert catalog.get("mine").tier is Tier.USER


# ── roles and personas ───────────────────────────────────────────────────


def test_inline_roles_win_over_files_nearest_file_first(repo: Path, home: Path) -> None:
    cwd = repo / "sub"
    cwd.mkdir()
    near = write(cwd / ".grok/roles/reviewer.toml", 'model = "near"\n')
    far = write(repo / ".grok/roles/reviewer.toml", 'model = "far"\n')
    user = write(home / "roles/reviewer.toml", 'model = "user"\n')
    write(home / "roles/only-user.toml", 'model = "u"\n')
    catalog = discover_roles(cwd, home)
    found = catalog.get("reviewer")
    assert (found.tier, found.path, found.item.model) == (Tier.PROJECT, near, "near")
    assert [s.path for s in found.shadowed] == [far, user]
    assert catalog.get("only-user").tier is Tier.USER

    inline = config_from_mapping({"roles": {"reviewer": {"model": "inline"}}})
    found = discover_roles(cwd, home, inline).get("reviewer")
    assert (found.tier, found.item.model) == (Tier.INLINE, "inline")
    assert [s.tier for s in found.shadowed] == [Tier.PROJECT, Tier.PROJECT, Tier.USER]


def test_persona_file_stem_is_the_name(repo: Path, home: Path) -> None:
    path = write(repo / ".grok/personas/pirate.toml", 'instructions = "Arr."\n')
    found = discover_personas(repo, home).get("pirate")
    assert (found.item.name, found.item.source_dir) == ("pirate", path.parent)


def test_catalog_table_records_shadows(repo: Path, home: Path) -> None:
    write(home / "agents/explore.md", agent_md("explore"))
    df = catalog_table(discover_agents(repo, home))
    row = df[df["name"] == "explore"].iloc[0]
    assert row["tier"] == "built-in"
    assert "cannot shadow the built-in" in row["shadowed"]
