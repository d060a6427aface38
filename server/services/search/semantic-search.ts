/**
 * ai.semanticSearch (spec "AI router"; docs/ai.md "Semantic search"): code chunks of a
 * repository branch ranked for a natural-language query.
 *
 * Engines: without an embedding model, the lexical engine (lexical.ts: FTS5 / PostgreSQL
 * full-text over identifier-split words), `engine: "local"`; with one (the repository's key or
 * the server's provider, ModelEngine.embedding) and vectors for every chunk, a hybrid — the
 * vector and lexical rankings fused by reciprocal rank (k = 60), `engine: "<provider>:<model>"`.
 *
 * Freshness: the index follows pushes through the `search.indexRepo` job. When the index is
 * missing, behind the branch tip or cut by an older chunker (CHUNKER_VERSION), the search answers
 * from what is indexed and queues a refresh; a repository without an index and at most INLINE_INDEX_FILES files is indexed inline
 * first (the first search of a small repository then finds its code at once).
 */
import picomatch from "picomatch";
import { z } from "zod";
import type { Db } from "@/server/db";
import type { Actor } from "@/server/auth/actor";
import { AppError } from "@/server/errors";
import { line, text } from "@/server/validation/strings";
import { queueIndexRefresh } from "./queue";
import { branchTips } from "@/server/git/ref-files";
import { resolveAiEngine } from "@/server/ai/resolve";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { queryWords } from "./tokens";
import { lexicalSearch, type ChunkHit } from "./lexical";
import { embedQuery, EmbeddingProviderError, type EmbeddingEngine } from "./embeddings";
import { nearestChunks, vectorVersion } from "./vectors";
import { fuseRankings } from "./hybrid";
import { CHUNKER_VERSION } from "./chunk";
import { refreshSearchIndex } from "./index-repo";
import { LEXICAL_SEARCH_ENGINE } from "./engine-label";
import { indexableFiles } from "./files";

/** Spec Limits: limit default 10 (at most 100), minSimilarity 0–1 default 0.4. */
export const semanticSearchInput = z.object({
  query: text("query").trim().min(1, "query is required").max(500, "query is at most 500 characters"),
  /** Beyond the spec: search another branch (indexed on demand). Default: the default branch. */
  branch: line("branch").min(1).max(255).optional(),
  options: z
    .object({
      limit: z.number().int().min(1, "limit is 1 to 100").max(100, "limit is 1 to 100").optional(),
      minSimilarity: z.number().min(0, "minSimilarity is 0 to 1").max(1, "minSimilarity is 0 to 1").optional(),
      fileTypes: z.array(line("fileTypes").min(1).max(20)).max(50).optional(),
      paths: z.array(line("paths").min(1).max(500)).max(50).optional(),
    })
    .optional(),
});
export type SemanticSearchInput = z.infer<typeof semanticSearchInput>;

export interface SearchResult {
  path: string;
  startLine: number;
  endLine: number;
  content: string;
  /** 0–1; lexical: lexical.ts; hybrid: the fused rank, 1 = first in both rankings. */
  score: number;
  chunkType: "function" | "class" | "method" | "block";
  chunkName?: string;
  language: string;
}

export interface SemanticSearchOutput {
  results: SearchResult[];
  query: string;
  totalResults: number;
  /** Milliseconds. */
  searchTime: number;
  /** LEXICAL_SEARCH_ENGINE "local" (lexical) or the embedding model's "<provider>:<model>" (hybrid); engine-label.ts. */
  engine: string;
}

/** A repository without an index and at most this many indexable files is indexed inside the first search. */
export const INLINE_INDEX_FILES = 300;
/** Lexical candidates fetched before filters and fusion. */
const CANDIDATES = 200;
/** After an embedding failure, searches wait this long (ms) before queueing another try (pushes queue one regardless). */
export const EMBED_RETRY_MS = 5 * 60_000;

/**
 * The embedding engine for this repository and caller, if its provider has one: none for an
 * anonymous caller (a query vector would spend the repository's key: docs/ai.md "Who reaches a
 * model, and the budget"), who gets the lexical engine. Query vectors are not counted in the budget.
 */
async function embeddingFor(db: Db, caller: Actor | null, repoId: string): Promise<EmbeddingEngine | undefined> {
  if (!caller) return undefined;
  const engine = await resolveAiEngine(db, repoId);
  return engine.kind === "model" ? engine.embedding : undefined;
}

/**
 * Searches `repo`'s branch for `input.query` for `caller` (anonymous: lexical only). `embedding`
 * overrides the caller's embedding engine (tests; null: lexical). Errors: NOT_FOUND when the
 * branch does not exist.
 */
export async function semanticSearch(
  db: Db,
  caller: Actor | null,
  repo: AuthorizedRepo,
  input: SemanticSearchInput,
  embedding?: EmbeddingEngine | null,
): Promise<SemanticSearchOutput> {
  const started = performance.now();
  const branch = input.branch ?? repo.defaultBranch;
  const limit = input.options?.limit ?? 10;
  const minSimilarity = input.options?.minSimilarity ?? 0.4;
  // the ref store read directly (no git process on every search: ref-files.ts)
  const tip = (await branchTips(repo.gitDir, [branch])).get(branch) ?? null;
  if (!tip && input.branch) throw new AppError("NOT_FOUND", `branch "${branch}" not found`);
  const emb = embedding === null ? undefined : (embedding ?? (await embeddingFor(db, caller, repo.id)));
  const select = {
    id: true,
    commitSha: true,
    status: true,
    embeddingModel: true,
    embeddingFailedAt: true,
    chunker: true,
    updatedAt: true,
  } as const;
  let index = await db.searchIndex.findUnique({ where: { repoId_branch: { repoId: repo.id, branch } }, select });
  if (tip && (!index || index.commitSha !== tip)) {
    if (!index?.commitSha && (await indexableFiles(repo.gitDir, tip)).length <= INLINE_INDEX_FILES) {
      await refreshSearchIndex(db, repo.id, branch);
      index = await db.searchIndex.findUnique({ where: { repoId_branch: { repoId: repo.id, branch } }, select });
      if (emb) await queueIndexRefresh(repo.id, branch); // vectors in the background
    } else await queueIndexRefresh(repo.id, branch);
  } else if (tip && index && index.chunker < CHUNKER_VERSION) {
    await queueIndexRefresh(repo.id, branch); // cut by an older chunker (chunk.ts): answers from it meanwhile
  } else if (
    tip &&
    emb &&
    index &&
    index.embeddingModel !== emb.engine &&
    !(index.embeddingFailedAt && Date.now() - index.embeddingFailedAt.getTime() < EMBED_RETRY_MS)
  ) {
    await queueIndexRefresh(repo.id, branch); // vectors missing (a new model, or the last try failed a while ago)
  }
  const done = (results: SearchResult[], engine: string): SemanticSearchOutput => ({
    results,
    query: input.query,
    totalResults: results.length,
    searchTime: Math.round((performance.now() - started) * 100) / 100,
    engine,
  });
  if (!index?.commitSha) return done([], emb && index?.embeddingModel === emb.engine ? emb.engine : LEXICAL_SEARCH_ENGINE);

  const words = queryWords(input.query);
  const globs = input.options?.paths?.length ? picomatch(input.options.paths, { dot: true }) : null;
  const keep = (h: { path: string }) => !globs || globs(h.path);
  const fileTypes = input.options?.fileTypes;
  // the query's embedding (a provider round trip) and the vector scan run while the lexical query
  // is in the database; the provider down at query time, or vectors over the memory budget
  // (vectors.ts): the lexical answer, labelled local, rather than an error
  const hybrid = emb && index.embeddingModel === emb.engine;
  // the version read with this row: a copy of the vectors loaded before another process changed them is not used (vectors.ts)
  const version = vectorVersion(index);
  const indexId = index.id;
  const near = hybrid
    ? embedQuery(emb, input.query).then(
        (q) => nearestChunks(db, indexId, version, emb.engine, q, CANDIDATES),
        (e: unknown) => {
          if (e instanceof EmbeddingProviderError) return null;
          throw e;
        },
      )
    : null;
  const [found, vectors] = await Promise.all([lexicalSearch(db, index.id, words, globs ? CANDIDATES * 5 : CANDIDATES, fileTypes), near]);
  const lexical = found.filter(keep);
  if (hybrid && vectors) {
    const fused = await fuseRankings(db, index.id, lexical, vectors, { keep, fileTypes, minScore: minSimilarity, limit });
    return done(fused.map(resultOf), emb.engine);
  }
  return done(
    lexical
      .filter((h) => h.score >= minSimilarity)
      .slice(0, limit)
      .map(resultOf),
    LEXICAL_SEARCH_ENGINE,
  );
}

function resultOf(h: ChunkHit): SearchResult {
  return {
    path: h.path,
    startLine: h.startLine,
    endLine: h.endLine,
    content: h.content,
    score: Math.round(h.score * 1000) / 1000,
    chunkType: (["function", "class", "method", "block"].includes(h.chunkType) ? h.chunkType : "block") as SearchResult["chunkType"],
    ...(h.name ? { chunkName: h.name } : {}),
    language: h.language,
  };
}

/**
 * ai.searchIndexStatus: how far the index of `branch` is (the search page's indexing state).
 * `embeddingError` is the generic message (engine and HTTP status), the provider's words (keys
 * removed: server/ai/redact.ts) for repository admins only.
 */
export async function searchIndexStatus(db: Db, repo: AuthorizedRepo, branch?: string) {
  const name = branch ?? repo.defaultBranch;
  const tip = (await branchTips(repo.gitDir, [name])).get(name) ?? null;
  const index = await db.searchIndex.findUnique({
    where: { repoId_branch: { repoId: repo.id, branch: name } },
    select: {
      status: true,
      commitSha: true,
      fileCount: true,
      chunkCount: true,
      indexedAt: true,
      embeddingModel: true,
      embeddingError: true,
      embeddingErrorDetail: true,
      embeddingFailedAt: true,
      chunker: true,
    },
  });
  return {
    branch: name,
    /** missing: never indexed; indexing / failed: the last refresh; ready: see `stale`. */
    status: (index?.commitSha || index?.status === "indexing" || index?.status === "failed" ? index.status : "missing") as
      "missing" | "pending" | "indexing" | "ready" | "failed",
    /** True when the branch moved past the indexed commit, or an older chunker cut it (a refresh is queued). */
    stale: !!tip && (index?.commitSha !== tip || (!!index && index.chunker < CHUNKER_VERSION)),
    commitSha: index?.commitSha ?? null,
    files: index?.fileCount ?? 0,
    chunks: index?.chunkCount ?? 0,
    indexedAt: index?.indexedAt?.toISOString() ?? null,
    embeddingModel: index?.embeddingModel ?? null,
    /** The last embedding attempt's provider error (searches are lexical until a later refresh embeds every chunk), else null. */
    embeddingError: (repo.permission === "admin" && index?.embeddingErrorDetail) || index?.embeddingError || null,
    /** When that attempt failed (ISO 8601), else null. */
    embeddingFailedAt: index?.embeddingFailedAt?.toISOString() ?? null,
  };
}
