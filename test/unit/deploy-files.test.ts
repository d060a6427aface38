/**
 * The deployment files of deploy/ (docs/deploy.md): the systemd units, compose.yaml, the Caddyfile
 * and the Dockerfile. Each is checked by its tool where this machine has it — `systemd-analyze
 * verify` and `security --offline`, `docker compose config`, `caddy adapt` — and always by reading
 * it: the facts svc depends on (a shared DATA_DIR, a per-process SVC_RUN_DIR, readiness health
 * checks, a stop timeout longer than svc's own stop, the hardening options, settings svc reads).
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { JOBS_STOP_MS, SHUTDOWN_GRACE_MS } from "@/scripts/server.mjs";

const ROOT = path.resolve(import.meta.dirname, "../..");
const DEPLOY = path.join(ROOT, "deploy");
const tmp = mkdtempSync(path.join(os.tmpdir(), "svc-deploy-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const read = (name: string) => readFileSync(path.join(DEPLOY, name), "utf8");
/** Whether `cmd args` runs and exits 0 (the tool is there). */
const has = (cmd: string, ...args: string[]) => spawnSync(cmd, args, { encoding: "utf8" }).status === 0;
/** The longest svc's stop takes after SIGTERM before it exits by itself (ms). */
const STOP_MS = SHUTDOWN_GRACE_MS + JOBS_STOP_MS;

/** A systemd duration ("75s", "2min", "90") in ms. */
function durationMs(value: string): number {
  const m = /^(\d+)\s*(ms|s|sec|min|m)?$/.exec(value.trim());
  if (!m) throw new Error(`unexpected duration ${value}`);
  return Number(m[1]) * ({ ms: 1, min: 60_000, m: 60_000 }[m[2] as "ms" | "min" | "m"] ?? 1000);
}

/** A unit file as section → key → values (a key may repeat). */
function parseUnit(text: string): Record<string, Record<string, string[]>> {
  const unit: Record<string, Record<string, string[]>> = {};
  let section = "";
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (!line || line.startsWith("#") || line.startsWith(";")) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header) section = header[1];
    else {
      const eq = line.indexOf("=");
      expect(eq, `not key=value: ${line}`).toBeGreaterThan(0);
      const key = line.slice(0, eq).trim();
      ((unit[section] ??= {})[key] ??= []).push(line.slice(eq + 1).trim());
    }
  }
  return unit;
}

/** Names of svc's settings: the README's configuration table. */
const SETTINGS = new Set([...readFileSync(path.join(ROOT, "README.md"), "utf8").matchAll(/^\| `([A-Z0-9_]+)`/gm)].map((m) => m[1]));
/** Set by the launchers, not by users (scripts/start.mjs, server.mjs); still read by svc or Next. */
const LAUNCHER_SETTINGS = new Set(["NODE_ENV", "NEXT_TELEMETRY_DISABLED", "SVC_APP_ROOT"]);

/** Whether svc's code reads the variable `name` (server/, scripts/, cli/, lib/, instrumentation.ts). */
function readBySvc(name: string): boolean {
  const r = spawnSync(
    "grep",
    ["-rlw", "--include=*.ts", "--include=*.mjs", name, "server", "scripts", "cli", "lib", "instrumentation.ts"],
    {
      cwd: ROOT,
      encoding: "utf8",
    },
  );
  return r.status === 0 && r.stdout.trim() !== "";
}

/** Every variable given to svc must be one of its settings, and read by it (a typo sets nothing). */
function expectSvcSettings(names: string[]) {
  expect(names.length).toBeGreaterThan(0);
  for (const name of names) {
    expect(SETTINGS.has(name) || LAUNCHER_SETTINGS.has(name), `${name} is not in the README's configuration table`).toBe(true);
    expect(readBySvc(name), `svc does not read ${name}`).toBe(true);
  }
}

/** KEY=value lines of an env file, commented-out ones (`# KEY=`) included. */
const envFileKeys = (text: string) => [...text.matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]);

describe.each(["svc.service", "svc@.service"])("deploy/%s", (name) => {
  const text = read(name);
  const unit = parseUnit(text);
  const service = unit.Service;
  const one = (key: string) => {
    expect(service[key], `${key}= in [Service]`).toHaveLength(1);
    return service[key][0];
  };
  const environment = Object.fromEntries(
    (service.Environment ?? []).flatMap((v) => v.split(/\s+/)).map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]),
  );

  it("verifies with systemd-analyze (ExecStart and EnvironmentFile pointed at this checkout), hardened to OK or better", () => {
    const file = path.join(tmp, name);
    const envFile = path.join(tmp, `${name}.env`);
    copyFileSync(path.join(DEPLOY, "svc.env.example"), envFile);
    writeFileSync(
      file,
      text.replaceAll("/usr/bin/node", process.execPath).replaceAll("/etc/svc/svc.env", envFile).replaceAll("/opt/svc", ROOT),
    );
    // a template is verified as an instance of it
    const target = name.includes("@") ? path.join(tmp, name.replace("@", "@3001")) : file;
    if (target !== file) symlinkSync(file, target);
    if (!has("systemd-analyze", "--version")) {
      // no systemd here: what verify would refuse first is checked by hand
      expect(existsSync(process.execPath)).toBe(true);
      return;
    }
    const verify = spawnSync("systemd-analyze", ["verify", target], { encoding: "utf8" });
    // verify exits 0 on unknown keys and bad values, and only warns: the warnings name the file
    const warnings = verify.stderr.split("\n").filter((l) => l.includes(path.basename(file)) || l.includes(path.basename(target)));
    expect({ status: verify.status, warnings }).toEqual({ status: 0, warnings: [] });
    const security = spawnSync("systemd-analyze", ["security", "--offline=yes", "--no-pager", target], { encoding: "utf8" });
    if (security.status === 0 || /Overall exposure level/.test(security.stdout)) {
      const level = /Overall exposure level for .*: ([\d.]+) (\w+)/.exec(security.stdout);
      expect(level, security.stdout.slice(-500)).not.toBeNull();
      expect(["SAFE", "OK"]).toContain(level![2]);
    } else expect(security.stderr).toMatch(/offline|unrecognized|unknown/i); // systemd older than 250
  });

  it("runs svc's server as user svc from the environment file, restarts on failure, and outwaits svc's own stop", () => {
    const exec = one("ExecStart").split(/\s+/);
    expect(exec[0]).toBe("/usr/bin/node");
    expect(exec[1]).toBe("/opt/svc/scripts/server.mjs");
    expect(existsSync(path.join(ROOT, "scripts/server.mjs"))).toBe(true);
    expect(one("User")).toBe("svc");
    expect(one("EnvironmentFile")).toBe("/etc/svc/svc.env");
    expect(one("Restart")).toBe("on-failure");
    // SIGTERM to svc alone (it stops its git processes); SIGKILL to the rest only after the timeout
    expect(one("KillMode")).toBe("mixed");
    expect(durationMs(one("TimeoutStopSec"))).toBeGreaterThan(STOP_MS);
  });

  it("is hardened: read-only system but DATA_DIR, private /tmp, no new privileges, its own run directory", () => {
    expect(one("NoNewPrivileges")).toBe("yes");
    expect(one("ProtectSystem")).toBe("strict");
    expect(one("PrivateTmp")).toBe("yes");
    expect(one("ProtectHome")).toBe("yes");
    expect(one("CapabilityBoundingSet")).toBe("");
    const writable = one("ReadWritePaths").split(/\s+/);
    expect(environment.DATA_DIR).toBe("/var/lib/svc");
    expect(writable).toContain(environment.DATA_DIR);
    expect(`/var/lib/${one("StateDirectory")}`).toBe(environment.DATA_DIR);
    // the push hook's sockets: this process's own directory under /run (%t), never DATA_DIR
    expect(environment.SVC_RUN_DIR).toBe(`%t/${one("RuntimeDirectory")}`);
    if (name.includes("@")) {
      expect(environment.PORT).toBe("%i");
      expect(environment.SVC_RUN_DIR).toContain("%i");
    }
    expectSvcSettings(Object.keys(environment));
  });
});

describe("deploy/compose.yaml", () => {
  const yaml = createRequire(import.meta.url)("js-yaml") as { load(text: string): unknown };
  type Service = {
    build?: { context: string; dockerfile: string };
    image?: string;
    env_file?: string | string[];
    environment?: Record<string, string>;
    volumes?: string[];
    depends_on?: Record<string, { condition: string }>;
    healthcheck?: { test: string[] };
    stop_grace_period?: string;
  };
  const compose = yaml.load(read("compose.yaml")) as { services: Record<string, Service>; volumes: Record<string, unknown> };
  const { svc1, svc2, postgres, redis, caddy } = compose.services;

  it("is valid for `docker compose config` where the compose plugin is installed", () => {
    expect(compose.services).toBeTruthy();
    if (!has("docker", "compose", "version")) return; // no compose plugin here: the structure below is still checked
    const dir = path.join(tmp, "compose");
    cpSync(DEPLOY, dir, { recursive: true });
    copyFileSync(path.join(DEPLOY, "svc.env.example"), path.join(dir, "svc.env"));
    copyFileSync(path.join(DEPLOY, "postgres.env.example"), path.join(dir, "postgres.env"));
    const r = spawnSync("docker", ["compose", "-f", path.join(dir, "compose.yaml"), "config", "--quiet"], { encoding: "utf8", cwd: dir });
    expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: "" });
  });

  it("runs two svc processes from deploy/Dockerfile sharing one DATA_DIR volume, each with its own SVC_RUN_DIR", () => {
    for (const svc of [svc1, svc2]) {
      expect(svc.build).toEqual({ context: "..", dockerfile: "deploy/Dockerfile" });
      const env = svc.environment!;
      const mounts = svc.volumes!.map((v) => v.split(":"));
      const data = mounts.find(([, target]) => target === env.DATA_DIR);
      expect(data, "a volume at DATA_DIR").toBeTruthy();
      expect(Object.keys(compose.volumes)).toContain(data![0]); // a named volume, the same for both
      expect(mounts.some(([, target]) => env.SVC_RUN_DIR.startsWith(target))).toBe(false);
      expect(env.TRUST_PROXY).toBe("1");
      expect(env.HOSTNAME).toBe("0.0.0.0");
      expect(env.REDIS_URL).toBe("redis://redis:6379");
      expect(svc.env_file).toBe("svc.env");
      expectSvcSettings(Object.keys(env));
    }
    expect(svc1.volumes).toEqual(svc2.volumes);
    expectSvcSettings(envFileKeys(read("svc.env.example")));
    expect(read("svc.env.example")).toMatch(/^DATABASE_URL=postgresql:\/\/svc:[^@]+@postgres:5432\/svc$/m);
    expect(envFileKeys(read("postgres.env.example"))).toEqual(["POSTGRES_PASSWORD"]);
  });

  it("starts svc after PostgreSQL and Redis are healthy, checks svc's readiness, and outwaits svc's own stop", () => {
    for (const svc of [svc1, svc2]) {
      expect(svc.depends_on).toEqual({ postgres: { condition: "service_healthy" }, redis: { condition: "service_healthy" } });
      expect(svc.healthcheck!.test.join(" ")).toContain("/api/ready");
      expect(durationMs(svc.stop_grace_period!)).toBeGreaterThan(STOP_MS);
    }
    expect(postgres.healthcheck!.test).toContain("pg_isready");
    expect(redis.healthcheck!.test.join(" ")).toContain("ping");
    expect(Object.keys(caddy.depends_on!)).toEqual(["svc1", "svc2"]);
    expect(caddy.volumes).toContain("./Caddyfile:/etc/caddy/Caddyfile:ro");
  });

  it("the Caddyfile balances svc1 and svc2, checking /api/ready, retrying a process that refuses", () => {
    const text = read("Caddyfile");
    let upstreams: string[];
    let healthUri: string | undefined;
    let tryDurationMs: number;
    if (has("caddy", "version")) {
      const r = spawnSync("caddy", ["adapt", "--config", path.join(DEPLOY, "Caddyfile"), "--adapter", "caddyfile"], { encoding: "utf8" });
      expect(r.status, r.stderr).toBe(0);
      const proxy = JSON.stringify(JSON.parse(r.stdout));
      const handler = JSON.parse(/\{"flush_interval"[^]*?"upstreams":\[[^\]]*\]\}/.exec(proxy)![0]) as {
        upstreams: { dial: string }[];
        health_checks: { active: { uri: string } };
        load_balancing: { try_duration: number };
      };
      upstreams = handler.upstreams.map((u) => u.dial);
      healthUri = handler.health_checks.active.uri;
      tryDurationMs = handler.load_balancing.try_duration / 1e6;
    } else {
      upstreams = /reverse_proxy\s+([^{]+)\{/.exec(text)![1].trim().split(/\s+/);
      healthUri = /^\s*health_uri\s+(\S+)/m.exec(text)?.[1];
      tryDurationMs = durationMs(/^\s*lb_try_duration\s+(\S+)/m.exec(text)![1]);
    }
    expect(upstreams).toEqual(["svc1:3000", "svc2:3000"]);
    expect(healthUri).toBe("/api/ready");
    expect(tryDurationMs).toBeGreaterThan(0);
  });
});

describe("deploy/Dockerfile", () => {
  // instructions with their continuation lines joined
  const lines = read("Dockerfile")
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"));
  const all = (word: string) => lines.filter((l) => l.startsWith(`${word} `)).map((l) => l.slice(word.length + 1).trim());
  const last = (word: string) => all(word).at(-1)!;

  it("builds on node:20-bookworm-slim, installs git, runs svc's server as a non-root user with DATA_DIR a volume", () => {
    expect(all("FROM").map((f) => f.split(/\s+/)[0])).toEqual(["node:20-bookworm-slim", "node:20-bookworm-slim"]);
    const runtime = lines.slice(lines.findLastIndex((l) => l.startsWith("FROM ")));
    expect(runtime.some((l) => l.startsWith("RUN ") && /apt-get install[^&]*\bgit\b/.test(l))).toBe(true);
    expect(lines.some((l) => l.startsWith("RUN ") && /npm ci/.test(l))).toBe(true);
    expect(lines.some((l) => l.startsWith("RUN ") && /scripts\/start\.mjs --build-only|npm run build/.test(l))).toBe(true);
    expect(["root", "0"]).not.toContain(last("USER"));
    const env = Object.fromEntries(all("ENV").flatMap((l) => [...l.matchAll(/([A-Z_]+)=(\S+)/g)].map((m) => [m[1], m[2]])));
    expect(JSON.parse(last("VOLUME"))).toEqual([env.DATA_DIR]);
    expect(env.HOSTNAME).toBe("0.0.0.0"); // Docker sets HOSTNAME to the container id; svc listens on it
    expectSvcSettings(Object.keys(env));
    expect(JSON.parse(last("CMD"))).toEqual(["node", "scripts/server.mjs"]);
    expect(JSON.parse(last("ENTRYPOINT"))[0]).toMatch(/tini$/);
    const ignored = read("Dockerfile.dockerignore").split("\n");
    for (const dir of ["node_modules", ".next", ".git", "data"]) expect(ignored).toContain(dir);
  });
});
