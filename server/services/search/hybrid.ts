/**
 * The hybrid engine's fusion (issue #10 "Semantic search": "a hybrid of vector similarity and
 * lexical score (reciprocal rank fusion)"; docs/ai.md "Engines"): one ranking from the lexical
 * engine's and the vectors' (Cormack, Clarke & Büttcher 2009, k = 60).
 */
import type { Db } from "@/server/db";
import type { ChunkHit } from "./lexical";

/** Reciprocal rank fusion constant (Cormack et al. 2009). */
const RRF_K = 60;

/**
 * Vector and lexical rankings fused by reciprocal rank: Σ 1/(60 + rank). The score is the fused
 * value over its maximum (first in both lists = 1); a chunk only one ranking found scores ≤ 0.5.
 * So minSimilarity keeps chunks both engines agree on first; with the default 0.4 a chunk found
 * by one ranking stays while it is in that ranking's top ~30. `lexical`: lexicalSearch's hits
 * (already path-filtered by `keep`); `near`: nearestChunks's, best first. Chunks only the vectors
 * found are read with their paths (one query each for chunks and files), then filtered by `keep`
 * and `fileTypes` (extensions).
 */
export async function fuseRankings(db: Db, indexId: string, lexical: ChunkHit[], near: Array<{ chunkId: number }>, keep: (h: { path: string }) => boolean, fileTypes?: string[]): Promise<ChunkHit[]> {
  const fused = new Map<string, { hit?: ChunkHit; chunkId: number; value: number }>();
  lexical.forEach((h, i) => fused.set(`${h.chunkId}|${h.path}`, { hit: h, chunkId: h.chunkId, value: 1 / (RRF_K + i + 1) }));
  const byChunk = new Map<number, string[]>();
  for (const [k, v] of fused) byChunk.set(v.chunkId, [...(byChunk.get(v.chunkId) ?? []), k]);
  const vectorOnly: number[] = [];
  near.forEach((n, i) => {
    const keys = byChunk.get(n.chunkId);
    if (keys) for (const k of keys) fused.get(k)!.value += 1 / (RRF_K + i + 1);
    else {
      fused.set(`${n.chunkId}|`, { chunkId: n.chunkId, value: 1 / (RRF_K + i + 1) });
      vectorOnly.push(n.chunkId);
    }
  });
  // chunks only the vectors found: their paths and text (one query)
  const extra = await chunkRows(db, indexId, vectorOnly);
  const out: ChunkHit[] = [];
  const max = 2 / (RRF_K + 1);
  for (const v of fused.values()) {
    const hits = v.hit ? [v.hit] : (extra.get(v.chunkId) ?? []);
    for (const h of hits) if (keep(h) && (!fileTypes?.length || fileTypes.some((t) => h.path.endsWith(`.${t.replace(/^\./, "")}`)))) out.push({ ...h, score: v.value / max, rank: v.value });
  }
  return out.sort((a, b) => b.score - a.score || a.chunkId - b.chunkId);
}

/** Chunks `ids` with every path of the index holding them. */
async function chunkRows(db: Db, indexId: string, ids: number[]): Promise<Map<number, ChunkHit[]>> {
  const out = new Map<number, ChunkHit[]>();
  if (!ids.length) return out;
  const chunks = await db.searchChunk.findMany({ where: { id: { in: ids } }, select: { id: true, blobOid: true, startLine: true, endLine: true, chunkType: true, name: true, language: true, content: true } });
  const files = await db.searchFile.findMany({ where: { indexId, blobOid: { in: [...new Set(chunks.map((c) => c.blobOid))] } }, select: { path: true, blobOid: true } });
  for (const c of chunks) {
    out.set(c.id, files.filter((f) => f.blobOid === c.blobOid).map((f) => ({ chunkId: c.id, path: f.path, startLine: c.startLine, endLine: c.endLine, chunkType: c.chunkType, name: c.name, language: c.language, content: c.content, rank: 0, score: 0 })));
  }
  return out;
}
