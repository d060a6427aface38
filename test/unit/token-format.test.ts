/**
 * The token checksum (docs/api.md "Token endpoints"): new tokens end in 6 base62 characters of the
 * CRC32 of the rest, so scanners can tell real tokens from look-alikes without a database; legacy
 * tokens (no checksum) are still recognised as possible tokens.
 */
import { describe, expect, it } from "vitest";
import zlib from "node:zlib";
import { randomBytes } from "node:crypto";
import {
  crc32,
  generateToken,
  hasValidChecksum,
  parseToken,
  randomBase62,
  tokenChecksum,
  tokenKind,
} from "@/server/services/tokens/token-format";

describe("token checksum", () => {
  it("new tokens are svc_<8>_<40 random><6 checksum> and carry a valid checksum", () => {
    for (let i = 0; i < 50; i++) {
      const { token, prefix } = generateToken();
      expect(token).toMatch(/^svc_[0-9A-Za-z]{8}_[0-9A-Za-z]{46}$/);
      expect(parseToken(token)).toEqual({ prefix });
      expect(hasValidChecksum(token)).toBe(true);
      expect(tokenKind(token)).toBe("checksum");
      expect(token.slice(-6)).toBe(tokenChecksum(token.slice(0, -6)));
    }
  });

  it("crc32 equals zlib's CRC-32 (IEEE) on known and random inputs", () => {
    expect(crc32("")).toBe(0);
    expect(crc32("123456789")).toBe(0xcbf43926); // the standard check value
    const zcrc = (zlib as unknown as { crc32?: (d: string) => number }).crc32;
    for (let i = 0; i < 200; i++) {
      const s = randomBase62(1 + (i % 70)) + randomBytes(4).toString("hex");
      if (zcrc) expect(crc32(s)).toBe(zcrc(s));
    }
  });

  it("a changed character, a look-alike or a wrong length fails the checksum", () => {
    const { token } = generateToken();
    const last = token.at(-1)!;
    expect(hasValidChecksum(token.slice(0, -1) + (last === "a" ? "b" : "a"))).toBe(false);
    const secret = token.slice(13, 53);
    const flipped = token.slice(0, 13) + (secret[0] === "x" ? "y" : "x") + token.slice(14);
    expect(hasValidChecksum(flipped)).toBe(false);
    expect(tokenKind(flipped)).toBe("no");
    expect(hasValidChecksum("svc_AAAAAAAA_" + "a".repeat(46))).toBe(false);
    expect(tokenKind("svc_AAAAAAAA_" + "a".repeat(45))).toBe("no");
    expect(hasValidChecksum(token + "0")).toBe(false);
    expect(hasValidChecksum("ghp_" + token.slice(4))).toBe(false);
  });

  it("legacy tokens (40 random characters, no checksum) stay valid in form", () => {
    const legacy = `svc_${randomBase62(8)}_${randomBase62(40)}`;
    expect(parseToken(legacy)).toEqual({ prefix: legacy.slice(4, 12) });
    expect(hasValidChecksum(legacy)).toBe(false);
    expect(tokenKind(legacy)).toBe("legacy");
  });

  it("random svc_-looking strings almost never pass the checksum (no database needed)", () => {
    let passed = 0;
    for (let i = 0; i < 5_000; i++) if (hasValidChecksum(`svc_${randomBase62(8)}_${randomBase62(46)}`)) passed++;
    expect(passed).toBe(0); // chance of any pass ≈ 5 000 / 2^32
  });
});
