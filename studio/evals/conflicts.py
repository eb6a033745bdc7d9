"""Routing conflicts across a library: skills a model will confuse.

Two signals, as `studio eval --conflicts` reports them:
- descriptions that overlap: by the terms they share, each weighted by how rare it is in the
  library (so "file" counts for little and "invoice" for much), and, when an embedding model is
  at hand, by the cosine of their embeddings;
- trigger queries of one skill that load another: each skill's should-trigger queries asked with
  the whole library in the catalog (a model's real choice, not a guess from words).

Pairs are found through an inverted index of terms and blockwise matrix products of the
embeddings, never by comparing every pair in Python, so a library of thousands stays quick.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from studio.evals.report import QueryResult, SkillReport
from studio.evals.runner import EvalRunner
from studio.llm import Embedder
from studio.skills import SkillSummary
from studio.skills.checks import evalfiles
from studio.skills.search import catalog

LEXICAL_MIN = 0.45
SEMANTIC_MIN = 0.85
# A term in more than this share of the library tells two skills apart from nothing.
COMMON_SHARE = 0.05
_BLOCK = 512


@dataclass(frozen=True, slots=True)
class Overlap:
    """Two skills whose descriptions say much the same. `lexical` is the cosine of their
    rare-term weights (0 to 1), `semantic` that of their embeddings (None: no model)."""

    first: SkillSummary
    second: SkillSummary
    shared: tuple[str, ...]
    lexical: float
    semantic: float | None = None


@dataclass(frozen=True, slots=True)
class CrossTrigger:
    """A query written for `owner` that the model answered by loading `loaded`."""

    owner: SkillSummary
    loaded: str
    query: str


def description_overlaps(skills: Sequence[SkillSummary], embedder: Embedder | None = None, *,
                         lexical_min: float = LEXICAL_MIN,
                         semantic_min: float = SEMANTIC_MIN) -> list[Overlap]:
    """Pairs of skills whose descriptions overlap, most alike first."""
    listed = [s for s in skills if s.name and s.description]
    bags = [Counter(catalog.terms(f"{(s.name or '').replace('-', ' ')} {s.description}")) for s in listed]
    frequency: Counter[str] = Counter()
    for bag in bags:
        frequency.update(bag.keys())
    common = max(2, int(len(listed) * COMMON_SHARE))
    weight = {term: math.log((len(listed) + 1) / count) for term, count in frequency.items()
              if count <= common}
    vectors = [{t: n * weight[t] for t, n in bag.items() if t in weight} for bag in bags]
    norms = [math.sqrt(sum(v * v for v in vector.values())) or 1.0 for vector in vectors]
    postings: dict[str, list[int]] = defaultdict(list)
    for index, vector in enumerate(vectors):
        for term in vector:
            postings[term].append(index)
    dot: defaultdict[tuple[int, int], float] = defaultdict(float)
    for term, holders in postings.items():
        for a_pos, a in enumerate(holders):
            for b in holders[a_pos + 1:]:
                dot[(a, b)] += vectors[a][term] * vectors[b][term]
    lexical = {pair: value / (norms[pair[0]] * norms[pair[1]]) for pair, value in dot.items()}
    semantic = _semantic_pairs(listed, embedder, semantic_min) if embedder is not None else {}
    found = []
    for pair in set(lexical) | set(semantic):
        score = lexical.get(pair, 0.0)
        cosine = semantic.get(pair)
        if score < lexical_min and (cosine is None or cosine < semantic_min):
            continue
        a, b = pair
        shared = tuple(sorted(set(vectors[a]) & set(vectors[b]),
                              key=lambda t: -vectors[a][t] * vectors[b][t])[:6])
        found.append(Overlap(listed[a], listed[b], shared, round(score, 3),
                             None if embedder is None else round(cosine or 0.0, 3)))
    found.sort(key=lambda o: (-(o.semantic or 0.0) - o.lexical, o.first.display_name))
    return found


def _semantic_pairs(skills: Sequence[SkillSummary], embedder: Embedder,
                    minimum: float) -> dict[tuple[int, int], float]:
    """Pairs whose description embeddings have a cosine of `minimum` or more."""
    texts = [f"{s.name}: {s.description}" for s in skills]
    vectors: list[list[float]] = []
    for start in range(0, len(texts), 256):
        vectors.extend(_unit(v) for v in embedder.embed(texts[start:start + 256]))
    pairs: dict[tuple[int, int], float] = {}
    try:
        import numpy as np
    except ImportError:
        for a in range(len(vectors)):
            for b in range(a + 1, len(vectors)):
                cosine = sum(x * y for x, y in zip(vectors[a], vectors[b], strict=False))
                if cosine >= minimum:
                    pairs[(a, b)] = float(cosine)
        return pairs
    matrix = np.asarray(vectors, dtype=np.float32)
    for start in range(0, len(vectors), _BLOCK):
        block = matrix[start:start + _BLOCK] @ matrix.T
        rows, columns = np.nonzero(block >= minimum)
        for row, column in zip(rows.tolist(), columns.tolist(), strict=True):
            a = start + row
            if column > a:
                pairs[(a, column)] = float(block[row, column])
    return pairs


def _unit(vector: Sequence[float]) -> list[float]:
    norm = math.sqrt(sum(x * x for x in vector)) or 1.0
    return [x / norm for x in vector]


async def cross_triggers(runner: EvalRunner, library: Sequence[SkillSummary],
                         queries: Mapping[str, Sequence[evalfiles.TriggerQuery]],
                         report: SkillReport) -> list[CrossTrigger]:
    """Each skill's should-trigger queries asked with the whole library in the catalog; those
    the model answered by loading another skill. `queries` maps a skill's name to its queries."""
    found = []
    for skill in library:
        for query in queries.get(skill.display_name, ()):
            if not query.should_trigger:
                continue
            result: QueryResult = await runner.trigger_run(skill, library, query, 1, report)
            if result.called == "activate_skill" and result.skill and result.skill != skill.display_name:
                found.append(CrossTrigger(skill, result.skill, query.query))
    return found


def trigger_sets(
    library: Sequence[SkillSummary],
) -> tuple[dict[str, list[evalfiles.TriggerQuery]], list[str]]:
    """Each skill's trigger queries by its name (those with none left out), and what could not
    be read."""
    found: dict[str, list[evalfiles.TriggerQuery]] = {}
    problems: list[str] = []
    for skill in library:
        try:
            queries = evalfiles.read_triggers(skill.directory)
        except evalfiles.EvalFileError as exc:
            problems.append(str(exc))
            continue
        if queries:
            found[skill.display_name] = list(queries)
    return found, problems


def local_embedder() -> tuple[Embedder | None, str]:
    """The local embedding model when it is installed, or None and why not ("" when it is
    simply not installed): descriptions are then compared by their words."""
    from studio.llm import embedder_for, local_model_installed

    if not local_model_installed():
        return None, ""
    try:
        return embedder_for("local", "", ""), ""
    except ValueError as exc:
        return None, str(exc)
