/**
 * Git smart HTTP (gitprotocol-http(5), the protocol git-http-backend(1) serves) with the real
 * `git upload-pack` / `git receive-pack` in `--stateless-rpc` mode. Served at
 * `/<owner>/<repo>.git/<rest>` (next.config.mjs rewrites it to app/api/git/…); docs/git-http.md.
 *
 *   GET  info/refs?service=git-upload-pack|git-receive-pack  ref advertisement
 *   POST git-upload-pack                                      fetch / clone (protocol v0, v1, v2)
 *   POST git-receive-pack                                     push (v0/v1; git has no v2 push)
 *
 * Git LFS (`info/lfs/…`) is handed to server/http/lfs/handler.ts (docs/lfs.md).
 * Nothing else is served (no dumb HTTP, no other services). Request bodies are streamed into
 * git's stdin (gunzipped on the fly for `Content-Encoding: gzip`) and git's stdout is streamed
 * into the response, both with backpressure, so a large push or clone is never held in memory.
 * Repositories are never created here.
 */
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import { stat } from "node:fs/promises";
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { getDb } from "@/server/db";
import { AppError, httpStatusOf } from "@/server/errors";
import type { Actor } from "@/server/auth/actor";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { recordBranchUpdates } from "@/server/services/repos/update-branch";
import { clientAddress } from "@/server/http/client-address";
import { observeGitHttp } from "@/server/metrics/git-http";
import { GIT_SERVICES as SERVICES, spawnPackService, type GitService } from "@/server/git/pack-service";
import { clearStaleGitLeftovers } from "@/server/git/stale-locks";
import { CommandSniffer, effectiveUpdates } from "@/server/git/push-commands";
import { FLUSH_PKT, pktLine, protocolVersion } from "@/server/git/pkt-line";
import { handleLfs } from "@/server/http/lfs/handler";
import { authorizeGitRequest } from "./authorize";
import { gitHttpLimits } from "./http-limits";
import { NO_CACHE, text } from "./plain-text";
import { acquireGitSlot, gitClientKey, stopGit, trackGitProcess } from "./process-gate";
import { receivePackHook } from "./push-hook";
import { BodyTooLarge, ByteLimit, ClientGone, isPipeClosed, isZlibError, RequestBody, UploadStalled } from "./request-body";

/** Git-Protocol header values passed on to git as GIT_PROTOCOL (e.g. "version=2"). */
const SAFE_GIT_PROTOCOL = /^[A-Za-z0-9=:._-]{1,256}$/;

type Route = { kind: "advertise"; service: GitService } | { kind: "rpc"; service: GitService } | { kind: "error"; response: Response };

/** Maps the path after `<repo>.git/`, the method and the query to what is asked, or an error response. */
function route(method: string, rest: string, url: URL): Route {
  const path = rest.replace(/^\/+/, "");
  if (path === "info/refs") {
    if (method !== "GET") return { kind: "error", response: text(405, "use GET for info/refs", { allow: "GET" }) };
    const service = url.searchParams.get("service");
    if (!service)
      return {
        kind: "error",
        response: text(403, "svc speaks only the smart HTTP protocol: the ?service= parameter is required (git ≥ 1.6.6)"),
      };
    if (!SERVICES.includes(service as GitService))
      return {
        kind: "error",
        response: text(403, `unsupported service "${service.slice(0, 64)}": only git-upload-pack and git-receive-pack are served`),
      };
    return { kind: "advertise", service: service as GitService };
  }
  if (SERVICES.includes(path as GitService)) {
    if (method !== "POST") return { kind: "error", response: text(405, `use POST for ${path}`, { allow: "POST" }) };
    return { kind: "rpc", service: path as GitService };
  }
  return { kind: "error", response: text(404, "not found: svc serves only info/refs, git-upload-pack and git-receive-pack (smart HTTP)") };
}

/** The answer to a request whose body svc stopped reading before git answered. */
function inputFailure(e: unknown): Response {
  if (e instanceof BodyTooLarge) {
    return text(
      413,
      `request too large: an upload-pack request may carry at most ${e.maxBytes / 1024 / 1024} MiB of want/have lines after decompression`,
    );
  }
  if (e instanceof UploadStalled) return text(408, `request body stalled: ${e.message}; giving up`);
  if (isZlibError(e)) return text(400, `request body is not valid gzip: ${(e as Error).message}`);
  return text(400, `could not read the request body: ${(e as Error)?.message ?? "aborted"}`);
}

interface RunOptions {
  req: Request;
  repo: AuthorizedRepo;
  actor: Actor | null;
  service: GitService;
  advertise: boolean;
}

/**
 * Runs `git <upload-pack|receive-pack> --stateless-rpc [--advertise-refs] <dir>` and answers
 * with its output. The response starts once git wrote its first byte (or exited), so a request
 * git refuses or a body that is not valid gzip is answered 400 with git's message rather than a
 * broken 200.
 */
async function runService({ req, repo, actor, service, advertise }: RunOptions): Promise<Response> {
  const headers: Record<string, string> = { ...NO_CACHE };
  let prefix: Buffer | null = null;
  const rawProtocol = req.headers.get("git-protocol")?.trim();
  const gitProtocol = rawProtocol && SAFE_GIT_PROTOCOL.test(rawProtocol) ? rawProtocol : undefined;
  if (advertise) {
    headers["content-type"] = `application/x-${service}-advertisement`;
    // git-http-backend omits the service header for protocol v2 (the client accepts both).
    if (!(service === "git-upload-pack" && protocolVersion(gitProtocol) >= 2)) {
      prefix = Buffer.concat([pktLine(`# service=${service}\n`), FLUSH_PKT]);
    }
  } else {
    const contentType = (req.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
    if (contentType !== `application/x-${service}-request`) {
      return text(415, `unsupported content type "${contentType.slice(0, 100)}": expected application/x-${service}-request`);
    }
    headers["content-type"] = `application/x-${service}-result`;
  }
  const encoding = (req.headers.get("content-encoding") ?? "").trim().toLowerCase();
  if (!advertise && encoding && encoding !== "gzip" && encoding !== "x-gzip" && encoding !== "identity") {
    return text(415, `unsupported content encoding "${encoding.slice(0, 50)}": send gzip or no encoding`);
  }
  if (
    !(await stat(repo.gitDir).then(
      (s) => s.isDirectory(),
      () => false,
    ))
  ) {
    return text(404, `repository ${repo.owner}/${repo.name} has no git data on the server`);
  }

  // Lazy start: git runs for a POST only once the first body byte arrived (a stalled upload
  // holds no process and no slot), then only when a slot is free (process-gate.ts).
  let upload: RequestBody | null = null;
  if (!advertise) {
    if (!req.body) return text(400, "empty request body: expected a git request");
    upload = new RequestBody(req.body as ReadableStream<Uint8Array>, req.signal);
    const started = await upload.start().catch((e: unknown) => e);
    if (started === false) return text(400, "empty request body: expected a git request");
    if (started !== true) {
      upload.abandon();
      return inputFailure(started);
    }
  }
  // A crash of svc may have left ref locks and quarantines that would refuse this push (stale-locks.ts).
  // A quarantine idle for longer than svc lets a git process idle is not another process's live push.
  if (service === "git-receive-pack" && !advertise)
    await clearStaleGitLeftovers(repo.gitDir, gitHttpLimits().processIdleMs + gitHttpLimits().killGraceMs + 60_000);
  const slot = await acquireGitSlot(gitClientKey(actor?.user.id, clientAddress(req.headers)), req.signal, {
    push: service === "git-receive-pack",
  });
  if (!slot) {
    upload?.abandon();
    const retry = gitHttpLimits().retryAfterS;
    return text(503, `svc is busy: too many git operations are running (yours or everyone's); try again in ${retry} s`, {
      "retry-after": String(retry),
    });
  }
  let child: ChildProcessWithoutNullStreams;
  try {
    // receive-pack runs svc's pre-receive policy (ref names, push protection): push-hook.ts
    const hook = service === "git-receive-pack" ? await receivePackHook(repo.gitDir, advertise, { repoId: repo.id, actor }) : null;
    child = spawnPackService(service, repo.gitDir, {
      advertise,
      protocol: gitProtocol,
      user: actor ? { username: actor.user.username, email: actor.user.email } : undefined,
      config: hook?.args,
      env: hook?.env,
    });
    child.once("close", () => hook?.release());
  } catch (e) {
    slot.release();
    upload?.cancel();
    throw e;
  }
  trackGitProcess(child, slot);

  let lastActivity = Date.now();
  const kill = () => stopGit(child);
  const processIdleMs = gitHttpLimits().processIdleMs;
  const idle = setInterval(
    () => {
      if (Date.now() - lastActivity > processIdleMs) kill();
    },
    Math.min(30_000, processIdleMs),
  );
  idle.unref?.();
  const onAbort = () => kill();
  req.signal?.addEventListener("abort", onAbort, { once: true });
  if (req.signal?.aborted) kill();

  let stderr = "";
  child.stderr.on("data", (c: Buffer) => {
    if (stderr.length < 64 * 1024) stderr += c.toString("utf8");
  });
  const exited = new Promise<number>((resolve) => {
    child.on("error", (e) => {
      stderr += String(e);
      resolve(127);
    });
    child.on("close", (code, signal) => {
      clearInterval(idle);
      req.signal?.removeEventListener("abort", onAbort);
      resolve(code ?? (signal ? 128 : 1));
    });
  });

  // Request body → [gunzip] → [command sniffer] → git stdin, with backpressure.
  let inputError: unknown = null;
  let sniffer: CommandSniffer | null = null;
  const inputFailed = new Promise<void>((resolve) => {
    if (!upload) {
      child.stdin.on("error", () => {});
      child.stdin.end();
      return;
    }
    const input = upload;
    const stages: (NodeJS.ReadableStream | NodeJS.WritableStream | NodeJS.ReadWriteStream)[] = [
      input.stream(() => {
        lastActivity = Date.now();
      }),
    ];
    if (encoding === "gzip" || encoding === "x-gzip") stages.push(createGunzip());
    // Upload-pack requests are want/have lines: cap them after gunzip. Pushes are packfiles: no cap.
    if (service === "git-upload-pack") stages.push(new ByteLimit(gitHttpLimits().maxUploadPackBytes));
    if (service === "git-receive-pack") stages.push((sniffer = new CommandSniffer()));
    stages.push(child.stdin);
    (pipeline as (...s: unknown[]) => Promise<void>)(...stages).catch((e: unknown) => {
      if (e instanceof ClientGone) input.cancel();
      else input.abandon(); // let the client read the answer, within limits
      if (isPipeClosed(e) && !(e instanceof ClientGone)) return; // git closed its stdin: its exit status tells what happened
      inputError = e;
      kill();
      resolve();
    });
  });

  const chunks = child.stdout[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const first = await Promise.race([chunks.next(), inputFailed.then(() => "input-failed" as const)]);

  // Once git has answered, its output is what counts; an input error after that only ends the stream.
  if (first === "input-failed") {
    kill();
    await exited;
    return inputFailure(inputError);
  }
  if (first.done) {
    const code = await exited;
    if (inputError) return inputFailure(inputError);
    if (code !== 0) {
      const detail = stderr.trim().split("\n").slice(-5).join("\n") || `git ${service.slice(4)} exited with ${code}`;
      if (advertise) {
        console.error(`git ${service} --advertise-refs failed for ${repo.owner}/${repo.name}: ${detail}`);
        return text(500, "git could not read the repository");
      }
      return text(400, `git ${service.slice(4)} refused the request: ${detail}`);
    }
    if (service === "git-receive-pack" && !advertise) await afterPush(repo, sniffer, actor);
    return new Response(prefix ? new Uint8Array(prefix) : null, { status: 200, headers });
  }

  lastActivity = Date.now();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (prefix) controller.enqueue(new Uint8Array(prefix));
      controller.enqueue(new Uint8Array(first.value));
    },
    async pull(controller) {
      try {
        const next = await chunks.next();
        if (!next.done) {
          lastActivity = Date.now();
          controller.enqueue(new Uint8Array(next.value));
          return;
        }
        const code = await exited;
        if (code !== 0) {
          console.error(
            `git ${service} for ${repo.owner}/${repo.name} exited with ${code}: ${stderr.trim().split("\n").slice(-5).join(" | ")}`,
          );
        } else if (service === "git-receive-pack" && !advertise) {
          await afterPush(repo, sniffer, actor);
        }
        controller.close();
      } catch (e) {
        console.error(`git ${service} stream for ${repo.owner}/${repo.name} failed`, e);
        kill();
        controller.close();
      }
    },
    cancel() {
      kill();
    },
  });
  return new Response(body, { status: 200, headers });
}

/**
 * Post-push bookkeeping (also of pushes over SSH, server/ssh/): the refs the sniffed commands
 * really moved are recorded (recordBranchUpdates); a failure is logged, the push itself already succeeded.
 */
export async function afterPush(repo: AuthorizedRepo, sniffer: CommandSniffer | null, actor: Actor | null): Promise<void> {
  try {
    const commands = sniffer?.commands ?? [];
    const updates = await effectiveUpdates(repo.gitDir, commands);
    if (commands.length > 0 && updates.length === 0) return; // every ref was refused: nothing moved
    await recordBranchUpdates(await getDb(), actor, repo, updates);
  } catch (e) {
    console.error(`recording the push to ${repo.owner}/${repo.name} failed`, e);
  }
}

/**
 * Serves one git smart HTTP request for `/<owner>/<repoWithoutDotGit>.git/<rest>`.
 *
 * `rest` is `info/refs` (GET, `?service=git-upload-pack|git-receive-pack`), `git-upload-pack`
 * or `git-receive-pack` (POST, `Content-Type: application/x-git-<service>-request`, optionally
 * `Content-Encoding: gzip`). The `Git-Protocol` header becomes GIT_PROTOCOL (protocol v2 for
 * fetch). Source: gitprotocol-http(5), git-http-backend(1).
 *
 * Answers: 200 with git's output (`application/x-git-<service>-advertisement|result`,
 * `Cache-Control: no-cache`); 401 + `WWW-Authenticate: Basic realm="svc"` when anonymous and
 * refused (or the repository is private or unknown) and for invalid, expired or revoked tokens;
 * 404 when an authenticated caller cannot read the repository or it does not exist; 403 when
 * it is readable but the token lacks `repo:write` or the user lacks write permission (push);
 * 400/403/404/405/408/413/415 with a plain-text message for malformed, stalled (no body byte for
 * 30 s) or oversized (upload-pack over 32 MiB after gunzip) requests; 503 + `Retry-After` when
 * too many git processes run (process-gate.ts; limits in http-limits.ts). Never creates a
 * repository. After a successful receive-pack, `recordBranchUpdates` runs (services/repos/update-branch.ts).
 * Each request is counted and timed in the metrics (server/metrics/git-http.ts).
 */
export function handleGitHttp(req: Request, owner: string, repoWithoutDotGit: string, rest: string): Promise<Response> {
  return observeGitHttp(req, rest, () => serveGitHttp(req, owner, repoWithoutDotGit, rest));
}

async function serveGitHttp(req: Request, owner: string, repoWithoutDotGit: string, rest: string): Promise<Response> {
  const lfs = /^\/*info\/lfs\/(.*)$/.exec(rest);
  if (lfs) return handleLfs(req, owner, repoWithoutDotGit, lfs[1]!, rest);
  try {
    const url = new URL(req.url);
    const r = route(req.method.toUpperCase(), rest, url);
    if (r.kind === "error") return r.response;
    const auth = await authorizeGitRequest(req, owner, repoWithoutDotGit, r.service, rest);
    if (auth instanceof Response) return auth;
    return await runService({ req, repo: auth.repo, actor: auth.actor, service: r.service, advertise: r.kind === "advertise" });
  } catch (e) {
    if (e instanceof AppError) return text(httpStatusOf(e.code), e.message);
    console.error("git smart HTTP failed", e);
    return text(500, "internal error");
  }
}
