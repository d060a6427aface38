/**
 * The two git transport services (gitprotocol-pack(5)) that git smart HTTP serves
 * (server/http/git/smart-http.ts): `git upload-pack` (fetch, clone) and `git receive-pack`
 * (push), in `--stateless-rpc` mode, with the options every run gets whatever the repository's
 * own configuration says.
 */
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { spawnGit, userArg } from "./exec";

/** The two services svc serves. */
export type GitService = "git-upload-pack" | "git-receive-pack";

export const GIT_SERVICES: readonly GitService[] = ["git-upload-pack", "git-receive-pack"];

/**
 * `-c` options of every upload-pack (so they apply to existing repositories too; docs/git-http.md
 * "Partial clone"): partial clone (`--filter`, git-config(1) uploadpack.allowFilter) and the lazy
 * fetches of missing objects it makes later, which in protocol v0 need wants of objects no ref
 * points at — reachable ones only (uploadpack.allowReachableSHA1InWant), never unreachable ones.
 */
const UPLOAD_PACK_CONFIG = ["-c", "uploadpack.allowFilter=true", "-c", "uploadpack.allowReachableSHA1InWant=true"];

/**
 * `-c` options of every receive-pack: pull request refs stay out of push advertisements, which
 * stay small in repositories with thousands of them (git-config(1) receive.hideRefs, as GitHub
 * does; git also refuses pushes to hidden refs, fetches still see them), and a push is on disk
 * before it is acknowledged: objects, packs and ref updates are fsynced (git-config(1)
 * core.fsync; git's default leaves refs and loose objects to the page cache, which a power loss
 * can take after the client was told "ok").
 */
const RECEIVE_PACK_CONFIG = ["-c", "receive.hideRefs=refs/pull/", "-c", "core.fsync=committed,reference"];

export interface PackServiceOptions {
  /** Only the ref advertisement (`--advertise-refs`, the answer to GET info/refs). */
  advertise: boolean;
  /** The client's Git-Protocol value, passed as GIT_PROTOCOL (the caller checks its characters). */
  protocol?: string;
  /** The authenticated user: reflog entries of a push name them (as git-http-backend does with REMOTE_USER). */
  user?: { username: string; email: string | null };
  /** Further `-c` options placed before the service (e.g. the pre-receive hook's). */
  config?: string[];
  /** Further environment (e.g. the pre-receive hook's socket and key). */
  env?: Record<string, string>;
  /** False for a full-duplex session over one stream (git over SSH, server/ssh/); default true (`--stateless-rpc`, smart HTTP). */
  stateless?: boolean;
}

/**
 * Starts `git <upload-pack|receive-pack> --stateless-rpc [--advertise-refs] <gitDir>` with no
 * timeout (the caller stops an idle process); the caller owns its streams. Errors: BAD_REQUEST
 * (AppError) when `gitDir` could be read as an option; git failing to start surfaces as the
 * child's "error" event.
 */
export function spawnPackService(service: GitService, gitDir: string, opts: PackServiceOptions): ChildProcessWithoutNullStreams {
  const env: Record<string, string> = {};
  if (opts.protocol) env.GIT_PROTOCOL = opts.protocol;
  if (opts.user) {
    env.GIT_COMMITTER_NAME = opts.user.username;
    // eslint-disable-next-line no-control-regex -- control characters and <> cannot be part of a git identity (git-commit-tree(1))
    env.GIT_COMMITTER_EMAIL = (opts.user.email ?? `${opts.user.username}@svc`).replace(/[\x00-\x1f<>]/g, "");
    env.REMOTE_USER = opts.user.username;
  }
  const args = [
    ...(service === "git-upload-pack" ? UPLOAD_PACK_CONFIG : RECEIVE_PACK_CONFIG),
    ...(opts.config ?? []),
    service.slice("git-".length),
    ...(opts.stateless === false ? [] : ["--stateless-rpc"]),
    ...(opts.advertise ? ["--advertise-refs"] : []),
    userArg(gitDir, "repository path"),
  ];
  return spawnGit(args, { timeoutMs: 0, env: { ...env, ...opts.env } });
}
