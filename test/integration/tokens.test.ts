import { describe, expect, it, beforeAll, afterAll } from "vitest";
import { getDb } from "@/server/db";
import { createToken, listTokens, revokeToken, findToken } from "@/server/services/tokens/manage-tokens";
import { verifyPersonalAccessToken } from "@/server/services/tokens/verify-token";
import { makeUser, makeToken, serviceToken, startServer } from "../helpers";

describe("token service", () => {
  it("creates with default scopes, lists without secrets, verifies and revokes", async () => {
    const db = await getDb();
    const user = await makeUser();
    const created = await createToken(db, user.id, { name: "ci" });
    expect(created.token).toMatch(/^svc_[0-9A-Za-z]{8}_[0-9A-Za-z]{46}$/);
    expect(created.token.slice(4, 12)).toBe(created.prefix);
    expect(created.scopes).toEqual(["repo:read", "repo:write"]);
    expect(created.expiresAt).toBeNull();
    const listed = await listTokens(db, user.id);
    expect(listed).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(created.token.slice(13));
    expect(listed[0].lastUsedAt).toBeNull();
    const verified = await verifyPersonalAccessToken(db, created.token);
    expect(verified.userId).toBe(user.id);
    expect((await listTokens(db, user.id))[0].lastUsedAt).not.toBeNull();
    await revokeToken(db, user.id, created.prefix);
    await expect(verifyPersonalAccessToken(db, created.token)).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("refuses a token whose secret part is wrong, and expired tokens", async () => {
    const db = await getDb();
    const user = await makeUser();
    const { token } = await createToken(db, user.id, { name: "x", expiresInDays: 1 });
    const tampered = token.slice(0, -1) + (token.endsWith("a") ? "b" : "a");
    await expect(verifyPersonalAccessToken(db, tampered)).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await db.accessToken.updateMany({ where: { userId: user.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await expect(verifyPersonalAccessToken(db, token)).rejects.toMatchObject({ code: "UNAUTHORIZED", message: "token expired" });
    expect((await listTokens(db, user.id))[0].expired).toBe(true);
  });

  it("validates name, scopes and expiry", async () => {
    const db = await getDb();
    const user = await makeUser();
    await expect(createToken(db, user.id, { name: "" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(createToken(db, user.id, { name: "a", scopes: ["repo:delete"] })).rejects.toThrow(/unknown scope "repo:delete"/);
    await expect(createToken(db, user.id, { name: "a", expiresInDays: 0 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(createToken(db, user.id, { name: "a", expiresInDays: 1.5 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("resolves id prefixes and reports ambiguity with candidates", async () => {
    const db = await getDb();
    const user = await makeUser();
    const tokens = await Promise.all(Array.from({ length: 20 }, (_, i) => createToken(db, user.id, { name: `t${i}` })));
    expect((await findToken(db, user.id, tokens[3].id)).id).toBe(tokens[3].id);
    expect((await findToken(db, user.id, `svc_${tokens[4].prefix}`)).id).toBe(tokens[4].id);
    // with 20 uuids, some one-character prefix is shared by two tokens
    const byFirst = new Map<string, number>();
    for (const t of tokens) byFirst.set(t.id[0], (byFirst.get(t.id[0]) ?? 0) + 1);
    const shared = [...byFirst].find(([, n]) => n > 1)![0];
    await expect(findToken(db, user.id, shared)).rejects.toThrow(/matches \d+ tokens/);
    const other = await makeUser();
    await expect(findToken(db, other.id, tokens[0].id)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("/api/tokens over HTTP", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it("accepts the service token, refuses a PAT (403) and anonymous (401)", async () => {
    const user = await makeUser();
    const service = await serviceToken(user);
    const created = await fetch(`${server.url}/api/tokens`, {
      method: "POST",
      headers: { authorization: `Bearer ${service}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "deploy", scopes: ["repo:read"], expiresInDays: 30 }),
    });
    expect(created.status).toBe(201);
    const body = await created.json();
    expect(body).toMatchObject({ name: "deploy", scopes: ["repo:read"], expired: false, lastUsedAt: null });
    expect(body.token).toMatch(/^svc_/);

    const list = await fetch(`${server.url}/api/tokens`, { headers: { authorization: `Bearer ${service}` } });
    expect(list.status).toBe(200);
    const tokens = await list.json();
    expect(tokens.map((t: { id: string }) => t.id)).toEqual([body.id]);
    expect(tokens[0].token).toBeUndefined();

    const pat = await makeToken(user, ["repo:admin", "user:write"]);
    const refused = await fetch(`${server.url}/api/tokens`, { headers: { authorization: `Bearer ${pat}` } });
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.message).toMatch(/personal access tokens cannot manage tokens/);

    expect((await fetch(`${server.url}/api/tokens`)).status).toBe(401);
    expect((await fetch(`${server.url}/api/tokens`, { headers: { authorization: "Bearer not-a-jwt" } })).status).toBe(401);

    const bad = await fetch(`${server.url}/api/tokens`, { method: "POST", headers: { authorization: `Bearer ${service}` }, body: "{" });
    expect(bad.status).toBe(400);
    const badScope = await fetch(`${server.url}/api/tokens`, {
      method: "POST",
      headers: { authorization: `Bearer ${service}` },
      body: JSON.stringify({ name: "x", scopes: ["nope"] }),
    });
    expect(badScope.status).toBe(400);
    expect((await badScope.json()).error.message).toMatch(/unknown scope "nope"/);

    const del = await fetch(`${server.url}/api/tokens/${body.id}`, { method: "DELETE", headers: { authorization: `Bearer ${service}` } });
    expect(del.status).toBe(204);
    const again = await fetch(`${server.url}/api/tokens/${body.id}`, { method: "DELETE", headers: { authorization: `Bearer ${service}` } });
    expect(again.status).toBe(404);
  });
});
