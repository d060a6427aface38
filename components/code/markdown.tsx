/**
 * Renders Markdown files (README.md, .md previews) on the server with the shared renderer
 * (components/markdown/renderer.tsx: GFM, sanitized raw HTML, heading anchors). Relative links
 * point at the file browser and relative images at the raw endpoint, both at the same ref.
 * Fenced code blocks are highlighted with shiki on the worker pool (server/highlight), all the
 * blocks of one view within one time budget (the blocks past it are plain).
 */
import type { Components } from "react-markdown";
import { MarkdownRenderer, type RepoBase } from "@/components/markdown/renderer";
import { HighlightBudget, highlightCode } from "@/server/highlight";

function textOf(node: unknown): string {
  if (!node || typeof node !== "object") return "";
  const n = node as { type?: string; value?: string; children?: unknown[] };
  if (n.type === "text") return n.value ?? "";
  return (n.children ?? []).map(textOf).join("");
}

async function CodeBlock({ code, lang, budget }: { code: string; lang: string; budget: HighlightBudget }) {
  const { html } = await highlightCode(code, lang, { budget });
  return <div className="md-code" dangerouslySetInnerHTML={{ __html: html }} />;
}

/** The renderer's overrides for one view: its code blocks share `budget`. */
function components(budget: HighlightBudget): Components {
  return {
    pre({ node, children }) {
      const codeEl = node?.children.find((c) => c.type === "element" && c.tagName === "code") as
        { properties?: { className?: unknown }; children: unknown[] } | undefined;
      if (!codeEl) return <pre>{children}</pre>;
      const classes = Array.isArray(codeEl.properties?.className) ? (codeEl.properties.className as string[]) : [];
      const lang = classes.find((c) => c.startsWith("language-"))?.slice("language-".length) ?? "text";
      return <CodeBlock code={textOf(codeEl)} lang={lang.toLowerCase()} budget={budget} />;
    },
  };
}

export function MarkdownView({ source, owner, repo, gitRef, dir }: { source: string } & RepoBase) {
  return <MarkdownRenderer source={source} base={{ owner, repo, gitRef, dir }} components={components(new HighlightBudget())} />;
}
