/**
 * The layer rules of eslint.config.mjs fail on planted violations: each planted file is linted
 * with the project's own config (ESLint's Node API) as if it lay at the given path, and the test
 * asserts the rule that must report it — and that what the layers allow (type-only imports of the
 * server from components, the server-component entry points) passes.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ESLint } from "eslint";

const root = path.resolve(import.meta.dirname, "../..");
const eslint = new ESLint({ cwd: root });

/** `@/…` specifier of the first module (sorted walk) under `dir`: a real file for the resolver, whatever moves. */
function firstModule(dir: string): string {
  const entries = readdirSync(path.join(root, dir), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
  for (const e of entries)
    if (e.isFile() && /\.tsx?$/.test(e.name) && !e.name.endsWith(".test.ts")) return `@/${dir}/${e.name.replace(/\.tsx?$/, "")}`;
  for (const e of entries) if (e.isDirectory()) return firstModule(`${dir}/${e.name}`);
  throw new Error(`no module under ${dir}`);
}

/** The rule ids reported for `code` linted as the file at `filePath` (relative to the repository). */
async function rulesFor(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, filePath) });
  return result!.messages.map((m) => m.ruleId ?? `fatal: ${m.message}`);
}

const service = firstModule("server/services");
const component = firstModule("components/ui");

describe("layer rules", () => {
  it("server/git imports no service, by alias or relative path", async () => {
    expect(await rulesFor("server/git/planted.ts", `import * as s from "${service}";\nexport const x = s;\n`)).toContain(
      "import-x/no-restricted-paths",
    );
    const relative = service.replace("@/server/", "../");
    expect(await rulesFor("server/git/planted.ts", `import * as s from "${relative}";\nexport const x = s;\n`)).toContain(
      "import-x/no-restricted-paths",
    );
  });

  it("server/git imports no auth or HTTP module", async () => {
    for (const dir of ["server/auth", "server/http"]) {
      const code = `import * as m from "${firstModule(dir)}";\nexport const x = m;\n`;
      expect(await rulesFor("server/git/planted.ts", code), dir).toContain("import-x/no-restricted-paths");
    }
  });

  it("a component imports no value from server/services", async () => {
    const code = `import * as s from "${service}";\nexport const x = s;\n`;
    expect(await rulesFor("components/planted/planted.ts", code)).toContain("@typescript-eslint/no-restricted-imports");
  });

  it("a component may import types from the server, and values from the server-component entry points", async () => {
    const types = `import type { Diff } from "@/server/git/diff-parse";\nexport type X = Diff;\n`;
    expect(await rulesFor("components/planted/planted.ts", types)).toEqual([]);
    const inline = `import { type Diff } from "@/server/git/diff-parse";\nexport type X = Diff;\n`;
    expect(await rulesFor("components/planted/planted.ts", inline)).toEqual([]);
    const entry = `import { getServerCaller } from "@/server/auth/session";\nimport { appRouter } from "@/server/api/root";\nexport const x = [getServerCaller, appRouter];\n`;
    expect(await rulesFor("components/planted/planted.ts", entry)).toEqual([]);
  });

  it("server code imports no component", async () => {
    const code = `import * as c from "${component}";\nexport const x = c;\n`;
    expect(await rulesFor("server/services/planted.ts", code)).toContain("import-x/no-restricted-paths");
  });

  it("lib/ imports nothing from server/, components/ or app/", async () => {
    for (const target of ["@/server/errors", component]) {
      const code = `import * as m from "${target}";\nexport const x = m;\n`;
      expect(await rulesFor("lib/planted.ts", code), target).toContain("import-x/no-restricted-paths");
    }
  });
});

describe("import cycles", () => {
  const dir = mkdtempSync(path.join(root, "test", "lint-cycle-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("two modules importing each other are reported", async () => {
    writeFileSync(path.join(dir, "a.ts"), `import { b } from "./b";\nexport const a = () => b();\n`);
    writeFileSync(path.join(dir, "b.ts"), `import { a } from "./a";\nexport const b = () => a;\n`);
    const [result] = await eslint.lintFiles([path.join(dir, "a.ts")]);
    expect(result!.messages.map((m) => m.ruleId)).toContain("import-x/no-cycle");
  });

  it("a type-only import back is no cycle", async () => {
    writeFileSync(path.join(dir, "c.ts"), `import { d } from "./d";\nexport const c = () => d();\nexport type C = number;\n`);
    writeFileSync(path.join(dir, "d.ts"), `import type { C } from "./c";\nexport const d = (): C => 1;\n`);
    const [result] = await eslint.lintFiles([path.join(dir, "c.ts")]);
    expect(result!.messages.map((m) => m.ruleId)).not.toContain("import-x/no-cycle");
  });
});
