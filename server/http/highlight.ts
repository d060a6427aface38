/**
 * POST /api/highlight (docs/api.md "Diff highlighting endpoint"): syntax highlighting of diff lines
 * the diff viewer already holds, for the files it scrolls to (the page highlights only its first
 * screen; docs/performance.md "Large pull request in the browser: `e2e/pulls-large.spec.ts`").
 *
 *   {files: [{path, lines: string[]}]} → 200 {styles, files: [(runs per line) | null]}
 *
 * The same shape as the page's highlights (lib/highlight/runs.ts `DiffHighlights`), from the
 * same shiki setup (lib/highlight/diff.ts `highlightLines`): `path` only picks the
 * language. It reads no repository data, so it needs no authorization (like a Markdown preview);
 * its cost is bounded by the input: at most MAX_FILES files and MAX_LINES lines of at most
 * MAX_LINE_CHARS characters, within the 1 MiB body cap, and 120 requests a minute per address (a reader scrolling
 * through a 100k-line diff sends about 50)
 * (`highlightRequests`, server/rate-limit.ts; 429 with Retry-After). Bad input → 400 with the reason.
 */
import { z } from "zod";
import { AppError } from "@/server/errors";
import { text } from "@/server/validation/strings";
import { highlightLines } from "@/server/highlight";
import { addressKey, consume } from "@/server/rate-limit";
import { clientAddress } from "./client-address";
import { handle, json, readJson } from "./respond";

/** Most files per request. */
export const MAX_FILES = 100;
/** Most lines per request, over all files. */
export const MAX_LINES = 2_000;
/** Longest line accepted (longer lines are not tokenized anyway: shiki's tokenizeMaxLineLength is 4,000). */
export const MAX_LINE_CHARS = 10_000;

const input = z.object({
  files: z
    .array(z.object({ path: text("path").min(1).max(4096), lines: z.array(text("lines[]").max(MAX_LINE_CHARS)) }))
    .max(MAX_FILES)
    .refine((files) => files.reduce((n, f) => n + f.lines.length, 0) <= MAX_LINES, `at most ${MAX_LINES} lines per request`),
});

export function postHighlight(req: Request): Promise<Response> {
  return handle(async () => {
    await consume("highlightRequests", addressKey(clientAddress(req.headers)));
    const parsed = input.safeParse(await readJson(req));
    if (!parsed.success)
      throw new AppError("BAD_REQUEST", parsed.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; "));
    return json(await highlightLines(parsed.data.files), 200, { "cache-control": "no-store" });
  }, req);
}
