/**
 * ai.explainFileDiff {repoId, prId?, path, oldContent, newContent, context?} → {summary,
 * explanation, impact, suggestions?, concerns?, engine} (spec "AI router"; docs/ai.md).
 *
 * Local engine: the structural diff (server/ai/explain/structural.ts: declarations added,
 * removed, changed, exports gained and lost) and the line rules (line-rules.ts: concerns on
 * added lines, impact from size and kind of file); files without a grammar get a line-based
 * summary. With a model: `generateStructured` with the unified diff (bounded) and the outline
 * changes in the prompt; the local secret concerns are added to the model's if it missed them.
 */
import { z } from "zod";
import { modelText } from "@/server/validation/strings";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import type { AiEngine, ModelEngine } from "@/server/ai/engine";
import type { Actor } from "@/server/auth/actor";
import { asSeenBy } from "@/server/ai/redact";
import { generateStructured } from "@/server/ai/structured";
import { engineForCaller } from "./budget";
import { describeDecls, structuralDiff, type StructuralDiff } from "@/server/ai/explain/structural";
import { changedLines, fileKind, impactOf, lineConcerns, type Impact } from "@/server/ai/explain/line-rules";
import { languageOf } from "@/server/ai/syntax/parser";
import { diffTexts } from "@/server/git/text-merge";
import type { AuthorizedRepo } from "@/server/services/repos/access";

/** Largest oldContent/newContent accepted (bytes of UTF-8, 1 MiB each). */
export const MAX_EXPLAIN_BYTES = 1024 * 1024;
/** Characters of unified diff put in a model's prompt at most. */
export const MAX_PROMPT_DIFF_CHARS = 60_000;

export interface ExplainInput {
  prId?: string;
  path: string;
  oldContent: string;
  newContent: string;
  context?: { commitMessage?: string; prTitle?: string; prBody?: string };
}

export interface FileExplanation {
  summary: string;
  explanation: string;
  impact: Impact;
  suggestions?: string[];
  concerns?: string[];
  /** "local" or "<provider>:<model>". */
  engine: string;
}

const modelSchema = z.object({
  summary: modelText().describe("One sentence: what changed in this file"),
  explanation: modelText().describe("A few short paragraphs: what changed and why it matters, for a reviewer"),
  impact: z.enum(["low", "medium", "high"]),
  suggestions: z.array(modelText()).optional(),
  concerns: z.array(modelText()).optional(),
});

interface Analysis {
  structure: StructuralDiff | null;
  unified: string;
  added: number;
  removed: number;
  concerns: Array<{ id: string; message: string }>;
  impact: { impact: Impact; reasons: string[] };
}

async function analyse(input: ExplainInput): Promise<Analysis> {
  const [structure, unified] = await Promise.all([
    structuralDiff(input.path, input.oldContent, input.newContent),
    diffTexts(input.oldContent, input.newContent),
  ]);
  const lines = changedLines(unified);
  const concerns = lineConcerns(lines.added, languageOf(input.path));
  if (structure?.removedExports.length) {
    concerns.unshift({
      id: "removed-export",
      message: `Exported ${describeDecls(structure.removedExports)} ${structure.removedExports.length === 1 ? "is" : "are"} removed or no longer exported: code importing ${structure.removedExports.length === 1 ? "it" : "them"} will break`,
    });
  }
  const impact = impactOf(input.path, lines.added.length + lines.removed.length, {
    removedExports: structure?.removedExports.length ?? 0,
    secret: concerns.some((c) => c.id.startsWith("secret")),
  });
  return { structure, unified, added: lines.added.length, removed: lines.removed.length, concerns, impact };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function localExplanation(input: ExplainInput, a: Analysis): FileExplanation {
  const { path } = input;
  const stat = `+${a.added} −${a.removed}`;
  const s = a.structure;
  const kind = fileKind(path).kind;
  const parts: string[] = [];
  if (s) {
    if (s.added.length) parts.push(`adds ${describeDecls(s.added, 3)}`);
    if (s.changed.length) parts.push(`changes ${describeDecls(s.changed, 3)}`);
    if (s.removed.length) parts.push(`removes ${describeDecls(s.removed, 3)}`);
  }
  let summary: string;
  if (input.oldContent === input.newContent) summary = `${path}: no change.`;
  else if (!input.oldContent)
    summary = `New ${kind} file ${path} (${plural(a.added, "line")})${parts.length ? `: ${parts.join("; ")}` : ""}.`;
  else if (!input.newContent) summary = `Deletes ${path} (${plural(a.removed, "line")})${parts.length ? `: ${parts.join("; ")}` : ""}.`;
  else if (parts.length) summary = `${parts.join("; ").replace(/^./, (c) => c.toUpperCase())} in ${path} (${stat}).`;
  else
    summary = `${path}: ${plural(a.added, "line")} added and ${plural(a.removed, "line")} removed${s ? ", inside existing declarations or between them" : ""}.`;

  const body: string[] = [];
  if (s) {
    const list = (title: string, items: StructuralDiff["added"]) =>
      items.length &&
      body.push(
        `${title}:\n${items
          .slice(0, 20)
          .map((d) => `- ${d.kind} \`${d.name}\`${d.exported ? " (exported)" : ""}, line ${d.line}`)
          .join("\n")}${items.length > 20 ? `\n- … and ${items.length - 20} more` : ""}`,
      );
    list("Added", s.added);
    list("Changed (body differs)", s.changed);
    list("Removed", s.removed);
    if (s.newExports.length) body.push(`Newly exported: ${describeDecls(s.newExports)}.`);
    if (!s.added.length && !s.changed.length && !s.removed.length)
      body.push(
        "No function, class or method was added, removed or changed: the change is in imports, top-level statements, comments or formatting.",
      );
    body.push(`Declarations: ${s.oldCount} before, ${s.newCount} after (${s.language}, parsed with tree-sitter).`);
  } else {
    body.push(`A ${kind} file without a syntax outline here: described line by line (${stat}).`);
  }
  body.push(`Impact ${a.impact.impact}${a.impact.reasons.length ? `: ${a.impact.reasons.join(", ")}` : ": a small change"}.`);
  body.push("Explained by the local engine (structural diff and rules; no model).");

  const suggestions: string[] = [];
  if (s?.removedExports.length)
    suggestions.push(`Search the codebase for users of ${describeDecls(s.removedExports, 3)} before merging, or keep a deprecated alias.`);
  if (a.concerns.some((c) => c.id === "debug-statement"))
    suggestions.push("Remove the debug output, or route it through the project's logger.");
  if (a.concerns.some((c) => c.id.startsWith("secret")))
    suggestions.push("Remove the secret from the change and rotate it: it stays in the branch's history once pushed.");
  if (a.concerns.some((c) => c.id === "disabled-test"))
    suggestions.push("Re-enable the skipped or focused tests, or say in the pull request why they are off.");
  if (kind === "source" && s && (s.added.length || s.changed.length))
    suggestions.push(
      `Make sure tests cover ${
        describeDecls(
          [...s.added, ...s.changed].filter((d) => d.kind !== "class"),
          3,
        ) || "the changed code"
      }.`,
    );
  if (kind === "database migration or schema")
    suggestions.push("Check the migration on a copy of production data, on every supported database, and how it is rolled back.");
  if (kind === "dependency lockfile" || kind === "dependency manifest")
    suggestions.push("Review the dependency changes (new packages, major versions) and their licences.");

  return {
    summary,
    explanation: body.join("\n\n"),
    impact: a.impact.impact,
    ...(suggestions.length ? { suggestions } : {}),
    ...(a.concerns.length ? { concerns: a.concerns.map((c) => c.message) } : {}),
    engine: "local",
  };
}

function structureForPrompt(s: StructuralDiff | null): string {
  if (!s) return "(no syntax outline for this file type)";
  const row = (t: string, l: StructuralDiff["added"]) =>
    `${t}: ${l.length ? l.map((d) => `${d.kind} ${d.name}${d.exported ? " (exported)" : ""}`).join(", ") : "none"}`;
  return [row("added", s.added), row("changed", s.changed), row("removed", s.removed), row("exports removed", s.removedExports)].join("\n");
}

async function modelExplanation(engine: ModelEngine, input: ExplainInput, a: Analysis): Promise<FileExplanation> {
  const diff =
    a.unified.length > MAX_PROMPT_DIFF_CHARS
      ? `${a.unified.slice(0, MAX_PROMPT_DIFF_CHARS)}\n… (diff cut at ${MAX_PROMPT_DIFF_CHARS} characters)`
      : a.unified;
  const ctx = input.context ?? {};
  const prompt = [
    `File: ${input.path}${!input.oldContent ? " (new file)" : !input.newContent ? " (deleted)" : ""}`,
    ctx.prTitle ? `Pull request: ${ctx.prTitle}` : "",
    ctx.prBody ? `Pull request description:\n${ctx.prBody.slice(0, 4000)}` : "",
    ctx.commitMessage ? `Commit message:\n${ctx.commitMessage.slice(0, 4000)}` : "",
    `Structural changes (from a syntax tree):\n${structureForPrompt(a.structure)}`,
    `Rule-based findings: ${a.concerns.map((c) => c.message).join("; ") || "none"}`,
    `Unified diff (+${a.added} −${a.removed}):\n${diff || "(no textual change)"}`,
  ]
    .filter(Boolean)
    .join("\n\n");
  const out = await generateStructured({
    engine,
    schema: modelSchema,
    instructions:
      "You explain one file's change to a code reviewer. Be specific and brief; name functions and lines from the diff. impact: low (cosmetic or local), medium (behaviour change), high (data, security, public API or wide effect). Concerns are real risks only, never style nits.",
    prompt,
  });
  // the deterministic secret checks are not left to the model
  const concerns = [...(out.concerns ?? [])];
  for (const c of a.concerns) if (c.id.startsWith("secret") && !concerns.includes(c.message)) concerns.push(c.message);
  return {
    summary: out.summary,
    explanation: out.explanation,
    impact: out.impact,
    ...(out.suggestions?.length ? { suggestions: out.suggestions } : {}),
    ...(concerns.length ? { concerns } : {}),
    engine: engine.engine,
  };
}

/**
 * Explains `input.path`'s change in repository `repo` (read permission checked by the router) for
 * `caller`: anonymous callers get the local engine (budget.ts `engineForCaller`).
 * `prId`, when given, must be a pull request of `repo` (NOT_FOUND) and fills the context's title
 * and body when absent. `engine` overrides the caller's engine (tests). Errors: BAD_REQUEST when
 * a content is larger than MAX_EXPLAIN_BYTES; NOT_FOUND (prId); TOO_MANY_REQUESTS when the
 * repository key's daily budget is used up; SERVICE_UNAVAILABLE when the model fails (the
 * provider's words for repository admins only: server/ai/redact.ts).
 */
export async function explainFileDiff(
  db: Db,
  caller: Actor | null,
  repo: AuthorizedRepo,
  input: ExplainInput,
  engine?: AiEngine,
): Promise<FileExplanation> {
  for (const key of ["oldContent", "newContent"] as const) {
    const bytes = Buffer.byteLength(input[key], "utf8");
    if (bytes > MAX_EXPLAIN_BYTES)
      throw new AppError("BAD_REQUEST", `${key} is ${bytes} bytes; at most ${MAX_EXPLAIN_BYTES} bytes (1 MiB) can be explained`);
  }
  let context = input.context;
  if (input.prId) {
    const pr = await db.pullRequest.findFirst({ where: { id: input.prId, repoId: repo.id }, select: { title: true, body: true } });
    if (!pr) throw new AppError("NOT_FOUND", "pull request not found");
    context = { prTitle: pr.title, prBody: pr.body ?? undefined, ...context };
  }
  const analysis = await analyse(input);
  const chosen = engine ?? (await engineForCaller(db, caller, repo));
  const full = { ...input, ...(context ? { context } : {}) };
  return chosen.kind === "model"
    ? asSeenBy(repo.permission, () => modelExplanation(chosen, full, analysis))
    : localExplanation(full, analysis);
}
