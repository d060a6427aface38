/**
 * Ref and object plumbing for pull requests (issue #8): `refs/pull/<number>/head` in the target
 * repository (as GitHub keeps it), compare-and-swap ref updates (git-update-ref(1) with an old
 * value) and fetching a fork's commit into its target (ancestry and counts: commits.ts). Every sha
 * and path passes `userArg`; refs are built here from numbers and validated branch names.
 */
import { hasCommit } from "./commits";
import { runGit, userArg } from "./exec";
import { SHA_RE, ZERO_SHA } from "@/lib/sha";

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
 * Moves `ref` to `newSha` only if it still points at `oldSha` (null = must not exist):
 * `git update-ref <ref> <new> <old>` (git-update-ref(1)). `newSha` null deletes the ref
 * (`update-ref -d <ref> <old>`). Returns false when the ref had moved (nothing changed).
 */
export async function casRef(gitDir: string, ref: string, newSha: string | null, oldSha: string | null): Promise<boolean> {
  userArg(ref, "ref");
  const old = oldSha === null ? ZERO_SHA : sha(oldSha, "old sha");
  const args = newSha === null ? ["update-ref", "-d", ref, old] : ["update-ref", ref, sha(newSha, "new sha"), old];
  const r = await runGit(args, { gitDir });
  return r.code === 0;
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
