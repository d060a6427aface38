/**
 * ai.generatePRDescription (spec "AI router"; docs/ai.md "Pull request descriptions"): a title,
 * body, summary, categorised changes and breaking changes for the commits `sourceBranch` has that
 * `targetBranch` lacks — read from the repository (repos.compare's service: merge base, commit
 * list, three-dot diff), bounded (MAX_AI_COMMITS commits, DIFF_BUDGET_LINES diff lines,
 * PROMPT_DIFF_CHARS of diff in a prompt). The local engine writes it from the commits and file
 * statistics; a model gets the same facts in its prompt and answers the spec's shape (structured
 * output). Every answer carries `engine`. Decisions: docs/ai.md "Pull request descriptions".
 */
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import type { AiEngine, ModelEngine } from "@/server/ai/engine";
import type { Actor } from "@/server/auth/actor";
import { asSeenBy } from "@/server/ai/redact";
import { generateStructured } from "@/server/ai/structured";
import { commitPaths } from "@/server/git/commit-paths";
import {
  keepExisting,
  localPRDescription,
  type DescriptionInput,
  type DescriptionStyle,
  type PRDescription,
} from "@/server/ai/local/pr-description";
import type { ChangeCategory } from "@/server/ai/local/conventional";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { compare, compareAcross, type Comparison } from "@/server/services/diff/compare-refs";
import { prDescriptionModelSchema, type PRDescriptionInput } from "./writing-schemas";
import { engineForCaller } from "./budget";

/** Most commits read (oldest first); the summary still counts them all. */
export const MAX_AI_COMMITS = 100;
/** Hunk lines of the diff read from git (the rest of the range is counted, not read). */
export const DIFF_BUDGET_LINES = 2_000;
/** Characters of diff text a model prompt holds at most. */
export const PROMPT_DIFF_CHARS = 24_000;
/** Characters of one commit message in a prompt. */
const PROMPT_MESSAGE_CHARS = 2_000;

export type PRDescriptionResult = PRDescription & { engine: string };

export interface GenerateDeps {
  /** The engine to use instead of the repository's (tests; a caller that resolved it already). */
  engine?: AiEngine;
  /** The source branch's repository when it is not `repo` (authorized for read by the caller). */
  sourceRepo?: AuthorizedRepo;
}

/**
 * Describes `input.sourceBranch` against `input.targetBranch` of `repo` with the repository's
 * engine for `caller` (budget.ts `engineForCaller`: anonymous → local, a repository key's request
 * counted) or `deps.engine`. Errors: NOT_FOUND for an unknown branch;
 * BAD_REQUEST when the histories are unrelated or the source has no commits the target lacks;
 * TOO_MANY_REQUESTS when the repository key's daily budget is used up; SERVICE_UNAVAILABLE when
 * the model fails or answers malformed twice (never a 500; the provider's words for admins only).
 */
export async function generatePRDescription(
  db: Db,
  caller: Actor | null,
  repo: AuthorizedRepo,
  input: PRDescriptionInput,
  deps: GenerateDeps = {},
): Promise<PRDescriptionResult> {
  const filter = { maxLines: DIFF_BUDGET_LINES };
  const cmp: Comparison =
    deps.sourceRepo && deps.sourceRepo.id !== repo.id
      ? await compareAcross(db, repo, input.targetBranch, deps.sourceRepo, input.sourceBranch, filter)
      : await compare(db, repo, input.targetBranch, input.sourceBranch, filter);
  if (cmp.totalCommits === 0)
    throw new AppError("BAD_REQUEST", `${input.sourceBranch} has no commits that ${input.targetBranch} lacks: nothing to describe`);
  const commits = cmp.commits.slice(0, MAX_AI_COMMITS);
  // the source branch's repository holds its commits (and, through alternates, their parents)
  const paths = await commitPaths(
    (deps.sourceRepo ?? repo).gitDir,
    commits.map((c) => c.sha),
  );
  const facts: DescriptionInput = {
    sourceBranch: input.sourceBranch,
    targetBranch: input.targetBranch,
    commits: commits.map((c) => ({ sha: c.sha, message: c.message, paths: paths.get(c.sha) ?? [] })),
    totalCommits: cmp.totalCommits,
    files: cmp.diff.files.map((f) => ({ path: f.newPath, additions: f.additions, deletions: f.deletions })),
    totalFiles: cmp.diff.totalFiles,
    totalAdditions: cmp.diff.totalAdditions,
    totalDeletions: cmp.diff.totalDeletions,
    existingTitle: input.existingTitle,
    existingBody: input.existingBody,
    style: input.style,
  };
  const engine = deps.engine ?? (await engineForCaller(db, caller, repo));
  const local = localPRDescription(facts);
  if (engine.kind === "local") return { ...local, engine: engine.engine };
  return { ...(await asSeenBy(repo.permission, () => modelDescription(engine, facts, cmp, local))), engine: engine.engine };
}

const STYLE_GUIDE: Record<DescriptionStyle, string> = {
  concise: "Style concise: the body is the summary sentence and at most 10 bullet points, no headings.",
  detailed:
    "Style detailed: the body has '## Summary', '## Changes' (grouped under '### Features', '### Bug fixes', '### Refactoring', '### Documentation', '### Tests', '### Maintenance'), '## Breaking changes' when any, and '## Files' with the most changed files.",
  conventional:
    "Style conventional: the title is a Conventional Commits header 'type(scope): subject' (types feat, fix, refactor, docs, test, chore, perf, build, ci); the body is a changelog grouped by type with a '### BREAKING CHANGES' section when any.",
};

/** The system prompt: what to write, the rules, the style. */
export function descriptionInstructions(style: DescriptionStyle): string {
  return [
    "You write pull request descriptions for a git hosting platform.",
    "Describe only what the commits and the diff show; never invent changes, issue numbers or people.",
    "title: at most 72 characters, imperative mood. summary: one or two sentences. body: Markdown.",
    "changes: one entry per meaningful change, category one of feature, fix, refactor, docs, test, chore.",
    "breakingChanges: what breaks for users of the code ('!' after the type, 'BREAKING CHANGE:' footers, removed or renamed public APIs); an empty list when nothing breaks.",
    "If the author already wrote a title or body (given below), keep their wording and intent; add to it rather than replace it.",
    STYLE_GUIDE[style],
  ].join("\n");
}

/** The diff text for a prompt: per file a header with its counts, then its hunks, cut at `maxChars` (the rest named, not shown). */
export function promptDiff(cmp: Pick<Comparison, "diff">, maxChars = PROMPT_DIFF_CHARS): string {
  const out: string[] = [];
  let used = 0;
  const left: string[] = [];
  for (const f of cmp.diff.files) {
    const name = f.oldPath !== f.newPath ? `${f.oldPath} → ${f.newPath}` : f.newPath;
    const head = `--- ${name} (${f.status}, +${f.additions} −${f.deletions}${f.isBinary ? ", binary" : ""})`;
    const lines = [head];
    for (const h of f.hunks) {
      lines.push(`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@${h.header ? ` ${h.header}` : ""}`);
      for (const l of h.lines) lines.push(`${l.type === "add" ? "+" : l.type === "delete" ? "-" : " "}${l.content.slice(0, 300)}`);
    }
    const chunk = lines.join("\n");
    if (used + chunk.length > maxChars) {
      if (used + head.length <= maxChars) {
        out.push(`${head} [hunks left out]`);
        used += head.length + 16;
      } else left.push(f.newPath);
      continue;
    }
    out.push(chunk);
    used += chunk.length + 1;
  }
  const notShown = left.length + Math.max(0, cmp.diff.totalFiles - cmp.diff.files.length);
  if (notShown > 0) out.push(`[${notShown} more changed file${notShown === 1 ? "" : "s"} not shown]`);
  return out.join("\n");
}

/** The user prompt: branches, what the author wrote, the commits (oldest first), totals and the bounded diff. */
export function descriptionPrompt(facts: DescriptionInput, cmp: Pick<Comparison, "diff">): string {
  const commits = facts.commits.map((c) => `commit ${c.sha.slice(0, 10)}\n${c.message.slice(0, PROMPT_MESSAGE_CHARS)}`).join("\n\n");
  const more = (facts.totalCommits ?? facts.commits.length) - facts.commits.length;
  return [
    `Source branch: ${facts.sourceBranch}`,
    `Target branch: ${facts.targetBranch}`,
    facts.existingTitle?.trim() ? `The author's title: ${facts.existingTitle.trim()}` : "",
    facts.existingBody?.trim() ? `The author's body:\n${facts.existingBody.trim().slice(0, 8_000)}` : "",
    `Commits (${facts.totalCommits ?? facts.commits.length}, oldest first${more > 0 ? `; the last ${more} not shown` : ""}):\n\n${commits}`,
    `Totals: ${facts.totalFiles ?? facts.files.length} files changed, +${facts.totalAdditions ?? 0} −${facts.totalDeletions ?? 0}`,
    `Diff:\n${promptDiff(cmp)}`,
  ]
    .filter(Boolean)
    .join("\n\n");
}

/**
 * The model's description: its answer, with the title bounded (256), the breaking changes the
 * commits themselves declare always listed, and what the author wrote kept (`keepExisting`).
 */
async function modelDescription(
  engine: ModelEngine,
  facts: DescriptionInput,
  cmp: Comparison,
  local: PRDescription,
): Promise<PRDescription> {
  const style = facts.style ?? "detailed";
  const answer = await generateStructured({
    engine,
    schema: prDescriptionModelSchema,
    instructions: descriptionInstructions(style),
    prompt: descriptionPrompt(facts, cmp),
  });
  const title = answer.title.trim().split("\n")[0]!.slice(0, 256) || local.title;
  const breakingChanges = [...new Set([...answer.breakingChanges.map((b) => b.trim()).filter(Boolean), ...local.breakingChanges])];
  const out: PRDescription = {
    title,
    body: answer.body.trim() || local.body,
    summary: answer.summary.trim() || local.summary,
    changes: answer.changes
      .map((c) => ({ category: c.category as ChangeCategory, description: c.description.trim() }))
      .filter((c) => c.description),
    breakingChanges,
  };
  return keepExisting(out, facts.existingTitle, facts.existingBody, style);
}
