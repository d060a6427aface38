/**
 * What a push may do, decided before any ref moves (git's pre-receive hook runs it through
 * server/http/git/push-hook.ts). All or nothing: one refused ref or one
 * secret refuses the whole push, and git then updates no ref.
 *
 * 1. The rules every ref update passes, pushed or made by svc itself (update-branch.ts
 *    `checkBranchUpdates`): ref names (`pushRefProblem`, server/git/refs.ts) — valid
 *    branches and tags only, never `refs/pull/*`; deleting a badly named ref is allowed — then
 *    branch protection (services/branch-protection/check-updates.ts), e.g.
 *    `main is protected: changes must go through a pull request`.
 * 2. Push protection: the lines added by the commits new to the repository
 *    (`git log -p <new> --not --all` inside the quarantine) are scanned for svc tokens valid in
 *    this instance and private key blocks (secret-scan.ts). Findings refuse the push with
 *    `path:line`, unless it was pushed with `git push -o allow-secret`. At most
 *    MAX_SCAN_BYTES of patch are read; the rest is not scanned and the pusher is told so.
 *
 * Messages are written for the git client, which prints them as `remote: …`.
 */
import path from "node:path";
import { realpath } from "node:fs/promises";
import type { Actor } from "@/server/auth/actor";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { peelToCommits, scanAddedLines } from "@/server/git/added-lines";
import { parseRefUpdate, type RefUpdate } from "@/server/git/push-commands";
import { isZeroSha } from "@/lib/sha";
import { isLiveToken } from "@/server/services/tokens/verify-token";
import { ALLOW_SECRET_OPTION, describeFindings, MAX_SCAN_BYTES, SecretDetector } from "./secret-scan";
import { checkBranchUpdates } from "./update-branch";

export { ALLOW_SECRET_OPTION, MAX_SCAN_BYTES };

export interface PushCheckInput {
  /** Absolute path of the bare repository. */
  gitDir: string;
  /** The pre-receive input (githooks(5) "pre-receive"): one `<old> <new> <ref>` line per ref. */
  input: string;
  /** The push options (`git push -o <opt>`), as GIT_PUSH_OPTION_<n>. */
  pushOptions: string[];
  /** GIT_QUARANTINE_PATH of receive-pack (absolute), where the pushed objects wait; null when none. */
  quarantine: string | null;
  /** Patch bytes to scan at most (bytes; default MAX_SCAN_BYTES). */
  maxScanBytes?: number;
  /** The repository's id (null or absent when unknown), for `checkBranchUpdates`. */
  repoId?: string | null;
  /** The pusher (null or absent when unknown), for `checkBranchUpdates`. */
  actor?: Actor | null;
}

export interface PushVerdict {
  ok: boolean;
  /** Lines for the pusher's terminal (git prefixes them with "remote: "). */
  messages: string[];
}

/**
 * The ref updates of a pre-receive input. Errors: BAD_REQUEST for a line that is not
 * `<sha> <sha> <ref>` (40 or 64 hex digits).
 */
export function parseHookInput(input: string): RefUpdate[] {
  return input
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((line) => {
      const update = parseRefUpdate(line.trim());
      if (!update) throw new AppError("BAD_REQUEST", `unexpected pre-receive line ${JSON.stringify(line.slice(0, 200))}`);
      return update;
    });
}

/** The env that lets git read the quarantined objects (git-receive-pack(1) "QUARANTINE ENVIRONMENT"). Errors: BAD_REQUEST when the directory is not inside the repository's objects. */
async function quarantineEnv(gitDir: string, quarantine: string | null): Promise<Record<string, string>> {
  if (!quarantine) return {};
  const objects = await realpath(path.join(gitDir, "objects"));
  const q = await realpath(quarantine).catch(() => "");
  const rel = path.relative(objects, q);
  if (!q || rel === "" || rel.startsWith("..") || path.isAbsolute(rel))
    throw new AppError("BAD_REQUEST", "the quarantine directory is not inside the repository");
  return { GIT_QUARANTINE_PATH: q, GIT_OBJECT_DIRECTORY: q, GIT_ALTERNATE_OBJECT_DIRECTORIES: objects };
}

/**
 * Decides a push (see the module comment). `db` answers token validity (no use is recorded).
 * Returns `{ ok, messages }`; never throws for what the pusher sent, except BAD_REQUEST for a
 * malformed hook input or quarantine path. Errors: plain Error when git fails (server fault).
 */
export async function checkPush(db: Db, input: PushCheckInput): Promise<PushVerdict> {
  const updates = parseHookInput(input.input);
  const env = await quarantineEnv(input.gitDir, input.quarantine);
  const { names, protection } = await checkBranchUpdates(
    db,
    input.actor ?? null,
    { id: input.repoId ?? null, gitDir: input.gitDir, env },
    updates,
  );
  if (names.length > 0) {
    return {
      ok: false,
      messages: [
        ...names.map((p) => `error: ${p}`),
        "error: svc serves branches (refs/heads/<name>) and tags (refs/tags/<name>) with valid names; refs/pull/ belongs to pull requests",
        "error: push declined: no ref was updated",
      ],
    };
  }
  if (protection.length > 0)
    return { ok: false, messages: [...protection.map((p) => `error: ${p}`), "error: push declined: no ref was updated"] };

  const tips = await peelToCommits(
    input.gitDir,
    updates.filter((u) => !isZeroSha(u.newSha)).map((u) => u.newSha),
    env,
  );
  const detector = new SecretDetector((token) => isLiveToken(db, token));
  const maxBytes = input.maxScanBytes ?? MAX_SCAN_BYTES;
  const scan = await scanAddedLines(input.gitDir, tips, { env, maxBytes }, (l) => detector.feed(l));
  const findings = await detector.findings();
  const notes: string[] = [];
  if (scan.truncated)
    notes.push(`warning: secret scanning stopped after ${scan.bytes} bytes of changes; the rest of this push was not scanned`);
  if (detector.skippedCandidates > 0) notes.push(`warning: ${detector.skippedCandidates} more token-like strings were not checked`);
  if (findings.length === 0) return { ok: true, messages: notes };

  const { heading, listed } = describeFindings(findings, "this push");
  if (input.pushOptions.includes(ALLOW_SECRET_OPTION)) {
    return {
      ok: true,
      messages: [
        ...notes,
        `warning: push protection: secrets allowed by -o ${ALLOW_SECRET_OPTION}:`,
        ...listed.map((l) => `warning: ${l}`),
      ],
    };
  }
  return {
    ok: false,
    messages: [
      ...notes,
      `error: ${heading}`,
      ...listed.map((l) => `error: ${l}`),
      "error: remove them from the commits (git commit --amend, git rebase -i) and revoke any exposed token;",
      `error: if they are meant to be pushed, push again with: git push -o ${ALLOW_SECRET_OPTION}`,
      "error: push declined: no ref was updated",
    ],
  };
}
