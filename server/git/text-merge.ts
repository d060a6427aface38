/**
 * Git on loose texts, not repository objects (the AI code helpers: conflict suggestions, file
 * explanations): a three-way merge of three versions of one file (`git merge-file -p --diff3`,
 * git-merge-file(1)) and a unified diff of two versions (`git diff --no-index`). The texts are
 * written to fixed names in a private temporary folder under DATA_DIR/tmp/text (always removed),
 * and git runs there: no user input reaches git's argument list, no shell.
 */
import { randomUUID } from "node:crypto";
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { getConfig } from "@/server/config";
import { runGit } from "./exec";
import { MERGE_MARKER_SIZE } from "@/lib/conflict-regions";

/** Largest text accepted per side (bytes, 4 MiB). Callers bound their inputs below this. */
export const MAX_TEXT_BYTES = 4 * 1024 * 1024;
/** Conflict marker length used by `mergeTexts` (lib/conflict-regions.ts, where the conflicts view parses it). */
export { MERGE_MARKER_SIZE };

async function withTexts<T>(texts: Record<string, string>, fn: (dir: string) => Promise<T>): Promise<T> {
  for (const [name, t] of Object.entries(texts)) {
    if (Buffer.byteLength(t, "utf8") > MAX_TEXT_BYTES) throw new Error(`${name} is larger than ${MAX_TEXT_BYTES} bytes`);
  }
  const dir = path.join(getConfig().dataDir, "tmp", "text", randomUUID());
  await mkdir(dir, { recursive: true });
  try {
    for (const [name, t] of Object.entries(texts)) await writeFile(path.join(dir, name), t);
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * `git merge-file -p --diff3 --marker-size=MERGE_MARKER_SIZE -L ours -L base -L theirs`: the
 * merged text, with diff3-style conflict blocks (`<<<…<` ours, `|||…|` base, `===…=`, theirs
 * `>>>…>`, each marker MERGE_MARKER_SIZE characters) where both sides changed the same lines.
 * `conflicts` is git's count (its exit code). Errors: a plain Error when git fails otherwise.
 */
export async function mergeTexts(ours: string, base: string, theirs: string): Promise<{ text: string; conflicts: number }> {
  return withTexts({ ours, base, theirs }, async (cwd) => {
    const r = await runGit(
      [
        "merge-file",
        "-p",
        "--diff3",
        `--marker-size=${MERGE_MARKER_SIZE}`,
        "-L",
        "ours",
        "-L",
        "base",
        "-L",
        "theirs",
        "ours",
        "base",
        "theirs",
      ],
      { cwd, maxBytes: 4 * MAX_TEXT_BYTES },
    );
    // exit status: the number of conflicts (capped at 127), negative (>127) on error
    if (r.code < 0 || r.code > 127) throw new Error(`git merge-file failed (${r.code}): ${r.stderr.trim()}`);
    return { text: r.stdout.toString("utf8"), conflicts: r.code };
  });
}

/**
 * A unified diff of `oldText` → `newText` (`git diff --no-index -U<context>`), hunks only (from
 * the first `@@` line; empty when the texts are equal). Errors: a plain Error when git fails.
 */
export async function diffTexts(oldText: string, newText: string, context = 3): Promise<string> {
  if (oldText === newText) return "";
  return withTexts({ old: oldText, new: newText }, async (cwd) => {
    const r = await runGit(
      ["diff", "--no-index", "--no-color", "--no-ext-diff", `-U${Math.max(0, Math.min(20, context | 0))}`, "old", "new"],
      { cwd, maxBytes: 4 * MAX_TEXT_BYTES },
    );
    if (r.code !== 0 && r.code !== 1) throw new Error(`git diff --no-index failed (${r.code}): ${r.stderr.trim()}`);
    const out = r.stdout.toString("utf8");
    const at = out.search(/^@@ /m);
    return at < 0 ? "" : out.slice(at);
  });
}
