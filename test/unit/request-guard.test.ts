/** scripts/request-guard.mjs: paths with malformed percent-escapes are refused before Next (docs/api.md "Errors"). */
import { describe, expect, it } from "vitest";
import { requestTargetProblem } from "@/scripts/request-guard.mjs";

describe("requestTargetProblem", () => {
  it("refuses malformed or non-UTF-8 escapes in any path segment", () => {
    for (const url of [
      "/alice/pub/raw/main/%ZZ",
      "/api/trpc/%ZZ",
      "/alice/pub.git/%ZZ",
      "/a/%",
      "/a/%E0%A4%A",
      "/a/%FF",
      "/a/%ED%A0%80",
      "/api/tokens/%C0%AF",
    ]) {
      expect(requestTargetProblem(url), url).toMatch(/malformed percent-escape/);
    }
  });
  it("lets well-formed paths through, and leaves the query to the app", () => {
    for (const url of [
      "/",
      "/alice/pub",
      "/api/tokens/%25",
      "/alice/pub/blob/main/%E6%97%A5%E6%9C%AC.md",
      "/signin?callbackUrl=%ZZ",
      "/api/trpc/repos.list?input=%7B%7D",
      "/a%20b/c",
    ]) {
      expect(requestTargetProblem(url), url).toBeNull();
    }
    expect(requestTargetProblem(undefined)).toBe("empty request target");
  });
});
