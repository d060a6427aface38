/**
 * The `push`, `create` and `delete` webhook events of ref updates (GitHub's shapes; docs/api.md
 * "Webhooks"), emitted by recordBranchUpdates (services/repos/update-branch.ts), the one place
 * every ref update's bookkeeping happens — `git push` and svc's own commits alike.
 */
import type { Db } from "@/server/db";
import type { RefUpdate } from "@/server/git/push-commands";
import { isAncestor, listRangeCommits } from "@/server/git/commits";
import { resolveCommit } from "@/server/git/repository";
import { getConfig } from "@/server/config";
import { isZeroSha } from "@/lib/sha";
import { enqueue } from "@/server/jobs";
import { WEBHOOK_PUSH_EVENTS, type PayloadOf } from "@/server/jobs/names";
import { repoGitDir } from "@/server/git/paths";
import { emitWebhookEvent, type Sender } from "./emit-event";

/** Commits listed in one push payload (GitHub lists at most 20; `size` says how many there were). */
export const MAX_PUSH_COMMITS = 20;

const commitUrl = (repoUrl: string, sha: string) => `${repoUrl}/commit/${sha}`;

/** The push payload's commit list for `u` (oldest first), `size` and `forced`. A deleted ref has none. */
async function pushCommits(gitDir: string, u: RefUpdate, defaultBranch: string, repoUrl: string) {
  if (isZeroSha(u.newSha)) return { commits: [], size: 0, forced: false };
  let base = isZeroSha(u.oldSha) ? null : u.oldSha;
  const forced = base !== null && !(await isAncestor(gitDir, base, u.newSha));
  if (base === null) {
    // a new ref: the commits the default branch does not have (none when it is the default branch's first push)
    const tip = await resolveCommit(gitDir, `refs/heads/${defaultBranch}`);
    base = tip && tip !== u.newSha ? tip : null;
  }
  const { commits, totalCommits } = base
    ? await listRangeCommits(gitDir, base, u.newSha, MAX_PUSH_COMMITS, { maxMessageChars: 65_536 })
    : { commits: [], totalCommits: 0 };
  const shaped = commits.map((c) => ({
    id: c.sha,
    message: c.message,
    timestamp: c.date,
    url: commitUrl(repoUrl, c.sha),
    author: { name: c.author, email: c.authorEmail },
    committer: { name: c.author, email: c.authorEmail },
    distinct: true,
  }));
  return { commits: shaped, size: totalCommits, forced };
}

/**
 * Emits, for each of `updates` of repository `repo` (refs/heads/* and refs/tags/*): `create`
 * (a ref that did not exist), `delete` (a ref removed), and `push` for every update (GitHub sends
 * one for creations and deletions too) with `ref, before, after, created, deleted, forced,
 * base_ref: null, compare, commits (≤ MAX_PUSH_COMMITS, oldest first), head_commit, pusher`.
 * Git is read only when a hook subscribes. Errors: database and git errors propagate (the caller logs them).
 */
export async function emitPushEvents(db: Db, sender: Sender, repo: { id: string; gitDir: string }, updates: RefUpdate[]): Promise<void> {
  for (const u of updates) {
    const m = /^refs\/(heads|tags)\/(.+)$/.exec(u.ref);
    if (!m) continue;
    const refType = m[1] === "heads" ? "branch" : "tag";
    const name = m[2]!;
    const created = isZeroSha(u.oldSha);
    const deleted = isZeroSha(u.newSha);
    if (created)
      await emitWebhookEvent(db, repo, "create", null, sender, { ref: name, ref_type: refType, master_branch: null, pusher_type: "user" });
    if (deleted) await emitWebhookEvent(db, repo, "delete", null, sender, { ref: name, ref_type: refType, pusher_type: "user" });
    await emitWebhookEvent(db, repo, "push", null, sender, async () => {
      const r = await db.repository.findUniqueOrThrow({
        where: { id: repo.id },
        select: { name: true, defaultBranch: true, owner: { select: { username: true } } },
      });
      const repoUrl = `${getConfig().publicUrl}/${r.owner.username}/${r.name}`;
      const { commits, size, forced } = await pushCommits(repo.gitDir, u, r.defaultBranch, repoUrl);
      const head = deleted ? null : (commits.at(-1) ?? { id: u.newSha, url: commitUrl(repoUrl, u.newSha) });
      return {
        ref: u.ref,
        before: u.oldSha,
        after: u.newSha,
        created,
        deleted,
        forced,
        base_ref: null,
        compare: `${repoUrl}/compare/${created ? "" : `${u.oldSha.slice(0, 12)}...`}${deleted ? u.oldSha.slice(0, 12) : u.newSha.slice(0, 12)}`,
        commits,
        size,
        head_commit: head,
        pusher: sender ? { name: sender.username, email: null } : null,
      };
    });
  }
}

/**
 * What a ref update pays for webhooks (recordBranchUpdates, and a merge's own moves): one indexed
 * query, and when the repository has an active hook one `webhooks.pushEvents` job that emits the
 * events (runPushEvents) — the commit lists are read from git there, never on the push's path.
 * Errors: database errors (the caller logs them).
 */
export async function queuePushEvents(db: Db, sender: Sender, repo: { id: string }, updates: RefUpdate[]): Promise<void> {
  const refs = updates.filter((u) => /^refs\/(heads|tags)\//.test(u.ref));
  if (refs.length === 0) return;
  if (!(await db.webhook.findFirst({ where: { repoId: repo.id, active: true }, select: { id: true } }))) return;
  await enqueue(WEBHOOK_PUSH_EVENTS, {
    repoId: repo.id,
    senderId: sender?.id ?? null,
    updates: refs.map((u) => ({ ref: u.ref, oldSha: u.oldSha, newSha: u.newSha })),
  });
}

/** The `webhooks.pushEvents` job: emitPushEvents for the queued updates (a deleted repository: nothing). */
export async function runPushEvents(db: Db, p: PayloadOf<typeof WEBHOOK_PUSH_EVENTS>): Promise<void> {
  const repo = await db.repository.findUnique({
    where: { id: p.repoId },
    select: { id: true, name: true, owner: { select: { username: true } } },
  });
  if (!repo) return;
  await emitPushEvents(
    db,
    p.senderId ? { id: p.senderId } : null,
    { id: repo.id, gitDir: repoGitDir(repo.owner.username, repo.name) },
    p.updates,
  );
}
