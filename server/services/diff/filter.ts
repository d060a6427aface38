/**
 * The file filter of every diff-returning procedure (repos.commit, repos.compare, pulls.getDiff):
 * one `path`, or a page of `paths`, and an optional smaller hunk-line budget. Diff shape and
 * limits: docs/pulls.md "Diff".
 */
import { z } from "zod";
import { text } from "@/server/validation/strings";
import { DIFF_LIMITS, type DiffOptions } from "@/server/git/diff";

/** Most paths one `paths` filter may name (a page of the file list). */
export const MAX_FILTER_PATHS = 500;

/** A smaller hunk-line budget for one response (100–50,000; default 50,000), e.g. a page's first paint. */
export const maxLinesInput = z
  .number({ error: "maxLines must be a number" })
  .int("maxLines must be an integer")
  .min(100, "maxLines must be at least 100")
  .max(DIFF_LIMITS.maxTotalLines, `maxLines must be at most ${DIFF_LIMITS.maxTotalLines}`)
  .optional();

/** Input fields shared by every diff-returning procedure: `path` (one file) or `paths` (a page of files). */
export const diffFilterInput = {
  path: text("path").min(1).max(4096).optional(),
  paths: z
    .array(text("paths[]").min(1).max(4096), { error: "paths must be a list of strings" })
    .max(MAX_FILTER_PATHS, `paths can name at most ${MAX_FILTER_PATHS} files`)
    .optional(),
  maxLines: maxLinesInput,
};

export interface DiffFilter {
  path?: string;
  paths?: string[];
  maxLines?: number;
}

/** The options of server/git/diff.ts for `filter`: its paths, and `maxLines` as the total line budget. */
export function diffOptions(filter: DiffFilter): DiffOptions {
  return { path: filter.path, paths: filter.paths, limits: filter.maxLines ? { maxTotalLines: filter.maxLines } : undefined };
}
