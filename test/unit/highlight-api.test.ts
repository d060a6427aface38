/** POST /api/highlight (server/http/highlight.ts): the diff viewer's highlighting of files it scrolls to. */
import { describe, expect, it } from "vitest";
import { postHighlight, MAX_LINES } from "@/server/http/highlight";
import { LIMITS } from "@/server/rate-limit";
import { tokenRuns } from "@/components/diff/model";
import type { DiffHighlights } from "@/lib/highlight/runs";

const post = (body: unknown, address = "198.51.100.1") =>
  postHighlight(
    new Request("http://localhost/api/highlight", {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": address },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
  );

describe("POST /api/highlight", () => {
  it("answers token runs that rebuild each line, plain (null) for text files", async () => {
    const lines = ["export const a = 1;", "", "  return `x${a}`; // é"];
    const res = await post({
      files: [
        { path: "src/a.ts", lines },
        { path: "notes.txt", lines: ["hello"] },
      ],
    });
    expect(res.status).toBe(200);
    const h = (await res.json()) as DiffHighlights;
    expect(h.files[1]).toBeNull();
    lines.forEach((l, i) =>
      expect(
        tokenRuns(l, h.files[0]![i], h.styles)
          ?.map((r) => r.text)
          .join(""),
      ).toBe(l),
    );
  });

  it("refuses bad or oversized input with 400 and the reason", async () => {
    const tooMany = await post({ files: [{ path: "a.ts", lines: Array.from({ length: MAX_LINES + 1 }, () => "x") }] });
    expect(tooMany.status).toBe(400);
    expect(JSON.stringify(await tooMany.json())).toContain(`at most ${MAX_LINES} lines`);
    expect((await post({ files: [{ path: "", lines: [] }] })).status).toBe(400);
    expect((await post({ files: "nope" })).status).toBe(400);
    expect((await post("{not json")).status).toBe(400);
  });

  it("limits requests per address (429 with Retry-After), other addresses unaffected", async () => {
    const address = "203.0.113.7";
    for (let i = 0; i < LIMITS.highlightRequests.points; i++) expect((await post({ files: [] }, address)).status).toBe(200);
    const refused = await post({ files: [] }, address);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await post({ files: [] }, "203.0.113.8")).status).toBe(200);
  });
});
