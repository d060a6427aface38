/**
 * The patch identity of a change: `git diff --unified=0 <base> <head>` piped into
 * `git patch-id --stable` (two processes, no shell; the diff streams from one into the other and
 * is never held here). Two diffs that add and remove the same lines in the same files have the
 * same patch id, whatever their line numbers, blob ids or commits (git-patch-id(1)); this is what
 * "the same change" means for approvals that survive a rebase (docs/pulls.md "Revisions").
 * Without context lines: git-patch-id hashes the context lines too, so with the default three an
 * upstream change next to the change (a line inserted two lines below a changed one) would make a
 * pure rebase look like another change.
 */
import { spawnGit } from "./exec";
import { SHA_RE } from "@/lib/sha";

/**
 * The stable patch id (hex, the repository's object id length) of the diff `base` → `head` in bare repository `gitDir`, or null
 * when git could not compute it (a missing object, a timeout) — and for an empty diff, which has
 * no patch id. Anything but full object ids gives null. Never throws.
 */
export async function patchIdOf(gitDir: string, base: string, head: string, timeoutMs = 60_000): Promise<string | null> {
  if (!SHA_RE.test(base) || !SHA_RE.test(head)) return null;
  const diff = spawnGit(["diff", "--no-color", "--no-ext-diff", "--full-index", "--unified=0", base, head], { gitDir, timeoutMs });
  const pid = spawnGit(["patch-id", "--stable"], { gitDir, timeoutMs });
  diff.stdout.pipe(pid.stdin);
  diff.stdin.end();
  pid.stdin.on("error", () => {}); // patch-id may exit before reading everything
  diff.stdout.on("error", () => {});
  let out = "";
  pid.stdout.on("data", (c: Buffer) => {
    if (out.length < 4096) out += c.toString("utf8");
  });
  const exit = (child: typeof diff) =>
    new Promise<number>((resolve) => {
      child.once("error", () => resolve(-1));
      child.once("close", (code, signal) => resolve(code ?? (signal ? 128 : 1)));
    });
  const [diffCode, pidCode] = await Promise.all([exit(diff), exit(pid)]);
  if (diffCode !== 0 || pidCode !== 0) return null;
  const id = out.split(/\s/)[0];
  return SHA_RE.test(id ?? "") ? id : null;
}
