/**
 * The one way input schemas take strings (docs/api.md "Errors: no 500 for bad input, nothing
 * internal in an answer"). Every `z.string()` of an input schema
 * is built here, so text that cannot be stored or shown is refused at the edge with a 400 naming
 * the field, instead of failing deep in the database driver with a 500:
 *
 *   - lone UTF-16 surrogates ("x\ud800", from JSON "\ud800" escapes): not well-formed Unicode, so
 *     they have no UTF-8 form; Prisma's engine fails on them (and its error quoted SQL);
 *   - NUL (U+0000): PostgreSQL `text` cannot hold it ("invalid byte sequence for encoding UTF8:
 *     0x00"), and no field has a use for it;
 *   - single-line fields (`line`: names, titles, labels, refs, emails, descriptions) also refuse
 *     the other C0 control characters U+0001–U+001F and DEL U+007F (tab, CR and LF included);
 *     multi-line fields (`text`: issue and comment bodies, reasons, passwords, file paths) allow them.
 *
 * A test (test/unit/string-inputs.test.ts) fails when a `z.string(` appears anywhere in server/
 * outside this file, so a new schema cannot forget the rule.
 */
import { z } from "zod";

/** A high surrogate not followed by a low one, or a low one not preceded by a high one (code units). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001F\u007F]/;

export type StringKind = "line" | "text";

/**
 * Why `value` is not acceptable as a string input of `kind`, as the end of a sentence whose subject
 * is the field ("must not contain NUL characters"), or null when it is fine. Pure; scans the
 * whole string once per rule (O(length)).
 */
export function stringProblem(value: string, kind: StringKind): string | null {
  if (LONE_SURROGATE.test(value)) return "must be well-formed Unicode (no lone surrogates)";
  if (value.includes("\u0000")) return "must not contain NUL characters";
  if (kind === "line" && CONTROL.test(value)) return "must be a single line without control characters";
  return null;
}

function build(kind: StringKind, field: string, typeError?: string): z.ZodString {
  return z.string({ error: typeError ?? `${field} must be a string` }).superRefine((value, ctx) => {
    const problem = stringProblem(value, kind);
    if (problem) ctx.addIssue({ code: "custom", message: `${field} ${problem}` });
  });
}

/**
 * A single-line string input named `field` (used in the messages): refuses lone surrogates, NUL
 * and every other C0 control character and DEL (400 "<field> must be …"). `typeError` replaces
 * the default "<field> must be a string" for non-strings. Chain `.trim().min().max()` etc. as on
 * `z.string()` (the refinement runs before the other checks' messages are added).
 */
export function line(field: string, typeError?: string): z.ZodString {
  return build("line", field, typeError);
}

/**
 * A multi-line string input named `field`: refuses lone surrogates and NUL, allows tab, CR, LF and
 * the other control characters (Markdown bodies, passwords, file paths).
 */
export function text(field: string, typeError?: string): z.ZodString {
  return build("text", field, typeError);
}

/**
 * A string field of a model's ANSWER schema (AI structured output, server/ai/structured.ts):
 * sent to the provider as JSON Schema, so it carries no refinements; never for user input,
 * which goes through `line` / `text`. The services bound and check what they use of it.
 */
export function modelText(): z.ZodString {
  return z.string();
}
