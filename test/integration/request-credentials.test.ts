/**
 * How a request's credentials are read (docs/performance.md "Hardening II, item 15"): a personal
 * access token with its user, or a session with its user, is ONE statement on the read path
 * (server/db/read.ts), run once per HTTP request however many procedures a tRPC batch names, and
 * never cached across requests: a revoked token or a signed-out session fails on the very next
 * request.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { observeReads } from "@/server/db/read";
import { revokeToken } from "@/server/services/tokens/manage-tokens";
import { revokeAllSessions } from "@/server/services/users/sessions";
import type { Profile } from "@/server/services/users/profile";
import { makeToken, makeUser, serviceToken, startServer } from "../helpers";

let server: { url: string; close: () => Promise<void> };
let user: Profile;

beforeAll(async () => {
  server = await startServer();
  user = await makeUser("cred");
});
afterAll(() => server.close());

/** GET of a batch of `paths` (no input) with `headers`; the statements the read path ran meanwhile. */
async function batch(paths: string[], headers: Record<string, string>) {
  const statements: string[] = [];
  const stop = observeReads((text) => statements.push(text));
  try {
    const res = await fetch(`${server.url}/api/trpc/${paths.join(",")}?batch=1&input=${encodeURIComponent("{}")}`, { headers });
    return { status: res.status, body: (await res.json()) as { result?: { data: unknown }; error?: unknown }[], statements };
  } finally {
    stop();
  }
}

const count = (statements: string[], table: string) => statements.filter((s) => s.includes(`FROM "${table}"`)).length;

describe("credentials of a request", () => {
  it("a personal access token and its user: one read-path statement for a whole batch", async () => {
    const token = await makeToken(user, ["repo:read", "user:read"]);
    const r = await batch(["users.me", "issues.priorities", "users.me"], { authorization: `Bearer ${token}` });
    expect(r.status).toBe(200);
    expect(r.body.map((b) => (b.result?.data as { username?: string } | undefined)?.username ?? "-")).toEqual([
      user.username,
      "-",
      user.username,
    ]);
    expect(count(r.statements, "AccessToken")).toBe(1);
  });

  it("a session (service token or cookie) and its user: one read-path statement for a whole batch", async () => {
    const jwt = await serviceToken(user);
    const sessions: Record<string, string>[] = [{ authorization: `Bearer ${jwt}` }, { cookie: `next-auth.session-token=${jwt}` }];
    for (const headers of sessions) {
      const r = await batch(["users.me", "users.me", "issues.priorities"], headers);
      expect(r.status).toBe(200);
      expect((r.body[0]!.result?.data as { username: string }).username).toBe(user.username);
      expect(count(r.statements, "UserSession")).toBe(1);
    }
  });

  it("a token of a bot account is refused (the AI reviewer never acts through a request)", async () => {
    const bot = await makeUser("credbot");
    const token = await makeToken(bot, ["user:read"]);
    await (await getDb()).user.update({ where: { id: bot.id }, data: { isBot: true } });
    expect((await batch(["users.me"], { authorization: `Bearer ${token}` })).status).toBe(401);
  });

  it("nothing is cached across requests: a revoked token and a signed-out session fail on the next request", async () => {
    const token = await makeToken(user, ["user:read"]);
    const jwt = await serviceToken(user);
    for (const authorization of [`Bearer ${token}`, `Bearer ${jwt}`])
      expect((await batch(["users.me"], { authorization })).status).toBe(200);
    await revokeToken(await getDb(), user.id, token.split("_")[1]!);
    await revokeAllSessions(await getDb(), user.id);
    for (const authorization of [`Bearer ${token}`, `Bearer ${jwt}`])
      expect((await batch(["users.me"], { authorization })).status).toBe(401);
  });
});
