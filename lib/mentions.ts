/**
 * `@user` and `@org/team` mentions in a Markdown body, by the rule the renderer links them with
 * (components/markdown/references.ts): a valid username (letters, digits, single hyphens, 1–39
 * characters; lib/names.ts), not reserved, not glued to a word, path or e-mail address; text in
 * code spans and fenced code blocks does not mention anyone. Isomorphic (server fan-out and UI).
 */
import { RESERVED_USERNAMES } from "./names";

/** `@name` or `@org/team`, the team part a slug. */
const MENTION = /@([A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38})(?:\/([A-Za-z0-9][A-Za-z0-9_.-]{0,99}))?(?![\w-]|\.\w)/g;

/** True when the character before a token at `index` allows a mention to start there (as references.ts). */
export function mentionBoundary(text: string, index: number): boolean {
  if (index === 0) return true;
  return !/[\w/@.#&-]/.test(text[index - 1]);
}

/** Mentions found in a body: usernames and `{org, team}` pairs, lower-cased, each once. */
export interface Mentions {
  users: string[];
  teams: { org: string; team: string }[];
}

/** The mentions of Markdown `body` (fenced blocks and code spans skipped); at most 100 of each kind. */
export function parseMentions(body: string): Mentions {
  const text = body.replace(/^(```|~~~)[^\n]*\n[\s\S]*?(?:^\1[^\n]*$|(?![\s\S]))/gm, " ").replace(/`[^`\n]*`/g, " ");
  const users = new Set<string>();
  const teams = new Map<string, { org: string; team: string }>();
  MENTION.lastIndex = 0;
  for (let m = MENTION.exec(text); m; m = MENTION.exec(text)) {
    if (!mentionBoundary(text, m.index)) continue;
    const name = m[1].toLowerCase();
    if (RESERVED_USERNAMES.has(name)) continue;
    if (m[2]) {
      const team = m[2].toLowerCase();
      if (teams.size < 100) teams.set(`${name}/${team}`, { org: name, team });
    } else if (users.size < 100) users.add(name);
  }
  return { users: [...users], teams: [...teams.values()] };
}
