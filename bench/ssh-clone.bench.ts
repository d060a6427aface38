/**
 * SSH clone benchmark (docs/ssh.md "Benchmark"): `git clone` of an express-sized repository over
 * svc's SSH server (the real `ssh` client, a user key) vs `git clone --no-local` of the same bare
 * repository from disk, best of `--runs` each; prints both times and the ratio against the goal
 * (≤ 1.2×), and a smart HTTP clone of the same repository for reference.
 *
 *   npx tsx bench/ssh-clone.bench.ts [--runs 3] [--repo /path/to/express.git] [--commits 6000] [--rebuild] [--ssh-opts "-c aes128-ctr"]
 *
 * Without `--repo` (a bare clone of express, if one is at hand; CI has no network) the repository
 * is generated with `git fast-import`: express-like, `--commits` commits (default 6,000, express has
 * ~6k) over ~200 files (lib/, test/, examples/, docs), a few small edits per commit, then
 * `git repack -a -d`; cached under $TMPDIR/svc-bench-cache/. The SSH server runs in this process
 * (`startSshServer`, as test/integration/ssh-git.test.ts starts it), so does the smart HTTP server
 * (a plain node:http server calling handleGitHttp, as bench/clone.bench.ts). Not part of the tests.
 *
 * The physical limit of git over SSH: when OpenSSH's server is installed (/usr/sbin/sshd, Debian's
 * openssh-server) and the bench runs as root, the same repository is also cloned through a
 * private sshd (its own config, host key and authorized_keys, on a free loopback port) with the
 * same client and key; svc's SSH server is then also printed as a ratio of that.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { gitClient } from "./git-client";

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const RUNS = Number(option("runs") ?? 3);
const COMMITS = Number(option("commits") ?? 6000);
const GIVEN_REPO = option("repo");
/** Extra options for the ssh client (e.g. "-c aes128-gcm@openssh.com"), split on spaces. */
const SSH_OPTS = option("ssh-opts") ?? "";
const REBUILD = args.includes("--rebuild");
const GOAL = 1.2;

const cacheDir = path.join(os.tmpdir(), "svc-bench-cache");
const cachedRepo = path.join(cacheDir, `express-like-${COMMITS}.git`);
const work = mkdtempSync(path.join(os.tmpdir(), "svc-ssh-bench-"));
const home = path.join(work, "home");
mkdirSync(home);

process.env.DATA_DIR = path.join(work, "data");
process.env.DATABASE_URL = `file:${path.join(work, "data", "svc.db")}`;
process.env.NEXTAUTH_SECRET ??= "bench-secret";
process.env.SVC_APP_ROOT ??= path.resolve(import.meta.dirname, "..");

const { gitOk } = gitClient(work, home);

/** An express-like fast-import stream: ~200 files (lib, test, examples, docs), 1–4 edits per commit. */
async function* fastImportStream(commits: number): AsyncGenerator<string> {
  const files = new Map<string, string[]>();
  const add = (name: string, lines: string[]) => files.set(name, lines);
  for (let i = 0; i < 12; i++)
    add(`lib/${["application", "express", "request", "response", "router", "view", "utils"][i % 7]}${i}.js`, body(i, 300));
  for (let i = 0; i < 90; i++) add(`test/${["app", "req", "res", "Router", "express"][i % 5]}.${i}.js`, body(i, 120));
  for (let i = 0; i < 80; i++)
    add(`examples/example${Math.floor(i / 4)}/${["index.js", "views/index.ejs", "public/style.css", "README.md"][i % 4]}`, body(i, 40));
  for (const name of ["README.md", "History.md", "package.json", "LICENSE", "Contributing.md", "Security.md", ".eslintrc.yml", "index.js"])
    add(name, body(name.length, 200));
  const names = [...files.keys()];
  let seed = 7;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const data = (s: string) => `data ${Buffer.byteLength(s)}\n${s}\n`;
  for (let i = 1; i <= commits; i++) {
    let chunk = `commit refs/heads/master\nmark :${i}\ncommitter Bench Bot <bench@example.com> ${1_300_000_000 + i * 3600} +0000\n`;
    chunk += data(`${["Fix", "Add", "Improve", "Update"][i % 4]} things in commit ${i}\n\nDetails of change ${i}.\n`);
    if (i > 1) chunk += `from :${i - 1}\n`;
    const touched = i === 1 ? names : Array.from({ length: 1 + rand(4) }, () => names[rand(names.length)]);
    for (const name of new Set(touched)) {
      const lines = files.get(name)!;
      if (i > 1) lines[rand(lines.length)] = `  // change ${i}: ${"abcdefghij".repeat(1 + rand(6))}`;
      if (i > 1 && rand(3) === 0) lines.push(`exports.fn${i} = function fn${i}(req, res) { return res.send(${i}); };`);
      chunk += `M 100644 inline ${name}\n${data(lines.join("\n") + "\n")}`;
    }
    yield chunk + "\n";
  }
  yield "done\n";
}

function body(k: number, lines: number): string[] {
  return Array.from({ length: lines }, (_, i) => `var line${i} = require('./mod${(k * 31 + i) % 97}'); // ${k}:${i}`);
}

async function ensureRepository(): Promise<string> {
  if (GIVEN_REPO) return GIVEN_REPO;
  if (!REBUILD && existsSync(path.join(cachedRepo, "HEAD"))) {
    console.log(`reusing ${cachedRepo}`);
    return cachedRepo;
  }
  rmSync(cachedRepo, { recursive: true, force: true });
  mkdirSync(cacheDir, { recursive: true });
  const t0 = Date.now();
  await gitOk(["init", "--bare", "--quiet", "--initial-branch=master", cachedRepo]);
  await gitOk(["--git-dir", cachedRepo, "fast-import", "--quiet", "--done"], { input: fastImportStream(COMMITS) });
  await gitOk(["--git-dir", cachedRepo, "repack", "-a", "-d", "-q", "--window=50", "--depth=50"]);
  console.log(`built ${cachedRepo}: ${COMMITS} commits in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return cachedRepo;
}

function packBytes(gitDir: string): number {
  const dir = path.join(gitDir, "objects/pack");
  return execFileSync("du", ["-sb", dir], { encoding: "utf8" }).split("\t").map(Number)[0];
}

/** A free loopback TCP port. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * OpenSSH's sshd on a free loopback port, authorizing `publicKey` for root, or null when sshd is
 * not installed or this is not root. Resolves once the port accepts connections.
 */
async function startOpenSshd(publicKey: string): Promise<{ port: number; stop: () => void } | null> {
  const sshd = "/usr/sbin/sshd";
  if (!existsSync(sshd) || process.getuid?.() !== 0) return null;
  const dir = path.join(work, "sshd");
  mkdirSync(dir);
  mkdirSync("/run/sshd", { recursive: true }); // sshd's privilege separation directory
  execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", path.join(dir, "host_ed25519")]);
  writeFileSync(path.join(dir, "authorized_keys"), publicKey);
  const port = await freePort();
  const config = [
    `Port ${port}`,
    "ListenAddress 127.0.0.1",
    `HostKey ${path.join(dir, "host_ed25519")}`,
    `PidFile ${path.join(dir, "sshd.pid")}`,
    `AuthorizedKeysFile ${path.join(dir, "authorized_keys")}`,
    "StrictModes no",
    "PermitRootLogin prohibit-password",
    "PasswordAuthentication no",
    "KbdInteractiveAuthentication no",
    "UsePAM no",
  ].join("\n");
  writeFileSync(path.join(dir, "sshd_config"), `${config}\n`);
  const child: ChildProcess = spawn(sshd, ["-D", "-e", "-f", path.join(dir, "sshd_config")], { stdio: "ignore" });
  for (let i = 0; i < 100; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => (socket.end(), resolve(true)));
      socket.on("error", () => resolve(false));
    });
    if (up) return { port, stop: () => child.kill() };
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill();
  return null;
}

async function main() {
  const source = await ensureRepository();
  const { getDb } = await import("@/server/db");
  const { signUp } = await import("@/server/services/users/sign-up");
  const { createToken } = await import("@/server/services/tokens/manage-tokens");
  const { createRepository } = await import("@/server/services/repos/create-repository");
  const { addSshKey } = await import("@/server/services/ssh-keys/manage-keys");
  const { SCOPES } = await import("@/server/auth/scopes");
  const { startSshServer } = await import("@/server/ssh/server");
  const { handleGitHttp } = await import("@/server/http/git/smart-http");
  const { startServer } = await import("../test/helpers");
  const db = await getDb();
  const user = await signUp(db, { username: "bench", password: "password123" });
  const { token } = await createToken(db, user.id, { name: "bench" });
  const repo = await createRepository(db, { user: { ...user, isAdmin: false }, via: "session", scopes: SCOPES }, { name: "express" });
  rmSync(repo.gitDir, { recursive: true, force: true });
  cpSync(source, repo.gitDir, { recursive: true });

  const key = path.join(work, "id_ed25519");
  execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "bench", "-f", key]);
  await addSshKey(db, user.id, { title: "bench", publicKey: readFileSync(`${key}.pub`, "utf8") });
  const ssh = await startSshServer({ port: 0, host: "127.0.0.1", hostKeyDir: path.join(work, "hostkeys") });
  const sshEnv = {
    GIT_SSH_COMMAND: `ssh -i ${key} -o IdentitiesOnly=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR ${SSH_OPTS} -p ${ssh.port}`,
  };
  const sshUrl = `ssh://git@127.0.0.1:${ssh.port}/bench/express.git`;

  // git smart HTTP for reference: the same server the integration tests use (test/helpers.ts)
  const server = await startServer({ git: (req, o, r, rest) => handleGitHttp(req, o, r, rest) });
  const httpUrl = `http://bench:${token}@${new URL(server.url).host}/bench/express.git`;

  const commits = (await gitOk(["--git-dir", repo.gitDir, "rev-list", "--count", "--all"])).trim();
  const fileCount = (await gitOk(["--git-dir", repo.gitDir, "ls-tree", "-r", "--name-only", "HEAD"])).trim().split("\n").length;
  console.log(
    `repository: ${commits} commits, ${fileCount} files, pack ${(packBytes(repo.gitDir) / 1024 / 1024).toFixed(1)} MB; ${(await gitOk(["--version"])).trim()}; ${execFileSync("ssh", ["-V"], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim() || "ssh"}; node ${process.version}; ${os.cpus().length} CPUs; load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );
  const head = (await gitOk(["--git-dir", repo.gitDir, "rev-parse", "HEAD"])).trim();
  const timeClone = async (from: string, extra: string[], env?: Record<string, string>): Promise<number> => {
    const dest = mkdtempSync(path.join(work, "clone-"));
    rmSync(dest, { recursive: true });
    const t0 = process.hrtime.bigint();
    await gitOk(["clone", "--quiet", ...extra, from, dest], { env });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if ((await gitOk(["rev-parse", "HEAD"], { cwd: dest })).trim() !== head) throw new Error("clone has a different HEAD");
    rmSync(dest, { recursive: true, force: true });
    return ms;
  };
  // warm-up: the database client, auth code, page cache
  await timeClone(sshUrl, [], sshEnv);
  const openSshd = await startOpenSshd(readFileSync(`${key}.pub`, "utf8"));
  const sshdEnv = openSshd && { GIT_SSH_COMMAND: sshEnv.GIT_SSH_COMMAND.replace(/-p \d+$/, `-p ${openSshd.port}`) };
  const sshdUrl = openSshd && `ssh://root@127.0.0.1:${openSshd.port}${repo.gitDir}`;
  if (sshdUrl) await timeClone(sshdUrl, [], sshdEnv!);

  const local: number[] = [];
  const overSsh: number[] = [];
  const overHttp: number[] = [];
  const overSshd: number[] = [];
  // CPU time of this process (the servers: ssh2's crypto and stream copying, or the HTTP handler) per clone
  const cpu = { ssh: [] as number[], http: [] as number[] };
  const onCpu = async (into: number[], work: () => Promise<number>) => {
    const before = process.cpuUsage();
    const ms = await work();
    const used = process.cpuUsage(before);
    into.push((used.user + used.system) / 1000);
    return ms;
  };
  for (let run = 0; run < RUNS; run++) {
    local.push(await timeClone(repo.gitDir, ["--no-local"]));
    overSsh.push(await onCpu(cpu.ssh, () => timeClone(sshUrl, [], sshEnv)));
    overHttp.push(await onCpu(cpu.http, () => timeClone(httpUrl, [])));
    if (sshdUrl) overSshd.push(await timeClone(sshdUrl, [], sshdEnv!));
  }
  // the fixed cost of a connection (handshake, authentication, authorization, ref advertisement): ls-remote
  const lsRemote = async (from: string, env?: Record<string, string>) => {
    const t0 = process.hrtime.bigint();
    await gitOk(["ls-remote", from], { env });
    return Number(process.hrtime.bigint() - t0) / 1e6;
  };
  const ls = { local: [] as number[], ssh: [] as number[], http: [] as number[], sshd: [] as number[] };
  for (let run = 0; run < RUNS; run++) {
    ls.local.push(await lsRemote(repo.gitDir));
    ls.ssh.push(await lsRemote(sshUrl, sshEnv));
    ls.http.push(await lsRemote(httpUrl));
    if (sshdUrl) ls.sshd.push(await lsRemote(sshdUrl, sshdEnv!));
  }
  const best = (xs: number[]) => Math.min(...xs);
  console.log(
    `ls-remote (connection cost): local ${best(ls.local).toFixed(0)} ms, SSH ${best(ls.ssh).toFixed(0)} ms, HTTP ${best(ls.http).toFixed(0)} ms` +
      (ls.sshd.length ? `, OpenSSH sshd ${best(ls.sshd).toFixed(0)} ms` : ""),
  );
  const fmt = (xs: number[]) => `best ${best(xs).toFixed(0)} ms (runs ${xs.map((x) => x.toFixed(0)).join(", ")})`;
  const ratio = best(overSsh) / best(local);
  console.log(`git clone --no-local: ${fmt(local)}`);
  console.log(`git clone over SSH:   ${fmt(overSsh)}`);
  console.log(`git clone over HTTP:  ${fmt(overHttp)} (reference: ${(best(overHttp) / best(local)).toFixed(2)}×)`);
  console.log(
    `server CPU per clone: SSH ${Math.min(...cpu.ssh).toFixed(0)} ms, HTTP ${Math.min(...cpu.http).toFixed(0)} ms (this process)`,
  );
  if (overSshd.length) {
    console.log(
      `git clone over OpenSSH sshd (the SSH transport's floor): ${fmt(overSshd)} (${(best(overSshd) / best(local)).toFixed(2)}× local)`,
    );
    console.log(`svc SSH / OpenSSH sshd = ${(best(overSsh) / best(overSshd)).toFixed(2)}×`);
  } else console.log("OpenSSH sshd: not measured (needs /usr/sbin/sshd and root)");
  console.log(`SSH / local = ${ratio.toFixed(2)}× (goal ≤ ${GOAL}×) ${ratio <= GOAL ? "OK" : "OVER GOAL"}`);
  openSshd?.stop();
  await ssh.close();
  await server.close();
  rmSync(work, { recursive: true, force: true });
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
