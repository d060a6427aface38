/**
 * rehype plugin for issue and comment bodies (docs/ui.md "Markdown"): `#12` becomes a link to issue
 * 12 of the repository (`/<owner>/<repo>/issues/12`) and `@alice` a link to the user's profile
 * (`/alice`), as on GitHub. Runs on the HTML tree after rehype-raw and BEFORE rehype-sanitize
 * (components/markdown/renderer.tsx), so it sees raw-HTML links too and its output is sanitized
 * like everything else; the links it makes are plain `<a href>` to same-origin paths.
 *
 * Not linked: text inside `a` (existing links, also from raw HTML), `code`/`pre` (code spans and
 * blocks), `kbd`, `script`/`style`/`textarea`; `#12` glued to a word or path (`issue#12`, `a/#1`),
 * `@name` inside e-mail addresses or paths (`bob@example.com`, `/@x`), names that are not valid
 * usernames (letters, digits, single hyphens, 1–39 characters; lib/names.ts)
 * or reserved top-level paths (`@settings`, `@api`…).
 */
import type { Element, ElementContent, Root, RootContent, Text } from "hast";
import { RESERVED_USERNAMES } from "@/lib/names";
import { mentionBoundary } from "@/lib/mentions";

/** Where `#N` references point: the repository the body belongs to. */
export interface RefContext {
  owner: string;
  repo: string;
}

const SKIP = new Set(["a", "code", "pre", "kbd", "script", "style", "textarea", "svg", "math"]);
/** `#123` or `@user`, with the character before it (or the start) captured to check the boundary. */
const TOKEN = /#(\d{1,9})(?![\w-])|@([A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38})(?![\w-]|\.\w)/g;

const enc = encodeURIComponent;

/** True when the character before a token allows a reference to start there (the rule the notification fan-out's mentions follow: lib/mentions.ts). */
const boundaryBefore = mentionBoundary;

/** Splits one text value into text and link nodes; null when nothing matched. */
export function linkifyText(value: string, ctx: RefContext): ElementContent[] | null {
  const out: ElementContent[] = [];
  let last = 0;
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(value); m; m = TOKEN.exec(value)) {
    if (!boundaryBefore(value, m.index)) continue;
    let href: string;
    if (m[1] !== undefined) {
      const n = Number(m[1]);
      if (!Number.isSafeInteger(n) || n < 1) continue;
      href = `/${enc(ctx.owner)}/${enc(ctx.repo)}/issues/${n}`;
    } else {
      if (RESERVED_USERNAMES.has(m[2].toLowerCase())) continue;
      href = `/${enc(m[2])}`;
    }
    if (m.index > last) out.push({ type: "text", value: value.slice(last, m.index) });
    out.push({ type: "element", tagName: "a", properties: { href }, children: [{ type: "text", value: m[0] }] });
    last = m.index + m[0].length;
  }
  if (last === 0) return null;
  if (last < value.length) out.push({ type: "text", value: value.slice(last) });
  return out;
}

function walk(node: Root | Element, ctx: RefContext): void {
  const next: (RootContent | ElementContent)[] = [];
  let changed = false;
  for (const child of node.children) {
    if (child.type === "text") {
      const parts = linkifyText((child as Text).value, ctx);
      if (parts) {
        next.push(...parts);
        changed = true;
        continue;
      }
    } else if (child.type === "element" && !SKIP.has(child.tagName)) {
      walk(child, ctx);
    }
    next.push(child);
  }
  if (changed) node.children = next as typeof node.children;
}

/** The rehype plugin: `[rehypeReferences, {owner, repo}]`. */
export function rehypeReferences(ctx: RefContext) {
  return (tree: Root) => walk(tree, ctx);
}
