/**
 * Fixtures for the pull request tests: a svc server with git smart HTTP, users with tokens, and
 * local work trees that push to it with the real git CLI (so recordBranchUpdates runs as in production).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { handleGitHttp } from "@/server/http/git/smart-http";
import type { Profile } from "@/server/services/users/profile";
import { gitClient } from "../fixtures/clients";
import { actorOf, callerFor, makeToken, makeUser, startServer } from "../helpers";

export type Caller = Awaited<ReturnType<typeof callerFor>>;

const tmpRoot = mkdtempSync(path.join(os.tmpdir(), "svc-pulls-"));
const home = path.join(tmpRoot, "home");
mkdirSync(home, { recursive: true });
let dirs = 0;

/** Runs git in `cwd`; throws with stderr on failure; returns trimmed stdout. */
export async function git(cwd: string, ...args: string[]): Promise<string> {
  const r = await gitClient(["-c", "credential.helper=", ...args], { cwd, home, input: "" });
  if (r.code !== 0) throw new Error(`git ${args.join(" ")} failed (${r.code}): ${r.stderr}`);
  return r.stdout.trim();
}

export interface Server {
  url: string;
  close: () => Promise<void>;
}

/** A svc HTTP server serving tRPC and git smart HTTP. */
export function startGitServer(): Promise<Server> {
  return startServer({ git: (req, o, r, rest) => handleGitHttp(req, o, r, rest) });
}

export interface Member {
  user: Profile;
  token: string;
  as: Caller;
}

/** A user with a repo:read+write token and a session caller. */
export async function member(prefix: string): Promise<Member> {
  const user = await makeUser(prefix);
  return { user, token: await makeToken(user, ["repo:read", "repo:write"]), as: await callerFor(actorOf(user)) };
}

/** A local work tree whose `origin` is owner/name on `server`, authenticated as `who`. */
export class WorkTree {
  constructor(readonly dir: string) {}

  /** Writes `file` and commits it; returns the new commit sha. */
  async commit(file: string, content: string, message = `edit ${file}`): Promise<string> {
    mkdirSync(path.dirname(path.join(this.dir, file)), { recursive: true });
    writeFileSync(path.join(this.dir, file), content);
    await git(this.dir, "add", "-A");
    await git(this.dir, "commit", "--quiet", "-m", message);
    return this.sha("HEAD");
  }

  sha(rev: string): Promise<string> {
    return git(this.dir, "rev-parse", rev);
  }

  run(...args: string[]): Promise<string> {
    return git(this.dir, ...args);
  }

  /** `git push origin <refspecs>` (add "--force" etc. as refspecs). */
  push(...refspecs: string[]): Promise<string> {
    return git(this.dir, "push", "--quiet", "origin", ...refspecs);
  }
}

/** The clone URL of owner/name with `token` as the password. */
export function remoteOf(server: Server, token: string, owner: string, name: string): string {
  const u = new URL(server.url);
  return `http://git:${token}@${u.host}/${owner}/${name}.git`;
}

/** A new work tree with one commit (README.md) on main, origin = `remote`, main pushed. */
export async function seededWorkTree(remote: string): Promise<WorkTree> {
  dirs += 1;
  const dir = path.join(tmpRoot, `wt-${dirs}`);
  await git(tmpRoot, "init", "--quiet", "--initial-branch=main", dir);
  const wt = new WorkTree(dir);
  await wt.run("remote", "add", "origin", remote);
  await wt.commit("README.md", "# hello\n", "first");
  await wt.push("main");
  return wt;
}

/** A clone of `remote` in a new directory. */
export async function cloneOf(remote: string): Promise<WorkTree> {
  dirs += 1;
  const dir = path.join(tmpRoot, `clone-${dirs}`);
  await git(tmpRoot, "clone", "--quiet", remote, dir);
  return new WorkTree(dir);
}

export interface Team {
  server: Server;
  owner: Member;
  writer: Member;
  reader: Member;
  reader2: Member;
  stranger: Member;
  repo: { id: string; name: string };
  /** owner's work tree of `repo` (README.md on main, pushed). */
  wt: WorkTree;
}

/**
 * A git server, five members named `<prefix>own`, `…wri`, `…rea`, `…reb`, `…str`, and a private
 * repository of the owner with the writer (write) and both readers (read) as collaborators; the
 * stranger cannot see it. Close `server` after the tests.
 */
export async function team(prefix: string): Promise<Team> {
  const server = await startGitServer();
  const [owner, writer, reader, reader2, stranger] = await Promise.all(["own", "wri", "rea", "reb", "str"].map((r) => member(prefix + r)));
  const repo = await owner.as.repos.create({ name: `${prefix}${Math.random().toString(36).slice(2, 8)}`, isPrivate: true });
  for (const [m, role] of [
    [writer, "write"],
    [reader, "read"],
    [reader2, "read"],
  ] as const)
    await owner.as.repos.addCollaborator({ repoId: repo.id, username: m.user.username, role });
  const wt = await seededWorkTree(remoteOf(server, owner.token, owner.user.username, repo.name));
  return { server, owner, writer, reader, reader2, stranger, repo, wt };
}

/** codeOf / messageOf: the outcome of a call, shared with the issue tests. */
export { codeOf, messageOf } from "./issues-fixtures";
