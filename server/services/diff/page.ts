/**
 * The input of every hunk-page procedure (pulls.getDiffPage, repos.commitDiffPage,
 * repos.compareDiffPage; docs/pulls.md "File list and hunk pages"): a cursor, a file limit and a
 * line budget, turned into the options of server/git/diff-page.ts.
 */
import { z } from "zod";
import { line } from "@/server/validation/strings";
import { PAGE_MAX_FILES, parseCursor, type DiffPageOptions } from "@/server/git/diff-page";
import { maxLinesInput } from "./filter";

/** Input fields of a hunk page: `cursor` (a page's `nextCursor`; absent = the first page), `limit` (files), `maxLines` (hunk lines). */
export const diffPageInput = {
  cursor: line("cursor")
    .max(20)
    .regex(/^\d{1,6}(:\d{1,7})?$/, 'cursor must be a page\'s nextCursor ("<file>" or "<file>:<hunk>")')
    .optional(),
  limit: z
    .number({ error: "limit must be a number" })
    .int("limit must be an integer")
    .min(1, "limit must be at least 1")
    .max(PAGE_MAX_FILES, `limit must be at most ${PAGE_MAX_FILES}`)
    .optional(),
  maxLines: maxLinesInput,
};

export interface DiffPageFilter {
  cursor?: string;
  limit?: number;
  maxLines?: number;
}

/** The options of server/git/diff-page.ts for `filter` (the cursor is already validated by `diffPageInput`). */
export function pageOptions(filter: DiffPageFilter): DiffPageOptions {
  return {
    cursor: filter.cursor ? (parseCursor(filter.cursor) ?? undefined) : undefined,
    limit: filter.limit,
    limits: filter.maxLines ? { maxTotalLines: filter.maxLines } : undefined,
  };
}
