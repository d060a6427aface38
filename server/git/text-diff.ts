/**
 * A unified diff between two versions of one file given as bytes (a proposed change's `diff`,
 * docs/agent.md "Proposed changes and approval"), made by git itself (`git diff --no-index`, Myers,
 * 3 lines of context) on two temporary files under DATA_DIR/tmp/text-diff, always removed. Nothing
 * is written to any repository. The header names the repository path the way `git diff` does for a
 * commit:
 *
 *   diff --git a/<path> b/<path>
 *   new file mode 100644            (create)   | deleted file mode 100644 (delete)
 *   --- /dev/null | a/<path>
 *   +++ b/<path> | /dev/null
 *   @@ … hunks as git printed them
 */
import { randomUUID } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { getConfig } from "@/server/config";
import { runGit } from "./exec";

/** Largest diff kept (bytes of text); a longer one is cut at a line end with a note. */
export const MAX_TEXT_DIFF_BYTES = 256 * 1024;

/**
 * The unified diff from `before` to `after` of the file at `filePath` (null = the file does not
 * exist on that side; both null is refused). `mode` goes into the new/deleted file line. The result
 * is at most `maxBytes` characters plus a final "\ diff truncated at N bytes" line. A change that
 * changes nothing gives the header only. Errors: a plain Error when git fails (a server fault).
 */
export async function textDiff(
  filePath: string,
  before: Buffer | null,
  after: Buffer | null,
  opts: { mode?: string; maxBytes?: number } = {},
): Promise<string> {
  if (!before && !after) throw new Error("textDiff needs at least one side");
  const mode = opts.mode ?? "100644";
  const header = [`diff --git a/${filePath} b/${filePath}`];
  if (!before) header.push(`new file mode ${mode}`);
  if (!after) header.push(`deleted file mode ${mode}`);
  header.push(before ? `--- a/${filePath}` : "--- /dev/null", after ? `+++ b/${filePath}` : "+++ /dev/null");

  const dir = path.join(getConfig().dataDir, "tmp", "text-diff", randomUUID());
  mkdirSync(dir, { recursive: true });
  try {
    const oldFile = path.join(dir, "old");
    const newFile = path.join(dir, "new");
    writeFileSync(oldFile, before ?? Buffer.alloc(0));
    writeFileSync(newFile, after ?? Buffer.alloc(0));
    // exit 1 = the files differ; --text so a stray control byte still gives a line diff
    const r = await runGit(["diff", "--no-index", "--no-color", "--no-ext-diff", "--text", "-U3", "--", oldFile, newFile], {
      cwd: dir,
      maxBytes: 64 * 1024 * 1024,
    });
    if (r.code !== 0 && r.code !== 1) throw new Error(`git diff --no-index failed (${r.code}): ${r.stderr.trim()}`);
    const out = r.stdout.toString("utf8");
    const hunks = out.indexOf("\n@@");
    const body = hunks < 0 ? "" : out.slice(hunks + 1);
    const full = `${header.join("\n")}\n${body}`;
    const max = opts.maxBytes ?? MAX_TEXT_DIFF_BYTES;
    if (full.length <= max) return full;
    const cut = full.lastIndexOf("\n", max);
    return `${full.slice(0, cut < 0 ? max : cut + 1)}\\ diff truncated at ${max} bytes\n`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
