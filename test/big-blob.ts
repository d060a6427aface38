/**
 * Fixtures for the blob memory test and bench (docs/performance.md "Blob memory"): a commit holding
 * a blob of any size, built without holding it in memory, and the peak RSS growth of this process
 * during a piece of work. Shared by test/integration/blob-limits.test.ts and
 * bench/blob-memory.bench.ts.
 */
import { createWriteStream } from "node:fs";
import { once } from "node:events";
import { gitText } from "@/server/git/exec";

/** Writes `bytes` bytes of `pattern` repeated (the last copy cut) to `file`, streaming: memory stays at one pattern. */
export async function writeRepeatedFile(file: string, bytes: number, pattern: Buffer): Promise<void> {
  const out = createWriteStream(file);
  let left = bytes;
  while (left > 0) {
    const piece = left >= pattern.length ? pattern : pattern.subarray(0, left);
    left -= piece.length;
    if (!out.write(piece)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
}

/** Stores the file at `file` as a blob of the bare repository `gitDir` (git-hash-object(1) -w, which streams large files). Returns its sha. */
export async function hashFile(gitDir: string, file: string): Promise<string> {
  return (await gitText(["hash-object", "-w", "--", file], { gitDir, timeoutMs: 0 })).trim();
}

/** Stores `content` as a blob. Returns its sha. */
export async function hashBytes(gitDir: string, content: Buffer | string): Promise<string> {
  return (await gitText(["hash-object", "-w", "--stdin"], { gitDir, input: content })).trim();
}

/**
 * Commits blobs at the root of a tree onto `branch` (git-mktree(1), git-commit-tree(1),
 * git-update-ref(1)); the branch's previous tip, if any, becomes the parent. Returns the commit sha.
 */
export async function commitBlobs(gitDir: string, branch: string, files: Record<string, string>): Promise<string> {
  const listing = Object.entries(files)
    .map(([name, sha]) => `100644 blob ${sha}\t${name}\n`)
    .join("");
  const tree = (await gitText(["mktree"], { gitDir, input: listing })).trim();
  const parent = (await gitText(["for-each-ref", "--format=%(objectname)", `refs/heads/${branch}`], { gitDir })).trim();
  const commit = (await gitText(["commit-tree", tree, ...(parent ? ["-p", parent] : []), "-m", "fixture"], { gitDir })).trim();
  await gitText(["update-ref", `refs/heads/${branch}`, commit], { gitDir });
  return commit;
}

/**
 * Runs `work` while sampling this process's RSS (every 25 ms, and after `work`); returns its
 * result with the baseline (RSS just before, bytes) and the peak growth over it (bytes).
 */
export async function peakRssGrowth<T>(work: () => Promise<T>): Promise<{ result: T; baseline: number; growth: number }> {
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 25);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, baseline, growth: peak - baseline };
  } finally {
    clearInterval(timer);
  }
}

/** Reads a web stream to its end, keeping only the byte count. */
export async function countBytes(body: ReadableStream<Uint8Array>): Promise<number> {
  let n = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return n;
    n += value.byteLength;
  }
}
