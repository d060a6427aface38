/**
 * `/<username>` (the profile page) shares the top level of the URL space with svc's own
 * routes: every top-level route folder of app/ must be a reserved username, so sign-up can never
 * create a user whose profile a route hides (or the other way round).
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RESERVED_USERNAMES, usernameProblem } from "@/lib/names";

const appDir = path.resolve(import.meta.dirname, "../../app");

describe("top-level routes and usernames", () => {
  it("every static top-level route folder is a reserved username", () => {
    const routes = readdirSync(appDir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith("[") && !e.name.startsWith("(") && !e.name.startsWith("_"))
      .map((e) => e.name);
    expect(routes.length).toBeGreaterThan(3);
    expect(routes.filter((r) => !RESERVED_USERNAMES.has(r.toLowerCase()))).toEqual([]);
    for (const r of routes) expect(usernameProblem(r)).toMatch(/reserved/);
  });

  it("top-level files (icon.svg, favicon.ico) cannot be usernames: a username has no dot", () => {
    const files = readdirSync(appDir, { withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => e.name);
    for (const f of files.filter((n) => !/^(page|layout|not-found|error|loading|globals)\./.test(n)))
      expect(usernameProblem(f)).not.toBeNull();
  });
});
