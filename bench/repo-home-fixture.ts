/**
 * The repository home bench's fixture (bench/repo-home.bench.ts): an express-like repository of
 * `commits` commits (≈ 420 files, a README with 14 code blocks rewritten every 50 commits, tags
 * and release branches), built once with `git fast-import` and cached under the OS temp dir.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/** git on a bare repository with a fixed identity; its stdout (utf8). */
export const gitSync = (gitDir: string, argv: string[], input?: string) =>
  execFileSync("git", ["--git-dir", gitDir, ...argv], {
    encoding: "utf8",
    input,
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, GIT_AUTHOR_NAME: "b", GIT_AUTHOR_EMAIL: "b@x", GIT_COMMITTER_NAME: "b", GIT_COMMITTER_EMAIL: "b@x" },
  });

/** An express-like README: prose, headings, links, 14 fenced code blocks (js, sh, console). */
function readme(rev: number): string {
  const parts = [`# fixture\n\nFast, unopinionated, minimalist web framework (revision ${rev}).\n`];
  for (let s = 0; s < 14; s++) {
    parts.push(
      `## Section ${s}\n\nSome text with a [link](https://example.com/${s}) and \`code\` and **bold** words, ${"lorem ipsum ".repeat(20)}\n`,
    );
    const lang = ["js", "sh", "console"][s % 3];
    const body =
      lang === "js"
        ? `const express = require('express')\nconst app = express()\n\napp.get('/', function (req, res) {\n  res.send('Hello World ${s}')\n})\n\napp.listen(3000)\n`
        : `$ npm install\n$ node examples/content-negotiation ${s}\n`;
    parts.push("```" + lang + "\n" + body + "```\n");
    parts.push(`- item one\n- item two with [a relative link](lib/file${s}.js)\n- item three\n`);
  }
  return parts.join("\n");
}

/** The fast-import stream of the fixture (deterministic). */
function fastImport(commits: number): string {
  const files = new Map<string, string>();
  for (let d = 0; d < 12; d++) for (let f = 0; f < 27; f++) files.set(`dir${d}/sub${f % 3}/file${f}.js`, `// ${d}/${f}\n`);
  for (let f = 0; f < 96; f++) files.set(`top-${f}.${["js", "md", "json", "yml"][f % 4]}`, `top ${f}\n`);
  files.set("README.md", readme(0));
  const names = [...files.keys()];
  let seed = 42;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const data = (s: string) => `data ${Buffer.byteLength(s)}\n${s}\n`;
  const out: string[] = [];
  for (let i = 1; i <= commits; i++) {
    let chunk = `commit refs/heads/main\nmark :${i}\ncommitter Bench Bot <bench@example.com> ${1_400_000_000 + i * 3600} +0000\n`;
    chunk += data(`Change ${i}: tweak things\n\nThis is commit number ${i} of the fixture.\n`);
    if (i > 1) chunk += `from :${i - 1}\n`;
    const touched = i === 1 ? names : Array.from({ length: 1 + rand(3) }, () => names[rand(names.length)]!);
    if (i > 1 && i % 50 === 0) {
      files.set("README.md", readme(i));
      touched.push("README.md");
    }
    for (const name of new Set(touched)) {
      if (i > 1 && name !== "README.md") files.set(name, `${files.get(name)}// edit ${i}\n`);
      chunk += `M 100644 inline ${name}\n${data(files.get(name)!)}`;
    }
    out.push(chunk);
    if (i % Math.floor(commits / 300) === 0) out.push(`reset refs/tags/v${i}\nfrom :${i}\n`);
    if (i === commits - 100 || i === commits - 500 || i === commits - 900 || i === commits - 1300 || i === commits - 1700)
      out.push(`reset refs/heads/release-${i}\nfrom :${i}\n`);
  }
  out.push("done\n");
  return out.join("\n");
}

/** The cached fixture repository of `commits` commits (a bare repository's path), built on first use. */
export function fixtureRepository(commits: number): string {
  const cacheDir = path.join(os.tmpdir(), "svc-bench-cache");
  const cached = path.join(cacheDir, `repo-home-${commits}.git`);
  if (!existsSync(path.join(cached, "HEAD"))) {
    const t0 = Date.now();
    mkdirSync(cacheDir, { recursive: true });
    rmSync(cached, { recursive: true, force: true });
    execFileSync("git", ["init", "--bare", "--quiet", "--initial-branch=main", cached]);
    gitSync(cached, ["fast-import", "--quiet", "--done"], fastImport(commits));
    gitSync(cached, ["repack", "-a", "-d", "-q"]);
    console.log(`built ${cached} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
  return cached;
}
