/**
 * ai.suggestConflictResolution {repoId, path, ours, theirs, base, context?} → {resolved,
 * explanation, confidence, alternatives?, warnings?, engine} (spec "AI router"; docs/ai.md).
 *
 * Always first a real three-way merge (`git merge-file -p --diff3`, server/git/text-merge.ts),
 * then the local rules per conflict hunk (server/ai/conflicts/rules.ts). The local engine answers
 * with that. A model is asked only when hunks remain unresolved: it gets the three sides and the
 * merge with markers, and its answer is checked: an unusable answer (empty, still holding
 * conflict markers, or twice not in the asked shape) is replaced by the local engine's, with
 * `fallback` saying why (the conflicts view shows it). The rule-based alternatives (ours, theirs,
 * union) are always returned.
 */
import { z } from "zod";
import { modelText } from "@/server/validation/strings";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import type { AiEngine, ModelEngine } from "@/server/ai/engine";
import type { Actor } from "@/server/auth/actor";
import { asSeenBy, MalformedAnswerError } from "@/server/ai/redact";
import { engineForCaller } from "./budget";
import { generateStructured } from "@/server/ai/structured";
import {
  hasConflictMarkers,
  lower,
  parseMerge,
  resolveSegments,
  type Confidence,
  type HunkRule,
  type LocalResolution,
} from "@/server/ai/conflicts/rules";
import { mergeTexts } from "@/server/git/text-merge";
import type { AuthorizedRepo } from "@/server/services/repos/access";

/** Largest side accepted (bytes of UTF-8, 1 MiB each). */
export const MAX_CONFLICT_SIDE_BYTES = 1024 * 1024;
/** Characters of each side put in a model's prompt at most. */
export const MAX_PROMPT_SIDE_CHARS = 30_000;

export interface ConflictInput {
  path: string;
  ours: string;
  theirs: string;
  base: string;
  context?: { ourBranch?: string; theirBranch?: string; commitMessages?: string[] };
}

export interface ConflictSuggestion {
  resolved: string;
  explanation: string;
  confidence: Confidence;
  alternatives?: Array<{ content: string; description: string }>;
  warnings?: string[];
  /** "local" or "<provider>:<model>". */
  engine: string;
  /**
   * Extension: set when a model was asked but its answer was unusable, so this is the local
   * engine's suggestion: the model's engine and why ("empty", "markers": it still held conflict
   * markers, "malformed": twice not in the asked shape).
   */
  fallback?: { engine: string; reason: "empty" | "markers" | "malformed" };
}

const FALLBACK_TEXT: Record<NonNullable<ConflictSuggestion["fallback"]>["reason"], string> = {
  empty: "answered with an empty file",
  markers: "answered with conflict markers still in the file",
  malformed: "answered twice in a shape svc could not use",
};

const RULE_TEXT: Record<HunkRule, string> = {
  same: "both sides made the same change",
  "ours-only": "only ours changed it: ours taken",
  "theirs-only": "only theirs changed it: theirs taken",
  union: "both sides only added lines, at different places: both kept",
  "union-same-place": "both sides only added lines at the same place: both kept, ours first",
  whitespace: "one side changed only whitespace: the other side's change taken",
  unresolved: "both sides changed the same lines differently: markers kept",
};

/** A branch name fit for a marker label (one line, ≤ 100 printable characters), else the fallback. */
function label(name: string | undefined, fallback: string): string {
  return name && /^[\w./@+-]{1,100}$/.test(name) ? name : fallback;
}

/** Merge and local rules: the local engine's whole answer plus its details. */
export async function localResolution(
  input: ConflictInput,
): Promise<{ answer: ConflictSuggestion; local: LocalResolution; conflicts: number }> {
  const labels = { ours: label(input.context?.ourBranch, "ours"), theirs: label(input.context?.theirBranch, "theirs") };
  const merged = await mergeTexts(input.ours, input.base, input.theirs);
  const segments = parseMerge(merged.text);
  if (!segments) {
    // markers did not nest (a side holds lines like git's markers): say so, keep everything
    const union = {
      content: `${input.ours}${input.ours.endsWith("\n") || !input.ours ? "" : "\n"}${input.theirs}`,
      description: "Both sides, ours first",
    };
    const local: LocalResolution = {
      resolved: merged.text,
      confidence: "low",
      rules: [],
      warnings: ["the merge could not be analysed (the file holds lines that look like conflict markers): resolve it by hand"],
      unresolved: 1,
      alternatives: [{ content: input.ours, description: "Ours" }, { content: input.theirs, description: "Theirs" }, union],
    };
    return {
      answer: {
        resolved: merged.text,
        explanation: "git merge-file could not be analysed; resolve by hand.",
        confidence: "low",
        alternatives: local.alternatives,
        warnings: local.warnings,
        engine: "local",
      },
      local,
      conflicts: merged.conflicts,
    };
  }
  const local = resolveSegments(segments, labels);
  const lines = local.rules.map((r, i) => `${i + 1}. ${RULE_TEXT[r]}`);
  const explanation =
    merged.conflicts === 0
      ? `git merge-file merged ${input.path} without conflicts: every change of both sides is in the result.`
      : `git merge-file left ${local.rules.length} conflict${local.rules.length === 1 ? "" : "s"} in ${input.path}; the changes it merged cleanly are kept. Per conflict:\n${lines.join("\n")}\n\nConfidence ${local.confidence}: ${local.confidence === "high" ? "every conflict matched a rule that keeps both sides' changes" : local.confidence === "medium" ? "resolved, but check the warnings" : "some conflicts need a person; their markers are kept"}.`;
  return {
    answer: {
      resolved: local.resolved,
      explanation,
      confidence: local.confidence,
      alternatives: local.alternatives,
      ...(local.warnings.length ? { warnings: local.warnings } : {}),
      engine: "local",
    },
    local,
    conflicts: merged.conflicts,
  };
}

const modelSchema = z.object({
  resolved: modelText().describe("The whole file, resolved, without conflict markers"),
  explanation: modelText(),
  confidence: z.enum(["low", "medium", "high"]),
  warnings: z.array(modelText()).optional(),
});

const cut = (t: string) => (t.length > MAX_PROMPT_SIDE_CHARS ? `${t.slice(0, MAX_PROMPT_SIDE_CHARS)}\n… (cut)` : t);

async function modelResolution(engine: ModelEngine, input: ConflictInput, local: ConflictSuggestion): Promise<ConflictSuggestion> {
  const ctx = input.context ?? {};
  const prompt = [
    `File: ${input.path}`,
    ctx.ourBranch || ctx.theirBranch ? `Ours is ${ctx.ourBranch ?? "ours"}; theirs is ${ctx.theirBranch ?? "theirs"}.` : "",
    ctx.commitMessages?.length
      ? `Commit messages:\n${ctx.commitMessages
          .slice(0, 30)
          .map((m) => `- ${m.slice(0, 300)}`)
          .join("\n")}`
      : "",
    `Base version:\n${cut(input.base)}`,
    `Ours:\n${cut(input.ours)}`,
    `Theirs:\n${cut(input.theirs)}`,
    `git merge-file --diff3 result after safe rules (markers remain where unresolved):\n${cut(local.resolved)}`,
  ]
    .filter(Boolean)
    .join("\n\n");
  const fallback = (reason: NonNullable<ConflictSuggestion["fallback"]>["reason"]): ConflictSuggestion => ({
    ...local,
    warnings: [...(local.warnings ?? []), `${engine.engine} ${FALLBACK_TEXT[reason]}: this is the local engine's suggestion`],
    fallback: { engine: engine.engine, reason },
  });
  let out: z.infer<typeof modelSchema>;
  try {
    out = await generateStructured({
      engine,
      schema: modelSchema,
      instructions:
        "You resolve a three-way merge conflict. Keep every intended change of both sides; never drop one silently. Output the whole resolved file without conflict markers. If you are unsure, say so with confidence low and explain in warnings what a person must check.",
      prompt,
    });
  } catch (e) {
    if (e instanceof MalformedAnswerError) return fallback("malformed");
    throw e;
  }
  if (!out.resolved.trim()) return fallback("empty");
  if (hasConflictMarkers(out.resolved)) return fallback("markers");
  const warnings = [...(out.warnings ?? [])];
  let confidence: Confidence = out.confidence;
  // a model is never more sure than the rules allow for a file git could not merge
  confidence = lower(confidence, "medium");
  return {
    resolved: out.resolved,
    explanation: out.explanation,
    confidence,
    alternatives: local.alternatives,
    ...(warnings.length ? { warnings } : {}),
    engine: engine.engine,
  };
}

/**
 * Suggests a resolution of `input.path` (read permission on `repo` checked by the router) for
 * `caller`: anonymous callers get the local engine (budget.ts `engineForCaller`). `engine`
 * overrides the caller's engine (tests). A model is consulted only when the rules leave
 * conflicts. Errors: BAD_REQUEST for a side larger than MAX_CONFLICT_SIDE_BYTES;
 * TOO_MANY_REQUESTS when the repository key's daily budget is used up; SERVICE_UNAVAILABLE when
 * the model fails (the provider's words for repository admins only: server/ai/redact.ts).
 */
export async function suggestConflictResolution(
  db: Db,
  caller: Actor | null,
  repo: AuthorizedRepo,
  input: ConflictInput,
  engine?: AiEngine,
): Promise<ConflictSuggestion> {
  for (const key of ["ours", "theirs", "base"] as const) {
    const bytes = Buffer.byteLength(input[key], "utf8");
    if (bytes > MAX_CONFLICT_SIDE_BYTES)
      throw new AppError("BAD_REQUEST", `${key} is ${bytes} bytes; at most ${MAX_CONFLICT_SIDE_BYTES} bytes (1 MiB) per side`);
  }
  const { answer, local } = await localResolution(input);
  if (local.unresolved === 0) return answer;
  const chosen = engine ?? (await engineForCaller(db, caller, repo));
  return chosen.kind === "model" ? asSeenBy(repo.permission, () => modelResolution(chosen, input, answer)) : answer;
}
