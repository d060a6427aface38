/**
 * The sanitize schema for rendered Markdown: rehype-sanitize's `defaultSchema`, which follows
 * GitHub's HTML allowlist (github/markup, "Sanitization filter"): `details`/`summary`,
 * `picture`/`source` (with `srcSet`, `media`), `img`, `a`, `br`, `sup`/`sub`, `kbd`, tables, and
 * the `align`, `width`, `height` attributes on every element. No `style`, no `class` (other than
 * GFM's task-list / footnote / `language-*` classes), no event handlers, no `script`/`iframe`;
 * URLs only with http(s)/mailto/xmpp/irc(s) or no protocol. `id` and `name` are prefixed with
 * `user-content-` (GitHub's clobber rule), so user HTML cannot shadow the page's own ids.
 * Raw HTML is always rendered through this sanitizer with GitHub's allowlist, never unsanitized
 * (docs/ui.md "Markdown").
 */
import { defaultSchema, type Options as Schema } from "rehype-sanitize";

/** Prefix GitHub (and this renderer) puts before every user-supplied `id`/`name`. */
export const CLOBBER_PREFIX = "user-content-";

export const markdownSchema: Schema = {
  ...defaultSchema,
  clobberPrefix: CLOBBER_PREFIX,
  attributes: {
    ...defaultSchema.attributes,
    // GitHub keeps `media`, `type`, `width`, `height` on <source> inside <picture> (dark/light logos)
    source: [...(defaultSchema.attributes?.source ?? []), "media", "type", "width", "height"],
  },
};
