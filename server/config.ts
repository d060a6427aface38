/**
 * Run-time configuration, read once from the environment (README "Configuration").
 * Secrets read here are handed to the code that needs them; nothing is written back to process.env.
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { randomBytes } from "node:crypto";
import path from "node:path";

export interface Config {
  /** Absolute directory holding the SQLite file, the repositories and generated secrets. */
  dataDir: string;
  /** `file:<absolute path>` for SQLite or a `postgres://` / `postgresql://` URL. */
  databaseUrl: string;
  provider: "sqlite" | "postgresql";
  /** Absolute directory of the svc package (migrations are read from here). */
  appRoot: string;
  /** Public base URL, e.g. http://localhost:3000 (clone URLs, next-auth). */
  publicUrl: string;
  github?: { clientId: string; clientSecret: string };
  /**
   * METRICS_TOKEN: the bearer token of `GET /api/metrics` (server/http/metrics.ts); unset = the
   * endpoint answers 404. At least 16 characters.
   */
  metricsToken?: string;
  /**
   * Outgoing email (docs/notifications.md "Email"): SMTP_URL (`smtp://user:pass@host:587`,
   * `smtps://…:465`) and SVC_MAIL_FROM (default `svc <svc@<public host>>`). Unset SMTP_URL: no email.
   */
  mail?: { smtpUrl: string; from: string };
  /**
   * Git LFS limits (docs/lfs.md "Limits"), in bytes: `quotaBytes` is a repository's default LFS
   * quota (SVC_LFS_QUOTA_MB, default 10240 MB; Repository.lfsQuotaBytes overrides it per
   * repository), `maxObjectBytes` the largest single object accepted (SVC_LFS_MAX_OBJECT_MB,
   * default 5120 MB). A value that is not a positive integer falls back to the default.
   */
  lfs: { quotaBytes: number; maxObjectBytes: number };
  /**
   * Single sign-on through OpenID Connect (docs/security.md "Single sign-on (OpenID Connect)"):
   * OIDC_ISSUER (the issuer URL, exactly as the provider's discovery document names it),
   * OIDC_CLIENT_ID, OIDC_CLIENT_SECRET; OIDC_SCOPES (default "openid profile email"; "openid" is
   * added when missing) and OIDC_NAME (the button's "Sign in with <name>", default "Single
   * sign-on"). Unset unless the first three are all set.
   */
  oidc?: { issuer: string; clientId: string; clientSecret: string; scopes: string; name: string };
  /** OIDC_ONLY=1 (with `oidc` set): password sign-in and sign-up are refused; only single sign-on signs in. */
  oidcOnly: boolean;
}

/** `process.env[name]` as a positive whole number of MB converted to bytes, or `fallbackMb` MB. */
function megabytesFromEnv(name: string, fallbackMb: number): number {
  const raw = process.env[name]?.trim();
  const mb = raw && /^[1-9][0-9]{0,9}$/.test(raw) ? Number(raw) : fallbackMb;
  return mb * 1024 * 1024;
}

/** Shortest METRICS_TOKEN accepted (characters): a guessable scrape token would expose the metrics. */
export const MIN_METRICS_TOKEN_LENGTH = 16;

let cached: Config | undefined;

/**
 * The configuration for this process. Environment: DATA_DIR, DATABASE_URL, NEXTAUTH_URL, PORT,
 * SVC_APP_ROOT, GITHUB_ID, GITHUB_SECRET, METRICS_TOKEN, SMTP_URL, SVC_MAIL_FROM, SVC_LFS_QUOTA_MB,
 * SVC_LFS_MAX_OBJECT_MB, OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, OIDC_SCOPES, OIDC_NAME, OIDC_ONLY.
 *
 * The server (scripts/start.mjs), the CLI (bin/svc.mjs) and `next dev` resolve the database the
 * same way: DATA_DIR (relative to the current directory) or else `<appRoot>/data`, the folder
 * `npm start` uses (docs/architecture.md "How svc starts, finds its data and tests itself"). The
 * app root is SVC_APP_ROOT (set by both launchers) or the current directory.
 *
 * Build note (docs/architecture.md, "Build tracing"): Next's file tracer follows `path` calls it
 * can evaluate. `path.resolve(process.cwd())` would evaluate to the project folder itself, so every
 * server route would trace the whole project (tests, docs, e2e…) and the build would print a
 * warning per call. The app root is therefore a plain string (no path call: the tracer then follows
 * only what is read from it, the migrations), and paths built from DATA_DIR / DATABASE_URL — user
 * data, never part of the app — are marked for the tracer to skip.
 * @throws Error when DATABASE_URL has another scheme than file: or postgres(ql):, METRICS_TOKEN
 *   is set but shorter than MIN_METRICS_TOKEN_LENGTH, SMTP_URL is not an smtp(s):// URL, or
 *   OIDC_ISSUER is not an http(s) URL
 */
export function getConfig(): Config {
  if (cached) return cached;
  const appRoot = process.env.SVC_APP_ROOT || process.cwd();
  const dataDir = process.env.DATA_DIR
    ? path.resolve(/* turbopackIgnore: true */ process.env.DATA_DIR)
    : path.join(/* turbopackIgnore: true */ appRoot, "data");
  const raw = process.env.DATABASE_URL?.trim();
  let databaseUrl: string;
  let provider: Config["provider"];
  if (raw && /^postgres(ql)?:\/\//.test(raw)) {
    databaseUrl = raw;
    provider = "postgresql";
  } else if (raw && raw.startsWith("file:")) {
    databaseUrl = `file:${path.resolve(/* turbopackIgnore: true */ raw.slice("file:".length))}`;
    provider = "sqlite";
  } else if (raw) {
    throw new Error(`DATABASE_URL must start with file: or postgres:// (got "${raw.split(":")[0]}:…")`);
  } else {
    databaseUrl = `file:${path.join(/* turbopackIgnore: true */ dataDir, "svc.db")}`;
    provider = "sqlite";
  }
  const metricsToken = process.env.METRICS_TOKEN?.trim() || undefined;
  if (metricsToken && metricsToken.length < MIN_METRICS_TOKEN_LENGTH)
    throw new Error(`METRICS_TOKEN must be at least ${MIN_METRICS_TOKEN_LENGTH} characters (e.g. \`openssl rand -hex 32\`)`);
  const port = process.env.PORT || "3000";
  const publicUrl = (process.env.NEXTAUTH_URL || `http://localhost:${port}`).replace(/\/+$/, "");
  const smtpUrl = process.env.SMTP_URL?.trim() || undefined;
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl)) throw new Error("SMTP_URL must start with smtp:// or smtps://");
  const oidc = oidcFromEnv(process.env);
  cached = {
    dataDir,
    databaseUrl,
    provider,
    appRoot,
    publicUrl,
    github:
      process.env.GITHUB_ID && process.env.GITHUB_SECRET
        ? { clientId: process.env.GITHUB_ID, clientSecret: process.env.GITHUB_SECRET }
        : undefined,
    metricsToken,
    mail: smtpUrl ? { smtpUrl, from: process.env.SVC_MAIL_FROM?.trim() || `svc <svc@${new URL(publicUrl).hostname}>` } : undefined,
    lfs: { quotaBytes: megabytesFromEnv("SVC_LFS_QUOTA_MB", 10240), maxObjectBytes: megabytesFromEnv("SVC_LFS_MAX_OBJECT_MB", 5120) },
    oidc,
    oidcOnly: Boolean(oidc) && process.env.OIDC_ONLY?.trim() === "1",
  };
  return cached;
}

/**
 * The OpenID Connect settings (Config.oidc) from `env`, or undefined when OIDC_ISSUER,
 * OIDC_CLIENT_ID or OIDC_CLIENT_SECRET is missing.
 * @throws Error when OIDC_ISSUER is not an http(s) URL
 */
export function oidcFromEnv(env: Record<string, string | undefined>): Config["oidc"] {
  const issuer = env.OIDC_ISSUER?.trim();
  const clientId = env.OIDC_CLIENT_ID?.trim();
  const clientSecret = env.OIDC_CLIENT_SECRET?.trim();
  if (!issuer || !clientId || !clientSecret) return undefined;
  if (!/^https?:\/\/[^/]/.test(issuer)) throw new Error("OIDC_ISSUER must be an http:// or https:// URL (the provider's issuer)");
  const words = (env.OIDC_SCOPES?.trim() || "openid profile email").split(/\s+/);
  const scopes = (words.includes("openid") ? words : ["openid", ...words]).join(" ");
  return { issuer, clientId, clientSecret, scopes, name: env.OIDC_NAME?.trim().slice(0, 60) || "Single sign-on" };
}

/** Forgets the cached configuration (tests that change the environment). */
export function resetConfig(): void {
  cached = undefined;
}

/**
 * The secret that signs and encrypts sessions: NEXTAUTH_SECRET, or else a random 32-byte secret
 * generated once into DATA_DIR/auth-secret (mode 0600) so a fresh install needs no set-up.
 */
export function getAuthSecret(): string {
  const fromEnv = process.env.NEXTAUTH_SECRET;
  if (fromEnv) return fromEnv;
  const { dataDir } = getConfig();
  const file = path.join(/* turbopackIgnore: true */ dataDir, "auth-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  try {
    writeFileSync(file, secret + "\n", { mode: 0o600, flag: "wx" });
  } catch {
    // another process wrote it first
  }
  return readFileSync(file, "utf8").trim();
}

/**
 * Most connections each of one process's PostgreSQL pools opens (docs/data.md "Connections"):
 * `prisma` — Prisma's (models, transactions; SVC_DB_POOL_MAX, 1–1000, default 10); `reader` — the
 * hot read path's (server/db/read.ts; SVC_DB_READER_POOL_MAX, 0–1000, default 5; 0 = no pool of
 * its own, hot reads go through Prisma's); `jobs` — pg-boss's (SVC_JOB_POOL_MAX, 1–1000, default
 * 4). A value that is not an integer in its range falls back to the default. Pools open their
 * connections on demand and close idle ones, so these are ceilings: a process holds at most their
 * sum (19 by default) plus one while it migrates at start. SQLite ignores them.
 */
export interface PostgresPoolSizes {
  prisma: number;
  reader: number;
  jobs: number;
}

/** The pool sizes (PostgresPoolSizes) from `env`. */
export function postgresPoolSizesFromEnv(env: Record<string, string | undefined> = process.env): PostgresPoolSizes {
  const read = (name: string, min: number, fallback: number): number => {
    const raw = env[name]?.trim();
    const n = raw && /^\d{1,4}$/.test(raw) ? Number(raw) : NaN;
    return n >= min && n <= 1000 ? n : fallback;
  };
  return { prisma: read("SVC_DB_POOL_MAX", 1, 10), reader: read("SVC_DB_READER_POOL_MAX", 0, 5), jobs: read("SVC_JOB_POOL_MAX", 1, 4) };
}

/**
 * Whether the PostgreSQL URL `url` names a PgBouncer in transaction (or statement) pooling mode:
 * its query has `pgbouncer=true`, Prisma's own spelling. svc then runs no named prepared statement
 * (a pooler hands each transaction a different server connection, where the name is unknown:
 * docs/data.md "PgBouncer").
 */
export function behindPgBouncer(url: string): boolean {
  try {
    return new URL(url).searchParams.get("pgbouncer") === "true";
  } catch {
    return false;
  }
}
