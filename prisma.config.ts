// Prisma CLI configuration (SQLite). Uses the bundled WASM schema engine through a driver adapter,
// so the CLI never downloads an engine binary (docs/data.md "Migrations"). The runtime does not use this file.
import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";

const url = process.env.DATABASE_URL?.startsWith("file:")
  ? process.env.DATABASE_URL
  : `file:${path.resolve(process.env.DATA_DIR ?? "data", "svc.db")}`;

export default defineConfig({
  schema: path.join(import.meta.dirname, "prisma", "schema.prisma"),
  migrations: { path: path.join(import.meta.dirname, "prisma", "migrations") },
  engine: "js",
  experimental: { adapter: true },
  adapter: async () => new PrismaBetterSQLite3({ url }),
});
