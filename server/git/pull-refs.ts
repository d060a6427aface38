/**
 * Ref and object plumbing for pull requests: `refs/pull/<number>/head` in the target repository
 * (as GitHub keeps it), moved only by compare-and-swap (update-ref.ts), and fetching a fork's
 * commit into its target (ancestry and counts: commits.ts). Every sha and path passes `userArg`;
 * the refs are built here from pull request numbers.
 */
import { hasCommit } from "./commits";
import { runGit, userArg } from "./exec";
import { casDeleteRef, casUpdateRef } from "./update-ref";
import { SHA_RE } from "@/lib/sha";

function sha(value: string, what: string): string {
  userArg(value, what);
  if (!SHA_RE.test(value)) throw new Error(`${what} is not a full object id`);
  return value;
}

/** `refs/pull/<number>/head`: where the target repository keeps a pull request's head. */
export function pullHeadRef(number: number): string {
  if (!Number.isInteger(number) || number < 1) throw new Error(`bad pull request number ${number}`);
  return `refs/pull/${number}/head`;
}

/** The object id `ref` (a full ref name) points at, or null when it does not exist. */
export async function readRef(gitDir: string, ref: string): Promise<string | null> {
  userArg(ref, "ref");
  const r = await runGit(["rev-parse", "--verify", "--quiet", "--end-of-options", ref], { gitDir });
  return r.code === 0 ? r.stdout.toString().trim() : null;
}

/**
 * Points `refs/pull/<number>/head` at `newSha` only while it is at `oldSha` (null: it must not
 * exist yet), by update-ref.ts `casUpdateRef`. Returns false when the ref had moved (nothing
 * changed). Errors: a plain Error for a bad number or a sha that is not a full object id.
 */
export async function movePullHead(gitDir: string, number: number, newSha: string, oldSha: string | null): Promise<boolean> {
  return casUpdateRef(gitDir, pullHeadRef(number), newSha, oldSha, `pull request #${number}: head ${newSha}`);
}

/**
 * Deletes `refs/pull/<number>/head` only while it is at `oldSha`, by update-ref.ts
 * `casDeleteRef`. Returns false when it moved or is gone. Errors: as `movePullHead`.
 */
export async function deletePullHead(gitDir: string, number: number, oldSha: string): Promise<boolean> {
  return casDeleteRef(gitDir, pullHeadRef(number), oldSha);
}

/**
 * Copies commit `commitSha` and everything it needs from the bare repository `sourceGitDir` (a
 * fork) into `targetGitDir`, without writing any ref or FETCH_HEAD (the caller then points a ref
 * at it). Local transport; protocol v2 lets a want name any reachable object. Errors: a plain
 * Error (server fault) when git fails.
 */
export async function fetchCommit(targetGitDir: string, sourceGitDir: string, commitSha: string): Promise<void> {
  if (await hasCommit(targetGitDir, commitSha)) return;
  const r = await runGit(
    [
      "-c",
      "protocol.version=2",
      "-c",
      "uploadpack.allowAnySHA1InWant=true",
      "fetch",
      "--quiet",
      "--no-tags",
      "--no-write-fetch-head",
      "--end-of-options",
      userArg(sourceGitDir, "source repository"),
      sha(commitSha, "sha"),
    ],
    { gitDir: targetGitDir, timeoutMs: 300_000 },
  );
  if (r.code !== 0) throw new Error(`git fetch of ${commitSha} failed (${r.code}): ${r.stderr.trim()}`);
}
