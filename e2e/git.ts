/** The real `git` CLI for e2e specs: isolated configuration (own HOME, no credential helpers, no prompts). */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

export interface GitAuthor {
  name: string;
  email: string;
}

const ADA: GitAuthor = { name: "Ada Lovelace", email: "ada@example.com" };

/** Runs git in `cwd` with HOME = `home`; never throws. `out` is stdout then stderr. */
export function runGit(home: string, cwd: string, args: string[], author: GitAuthor = ADA): { code: number; out: string; stdout: string } {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    LANG: "C",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: path.join(home, ".gitconfig"),
    GIT_TERMINAL_PROMPT: "0",
    GIT_ASKPASS: "",
    SSH_ASKPASS: "",
    GIT_AUTHOR_NAME: author.name,
    GIT_AUTHOR_EMAIL: author.email,
    GIT_COMMITTER_NAME: author.name,
    GIT_COMMITTER_EMAIL: author.email,
  };
  for (const k of ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY"]) delete env[k];
  const r = spawnSync("git", ["-c", "credential.helper=", "-c", "init.defaultBranch=main", ...args], {
    cwd,
    encoding: "utf8",
    timeout: 60_000,
    env,
  });
  return { code: r.status ?? -1, out: `${r.stdout ?? ""}${r.stderr ?? ""}`, stdout: r.stdout ?? "" };
}

/** runGit that throws with git's output on a non-zero exit; returns stdout. */
export function mustRunGit(home: string, cwd: string, args: string[], author?: GitAuthor): string {
  const r = runGit(home, cwd, args, author);
  if (r.code !== 0) throw new Error(`git ${args.join(" ")} failed (${r.code}):\n${r.out}`);
  return r.stdout;
}

/** Writes `content` to root/file, creating folders. */
export function writeFile(root: string, file: string, content: string): void {
  const p = path.join(root, file);
  mkdirSync(path.dirname(p), { recursive: true });
  writeFileSync(p, content);
}
