/**
 * A browser's part for the two-process test (./two-processes.test.ts): one cookie jar shared by
 * every svc process it talks to (as behind a load balancer, where every process serves the one
 * site), one client address (X-Forwarded-For: the servers run with TRUST_PROXY=1, so each client
 * counts against the limits as an address of its own), and next-auth's credentials sign-in as the
 * sign-in page posts it. Nothing here is svc code.
 */
import { performance } from "node:perf_hooks";

/** Per request (ms): generous, a loaded machine; never what a check measures. */
const REQUEST_TIMEOUT_MS = 60_000;

export interface SignInResult {
  /** HTTP status of the credentials callback: 200 signed in, 401 refused. */
  status: number;
  /** next-auth's error when refused: "CredentialsSignin" (wrong password) or the thrown message (a limit). */
  error: string | null;
  /** Wall time of the callback request (ms). */
  ms: number;
}

export class WebClient {
  /** Cookie name → value, as a browser keeps them for the site. */
  readonly cookies = new Map<string, string>();

  /** `address`: this client's address (X-Forwarded-For). */
  constructor(readonly address: string) {}

  /** fetch with the jar's cookies and the client address; the answer's Set-Cookie lines go into the jar. */
  async fetch(base: string, pathname: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set("x-forwarded-for", this.address);
    if (this.cookies.size) headers.set("cookie", [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    const res = await fetch(base + pathname, { redirect: "manual", signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS), ...init, headers });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";");
      const i = pair!.indexOf("=");
      const name = pair!.slice(0, i).trim();
      const value = pair!.slice(i + 1).trim();
      const gone = !value || attrs.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=Thu, 01 Jan 1970/i.test(a));
      if (gone) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  /** The session cookie's value, or undefined while signed out. */
  session(): string | undefined {
    return this.cookies.get("next-auth.session-token");
  }

  /** users.signUp through `base` (tRPC over HTTP, plain JSON). Throws unless it answers 200. */
  async signUp(base: string, username: string, password: string): Promise<void> {
    const res = await this.post(base, "/api/trpc/users.signUp", { username, password });
    if (res.status !== 200) throw new Error(`sign-up of ${username} on ${base}: ${res.status} ${await res.text()}`);
  }

  /**
   * next-auth's credentials sign-in through `base`, as the sign-in page does it: the CSRF token
   * (GET /api/auth/csrf, its cookie), then POST /api/auth/callback/credentials with `json=true`.
   * Signed in, the session cookie is in the jar. `ms` times the callback alone.
   */
  async signIn(base: string, username: string, password: string): Promise<SignInResult> {
    const { csrfToken } = (await (await this.fetch(base, "/api/auth/csrf")).json()) as { csrfToken: string };
    const start = performance.now();
    const res = await this.fetch(base, "/api/auth/callback/credentials", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken, username, password, json: "true" }).toString(),
    });
    const text = await res.text();
    const ms = performance.now() - start;
    let url = "";
    try {
      url = (JSON.parse(text) as { url?: string }).url ?? "";
    } catch {
      throw new Error(`sign-in on ${base}: ${res.status} ${text.slice(0, 300)}`);
    }
    const error = new URL(url, base).searchParams.get("error");
    return { status: res.status, error, ms };
  }

  /** A tRPC query with the cookies (GET, ?input= when given): status and the result's data or error message. */
  async query(base: string, proc: string, input?: unknown): Promise<TrpcAnswer> {
    const q = input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`;
    return answer(await this.fetch(base, `/api/trpc/${proc}${q}`));
  }

  /** A tRPC mutation with the cookies, sent from the site's own page (Origin `base`, as svc's CSRF check wants). */
  async mutate(base: string, proc: string, input?: unknown): Promise<TrpcAnswer> {
    return answer(await this.post(base, `/api/trpc/${proc}`, input ?? null));
  }

  /** A personal access token with `scopes` made through `base` with the session cookie. */
  async token(base: string, scopes: string[], name = "two processes"): Promise<string> {
    const res = await this.post(base, "/api/tokens", { name, scopes });
    if (res.status !== 201) throw new Error(`token on ${base}: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { token: string }).token;
  }

  private post(base: string, pathname: string, body: unknown): Promise<Response> {
    return this.fetch(base, pathname, {
      method: "POST",
      headers: { "content-type": "application/json", origin: base },
      body: JSON.stringify(body),
    });
  }
}

/** A tRPC answer: HTTP status, the result's data, or the error's message and tRPC code (CONFLICT, UNAUTHORIZED, …). */
export interface TrpcAnswer {
  status: number;
  data?: unknown;
  error?: string;
  code?: string;
}

async function answer(res: Response): Promise<TrpcAnswer> {
  const text = await res.text();
  try {
    const body = JSON.parse(text) as { result?: { data?: unknown }; error?: { message?: string; data?: { code?: string } } };
    return { status: res.status, data: body.result?.data, error: body.error?.message, code: body.error?.data?.code };
  } catch {
    return { status: res.status, error: text.slice(0, 300) };
  }
}
