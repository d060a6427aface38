/**
 * Markdown rendering stays about linear on pathological input (components/markdown/cost.ts;
 * docs/security.md "Hardening II, item 1"): micromark's emphasis and link resolution is
 * quadratic in the delimiters of one paragraph and its block parser in the nesting of block
 * quotes; `boundMarkdown` escapes the runs of lines that would reach it. Each input is rendered
 * at two sizes 4× apart: a quadratic renderer takes ~16× longer on the larger one (before the
 * bound: `*_` × 2,000 in 1.3 s, × 8,000 in tens of seconds); the check allows 8× (a loaded
 * machine), with the least CPU time of two runs.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { boundMarkdown, MAX_NESTING, MAX_RUN_DELIMITERS } from "@/components/markdown/cost";
import { MarkdownRenderer } from "@/components/markdown/renderer";

const render = (source: string) => renderToStaticMarkup(createElement(MarkdownRenderer, { source }));

/**
 * The least CPU time (ms, user + system of this process) of two renders: CPU time, not wall
 * time, so other processes on a loaded machine (the rest of the suite, CI's other passes) do not
 * count; it failed once on wall time when a busy core stretched one size and not the other.
 */
function bestMs(source: string): number {
  let best = Infinity;
  for (let k = 0; k < 2; k++) {
    const t = process.cpuUsage();
    render(source);
    const used = process.cpuUsage(t);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return best;
}

const PATHOLOGICAL: Record<string, (n: number) => string> = {
  "one paragraph of *_": (n) => "*_".repeat(n),
  "lines of *_ × 240": (n) => Array.from({ length: Math.ceil(n / 240) }, () => "*_".repeat(240)).join("\n"),
  "emphasis *a*": (n) => "*a* ".repeat(n),
  "open links [a](": (n) => "[a](".repeat(n),
  "images ![ … ]": (n) => "![".repeat(n) + "]".repeat(n),
  "strikethrough ~a": (n) => "~a ".repeat(n),
  "escaped \\*\\_": (n) => "\\*\\_".repeat(n),
  "nested block quotes": (n) => ">".repeat(n * 2) + " a",
  "nested list items": (n) => "- ".repeat(n) + "a",
};

describe("Markdown rendering cost on pathological input", () => {
  for (const [name, make] of Object.entries(PATHOLOGICAL)) {
    it(`${name}: about linear in the size`, () => {
      render(make(500)); // warm up the modules
      const small = bestMs(make(2_000));
      const large = bestMs(make(8_000));
      expect(large).toBeLessThan(8 * small + 200);
    });
  }
});

describe("boundMarkdown", () => {
  it("leaves ordinary documents as they are", () => {
    const readme = Array.from(
      { length: 300 },
      (_, i) =>
        `## Part ${i}\n\nSome *text*, __bold__, ~~gone~~, a [link](https://x.test/${i}) and \`code_here\`.\n\n> quote\n\n- a\n  - b\n`,
    ).join("\n");
    expect(boundMarkdown(readme)).toEqual({ source: readme, escaped: 0, refusal: null });
  });

  it("escapes a run over the delimiter bound (backslashes too), keeping the other runs", () => {
    const hostile = "\\*_".repeat(MAX_RUN_DELIMITERS);
    const { source, escaped } = boundMarkdown(`# Title *x*\n\n${hostile}\n\nafter *y*`);
    expect(escaped).toBe(1);
    expect(source.startsWith("# Title *x*\n\n\\\\\\*\\_")).toBe(true);
    expect(source.endsWith("\n\nafter *y*")).toBe(true);
    const html = render(`${hostile}\n\nafter *y*`);
    expect(html).toContain('data-testid="markdown-bounded"');
    expect(html).not.toContain("<em>_");
    expect(html).toContain("<em>y</em>");
  });

  it("escapes a run nested deeper than the bound", () => {
    expect(boundMarkdown(">".repeat(MAX_NESTING) + " ok").escaped).toBe(0);
    expect(boundMarkdown(">".repeat(MAX_NESTING + 1) + " deep").escaped).toBe(1);
    expect(boundMarkdown(Array.from({ length: MAX_NESTING + 2 }, (_, i) => " ".repeat(i * 2) + "- a").join("\n")).escaped).toBe(1);
  });
});
