"""Chat templates that give ChatML models a way to call tools.

Many small GGUF models (SmolLM2, for one) speak ChatML but ship a template with no tools, so
llama.cpp would drop the tools from the prompt. These templates describe the tools in the system
turn and show earlier calls and results, so llama.cpp can offer tools and parse calls.

`CHATML_TOOLS` wraps calls in `<tool_call>` tags (the Hermes/Qwen convention): text around a call
stays free. `CHATML_JSON_TOOLS` has the model answer with a bare JSON object; with "auto" an
answer holding other JSON can fail to parse. With either, a forced call (`tool_choice="required"`)
is held to the call's grammar from its first token, because the OpenAI client writes the call's
opening for the model (`studio.llm.openai`); llama.cpp alone would let the model write text first,
and a tiny model then never gets to the call.
"""

from __future__ import annotations

from typing import Any

_TEMPLATE = """\
{%- if tools %}
{{- '<|im_start|>system\\n' }}
{%- if messages and messages[0].role == 'system' %}{{- messages[0].content + '\\n\\n' }}{%- endif %}
{{- 'You may call functions to help with the user query. The functions, as JSON signatures:\\n<tools>' }}
{%- for tool in tools %}{{- '\\n' }}{{- tool | tojson }}{%- endfor %}
{{- '\\n</tools>\\n\\n@INSTRUCTION@<|im_end|>\\n' }}
{%- endif %}
{%- for message in messages %}
{%- if message.role == 'system' %}
{%- if not (tools and loop.first) %}
{{- '<|im_start|>system\\n' + message.content + '<|im_end|>\\n' }}
{%- endif %}
{%- elif message.role == 'assistant' %}
{{- '<|im_start|>assistant' }}
{%- if message.content %}{{- '\\n' + message.content }}{%- endif %}
{%- if message.tool_calls %}
{%- for tool_call in message.tool_calls %}
{%- set call = tool_call.function if tool_call.function is defined else tool_call %}
{{- '\\n@OPEN@{"name": "' + call.name + '", "arguments": ' }}
{%- if call.arguments is string %}{{- call.arguments }}{%- else %}{{- call.arguments | tojson }}{%- endif %}
{{- '}@CLOSE@' }}
{%- endfor %}
{%- endif %}
{{- '<|im_end|>\\n' }}
{%- elif message.role == 'tool' %}
{{- '<|im_start|>user\\n<tool_response>\\n' + message.content + '\\n</tool_response><|im_end|>\\n' }}
{%- else %}
{{- '<|im_start|>' + message.role + '\\n' + message.content + '<|im_end|>\\n' }}
{%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}{%- endif %}
"""


def _template(instruction: str, open_tag: str, close_tag: str) -> str:
    return (
        _TEMPLATE.replace("@INSTRUCTION@", instruction)
        .replace("@OPEN@", open_tag)
        .replace("@CLOSE@", close_tag)
    )


CHATML_TOOLS = _template(
    "To call a function, write a JSON object with the function name and arguments within "
    "<tool_call></tool_call> tags:\\n<tool_call>\\n"
    '{\\"name\\": <function-name>, \\"arguments\\": <args-json-object>}\\n</tool_call>',
    "<tool_call>\\n",
    "\\n</tool_call>",
)

CHATML_JSON_TOOLS = _template(
    "To call a function, answer with only a JSON object: "
    '{\\"name\\": <function-name>, \\"arguments\\": <args-json-object>}',
    "",
    "",
)


def tool_template_for(metadata: dict[str, Any]) -> str | None:
    """The template to use instead of the model's own so that it can call tools: `CHATML_TOOLS`
    for a ChatML model whose template knows no tools (or that has no template, where llama.cpp
    falls back to ChatML); None when the model's own template should stay."""
    own = metadata.get("tokenizer.chat_template")
    if not isinstance(own, str) or not own.strip():
        return CHATML_TOOLS
    if "tools" in own:
        return None
    return CHATML_TOOLS if "<|im_start|>" in own else None
