"""The splitter: commands found the way bash finds them, and words expanded as far as is known."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from studio.policy import PolicyContext, judge, split_commands
from studio.policy.shell.cmdline import parse
from studio.policy.shell.expand import Env, expand_words
from studio.policy.shell.syntax import Param, Subst


def words(text: str, index: int = 0) -> list[str | None]:
    return [w.literal for w in parse(text).commands[index].words]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ls -la; pwd", ["ls -la", "pwd"]),
        ("a && b || c", ["a", "b", "c"]),
        ("a | b |& c", ["a", "b", "c"]),
        ("a & b", ["a", "b"]),
        ("a\nb\n\nc", ["a", "b", "c"]),
        ("echo $(rm -rf /)", ["echo $(rm -rf /)", "rm -rf /"]),
        ("echo `id`", ["echo `id`", "id"]),
        ('echo "$(a | b)"', ['echo "$(a | b)"', "a", "b"]),
        ("cat <(curl x) >(tee y)", ["cat <(curl x) >(tee y)", "curl x", "tee y"]),
        ("(a; b) | c", ["a", "b", "c"]),
        ("{ a; b; }", ["a", "b"]),
        ("if a; then b; elif c; then d; else e; fi", ["a", "b", "c", "d", "e"]),
        ("while a; do b; done", ["a", "b"]),
        ("for i in 1 2; do echo $i; done", ["for i in 1 2", "echo $i"]),
        ("case $x in a|b) one;; *) two;; esac", ["case $x", "one", "two"]),
        ("f() { body; }; f", ["body", "f"]),
        ("function g { body; }", ["body"]),
        ("! a", ["a"]),
        ("time -p a", ["a"]),
        ("ls # rm -rf /", ["ls"]),
        ("echo a#b", ["echo a#b"]),
        ("echo ${x:-$(inner)}", ["echo ${x:-$(inner)}", "inner"]),
        ("echo $((1 + $(inner)))", ["echo $((1 + $(inner)))", "inner"]),
        ("cat <<EOF\n$(inner)\nEOF", ["cat <<EOF", "inner"]),
        ("cat <<'EOF'\n$(not-run)\nEOF", ["cat <<'EOF'"]),
        ("a \\\n  b", ["a \\\n  b"]),
    ],
)
def test_split_commands(text: str, expected: list[str]) -> None:
    assert split_commands(text) == expected


def test_quotes_and_escapes_are_joined_the_way_bash_joins_them() -> None:
    assert words("r''m -rf ~") == ["rm", "-rf", "~"]
    assert words("\"r\"m 'a b' c\\ d \\rm") == ["rm", "a b", "c d", "rm"]
    assert words("$'\\x72\\x6d' $'a\\tb' $'\\162\\155'") == ["rm", "a\tb", "rm"]
    assert words("echo \"a\\\"b\" 'it'\\''s'") == ["echo", 'a"b', "it's"]
    assert words("echo \"\" ''") == ["echo", "", ""]


def test_redirections_are_captured_with_their_targets() -> None:
    command = parse("2>&1 cmd >out.txt 2>>err <in <<<here &>both").commands[0]
    assert [w.literal for w in command.words] == ["cmd"]
    found = [(r.op, r.fd, r.target.literal if r.target else None) for r in command.redirects]
    assert found == [
        (">&", "2", "1"),
        (">", None, "out.txt"),
        (">>", "2", "err"),
        ("<", None, "in"),
        ("<<<", None, "here"),
        ("&>", None, "both"),
    ]


def test_here_documents_keep_their_bodies() -> None:
    command = parse("cat <<-EOF | sh\n\trm -rf /\n\tEOF\necho after").commands[0]
    heredoc = command.redirects[0].heredoc
    assert heredoc is not None and heredoc.body == "rm -rf /\n" and heredoc.complete
    assert split_commands("cat <<-EOF | sh\n\trm -rf /\n\tEOF\necho after")[-1] == "echo after"


def test_assignments_come_apart_from_the_command() -> None:
    command = parse('FOO=1 BAR="a b" env').commands[0]
    assert [(a.name, a.value.literal) for a in command.assignments] == [("FOO", "1"), ("BAR", "a b")]
    assert [w.literal for w in command.words] == ["env"]


def test_expansions_are_kept_as_parts() -> None:
    word = parse("echo $HOME${x}$(id)").commands[0].words[1]
    kinds = [type(part) for part in word.parts]
    assert kinds == [Param, Param, Subst]
    assert word.literal is None


def test_pipes_are_marked() -> None:
    commands = parse("a | b | c; d").commands
    assert [(c.pipe_in, c.pipe_out) for c in commands] == [
        (False, True),
        (True, True),
        (True, False),
        (False, False),
    ]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("echo 'open", "single quote"),
        ('echo "open', "double quote"),
        ("echo $(open", "never closed"),
        ("echo `open", "backquote"),
        ("cat <<EOF\nbody", "never ended"),
        ("cat <<EOF", "no body"),
        ("ls )", "unexpected"),
        ("(ls", "never closed"),
        ("echo ${open", "never closed"),
        ("ls >", "no target"),
    ],
)
def test_unreadable_input_is_reported_not_raised(text: str, problem: str) -> None:
    problems = parse(text).problems
    assert any(problem in p for p in problems), problems


def test_deep_nesting_is_a_problem_not_a_crash() -> None:
    text = "echo " + "$(" * 400 + "x" + ")" * 400
    assert parse(text).problems
    assert parse("( " * 2000 + "ls" + " )" * 2000).problems


def test_expansion_knows_home_ifs_braces_and_globs(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("a")
    (tmp_path / "b.md").write_text("b")
    (tmp_path / ".hidden.md").write_text("h")
    env = Env.initial(Path("/home/u"), tmp_path)

    def expand(text: str) -> list[str]:
        return [a.text for a in expand_words(parse(text).commands[0].words, env, tmp_path)]

    assert expand('x ~ ~/f "~"') == ["x", "/home/u", "/home/u/f", "~"]
    assert expand("rm${IFS}-rf${IFS}/") == ["rm", "-rf", "/"]
    assert expand("x {a,b}{1..2} {x} a{b") == ["x", "a1", "a2", "b1", "b2", "{x}", "a{b"]
    assert expand("x *.md '*.md' .*.md none*") == ["x", "a.md", "b.md", "*.md", ".hidden.md", "none*"]
    assert expand('x $(echo one two) "$(printf %s three)"') == ["x", "one", "two", "three"]
    assert expand("x $(echo cm0= | base64 -d)") == ["x", "rm"]
    unknown = expand_words(parse("x $NOPE").commands[0].words, env, tmp_path)[1]
    assert not unknown.known and not unknown.exact


@settings(max_examples=300)
@given(st.text(alphabet=st.sampled_from(list("ab $'\"`\\(){}[]|&;<>#~*?=\n-/.")), max_size=40))
def test_any_text_parses_and_judges_without_raising(text: str) -> None:
    script = parse(text)
    assert isinstance(script.problems, tuple)
    context = PolicyContext(Path("/nonexistent/ws"), Path("/nonexistent/ws"), Path("/nonexistent/home"))
    decision = judge(text, context)
    assert decision.verdict in ("allow", "ask", "block")
    if script.problems:
        assert decision.verdict != "allow"


@pytest.mark.parametrize("template", ["echo {}", 'echo "{}"', "cat <<EOF\n$x {}\nEOF\n", "a={}b"])
def test_a_run_of_plain_characters_spends_a_step_for_each(template: str) -> None:
    """The lexer takes a run of plain characters at once; the budget still counts each one, so
    a longer word costs exactly its extra characters' steps."""
    from studio.policy.shell.budget import CHARACTER, Budget, running

    def steps(text: str) -> int:
        budget = Budget(10**9)
        with running(budget):
            parse(text)
        return budget.used

    short, long = template.format("x" * 10), template.format("x" * 110)
    assert steps(long) - steps(short) == 100 * CHARACTER


def test_runs_meet_quotes_escapes_and_expansions_as_characters_did() -> None:
    script = parse('a"b c"d\\ e$HOME"f$(g h)i"j k\\\nl \'m\'n')
    (command,) = script.commands
    assert [w.raw for w in command.words] == ['a"b c"d\\ e$HOME"f$(g h)i"j', "k\\\nl", "'m'n"]
    assert [w.literal for w in command.words][1:] == ["kl", "mn"]
    assert [command.scripts[0].commands[0].text] == ["g h"]
