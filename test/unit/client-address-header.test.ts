import { describe, expect, it } from "vitest";
import { forwardedFor, trustProxyFrom } from "@/scripts/client-address.mjs";

describe("forwardedFor: the X-Forwarded-For svc's server sets (scripts/server.mjs)", () => {
  it("direct: the socket address replaces whatever the client sent", () => {
    expect(forwardedFor("6.6.6.6", "10.0.0.7", false)).toBe("10.0.0.7");
    expect(forwardedFor("6.6.6.6, 7.7.7.7", "::ffff:127.0.0.1", false)).toBe("::ffff:127.0.0.1");
    expect(forwardedFor(["1.1.1.1", "2.2.2.2"], "10.0.0.7", false)).toBe("10.0.0.7");
    expect(forwardedFor(undefined, "10.0.0.7", false)).toBe("10.0.0.7");
  });

  it("TRUST_PROXY: the right-most entry, the one the proxy appended", () => {
    expect(forwardedFor("6.6.6.6, 203.0.113.9", "10.0.0.1", true)).toBe("203.0.113.9");
    expect(forwardedFor("203.0.113.9", "10.0.0.1", true)).toBe("203.0.113.9");
    // repeated headers (Node joins them, or hands an array): still the last value
    expect(forwardedFor(["6.6.6.6", "203.0.113.9"], "10.0.0.1", true)).toBe("203.0.113.9");
    expect(forwardedFor("6.6.6.6 , 2001:db8::1 ,", "10.0.0.1", true)).toBe("2001:db8::1");
  });

  it("TRUST_PROXY without a usable header falls back to the socket address", () => {
    expect(forwardedFor(undefined, "10.0.0.1", true)).toBe("10.0.0.1");
    expect(forwardedFor(" , ", "10.0.0.1", true)).toBe("10.0.0.1");
    expect(forwardedFor([], "10.0.0.1", true)).toBe("10.0.0.1");
  });

  it("no address known: undefined (the server deletes the header)", () => {
    expect(forwardedFor("6.6.6.6", undefined, false)).toBeUndefined();
    expect(forwardedFor(undefined, undefined, true)).toBeUndefined();
  });

  it("TRUST_PROXY accepts 1 or true only", () => {
    expect(trustProxyFrom("1")).toBe(true);
    expect(trustProxyFrom(" TRUE ")).toBe(true);
    for (const v of [undefined, "", "0", "false", "yes", "2"]) expect(trustProxyFrom(v)).toBe(false);
  });
});
