// Prisma CLI configuration for PostgreSQL (used by scripts/db-migration.mjs for `migrate diff`). Its schema,
// prisma/postgresql/schema.prisma, is derived by scripts/prisma-schemas.mjs (postinstall).
// adapter-pg 6.19.3 cannot deserialize catalog column types (name, oid, ...) that the schema
// engine reads; pg-catalog-types.ts maps them to text for the CLI only (docs/data.md "Migrations").
import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaPg } from "@prisma/adapter-pg";
import { installCatalogTypeMapping } from "./pg-catalog-types";

const url = process.env.DATABASE_URL?.startsWith("postgres")
  ? process.env.DATABASE_URL
  : "postgresql://postgres@127.0.0.1:5432/postgres";

export default defineConfig({
  schema: path.join(import.meta.dirname, "schema.prisma"),
  migrations: { path: path.join(import.meta.dirname, "migrations") },
  engine: "js",
  experimental: { adapter: true },
  adapter: async () => {
    installCatalogTypeMapping();
    return new PrismaPg({ connectionString: url });
  },
});
