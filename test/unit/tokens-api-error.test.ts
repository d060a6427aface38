/** The tokens page's error messages and expiry default (docs/ui.md "Tokens page"). */
import { describe, expect, it } from "vitest";
import { DEFAULT_EXPIRY, EXPIRY_OPTIONS, apiErrorMessage } from "@/components/tokens/api-error";

describe("apiErrorMessage", () => {
  it("shows the server's message for svc's REST error shape, whatever the status", () => {
    expect(apiErrorMessage(500, JSON.stringify({ error: { code: "INTERNAL", message: "the database is locked" } }))).toBe(
      "the database is locked",
    );
    expect(apiErrorMessage(400, JSON.stringify({ error: { code: "BAD_REQUEST", message: "name is required" } }))).toBe("name is required");
  });

  it("reads tRPC errors, single and batched", () => {
    const one = { error: { message: "you need admin permission", code: -32603, data: { code: "FORBIDDEN", httpStatus: 403 } } };
    expect(apiErrorMessage(403, JSON.stringify(one))).toBe("you need admin permission");
    expect(apiErrorMessage(403, JSON.stringify([one]))).toBe("you need admin permission");
    expect(apiErrorMessage(500, JSON.stringify({ error: { json: { message: "superjson shape" } } }))).toBe("superjson shape");
  });

  it("reads {error: text}, {message: text} and plain-text bodies", () => {
    expect(apiErrorMessage(429, JSON.stringify({ error: "slow down" }))).toBe("slow down");
    expect(apiErrorMessage(500, JSON.stringify({ message: "boom" }))).toBe("boom");
    expect(apiErrorMessage(413, "request body is larger than 1048576 bytes")).toBe("request body is larger than 1048576 bytes");
  });

  it("falls back to the status for empty, HTML or shapeless bodies, and to sign-in advice for 401", () => {
    expect(apiErrorMessage(502, "<html><body>Bad Gateway</body></html>")).toBe("request failed (502)");
    expect(apiErrorMessage(500, "")).toBe("request failed (500)");
    expect(apiErrorMessage(500, JSON.stringify({ error: {} }))).toBe("request failed (500)");
    expect(apiErrorMessage(401, "")).toBe("your session has ended; sign in again");
    expect(apiErrorMessage(401, JSON.stringify({ error: { message: "token expired" } }))).toBe("token expired");
  });
});

describe("token expiry choices", () => {
  it("default to 30 days, and still offer no expiration", () => {
    expect(DEFAULT_EXPIRY).toBe("30");
    expect(EXPIRY_OPTIONS.map((o) => o.value)).toContain(DEFAULT_EXPIRY);
    expect(EXPIRY_OPTIONS.map((o) => o.label)).toContain("No expiration");
  });
});
