/**
 * ai.summarizeForSquash (spec "AI router"; docs/ai.md "Squash messages"): the squash commit message
 * for a list of commits — `title` (first line), `body` (the rest, ending with Co-authored-by
 * trailers), `message` = title + blank line + body, `coAuthors` (distinct commit authors other than
 * the pull request's author, `Name <email>`), and `engine`. The pull request's author: the optional
 * `prId`'s author (an extension; its number also ends the title, as GitHub's squash does), else the
 * first commit's author. The co-authors and trailers are always computed here, from the input's
 * author strings, never left to a model. Decisions: docs/ai.md "Squash messages".
 */
import type { Db } from "@/server/db";
import type { AiEngine } from "@/server/ai/engine";
import type { Actor } from "@/server/auth/actor";
import { asSeenBy } from "@/server/ai/redact";
import { generateStructured } from "@/server/ai/structured";
import {
  assembleSquash,
  defaultSquashStyle,
  localSquashMessage,
  type SquashInput,
  type SquashMessage,
  type SquashStyle,
} from "@/server/ai/local/squash";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { loadPull } from "@/server/services/pulls/locate";
import { identityOf } from "@/server/services/pulls/merge";
import { squashModelSchema, type SquashInputBody } from "./writing-schemas";
import { engineForCaller } from "./budget";

export type SquashResult = SquashMessage & { engine: string };

/** Characters of one commit message in a prompt. */
const PROMPT_MESSAGE_CHARS = 2_000;
/** Characters of all commit messages in a prompt. */
const PROMPT_COMMITS_CHARS = 40_000;

/**
 * Writes the squash message with the engine for `caller` (budget.ts `engineForCaller`) or
 * `deps.engine`. Errors: NOT_FOUND when `prId` names no pull request of `repo`;
 * TOO_MANY_REQUESTS when the repository key's daily budget is used up; SERVICE_UNAVAILABLE when
 * the model fails or answers malformed twice (the provider's words for admins only).
 */
export async function summarizeForSquash(
  db: Db,
  caller: Actor | null,
  repo: AuthorizedRepo,
  input: SquashInputBody,
  deps: { engine?: AiEngine } = {},
): Promise<SquashResult> {
  const facts: SquashInput = { commits: input.commits, prTitle: input.prTitle, prBody: input.prBody, style: input.style };
  if (input.prId) {
    const pr = await loadPull(db, repo, input.prId);
    const author = pr.authorId
      ? await db.user.findUnique({ where: { id: pr.authorId }, select: { username: true, name: true, email: true } })
      : null;
    facts.prAuthor = author ? identityOf(author) : null;
    facts.prNumber = pr.number;
    facts.prTitle ??= pr.title;
    facts.prBody ??= pr.body ?? undefined;
  }
  const engine = deps.engine ?? (await engineForCaller(db, caller, repo));
  const local = localSquashMessage(facts);
  if (engine.kind === "local") return { ...local, engine: engine.engine };
  const style = facts.style ?? defaultSquashStyle(facts.commits, facts.prTitle);
  const answer = await asSeenBy(repo.permission, () =>
    generateStructured({
      engine,
      schema: squashModelSchema,
      instructions: squashInstructions(style),
      prompt: squashPrompt(facts),
    }),
  );
  let title = answer.title.trim().split("\n")[0]!.slice(0, 256) || local.title;
  if (facts.prNumber && !title.includes(`(#${facts.prNumber})`)) title = `${title} (#${facts.prNumber})`;
  // trailers are svc's: any the model wrote are dropped, then the computed ones appended
  const listing = answer.body
    .split("\n")
    .filter((l) => !/^co-authored-by:/i.test(l.trim()))
    .join("\n")
    .trim();
  return { ...assembleSquash(title, listing, local.coAuthors), engine: engine.engine };
}

/** The system prompt for a squash message in `style`. */
export function squashInstructions(style: SquashStyle): string {
  return [
    "You write the commit message for squashing a pull request's commits into one commit.",
    style === "conventional"
      ? "title: a Conventional Commits header 'type(scope): subject' (types feat, fix, refactor, docs, test, chore, perf, build, ci; '!' after the type when something breaks), at most 72 characters."
      : "title: a plain imperative sentence without a type prefix, at most 72 characters, no final period.",
    "body: a short list of the changes, one '* ' line per commit or meaningful change, then 'BREAKING CHANGE: …' footers when commits declare them. No Co-authored-by lines (they are added for you).",
    "Use only what the commits say; never invent changes, issue numbers or people.",
  ].join("\n");
}

/** The user prompt: the pull request's title and body, then every commit (bounded). */
export function squashPrompt(facts: SquashInput): string {
  let used = 0;
  const commits: string[] = [];
  for (const c of facts.commits) {
    const entry = `commit ${c.sha.slice(0, 10)} by ${c.author}\n${c.message.slice(0, PROMPT_MESSAGE_CHARS)}`;
    if (used + entry.length > PROMPT_COMMITS_CHARS) {
      commits.push(`[${facts.commits.length - commits.length} more commits not shown]`);
      break;
    }
    commits.push(entry);
    used += entry.length;
  }
  return [
    facts.prTitle?.trim() ? `Pull request title: ${facts.prTitle.trim()}` : "",
    facts.prBody?.trim() ? `Pull request body:\n${facts.prBody.trim().slice(0, 4_000)}` : "",
    `Commits (${facts.commits.length}, oldest first):\n\n${commits.join("\n\n")}`,
  ]
    .filter(Boolean)
    .join("\n\n");
}
