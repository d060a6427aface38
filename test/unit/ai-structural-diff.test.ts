/**
 * The structural diff (server/ai/explain/structural.ts) over real tree-sitter parses of
 * TypeScript, JavaScript and Python, the parser module's API, and the line rules.
 */
import { describe, expect, it } from "vitest";
import { languageOf, outline, parse, MAX_PARSE_BYTES } from "@/server/ai/syntax/parser";
import { structuralDiff } from "@/server/ai/explain/structural";
import { changedLines, fileKind, impactOf, lineConcerns } from "@/server/ai/explain/line-rules";
import { diffTexts } from "@/server/git/text-merge";

const TS_OLD = `import { db } from "./db";

export function getUser(id: string) {
  return db.find(id);
}

export function deleteUser(id: string) {
  return db.remove(id);
}

export class Cache {
  get(key: string) { return this.map.get(key); }
  set(key: string, v: unknown) { this.map.set(key, v); }
}
`;
const TS_NEW = `import { db } from "./db";

export function getUser(id: string) {
  console.log("getUser", id);
  return db.find(id) ?? null;
}

export const listUsers = async () => db.all();

export class Cache {
  get(key: string) { return this.map.get(key); }
      set(key: string, v: unknown) {   this.map.set(key, v); }
  clear() { this.map.clear(); }
}
`;

describe("parser", () => {
  it("languageOf maps extensions; parse bounds its input", async () => {
    expect([
      languageOf("a/b.ts"),
      languageOf("x.tsx"),
      languageOf("y.mjs"),
      languageOf("z.py"),
      languageOf("README.md"),
      languageOf("Makefile"),
    ]).toEqual(["typescript", "tsx", "javascript", "python", null, null]);
    const tree = await parse("let x = 1;", "javascript");
    expect(tree?.rootNode.type).toBe("program");
    tree?.delete();
    expect(await parse("x".repeat(MAX_PARSE_BYTES + 1), "javascript")).toBeNull();
  });

  it("outline: functions, classes, methods with lines and exported", async () => {
    const items = await outline(TS_OLD, "typescript");
    expect(items).toEqual([
      { kind: "function", name: "getUser", startLine: 3, endLine: 5, exported: true },
      { kind: "function", name: "deleteUser", startLine: 7, endLine: 9, exported: true },
      { kind: "class", name: "Cache", startLine: 11, endLine: 14, exported: true },
      // methods are visible where their class is (parser.ts)
      { kind: "method", name: "Cache.get", startLine: 12, endLine: 12, exported: true },
      { kind: "method", name: "Cache.set", startLine: 13, endLine: 13, exported: true },
    ]);
  });
});

describe("structuralDiff", () => {
  it("TypeScript: added, removed, changed (bodies by text, whitespace ignored), removed exports", async () => {
    const d = (await structuralDiff("src/users.ts", TS_OLD, TS_NEW))!;
    expect(d.language).toBe("typescript");
    expect(d.added.map((x) => `${x.kind} ${x.name}`)).toEqual(["function listUsers", "method Cache.clear"]);
    expect(d.removed.map((x) => `${x.kind} ${x.name}`)).toEqual(["function deleteUser"]);
    // Cache.set was only re-indented: not changed; the class changed because a method was added
    expect(d.changed.map((x) => `${x.kind} ${x.name}`)).toEqual(["function getUser", "class Cache"]);
    expect(d.removedExports.map((x) => x.name)).toEqual(["deleteUser"]);
    expect(d.newExports.map((x) => x.name)).toEqual(["listUsers"]);
  });

  it("JavaScript: a function that stops being exported is a removed export", async () => {
    const d = (await structuralDiff(
      "lib/a.js",
      "export function a() { return 1 }\nfunction b() {}\n",
      "function a() { return 1 }\nexport function b() {}\n",
    ))!;
    expect(d.added).toEqual([]);
    expect(d.changed).toEqual([]); // same text: only the export status moved

    expect(d.removedExports.map((x) => x.name)).toEqual(["a"]);
    expect(d.newExports.map((x) => x.name)).toEqual(["b"]);
  });

  it("Python: methods inside classes, private names are not exported", async () => {
    const old =
      "class Store:\n    def get(self, k):\n        return self.d[k]\n\ndef _helper():\n    pass\n\ndef load(path):\n    return open(path).read()\n";
    const neu =
      "class Store:\n    def get(self, k):\n        return self.d.get(k)\n\n    def put(self, k, v):\n        self.d[k] = v\n\ndef load(path):\n    return open(path).read()\n";
    const d = (await structuralDiff("store.py", old, neu))!;
    expect(d.added.map((x) => `${x.kind} ${x.name}`)).toEqual(["method Store.put"]);
    expect(d.removed.map((x) => `${x.kind} ${x.name} ${x.exported}`)).toEqual(["function _helper false"]);
    expect(d.changed.map((x) => x.name)).toEqual(["Store", "Store.get"]);
    expect(d.removedExports).toEqual([]);
  });

  it("no grammar, or nothing declared: null (line-based handling)", async () => {
    expect(await structuralDiff("README.md", "a\n", "b\n")).toBeNull();
    expect(await structuralDiff("x.ts", "const a = 1;\n", "const a = 2;\n")).toBeNull();
  });
});

describe("line rules", () => {
  it("concerns on added lines only: debug, secrets, disabled tests, TODO", async () => {
    const old = "it('works', () => {});\nconsole.log('old');\n";
    const neu =
      [
        "it.skip('works', () => {});",
        "debugger;",
        "const k = 'AKIAABCDEFGHIJKLMNOP';",
        "// TODO: remove",
        "-----BEGIN RSA PRIVATE KEY-----",
        "const t = 'svc_abcdefgh_" + "a".repeat(40) + "';",
      ].join("\n") + "\n";
    const lines = changedLines(await diffTexts(old, neu));
    expect(lines.removed.map((l) => l.text)).toContain("console.log('old');");
    const ids = lineConcerns(lines.added, "typescript").map((c) => c.id);
    expect(ids).toEqual(["secret-svc-token", "secret-private-key", "secret-cloud-key", "debug-statement", "disabled-test", "todo"]);
    // Python's print() counts in Python only
    expect(lineConcerns([{ line: 1, text: "print(x)" }], "python").map((c) => c.id)).toEqual(["debug-statement"]);
    expect(lineConcerns([{ line: 1, text: "print(x)" }], "typescript")).toEqual([]);
    expect(lineConcerns([{ line: 1, text: "dbg!(x);" }], "rust").map((c) => c.id)).toEqual(["debug-statement"]);
  });

  it("impact from size and kind of file", () => {
    expect(impactOf("src/a.ts", 5, { removedExports: 0, secret: false }).impact).toBe("low");
    expect(impactOf("src/a.ts", 80, { removedExports: 0, secret: false }).impact).toBe("medium");
    expect(impactOf("src/a.ts", 500, { removedExports: 0, secret: false }).impact).toBe("high");
    expect(impactOf("prisma/migrations/1_x/migration.sql", 3, { removedExports: 0, secret: false }).impact).toBe("high");
    expect(impactOf("server/auth/session.ts", 3, { removedExports: 0, secret: false }).impact).toBe("high");
    expect(impactOf("package-lock.json", 3, { removedExports: 0, secret: false }).impact).toBe("medium");
    expect(impactOf("src/a.ts", 3, { removedExports: 1, secret: false }).impact).toBe("medium");
    expect(impactOf("docs/x.md", 300, { removedExports: 0, secret: false }).impact).toBe("low");
    expect(impactOf("docs/x.md", 1, { removedExports: 0, secret: true }).impact).toBe("high");
    expect(fileKind("test/a.test.ts").kind).toBe("test");
  });
});
