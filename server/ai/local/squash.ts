/**
 * The local engine's squash commit message (ai.summarizeForSquash): a conventional
 * (`type(scope): subject`) or simple title, a body listing the commits, and `Co-authored-by`
 * trailers for the commit authors other than the pull request's author. Pure. Rules:
 * docs/ai.md "Squash messages".
 */
import { conventionalHeader, dominantScope, dominantType, lowerSubject, parseCommitMessage, typeOf, upperSubject } from "./conventional";
import { isConventionalHistory } from "./pr-description";

export type SquashStyle = "conventional" | "simple";

export interface SquashCommit {
  sha: string;
  message: string;
  /** "Name <email>" (or a bare name, which can never be a co-author: a trailer needs an email). */
  author: string;
}

export interface SquashInput {
  commits: SquashCommit[];
  prTitle?: string;
  prBody?: string;
  /** Default: conventional when the pull request title or most commits are conventional, else simple. */
  style?: SquashStyle;
  /** Whose commits are not co-authored: the pull request's author; default the first commit's author. */
  prAuthor?: { name: string; email?: string | null } | null;
  /** Appended to the title as " (#N)", as GitHub's squash does. */
  prNumber?: number;
}

export interface SquashMessage {
  message: string;
  title: string;
  body: string;
  coAuthors: string[];
}

/** "Ada Lovelace <ada@example.com>" → {name, email}; a string without an email → {name, email: null}. */
export function parseAuthor(author: string): { name: string; email: string | null } {
  const m = /^\s*(.*?)\s*<\s*([^<>\s]+@[^<>\s]+)\s*>\s*$/.exec(author);
  return m ? { name: m[1]!, email: m[2]! } : { name: author.trim(), email: null };
}

/** Same person: same email (case-insensitive) when both have one, else same name. */
function samePerson(a: { name: string; email: string | null | undefined }, b: { name: string; email: string | null | undefined }): boolean {
  if (a.email && b.email) return a.email.toLowerCase() === b.email.toLowerCase();
  return a.name.trim().toLowerCase() === b.name.trim().toLowerCase();
}

/**
 * The distinct commit authors other than `prAuthor`, as `Name <email>`, in order of first
 * commit; deduplicated by email (case-insensitive); authors without an email are left out.
 */
export function coAuthorsOf(commits: readonly SquashCommit[], prAuthor: { name: string; email?: string | null } | null): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const c of commits) {
    const who = parseAuthor(c.author);
    if (!who.email) continue;
    if (prAuthor && samePerson(who, { name: prAuthor.name, email: prAuthor.email ?? null })) continue;
    const key = who.email.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(`${who.name || who.email} <${who.email}>`);
  }
  return out;
}

/** `message` = title + blank line + body, where the body ends with the Co-authored-by trailers. */
export function assembleSquash(title: string, listing: string, coAuthors: string[]): SquashMessage {
  const trailers = coAuthors.map((a) => `Co-authored-by: ${a}`).join("\n");
  const body = [listing.trim(), trailers].filter(Boolean).join("\n\n");
  return { message: body ? `${title}\n\n${body}` : title, title, body, coAuthors };
}

/** The style used when none is asked for: conventional when the title or the history is. */
export function defaultSquashStyle(commits: readonly SquashCommit[], prTitle?: string): SquashStyle {
  if (prTitle && parseCommitMessage(prTitle).type) return "conventional";
  return isConventionalHistory(commits.map((c) => c.message)) ? "conventional" : "simple";
}

/**
 * The local engine's squash message. Title: conventional style keeps a conventional pull
 * request title, else builds `type(scope)!: subject` from the commits' most significant type
 * (the subject from the pull request title, else that type's first commit); simple style takes
 * the pull request title without a conventional prefix, else the only or first commit's
 * subject. " (#N)" is appended when the number is known. Body: `* <subject>` per commit (merge
 * and fixup! commits left out), then `BREAKING CHANGE:` footers, then the trailers.
 */
export function localSquashMessage(input: SquashInput): SquashMessage {
  const parsed = input.commits
    .map((c) => ({ c, p: parseCommitMessage(c.message) }))
    .filter(({ p }) => !p.isMerge && !p.isFixup && p.subject);
  const style = input.style ?? defaultSquashStyle(input.commits, input.prTitle);
  const prTitle = input.prTitle?.trim() ? parseCommitMessage(input.prTitle.trim()) : null;
  let title: string;
  if (style === "conventional") {
    if (prTitle?.type) title = input.prTitle!.trim().split("\n")[0]!;
    else {
      const types = parsed.map(({ p }) => typeOf(p));
      const type = dominantType(types) ?? "chore";
      const ofType = parsed.filter(({ p }) => typeOf(p) === type);
      const scope = dominantScope(ofType.map(({ p }) => p.scope));
      const subject = prTitle?.subject || ofType[0]?.p.subject || "squashed changes";
      title = conventionalHeader(
        type,
        scope,
        parsed.some(({ p }) => p.breaking),
        lowerSubject(subject),
      );
    }
  } else {
    const subject = prTitle?.subject || parsed[0]?.p.subject || "Squashed changes";
    title = upperSubject(subject);
  }
  if (input.prNumber && !title.includes(`(#${input.prNumber})`)) title = `${title} (#${input.prNumber})`;
  const listing = parsed.map(
    ({ p }) =>
      `* ${style === "conventional" && p.type ? conventionalHeader(p.type, p.scope, p.breaking && p.breakingNotes[0] === p.subject, p.subject) : p.subject}`,
  );
  const breaking = [...new Set(parsed.flatMap(({ p }) => p.breakingNotes.filter((n) => n !== p.subject)))];
  const text = [listing.join("\n"), breaking.map((b) => `BREAKING CHANGE: ${b}`).join("\n")].filter(Boolean).join("\n\n");
  const prAuthor = input.prAuthor !== undefined ? input.prAuthor : input.commits[0] ? parseAuthor(input.commits[0].author) : null;
  return assembleSquash(title, text, coAuthorsOf(input.commits, prAuthor));
}
