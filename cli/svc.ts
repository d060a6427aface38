/**
 * The `svc` command line (spec "Token CLI"). Calls the same services as the web — no second
 * copy of the token or account logic. The `user` commands are the operator's way back into an
 * account (docs/security.md "Lost password or second factor"): whoever runs them can write the
 * server's database anyway, so they ask for no other proof.
 *
 *   svc token create <name> [-e|--expires <days>] [-s|--scopes <a,b>]
 *   svc token list | ls
 *   svc token revoke | delete | rm <id | id prefix | token prefix>
 *   svc token scopes
 *   svc user create <username> --password-stdin [--init] [--admin] [--name <name>] [--email <email>]
 *   svc user set-password <username> --password-stdin   (lost password; ends the user's sessions)
 *   svc user reset-two-factor <username>   (lost TOTP app, recovery codes and passkeys: removes them
 *                                           all, ends the user's sessions; docs/security.md)
 *   svc ai-keys reencrypt          (docs/ai.md "Encryption at rest and rotation")
 *
 * Database: the server's, resolved as the server does (cli/database.ts): DATABASE_URL, else
 * DATA_DIR/svc.db with DATA_DIR defaulting to the svc folder's data/. A database that does not
 * exist is refused (exit 2, naming it) unless `user create --init`. Token commands need
 * SVC_USER_ID (the acting user's id); missing → a message and exit code 2. A command that needs
 * --password-stdin without it → exit code 2.
 * Domain errors (an unknown user, a password that breaks the rule) → "svc: <message>" and exit
 * code 1. Every connection a command opened (the database, the rate limiter's and the live-update
 * bus's Redis connections with REDIS_URL) is closed when it ends, so the process exits by itself.
 */
import { Command, CommanderError } from "commander";
import { AppError } from "@/server/errors";
import { closeDb, type Db } from "@/server/db";
import { closeBus } from "@/server/events/bus";
import { closeRateLimits } from "@/server/rate-limit";
import { SCOPES, SCOPE_DESCRIPTIONS } from "@/server/auth/scopes";
import { createToken, listTokens, revokeToken, type TokenRecord } from "@/server/services/tokens/manage-tokens";
import { signUp } from "@/server/services/users/sign-up";
import { setPassword } from "@/server/services/users/set-password";
import { removeTwoFactor } from "@/server/services/two-factor/remove-two-factor";
import { reencryptRepoAiKeys } from "@/server/services/ai/repo-keys";
import { openDatabase, UsageError } from "./database";

async function tokenDb(): Promise<{ db: Db; userId: string }> {
  const userId = process.env.SVC_USER_ID?.trim();
  if (!userId) throw new UsageError("SVC_USER_ID must be set to your user id (svc user create prints it)");
  const db = await openDatabase();
  const user = await db.user.findUnique({ where: { id: userId }, select: { id: true } });
  if (!user) throw new AppError("NOT_FOUND", `SVC_USER_ID ${userId} is not a user of this database`);
  return { db, userId };
}

function when(iso: string | null, never: string): string {
  return iso ? iso.replace("T", " ").replace(/\.\d+Z$/, " UTC") : never;
}

function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i]))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

function formatList(tokens: TokenRecord[]): string {
  if (!tokens.length) return "No tokens. Create one with: svc token create <name>";
  return table([
    ["PREFIX", "NAME", "ID", "SCOPES", "LAST USED", "EXPIRES"],
    ...tokens.map((t) => [
      `svc_${t.prefix}`,
      t.name,
      t.id,
      t.scopes.join(","),
      when(t.lastUsedAt, "never"),
      t.expired ? `${when(t.expiresAt, "")} (expired)` : when(t.expiresAt, "never"),
    ]),
  ]);
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks)
    .toString("utf8")
    .replace(/\r?\n$/, "");
}

function program(out: (s: string) => void): Command {
  const cli = new Command("svc")
    .description("svc — self-hosted repository platform")
    .exitOverride()
    .configureOutput({ writeOut: out, writeErr: (s) => process.stderr.write(s) });
  const token = cli.command("token").description("manage personal access tokens");

  token
    .command("create <name>")
    .description("create a token and print its secret once")
    .option("-e, --expires <days>", "expire after this many days (default: never)")
    .option("-s, --scopes <scopes>", "comma-separated scopes", "repo:read,repo:write")
    .action(async (name: string, opts: { expires?: string; scopes: string }) => {
      if (opts.expires !== undefined && !/^\d+$/.test(opts.expires))
        throw new AppError("BAD_REQUEST", `--expires takes a whole number of days (got "${opts.expires}")`);
      const { db, userId } = await tokenDb();
      const t = await createToken(db, userId, {
        name,
        scopes: opts.scopes,
        expiresInDays: opts.expires === undefined ? undefined : Number(opts.expires),
      });
      out(
        `Created token "${t.name}" (id ${t.id})\n\n  ${t.token}\n\nScopes:  ${t.scopes.join(", ")}\nExpires: ${when(t.expiresAt, "never")}\nCopy it now: it is shown only once and cannot be retrieved later.\n`,
      );
    });

  token
    .command("list")
    .alias("ls")
    .description("list your tokens")
    .action(async () => {
      const { db, userId } = await tokenDb();
      out(formatList(await listTokens(db, userId)) + "\n");
    });

  token
    .command("revoke <id>")
    .aliases(["delete", "rm"])
    .description("revoke a token by full id, id prefix or token prefix")
    .action(async (ref: string) => {
      const { db, userId } = await tokenDb();
      const t = await revokeToken(db, userId, ref);
      out(`Revoked token "${t.name}" (svc_${t.prefix}, id ${t.id})\n`);
    });

  token
    .command("scopes")
    .description("list the available scopes")
    .action(() => {
      out(table(SCOPES.map((s) => [s, SCOPE_DESCRIPTIONS[s]])) + "\n");
    });

  const user = cli.command("user").description("manage accounts");
  user
    .command("create <username>")
    .description("create an account; prints the new user's id")
    .option("--password-stdin", "read the password from standard input")
    .option("--init", "create the database when it does not exist yet")
    .option("--admin", "make the user a site administrator")
    .option("--name <name>", "display name")
    .option("--email <email>", "email address")
    .action(async (username: string, opts: { passwordStdin?: boolean; init?: boolean; admin?: boolean; name?: string; email?: string }) => {
      if (!opts.passwordStdin) throw new UsageError("--password-stdin is required (the password is never taken as an argument)");
      const db = await openDatabase({ init: opts.init });
      const password = await readStdin();
      const created = await signUp(db, { username, password, name: opts.name, email: opts.email }, { isAdmin: Boolean(opts.admin) });
      out(created.id + "\n");
    });

  user
    .command("set-password <username>")
    .description("set a new password for an account (lost password) and end all of its sessions")
    .option("--password-stdin", "read the new password from standard input")
    .action(async (username: string, opts: { passwordStdin?: boolean }) => {
      if (!opts.passwordStdin) throw new UsageError("--password-stdin is required (the password is never taken as an argument)");
      const db = await openDatabase();
      const r = await setPassword(db, username, await readStdin());
      out(`Set the password of ${r.username}; ended ${r.sessionsEnded} session(s).\n`);
    });

  user
    .command("reset-two-factor <username>")
    .description("remove an account's TOTP, recovery codes and passkeys (lost second factor) and end all of its sessions")
    .action(async (username: string) => {
      const db = await openDatabase();
      const r = await removeTwoFactor(db, username);
      const passkeys = r.passkeysRemoved.length ? ` (${r.passkeysRemoved.map((n) => JSON.stringify(n)).join(", ")})` : "";
      out(
        `Reset two-factor authentication of ${r.username}:\n` +
          `  TOTP app:       ${r.totpRemoved ? "removed" : "none"}\n` +
          `  Recovery codes: ${r.recoveryCodesRemoved} removed\n` +
          `  Passkeys:       ${r.passkeysRemoved.length} removed${passkeys}\n` +
          `  Sessions:       ${r.sessionsEnded} ended\n` +
          `${r.username} now signs in with the password alone; organizations requiring two-factor authentication hold them back until they set it up again.\n`,
      );
    });

  const aiKeys = cli.command("ai-keys").description("repository AI keys (docs/ai.md)");
  aiKeys
    .command("reencrypt")
    .description("re-encrypt every repository AI key with the current secret (SVC_AI_KEY_SECRET rotation)")
    .action(async () => {
      const db = await openDatabase();
      const r = await reencryptRepoAiKeys(db);
      out(
        `Re-encrypted ${r.reencrypted} key(s); ${r.current} already on the current secret; ${r.unreadable} unreadable with the configured secrets (set those again in the repository's settings).\n`,
      );
    });
  return cli;
}

/** Runs the CLI with `argv` (without node and script); returns the exit code. */
export async function main(argv: string[], out: (s: string) => void = (s) => process.stdout.write(s)): Promise<number> {
  try {
    await program(out).parseAsync(argv, { from: "user" });
    return 0;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 2;
    if (e instanceof UsageError) {
      process.stderr.write(`svc: ${e.message}\n`);
      return 2;
    }
    if (e instanceof AppError) {
      process.stderr.write(`svc: ${e.message}\n`);
      return 1;
    }
    process.stderr.write(`svc: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  } finally {
    // an open connection keeps the process alive (REDIS_URL: the rate limiter's, for token create)
    await Promise.all([closeDb(), closeRateLimits(), closeBus()]);
  }
}
