/**
 * The draft store (components/ui/use-draft.ts; docs/ui.md "Drafts") and the Files tab's line
 * draft keys (components/pulls/use-line-drafts.ts): debounced localStorage writes, flushed when
 * the page hides; pruning of old and surplus drafts; a full or missing storage keeps the draft in
 * memory; keys round-trip, paths with colons included.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

/** A Storage over a Map; `limit`: most entries before setItem throws (a full storage). */
function fakeStorage(limit = Infinity): Storage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    get length() {
      return data.size;
    },
    key: (i) => [...data.keys()][i] ?? null,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => {
      if (!data.has(k) && data.size >= limit) throw new DOMException("full", "QuotaExceededError");
      data.set(k, v);
    },
    removeItem: (k) => void data.delete(k),
    clear: () => data.clear(),
  };
}

let pagehide: (() => void) | null = null;
function browser(storage: Storage | (() => never)) {
  vi.stubGlobal("window", {
    get localStorage() {
      if (typeof storage === "function") return storage();
      return storage;
    },
    addEventListener: (type: string, l: () => void) => type === "pagehide" && (pagehide = l),
  });
  vi.stubGlobal("document", { addEventListener: () => {}, visibilityState: "visible" });
}

const load = () => import("@/components/ui/use-draft");
const day = 24 * 3600 * 1000;

beforeEach(() => {
  vi.resetModules();
  vi.useFakeTimers();
  pagehide = null;
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("draft store", () => {
  it("writes after the debounce or when the page hides; clear and empty text remove", async () => {
    const s = fakeStorage();
    browser(s);
    const d = await load();
    d.writeDraft("pr:1:comment", "hello");
    expect(d.readDraft("pr:1:comment")).toBe("hello");
    expect(s.data.size).toBe(0);
    vi.advanceTimersByTime(d.DRAFT_WRITE_DELAY_MS);
    expect(JSON.parse(s.data.get("svc.draft.pr:1:comment")!).text).toBe("hello");
    d.writeDraft("pr:1:review", "sum");
    pagehide!();
    expect(s.data.has("svc.draft.pr:1:review")).toBe(true);
    d.clearDraft("pr:1:review");
    expect(s.data.has("svc.draft.pr:1:review")).toBe(false);
    d.writeDraft("pr:1:comment", "");
    vi.advanceTimersByTime(d.DRAFT_WRITE_DELAY_MS);
    expect(s.data.size).toBe(0);
  });

  it("reads what an earlier page stored and lists drafts by prefix", async () => {
    const s = fakeStorage();
    s.setItem("svc.draft.pr:1:line:RIGHT:2-2:a.ts", JSON.stringify({ text: "x", at: Date.now() }));
    s.setItem("svc.draft.pr:2:line:RIGHT:1-1:b.ts", JSON.stringify({ text: "y", at: Date.now() }));
    s.setItem("svc.draft.pr:1:line:LEFT:1-1:bad.ts", "not json");
    browser(s);
    const d = await load();
    expect(d.readDraft("pr:1:line:RIGHT:2-2:a.ts")).toBe("x");
    expect(d.listDrafts("pr:1:line:")).toEqual(["pr:1:line:RIGHT:2-2:a.ts"]);
  });

  it("prunes drafts older than 30 days and the oldest beyond the cap at page load", async () => {
    const s = fakeStorage();
    const now = Date.now();
    s.setItem("svc.draft.old", JSON.stringify({ text: "old", at: now - 31 * day }));
    for (let i = 0; i < 205; i++) s.setItem(`svc.draft.k${i}`, JSON.stringify({ text: "t", at: now - i * 1000 }));
    s.setItem("other.key", "kept");
    browser(s);
    const d = await load();
    d.readDraft("anything");
    expect(s.data.has("svc.draft.old")).toBe(false);
    expect([...s.data.keys()].filter((k) => k.startsWith("svc.draft.")).length).toBe(d.DRAFT_MAX_COUNT);
    expect(s.data.has("svc.draft.k0")).toBe(true);
    expect(s.data.has("svc.draft.k204")).toBe(false);
    expect(s.data.get("other.key")).toBe("kept");
  });

  it("a full storage drops the oldest half and retries; an unavailable one keeps drafts in memory", async () => {
    const s = fakeStorage(4);
    for (let i = 0; i < 4; i++) s.setItem(`svc.draft.k${i}`, JSON.stringify({ text: "t", at: Date.now() - i * 1000 }));
    browser(s);
    let d = await load();
    d.writeDraft("new", "fits");
    d.flushDrafts();
    expect(s.data.has("svc.draft.new")).toBe(true);
    expect(s.data.has("svc.draft.k3")).toBe(false);

    vi.resetModules();
    browser(() => {
      throw new DOMException("denied", "SecurityError");
    });
    d = await load();
    d.writeDraft("a", "in memory");
    expect(() => d.flushDrafts()).not.toThrow();
    expect(d.readDraft("a")).toBe("in memory");
    expect(d.listDrafts("")).toEqual(["a"]);
  });
});

describe("sign-out", () => {
  it("forgets every draft, in memory and stored, and leaves other keys", async () => {
    const s = fakeStorage();
    s.setItem("svc.draft.old", JSON.stringify({ text: "x", at: Date.now() }));
    s.setItem("svc.diff.view", "split");
    browser(s);
    const d = await load();
    d.writeDraft("pending", "typed");
    d.forgetAllDrafts();
    vi.advanceTimersByTime(d.DRAFT_WRITE_DELAY_MS);
    expect([...s.data.keys()]).toEqual(["svc.diff.view"]);
    expect(d.readDraft("pending")).toBe("");
    expect(d.listDrafts("")).toEqual([]);
  });
});

describe("line draft keys", () => {
  it("round-trip, paths with colons included; other keys are not line drafts", async () => {
    const { lineDraftKey, parseLineDraftKey } = await import("@/components/pulls/use-line-drafts");
    const d = { path: "src/a:b.ts", side: "LEFT" as const, start: 3, end: 7 };
    expect(parseLineDraftKey("p1", lineDraftKey("p1", d))).toEqual(d);
    expect(parseLineDraftKey("p2", lineDraftKey("p1", d))).toBeNull();
    expect(parseLineDraftKey("p1", "pr:p1:comment")).toBeNull();
    expect(parseLineDraftKey("p1", "pr:p1:line:RIGHT:5-2:x")).toBeNull();
  });
});
