/**
 * The agent's tools (docs/agent.md "Tools"). Each calls svc's own services for
 * the CALLER's session, with the repository as `ownSession` authorized it for the caller (their
 * permission and token scope), so the model can read only what the user can read, and can change
 * nothing: the only tools with an effect, proposeChange and (pm mode) proposeIssue, store a
 * PENDING change that the user approves or rejects. No tool runs a command, and none reaches
 * outside the repository (paths go through paths.ts; git through server/git wrappers).
 *
 *   listFiles {path?}                       entries of a folder of the session's base commit
 *   readFile {path, startLine?, endLine?}   a text file (≤ MAX_READ_FILE_BYTES; ≤ MAX_TOOL_CHARS shown)
 *   searchCode {query}                      semantic search when the repository has an index,
 *                                           else `git grep` (fixed string) on the base commit
 *   listIssues {state?, query?} / readIssue {number} / readPullRequest {number}
 *   proposeChange {type, path, content?}    a pending file change (pm mode: documentation files only)
 *   proposeIssue {title, body?}             pm mode only: a pending issue
 *
 * A refusal or failure (a bad path, a missing file, a file that changed) is the tool's RESULT, a
 * sentence starting "Error:", so the model can correct itself; it never ends the turn.
 */
import { tool, type ToolSet } from "ai";
import { z } from "zod";
import type { Actor } from "@/server/auth/actor";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { readBlob, readTree, statBlob } from "@/server/git/repository";
import { grepFixed } from "@/server/git/grep";
import { getIssue } from "@/server/services/issues/get-issue";
import { listIssues } from "@/server/services/issues/list-issues";
import { getPullRequest } from "@/server/services/pulls/get-pull-request";
import { semanticSearch } from "@/server/services/search/semantic-search";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { text } from "@/server/validation/strings";
import { sessionBase } from "./base";
import { normaliseAgentPath, pmMayChange, PM_EXTENSIONS } from "./paths";
import { proposeChange, proposeIssue } from "./propose-change";
import type { AgentMode, ProposedChangeView } from "./model";
import type { AgentStreamEvent } from "./events";
import { MAX_CONTENT_BYTES } from "./schemas";

/** Largest file readFile reads (bytes; git cat-file's size is checked first). */
export const MAX_READ_FILE_BYTES = 512 * 1024;
/** Most characters of one tool result the model is given. */
export const MAX_TOOL_CHARS = 40_000;
/** Most entries listFiles returns. */
export const MAX_LISTED_ENTRIES = 500;

export interface ToolContext {
  db: Db;
  actor: Actor;
  session: { id: string; mode: string; branch: string };
  repo: AuthorizedRepo;
  /** Receives `tool` and `change` events as they happen. */
  emit: (event: AgentStreamEvent) => void;
  /** Every change proposed in this turn, in order (linked to the reply when it is stored). */
  proposed: ProposedChangeView[];
}

const clip = (s: string, max = MAX_TOOL_CHARS) => (s.length > max ? `${s.slice(0, max)}\n… (cut at ${max} characters)` : s);

/**
 * "Error: <message>" for an AppError (the model's mistake or a refusal). Any other error is svc's
 * own fault: logged, and the model is told only that the tool failed (no internal detail reaches
 * the model, and through it the reply).
 */
function failure(e: unknown, name: string): string {
  if (e instanceof AppError) return `Error: ${e.message}`;
  console.error(`agent tool ${name} failed`, e);
  return `Error: ${name} failed inside svc; try something else`;
}

/** Runs tool `name`'s `fn`, turning a failure into the tool's "Error: …" result (`failure`). */
async function guarded<T>(name: string, fn: () => Promise<T>): Promise<T | string> {
  try {
    return await fn();
  } catch (e) {
    return failure(e, name);
  }
}

const path = (field: string) => text(field).max(4096, `${field} is at most 4096 characters`);
const lineNo = (field: string) => z.number().int().min(1, `${field} is at least 1`).max(10_000_000);
const issueNo = z.number().int().min(1).max(1_000_000_000);

/** The tool set of one turn for `ctx` (mode decides proposeChange's reach and proposeIssue). */
export function agentTools(ctx: ToolContext): ToolSet {
  const { db, actor, session, repo, emit } = ctx;
  const mode = session.mode as AgentMode;
  const activity = (name: string, summary: string) => emit({ type: "tool", name, summary });
  const base = () => sessionBase(repo, session.branch);

  const tools: ToolSet = {
    listFiles: tool({
      description:
        "List the files and folders of a folder of the repository (the session branch once it exists, else the default branch). Folders end with /.",
      inputSchema: z.object({ path: path("path").optional().describe("folder from the top of the repository; omit for the top") }),
      execute: async ({ path: raw }) =>
        guarded("listFiles", async () => {
          const dir = raw && raw.trim() && raw.trim() !== "." && raw.trim() !== "/" ? normaliseAgentPath(raw) : "";
          activity("listFiles", `listing ${dir || "the top folder"}`);
          const b = await base();
          const entries = await readTree(repo.gitDir, b.commit, dir);
          const shown = entries
            .slice(0, MAX_LISTED_ENTRIES)
            .map((e) =>
              e.type === "tree" ? `${e.path}/` : e.type === "commit" ? `${e.path} (submodule)` : `${e.path} (${e.size ?? 0} bytes)`,
            );
          const more = entries.length > MAX_LISTED_ENTRIES ? `\n… and ${entries.length - MAX_LISTED_ENTRIES} more` : "";
          return `${dir || "(top)"} on ${b.branchName}:\n${shown.join("\n") || "(empty)"}${more}`;
        }),
    }),

    readFile: tool({
      description:
        "Read a text file of the repository, optionally only lines startLine to endLine (1-based, inclusive). Lines are prefixed with their numbers.",
      inputSchema: z.object({ path: path("path"), startLine: lineNo("startLine").optional(), endLine: lineNo("endLine").optional() }),
      execute: async ({ path: raw, startLine, endLine }) =>
        guarded("readFile", async () => {
          const p = normaliseAgentPath(raw);
          activity("readFile", `reading ${p}${startLine || endLine ? ` lines ${startLine ?? 1}–${endLine ?? "end"}` : ""}`);
          const b = await base();
          const info = await statBlob(repo.gitDir, b.commit, p);
          if (info.size > MAX_READ_FILE_BYTES)
            return `Error: ${p} is ${info.size} bytes; files over ${MAX_READ_FILE_BYTES} bytes are not read. Use searchCode to find the part you need.`;
          const blob = await readBlob(repo.gitDir, b.commit, p);
          if (blob.isBinary || blob.text === null) return `Error: ${p} is a binary file (${info.size} bytes)`;
          const lines = blob.text.split("\n");
          if (lines.at(-1) === "") lines.pop();
          const from = Math.max(1, startLine ?? 1);
          const to = Math.min(lines.length, endLine ?? lines.length);
          if (from > lines.length && lines.length) return `Error: ${p} has ${lines.length} lines`;
          const body = lines
            .slice(from - 1, to)
            .map((l, i) => `${from + i}\t${l}`)
            .join("\n");
          return clip(
            `${p} on ${b.branchName} (${lines.length} lines${from > 1 || to < lines.length ? `, showing ${from}–${to}` : ""}):\n${body}`,
          );
        }),
    }),

    searchCode: tool({
      description:
        "Search the repository's code: semantic search when the repository has a search index, else a literal, case-insensitive text search. Returns paths, lines and excerpts.",
      inputSchema: z.object({ query: text("query").min(1, "query is required").max(200, "query is at most 200 characters") }),
      execute: async ({ query }) =>
        guarded("searchCode", async () => {
          activity("searchCode", `searching for "${query.length > 60 ? `${query.slice(0, 60)}…` : query}"`);
          const index = await db.searchIndex.findUnique({
            where: { repoId_branch: { repoId: repo.id, branch: repo.defaultBranch } },
            select: { commitSha: true },
          });
          if (index?.commitSha) {
            const found = await semanticSearch(db, actor, repo, { query, options: { limit: 8 } });
            if (!found.results.length) return `No results for "${query}" (semantic search of ${repo.defaultBranch}).`;
            return clip(
              found.results
                .map(
                  (r) =>
                    `${r.path}:${r.startLine}-${r.endLine}${r.chunkName ? ` (${r.chunkType} ${r.chunkName})` : ""}\n${r.content.split("\n").slice(0, 30).join("\n")}`,
                )
                .join("\n\n"),
            );
          }
          const b = await base();
          const { hits, truncated } = await grepFixed(repo.gitDir, b.commit, query);
          if (!hits.length) return `No file on ${b.branchName} contains "${query}".`;
          return clip(
            `${hits.map((h) => `${h.path}:${h.line}: ${h.text}`).join("\n")}${truncated ? "\n… more matches not shown; search for something more specific" : ""}`,
          );
        }),
    }),

    listIssues: tool({
      description:
        "List the repository's issues (newest first, at most 20), optionally open or closed only and filtered by text in the title.",
      inputSchema: z.object({
        state: z.enum(["open", "closed"]).optional(),
        query: text("query").max(100, "query is at most 100 characters").optional(),
      }),
      execute: async ({ state, query }) =>
        guarded("listIssues", async () => {
          activity("listIssues", `listing ${state ?? ""} issues${query ? ` matching "${query}"` : ""}`.replace("  ", " "));
          const issues = await listIssues(
            db,
            repo,
            { ...(state ? { state } : {}), ...(query?.trim() ? { titleSearch: query.trim() } : {}), limit: 20 },
            actor.user.id,
          );
          return issues.length ? issues.map((i) => `#${i.number} [${i.state}, ${i.status}] ${i.title}`).join("\n") : "No issues match.";
        }),
    }),

    readIssue: tool({
      description: "Read one issue of the repository: title, state, labels and body.",
      inputSchema: z.object({ number: issueNo }),
      execute: async ({ number }) =>
        guarded("readIssue", async () => {
          activity("readIssue", `reading issue #${number}`);
          const i = await getIssue(db, repo, number);
          return clip(
            `#${i.number} ${i.title}\nstate: ${i.state}, status: ${i.status}, priority: ${i.priority}${i.labels.length ? `, labels: ${i.labels.map((l) => l.name).join(", ")}` : ""}\nauthor: ${i.author?.username ?? "unknown"}\n\n${i.body ?? "(no description)"}`,
          );
        }),
    }),

    readPullRequest: tool({
      description: "Read one pull request of the repository: title, state, branches and description.",
      inputSchema: z.object({ number: issueNo }),
      execute: async ({ number }) =>
        guarded("readPullRequest", async () => {
          activity("readPullRequest", `reading pull request #${number}`);
          const pr = await getPullRequest(db, repo, number);
          return clip(
            `#${pr.number} ${pr.title}\nstate: ${pr.state}${pr.isDraft ? " (draft)" : ""}, ${pr.sourceBranch} → ${pr.targetBranch}\nauthor: ${pr.author?.username ?? "unknown"}\n\n${pr.body ?? "(no description)"}`,
          );
        }),
    }),

    proposeChange: tool({
      description:
        mode === "pm"
          ? `Propose creating, changing or deleting a documentation file (${PM_EXTENSIONS.map((e) => `.${e}`).join(", ")}). The user reviews and approves or rejects it; nothing changes until then. For modify, give the COMPLETE new content of the file.`
          : "Propose creating, changing or deleting a file. The user reviews and approves or rejects it; nothing changes until then. For modify, give the COMPLETE new content of the file.",
      inputSchema: z.object({
        type: z.enum(["create", "modify", "delete"]),
        path: path("path"),
        content: text("content").optional().describe("the complete new content (create, modify); omit for delete"),
      }),
      execute: async ({ type, path: raw, content }) =>
        guarded("proposeChange", async () => {
          const p = normaliseAgentPath(raw);
          activity("proposeChange", `proposing to ${type} ${p}`);
          if (mode === "pm" && !pmMayChange(p))
            return `Error: pm mode proposes documentation files only (${PM_EXTENSIONS.map((e) => `.${e}`).join(", ")}); "${p}" is for a code session`;
          if (type === "delete" && content !== undefined) content = undefined;
          if (type !== "delete" && content === undefined) return `Error: content is required to ${type} a file`;
          if (content !== undefined && Buffer.byteLength(content) > MAX_CONTENT_BYTES)
            return `Error: content is at most ${MAX_CONTENT_BYTES} bytes`;
          const change = await proposeChange(db, actor, {
            sessionId: session.id,
            type,
            path: p,
            ...(content !== undefined ? { content } : {}),
          });
          ctx.proposed.push(change);
          emit({ type: "change", change });
          return { ok: true, changeId: change.id, status: "pending", note: `proposed to ${type} ${change.path}; the user will review it` };
        }),
    }),
  };

  if (mode === "pm") {
    tools.proposeIssue = tool({
      description: "Propose a new issue (a ticket) for the repository. The user reviews it; the issue is created only if they approve it.",
      inputSchema: z.object({
        title: text("title").min(1, "title is required").max(256, "title is at most 256 characters"),
        body: text("body").max(65_536, "body is at most 65536 characters").optional(),
      }),
      execute: async ({ title, body }) =>
        guarded("proposeIssue", async () => {
          activity("proposeIssue", `proposing issue "${title.length > 60 ? `${title.slice(0, 60)}…` : title}"`);
          const change = await proposeIssue(db, actor, { sessionId: session.id, title, ...(body ? { body } : {}) });
          ctx.proposed.push(change);
          emit({ type: "change", change });
          return { ok: true, changeId: change.id, status: "pending", note: "proposed the issue; the user will review it" };
        }),
    });
  }
  return tools;
}
