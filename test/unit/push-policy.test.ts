/**
 * The pure parts of the push policy (docs/git-http.md "Refused pushes: ref names and push
 * protection (pre-receive)"): push ref rules checked against
 * the real `git check-ref-format`, the pre-receive input parser, git path unquoting, and the
 * secret detector on hand-made added lines.
 */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import os from "node:os";
import { pushRefProblem } from "@/server/git/refs";
import { unquoteGitPath, type AddedLine } from "@/server/git/added-lines";
import { parseHookInput } from "@/server/services/repos/push-policy";
import { SecretDetector, MAX_TOKEN_LOOKUPS } from "@/server/services/repos/secret-scan";
import { generateToken, randomBase62 } from "@/server/services/tokens/token-format";

function gitCheckRefFormat(ref: string): boolean {
  const r = spawnSync("git", ["check-ref-format", ref], {
    cwd: os.tmpdir(),
    env: { PATH: process.env.PATH, HOME: os.tmpdir(), GIT_CONFIG_NOSYSTEM: "1", GIT_CEILING_DIRECTORIES: os.tmpdir(), LANG: "C" } as Record<
      string,
      string | undefined
    > as NodeJS.ProcessEnv,
  });
  return r.status === 0;
}

const ZERO = "0".repeat(40);
const A = "a".repeat(40);
const B = "b".repeat(40);

describe("pushRefProblem", () => {
  it("accepts valid branches and tags, refuses what svc cannot serve, naming the ref and the rule", () => {
    for (const ok of ["refs/heads/main", "refs/heads/feature/x-1", "refs/heads/ünï", "refs/tags/v1.0", "refs/tags/release/2026"])
      expect(pushRefProblem(ok, false), ok).toBeNull();
    const bad: [string, RegExp][] = [
      ["refs/heads/-x", /"refs\/heads\/-x": a branch name cannot start with "-"/],
      ["refs/heads/HEAD", /"HEAD" cannot be a branch name/],
      ["refs/heads/a..b", /not a valid branch name \(git check-ref-format/],
      ["refs/heads/x.lock", /not a valid branch name/],
      ["refs/tags/-v1", /a tag name cannot start with "-"/],
      ["refs/tags/v1^", /not a valid tag name/],
      ["refs/pull/1/head", /refs\/pull\/ is reserved for pull requests/],
      ["refs/notes/commits", /svc accepts only branches \(refs\/heads\/…\) and tags/],
      ["refs/remotes/origin/main", /svc accepts only branches/],
    ];
    for (const [ref, message] of bad) expect(pushRefProblem(ref, false), ref).toMatch(message);
  });

  it("allows deleting any ref except refs/pull/", () => {
    expect(pushRefProblem("refs/heads/-x", true)).toBeNull();
    expect(pushRefProblem("refs/notes/commits", true)).toBeNull();
    expect(pushRefProblem("refs/pull/1/head", true)).toMatch(/reserved for pull requests/);
  });

  it("never accepts a branch or tag that git check-ref-format refuses", () => {
    const names = [
      "a",
      "a/b",
      ".a",
      "a.",
      "a..b",
      "a//b",
      "a@{b",
      "a b",
      "a~1",
      "a:b",
      "a?",
      "a*",
      "a[b",
      "a\\b",
      "@",
      "a.lock",
      "a/.b",
      "-a",
      "a-",
      "日本",
      "a\x7fb",
    ];
    for (const n of names) {
      for (const ns of ["refs/heads/", "refs/tags/"]) {
        if (pushRefProblem(ns + n, false) === null) expect(gitCheckRefFormat(ns + n), ns + n).toBe(true);
      }
    }
  });
});

describe("parseHookInput", () => {
  it("reads <old> <new> <ref> lines and refuses anything else", () => {
    expect(parseHookInput(`${ZERO} ${A} refs/heads/main\n${A} ${ZERO} refs/tags/v1\n`)).toEqual([
      { oldSha: ZERO, newSha: A, ref: "refs/heads/main" },
      { oldSha: A, newSha: ZERO, ref: "refs/tags/v1" },
    ]);
    expect(parseHookInput("")).toEqual([]);
    expect(() => parseHookInput(`${A} refs/heads/main\n`)).toThrow(/unexpected pre-receive line/);
  });
});

describe("unquoteGitPath", () => {
  it("undoes git's C quoting, leaves plain names alone", () => {
    expect(unquoteGitPath("b/plain name.txt")).toBe("b/plain name.txt");
    expect(unquoteGitPath('"b/tab\\there"')).toBe("b/tab\there");
    expect(unquoteGitPath('"b/q\\"uote\\\\"')).toBe('b/q"uote\\');
    expect(unquoteGitPath('"b/\\303\\274"')).toBe("b/ü");
  });
});

describe("SecretDetector", () => {
  const at = (line: number, text: string, path = "f.txt", commit = A): AddedLine => ({ commit, path, line, text });
  const armour = (kind: string) => `-----BEGIN ${kind}PRIVATE KEY-----`;
  const b64 = () => randomBytes(48).toString("base64");

  it("looks up only tokens that can be ours (checksum-valid or legacy length), once each; reports every place", async () => {
    const asked: string[] = [];
    const real = generateToken().token;
    const legacy = `svc_${randomBase62(8)}_${randomBase62(40)}`;
    const d = new SecretDetector(async (t) => {
      asked.push(t);
      return t === real;
    });
    d.feed(at(1, `x=${real};y=svc_${randomBase62(8)}_${randomBase62(46)}`));
    d.feed(at(2, `legacy ${legacy} and mysvc_${randomBase62(8)}_${randomBase62(40)} and svc_${randomBase62(8)}_${randomBase62(33)}`));
    d.feed(at(9, `again ${real}`, "g.txt", B));
    expect(await d.findings()).toEqual([
      { kind: "svc-token", path: "f.txt", line: 1, commit: A },
      { kind: "svc-token", path: "g.txt", line: 9, commit: B },
    ]);
    expect(asked.sort()).toEqual([real, legacy].sort());
  });

  it("stops looking up after MAX_TOKEN_LOOKUPS distinct candidates and counts the rest", async () => {
    const d = new SecretDetector(async () => false);
    for (let i = 0; i < MAX_TOKEN_LOOKUPS + 5; i++) d.feed(at(i + 1, generateToken().token));
    expect(await d.findings()).toEqual([]);
    expect(d.skippedCandidates).toBe(5);
  });

  it("finds key blocks (multi-line, with PEM headers, one-line JSON), not the armour line alone", async () => {
    const d = new SecretDetector(async () => false);
    // a PEM block: armour then base64
    d.feed(at(3, armour("RSA ")));
    d.feed(at(4, b64()));
    // encrypted PEM: headers and a blank line first
    d.feed(at(1, armour("RSA "), "enc.pem"));
    d.feed(at(2, "Proc-Type: 4,ENCRYPTED", "enc.pem"));
    d.feed(at(3, "DEK-Info: AES-128-CBC,0123456789ABCDEF", "enc.pem"));
    d.feed(at(4, "", "enc.pem"));
    d.feed(at(5, b64(), "enc.pem"));
    // a service-account JSON line
    d.feed(at(7, `"private_key": "${armour("")}\n${b64()}${b64()}\n-----END PRIVATE KEY-----\n",`, "sa.json"));
    // only the armour: code or documentation
    d.feed(at(1, `if (pem.startsWith("${armour("")}")) {`, "parse.ts"));
    d.feed(at(2, "  return parse(pem);", "parse.ts"));
    // armour, then base64 only after a gap in the added lines (another hunk): not a block
    d.feed(at(10, armour("EC "), "gap.txt"));
    d.feed(at(20, b64(), "gap.txt"));
    expect((await d.findings()).map((f) => `${f.path}:${f.line}`)).toEqual(["f.txt:3", "enc.pem:1", "sa.json:7"]);
  });
});
