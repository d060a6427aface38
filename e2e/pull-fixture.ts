/**
 * The preamble most pull request specs share: a repository pushed with the real `git` CLI over
 * HTTP (a token of the owner's), a topic branch with changes, and a pull request opened over tRPC.
 * One place for it, so specs say only what their repository holds.
 */
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { mustRunGit, writeFile } from "./git";
import type { E2EUser } from "./session";

/** A local working copy whose `origin` is an svc repository (credentials in the URL). */
export interface LocalClone {
  dir: string;
  /** The svc repository's URL with the owner's token in it. */
  remote: string;
  /** Runs git in the working copy (throws with git's output on failure); returns stdout. */
  git(...args: string[]): string;
  /** Writes the files (path → content), commits them all with `message`; returns the new sha. */
  commit(files: Record<string, string>, message: string): string;
  /** Pushes a local branch to the svc repository (same name). */
  push(branch: string): void;
  /** The sha of a local ref. */
  sha(ref: string): string;
}

/**
 * Makes a working copy of `owner/name` (the repository must exist, empty), commits `files` on
 * `main` as "Initial commit" and pushes it.
 */
export async function pushInitial(owner: E2EUser, name: string, files: Record<string, string>): Promise<LocalClone> {
  const token = await owner.token();
  const home = mkdtempSync(path.join(os.tmpdir(), `svc-e2e-${name}-home-`));
  const dir = mkdtempSync(path.join(os.tmpdir(), `svc-e2e-${name}-repo-`));
  const remote = owner.remote(owner.username, name, token);
  const git = (...args: string[]) => mustRunGit(home, dir, args);
  const clone: LocalClone = {
    dir,
    remote,
    git,
    commit(changed, message) {
      for (const [file, content] of Object.entries(changed)) writeFile(dir, file, content);
      git("add", "-A");
      git("commit", "--quiet", "-m", message);
      return git("rev-parse", "HEAD").trim();
    },
    push(branch) {
      git("push", "--quiet", remote, branch);
    },
    sha(ref) {
      return git("rev-parse", ref).trim();
    },
  };
  git("init", "--quiet");
  clone.commit(files, "Initial commit");
  clone.push("main");
  return clone;
}

export interface OpenedPull {
  clone: LocalClone;
  /** The pull request as pulls.create answered (id, number, …). */
  pr: { id: string; number: number } & Record<string, unknown>;
  headSha: string;
  /** `/<owner>/<name>/pulls/<number>` */
  url: string;
}

/**
 * Pushes `base` on main and `changes` on `branch` (one commit, `message`, default the title) to
 * the existing empty repository `owner/name`, then opens a pull request `branch` → main titled
 * `title` as `owner`.
 */
export async function openPullRequest(
  owner: E2EUser,
  opts: {
    repoId: string;
    name: string;
    base: Record<string, string>;
    branch: string;
    changes: Record<string, string>;
    title: string;
    message?: string;
    body?: string;
  },
): Promise<OpenedPull> {
  const clone = await pushInitial(owner, opts.name, opts.base);
  clone.git("checkout", "--quiet", "-b", opts.branch);
  const headSha = clone.commit(opts.changes, opts.message ?? opts.title);
  clone.push(opts.branch);
  const pr = (await owner.trpc("pulls.create", {
    repoId: opts.repoId,
    title: opts.title,
    ...(opts.body ? { body: opts.body } : {}),
    sourceBranch: opts.branch,
    targetBranch: "main",
    headSha,
    baseSha: clone.sha("main"),
  })) as OpenedPull["pr"];
  return { clone, pr, headSha, url: `/${owner.username}/${opts.name}/pulls/${pr.number}` };
}
