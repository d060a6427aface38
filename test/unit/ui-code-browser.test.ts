/** Pure helpers of the web UI: ref/path splitting, URL building, language detection, callback URLs. */
import { describe, expect, it } from "vitest";
import { decodeSegment, splitRefAndPath } from "@/components/code/resolve";
import { codeUrl, encodeSegments, parentPath, repoUrl } from "@/components/code/urls";
import { languageFor } from "@/lib/highlight/code";
import { highlightCode } from "@/server/highlight";
import { safeCallbackUrl } from "@/components/auth/safe-callback";

describe("splitRefAndPath", () => {
  const branches = ["main", "feature", "feature/login", "release/2026/q4"];

  it("takes the longest leading run of segments that names a branch", () => {
    expect(splitRefAndPath(branches, ["feature", "login", "src", "a.ts"])).toEqual({ ref: "feature/login", path: "src/a.ts" });
    expect(splitRefAndPath(branches, ["feature", "src"])).toEqual({ ref: "feature", path: "src" });
    expect(splitRefAndPath(branches, ["release", "2026", "q4"])).toEqual({ ref: "release/2026/q4", path: "" });
    expect(splitRefAndPath(branches, ["main"])).toEqual({ ref: "main", path: "" });
  });

  it("falls back to the first segment (a tag or sha) when no branch matches", () => {
    expect(splitRefAndPath(branches, ["v1.0", "docs", "x.md"])).toEqual({ ref: "v1.0", path: "docs/x.md" });
    expect(splitRefAndPath(branches, ["0123abc"])).toEqual({ ref: "0123abc", path: "" });
    expect(splitRefAndPath([], [])).toEqual({ ref: "", path: "" });
  });
});

describe("URLs", () => {
  it("encodes each segment and keeps ref slashes as separators", () => {
    expect(codeUrl("alice", "app", "tree", "feature/login", "src/dir with space/ü#1.ts")).toBe(
      "/alice/app/tree/feature/login/src/dir%20with%20space/%C3%BC%231.ts",
    );
    expect(codeUrl("alice", "app", "blob", "main", "pct%.md")).toBe("/alice/app/blob/main/pct%25.md");
    expect(codeUrl("alice", "app", "tree", "main")).toBe("/alice/app/tree/main");
    expect(repoUrl("alice", "app")).toBe("/alice/app");
    expect(encodeSegments("/a//b/")).toBe("a/b");
  });

  it("round-trips through decodeSegment", () => {
    const url = codeUrl("o", "r", "blob", "main", "dir with space/ünï/fïle #1.txt");
    const segments = url.split("/blob/")[1].split("/").map(decodeSegment);
    expect(segments).toEqual(["main", "dir with space", "ünï", "fïle #1.txt"]);
    expect(decodeSegment("%zz")).toBe("%zz");
  });

  it("parentPath", () => {
    expect(parentPath("a/b/c.ts")).toBe("a/b");
    expect(parentPath("c.ts")).toBe("");
  });
});

describe("languageFor", () => {
  it("maps extensions, aliases and well-known names to shiki languages", () => {
    expect(languageFor("src/lib/math.ts")).toBe("typescript");
    expect(languageFor("App.tsx")).toBe("tsx");
    expect(languageFor("script.py")).toBe("python");
    expect(languageFor("main.rs")).toBe("rust");
    expect(languageFor("ci.yml")).toBe("yaml");
    expect(languageFor("run.sh")).toBe("shellscript");
    expect(languageFor("README.md")).toBe("markdown");
    expect(languageFor("Dockerfile")).toBe("docker");
    expect(languageFor("Makefile")).toBe("make");
    expect(languageFor("tsconfig.json")).toBe("jsonc");
    expect(languageFor("x.h")).toBe("c");
  });

  it("falls back to plain text", () => {
    expect(languageFor("LICENSE")).toBe("text");
    expect(languageFor("notes.unknownext")).toBe("text");
    expect(languageFor(".gitignore")).toBe("text");
  });
});

describe("highlightCode", () => {
  it("produces shiki HTML with light-dark() colours for both themes and line anchors", async () => {
    const { html, lang } = await highlightCode("export const a: number = 1;\nconst b = 2;\n", "typescript");
    expect(lang).toBe("typescript");
    expect(html).toContain('class="shiki shiki-themes github-light github-dark-default"');
    // each token carries its light and dark colour; the page's color-scheme picks one
    expect(html).toMatch(/<span style="color:light-dark\(#[0-9A-F]{6}, #[0-9A-F]{6}\)/i);
    expect(html).toContain('id="L1"');
    expect(html).toContain('id="L2"');
    expect(html).not.toContain('id="L3"'); // the trailing newline is not a line
  });

  it("escapes text and survives unknown languages", async () => {
    const { html, lang } = await highlightCode("<script>alert(1)</script>", "no-such-language");
    expect(lang).toBe("text");
    expect(html).not.toContain("<script>");
    expect(html).toContain("&#x3C;script>");
  });
});

describe("safeCallbackUrl", () => {
  it("allows same-origin paths only", () => {
    expect(safeCallbackUrl("/settings/tokens")).toBe("/settings/tokens");
    expect(safeCallbackUrl("//evil.example")).toBe("/");
    expect(safeCallbackUrl("/\\evil.example")).toBe("/");
    expect(safeCallbackUrl("https://evil.example")).toBe("/");
    expect(safeCallbackUrl(["/a"])).toBe("/");
    expect(safeCallbackUrl(undefined)).toBe("/");
    // browsers drop tabs and newlines: "/\t/evil.example/" is "//evil.example/" (docs/security.md
    // "Redirects after sign-in")
    expect(safeCallbackUrl("/\t/evil.example/")).toBe("/");
    expect(safeCallbackUrl("/\n/evil.example")).toBe("/");
    expect(safeCallbackUrl("/\r\n/evil.example")).toBe("/");
    expect(safeCallbackUrl("/ /evil.example")).toBe("/%20/evil.example");
    // a newline elsewhere cannot reach a Location header
    expect(safeCallbackUrl("/a\nSet-Cookie: x=1")).toBe("/aSet-Cookie:%20x=1");
    expect(safeCallbackUrl("/alice/app/issues?state=open#top")).toBe("/alice/app/issues?state=open#top");
    expect(safeCallbackUrl("/%2F/evil.example")).toBe("/%2F/evil.example");
  });
});
