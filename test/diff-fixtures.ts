/** Real working repositories in temp dirs for the diff tests (docs/pulls.md "Diff"): write files, commit, read `git diff`. */
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gitEnv } from "@/server/git/exec";
import type { Diff } from "@/server/git/diff";

export interface WorkRepo {
  dir: string;
  gitDir: string;
  git(...args: string[]): string;
  gitBuf(...args: string[]): Buffer;
  write(file: string, content: string | Buffer, mode?: number): void;
  remove(file: string): void;
  commit(message: string): string;
  cleanup(): void;
}

/** A new non-bare repository (branch main) with a fixed identity and dates. */
export function workRepo(): WorkRepo {
  const dir = mkdtempSync(path.join(os.tmpdir(), "svc-diff-"));
  let tick = 0;
  const env = () =>
    gitEnv({
      GIT_AUTHOR_DATE: `2024-01-01T00:00:${String(tick).padStart(2, "0")}Z`,
      GIT_COMMITTER_DATE: `2024-01-01T00:00:${String(tick).padStart(2, "0")}Z`,
    });
  const gitBuf = (...args: string[]) => execFileSync("git", args, { cwd: dir, env: env(), maxBuffer: 1 << 30 });
  const git = (...args: string[]) => gitBuf(...args).toString("utf8");
  git("init", "-q", "--initial-branch=main");
  return {
    dir,
    gitDir: path.join(dir, ".git"),
    git,
    gitBuf,
    write(file, content, mode) {
      const p = path.join(dir, file);
      mkdirSync(path.dirname(p), { recursive: true });
      writeFileSync(p, content);
      if (mode !== undefined) chmodSync(p, mode);
    },
    remove(file) {
      rmSync(path.join(dir, file), { recursive: true, force: true });
    },
    commit(message) {
      tick++;
      git("add", "-A");
      git("commit", "-q", "--allow-empty", "-m", message);
      return git("rev-parse", "HEAD").trim();
    },
    cleanup() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The hunk text of a parsed diff, as git prints it: "@@ … @@ header", marked lines, "\ No newline at end of file". */
export function renderHunks(diff: Diff): string {
  let out = "";
  for (const f of diff.files)
    for (const h of f.hunks) {
      const range = (start: number, lines: number) => (lines === 1 ? `${start}` : `${start},${lines}`);
      out += `@@ -${range(h.oldStart, h.oldLines)} +${range(h.newStart, h.newLines)} @@${h.header ? ` ${h.header}` : ""}\n`;
      for (const l of h.lines) {
        out += `${l.type === "add" ? "+" : l.type === "delete" ? "-" : " "}${l.content}\n`;
        if (l.noNewlineAtEnd) out += "\\ No newline at end of file\n";
      }
    }
  return out;
}

/** The hunk text of `git diff` output: every line from a file's first "@@" up to the next "diff --git". */
export function hunksOf(patch: string): string {
  let out = "";
  let inHunks = false;
  for (const line of patch.split("\n").slice(0, -1)) {
    if (line.startsWith("diff --git ")) inHunks = false;
    else if (!inHunks && line.startsWith("@@ ")) inHunks = true;
    if (inHunks) out += `${line}\n`;
  }
  return out;
}
