/**
 * Fork storage (docs/pulls.md "Forks"): a fork is a bare repository that borrows its
 * parent's objects through git alternates (gitrepository-layout(5) `objects/info/alternates`),
 * made by `git clone --bare --shared` (git-clone(1)): branches and tags are copied as refs, no
 * object is copied. The alternates entry is rewritten relative to the fork's objects directory
 * so DATA_DIR can move. Before a parent goes away, `detachFork` copies everything the fork
 * borrows into it (`git repack -a -d` without `-l` packs objects from alternates too) and then
 * removes the alternates file, so the fork keeps working on its own.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { gitText, runGit, userArg } from "./exec";

/** The alternates file of a bare repository. */
export function alternatesFile(gitDir: string): string {
  return path.join(gitDir, "objects", "info", "alternates");
}

/**
 * Creates bare repository `forkGitDir` sharing objects with `parentGitDir` and holding the
 * parent's branches, tags and HEAD. Errors: a plain Error (server fault) when git fails; the
 * caller removes the half-made folder.
 */
export async function cloneShared(parentGitDir: string, forkGitDir: string): Promise<void> {
  await mkdir(path.dirname(forkGitDir), { recursive: true });
  const r = await runGit(
    ["clone", "--bare", "--shared", "--quiet", "--end-of-options", userArg(parentGitDir, "parent"), userArg(forkGitDir, "fork")],
    { timeoutMs: 300_000 },
  );
  if (r.code !== 0) throw new Error(`git clone --shared failed (${r.code}): ${r.stderr.trim()}`);
  await runGit(["remote", "remove", "origin"], { gitDir: forkGitDir });
  await gitText(["config", "core.logAllRefUpdates", "true"], { gitDir: forkGitDir });
  await gitText(["config", "receive.fsckObjects", "true"], { gitDir: forkGitDir });
  // a relative alternates path (relative to objects/), so moving DATA_DIR keeps the link
  const objects = path.join(forkGitDir, "objects");
  await writeFile(alternatesFile(forkGitDir), `${path.relative(objects, path.join(parentGitDir, "objects"))}\n`);
  await neverPruneForForks(parentGitDir);
}

/**
 * Sets `gc.pruneExpire=never` in a repository that forks borrow objects from: git's own gc there
 * (receive-pack's `gc --auto`, fetch's auto maintenance) cannot see what a fork still reaches
 * through its alternates, so it must never prune (git-gc(1): unreachable objects stay, in cruft
 * packs). Called when a fork is made and by the maintenance job for repositories that have forks
 * (forks made before this rule). Errors: a plain Error when git fails.
 */
export async function neverPruneForForks(gitDir: string): Promise<void> {
  await gitText(["config", "gc.pruneExpire", "never"], { gitDir });
}

/**
 * Makes `forkGitDir` self-contained: `git repack -a -d` (objects borrowed through alternates
 * are packed into the fork), then the alternates file is removed. No-op without alternates.
 * Errors: a plain Error when repack fails (the alternates file is then kept).
 */
export async function detachFork(forkGitDir: string): Promise<void> {
  if (!existsSync(alternatesFile(forkGitDir))) return;
  const r = await runGit(["repack", "-a", "-d", "-q"], { gitDir: forkGitDir, timeoutMs: 0 });
  if (r.code !== 0) throw new Error(`git repack -a -d failed (${r.code}): ${r.stderr.trim()}`);
  await rm(alternatesFile(forkGitDir), { force: true });
}

/** The alternates entries of a bare repository (empty when it borrows nothing). */
export async function readAlternates(gitDir: string): Promise<string[]> {
  try {
    return (await readFile(alternatesFile(gitDir), "utf8")).split("\n").filter(Boolean);
  } catch {
    return [];
  }
}

/**
 * The environment that lets one git process also read the objects of other repositories of a
 * fork network, without writing anything anywhere: `GIT_ALTERNATE_OBJECT_DIRECTORIES` (git(1))
 * with each repository's `objects` folder. Git follows those folders' own alternates too (a fork
 * reaches its parent's objects; gitrepository-layout(5)), so a sibling fork's commits and the
 * parent's become readable from the repository the command runs in. Entries holding the list
 * separator or a double quote are C-quoted, as git reads them (git 2.11.1+). Undefined for none.
 */
export function borrowedObjectsEnv(objectDirs: readonly string[] | undefined): Record<string, string> | undefined {
  if (!objectDirs || objectDirs.length === 0) return undefined;
  const entry = (dir: string) =>
    dir.includes(path.delimiter) || dir.startsWith('"') || /[\\\n]/.test(dir)
      ? `"${dir.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`
      : dir;
  return { GIT_ALTERNATE_OBJECT_DIRECTORIES: objectDirs.map(entry).join(path.delimiter) };
}

/** The object folder of bare repository `gitDir` (what `borrowedObjectsEnv` takes). */
export function objectsDir(gitDir: string): string {
  return path.join(gitDir, "objects");
}

/**
 * Points fork `forkGitDir`'s alternates at `parentGitDir`'s objects (relative, as `cloneShared`
 * writes it), after the parent moved (a transfer). No-op for a fork without alternates (detached).
 */
export async function relinkFork(forkGitDir: string, parentGitDir: string): Promise<void> {
  if (!existsSync(alternatesFile(forkGitDir))) return;
  const objects = path.join(forkGitDir, "objects");
  await writeFile(alternatesFile(forkGitDir), `${path.relative(objects, path.join(parentGitDir, "objects"))}\n`);
}
