/**
 * Renders Markdown files (README.md, .md previews) on the server with the shared renderer
 * (components/markdown/renderer.tsx: GFM, sanitized raw HTML, heading anchors). Relative links
 * point at the file browser and relative images at the raw endpoint, both at the same ref.
 * Fenced code blocks are highlighted with shiki on the worker pool (server/highlight), all the
 * blocks of one request within one time budget (the blocks past it are plain).
 *
 * The rendered tree (parse, sanitize, URL rewriting: most of the cost) is kept per (text,
 * repository base) in an LRU bounded in bytes: the same README at the same place renders once per
 * process. A pure function of its key, so it never goes stale and two processes agree; the code
 * blocks in it stay components, highlighted per request (the highlight cache answers repeats).
 */
import { cache, type ReactNode } from "react";
import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import type { Components } from "react-markdown";
import { MarkdownRenderer, type RepoBase } from "@/components/markdown/renderer";
import { HighlightBudget, highlightCode } from "@/server/highlight";

/** Most bytes the kept renders take: 32 MiB (about 40 READMEs of 12 KB). */
export const RENDER_CACHE_BYTES = 32 * 1024 * 1024;
/** Heap bytes a kept render holds per character of Markdown (measured: 64 for README-like text, the element tree and the hast nodes its components get). */
const RENDER_BYTES_PER_CHAR = 64;

const shared = globalThis as { __svcMarkdownRenders?: LRUCache<string, { node: ReactNode }> };
const renders = () => (shared.__svcMarkdownRenders ??= new LRUCache({ maxSize: RENDER_CACHE_BYTES }));

/** The highlight budget of the request being rendered (one per request: React `cache`). */
const requestBudget = cache(() => new HighlightBudget());

function textOf(node: unknown): string {
  if (!node || typeof node !== "object") return "";
  const n = node as { type?: string; value?: string; children?: unknown[] };
  if (n.type === "text") return n.value ?? "";
  return (n.children ?? []).map(textOf).join("");
}

async function CodeBlock({ code, lang }: { code: string; lang: string }) {
  const { html } = await highlightCode(code, lang, { budget: requestBudget() });
  return <div className="md-code" dangerouslySetInnerHTML={{ __html: html }} />;
}

/** The renderer's overrides: code blocks highlighted on the pool. */
const components: Components = {
  pre({ node, children }) {
    const codeEl = node?.children.find((c) => c.type === "element" && c.tagName === "code") as
      { properties?: { className?: unknown }; children: unknown[] } | undefined;
    if (!codeEl) return <pre>{children}</pre>;
    const classes = Array.isArray(codeEl.properties?.className) ? (codeEl.properties.className as string[]) : [];
    const lang = classes.find((c) => c.startsWith("language-"))?.slice("language-".length) ?? "text";
    return <CodeBlock code={textOf(codeEl)} lang={lang.toLowerCase()} />;
  },
};

/** `source` rendered with relative links and images resolved against the repository base (kept: see above). */
export function MarkdownView({ source, owner, repo, gitRef, dir }: { source: string } & RepoBase) {
  const h = createHash("sha256");
  for (const part of [owner, repo, gitRef, dir, source]) h.update(part).update("\0");
  const key = h.digest("base64url");
  const hit = renders().get(key);
  if (hit) return hit.node;
  const node = MarkdownRenderer({ source, base: { owner, repo, gitRef, dir }, components });
  renders().set(key, { node }, { size: Math.max(1, source.length * RENDER_BYTES_PER_CHAR) });
  return node;
}
