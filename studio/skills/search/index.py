"""Finding skills by what they are for: a full-text index (SQLite FTS5, BM25 with the name
weighing more than the description, and the description more than the body), and, when an
embedding model is at hand (any `Embedder`: a server's model, or one run in this process), a
semantic ranking fused with it (reciprocal rank fusion).

The index lives in one SQLite file in the cache folder. Each skill's row carries the stamp of the
SKILL.md it came from (`studio.skills.scan.stamps`, as the scan cache uses); `update` reads again only
the skills whose stamp changed and drops those that are gone. Embeddings are kept in the same file
by the hash of the text they embed and the model that made them, so a changed skill is embedded
again and an unchanged one never is; `embed` does a whole library ahead of a search, in batches
kept as they are done.
"""

from __future__ import annotations

import contextlib
import hashlib
import heapq
import importlib.util
import operator
import re
import sqlite3
import threading
import zipfile
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from studio.skills.files import load_skill_file, load_zip_skills
from studio.skills.scan.stamps import stamp_of
from studio.skills.search.embedder import Embedder, EmbeddingError
from studio.skills.summary import SkillSummary

INDEX_FILE = "search-index.sqlite3"
SCHEMA_VERSION = 1
# Field weights for BM25: a word in the name says more than one in the description, which says
# more than one somewhere in the instructions.
WEIGHTS = (10.0, 4.0, 1.0)
RRF_K = 60
CANDIDATES = 50
EMBED_BODY_CHARS = 1500
# Skills embedded per request and per commit: a cancelled or failed run keeps what it did. The
# in-process model shares a request's batches (16 texts each) among the cores; 128 is a few
# seconds of work between two progress reports and looks at whether to stop.
EMBED_CHUNK = 128
MAX_QUERY_WORDS = 32
_WORD = re.compile(r"\w+", re.UNICODE)
_STOPWORDS = frozenset({
    "a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "for", "from", "how", "i", "in",
    "into", "is", "it", "me", "my", "of", "on", "or", "our", "please", "some", "that", "the",
    "this", "to", "up", "use", "want", "we", "what", "when", "which", "with", "you", "your",
})

Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class SearchHit:
    name: str
    path: Path
    score: float
    snippet: str

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "path": str(self.path), "score": round(self.score, 6),
                "snippet": self.snippet}


@dataclass(frozen=True, slots=True)
class SearchOutcome:
    """The hits, best first; `mode` says how they were ranked and `note` why not semantically."""

    hits: list[SearchHit]
    mode: Literal["lexical", "semantic", "fused"]
    note: str | None = None


def fts_query(text: str) -> str | None:
    """The user's words as an FTS5 query any one of them can match (BM25 ranks documents that
    match more of them higher), each quoted so that no word is read as FTS5 syntax."""
    words = [w.lower() for w in _WORD.findall(text)]
    kept = [w for w in words if w not in _STOPWORDS] or words
    unique = list(dict.fromkeys(kept))[:MAX_QUERY_WORDS]
    if not unique:
        return None
    return " OR ".join(f'"{word}"' for word in unique)


def _embed_text(name: str, description: str, body: str) -> str:
    return f"{name}: {description}\n{body[:EMBED_BODY_CHARS]}"


def _hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


class SearchIndex:
    """The search index of a library. Safe to call from one thread at a time per method; the
    window builds it in a worker thread and queries it from another, so calls are serialised.

    Attributes:
        path: the SQLite file, or None for an index in memory.
    """

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._db = self._open()
        self._scope: set[int] = set()
        self._vectors: dict[str, _Vectors] = {}

    def _open(self) -> sqlite3.Connection:
        if self.path is None:
            return self._prepare(sqlite3.connect(":memory:", check_same_thread=False))
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            return self._prepare(sqlite3.connect(self.path, check_same_thread=False))
        except (OSError, sqlite3.OperationalError):
            # No place to keep the index (a read-only or full cache folder): search still works,
            # from an index in memory that is built again next time.
            return self._prepare(sqlite3.connect(":memory:", check_same_thread=False))
        except sqlite3.DatabaseError:
            # A damaged or foreign file: the index is only a cache, so start again.
            for suffix in ("", "-wal", "-shm", "-journal"):
                with contextlib.suppress(OSError):
                    Path(str(self.path) + suffix).unlink()
            return self._prepare(sqlite3.connect(self.path, check_same_thread=False))

    @staticmethod
    def _prepare(db: sqlite3.Connection) -> sqlite3.Connection:
        (version,) = db.execute("PRAGMA user_version").fetchone()
        if version != SCHEMA_VERSION:
            db.executescript(
                "DROP TABLE IF EXISTS docs; DROP TABLE IF EXISTS fts; DROP TABLE IF EXISTS vectors;"
            )
        db.executescript(
            """
            PRAGMA journal_mode = WAL;
            PRAGMA synchronous = NORMAL;
            CREATE TABLE IF NOT EXISTS docs (
                id INTEGER PRIMARY KEY, key TEXT UNIQUE NOT NULL, stamp TEXT NOT NULL,
                name TEXT NOT NULL, directory TEXT NOT NULL, hash TEXT NOT NULL, summary TEXT NOT NULL
            );
            CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(
                name, description, body, tokenize = 'porter unicode61'
            );
            CREATE TABLE IF NOT EXISTS vectors (
                hash TEXT NOT NULL, model TEXT NOT NULL, vector BLOB NOT NULL,
                PRIMARY KEY (hash, model)
            );
            """
        )
        rank = f"bm25({', '.join(str(w) for w in WEIGHTS)})"
        # Written only when it differs: writing it, even unchanged, fails the next query of every
        # other connection to the file ("SQL logic error"), and the window's search and its chat
        # each hold one.
        if db.execute("SELECT v FROM fts_config WHERE k = 'rank'").fetchone() != (rank,):
            db.execute("INSERT INTO fts (fts, rank) VALUES ('rank', ?)", (rank,))
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        db.commit()
        return db

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> SearchIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def update(
        self,
        skills: Sequence[SkillSummary],
        progress: Progress | None = None,
        cancelled: Callable[[], bool] | None = None,
        *,
        prune: bool = True,
    ) -> int:
        """Make the index hold exactly these skills (the ones searched from now on): read again
        those whose SKILL.md changed since it was indexed, drop the rows of skills under the same
        roots that are gone. Without `prune` the other rows stay, only out of this index's
        searches: a chat over some of a library's skills shares the file with the window's search
        over all of them. Returns how many skills were (re)read."""
        with self._lock:
            return self._update(skills, progress, cancelled, prune)

    def _update(
        self,
        skills: Sequence[SkillSummary],
        progress: Progress | None,
        cancelled: Callable[[], bool] | None,
        prune: bool,
    ) -> int:
        db = self._db
        known = {key: (rowid, stamp) for rowid, key, stamp in db.execute("SELECT id, key, stamp FROM docs")}
        stale: list[tuple[SkillSummary, str]] = []
        scope: set[int] = set()
        for summary in skills:
            stamp = _stamp(summary)
            row = known.get(str(summary.skill_file))
            if row is not None and row[1] == stamp:
                scope.add(row[0])
            else:
                stale.append((summary, stamp))
        roots = {str(summary.root) for summary in skills}
        keep = {str(summary.skill_file) for summary in skills}
        gone = [
            rowid for key, (rowid, _) in known.items()
            if prune and key not in keep and any(_under(key, root) for root in roots)
        ]
        for rowid in gone:
            db.execute("DELETE FROM docs WHERE id = ?", (rowid,))
            db.execute("DELETE FROM fts WHERE rowid = ?", (rowid,))
        bodies = _Bodies()
        done = 0
        for summary, stamp in stale:
            if cancelled is not None and cancelled():
                break
            body = bodies.of(summary)
            name = summary.display_name
            description = summary.description or ""
            key = str(summary.skill_file)
            old = known.get(key)
            if old is not None:
                db.execute("DELETE FROM fts WHERE rowid = ?", (old[0],))
                db.execute("DELETE FROM docs WHERE id = ?", (old[0],))
            cursor = db.execute(
                "INSERT INTO docs (key, stamp, name, directory, hash, summary) VALUES (?, ?, ?, ?, ?, ?)",
                (key, stamp, name, str(summary.directory),
                 _hash(_embed_text(name, description, body)), description[:300]),
            )
            rowid = cursor.lastrowid
            assert rowid is not None
            db.execute(
                "INSERT INTO fts (rowid, name, description, body) VALUES (?, ?, ?, ?)",
                (rowid, name.replace("-", " ") + " " + name, description, body),
            )
            scope.add(rowid)
            done += 1
            if progress is not None and (done % 50 == 0 or done == len(stale)):
                progress(done, len(stale))
        db.commit()
        if scope != self._scope or done:
            self._vectors.clear()
        self._scope = scope
        return done

    def search(
        self,
        query: str,
        limit: int = 10,
        embedder: Embedder | None = None,
        *,
        semantic_only: bool = False,
    ) -> SearchOutcome:
        """The skills that best match `query`, best first. Lexical alone without `embedder`, or
        when the embedding model fails (the note says why); fused with the semantic ranking
        otherwise, or that ranking alone with `semantic_only`. Skills not embedded yet by this
        model are embedded first (`embed` does it ahead of time, with progress)."""
        with self._lock:
            lexical = self._lexical(query, max(limit, CANDIDATES))
            if embedder is None:
                note = "lexical ranking only: no embedding model is set"
                return SearchOutcome([hit for _, hit in lexical[:limit]], "lexical", note)
            try:
                semantic = self._semantic(query, embedder, max(limit, CANDIDATES))
            except EmbeddingError as exc:
                note = f"lexical ranking only: {exc.user_message}"
                return SearchOutcome([hit for _, hit in lexical[:limit]], "lexical", note)
            if semantic_only:
                return SearchOutcome([hit for _, hit in semantic[:limit]], "semantic")
            return SearchOutcome(_fuse(lexical, semantic)[:limit], "fused")

    def embed(
        self,
        embedder: Embedder,
        progress: Progress | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> int:
        """Embed the skills searched that this model has no vector for yet. Each batch is kept as
        soon as it is done, so a run that is cancelled or fails half-way keeps what it did. The
        index is free between batches: the window searches by words while it embeds.
        Returns how many skills were embedded; raises EmbeddingError when the model fails."""
        with self._lock:
            missing = self._missing(embedder.key)
        done = 0
        for start in range(0, len(missing), EMBED_CHUNK):
            if cancelled is not None and cancelled():
                break
            chunk = missing[start : start + EMBED_CHUNK]
            with self._lock:
                texts = [self._text_of(rowid) for _, rowid in chunk]
            vectors = embedder.embed(texts)
            with self._lock:
                self._keep(embedder, chunk, vectors)
            done += len(chunk)
            if progress is not None:
                progress(done, len(missing))
        return done

    def _lexical(self, query: str, limit: int) -> list[tuple[int, SearchHit]]:
        match = fts_query(query)
        if match is None or not self._scope:
            return []
        db = self._db
        # Ranked first, snippets only for the few kept: a common word can match every skill,
        # and cutting a snippet from each of thousands of bodies would cost seconds. With a
        # LIMIT, SQLite keeps the best few as it ranks instead of sorting every match (tens of
        # thousands at 100,000 skills). Rows outside this index's skills (another scope sharing
        # the file) can take places: the full ranking is read when too few were left.
        ranked: list[tuple[int, float]] = []
        for bound in (limit * 4, -1):
            ranked.clear()
            rows = db.execute(
                "SELECT rowid, rank FROM fts WHERE fts MATCH ? ORDER BY rank LIMIT ?", (match, bound)
            ).fetchall()
            for rowid, rank in rows:
                if rowid in self._scope:
                    ranked.append((rowid, rank))
                    if len(ranked) >= limit:
                        break
            if len(ranked) >= limit or len(rows) < bound:
                break
        if not ranked:
            return []
        # The snippets of all the ranked in one query: one apiece evaluated the match again each
        # time (50 a search, most of its time).
        marks = ", ".join("?" * len(ranked))
        found = {
            rowid: (name, directory, in_description, in_body)
            for rowid, name, directory, in_description, in_body in db.execute(
                "SELECT fts.rowid, docs.name, docs.directory, "
                "snippet(fts, 1, char(1), char(2), '…', 16), snippet(fts, 2, char(1), char(2), '…', 16) "
                f"FROM fts JOIN docs ON docs.id = fts.rowid WHERE fts MATCH ? AND fts.rowid IN ({marks})",
                (match, *(rowid for rowid, _ in ranked)),
            )
        }
        hits: list[tuple[int, SearchHit]] = []
        for rowid, rank in ranked:
            name, directory, in_description, in_body = found[rowid]
            hits.append((rowid, SearchHit(name, Path(directory), -rank, _snippet(in_description, in_body))))
        return hits

    def _semantic(self, query: str, embedder: Embedder, limit: int) -> list[tuple[int, SearchHit]]:
        self._embed_missing(embedder, None, None)
        (wanted,) = embedder.embed([query])
        vectors = self._vectors_of(embedder.key)
        if vectors.width not in (0, len(wanted)):
            # The server swapped the model behind the same name: what was kept is not comparable.
            self._db.execute("DELETE FROM vectors WHERE model = ?", (embedder.key,))
            self._db.commit()
            self._vectors.pop(embedder.key, None)
            self._embed_missing(embedder, None, None)
            vectors = self._vectors_of(embedder.key)
        hits: list[tuple[int, SearchHit]] = []
        for score, rowid in vectors.nearest(wanted, limit):
            name, directory, summary = self._db.execute(
                "SELECT name, directory, summary FROM docs WHERE id = ?", (rowid,)
            ).fetchone()
            hits.append((rowid, SearchHit(name, Path(directory), score, summary)))
        return hits

    def _embed_missing(
        self,
        embedder: Embedder,
        progress: Progress | None,
        cancelled: Callable[[], bool] | None,
    ) -> int:
        missing = self._missing(embedder.key)
        done = 0
        for start in range(0, len(missing), EMBED_CHUNK):
            if cancelled is not None and cancelled():
                break
            chunk = missing[start : start + EMBED_CHUNK]
            self._keep(embedder, chunk, embedder.embed([self._text_of(rowid) for _, rowid in chunk]))
            done += len(chunk)
            if progress is not None:
                progress(done, len(missing))
        return done

    def _missing(self, key: str) -> list[tuple[str, int]]:
        """(text hash, row) of the skills searched that the model `key` has no vector for."""
        rows = self._db.execute(
            "SELECT docs.id, docs.hash FROM docs "
            "LEFT JOIN vectors ON vectors.hash = docs.hash AND vectors.model = ? "
            "WHERE vectors.hash IS NULL",
            (key,),
        ).fetchall()
        return list({text_hash: rowid for rowid, text_hash in rows if rowid in self._scope}.items())

    def _keep(self, embedder: Embedder, chunk: list[tuple[str, int]],
              vectors: list[list[float]]) -> None:
        if len(vectors) != len(chunk):
            raise EmbeddingError(f"The embedding model {embedder.label} answered {len(vectors)} vectors "
                           f"for {len(chunk)} texts. Check that it is an embedding model.")
        self._db.executemany(
            "INSERT OR REPLACE INTO vectors (hash, model, vector) VALUES (?, ?, ?)",
            [(text_hash, embedder.key, array("f", vector).tobytes())
             for (text_hash, _), vector in zip(chunk, vectors, strict=True)],
        )
        self._db.commit()
        self._vectors.pop(embedder.key, None)

    def missing(self, embedder: Embedder) -> int:
        """How many of the skills searched this model has no vector for yet (0: a search with it
        ranks by meaning at once, embedding nothing first)."""
        with self._lock:
            return len(self._missing(embedder.key))

    def _vectors_of(self, key: str) -> _Vectors:
        """The vectors of the skills searched, from this model, held in memory until the index or
        they change: reading 8,000 of them from the file would take longer than the search."""
        found = self._vectors.get(key)
        if found is None:
            rows = self._db.execute(
                "SELECT docs.id, vectors.vector FROM docs "
                "JOIN vectors ON vectors.hash = docs.hash AND vectors.model = ?",
                (key,),
            ).fetchall()
            found = _Vectors([(rowid, blob) for rowid, blob in rows if rowid in self._scope])
            self._vectors[key] = found
        return found

    def _text_of(self, rowid: int) -> str:
        name, description, body = self._db.execute(
            "SELECT docs.name, fts.description, fts.body FROM fts JOIN docs ON docs.id = fts.rowid "
            "WHERE fts.rowid = ?",
            (rowid,),
        ).fetchone()
        return _embed_text(name, description, body)


class _Vectors:
    """Unit vectors by skill row, scored against a query by their dot product (the cosine): with
    numpy when it is installed (a millisecond for 8,000 skills), in plain Python otherwise."""

    def __init__(self, rows: list[tuple[int, bytes]]) -> None:
        self.rowids = [rowid for rowid, _ in rows]
        vectors = [array("f", blob) for _, blob in rows]
        self.width = len(vectors[0]) if vectors else 0
        if any(len(vector) != self.width for vector in vectors):
            self.width = -1
        self._matrix: Any = None
        self._lists = vectors
        if self.width > 0 and importlib.util.find_spec("numpy") is not None:
            import numpy as np

            self._matrix = np.frombuffer(b"".join(blob for _, blob in rows), dtype=np.float32)
            self._matrix = self._matrix.reshape(len(rows), self.width)

    def nearest(self, wanted: list[float], limit: int) -> list[tuple[float, int]]:
        if self.width <= 0:
            return []
        if self._matrix is not None:
            import numpy as np

            scores = self._matrix @ np.asarray(wanted, dtype=np.float32)
            best = np.argsort(-scores, kind="stable")[:limit]
            return [(float(scores[i]), self.rowids[i]) for i in best]
        scored = [
            (sum(map(operator.mul, wanted, vector)), rowid)
            for rowid, vector in zip(self.rowids, self._lists, strict=True)
        ]
        return heapq.nlargest(limit, scored)


def _fuse(*rankings: list[tuple[int, SearchHit]]) -> list[SearchHit]:
    """Reciprocal rank fusion: each ranking gives 1 / (RRF_K + rank); the lexical hit (with its
    highlighted snippet) is kept where both found the skill."""
    scores: dict[int, float] = {}
    hits: dict[int, SearchHit] = {}
    for ranking in rankings:
        for rank, (rowid, hit) in enumerate(ranking, start=1):
            scores[rowid] = scores.get(rowid, 0.0) + 1.0 / (RRF_K + rank)
            hits.setdefault(rowid, hit)
    ordered = sorted(scores, key=lambda rowid: -scores[rowid])
    return [
        SearchHit(hits[rowid].name, hits[rowid].path, scores[rowid], hits[rowid].snippet)
        for rowid in ordered
    ]


def _snippet(in_description: str, in_body: str) -> str:
    """The description's matching words, else the body's, else the description: a match in the
    name alone is visible already."""
    chosen = in_description if "\x01" in in_description or "\x01" not in in_body else in_body
    return chosen.replace("\x01", "[").replace("\x02", "]")


def _stamp(summary: SkillSummary) -> str:
    # A skill inside a zip changes only when the archive does.
    source = summary.root if summary.read_only else summary.skill_file
    _, size, mtime, mode = stamp_of(str(source))
    return f"{size}:{mtime}:{mode}"


def _under(key: str, root: str) -> bool:
    return key == root or key.startswith(root.rstrip("/\\") + "/") or key.startswith(root + "\\")


class _Bodies:
    """Each skill's body from its one parse; a zip's skills are read once for all of them."""

    def __init__(self) -> None:
        self._zips: dict[Path, dict[Path, str]] = {}

    def of(self, summary: SkillSummary) -> str:
        if not summary.read_only:
            return load_skill_file(summary.directory, summary.skill_file.name).body
        archive = self._zips.get(summary.root)
        if archive is None:
            try:
                archive = {skill.path: skill.body for skill in load_zip_skills(summary.root)}
            except (OSError, ValueError, RuntimeError, zipfile.BadZipFile):
                archive = {}
            self._zips[summary.root] = archive
        return archive.get(summary.skill_file, "")


def index_path(cache_folder: Path) -> Path:
    return cache_folder / INDEX_FILE
