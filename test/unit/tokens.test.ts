import { describe, expect, it } from "vitest";
import { generateToken, hashToken, parseToken, randomBase62, verifyTokenHash } from "@/server/services/tokens/token-format";
import { DEFAULT_SCOPES, SCOPES, hasScope, parseScopes } from "@/server/auth/scopes";

describe("token format", () => {
  it("generates svc_<8>_<40+6> base62 tokens whose prefix is the visible handle", () => {
    const { token, prefix } = generateToken();
    expect(token).toMatch(/^svc_[0-9A-Za-z]{8}_[0-9A-Za-z]{46}$/);
    expect(parseToken(token)).toEqual({ prefix });
  });

  it("draws every base62 character about equally often (no modulo bias)", () => {
    const counts = new Map<string, number>();
    const sample = randomBase62(62 * 2000);
    for (const c of sample) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // expected 2000 each; a biased `byte % 62` would over-draw the first 8 characters by ~25%
    for (const n of counts.values()) expect(Math.abs(n - 2000)).toBeLessThan(300);
    const first8 = [..."01234567"].reduce((s, c) => s + counts.get(c)!, 0) / 8;
    const rest = [..."ABCDEFGHIJKLMNOPQRSTUVWXYZ"].reduce((s, c) => s + counts.get(c)!, 0) / 26;
    expect(first8 / rest).toBeLessThan(1.1);
  });

  it("stores a SHA-256 hex hash and verifies in constant time", () => {
    const { token } = generateToken();
    const stored = hashToken(token);
    expect(stored).toMatch(/^[0-9a-f]{64}$/);
    expect(verifyTokenHash(token, stored)).toBe(true);
    expect(verifyTokenHash(token + "x", stored)).toBe(false);
    expect(verifyTokenHash(token, "00")).toBe(false);
  });

  it("rejects strings that are not svc_ tokens", () => {
    for (const bad of [
      "",
      "svc_",
      "svc_short_" + "a".repeat(40),
      "svc_AAAAAAAA_" + "a".repeat(31),
      "ghp_AAAAAAAA_" + "a".repeat(40),
      "svc_AAAAAAA!_" + "a".repeat(40),
    ]) {
      expect(parseToken(bad)).toBeNull();
    }
  });
});

describe("scopes", () => {
  it("implies read from write and write from admin; user:write implies user:read", () => {
    expect(hasScope(["repo:admin"], "repo:write")).toBe(true);
    expect(hasScope(["repo:admin"], "repo:read")).toBe(true);
    expect(hasScope(["repo:write"], "repo:read")).toBe(true);
    expect(hasScope(["repo:write"], "repo:admin")).toBe(false);
    expect(hasScope(["repo:read"], "repo:write")).toBe(false);
    expect(hasScope(["user:write"], "user:read")).toBe(true);
    expect(hasScope(["user:read"], "user:write")).toBe(false);
    expect(hasScope(["repo:admin"], "user:read")).toBe(false);
  });

  it("parses lists and comma strings, canonical order, no duplicates", () => {
    expect(parseScopes("repo:write, repo:read,repo:write")).toEqual(["repo:read", "repo:write"]);
    expect(parseScopes(["user:read"])).toEqual(["user:read"]);
    expect(DEFAULT_SCOPES).toEqual(["repo:read", "repo:write"]);
    expect(SCOPES).toHaveLength(5);
  });

  it("names unknown scopes and refuses an empty list", () => {
    expect(() => parseScopes("repo:read,admin")).toThrow(/unknown scope "admin"/);
    expect(() => parseScopes([])).toThrow(/at least one scope/);
  });
});
