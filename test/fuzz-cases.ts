/**
 * Generated bad input for the no-500 properties (docs/api.md "Errors: no 500 for bad input, nothing
 * internal in an answer"), shared by
 * test/integration/bad-input.property.test.ts (a few thousand cases) and bench/fuzz.bench.ts
 * (≥ 10,000, and the page routes of a running server):
 *   - field values: fast-check's `anything`, numbers, and strings with lone UTF-16 surrogates,
 *     NUL and other control characters, 1 MB strings and malformed percent-escapes, also nested
 *     in arrays and objects (labels, filters, sort);
 *   - HTTP requests: tRPC GET ?input= / POST / batch / garbage paths and query strings, REST
 *     /api/tokens POST and DELETE, git smart HTTP paths, queries and bodies, page routes; with
 *     garbage in Cookie, Authorization and X-Request-Id now and then.
 * A response fails when its status is 5xx or (API responses) its body shows internals.
 */
import http from "node:http";
import fc from "fast-check";
import { setAt } from "./schema-strings";
import * as gitRoute from "@/app/api/git/[owner]/[repo]/[...path]/route";

/** One megabyte of text (a "huge string"). */
export const HUGE = "x".repeat(1 << 20);

/** Pieces that break naive code: lone surrogates, NUL and controls, escapes, dots, dashes. */
const BAD_PIECES = [
  "x\ud800",
  "\ud800",
  "\udc00",
  "\udbff\udbff",
  "\udc00\ud800",
  "\u0000",
  "a\u0000b",
  "\u0001",
  "\u0007",
  "\u001f",
  "\u007f",
  "\r\n",
  "\n",
  "\t",
  "\u2028",
  "\ufeff",
  "\uffff",
  "%",
  "%Z",
  "%ZZ",
  "%E0%A4%A",
  "%00",
  "%0A",
  "%ED%A0%80",
  "%C0%AF",
  "%25",
  "%2F",
  "..",
  ".",
  "-",
  "--",
  "🙂",
  "é",
  " ",
  "'",
  '"',
  "\\",
  "$(x)",
  "<a>",
  // search syntax (issues.list q: qualifiers, FTS5 / tsquery operators)
  "*",
  "NEAR(",
  "^",
  ":",
  'label:"',
  "is:",
  "sort:",
  "-label:",
  "OR",
  "AND NOT",
  "@me",
];

/** Strings mixing the pieces above with arbitrary text; now and then 1 MB long. */
export const badString: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .array(fc.oneof(fc.constantFrom(...BAD_PIECES), fc.string({ maxLength: 4 })), { minLength: 1, maxLength: 6 })
      .map((a) => a.join("")),
  },
  { weight: 1, arbitrary: fc.constantFrom(HUGE, HUGE + "\ud800", "\u0000" + HUGE) },
);

const OLD_NASTY = fc.oneof(
  fc.anything(),
  fc.constantFrom(
    "",
    "-",
    "--upload-pack=touch /tmp/x",
    "../../etc/passwd",
    "a\0b",
    "x".repeat(5000),
    "HEAD",
    "main~1",
    "refs/heads/../x",
    "0",
    "-1",
    "NaN",
    "🙂",
    "\n",
  ),
  fc.integer(),
  fc.double(),
  fc.constantFrom(-1, 0, 1e12, Number.MAX_SAFE_INTEGER, 1.5, null, true),
  fc.uuid(),
);

const NESTED_KEYS = ["status", "priority", "labels", "assignee", "dueDate", "field", "direction", "name"];

/** A field value: anything, a bad string, or bad strings in an array or a nested object. */
export const nasty: fc.Arbitrary<unknown> = fc.oneof(
  OLD_NASTY,
  badString,
  fc.array(badString, { maxLength: 3 }),
  fc.dictionary(fc.constantFrom(...NESTED_KEYS), fc.oneof(badString, fc.array(badString, { maxLength: 3 })), { maxKeys: 3 }),
);

/** Field names the procedures use (so generated objects reach the schemas' fields). */
export const FIELDS = [
  "repoId",
  "owner",
  "name",
  "ref",
  "path",
  "limit",
  "offset",
  "username",
  "role",
  "description",
  "isPrivate",
  "defaultBranch",
  "password",
  "email",
  "number",
  "title",
  "body",
  "state",
  "status",
  "priority",
  "dueDate",
  "estimate",
  "labels",
  "labelId",
  "issueId",
  "commentId",
  "templateId",
  "viewId",
  "parentNumber",
  "sourceNumber",
  "targetNumber",
  "type",
  "reason",
  "filters",
  "sort",
  "color",
  "days",
  "project",
  "cycle",
  "prId",
  "sessionId",
  "changeId",
  "startsAt",
  "endsAt",
  "assigneeId",
  "numbers",
  "beforeNumber",
  "afterNumber",
  "scopes",
  "expiresInDays",
  "titleSearch",
  "currentPassword",
  "newPassword",
  "projectId",
  "cycleId",
  "q",
  "author",
];

/**
 * A procedure input: a bare value or an object of nasty fields, often with a real repoId or
 * owner/name; or a mostly valid input (real repoId, issue number 1, a title, a color…) with one
 * field replaced by a bad string, so the bad string gets past the other checks to the database;
 * `targets` (the procedure's string fields, test/schema-strings.ts) are aimed at directly.
 */
export function procedureInput(repoId: string, owner: string, targets: (string | number)[][] = []): fc.Arbitrary<unknown> {
  const fields = fc.dictionary(fc.constantFrom(...FIELDS), nasty, { maxKeys: 6 });
  const valid = {
    repoId,
    owner,
    name: "x",
    title: "t",
    body: "b",
    number: 1,
    color: "#aaaaaa",
    username: owner,
    role: "read",
    startsAt: "2026-01-01",
    endsAt: "2026-02-01",
  };
  return fc.oneof(
    nasty,
    fields,
    fields.map((o) => ({ ...o, repoId })),
    fields.map((o) => ({ ...o, owner, name: "x" })),
    fc
      .tuple(fc.constantFrom(...FIELDS), fc.oneof(badString, fc.array(badString, { minLength: 1, maxLength: 2 })))
      .map(([k, v]) => ({ ...valid, [k]: v })),
    ...(targets.length
      ? [{ weight: 4, arbitrary: fc.tuple(fc.constantFrom(...targets), badString).map(([path, v]) => setAt(valid, path, v)) }]
      : []),
  );
}

/** URL text with malformed and tricky percent-escapes (a path segment when `segment`). */
export function urlGarbage(segment = true): fc.Arbitrary<string> {
  const pieces = [
    "%",
    "%Z",
    "%ZZ",
    "%E0%A4%A",
    "%00",
    "%0A",
    "%0D",
    "%ED%A0%80",
    "%C0%AF",
    "%FF",
    "%25",
    "%2F",
    "%3F",
    "%23",
    "..",
    ".",
    "a",
    "main",
    "é",
    "%20",
    ";",
    "~",
    "-x",
    "info",
    "refs",
  ];
  if (!segment) pieces.push("/", "?", "&", "=");
  return fc
    .array(fc.oneof(fc.constantFrom(...pieces), fc.stringMatching(/^[A-Za-z0-9._~-]{0,4}$/)), { minLength: 1, maxLength: 6 })
    .map((a) => a.join(""));
}

export interface HttpCase {
  surface: "trpc" | "rest" | "git" | "page";
  method: string;
  /** Path and query, as sent (not re-encoded by us). */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** The real credentials of the fixture owner: a PAT (all scopes) and a service token. */
export interface Fixture {
  owner: string;
  repo: string;
  repoId: string;
  pat: string;
  /** Headers that authorize /api/tokens: a service token, or a session cookie (plus Origin). */
  restAuth: Record<string, string>;
  procedures: { path: string; type: string }[];
  /** Cookie header of a signed-in browser (page routes; bench with --base-url only). */
  sessionCookie?: string;
}

function json(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "null";
  } catch {
    return "null";
  }
}

/** Header values a fetch client can send: printable ASCII (garbage for the server, not for undici). */
const headerGarbage = fc
  .array(
    fc.constantFrom("%", "%ZZ", "=", ";", " ", "a", "svc_", "Bearer ", "Basic ", "next-auth.session-token=", '"', ",", "x".repeat(300)),
    { maxLength: 6 },
  )
  .map((a) => a.join(""));

/** Extra headers: usually none, sometimes garbage cookie, authorization or request id. */
const extraHeaders: fc.Arbitrary<Record<string, string>> = fc.oneof(
  { weight: 5, arbitrary: fc.constant({}) },
  { weight: 1, arbitrary: headerGarbage.map((v) => ({ cookie: `a=${v}; next-auth.session-token=${v}` })) },
  { weight: 1, arbitrary: headerGarbage.map((v) => ({ authorization: v })) },
  { weight: 1, arbitrary: headerGarbage.map((v) => ({ "x-request-id": v })) },
);

function withAuth(auth: Record<string, string>) {
  return extraHeaders.map((extra) => ({ ...auth, ...extra }));
}

/** tRPC requests: GET ?input=, POST body, batch, garbage query strings and procedure paths. */
export function trpcCases(f: Fixture): fc.Arbitrary<HttpCase> {
  const proc = fc.constantFrom(...f.procedures.map((p) => p.path));
  const auth = withAuth({ authorization: `Bearer ${f.pat}` });
  const input = procedureInput(f.repoId, f.owner);
  return fc.oneof(
    fc.tuple(proc, input, auth).map(([p, v, h]) => ({
      surface: "trpc" as const,
      method: "GET",
      path: `/api/trpc/${p}?input=${encodeURIComponent(json(v))}`,
      headers: h,
    })),
    fc.tuple(proc, input, auth).map(([p, v, h]) => ({
      surface: "trpc" as const,
      method: "POST",
      path: `/api/trpc/${p}`,
      headers: { ...h, "content-type": "application/json" },
      body: json(v),
    })),
    fc.tuple(proc, proc, input, auth).map(([p, q, v, h]) => ({
      surface: "trpc" as const,
      method: "GET",
      path: `/trpc/${p},${q}?batch=1&input=${encodeURIComponent(json({ 0: v, 1: v }))}`,
      headers: h,
    })),
    fc
      .tuple(proc, urlGarbage(false), auth)
      .map(([p, g, h]) => ({ surface: "trpc" as const, method: "GET", path: `/api/trpc/${p}?input=${g}`, headers: h })),
    fc.tuple(urlGarbage(), fc.constantFrom("/api/trpc/", "/trpc/"), fc.constantFrom("GET", "POST"), auth).map(([g, prefix, method, h]) => ({
      surface: "trpc" as const,
      method,
      path: `${prefix}${g}`,
      headers: h,
      body: method === "POST" ? "{}" : undefined,
    })),
    fc.tuple(proc, badString, auth).map(([p, b, h]) => ({
      surface: "trpc" as const,
      method: "POST",
      path: `/api/trpc/${p}`,
      headers: { ...h, "content-type": "application/json" },
      body: b,
    })),
  );
}

/** REST token endpoints with the service token or session: POST bodies, DELETE segments. */
export function restCases(f: Fixture): fc.Arbitrary<HttpCase> {
  const auth = withAuth(f.restAuth);
  const tokenFields = fc.dictionary(fc.constantFrom("name", "scopes", "expiresInDays"), nasty, { maxKeys: 3 });
  return fc.oneof(
    fc.tuple(tokenFields, auth).map(([v, h]) => ({
      surface: "rest" as const,
      method: "POST",
      path: "/api/tokens",
      headers: { ...h, "content-type": "application/json" },
      body: json(v),
    })),
    fc.tuple(badString, auth).map(([b, h]) => ({ surface: "rest" as const, method: "POST", path: "/api/tokens", headers: h, body: b })),
    fc.tuple(urlGarbage(), auth).map(([g, h]) => ({ surface: "rest" as const, method: "DELETE", path: `/api/tokens/${g}`, headers: h })),
    auth.map((h) => ({ surface: "rest" as const, method: "GET", path: "/api/tokens", headers: h })),
  );
}

/** Git smart HTTP: garbage after `.git/`, in `service=`, in owner and repository names, in bodies. */
export function gitCases(f: Fixture): fc.Arbitrary<HttpCase> {
  const auth = withAuth({ authorization: `Basic ${Buffer.from(`${f.owner}:${f.pat}`).toString("base64")}` });
  const base = `/${f.owner}/${f.repo}.git`;
  return fc.oneof(
    fc
      .tuple(urlGarbage(false), urlGarbage(false), auth)
      .map(([g, s, h]) => ({ surface: "git" as const, method: "GET", path: `${base}/${g}?service=${s}`, headers: h })),
    fc
      .tuple(urlGarbage(false), auth)
      .map(([s, h]) => ({ surface: "git" as const, method: "GET", path: `${base}/info/refs?service=${s}`, headers: h })),
    fc.tuple(urlGarbage(), urlGarbage(), auth).map(([o, r, h]) => ({
      surface: "git" as const,
      method: "GET",
      path: `/${o}/${r}.git/info/refs?service=git-upload-pack`,
      headers: h,
    })),
    fc.tuple(fc.constantFrom("git-upload-pack", "git-receive-pack"), urlGarbage(), badString, auth).map(([svc, g, b, h]) => ({
      surface: "git" as const,
      method: "POST",
      path: `${base}/${g.length % 2 ? svc : g}`,
      headers: { ...h, "content-type": `application/x-${svc}-request` },
      body: b,
    })),
  );
}

/** Page routes of the Next app (only against a running server): code browser, raw, sign-in. */
export function pageCases(f: Fixture): fc.Arbitrary<HttpCase> {
  const who = fc.constantFrom<Record<string, string>>({}, f.sessionCookie ? { cookie: f.sessionCookie } : {});
  const repo = `/${f.owner}/${f.repo}`;
  const path = fc.oneof(
    urlGarbage().map((g) => `${repo}/raw/main/${g}`),
    urlGarbage().map((g) => `${repo}/blob/main/${g}`),
    urlGarbage().map((g) => `${repo}/tree/${g}`),
    urlGarbage().map((g) => `${repo}/commits/${g}`),
    urlGarbage().map((g) => `${repo}/issues/${g}`),
    urlGarbage(false).map((g) => `${repo}/issues?${g}`),
    urlGarbage(false).map((g) => `${repo}/commits?page=${g}`),
    urlGarbage(false).map((g) => `/signin?callbackUrl=${g}`),
    urlGarbage(false).map((g) => `/signup?callbackUrl=${g}`),
    fc.tuple(urlGarbage(), urlGarbage()).map(([o, r]) => `/${o}/${r}`),
    urlGarbage().map((g) => `/${f.owner}/${g}`),
    urlGarbage().map((g) => `/${g}`),
  );
  return fc.tuple(path, who).map(([p, h]) => ({ surface: "page" as const, method: "GET", path: p, headers: h }));
}

export interface Outcome {
  status: number;
  body: string;
}

/**
 * Sends `c` to `baseUrl` over a fresh connection (node:http, so the path goes out byte for byte,
 * never normalized as fetch would), without following redirects. A server may answer before
 * reading a body (413, 401) and close the connection: the answer counts, the reset does not.
 * Status 0 when no answer came at all.
 */
export function send(baseUrl: string, c: HttpCase): Promise<Outcome> {
  const url = new URL(baseUrl);
  return new Promise((resolve) => {
    let answered = false;
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: c.method,
        path: c.path,
        headers: { ...c.headers, ...(c.body !== undefined ? { "content-length": Buffer.byteLength(c.body) } : {}) },
        agent: false,
      },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on("data", (d: Buffer) => chunks.push(d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
      },
    );
    req.on("error", (e) => {
      if (!answered) resolve({ status: 0, body: String(e) });
    });
    req.end(c.body);
  });
}

/** Texts no API answer may contain: driver and engine names, stack frames, server paths. */
const LEAKS = [/prisma/i, /invalid byte sequence/i, /SQLITE_/, /node_modules/, /\n\s+at .+:\d+:\d+/];

/** Why `o` (the answer to `c`) is wrong, or null: a 5xx, or an API body leaking internals (`secrets`: e.g. the data directory). */
export function problemOf(c: HttpCase, o: Outcome, secrets: readonly string[] = []): string | null {
  // A request line over Node's 16 KiB header limit is answered 431 and the connection closed; a
  // client still writing the rest of it sees the close as a reset. That is the refusal, not a fault.
  if (o.status === 0 && c.path.length > 16 * 1024) return null;
  if (o.status >= 500 || o.status === 0) return `status ${o.status}: ${o.body.slice(0, 300)}`;
  if (c.surface === "page") return null;
  const leak = LEAKS.find((re) => re.test(o.body));
  if (leak) return `body matches ${leak}: ${o.body.slice(0, 300)}`;
  const secret = secrets.find((s) => s && o.body.includes(s));
  if (secret) return `body contains ${secret}`;
  return null;
}

/** "2xx" … "5xx" for counting. */
export function statusClass(status: number): string {
  return status === 0 ? "error" : `${Math.floor(status / 100)}xx`;
}

/** Next-like param decoding for the mounted route handler: once per segment, kept as sent when malformed. */
function nextParam(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The git route handler of the app (app/api/git/…/route.ts) as Next calls it, for `startServer({ git })`. */
export function gitViaRoute(req: Request, owner: string, repo: string, rest: string): Promise<Response> {
  const params = Promise.resolve({ owner: nextParam(owner), repo: nextParam(repo), path: rest.split("/").map(nextParam) });
  return req.method === "POST" ? gitRoute.POST(req, { params }) : gitRoute.GET(req, { params });
}
