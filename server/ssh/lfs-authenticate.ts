/**
 * `git-lfs-authenticate <owner>/<repo>.git download|upload` over SSH (docs/lfs.md "Over SSH";
 * https://github.com/git-lfs/git-lfs/blob/main/docs/api/server-discovery.md): answers on stdout
 * with `{"href": "<public URL>/<owner>/<repo>.git/info/lfs", "header": {"Authorization": "Bearer
 * svclfs.…"}, "expires_in": 600}` — a short-lived LFS token (services/lfs/token.ts) for that
 * repository, operation and principal, which the LFS HTTP endpoints (and only they) accept. A user
 * key acts as its user (download needs read, upload write permission); a deploy key as its
 * repository (a read-only one cannot upload). Refusals go to stderr with exit status 1.
 */
import type { ServerChannel } from "ssh2";
import { getAuthSecret } from "@/server/config";
import { signLfsToken, type LfsPrincipal } from "@/server/services/lfs/token";
import { lfsBaseHref } from "@/server/http/lfs/objects";
import type { SshLfsCommand } from "./command";
import type { SshPrincipal } from "./authenticate";
import { authorizeSshRepo } from "./authorize";

/** Serves `cmd` on `channel`; resolves with the exit status (0 answered, 1 refused). */
export async function serveLfsAuthenticate(channel: ServerChannel, principal: SshPrincipal, cmd: SshLfsCommand): Promise<number> {
  const authorized = await authorizeSshRepo(
    principal,
    { owner: cmd.owner, name: cmd.name },
    cmd.operation === "upload" ? "write" : "read",
    "LFS upload refused",
  );
  if (typeof authorized === "string") {
    channel.stderr.write(`svc: ${authorized}\n`);
    return 1;
  }
  const repo = authorized.repo; // at its new path after a transfer: the href below names it
  const who: LfsPrincipal =
    principal.kind === "user" ? { kind: "user", userId: principal.actor.user.id } : { kind: "deploy", keyId: principal.keyId };
  const { token, expiresIn } = signLfsToken(getAuthSecret(), { repoId: repo.id, operation: cmd.operation, principal: who });
  channel.write(
    JSON.stringify({ href: lfsBaseHref(repo.owner, repo.name), header: { Authorization: `Bearer ${token}` }, expires_in: expiresIn }) +
      "\n",
  );
  return 0;
}
