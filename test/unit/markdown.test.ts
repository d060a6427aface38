/**
 * The shared Markdown renderer (components/markdown) and the unhighlighted large-file view
 * (lib/highlight/code.ts plainCodeHtml; docs/ui.md "Markdown"): sanitized raw HTML with
 * GitHub's allowlist, heading ids + anchors, repository-relative links and images, one row per
 * line.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { MarkdownRenderer } from "@/components/markdown/renderer";
import { MarkdownView } from "@/components/code/markdown";
import { IssueMarkdown } from "@/components/issues/markdown";
import { lineNumberHtml, MAX_HIGHLIGHT_BYTES, plainCodeHtml } from "@/lib/highlight/code";
import { highlightCode, highlightFile } from "@/server/highlight";

const base = { owner: "alice", repo: "app", gitRef: "main", dir: "docs" };
const readme = (source: string) => renderToStaticMarkup(createElement(MarkdownView, { source, ...base }));
const issue = (source: string) => renderToStaticMarkup(createElement(IssueMarkdown, { source }));

describe("Markdown: raw HTML through GitHub's allowlist", () => {
  it("renders details/summary, picture/source, img, br, sup and align as elements, not text", () => {
    const html = readme(
      [
        '<p align="center"><img src="logo.png" alt="Logo" width="120"></p>',
        "",
        "<details><summary>More</summary>",
        "",
        "Hidden **text**<br>next<sup>1</sup>",
        "",
        "</details>",
        "",
        '<picture><source media="(prefers-color-scheme: dark)" srcset="dark.png 2x"><img src="https://example.com/l.png" alt="x"></picture>',
        "",
        '<h3 align="right">Right</h3>',
      ].join("\n"),
    );
    expect(html).toContain('<p align="center"><img src="/alice/app/raw/main/docs/logo.png" alt="Logo" width="120"/></p>');
    expect(html).toMatch(/<details><summary>More<\/summary>/);
    expect(html).toContain("<strong>text</strong><br/>next<sup>1</sup>");
    expect(html).toContain('<source media="(prefers-color-scheme: dark)" srcSet="/alice/app/raw/main/docs/dark.png 2x"/>');
    expect(html).toContain('<img src="https://example.com/l.png" alt="x"/>');
    expect(html).toContain('<h3 id="user-content-right" align="right"><a class="anchor" href="#user-content-right"');
    expect(html).not.toContain("&lt;details");
  });

  it("strips script, event handlers, javascript: URLs, style and iframes", () => {
    const html = issue(
      [
        "<script>alert(1)</script>",
        '<img src="https://example.com/x.png" onerror="alert(2)" style="position:fixed">',
        '<a href="javascript:alert(3)">click</a> [md](javascript:alert(4))',
        '<div style="color:red" class="evil">styled</div>',
        '<iframe src="https://evil.example"></iframe>',
      ].join("\n\n"),
    );
    expect(html).not.toMatch(/<script|alert\(1\)|onerror|alert\(2\)|javascript:|style=|class="evil"|<iframe/i);
    expect(html).toContain('<img src="https://example.com/x.png"/>');
    expect(html).toContain("styled");
    expect(html).toContain(">click</a>");
  });

  it("prefixes user ids and names with user-content- (GitHub's clobber rule)", () => {
    const html = issue('<a name="top"></a><div id="main">x</div>');
    expect(html).toContain('name="user-content-top"');
    expect(html).toContain('id="user-content-main"');
  });
});

describe("Markdown: headings and the table of contents", () => {
  it("gives headings prefixed ids with an anchor link, and TOC links point at them", () => {
    const html = readme("- [Getting started](#getting-started)\n\n## Getting started\n\nText\n\n## Getting started\n");
    expect(html).toContain('<a href="#user-content-getting-started">Getting started</a>');
    expect(html).toContain(
      '<h2 id="user-content-getting-started"><a class="anchor" href="#user-content-getting-started" aria-label="Permalink"',
    );
    expect(html).toContain('<h2 id="user-content-getting-started-1">');
  });

  it("keeps GFM footnote links working with the prefix applied once", () => {
    const html = issue("Note[^1]\n\n[^1]: The note.\n");
    expect(html).toContain('href="#user-content-fn-1"');
    expect(html).toContain('id="user-content-fn-1"');
    expect(html).not.toContain("user-content-user-content");
  });
});

describe("Markdown: URLs", () => {
  it("resolves relative links to blob/tree and images to the raw route at the file's ref", () => {
    const html = readme(
      "[guide](guide.md#setup) [up](../src/) [abs](/LICENSE) ![shot](img/a%20b.png) [ext](https://example.com/x) [mail](mailto:a@b.c)",
    );
    expect(html).toContain('href="/alice/app/blob/main/docs/guide.md#setup"');
    expect(html).toContain('href="/alice/app/tree/main/src"');
    expect(html).toContain('href="/alice/app/blob/main/LICENSE"');
    expect(html).toContain('src="/alice/app/raw/main/docs/img/a%20b.png"');
    expect(html).toContain('<a href="https://example.com/x" rel="nofollow noopener noreferrer" target="_blank">ext</a>');
    expect(html).toContain('href="mailto:a@b.c"');
  });

  it("issue bodies use the same renderer but leave relative URLs as written", () => {
    const source = "<details><summary>S</summary>body</details>\n\n[guide](docs/guide.md) ![i](a.png)\n\n## Title";
    const html = issue(source);
    expect(html).toContain("<details><summary>S</summary>body</details>");
    expect(html).toContain('href="docs/guide.md"');
    expect(html).toContain('src="a.png"');
    expect(html).toContain('<h2 id="user-content-title"><a class="anchor" href="#user-content-title"');
    // same output as the shared renderer without a base
    expect(html).toBe(renderToStaticMarkup(createElement(MarkdownRenderer, { source, className: "text-sm" })));
  });
});

/** The code view rows: each `span.line` with its id, and whether a "\n" sits inside a span. */
function rows(html: string): { ids: string[]; newlineInsideSpan: boolean } {
  const code = html.slice(html.indexOf("<code>") + 6, html.lastIndexOf("</code>"));
  const ids = [...code.matchAll(/<span class="line" id="(L\d+)">/g)].map((m) => m[1]);
  const newlineInsideSpan = code.split("\n").some((row) => !/^<span class="line" id="L\d+">.*<\/span>$/.test(row));
  return { ids, newlineInsideSpan };
}

describe("code view above the highlighting limit", () => {
  it("renders one span.line per line, numbered L1…Ln, with the newlines between rows", async () => {
    const line = 'export const value = "<tag> & \\"quoted\\"";\r';
    const count = Math.ceil((MAX_HIGHLIGHT_BYTES * 3) / line.length);
    const text = Array.from({ length: count }, () => line).join("\n") + "\n";
    expect(await highlightFile(text, "big.js")).toBeNull();
    const html = plainCodeHtml(text);
    const { ids, newlineInsideSpan } = rows(html);
    expect(ids.length).toBe(count);
    expect(ids[0]).toBe("L1");
    expect(ids[count - 1]).toBe(`L${count}`);
    expect(newlineInsideSpan).toBe(false);
    expect(html).toContain(
      `<span class="line" id="L1">${lineNumberHtml(1)}export const value = &quot;&lt;tag&gt; &amp; \\&quot;quoted\\&quot;&quot;;</span>\n<span class="line" id="L2">${lineNumberHtml(2)}`,
    );
  });

  it("has the same row structure as shiki's highlighted output", async () => {
    const text = "a\n\nb\n";
    const plain = rows(plainCodeHtml(text));
    const highlighted = (await highlightCode(text, "text")).html.replace(/<span style="[^"]*">|<\/span>(?=<\/span>)/g, "");
    expect(plain).toEqual({ ids: ["L1", "L2", "L3"], newlineInsideSpan: false });
    expect(rows(highlighted)).toEqual(plain);
  });

  it("starts every line with a line-number link (issue #7) in both paths, and Markdown code blocks go without", async () => {
    const text = "const a = 1;\n\nconst b = 2;\n";
    const linkOf = (html: string) =>
      [...html.matchAll(/<span class="line" id="L(\d+)"><a href="#L(\d+)" tabindex="-1" aria-hidden="true"><\/a>/g)].map((m) =>
        [m[1], m[2]].join(),
      );
    expect(linkOf(plainCodeHtml(text))).toEqual(["1,1", "2,2", "3,3"]);
    expect(linkOf((await highlightFile(text, "a.ts"))!.html)).toEqual(["1,1", "2,2", "3,3"]);
    expect((await highlightCode(text, "ts")).html).not.toContain('<a href="#L');
    // the number is drawn by CSS: the link holds no text, so copying code never copies numbers
    expect(lineNumberHtml(7)).toBe('<a href="#L7" tabindex="-1" aria-hidden="true"></a>');
  });
});

describe("Markdown: #N references and @mentions in issue bodies (issue #7)", () => {
  const body = (source: string) => renderToStaticMarkup(createElement(IssueMarkdown, { source, repo: { owner: "alice", name: "app" } }));

  it("links #N to the repository's issue and @user to the profile", () => {
    const html = body("Fixed by #12, see #3. Thanks @bob-smith and @Carol!");
    expect(html).toContain('<a href="/alice/app/issues/12">#12</a>');
    expect(html).toContain('<a href="/alice/app/issues/3">#3</a>');
    expect(html).toContain('<a href="/bob-smith">@bob-smith</a>');
    expect(html).toContain('<a href="/Carol">@Carol</a>');
  });

  it("leaves code spans, code blocks and existing links (Markdown and raw HTML) alone", () => {
    const html = body('`#1 @bob`\n\n```\n#2 @carol\n```\n\n[see #3 @dave](https://example.com) <a href="/x">#4 @erin</a> <kbd>#5</kbd>');
    expect(html).toContain("<code>#1 @bob</code>");
    expect(html).toMatch(/<pre><code>#2 @carol\n<\/code><\/pre>/);
    expect(html).toContain(">see #3 @dave</a>");
    expect(html).toContain('<a href="/x">#4 @erin</a>');
    expect(html).toContain("<kbd>#5</kbd>");
    expect(html).not.toMatch(/issues\/[1-5]"|href="\/(bob|carol|dave|erin)"/);
    expect(html).not.toMatch(/<a[^>]*>[^<]*<a/);
  });

  it("ignores e-mail addresses, words and paths glued to the token, headings and reserved names", () => {
    const html = body("mail bob@example.com, issue#7, a/#8, #9abc, @settings, @-x, @bob.example\n\n# 10 heading");
    expect(html).toContain('<a href="mailto:bob@example.com">bob@example.com</a>'); // GFM's autolink, not a mention
    expect(html).not.toMatch(/href="\/(alice\/app\/issues|bob|settings|-x)/);
    const heading = body("# Release #12");
    expect(heading).toContain('<a href="/alice/app/issues/12">#12</a>');
  });

  it("keeps sanitizing: a generated link cannot smuggle markup, and raw HTML around it is still filtered", () => {
    const html = body('<img src=x onerror="alert(1)"> #1 <script>@bob</script> [x](javascript:alert(2)) @bob');
    expect(html).not.toMatch(/onerror|<script|javascript:/);
    expect(html).toContain('<a href="/alice/app/issues/1">#1</a>');
    expect(html).toContain('<a href="/bob">@bob</a>');
  });

  it("does nothing without a repository (README, file previews)", () => {
    const html = renderToStaticMarkup(createElement(IssueMarkdown, { source: "See #1 and @bob" }));
    expect(html).not.toContain("<a");
  });
});
