/**
 * repos router (not in the spec; GitHub/Gitea-like). Repository ids are the UUIDs every spec
 * procedure takes as repoId. Reads of code take `ref` (branch, tag or sha; default branch when
 * absent) and answer NOT_FOUND for unknown refs and paths.
 */
import { z } from "zod";
import { line, text } from "@/server/validation/strings";
import { objectId } from "@/server/validation/ids";
import { router, publicProcedure, authedProcedure, repoProcedure, repoByNameProcedure, repoIdSchema } from "../trpc";
import { listAssignees, listCollaborators, removeCollaborator, setCollaborator } from "@/server/services/repos/collaborators";
import { createRepoInput, createRepository } from "@/server/services/repos/create-repository";
import { deleteRepository } from "@/server/services/repos/delete-repository";
import { listRepositories } from "@/server/services/repos/list-repositories";
import { sshCloneUrl, toRepoView } from "@/server/services/repos/repo-view";
import { resolveRef } from "@/server/services/repos/resolve-ref";
import { updateRepository } from "@/server/services/repos/update-repository";
import { transferInput, transferRepository } from "@/server/services/repos/transfer-repository";
import { findRedirect } from "@/server/services/repos/redirects";
import { ROLES, authorizeRepo } from "@/server/services/repos/access";
import { forkInfo, forkInput, forkNetwork, forkRepository } from "@/server/services/repos/fork";
import { lfsUsage } from "@/server/services/lfs/quota";
import * as git from "@/server/git/repository";
import { AppError } from "@/server/errors";
import { listPaths, listTags } from "@/server/git/listing";
import { readBlobLines } from "@/server/git/blob-lines";
import { commitCount } from "@/server/services/diff/count-commits";
import { compare, compareAcross } from "@/server/services/diff/compare-refs";
import { diffFilterInput } from "@/server/services/diff/filter";
import { commitWithDiff } from "@/server/services/diff/get-commit-diff";
import { commitDiffPage } from "@/server/services/diff/get-commit-diff-page";
import { compareDiffPage } from "@/server/services/diff/compare-diff-page";
import { diffPageInput } from "@/server/services/diff/page";
import { watchInput, watchLevel, watchRepo } from "@/server/services/notifications/watch-repo";
import { withLfsContent } from "@/server/services/lfs/resolve-lfs-blob";

const refInput = line("ref").min(1).max(255).optional();
const pathInput = text("path").max(4096).optional();

import { deployKeysRouter } from "./ssh-keys";

export const reposRouter = router({
  /** Deploy keys (docs/ssh.md "Deploy keys"): repository admins. */
  deployKeys: deployKeysRouter,
  /** {name, description?, isPrivate?, defaultBranch? ("main")} → repository. CONFLICT if the name is taken. */
  create: authedProcedure
    .input(createRepoInput)
    .mutation(async ({ ctx, input }) => toRepoView(await createRepository(ctx.db, ctx.actor, input), ctx.publicUrl)),

  /** {owner?, member? (only those the caller owns or collaborates on), limit? (1–100, 30), offset?} → repositories visible to the caller. */
  list: publicProcedure
    .input(
      z
        .object({
          owner: line("owner").max(100).optional(),
          member: z.boolean({ error: "member must be a boolean" }).optional(),
          limit: z.number().int().min(1).max(100).default(30),
          offset: z.number().int().min(0).default(0),
        })
        .default({ limit: 30, offset: 0 }),
    )
    .query(async ({ ctx, input }) => (await listRepositories(ctx.db, ctx.actor, input)).map((r) => toRepoView(r, ctx.publicUrl))),

  /** {owner, name} → repository plus sshCloneUrl (null unless SSH is on; docs/ssh.md), watchLevel (the caller's; null signed out), isEmpty (no commits yet), parent {id, owner, name} | null (a fork's, when readable) and forkCount. */
  get: repoByNameProcedure.query(async ({ ctx }) => ({
    ...toRepoView(ctx.repo, ctx.publicUrl),
    sshCloneUrl: sshCloneUrl(ctx.repo.owner, ctx.repo.name, ctx.publicUrl),
    isEmpty: await git.isEmptyRepository(ctx.repo.gitDir),
    ...(await forkInfo(ctx.db, ctx.actor, ctx.repo.id)),
    watchLevel: await watchLevel(ctx.db, ctx.actor, ctx.repo.id),
  })),

  /** {repoId, level: participating|all|ignore} → {level}: the caller's watch level (docs/notifications.md "Watch levels"). */
  watch: repoProcedure.input(watchInput).mutation(({ ctx, input }) => watchRepo(ctx.db, ctx.actor, ctx.repo.id, input.level)),

  /** {repoId, name?} → the caller's new fork (read access to the parent, repo:write scope; docs/pulls.md "Forks"). */
  fork: authedProcedure
    .input(forkInput)
    .mutation(async ({ ctx, input }) => toRepoView(await forkRepository(ctx.db, ctx.actor, input), ctx.publicUrl)),

  /** {repoId, description?, isPrivate?, defaultBranch?} → repository (admin). */
  update: repoProcedure
    .input(
      z.object({
        description: line("description").max(350).nullable().optional(),
        isPrivate: z.boolean().optional(),
        defaultBranch: line("defaultBranch").min(1).max(255).optional(),
      }),
    )
    .mutation(async ({ ctx, input }) => toRepoView(await updateRepository(ctx.db, ctx.actor, ctx.repo, input), ctx.publicUrl)),

  /** {repoId} → {id}; removes the repository and its git data (admin). */
  delete: repoProcedure.mutation(async ({ ctx }) => {
    await deleteRepository(ctx.db, ctx.repo);
    return { id: ctx.repo.id };
  }),

  /**
   * {repoId, newOwner} → {id, owner, name}: transfers the repository to the caller or an
   * organization where they may create repositories (admin; docs/orgs.md "Transferring a repository").
   */
  transfer: repoProcedure.input(transferInput).mutation(({ ctx, input }) => transferRepository(ctx.db, ctx.actor!, ctx.repo, input)),

  /**
   * {owner, name} → {owner, name} | null: where a repository transferred away from `owner/name`
   * lives now, when the caller can read it there (lookups by owner/name answer NOT_FOUND for a
   * former path; pages use this to redirect).
   */
  redirect: publicProcedure
    .input(z.object({ owner: line("owner").min(1).max(100), name: line("name").min(1).max(100) }))
    .query(({ ctx, input }) => findRedirect(ctx.db, ctx.actor, input.owner, input.name)),

  /** {repoId} → {usedBytes, quotaBytes}: Git LFS storage the repository references and its quota, in bytes (read; docs/lfs.md "Quota"). */
  lfsUsage: repoProcedure.query(({ ctx }) => lfsUsage(ctx.db, ctx.repo.id)),

  /** {repoId} → [{name, sha, updatedAt, isDefault}] */
  branches: repoProcedure.query(async ({ ctx }) =>
    (await git.listBranches(ctx.repo.gitDir)).map((b) => ({ ...b, isDefault: b.name === ctx.repo.defaultBranch })),
  ),

  /** {repoId, ref?, path? ("" = root)} → {ref, sha, path, entries: [{name, path, type, mode, sha, size}]} */
  tree: repoProcedure.input(z.object({ ref: refInput, path: pathInput })).query(async ({ ctx, input }) => {
    const { ref, sha } = await resolveRef(ctx.repo, input.ref);
    return { ref, sha, path: input.path ?? "", entries: await git.readTree(ctx.repo.gitDir, sha, input.path ?? "") };
  }),

  /**
   * {repoId, ref?, path} → {ref, sha (commit), path, blobSha, size (bytes), isBinary, truncated, text,
   * lfs: {oid, size, stored} | null}: a Git LFS pointer the repository serves comes as its object's
   * content and size (docs/lfs.md "In the browser").
   */
  blob: repoProcedure.input(z.object({ ref: refInput, path: text("path").min(1).max(4096) })).query(async ({ ctx, input }) => {
    const { ref, sha } = await resolveRef(ctx.repo, input.ref);
    const blob = await withLfsContent(ctx.db, ctx.repo.id, await git.readBlob(ctx.repo.gitDir, sha, input.path));
    return {
      ref,
      sha,
      path: blob.path,
      blobSha: blob.sha,
      size: blob.size,
      isBinary: blob.isBinary,
      truncated: blob.truncated,
      text: blob.text,
      lfs: blob.lfs,
    };
  }),

  /**
   * {repoId, sha (blob id), startLine, endLine} → {lines, totalLines}: lines startLine..endLine
   * (1-based, inclusive, at most 1,000: server/git/blob-lines.ts) of a text blob of the repository, for the diff
   * viewer's expand rows (docs/pulls.md "Viewer"). BAD_REQUEST: range, binary, over 8 MiB; NOT_FOUND: no such blob.
   */
  blobLines: repoProcedure
    .input(
      z.object({
        sha: objectId("sha", "a full blob id"),
        startLine: z.number().int().min(1),
        endLine: z.number().int().min(1),
      }),
    )
    .query(({ ctx, input }) => readBlobLines(ctx.repo.gitDir, input.sha, input.startLine, input.endLine)),

  /**
   * {repoId, ref?} → {ref, sha, paths: string[], truncated}: every file path at the ref (the file
   * finder, docs/ui.md "Code view"), capped at 50,000 paths / 8 MiB of git output (`truncated` then
   * true).
   */
  files: repoProcedure.input(z.object({ ref: refInput })).query(async ({ ctx, input }) => {
    const { ref, sha } = await resolveRef(ctx.repo, input.ref);
    return { ref, sha, ...(await listPaths(ctx.repo.gitDir, sha)) };
  }),

  /** {repoId, limit? (1–500, 100)} → {tags: [{name, sha (commit), date}], truncated}: newest first (the branch switcher's Tags tab). */
  tags: repoProcedure
    .input(z.object({ limit: z.number().int().min(1).max(500).default(100) }))
    .query(async ({ ctx, input }) => listTags(ctx.repo.gitDir, input.limit)),

  /**
   * {repoId, ref?, path?, limit? (1–100, 30), offset?, after? (commit sha)} → commits newest first.
   * `after` is the cursor of the history pages (cost independent of the page number): the
   * commits that follow commit `after` in `git log after` (its ancestors, in git's order; `ref`
   * is then ignored). On a linear history that is exactly the next page of `ref`; `offset` is
   * kept for compatibility (git --skip, O(offset)).
   */
  commits: repoProcedure
    .input(
      z.object({
        ref: refInput,
        path: pathInput,
        limit: z.number().int().min(1).max(100).default(30),
        offset: z.number().int().min(0).default(0),
        after: objectId("after").optional(),
      }),
    )
    .query(async ({ ctx, input }) => {
      if (input.after) {
        const after = await git.resolveCommit(ctx.repo.gitDir, input.after);
        if (!after) throw new AppError("NOT_FOUND", `commit "${input.after}" not found`);
        return git.listCommits(ctx.repo.gitDir, after, { path: input.path, limit: input.limit, skip: input.offset + 1 });
      }
      const { sha } = await resolveRef(ctx.repo, input.ref);
      return git.listCommits(ctx.repo.gitDir, sha, { path: input.path, limit: input.limit, skip: input.offset });
    }),

  /**
   * {repoId, sha, path?, paths?} → {sha, parents, message, author, authorEmail, date, committer,
   * committedAt, diff}: the commit and its diff against its first parent (empty tree for a root
   * commit). Diff shape and limits: docs/pulls.md "Diff". NOT_FOUND for an unknown commit.
   */
  commit: repoProcedure
    .input(z.object({ sha: line("sha").min(1).max(255), ...diffFilterInput }))
    .query(({ ctx, input }) => commitWithDiff(ctx.db, ctx.repo, input.sha, input)),

  /**
   * {repoId, base, head, path?, paths?} → {baseSha, headSha, mergeBaseSha, aheadBy, behindBy,
   * commits (oldest first, ≤ 250), totalCommits, diff (three-dot: merge base → head)}.
   * `headRepoId`: the head branch is in that repository of the fork network (fork, parent or
   * sibling fork; compareAcross). NOT_FOUND for unknown refs or an unreadable head repository;
   * BAD_REQUEST when the histories are unrelated or the head repository is outside the network.
   */
  compare: repoProcedure
    .input(
      z.object({
        base: line("base").min(1).max(255),
        head: line("head").min(1).max(255),
        headRepoId: repoIdSchema.optional(),
        ...diffFilterInput,
      }),
    )
    .query(async ({ ctx, input }) => {
      if (!input.headRepoId || input.headRepoId === ctx.repo.id) return compare(ctx.db, ctx.repo, input.base, input.head, input);
      // the head repository needs read access of its own (NOT_FOUND otherwise)
      const headRepo = await authorizeRepo(ctx.db, ctx.actor, { repoId: input.headRepoId }, "read");
      return compareAcross(ctx.db, ctx.repo, input.base, headRepo, input.head, input);
    }),

  /**
   * {repoId, sha, cursor?, limit?, maxLines?} → {files: [{index, oldPath, newPath, hunks, fromHunk?,
   * continues?, truncated}], nextCursor, sha}: a page of the commit's hunks, indices into
   * `repos.commit`'s `diff.files` (docs/pulls.md "File list and hunk pages").
   */
  commitDiffPage: repoProcedure
    .input(z.object({ sha: line("sha").min(1).max(255), ...diffPageInput }))
    .query(({ ctx, input }) => commitDiffPage(ctx.db, ctx.repo, input.sha, input)),

  /**
   * {repoId, base, head, headRepoId?, cursor?, limit?, maxLines?} → {files, nextCursor, baseSha,
   * headSha, mergeBaseSha}: a page of the comparison's hunks, indices into `repos.compare`'s
   * `diff.files` (docs/pulls.md "File list and hunk pages").
   */
  compareDiffPage: repoProcedure
    .input(
      z.object({
        base: line("base").min(1).max(255),
        head: line("head").min(1).max(255),
        headRepoId: repoIdSchema.optional(),
        ...diffPageInput,
      }),
    )
    .query(async ({ ctx, input }) => {
      const headRepo =
        !input.headRepoId || input.headRepoId === ctx.repo.id
          ? ctx.repo
          : await authorizeRepo(ctx.db, ctx.actor, { repoId: input.headRepoId }, "read");
      return compareDiffPage(ctx.db, ctx.repo, input.base, headRepo, input.head, input);
    }),

  /** {repoId} → [{id, owner, name, isParent}]: the repository's parent, forks and sibling forks the caller can read (the compare page's head repositories), at most 50. */
  network: repoProcedure.query(({ ctx }) => forkNetwork(ctx.db, ctx.actor, ctx.repo)),

  /** {repoId, ref?} → {ref, sha, count}: commits reachable from the ref (git rev-list --count). */
  commitCount: repoProcedure.input(z.object({ ref: refInput })).query(({ ctx, input }) => commitCount(ctx.repo, input.ref)),

  /** {repoId} → [{id, username, name}]: the owner and collaborators, who can be assigned issues (read). */
  assignees: repoProcedure.query(({ ctx }) => listAssignees(ctx.db, ctx.repo)),

  /** {repoId} → [{userId, username, name, role, createdAt}] (admin). */
  collaborators: repoProcedure.query(({ ctx }) => listCollaborators(ctx.db, ctx.repo)),

  /** {repoId, username, role (read|write|admin)} → collaborator; changes the role if present. */
  addCollaborator: repoProcedure
    .input(z.object({ username: line("username").min(1).max(39), role: z.enum(ROLES as [string, ...string[]]) }))
    .mutation(({ ctx, input }) => setCollaborator(ctx.db, ctx.repo, input.username, input.role as (typeof ROLES)[number])),

  /** {repoId, username} → {removed: true}. NOT_FOUND when not a collaborator. */
  removeCollaborator: repoProcedure.input(z.object({ username: line("username").min(1).max(39) })).mutation(async ({ ctx, input }) => {
    await removeCollaborator(ctx.db, ctx.repo, input.username);
    return { removed: true };
  }),
});
