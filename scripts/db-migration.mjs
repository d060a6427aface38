// Makes a migration for both providers: `node scripts/db-migration.mjs <name>`.
// `prisma migrate dev` does not work with Prisma 6.19.3's WASM schema engine (docs/data.md
// "Migrations"), so each migration is the `prisma migrate diff` between the snapshot
// prisma/migrations/schema.snapshot.prisma (the SQLite schema all committed migrations produce)
// and the current prisma/schema.prisma; the PostgreSQL side diffs the same two schemas, each
// derived by scripts/prisma-schemas.mjs. Writes prisma/migrations/<ts>_<name>/migration.sql and
// prisma/postgresql/migrations/<ts>_<name>/migration.sql, then updates the snapshot.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { derivePostgresSchema, writePostgresSchema } from "./prisma-schemas.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("usage: node scripts/db-migration.mjs <name: lowercase letters, digits, _>");
  process.exit(2);
}
const snapshot = path.join(root, "prisma/migrations/schema.snapshot.prisma");
const SNAPSHOT_HEADER =
  "// SNAPSHOT of prisma/schema.prisma as the committed migrations leave it; scripts/db-migration.mjs diffs\n" +
  '// against it and rewrites it. Do not edit (docs/data.md "Migrations").\n';
const hasMigrations = (dir) => existsSync(dir) && readdirSync(dir).some((d) => /^\d{14}_/.test(d));
if (!existsSync(snapshot) && hasMigrations(path.join(root, "prisma/migrations"))) {
  // Diffing from empty would write a second "create everything" migration.
  throw new Error("prisma/migrations/schema.snapshot.prisma is missing but migrations exist; restore it from git");
}
writePostgresSchema();
const tmp = mkdtempSync(path.join(os.tmpdir(), "svc-migration-"));
const pgSnapshot = path.join(tmp, "schema.snapshot.prisma");
if (existsSync(snapshot)) writeFileSync(pgSnapshot, derivePostgresSchema(readFileSync(snapshot, "utf8")));

const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
const prisma = path.join(root, "node_modules/prisma/build/index.js");
const targets = [
  { dir: "prisma/migrations", from: snapshot, to: "prisma/schema.prisma", config: "prisma.config.ts" },
  {
    dir: "prisma/postgresql/migrations",
    from: pgSnapshot,
    to: "prisma/postgresql/schema.prisma",
    config: "prisma/postgresql/prisma.config.ts",
  },
];
mkdirSync(path.join(root, "data"), { recursive: true });
let wrote = 0;
try {
  for (const t of targets) {
    const dir = path.join(root, t.dir);
    mkdirSync(dir, { recursive: true });
    const from = existsSync(t.from) ? ["--from-schema-datamodel", t.from] : ["--from-empty"];
    const sql = execFileSync(
      process.execPath,
      [prisma, "migrate", "diff", "--config", t.config, ...from, "--to-schema-datamodel", t.to, "--script"],
      { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
    );
    if (!/CREATE|ALTER|DROP/.test(sql)) {
      console.log(`${t.dir}: no changes`);
      continue;
    }
    const out = path.join(dir, `${stamp}_${name}`);
    if (existsSync(out)) throw new Error(`${out} exists`);
    mkdirSync(out);
    writeFileSync(path.join(out, "migration.sql"), sql);
    wrote++;
    console.log("wrote", path.relative(root, out));
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
if (wrote > 0) {
  writeFileSync(snapshot, SNAPSHOT_HEADER + readFileSync(path.join(root, "prisma/schema.prisma"), "utf8"));
  console.log("updated", path.relative(root, snapshot));
}
