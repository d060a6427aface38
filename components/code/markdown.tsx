/**
 * Renders Markdown (README.md and .md files) with react-markdown + remark-gfm on the server.
 * Raw HTML is not rendered (react-markdown's default), unsafe URLs are dropped by
 * `defaultUrlTransform`, relative links point at the file browser and relative images at the
 * raw endpoint, both at the same ref. Fenced code blocks are highlighted with shiki.
 */
import Markdown, { defaultUrlTransform, type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { codeUrl, encodeSegments, repoUrl } from "./urls";
import { highlightCode } from "./highlight";

interface Base {
  owner: string;
  repo: string;
  /** Branch, tag or sha the links point at (not named `ref`: React reserves that prop). */
  gitRef: string;
  /** Directory of the Markdown file ("" = root); relative URLs resolve against it. */
  dir: string;
}

/** Resolves `rel` against directory `dir` (POSIX-style, no escaping above the root). */
function resolvePath(dir: string, rel: string): string {
  const parts = rel.startsWith("/") ? [] : dir.split("/").filter(Boolean);
  for (const p of rel.split("/")) {
    if (!p || p === ".") continue;
    if (p === "..") parts.pop();
    else parts.push(p);
  }
  return parts.join("/");
}

function isRelative(url: string): boolean {
  return !/^[a-z][a-z0-9+.-]*:/i.test(url) && !url.startsWith("//") && !url.startsWith("#") && !url.startsWith("?");
}

function transform(base: Base) {
  return (url: string, key: string): string => {
    const safe = defaultUrlTransform(url);
    if (!safe || !isRelative(safe)) return safe;
    const hashAt = safe.search(/[?#]/);
    const pathPart = hashAt >= 0 ? safe.slice(0, hashAt) : safe;
    const suffix = hashAt >= 0 ? safe.slice(hashAt) : "";
    let decoded = pathPart;
    try {
      decoded = decodeURIComponent(pathPart);
    } catch {
      // keep as written
    }
    const target = resolvePath(base.dir, decoded);
    if (key === "src") return `${repoUrl(base.owner, base.repo)}/raw/${encodeSegments(base.gitRef)}/${encodeSegments(target)}`;
    const kind = pathPart.endsWith("/") || !target ? "tree" : "blob";
    return codeUrl(base.owner, base.repo, kind, base.gitRef, target) + suffix;
  };
}

function textOf(node: unknown): string {
  if (!node || typeof node !== "object") return "";
  const n = node as { type?: string; value?: string; children?: unknown[] };
  if (n.type === "text") return n.value ?? "";
  return (n.children ?? []).map(textOf).join("");
}

async function CodeBlock({ code, lang }: { code: string; lang: string }) {
  const { html } = await highlightCode(code, lang);
  return <div className="md-code" dangerouslySetInnerHTML={{ __html: html }} />;
}

const components: Components = {
  pre({ node, children }) {
    const codeEl = node?.children.find((c) => c.type === "element" && c.tagName === "code") as
      | { properties?: { className?: unknown }; children: unknown[] }
      | undefined;
    if (!codeEl) return <pre>{children}</pre>;
    const classes = Array.isArray(codeEl.properties?.className) ? (codeEl.properties.className as string[]) : [];
    const lang = classes.find((c) => c.startsWith("language-"))?.slice("language-".length) ?? "text";
    return <CodeBlock code={textOf(codeEl)} lang={lang.toLowerCase()} />;
  },
  a({ node: _node, href, children, ...rest }) {
    const external = href ? /^https?:\/\//i.test(href) : false;
    return (
      <a href={href} {...rest} {...(external ? { rel: "nofollow noopener noreferrer", target: "_blank" } : {})}>
        {children}
      </a>
    );
  },
};

export function MarkdownView({ source, owner, repo, gitRef, dir }: { source: string } & Base) {
  return (
    <div className="markdown-body" data-testid="markdown">
      <Markdown remarkPlugins={[remarkGfm]} urlTransform={transform({ owner, repo, gitRef, dir })} components={components}>
        {source}
      </Markdown>
    </div>
  );
}
