/**
 * Runs one git command for an authenticated SSH principal on an exec channel (docs/ssh.md
 * "Commands"): authorization through the same gate as git smart HTTP (services/repos/access.ts),
 * the same git process gate (http/git/process-gate.ts), the same pre-receive policy for pushes
 * (http/git/push-hook.ts: protection, secret scanning, ref names) and the same post-push
 * bookkeeping (smart-http.ts `afterPush`). git runs full duplex (no --stateless-rpc) with the
 * channel as its stdin/stdout and its stderr on the channel's stderr.
 */
import { stat } from "node:fs/promises";
import { pipeline } from "node:stream/promises";
import type { ServerChannel } from "ssh2";
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { spawnPackService } from "@/server/git/pack-service";
import { spawnGit, userArg } from "@/server/git/exec";
import { clearStaleGitLeftovers } from "@/server/git/stale-locks";
import { CommandSniffer } from "@/server/git/push-commands";
import { acquireGitSlot, gitClientKey, stopGit, trackGitProcess } from "@/server/http/git/process-gate";
import { gitHttpLimits } from "@/server/http/git/http-limits";
import { receivePackHook } from "@/server/http/git/push-hook";
import { afterPush } from "@/server/http/git/smart-http";
import type { SshGitCommand } from "./command";
import type { SshPrincipal } from "./authenticate";
import { authorizeSshRepo } from "./authorize";

/**
 * Serves `cmd` on `channel` and resolves with the exit status to send (0 success; 1 refused;
 * git's own status otherwise). Refusals are written to the channel's stderr. `address` keys the
 * process gate; `protocol` is the client's validated GIT_PROTOCOL (env request), if any.
 */
export async function serveGitCommand(
  channel: ServerChannel,
  principal: SshPrincipal,
  cmd: SshGitCommand,
  address: string,
  protocol: string | undefined,
): Promise<number> {
  const fail = (message: string) => {
    channel.stderr.write(`svc: ${message}\n`);
    return 1;
  };
  const authorized = await authorizeSshRepo(
    principal,
    { owner: cmd.owner, name: cmd.name },
    cmd.service === "git-receive-pack" ? "write" : "read",
    "push refused",
  );
  if (typeof authorized === "string") return fail(authorized);
  const repo = authorized.repo;
  // git shows the server's stderr: the remote still works, and says where to point it
  if (authorized.movedTo)
    channel.stderr.write(
      `svc: this repository moved to ${authorized.movedTo}; update your remote: git remote set-url origin <its new URL>\n`,
    );
  const exists = await stat(repo.gitDir).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!exists) return fail(`repository ${repo.owner}/${repo.name} has no git data on the server`);
  const push = cmd.service === "git-receive-pack";
  const actor = principal.kind === "user" ? principal.actor : null;
  if (push) await clearStaleGitLeftovers(repo.gitDir, gitHttpLimits().processIdleMs + gitHttpLimits().killGraceMs + 60_000);
  const abort = new AbortController();
  channel.once("close", () => abort.abort());
  const slot = await acquireGitSlot(gitClientKey(actor?.user.id ?? `deploy:${principal.keyId}`, address), abort.signal, { push });
  if (!slot) return fail(`svc is busy: too many git operations are running; try again in ${gitHttpLimits().retryAfterS} s`);
  let child: ChildProcessWithoutNullStreams;
  let release = () => {};
  try {
    if (cmd.service === "git-upload-archive") {
      child = spawnGit(["upload-archive", userArg(repo.gitDir, "repository path")], { timeoutMs: 0 });
    } else {
      const hook = push ? await receivePackHook(repo.gitDir, false, { repoId: repo.id, actor }) : null;
      release = () => hook?.release();
      child = spawnPackService(cmd.service, repo.gitDir, {
        advertise: false,
        stateless: false,
        protocol,
        user: actor
          ? { username: actor.user.username, email: actor.user.email }
          : { username: `deploy-key-${principal.keyId.slice(0, 8)}`, email: null },
        config: hook?.args,
        env: hook?.env,
      });
    }
  } catch (e) {
    slot.release();
    throw e;
  }
  trackGitProcess(child, slot);
  const kill = () => stopGit(child);
  abort.signal.addEventListener("abort", kill, { once: true });
  const exited = new Promise<number>((resolve) => {
    child.on("error", () => resolve(127));
    child.on("close", (code, signal) => {
      release();
      abort.signal.removeEventListener("abort", kill);
      resolve(code ?? (signal ? 128 : 1));
    });
  });
  const sniffer = push ? new CommandSniffer() : null;
  const input = sniffer ? pipeline(channel, sniffer, child.stdin) : pipeline(channel, child.stdin);
  input.catch(() => {}); // git closing its stdin early, or the client going away: the exit status tells
  child.stdout.pipe(channel, { end: false });
  child.stderr.pipe(channel.stderr, { end: false });
  const stdoutDone = new Promise<void>((resolve) => child.stdout.once("close", () => resolve()));
  const code = await exited;
  await stdoutDone;
  if (push && code === 0) await afterPush(repo, sniffer, actor);
  return code;
}
