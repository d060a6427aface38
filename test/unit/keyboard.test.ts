/**
 * Keyboard shortcuts and code-view helpers (docs/ui.md "Keyboard shortcuts"): the sequence matcher
 * (components/keyboard/ registry.ts), the repository read from a path, the file finder's fuzzy
 * matching and the line hash of the code view.
 */
import { describe, expect, it } from "vitest";
import { createMatcher, register, available, SEQUENCE_WINDOW_MS, type KeyPress, type Shortcut } from "@/components/keyboard/registry";
import { repoFromPath } from "@/components/keyboard/repo-path";
import { fuzzyFilter, fuzzyMatch } from "@/components/code/fuzzy";
import { lineHash, parseLineHash } from "@/components/code/line-selection";

/** A fake event target: `closest` answers for the selectors it matches. */
function target(kind: "body" | "input" | "dialog" | "editable"): EventTarget {
  return {
    isContentEditable: kind === "editable",
    closest: (sel: string) =>
      (kind === "input" && sel.includes("input")) || (kind === "dialog" && sel.includes("role='dialog'")) ? {} : null,
  } as unknown as EventTarget;
}

function press(key: string, at: number, extra: Partial<KeyPress> = {}): KeyPress {
  return { key, metaKey: false, ctrlKey: false, altKey: false, target: target("body"), timeStamp: at, ...extra };
}

const ran: string[] = [];
const make = (id: string, keys: string, mod = false): Shortcut => ({ id, keys, mod, label: id, group: "g", run: () => ran.push(id) });
const list = [
  make("help", "?"),
  make("issues", "g i"),
  make("board", "g b"),
  make("new", "c"),
  make("menu", "k", true),
  make("finder", "t"),
];

describe("shortcut matcher", () => {
  it("runs single keys and two-key sequences within the window", () => {
    const m = createMatcher(() => list);
    expect(m.press(press("?", 0))?.id).toBe("help");
    expect(m.press(press("g", 10))).toBeNull();
    expect(m.press(press("i", 20))?.id).toBe("issues");
    expect(m.press(press("g", 30))).toBeNull();
    expect(m.press(press("b", 30 + SEQUENCE_WINDOW_MS - 1))?.id).toBe("board");
  });

  it("forgets a sequence after the window, and a wrong second key starts over", () => {
    const m = createMatcher(() => list);
    expect(m.press(press("g", 0))).toBeNull();
    expect(m.press(press("i", SEQUENCE_WINDOW_MS + 1))).toBeNull();
    expect(m.press(press("g", 5000))).toBeNull();
    expect(m.press(press("c", 5100))?.id).toBe("new"); // "g c" is not registered here: c alone
    expect(m.press(press("i", 5200))).toBeNull();
  });

  it("ignores keys typed in fields, dialogs and contenteditable, and with modifiers", () => {
    const m = createMatcher(() => list);
    for (const kind of ["input", "dialog", "editable"] as const) expect(m.press(press("c", 0, { target: target(kind) }))).toBeNull();
    expect(m.press(press("c", 0, { altKey: true }))).toBeNull();
    expect(m.press(press("c", 0, { ctrlKey: true }))).toBeNull();
    expect(m.press(press("c", 0, { metaKey: true }))).toBeNull();
    // "g" then a field: the sequence does not carry over
    expect(m.press(press("g", 0))).toBeNull();
    expect(m.press(press("i", 10, { target: target("input") }))).toBeNull();
    expect(m.press(press("i", 20))).toBeNull();
  });

  it("runs ⌘/Ctrl shortcuts anywhere, also in fields", () => {
    const m = createMatcher(() => list);
    expect(m.press(press("k", 0, { metaKey: true, target: target("input") }))?.id).toBe("menu");
    expect(m.press(press("K", 0, { ctrlKey: true }))?.id).toBe("menu");
    expect(m.press(press("k", 0))).toBeNull();
    expect(m.press(press("k", 0, { ctrlKey: true, altKey: true }))).toBeNull();
  });

  it("registry: `when` hides a shortcut, unregistering removes only its own entries", () => {
    let on = false;
    const off1 = register([{ ...make("x", "x"), when: () => on }]);
    expect(available().map((s) => s.id)).not.toContain("x");
    on = true;
    expect(available().map((s) => s.id)).toContain("x");
    const off2 = register([make("x", "y")]);
    off1();
    expect(available().find((s) => s.id === "x")?.keys).toBe("y");
    off2();
    expect(available().find((s) => s.id === "x")).toBeUndefined();
  });

  it("registry: each key once; an `overrides` shortcut replaces the others on its keys", () => {
    const offGlobal = register([make("new-issue", "c"), make("g-i", "g i")]);
    const offPage = register([{ ...make("comment-line", "c"), overrides: true, listOnly: true }]);
    const ids = available().map((s) => s.id);
    expect(ids).toContain("comment-line");
    expect(ids).not.toContain("new-issue");
    expect(available().filter((s) => s.keys === "c")).toHaveLength(1);
    // the page's `c` is handled by its own element: the matcher no longer runs "New issue"
    expect(createMatcher(available).press(press("c", 0))).toBeNull();
    offPage();
    expect(available().map((s) => s.id)).toContain("new-issue");
    const offDup = register([make("other-c", "c")]);
    expect(
      available()
        .filter((s) => s.keys === "c")
        .map((s) => s.id),
    ).toEqual(["new-issue"]);
    offDup();
    offGlobal();
  });
});

describe("repoFromPath", () => {
  it("reads /<owner>/<repo>/… and skips svc's own routes", () => {
    expect(repoFromPath("/alice/app/issues/3")).toEqual({ owner: "alice", repo: "app", base: "/alice/app" });
    expect(repoFromPath("/alice/my%20app")).toEqual({ owner: "alice", repo: "my app", base: "/alice/my%20app" });
    expect(repoFromPath("/alice/%E0%A4%A")?.repo).toBe("%E0%A4%A");
    for (const p of ["/", "/alice", "/settings/tokens", "/new", "/signin", "/api/trpc"]) expect(repoFromPath(p)).toBeNull();
  });
});

describe("file finder fuzzy matching", () => {
  const paths = [
    "README.md",
    "src/lib/math.ts",
    "src/index.ts",
    "docs/guide/intro.md",
    "src/login.ts",
    "test/unit/math.test.ts",
    "lib/mathematics/x.ts",
  ];
  it("matches characters in order, case-insensitively, ignoring spaces", () => {
    expect(fuzzyMatch("slm", "src/lib/math.ts")?.indices).toHaveLength(3);
    expect(fuzzyMatch("SRC MATH", "src/lib/math.ts")).not.toBeNull();
    expect(fuzzyMatch("zzz", "src/lib/math.ts")).toBeNull();
    expect(fuzzyMatch("tam", "math.ts")).toBeNull();
  });
  it("ranks file-name and consecutive matches first", () => {
    expect(fuzzyFilter("math", paths)[0].path).toBe("src/lib/math.ts");
    expect(fuzzyFilter("intro", paths)[0].path).toBe("docs/guide/intro.md");
    expect(fuzzyFilter("mthts", paths).map((m) => m.path)).toContain("test/unit/math.test.ts");
    expect(fuzzyFilter("", paths, 3)).toHaveLength(3);
    expect(fuzzyFilter("x", paths, 50).every((m) => m.path.toLowerCase().includes("x"))).toBe(true);
  });
  it("highlights indices inside the path, ascending", () => {
    const m = fuzzyMatch("lgn", "src/login.ts")!;
    expect(m.indices).toEqual([...m.indices].sort((a, b) => a - b));
    expect(m.indices.map((i) => m.path[i]).join("")).toBe("lgn");
  });
  it("filters 50,000 paths quickly", () => {
    const many = Array.from({ length: 50_000 }, (_, i) => `packages/p${i % 300}/src/components/file${i}.tsx`);
    const t = performance.now();
    const top = fuzzyFilter("p12file49", many);
    expect(performance.now() - t).toBeLessThan(1000);
    expect(top.length).toBeGreaterThan(0);
  });
});

describe("line hash", () => {
  it("parses #L10 and #L10-L20 (either order) and refuses the rest", () => {
    expect(parseLineHash("#L10")).toEqual({ start: 10, end: 10 });
    expect(parseLineHash("#L20-L10")).toEqual({ start: 10, end: 20 });
    expect(parseLineHash("#L3-7")).toEqual({ start: 3, end: 7 });
    for (const h of ["", "#", "#L", "#L0", "#Lx", "#user-content-x", "#L1-L2-L3", "#L99999999"]) expect(parseLineHash(h)).toBeNull();
  });
  it("builds the hash of a range", () => {
    expect(lineHash(4, 4)).toBe("#L4");
    expect(lineHash(9, 4)).toBe("#L4-L9");
  });
});
