/**
 * The one Markdown renderer of the app (README, .md file preview, issue and comment bodies), for
 * server and client components alike. Chain: remark-gfm → remark-rehype (raw HTML kept) →
 * rehype-raw (parses the HTML) → references (`#N` and `@user` links, issue bodies only; ./references.ts) → rehype-slug (heading ids, GitHub's slugger) → rehype-sanitize
 * (GitHub's allowlist, ./schema.ts; ids become `user-content-<slug>`) → URL rewriting (./urls.ts).
 * Headings get an anchor link to their own (prefixed) id; external http(s) links open in a new
 * tab with rel="nofollow noopener noreferrer". Output needs no CSP beyond inline styles and
 * https images (server/http/security-headers.ts): `style` attributes are stripped anyway.
 * Rules: docs/ui.md "Markdown". Its cost is bounded first (./cost.ts `boundMarkdown`: runs of
 * lines that would make micromark quadratic lose their formatting, with a notice; a text over
 * 1 MiB is shown as plain text).
 */
import type { ComponentPropsWithoutRef, ReactNode } from "react";
import Markdown, { type Components } from "react-markdown";
import rehypeRaw from "rehype-raw";
import rehypeSanitize from "rehype-sanitize";
import rehypeSlug from "rehype-slug";
import remarkGfm from "remark-gfm";
import { boundMarkdown } from "./cost";
import { rehypeReferences, type RefContext } from "./references";
import { markdownSchema } from "./schema";
import { markdownUrlTransform, transformSrcSet, type RepoBase } from "./urls";

export type { RepoBase } from "./urls";
export type { RefContext } from "./references";

type HeadingTag = "h1" | "h2" | "h3" | "h4" | "h5" | "h6";

function heading(Tag: HeadingTag) {
  return function Heading({ node: _node, id, children, ...rest }: ComponentPropsWithoutRef<HeadingTag> & { node?: unknown }) {
    return (
      <Tag id={id} {...rest}>
        {id && (
          <a className="anchor" href={`#${id}`} aria-label="Permalink" data-testid="heading-anchor">
            #
          </a>
        )}
        {children}
      </Tag>
    );
  };
}

function baseComponents(transform: (url: string, key: string) => string): Components {
  return {
    h1: heading("h1"),
    h2: heading("h2"),
    h3: heading("h3"),
    h4: heading("h4"),
    h5: heading("h5"),
    h6: heading("h6"),
    a({ node: _node, href, children, ...rest }) {
      const external = href ? /^https?:\/\//i.test(href) : false;
      return (
        <a href={href} {...rest} {...(external ? { rel: "nofollow noopener noreferrer", target: "_blank" } : {})}>
          {children}
        </a>
      );
    },
    // react-markdown rewrites `src` but not `srcset` (a list): resolve each candidate the same way
    source({ node: _node, srcSet, ...rest }) {
      return <source {...rest} srcSet={srcSet ? transformSrcSet(String(srcSet), transform) || undefined : undefined} />;
    },
  };
}

/**
 * Renders `source` (Markdown + sanitized HTML) inside `div.markdown-body`.
 * `base`: the repository location relative URLs resolve against (README / file preview);
 * without it (issue bodies) relative URLs stay as written. `components` override elements
 * (the code browser adds shiki-highlighted code blocks). `refs`: the repository of an issue or
 * comment body; `#N` then links to its issue N and `@user` to the user's profile (sanitized
 * afterwards like all other HTML).
 */
export function MarkdownRenderer({
  source,
  base,
  components,
  className,
  testId = "markdown",
  refs,
}: {
  source: string;
  base?: RepoBase;
  refs?: RefContext;
  components?: Components;
  className?: string;
  testId?: string;
}): ReactNode {
  const transform = markdownUrlTransform(base);
  const bounded = boundMarkdown(source);
  const notice = "border-b border-warning-border bg-warning-muted px-3 py-1.5 text-xs text-warning";
  if (bounded.refusal)
    return (
      <div className={className ? `markdown-body ${className}` : "markdown-body"} data-testid={testId}>
        <p className={notice} data-testid="markdown-bounded">
          Shown as plain text: {bounded.refusal}.
        </p>
        <pre className="whitespace-pre-wrap">{source}</pre>
      </div>
    );
  return (
    <div className={className ? `markdown-body ${className}` : "markdown-body"} data-testid={testId}>
      {bounded.escaped > 0 && (
        <p className={notice} data-testid="markdown-bounded">
          Some paragraphs are shown without formatting: they have too many *, _, ~, [ or ] characters or are nested too deeply.
        </p>
      )}
      {
        // called, not rendered as <Markdown>: the whole tree comes out of this call, so a caller
        // may keep the result (components/code/markdown.tsx keeps README renders)
        Markdown({
          remarkPlugins: [remarkGfm],
          // footnote ids get their prefix from the sanitizer (once), like every other id
          remarkRehypeOptions: { clobberPrefix: "" },
          rehypePlugins: refs
            ? [rehypeRaw, [rehypeReferences, refs], rehypeSlug, [rehypeSanitize, markdownSchema]]
            : [rehypeRaw, rehypeSlug, [rehypeSanitize, markdownSchema]],
          urlTransform: transform,
          components: { ...baseComponents(transform), ...components },
          children: bounded.source,
        })
      }
    </div>
  );
}
