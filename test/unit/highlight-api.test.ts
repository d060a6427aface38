/** POST /api/highlight (server/http/highlight.ts): the diff viewer's highlighting of files it scrolls to. */
import { describe, expect, it } from "vitest";
import { postHighlight, MAX_LINES } from "@/server/http/highlight";
import { tokenRuns, type DiffHighlights } from "@/components/diff/model";

const post = (body: unknown) => postHighlight(new Request("http://localhost/api/highlight", { method: "POST", headers: { "content-type": "application/json" }, body: typeof body === "string" ? body : JSON.stringify(body) }));

describe("POST /api/highlight", () => {
  it("answers token runs that rebuild each line, plain (null) for text files", async () => {
    const lines = ["export const a = 1;", "", "  return `x${a}`; // é"];
    const res = await post({ files: [{ path: "src/a.ts", lines }, { path: "notes.txt", lines: ["hello"] }] });
    expect(res.status).toBe(200);
    const h = (await res.json()) as DiffHighlights;
    expect(h.files[1]).toBeNull();
    lines.forEach((l, i) => expect(tokenRuns(l, h.files[0]![i], h.styles)?.map((r) => r.text).join("")).toBe(l));
  });

  it("refuses bad or oversized input with 400 and the reason", async () => {
    const tooMany = await post({ files: [{ path: "a.ts", lines: Array.from({ length: MAX_LINES + 1 }, () => "x") }] });
    expect(tooMany.status).toBe(400);
    expect(JSON.stringify(await tooMany.json())).toContain(`at most ${MAX_LINES} lines`);
    expect((await post({ files: [{ path: "", lines: [] }] })).status).toBe(400);
    expect((await post({ files: "nope" })).status).toBe(400);
    expect((await post("{not json")).status).toBe(400);
  });
});
