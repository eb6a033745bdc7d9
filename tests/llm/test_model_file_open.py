"""Opening a model file the user points at: what is accepted, and what each refusal says."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from studio.llm.gguf import read_tensor_extent
from studio.llm.modelfile import ModelFileError, inspect_model_file, size_label
from tests.fakes.ggufwriter import write_gguf, write_model
from tests.fakes.localmodels import smollm2_gguf

CHATML = "{% for m in messages %}<|im_start|>{{ m.role }}{% endfor %}{% if tools %}{% endif %}"


def test_a_chat_model_is_described_from_its_header(tmp_path: Path) -> None:
    path = write_model(tmp_path / "tiny.gguf", {
        "general.architecture": "llama", "general.name": "Tiny", "general.file_type": 7,
        "llama.context_length": 4096, "tokenizer.chat_template": CHATML}, [(64, 32), (32,)])
    model = inspect_model_file(path, memory=16 * 10**9)
    assert (model.name, model.parameters, model.facts.quantization) == ("Tiny", "2.1K", "Q8_0")
    assert model.facts.context_length == 4096 and model.notes == ()
    assert model.summary().startswith("Tiny · 2.1K · Q8_0 · ")


def test_the_shipped_small_model_opens_with_its_size_label() -> None:
    path = smollm2_gguf()
    model = inspect_model_file(path, memory=16 * 10**9)
    assert model.parameters == "135M" and model.facts.architecture == "llama"
    parameters, needed = read_tensor_extent(path)
    assert 130_000_000 < parameters < 140_000_000 and needed <= path.stat().st_size


@pytest.mark.parametrize(("count", "label"), [(134_515_008, "135M"), (494_032_768, "494M"),
                                              (1_543_714_304, "1.5B"), (13_015_864_320, "13B")])
def test_parameter_counts_are_labelled_as_model_names_write_them(count: int, label: str) -> None:
    assert size_label(count) == label


def test_a_download_cut_short_is_refused_and_says_so(tmp_path: Path) -> None:
    path = write_model(tmp_path / "cut.gguf", {"general.architecture": "qwen2"},
                         [(1000, 1000), (1000,)], 100)
    with pytest.raises(ModelFileError, match=r"cut short.*download it again"):
        inspect_model_file(path)


@pytest.mark.parametrize(("head", "says"), [
    (struct.pack("<Q", 20) + b'{"__metadata__":{}}', "safetensors"),
    (b"PK\x03\x04rest", "zip archive"),
    (b"", "empty"),
    (b"#!/bin/sh\nrm -rf ~\n", "not a GGUF model file"),
])
def test_a_file_of_another_format_is_named_for_what_it_is(tmp_path: Path, head: bytes, says: str) -> None:
    path = tmp_path / "model.gguf"
    path.write_bytes(head)
    with pytest.raises(ModelFileError, match=says) as caught:
        inspect_model_file(path)
    assert "GGUF" in caught.value.user_message


def test_a_later_part_of_a_split_model_names_the_first(tmp_path: Path) -> None:
    path = write_gguf(tmp_path / "qwen-00002-of-00003.gguf", {"general.architecture": "qwen2"})
    with pytest.raises(ModelFileError, match=r"part 2 of 3.*qwen-00001-of-00003.gguf"):
        inspect_model_file(path)


@pytest.mark.parametrize(("architecture", "says"), [("clip", "vision projector"),
                                                    ("bert", "embedding model")])
def test_a_model_that_does_not_chat_is_refused(tmp_path: Path, architecture: str, says: str) -> None:
    path = write_gguf(tmp_path / "m.gguf", {"general.architecture": architecture})
    with pytest.raises(ModelFileError, match=says):
        inspect_model_file(path)


def test_a_damaged_header_folder_missing_file_or_no_weights_each_say_what_is_wrong(
        tmp_path: Path) -> None:
    with pytest.raises(ModelFileError, match="holds no weights"):
        inspect_model_file(write_gguf(tmp_path / "h.gguf", {"general.architecture": "llama"}))
    damaged = tmp_path / "d.gguf"
    damaged.write_bytes(b"GGUF" + struct.pack("<IQQ", 3, 0, 5))
    with pytest.raises(ModelFileError, match=r"cannot be used.*ends early"):
        inspect_model_file(damaged)
    with pytest.raises(ModelFileError, match="is a folder"):
        inspect_model_file(tmp_path)
    with pytest.raises(ModelFileError, match="no file at"):
        inspect_model_file(tmp_path / "gone.gguf")


def test_notes_say_what_to_expect_of_a_model_without_a_template_or_room(tmp_path: Path) -> None:
    path = write_model(tmp_path / "m.gguf", {"general.architecture": "llama"}, [(8,)], 32)
    model = inspect_model_file(path, memory=10)
    assert any("no chat template" in note for note in model.notes)
    assert any("may not load" in note for note in model.notes)
