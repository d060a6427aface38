/**
 * The AI review with a model (docs/ai.md "AI review"): the pull
 * request's hunks go into the prompt (bounded: MAX_PROMPT_CHARS, MAX_FILE_LINES per file), the
 * model answers `{summary, findings[]}` through structured output (server/ai/structured.ts), and
 * every finding must name a changed file and one of its ADDED lines, or it is dropped
 * (`groundFindings`). The local rules' error findings (secrets, conflict markers) are always
 * added: they are deterministic and must never depend on a model noticing them.
 */
import { z } from "zod";
import { modelText } from "@/server/validation/strings";
import type { DiffFile } from "@/server/git/diff";
import type { ModelEngine } from "./engine";
import { generateStructured } from "./structured";
import { reviewLocally, type Finding, type LocalReview, type ReviewInput } from "./review-rules";

/** Most characters of diff in the prompt (about 15k tokens). */
export const MAX_PROMPT_CHARS = 60_000;
/** Most diff lines of one file in the prompt. */
export const MAX_FILE_LINES = 400;
/** Most findings taken from a model answer. */
export const MAX_MODEL_FINDINGS = 30;

export const modelReviewSchema = z.object({
  summary: modelText().describe("Two to five sentences on what the change does and its main risks, in Markdown."),
  findings: z
    .array(
      z.object({
        path: modelText().describe("A file path exactly as in the diff headers."),
        line: z.number().int().describe("A line number shown with '+' (an added line) in that file."),
        severity: z.enum(["info", "warning", "error"]),
        message: modelText().describe("The problem and what to do, one or two sentences."),
      }),
    )
    .describe("Real problems only: bugs, security issues, missing error handling, leftover debugging. No style nits."),
});
export type ModelReviewAnswer = z.infer<typeof modelReviewSchema>;

export const REVIEW_INSTRUCTIONS = [
  "You review a pull request's diff as a careful senior engineer.",
  "Report only real problems: bugs, security issues (secrets, injection), broken error handling, leftover debugging, race conditions.",
  "Never report style, naming or formatting nits. If there is nothing worth saying, return no findings.",
  "Each finding must name a file from the diff and the number of a line marked '+' (an added line) in that file.",
  "Severity: error = must not be merged (secrets, certain bugs); warning = likely problem; info = worth a look.",
].join("\n");

/**
 * The diff as the prompt shows it: per file a `### path` header, then its hunks with each line
 * numbered on the new side (`+12| text` added, ` 13| text` context, `-   | text` removed).
 * Stops at `maxChars`; files past it are listed by name only. Pure.
 */
export function diffPrompt(files: Pick<DiffFile, "newPath" | "status" | "isBinary" | "hunks">[], maxChars = MAX_PROMPT_CHARS): string {
  const out: string[] = [];
  let used = 0;
  const skipped: string[] = [];
  for (const f of files) {
    if (f.status === "deleted") continue;
    if (used >= maxChars) {
      skipped.push(f.newPath);
      continue;
    }
    const part: string[] = [`### ${f.newPath} (${f.status})`];
    if (f.isBinary) part.push("(binary file)");
    let shown = 0;
    for (const h of f.hunks) {
      if (shown >= MAX_FILE_LINES) break;
      part.push(`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`);
      let n = h.newStart;
      for (const l of h.lines) {
        if (shown++ >= MAX_FILE_LINES) {
          part.push("… (rest of the file's diff left out)");
          break;
        }
        if (l.type === "delete") part.push(`-    | ${l.content}`);
        else part.push(`${l.type === "add" ? "+" : " "}${String(n++).padStart(4)}| ${l.content}`);
      }
    }
    const text = part.join("\n") + "\n";
    if (used + text.length > maxChars && used > 0) {
      skipped.push(f.newPath);
      used = maxChars;
      continue;
    }
    out.push(text.slice(0, maxChars));
    used += text.length;
  }
  if (skipped.length) out.push(`(${skipped.length} more changed files not shown: ${skipped.slice(0, 50).join(", ")})`);
  return out.join("\n");
}

/**
 * Keeps the model's findings that name a changed file and an added line of it (`added`: path →
 * added line numbers), at most MAX_MODEL_FINDINGS; messages trimmed to 1 000 characters.
 * Returns them and how many were dropped. Pure.
 */
export function groundFindings(
  answer: ModelReviewAnswer["findings"],
  added: ReadonlyMap<string, ReadonlySet<number>>,
): { findings: Finding[]; dropped: number } {
  const findings: Finding[] = [];
  let dropped = 0;
  const seen = new Set<string>();
  for (const f of answer) {
    const lines = added.get(f.path);
    const message = f.message.trim().slice(0, 1000);
    const key = `${f.path}\0${f.line}\0${message}`;
    if (!lines?.has(f.line) || !message || seen.has(key) || findings.length >= MAX_MODEL_FINDINGS) {
      dropped++;
      continue;
    }
    seen.add(key);
    findings.push({ path: f.path, line: f.line, severity: f.severity, message, rule: "model" });
  }
  return { findings, dropped };
}

/**
 * One model review of `input` (its files' diff in `diffFiles`). The findings: the grounded model
 * findings plus the local rules' error findings on lines the model did not already flag; the
 * state is changes_requested when any error finding remains. Errors: AppError
 * SERVICE_UNAVAILABLE when the provider fails (generateStructured).
 */
export async function reviewWithModel(
  engine: ModelEngine,
  input: ReviewInput,
  diffFiles: Pick<DiffFile, "newPath" | "status" | "isBinary" | "hunks">[],
  abortSignal?: AbortSignal,
): Promise<LocalReview & { dropped: number }> {
  const answer = await generateStructured({
    engine,
    schema: modelReviewSchema,
    instructions: REVIEW_INSTRUCTIONS,
    prompt: `Review this pull request (${input.totalFiles} changed files).\n\n${diffPrompt(diffFiles)}`,
    ...(abortSignal ? { abortSignal } : {}),
  });
  const added = new Map(input.files.map((f) => [f.path, new Set(f.added.map((a) => a.line))]));
  const { findings, dropped } = groundFindings(answer.findings, added);
  const local = reviewLocally(input);
  const flagged = new Set(findings.map((f) => `${f.path}\0${f.line}`));
  const musts = local.findings.filter((f) => f.severity === "error" && !flagged.has(`${f.path}\0${f.line}`));
  const all = [...musts, ...findings];
  const state = all.some((f) => f.severity === "error") ? "changes_requested" : "commented";
  const extra = musts.length
    ? `\n\nThe local checks also found ${musts.length} secret or conflict marker line${musts.length === 1 ? "" : "s"}.`
    : "";
  const counts = {
    model: findings.length,
    ...(musts.length
      ? { secret: musts.filter((f) => f.rule === "secret").length, conflict: musts.filter((f) => f.rule === "conflict").length }
      : {}),
  };
  return { findings: all, state, body: (answer.summary.trim() || "Reviewed the changes.") + extra, counts, dropped };
}
