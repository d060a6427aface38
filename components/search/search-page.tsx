/**
 * The code search page (docs/ai.md "Page"): /<owner>/<repo>/search?q=…&type=ts,py&path=src/**.
 * A plain GET form (works before hydration, URLs can be shared), results server-rendered from
 * ai.semanticSearch: `path:start–end` linking to the code browser with those lines selected,
 * chunk type and name, language, score and the engine that ranked them; an indexing notice
 * while the index is built or behind the branch (IndexWatcher refreshes when it is ready); for
 * signed-in users, the Ask panel (ai.chat) below.
 */
import Link from "next/link";
import { TRPCError } from "@trpc/server";
import { getCurrentActor, getServerCaller } from "@/server/auth/session";
import type { RepoData } from "@/components/code/data";
import { codeUrl, lineHash } from "@/components/code/urls";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { CodeIcon, SearchIcon } from "@/components/ui/icons";
import { card, container, cx, hint, label } from "@/components/ui/styles";
import { IndexWatcher } from "./index-watcher";
import { AskPanel } from "./ask-panel";

/** Lines of a result shown under its header (the link opens the whole range). */
const PREVIEW_LINES = 12;

export interface SearchParams {
  q: string;
  types: string[];
  paths: string[];
}

/** `?q=&type=ts,py&path=src/**,lib/*` → trimmed values (lists split on commas and spaces). */
export function searchParamsOf(search: Record<string, string | string[] | undefined>): SearchParams {
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";
  const list = (v: string | string[] | undefined) =>
    one(v)
      .split(/[\s,]+/)
      .map((s) => s.trim())
      .filter(Boolean)
      .slice(0, 20);
  return { q: one(search.q).trim().slice(0, 500), types: list(search.type).map((t) => t.replace(/^\*?\./, "")), paths: list(search.path) };
}

export async function SearchPage({ repo, params }: { repo: RepoData; params: SearchParams }) {
  const [caller, actor] = await Promise.all([getServerCaller(), getCurrentActor()]);
  const status = await caller.ai.searchIndexStatus({ repoId: repo.id });
  let out: Awaited<ReturnType<typeof caller.ai.semanticSearch>> | null = null;
  let error: string | null = null;
  if (params.q && !repo.isEmpty) {
    try {
      out = await caller.ai.semanticSearch({
        repoId: repo.id,
        query: params.q,
        options: {
          limit: 30,
          ...(params.types.length ? { fileTypes: params.types } : {}),
          ...(params.paths.length ? { paths: params.paths } : {}),
        },
      });
    } catch (e) {
      if (!(e instanceof TRPCError) || e.code === "INTERNAL_SERVER_ERROR") throw e;
      error = e.message;
    }
  }
  // after the search: a first search of a small repository indexes it inline
  const after = out ? await caller.ai.searchIndexStatus({ repoId: repo.id }) : status;
  const indexing = !repo.isEmpty && (after.status !== "ready" || after.stale);

  return (
    <div className={cx(container, "py-6")}>
      <h1 className="mb-4 flex items-center gap-2 text-base font-semibold">
        <SearchIcon className="text-subtle-foreground" /> Search code
        <span className="font-normal text-muted-foreground">
          on <span className="font-mono">{status.branch}</span>
        </span>
      </h1>
      <form
        method="get"
        role="search"
        aria-label="Search code"
        className={cx(card, "grid gap-3 p-4 sm:grid-cols-[1fr_10rem_12rem_auto] sm:items-end")}
        data-testid="search-form"
      >
        <div>
          <label htmlFor="search-q" className={label}>
            Query
          </label>
          <Input
            id="search-q"
            name="q"
            type="search"
            defaultValue={params.q}
            placeholder="e.g. parse a duration into milliseconds"
            autoComplete="off"
            className="mt-1"
            data-testid="search-query"
          />
        </div>
        <div>
          <label htmlFor="search-type" className={label}>
            File types
          </label>
          <Input
            id="search-type"
            name="type"
            defaultValue={params.types.join(", ")}
            placeholder="ts, py"
            className="mt-1"
            aria-describedby="search-type-hint"
            data-testid="search-types"
          />
          <p id="search-type-hint" className={cx(hint, "sr-only")}>
            Extensions, separated by commas
          </p>
        </div>
        <div>
          <label htmlFor="search-path" className={label}>
            Paths
          </label>
          <Input
            id="search-path"
            name="path"
            defaultValue={params.paths.join(", ")}
            placeholder="src/**"
            className="mt-1"
            aria-describedby="search-path-hint"
            data-testid="search-paths"
          />
          <p id="search-path-hint" className={cx(hint, "sr-only")}>
            Glob patterns, separated by commas
          </p>
        </div>
        <Button type="submit" variant="primary" data-testid="search-submit">
          <SearchIcon /> Search
        </Button>
      </form>

      <div className="mt-4 space-y-3">
        {repo.isEmpty ? (
          <p className="text-sm text-muted-foreground" data-testid="search-empty-repo">
            This repository is empty: push code to search it.
          </p>
        ) : indexing ? (
          <IndexWatcher
            repoId={repo.id}
            branch={after.branch}
            message={
              after.status === "missing" || (after.status !== "ready" && !after.commitSha)
                ? "Indexing this repository… results appear when it is done."
                : "The index is being refreshed; results may miss the newest changes."
            }
          />
        ) : null}
        {after.embeddingError && (
          <p className="text-sm text-warning" data-testid="search-embedding-error">
            The embedding provider failed ({after.embeddingError}): results come from the lexical engine until a later refresh embeds the
            code.
          </p>
        )}
        {error && (
          <p role="alert" className="text-sm text-danger" data-testid="search-error">
            {error}
          </p>
        )}
        {out && <Results repo={repo} branch={after.branch} out={out} />}
        {!params.q && !repo.isEmpty && !indexing && (
          <p className="text-sm text-muted-foreground" data-testid="search-hint">
            Describe what the code does in your own words; names, comments and identifiers are matched ({after.files} files, {after.chunks}{" "}
            chunks indexed).
          </p>
        )}
      </div>
      {actor && !repo.isEmpty && <AskPanel repo={{ id: repo.id, owner: repo.owner, name: repo.name }} branch={after.branch} />}
    </div>
  );
}

type Output = NonNullable<Awaited<ReturnType<Awaited<ReturnType<typeof getServerCaller>>["ai"]["semanticSearch"]>>>;

function Results({ repo, branch, out }: { repo: RepoData; branch: string; out: Output }) {
  const engineLabel = out.engine === "local" ? "local (lexical full-text)" : `${out.engine} (hybrid: embeddings + full-text)`;
  return (
    <section aria-labelledby="search-results-heading">
      <h2 id="search-results-heading" className="mb-2 flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
        <span data-testid="search-count">
          {out.totalResults} {out.totalResults === 1 ? "result" : "results"}
        </span>
        <span aria-hidden>·</span>
        <span>{out.searchTime} ms</span>
        <Badge tone="primary" data-testid="search-engine" title="The engine that ranked these results">
          Engine: {engineLabel}
        </Badge>
      </h2>
      {out.results.length === 0 ? (
        <div className={cx(card, "px-6 py-10 text-center text-sm text-muted-foreground")} data-testid="search-no-results">
          Nothing matched. Try other words, or fewer filters.
        </div>
      ) : (
        <ol className="space-y-3" data-testid="search-results">
          {out.results.map((r, i) => {
            const href = `${codeUrl(repo.owner, repo.name, "blob", branch, r.path)}${lineHash(r.startLine, r.endLine)}`;
            const preview = r.content.split("\n").slice(0, PREVIEW_LINES);
            return (
              <li key={`${r.path}:${r.startLine}:${i}`} className={cx(card, "overflow-hidden")} data-testid="search-result">
                <div className="flex flex-wrap items-center gap-2 border-b border-border bg-muted px-3 py-2 text-sm">
                  <CodeIcon className="text-subtle-foreground" />
                  <Link
                    href={href}
                    className="min-w-0 break-all font-mono font-medium text-primary hover:underline"
                    data-testid="search-result-link"
                  >
                    {r.path}:{r.startLine === r.endLine ? r.startLine : `${r.startLine}–${r.endLine}`}
                  </Link>
                  {r.chunkName && <span className="min-w-0 break-all font-mono text-xs text-foreground">{r.chunkName}</span>}
                  <Badge>{r.chunkType}</Badge>
                  <Badge>{r.language}</Badge>
                  <span className="ml-auto text-xs text-muted-foreground" title="Score from 0 to 1">
                    score {r.score.toFixed(2)}
                  </span>
                </div>
                <pre
                  className="overflow-x-auto px-3 py-2 text-xs leading-5"
                  tabIndex={0}
                  aria-label={`Code of ${r.path} from line ${r.startLine}`}
                >
                  <code>
                    {preview.map((l, k) => (
                      <span key={k} className="block">
                        <span className="mr-3 inline-block w-8 select-none text-right text-subtle-foreground">{r.startLine + k}</span>
                        {l}
                      </span>
                    ))}
                  </code>
                </pre>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
