/** Real git repositories for the merge engine tests: a work clone to build history, a bare copy to merge in. */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync, mkdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

let clock = 1_700_000_000;

/** Runs git in `cwd` with a fixed identity; `who` sets author and committer name; dates advance one minute per call. */
export function git(cwd: string, args: string[], who = "Alice", input?: string | Buffer): string {
  clock += 60;
  const email = `${who.toLowerCase()}@example.com`;
  return execFileSync("git", args, {
    cwd,
    input,
    env: {
      PATH: process.env.PATH,
      HOME: cwd,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_AUTHOR_NAME: who,
      GIT_AUTHOR_EMAIL: email,
      GIT_COMMITTER_NAME: who,
      GIT_COMMITTER_EMAIL: email,
      GIT_AUTHOR_DATE: `${clock} +0000`,
      GIT_COMMITTER_DATE: `${clock} +0000`,
      LANG: "C",
      LC_ALL: "C",
    } as unknown as NodeJS.ProcessEnv,
    maxBuffer: 256 * 1024 * 1024,
  }).toString("utf8");
}

export function tmpDir(prefix = "merge-"): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A new non-bare repository on branch main with one commit of `files`. */
export function initWork(files: Record<string, string | Buffer>): string {
  const dir = tmpDir("merge-work-");
  git(dir, ["init", "-q", "-b", "main"]);
  commitFiles(dir, files, "initial");
  return dir;
}

/** Writes `files` (null deletes) and commits them with `message` as `who`. Returns the new sha. */
export function commitFiles(dir: string, files: Record<string, string | Buffer | null>, message: string, who = "Alice"): string {
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(dir, name);
    if (content === null) rmSync(file, { force: true });
    else {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, content);
    }
  }
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-q", "--allow-empty", "-m", message], who);
  return rev(dir, "HEAD");
}

export function rev(dir: string, what: string): string {
  return git(dir, ["rev-parse", what]).trim();
}

/** A bare copy of `work` with all its branches. */
export function bareCopy(work: string): string {
  const bare = path.join(tmpDir("merge-bare-"), "repo.git");
  git(work, ["clone", "-q", "--bare", "--no-local", work, bare]);
  git(bare, ["symbolic-ref", "HEAD", "refs/heads/main"]);
  return bare;
}

/** A non-bare clone of `bare` with local branches `branches` tracking it. */
export function cloneOf(bare: string, branches: string[]): string {
  const dir = path.join(tmpDir("merge-clone-"), "c");
  git(bare, ["clone", "-q", "--no-local", "-b", "main", bare, dir]);
  for (const b of branches) if (b !== "main") git(dir, ["branch", "-q", "--track", b, `origin/${b}`]);
  return dir;
}

/** All refs of `gitDir` as "sha ref" lines (for "nothing changed" checks). */
export function refsOf(gitDir: string): string {
  return git(gitDir, ["for-each-ref", "--format=%(objectname) %(refname)"]);
}
