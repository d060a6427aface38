/**
 * GitHub-style issue search queries (docs/issues.md "Search"): `parseIssueQuery("is:open label:bug crash")` →
 * {filters, text, errors}, and `formatIssueQuery` back to text, so the search box and the filter
 * menus stay in sync. Pure (no database, no React): the server (issues.list / issues.counts `q`)
 * and the list page use the same code. Unit-tested in test/unit/issue-query.test.ts.
 *
 * Grammar (whitespace-separated terms; GitHub's "Filtering and searching issues" syntax):
 *   is:open | is:closed (state:… too; is:issue is accepted and ignored)
 *   label:bug  label:"good first issue"  label:bug,ui   — a comma list is any-of; repeated
 *              label: qualifiers must all match (GitHub)
 *   assignee:bob | assignee:@me   author:alice | author:@me   (comma lists any-of; repeated: any-of)
 *   no:assignee | no:label | no:project | no:cycle | no:due
 *   priority:high (urgent, high, medium, low, none)   status:in_progress (or "In Progress")
 *   project:"Q3 launch"   cycle:3   due:overdue | due:soon
 *   sort:created-desc | created-asc | updated-desc | updated-asc | priority | priority-asc |
 *        due-asc | due-desc   (newest, oldest, updated and due are accepted as aliases)
 *   anything else is free text (title and body, full-text search); "quoted words" are a phrase;
 *   an unknown qualifier such as `foo:bar` is kept as text, as GitHub does; GitHub's exclusions
 *   (`-label:bug`) are reported as not supported rather than silently searched as words.
 * A known qualifier with a bad value (priority:huge, cycle:x, sort:sideways) is reported in
 * `errors` (one sentence each) and otherwise ignored. Never throws, whatever the input.
 */
import { PRIORITY_KEYS, STATUS_KEYS, DEFAULT_STATUSES, type PriorityKey } from "./model";

export const ISSUE_SORTS = [
  "created-desc",
  "created-asc",
  "updated-desc",
  "updated-asc",
  "priority",
  "priority-asc",
  "due-asc",
  "due-desc",
] as const;
export type IssueSort = (typeof ISSUE_SORTS)[number];

const SORT_ALIASES: Record<string, IssueSort> = {
  newest: "created-desc",
  oldest: "created-asc",
  created: "created-desc",
  updated: "updated-desc",
  "priority-desc": "priority",
  due: "due-asc",
  "due-date": "due-asc",
};

/** What the "no:" qualifier may name. */
export const NO_FIELDS = ["assignee", "label", "project", "cycle", "due"] as const;
export type NoField = (typeof NO_FIELDS)[number];

/** The filters a query names. Lists are any-of; absent or empty means "not filtered". */
export interface IssueQueryFilters {
  state?: "open" | "closed";
  /** each group is any-of (label:a,b); every group must match (label:a label:b) */
  labels: string[][];
  /** usernames as typed, or "@me" */
  assignees: string[];
  /** usernames as typed, or "@me" */
  authors: string[];
  priorities: PriorityKey[];
  statuses: string[];
  /** project names (any-of, case-insensitive) */
  projects: string[];
  /** cycle numbers (any-of) */
  cycles: number[];
  no: NoField[];
  due?: "overdue" | "soon";
  sort?: IssueSort;
}

export interface ParsedIssueQuery {
  filters: IssueQueryFilters;
  /** the free text, terms joined by one space ("quoted phrases" keep their quotes) */
  text: string;
  /** one sentence per bad term; empty when the query is fine */
  errors: string[];
}

/** Filters with nothing set. */
export function emptyFilters(): IssueQueryFilters {
  return { labels: [], assignees: [], authors: [], priorities: [], statuses: [], projects: [], cycles: [], no: [] };
}

/** At most this many values per list, so a pasted query cannot make a huge SQL statement. */
export const MAX_QUERY_VALUES = 50;

interface Term {
  key?: string;
  values: string[];
  raw: string;
  quoted: boolean;
}

/**
 * Splits `q` into terms: `key:value`, `key:"quoted value"`, `key:a,"b c"`, `"a phrase"` or a
 * word. An unterminated quote runs to the end of the text. Pure.
 */
export function tokenizeIssueQuery(q: string): Term[] {
  const terms: Term[] = [];
  let i = 0;
  const n = q.length;
  const isSpace = (c: string) => /\s/.test(c);
  /** Reads a value (quoted or bare up to a comma or space) starting at i. */
  const readValue = (): { value: string; quoted: boolean } => {
    if (q[i] === '"') {
      const end = q.indexOf('"', i + 1);
      const value = q.slice(i + 1, end < 0 ? n : end);
      i = end < 0 ? n : end + 1;
      return { value, quoted: true };
    }
    const start = i;
    while (i < n && !isSpace(q[i]) && q[i] !== ",") i++;
    return { value: q.slice(start, i), quoted: false };
  };
  while (i < n) {
    while (i < n && isSpace(q[i])) i++;
    if (i >= n) break;
    const start = i;
    if (q[i] === '"') {
      const { value } = readValue();
      terms.push({ values: [value], raw: q.slice(start, i), quoted: true });
      continue;
    }
    const m = /^([A-Za-z-]+):(?=\S)/.exec(q.slice(i, i + 40));
    if (m) {
      i += m[0].length;
      const values: string[] = [];
      let quoted = false;
      for (;;) {
        const v = readValue();
        quoted ||= v.quoted;
        values.push(v.value);
        if (q[i] === "," && i + 1 < n && !isSpace(q[i + 1])) {
          i++;
          continue;
        }
        break;
      }
      // anything glued after a closing quote (label:"a"b) belongs to the same term
      while (i < n && !isSpace(q[i])) i++;
      terms.push({ key: m[1].toLowerCase(), values, raw: q.slice(start, i), quoted });
      continue;
    }
    while (i < n && !isSpace(q[i])) i++;
    terms.push({ values: [q.slice(start, i)], raw: q.slice(start, i), quoted: false });
  }
  return terms;
}

const statusKey = (v: string): string | null => {
  const k = v
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
  if (STATUS_KEYS.includes(k)) return k;
  return DEFAULT_STATUSES.find((s) => s.label.toLowerCase().replace(/\s+/g, "_") === k)?.key ?? null;
};

const KNOWN_KEYS = ["is", "state", "label", "assignee", "author", "no", "priority", "status", "project", "cycle", "due", "sort"];

const push = <T>(list: T[], value: T) => {
  if (!list.includes(value)) list.push(value);
};

/** Parses a search box query (see the module comment). Never throws. */
export function parseIssueQuery(q: unknown): ParsedIssueQuery {
  const filters = emptyFilters();
  const text: string[] = [];
  const errors: string[] = [];
  if (typeof q !== "string") return { filters, text: "", errors: typeof q === "undefined" || q === null ? [] : ["the query must be text"] };
  let count = 0;
  for (const t of tokenizeIssueQuery(q)) {
    if (!t.key) {
      text.push(t.raw);
      continue;
    }
    const values = t.values.map((v) => v.trim()).filter(Boolean);
    if (!values.length) {
      errors.push(`${t.key}: needs a value`);
      continue;
    }
    count += values.length;
    if (count > MAX_QUERY_VALUES) {
      errors.push(`at most ${MAX_QUERY_VALUES} qualifier values`);
      break;
    }
    const bad = (what: string) => errors.push(`${t.key}:${values.join(",")} — ${what}`);
    switch (t.key) {
      case "is":
      case "state": {
        for (const v of values.map((x) => x.toLowerCase())) {
          if (v === "open" || v === "closed") filters.state = v;
          else if (v !== "issue") bad("use is:open or is:closed");
        }
        break;
      }
      case "label":
        filters.labels.push([...new Set(values)]);
        break;
      case "assignee":
      case "author": {
        const list = t.key === "assignee" ? filters.assignees : filters.authors;
        for (const v of values) push(list, v.toLowerCase() === "@me" ? "@me" : v.replace(/^@/, ""));
        break;
      }
      case "no": {
        for (const v of values.map((x) => x.toLowerCase())) {
          const f = v === "labels" ? "label" : v === "assignees" ? "assignee" : v === "due-date" ? "due" : v;
          if ((NO_FIELDS as readonly string[]).includes(f)) push(filters.no, f as NoField);
          else bad(`no: takes ${NO_FIELDS.join(", ")}`);
        }
        break;
      }
      case "priority": {
        for (const v of values.map((x) => x.toLowerCase())) {
          if ((PRIORITY_KEYS as readonly string[]).includes(v)) push(filters.priorities, v as PriorityKey);
          else bad(`priority is one of ${PRIORITY_KEYS.join(", ")}`);
        }
        break;
      }
      case "status": {
        for (const v of values) {
          const k = statusKey(v);
          if (k) push(filters.statuses, k);
          else bad(`status is one of ${STATUS_KEYS.join(", ")}`);
        }
        break;
      }
      case "project":
        for (const v of values)
          if (v.length <= 100) push(filters.projects, v);
          else bad("a project name is at most 100 characters");
        break;
      case "cycle": {
        for (const v of values) {
          const c = /^\d{1,9}$/.test(v) ? Number(v) : NaN;
          if (c >= 1) push(filters.cycles, c);
          else bad("a cycle is a number");
        }
        break;
      }
      case "due": {
        const v = values[0].toLowerCase();
        if (values.length === 1 && (v === "overdue" || v === "soon")) filters.due = v;
        else bad("use due:overdue or due:soon");
        break;
      }
      case "sort": {
        const v = values[0].toLowerCase();
        const s = (ISSUE_SORTS as readonly string[]).includes(v) ? (v as IssueSort) : SORT_ALIASES[v];
        if (values.length === 1 && s) filters.sort = s;
        else bad(`sort is one of ${ISSUE_SORTS.join(", ")}`);
        break;
      }
      default:
        if (t.key.startsWith("-") && KNOWN_KEYS.includes(t.key.slice(1)))
          errors.push(`${t.raw} — excluding (-${t.key.slice(1)}:) is not supported yet`);
        else text.push(t.raw); // unknown qualifier: text, as GitHub does
    }
  }
  return { filters, text: text.join(" "), errors };
}

/** Quotes a qualifier value when it holds a space, comma or quote (quotes inside are dropped). */
export function quoteValue(v: string): string {
  const clean = v.replace(/"/g, "");
  return /[\s,]/.test(clean) || clean === "" ? `"${clean}"` : clean;
}

/**
 * The canonical query text for `filters` and free `text` (pure): is:, status:, priority:,
 * label: (one per group), assignee:, author:, project:, cycle:, no:, due:, sort:, then the text.
 * parseIssueQuery(formatIssueQuery(f, t)) gives back f and t.
 */
export function formatIssueQuery(filters: Partial<IssueQueryFilters>, text = ""): string {
  const out: string[] = [];
  const list = (key: string, values: readonly (string | number)[] | undefined) => {
    if (values?.length) out.push(`${key}:${values.map((v) => quoteValue(String(v))).join(",")}`);
  };
  if (filters.state) out.push(`is:${filters.state}`);
  list("status", filters.statuses);
  list("priority", filters.priorities);
  for (const group of filters.labels ?? []) list("label", group);
  list("assignee", filters.assignees);
  list("author", filters.authors);
  list("project", filters.projects);
  list("cycle", filters.cycles);
  for (const f of filters.no ?? []) out.push(`no:${f}`);
  if (filters.due) out.push(`due:${filters.due}`);
  if (filters.sort) out.push(`sort:${filters.sort}`);
  if (text.trim()) out.push(text.trim());
  return out.join(" ");
}

/**
 * The words of free text for full-text search, as phrases: `"exact words"` stays one phrase,
 * every other word is its own phrase. Words are runs of letters, digits and combining marks
 * (what SQLite's unicode61 tokenizer and PostgreSQL's parser keep); punctuation and FTS syntax
 * (`*`, `-`, `^`, `:`, `(`, quotes, NEAR/AND/OR as mere words) never reach the engine as
 * syntax. At most 32 phrases. Empty when the text has no words.
 */
export function searchPhrases(text: string): string[][] {
  const phrases: string[][] = [];
  const re = /"([^"]*)"?|[^\s"]+/g;
  for (const m of text.matchAll(re)) {
    const words = (m[1] ?? m[0]).match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];
    if (!words.length) continue;
    if (m[1] !== undefined) phrases.push(words.map((w) => w.toLowerCase()));
    else for (const w of words) phrases.push([w.toLowerCase()]);
    if (phrases.length >= 32) break;
  }
  return phrases.slice(0, 32);
}

/** An FTS5 MATCH expression for phrases: every phrase quoted, all required (AND). Pure. */
export function fts5Match(phrases: string[][]): string {
  return phrases.map((p) => `"${p.join(" ").replace(/"/g, '""')}"`).join(" AND ");
}

/**
 * A websearch_to_tsquery text for phrases: every phrase quoted (so "or" and "-" are never
 * operators), all required. Pure.
 */
export function websearchText(phrases: string[][]): string {
  return phrases.map((p) => `"${p.join(" ")}"`).join(" ");
}
