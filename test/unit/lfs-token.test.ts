/** LFS transfer tokens (services/lfs/token.ts), the quota rule (services/lfs/quota.ts) and git-lfs-authenticate parsing (server/ssh/command.ts). */
import { describe, expect, it } from "vitest";
import { LFS_TOKEN_TTL_S, signLfsToken, verifyLfsToken } from "@/server/services/lfs/token";
import { formatSize, sizeProblem } from "@/server/services/lfs/quota";
import { parseLfsCommand } from "@/server/ssh/command";

const secret = "s".repeat(32);
const claims = { repoId: "r1", operation: "upload" as const, principal: { kind: "user" as const, userId: "u1" } };

describe("LFS tokens", () => {
  it("round-trips its claims until it expires", () => {
    const now = 1_700_000_000_000;
    const { token, expiresIn } = signLfsToken(secret, claims, now);
    expect(expiresIn).toBe(LFS_TOKEN_TTL_S);
    expect(token.startsWith("svclfs.")).toBe(true);
    expect(verifyLfsToken(secret, token, now)).toEqual({ ...claims, exp: now / 1000 + LFS_TOKEN_TTL_S });
    expect(verifyLfsToken(secret, token, now + (LFS_TOKEN_TTL_S - 1) * 1000)).not.toBeNull();
    expect(verifyLfsToken(secret, token, now + LFS_TOKEN_TTL_S * 1000)).toBeNull();
  });

  it("refuses another secret, a changed payload or signature, and garbage", () => {
    const { token } = signLfsToken(secret, claims);
    expect(verifyLfsToken("t".repeat(32), token)).toBeNull();
    const [prefix, payload, sig] = token.split(".");
    const forged = Buffer.from(JSON.stringify({ ...claims, repoId: "r2", exp: 9_999_999_999 })).toString("base64url");
    expect(verifyLfsToken(secret, `${prefix}.${forged}.${sig}`)).toBeNull();
    expect(verifyLfsToken(secret, `${prefix}.${payload}.${sig!.slice(0, -2)}AA`)).toBeNull();
    for (const bad of ["", "svclfs.", "svclfs..", "svc_abc", `svclfs.${payload}`, "x".repeat(5000)])
      expect(verifyLfsToken(secret, bad)).toBeNull();
  });

  it("keeps the principal kinds apart", () => {
    const deploy = signLfsToken(secret, { repoId: "r1", operation: "download", principal: { kind: "deploy", keyId: "k1" } }).token;
    expect(verifyLfsToken(secret, deploy)?.principal).toEqual({ kind: "deploy", keyId: "k1" });
  });
});

describe("LFS quota", () => {
  it("refuses objects over the per-object limit or the quota, naming the sizes", () => {
    expect(sizeProblem(100, { usedBytes: 0, quotaBytes: 1000 }, 500)).toBeNull();
    expect(sizeProblem(600, { usedBytes: 0, quotaBytes: 1000 }, 500)).toMatch(/larger than the limit of 500 bytes/);
    expect(sizeProblem(400, { usedBytes: 700, quotaBytes: 1000 }, 500)).toMatch(/^LFS quota exceeded/);
    expect(sizeProblem(300, { usedBytes: 700, quotaBytes: 1000 }, 500)).toBeNull();
    expect(formatSize(10 * 1024 * 1024 * 1024)).toBe("10 GiB");
    expect(formatSize(1536)).toBe("1.5 KiB");
  });
});

describe("git-lfs-authenticate over SSH", () => {
  it("parses the command git-lfs sends, refuses git-lfs-transfer and leaves other commands alone", () => {
    expect(parseLfsCommand("git-lfs-authenticate 'alice/media.git' upload")).toEqual({
      service: "git-lfs-authenticate",
      owner: "alice",
      name: "media",
      operation: "upload",
    });
    expect(parseLfsCommand("git-lfs-authenticate /alice/media download")).toMatchObject({
      owner: "alice",
      name: "media",
      operation: "download",
    });
    expect(parseLfsCommand("git-lfs-transfer 'alice/media.git' upload")).toEqual({ problem: expect.stringContaining("git-lfs-transfer") });
    expect(parseLfsCommand("git-lfs-authenticate 'alice/media.git' delete")).toHaveProperty("problem");
    expect(parseLfsCommand("git-lfs-authenticate 'alice/media.git' upload; ls")).toHaveProperty("problem");
    expect(parseLfsCommand("git-lfs-authenticate '../x/y' upload")).toHaveProperty("problem");
    expect(parseLfsCommand("git-upload-pack 'alice/media.git'")).toBeNull();
  });
});
