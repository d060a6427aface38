/**
 * Fixtures for the coding-agent tests (docs/agent.md): a repository with real git history pushed
 * into svc's bare repository (owner, a write and a read collaborator, a stranger) and a session of
 * the writer's.
 */
import { getDb } from "@/server/db";
import { repoGitDir } from "@/server/git/paths";
import { issueWorld } from "./issues-fixtures";
import { commitFiles, git, initWork, rev } from "./merge-fixtures";

export const FILES = {
  "README.md": "# Project\n\nHello.\n",
  "src/app.ts": "export const one = 1;\nexport const two = 2;\n",
  "docs/old.md": "obsolete\n",
};

/** The world plus `push(files)`: a commit on main made outside svc (someone else's push). */
export async function agentWorld(opts: { isPrivate?: boolean } = {}) {
  const w = await issueWorld({ isPrivate: opts.isPrivate ?? true });
  const db = await getDb();
  const repo = await db.repository.findUniqueOrThrow({ where: { id: w.repoId }, select: { name: true } });
  const gitDir = repoGitDir(w.owner.username, repo.name);
  const work = initWork(FILES);
  git(work, ["push", "-q", gitDir, "main"]);
  const tip = (b: string) => rev(gitDir, `refs/heads/${b}`);
  /** Commits `files` on `branch` of the work tree and pushes it to svc. */
  const push = (files: Record<string, string | null>, branch = "main") => {
    git(work, ["fetch", "-q", gitDir, `+refs/heads/${branch}:refs/remotes/svc/${branch}`]);
    git(work, ["checkout", "-q", "-B", branch, `refs/remotes/svc/${branch}`]);
    const sha = commitFiles(work, files, `edit on ${branch}`, "Bob");
    git(work, ["push", "-q", gitDir, `${branch}:${branch}`]);
    git(work, ["checkout", "-q", "main"]);
    return sha;
  };
  const session = await w.as.writer.agent.createSession({ repoId: w.repoId, mode: "code", title: "Tidy up" });
  return { ...w, db, gitDir, repoName: repo.name, work, tip, push, session, show: (spec: string) => git(gitDir, ["show", spec]) };
}
export type AgentWorld = Awaited<ReturnType<typeof agentWorld>>;
