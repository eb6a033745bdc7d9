"""Settings: the YAML round trip, tolerance of bad values, and keeping a broken file."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
import yaml

from studio import paths
from studio.settings import (
    DEFAULT_URLS,
    BackendSettings,
    Declared,
    EditorFont,
    PromptSettings,
    ServerChoice,
    Settings,
    SettingsStore,
    declared,
    load_settings,
    save_settings,
    settings_path,
)
from studio.settings.reference import reference


def test_defaults_when_the_file_is_missing(tmp_path: Path) -> None:
    result = load_settings(tmp_path / "settings.yaml")
    assert result.settings == Settings()
    assert result.problems == []
    assert not result.broken


def test_round_trip_keeps_every_field(tmp_path: Path) -> None:
    path = tmp_path / "conf" / "settings.yaml"
    settings = Settings(
        roots=["/skills", "/archive.zip"],
        include_hidden=True,
        editor_font=EditorFont("DejaVu Sans Mono", 13),
        backend=BackendSettings("openai", "http://127.0.0.1:9000/v1", "qwen3", "/m.gguf", True, 4, 600,
                                4096, 2, "project", "/work/project"),
        open_tabs=["/skills/pdf-tools"],
        remember_window=False,
    )
    settings.window.geometry = "AdnQywADAAAAAAA="
    save_settings(settings, path)
    assert load_settings(path).settings == settings


def test_default_path_is_in_the_config_folder() -> None:
    assert settings_path() == paths.config_dir() / "settings.yaml"


def test_unknown_keys_are_kept_and_logged(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "settings.yaml"
    path.write_text("roots: [/a]\nfuture_feature: {level: 3}\n", encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        result = load_settings(path)
    assert result.settings.roots == ["/a"]
    assert result.settings.extra == {"future_feature": {"level": 3}}
    assert "future_feature" in caplog.text
    save_settings(result.settings, path)
    assert yaml.safe_load(path.read_text(encoding="utf-8"))["future_feature"] == {"level": 3}


def test_a_field_of_the_wrong_type_falls_back_and_says_so(tmp_path: Path) -> None:
    path = tmp_path / "settings.yaml"
    path.write_text(
        "roots: /not-a-list\neditor_font: {size: 400}\nbackend: {kind: gpt, think: maybe}\n",
        encoding="utf-8",
    )
    result = load_settings(path)
    assert result.settings.roots == []
    assert result.settings.editor_font.size == 11
    assert result.settings.backend.kind == "ollama"
    assert not result.settings.backend.think
    joined = "\n".join(result.problems)
    assert "`roots` should be a list of paths" in joined
    assert "`editor_font.size` should be a whole number from 5 to 72" in joined
    assert "`backend.kind` is 'gpt'" in joined
    assert "`backend.think` should be true or false" in joined
    assert not result.broken


def test_timeouts_default_for_a_cold_model_and_bad_ones_fall_back(tmp_path: Path) -> None:
    assert (Settings().backend.connect_timeout, Settings().backend.idle_timeout) == (10, 180)
    path = tmp_path / "settings.yaml"
    path.write_text("backend: {connect_timeout: 0, idle_timeout: soon}\n", encoding="utf-8")
    result = load_settings(path)
    assert (result.settings.backend.connect_timeout, result.settings.backend.idle_timeout) == (10, 180)
    joined = "\n".join(result.problems)
    assert "`backend.connect_timeout` should be a whole number from 1 to 300" in joined
    assert "`backend.idle_timeout` should be a whole number from 1 to 3600" in joined


def test_the_chat_workspace_is_each_skill_unless_set_and_a_bad_mode_falls_back(
    tmp_path: Path,
) -> None:
    assert (Settings().backend.workspace_mode, Settings().backend.workspace) == ("skill", "")
    path = tmp_path / "settings.yaml"
    path.write_text("backend: {workspace_mode: repo, workspace: /src}\n", encoding="utf-8")
    result = load_settings(path)
    assert (result.settings.backend.workspace_mode, result.settings.backend.workspace) == (
        "skill", "/src")
    assert "`backend.workspace_mode` is 'repo'; it must be one of project, skill" in result.problems[0]


def test_backend_url_defaults_to_the_kind(tmp_path: Path) -> None:
    path = tmp_path / "settings.yaml"
    path.write_text("backend: {kind: openai}\n", encoding="utf-8")
    assert load_settings(path).settings.backend.url == "http://127.0.0.1:8080/v1"


@pytest.mark.parametrize("text", ["roots: [unclosed\n", "- just\n- a list\n"])
def test_a_broken_file_is_reported_and_not_overwritten(tmp_path: Path, text: str) -> None:
    path = tmp_path / "settings.yaml"
    path.write_text(text, encoding="utf-8")
    store = SettingsStore(path)
    assert store.broken
    assert "left alone until you save the settings" in store.problems[0]
    store.settings.roots = ["/new"]
    assert store.save() is False
    assert path.read_text(encoding="utf-8") == text

    assert store.save(explicit=True) is True
    aside = list(tmp_path.glob("settings.yaml.broken-*"))
    assert len(aside) == 1
    assert aside[0].read_text(encoding="utf-8") == text
    assert load_settings(path).settings.roots == ["/new"]


def test_store_saves_atomically_to_its_path(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "settings.yaml"
    store = SettingsStore(path)
    store.settings.include_hidden = True
    assert store.save()
    assert SettingsStore(path).settings.include_hidden
    assert [p.name for p in path.parent.iterdir()] == ["settings.yaml"]


def test_context_size_threads_and_model_folders_round_trip_and_bad_ones_fall_back(tmp_path: Path) -> None:
    path = tmp_path / "settings.yaml"
    settings = Settings(model_folders=["/models"])
    settings.backend.context_size = 4096
    settings.backend.threads = 2
    save_settings(settings, path)
    loaded = load_settings(path)
    assert loaded.problems == []
    backend = loaded.settings.backend
    assert (loaded.settings.model_folders, backend.context_size, backend.threads) == (["/models"], 4096, 2)
    path.write_text("model_folders: /models\nbackend: {context_size: 100, threads: -1}\n", encoding="utf-8")
    result = load_settings(path)
    backend = result.settings.backend
    assert (result.settings.model_folders, backend.context_size, backend.threads) == ([], 8192, 0)
    joined = "\n".join(result.problems)
    assert "`model_folders` should be a list of paths" in joined
    assert "`backend.context_size` should be a whole number from 1024 to 1048576" in joined
    assert "`backend.threads` should be a whole number from 0 to 256" in joined


def test_each_backend_keeps_its_own_url_and_model(tmp_path: Path) -> None:
    path = tmp_path / "settings.yaml"
    # A file from before `servers`: its one URL and model belong to its backend.
    path.write_text("backend:\n  kind: openai\n  url: http://box:1234/v1\n  model: qwen\n")
    store = SettingsStore(path)
    backend = store.settings.backend
    backend.switch_to("ollama")
    assert (backend.url, backend.model) == (DEFAULT_URLS["ollama"], "")
    backend.url, backend.model = "http://other:11434", "llama3.2"
    store.save()
    again = load_settings(path)
    assert again.problems == []
    backend = again.settings.backend
    assert (backend.kind, backend.url, backend.model) == ("ollama", "http://other:11434", "llama3.2")
    backend.switch_to("openai")
    assert (backend.url, backend.model) == ("http://box:1234/v1", "qwen")
    backend.switch_to("ollama")
    assert (backend.url, backend.model) == ("http://other:11434", "llama3.2")


def test_a_bad_servers_entry_is_reported_and_the_rest_kept(tmp_path: Path) -> None:
    path = tmp_path / "settings.yaml"
    path.write_text("backend:\n  kind: ollama\n  servers:\n    lmstudio: {url: x}\n"
                    "    openai: {url: 'http://h:1/v1', model: 7}\n")
    result = load_settings(path)
    servers = result.settings.backend.servers
    assert servers["openai"].url == "http://h:1/v1" and servers["openai"].model == ""
    assert "lmstudio" not in servers
    assert any("backend.servers.lmstudio" in p for p in result.problems)
    assert any("backend.servers.openai.model" in p for p in result.problems)


def test_custom_prompts_round_trip_and_blank_tool_descriptions_are_dropped(tmp_path: Path) -> None:
    path = tmp_path / "settings.yaml"
    settings = Settings()
    settings.prompts = PromptSettings("Use skills.", {"run_skill_script": "Run it.", "read_skill_file": " "})
    save_settings(settings, path)
    loaded = load_settings(path)
    assert loaded.problems == []
    assert loaded.settings.prompts == PromptSettings("Use skills.", {"run_skill_script": "Run it."})


def test_each_root_keeps_its_target_and_a_bad_one_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "settings.yaml"
    settings = Settings(roots=["/skills/a", "/skills/b"])
    settings.set_target(Path("/skills/a"), "claude-code")
    settings.set_target(Path("/skills/b"), "spec")
    save_settings(settings, path)
    assert yaml.safe_load(path.read_text())["root_targets"] == {"/skills/a": "claude-code"}
    loaded = load_settings(path).settings
    assert loaded.target_of(Path("/skills/a")) == "claude-code"
    assert loaded.target_of(Path("/skills/b")) == "spec"

    path.write_text(yaml.safe_dump({"root_targets": {"/skills/a": "nobody", "/skills/b": "eino"}}))
    result = load_settings(path)
    assert result.settings.root_targets == {"/skills/b": "eino"}
    [problem] = result.problems
    assert "root_targets./skills/a" in problem and "'nobody'" in problem and "claude-code" in problem
    path.write_text(yaml.safe_dump({"root_targets": ["eino"]}))
    result = load_settings(path)
    assert result.settings.root_targets == {} and "root_targets" in result.problems[0]


def test_sandbox_limits_and_granted_names_round_trip_and_a_bad_one_falls_back(
    tmp_path: Path,
) -> None:
    from studio.settings import Limits, SandboxSettings

    path = tmp_path / "settings.yaml"
    settings = Settings(sandbox=SandboxSettings(processes=64, memory_mb=0, env=["JAVA_HOME"]))
    save_settings(settings, path)
    loaded = load_settings(path).settings
    assert loaded == settings
    assert loaded.sandbox.limits() == Limits(processes=64, memory_mb=0)
    path.write_text("sandbox:\n  processes: -3\n  tmp_mb: 256\n  env: JAVA_HOME\n")
    result = load_settings(path)
    assert result.settings.sandbox == SandboxSettings(tmp_mb=256)
    assert any("`sandbox.processes` should be a whole number from 0 to" in p for p in result.problems)
    assert any("`sandbox.env` should be a list of environment variable names" in p
               for p in result.problems)


# A value of each kind that is not the default; a mapping has one per setting, so that a new one
# needs its own here.
MAPPINGS = {
    "backend.servers": {"ollama": ServerChoice("http://box:11434", "qwen3")},
    "prompts.tools": {"run_skill_script": "Run it."},
    "root_targets": {"/skills/a": "claude-code"},
}


def other_value(item: Declared) -> Any:
    if item.kind == "bool":
        return not item.default
    if item.kind == "int":
        return item.spec.high if item.default != item.spec.high else item.spec.low
    if item.kind == "choice":
        return next(value for value in item.values if value != item.default)
    if item.kind == "list":
        return ["http://box:8080/v1", "https://other:8081"]
    if item.kind == "mapping":
        return MAPPINGS[item.key]
    return f"set-{item.key}"


def test_every_declared_setting_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "settings.yaml"
    settings = Settings()
    for item in declared(Settings):
        owner = getattr(settings, item.section) if item.section else settings
        setattr(owner, item.name, other_value(item))
    save_settings(settings, path)
    loaded = load_settings(path)
    assert loaded.problems == []
    for item in declared(Settings):
        owner = getattr(loaded.settings, item.section) if item.section else loaded.settings
        written = getattr(settings, item.section) if item.section else settings
        assert getattr(owner, item.name) == getattr(written, item.name), item.key
        assert getattr(owner, item.name) != item.default or item.key == "backend.servers", item.key


def test_eval_servers_take_http_urls_and_each_one_run_at_a_time_by_default(tmp_path: Path) -> None:
    assert (Settings().evals.servers, Settings().evals.concurrency) == ([], 1)
    path = tmp_path / "settings.yaml"
    path.write_text("evals:\n  servers: [' http://a:8080/v1 ', 'ftp://b']\n  concurrency: 0\n")
    result = load_settings(path)
    assert (result.settings.evals.servers, result.settings.evals.concurrency) == ([], 1)
    joined = "\n".join(result.problems)
    assert "`evals.servers` should be a list of http:// or https:// URLs" in joined
    assert "`evals.concurrency` should be a whole number from 1 to 64" in joined
    path.write_text("evals:\n  servers: [' http://a:8080/v1 ', 'https://b']\n  concurrency: 2\n")
    evals = load_settings(path).settings.evals
    assert (evals.servers, evals.concurrency) == (["http://a:8080/v1", "https://b"], 2)


def test_the_settings_page_of_the_manual_is_the_declarations() -> None:
    page = Path(__file__).resolve().parents[1] / "docs" / "settings.md"
    assert page.read_text(encoding="utf-8") == reference(), (
        "docs/settings.md is stale: run `python -m studio.settings.reference > docs/settings.md`")
