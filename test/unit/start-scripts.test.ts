/**
 * scripts/start.mjs and scripts/test.mjs: when to build, what to do without Chromium
 * (docs/architecture.md "How svc starts, finds its data and tests itself").
 */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildInputsHash } from "@/scripts/build-inputs.mjs";
import { chromiumPlan } from "@/scripts/chromium.mjs";

const root = path.resolve(import.meta.dirname, "../..");

describe("buildInputsHash: rebuild only when what the build reads changes", () => {
  it("ignores what the build writes (next-env.d.ts, .next) and what it does not read; follows sources", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "svc-hash-"));
    try {
      const write = (rel: string, text: string) => {
        mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
        writeFileSync(path.join(dir, rel), text);
      };
      write("app/page.tsx", "export default 1;");
      write("package.json", "{}");
      const first = buildInputsHash(dir);

      // the first build writes next-env.d.ts and .next/: the second start must not rebuild
      write("next-env.d.ts", '/// <reference types="next" />');
      write(".next/BUILD_ID", "x");
      write("tsconfig.tsbuildinfo", "{}");
      // tests, docs, scripts, the CLI and data are not part of the build
      write("test/a.test.ts", "1");
      write("e2e/a.spec.ts", "1");
      write("docs/x.md", "1");
      write("scripts/start.mjs", "1");
      write("cli/svc.ts", "1");
      write("data/svc.db", "1");
      write("server/a.test.ts", "1");
      expect(buildInputsHash(dir)).toBe(first);

      // rewriting a file with the same content (npm install regenerating a client) changes nothing
      write("app/page.tsx", "export default 1;");
      expect(buildInputsHash(dir)).toBe(first);

      write("app/page.tsx", "export default 2;");
      const edited = buildInputsHash(dir);
      expect(edited).not.toBe(first);
      write("server/new.ts", "export {};");
      expect(buildInputsHash(dir)).not.toBe(edited);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("chromiumPlan: npm test without Chromium", () => {
  const base = { path: "/usr/bin/chromium", custom: false, exists: false, isRoot: false, hasAptGet: true };

  it("present: nothing to do", () => {
    expect(chromiumPlan({ ...base, exists: true })).toEqual({ action: "ok" });
  });

  it("root with apt-get: installs Debian's package", () => {
    expect(chromiumPlan({ ...base, isRoot: true })).toEqual({
      action: "install",
      commands: ["apt-get update", "apt-get install -y chromium"],
    });
  });

  it("otherwise stops with the one command to run", () => {
    const notRoot = chromiumPlan(base);
    expect(notRoot).toMatchObject({ action: "stop" });
    expect(notRoot.action === "stop" && notRoot.message).toMatch(/Run: sudo apt-get update && sudo apt-get install -y chromium$/);
    const noApt = chromiumPlan({ ...base, isRoot: true, hasAptGet: false });
    expect(noApt.action === "stop" && noApt.message).toMatch(/CHROMIUM_PATH=\/path\/to\/chromium npm test$/);
    // a CHROMIUM_PATH that points nowhere is a mistake to fix, not something to install over
    const custom = chromiumPlan({ ...base, path: "/opt/none", custom: true, isRoot: true });
    expect(custom.action === "stop" && custom.message).toMatch(/^CHROMIUM_PATH=\/opt\/none does not exist/);
  });

  it("npm test stops before running anything when Chromium cannot be found", () => {
    const r = spawnSync(process.execPath, [path.join(root, "scripts/test.mjs")], {
      cwd: root,
      encoding: "utf8",
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        CHROMIUM_PATH: path.join(os.tmpdir(), "no-such-chromium"),
      } as unknown as NodeJS.ProcessEnv,
      timeout: 120_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/no-such-chromium does not exist/);
    expect(r.stdout).toMatch(/tests: 0 passed, 1 failed/);
    expect(r.stdout).not.toMatch(/=== typecheck/);
  });
});
