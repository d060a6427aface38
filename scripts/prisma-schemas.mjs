// Derives prisma/postgresql/schema.prisma from prisma/schema.prisma (the SQLite source):
// provider, url and generator output change; models stay identical. Run by postinstall
// (scripts/prisma-generate.mjs) and by scripts/db-migration.mjs; the derived file is not committed.
// One schema cannot serve both providers: a generated Prisma client is tied to its provider.
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Returns the PostgreSQL schema text for a SQLite schema text. */
export function derivePostgresSchema(sqliteSchema) {
  const out = sqliteSchema
    .replace('provider = "sqlite"', 'provider = "postgresql"')
    .replace(/url\s*=\s*"file:[^"]*"/, 'url      = "postgresql://unused@localhost/unused"')
    .replace('output     = "../generated/prisma"', 'output     = "../../generated/prisma-pg"');
  if (out === sqliteSchema) throw new Error("prisma-schemas: nothing replaced; did schema.prisma change shape?");
  return "// GENERATED from prisma/schema.prisma by scripts/prisma-schemas.mjs. Do not edit.\n" + out;
}

export function writePostgresSchema() {
  const src = readFileSync(path.join(root, "prisma/schema.prisma"), "utf8");
  mkdirSync(path.join(root, "prisma/postgresql"), { recursive: true });
  const target = path.join(root, "prisma/postgresql/schema.prisma");
  writeFileSync(target, derivePostgresSchema(src));
  return target;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log("wrote", path.relative(root, writePostgresSchema()));
}
