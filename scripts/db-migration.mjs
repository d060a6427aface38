// Makes a migration for both providers: `node scripts/db-migration.mjs <name>`.
// `prisma migrate dev` does not work with the WASM engine (STACK-NOTES.md), so each migration is
// the `prisma migrate diff` between the schema saved with the newest migration and the current one.
// Writes prisma/migrations/<ts>_<name>/ and prisma/postgresql/migrations/<ts>_<name>/, each with
// migration.sql and a copy of the schema it migrates to (schema.prisma).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, copyFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { writePostgresSchema } from "./prisma-schemas.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("usage: node scripts/db-migration.mjs <name: lowercase letters, digits, _>");
  process.exit(2);
}
writePostgresSchema();
const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
const prisma = path.join(root, "node_modules/prisma/build/index.js");
const targets = [
  { dir: "prisma/migrations", schema: "prisma/schema.prisma", config: "prisma.config.ts" },
  { dir: "prisma/postgresql/migrations", schema: "prisma/postgresql/schema.prisma", config: "prisma/postgresql/prisma.config.ts" },
];
mkdirSync(path.join(root, "data"), { recursive: true });
for (const t of targets) {
  const dir = path.join(root, t.dir);
  mkdirSync(dir, { recursive: true });
  const previous = readdirSync(dir)
    .filter((d) => /^\d{14}_/.test(d))
    .sort()
    .at(-1);
  const from = previous ? ["--from-schema-datamodel", path.join(dir, previous, "schema.prisma")] : ["--from-empty"];
  const sql = execFileSync(
    process.execPath,
    [prisma, "migrate", "diff", "--config", t.config, ...from, "--to-schema-datamodel", t.schema, "--script"],
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
  copyFileSync(path.join(root, t.schema), path.join(out, "schema.prisma"));
  console.log("wrote", path.relative(root, out));
}
