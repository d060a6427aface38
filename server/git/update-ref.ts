/**
 * Compare-and-swap ref updates, the only way svc moves a ref itself (git-update-ref(1) with the
 * old value: "verifies that the current value of the ref matches <old-value> before updating").
 * Branches and tags move through services/repos/update-branch.ts `updateBranch`; svc's own
 * `refs/pull/<n>/head` through pull-refs.ts. Every name must be a full ref name (`refs/…`,
 * git-check-ref-format rules, refs.ts `isValidRefName`) and every object id a full sha, so no
 * argument git sees can be taken for an option.
 */
import { SHA_RE, ZERO_SHA } from "@/lib/sha";
import { runGit, userArg } from "./exec";
import { isValidRefName } from "./refs";

/** `ref` when it is a full, valid ref name. Errors: BAD_REQUEST as `userArg`; a plain Error otherwise (callers pass names they built or validated). */
function checkRef(ref: string): string {
  userArg(ref, "ref");
  if (!ref.startsWith("refs/") || !isValidRefName(ref)) throw new Error(`"${ref}" is not a valid ref name`);
  return ref;
}

/** `value` when it is a full object id. Errors: a plain Error (callers pass ids git gave them). */
function sha(value: string, what: string): string {
  if (!SHA_RE.test(value)) throw new Error(`${what} is not a full object id`);
  return value;
}

/**
 * Moves `ref` from `oldSha` to `newSha` atomically: `git update-ref -m <reason> <ref> <new> <old>`
 * (`reason` is the reflog message). `oldSha` null creates the ref (it must not exist). Returns
 * false when the ref no longer points to `oldSha` (someone else moved it): nothing changed.
 * Errors: see `checkRef` and `sha` for a malformed name or id.
 */
export async function casUpdateRef(gitDir: string, ref: string, newSha: string, oldSha: string | null, reason: string): Promise<boolean> {
  const args = ["update-ref", "-m", reason, checkRef(ref), sha(newSha, "new sha"), oldSha === null ? ZERO_SHA : sha(oldSha, "old sha")];
  const r = await runGit(args, { gitDir });
  return r.code === 0;
}

/**
 * Deletes `ref` only while it points to `oldSha`: `git update-ref -d <ref> <old>`. Returns false
 * when it moved or is gone. Errors: as `casUpdateRef`.
 */
export async function casDeleteRef(gitDir: string, ref: string, oldSha: string): Promise<boolean> {
  const r = await runGit(["update-ref", "-d", checkRef(ref), sha(oldSha, "old sha")], { gitDir });
  return r.code === 0;
}
