// postinstall: derive the PostgreSQL schema and generate both Prisma clients (SQLite and
// PostgreSQL) into generated/. Both are needed: the runtime picks one by DATABASE_URL.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { writePostgresSchema } from "./prisma-schemas.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
writePostgresSchema();
const prisma = path.join(root, "node_modules/prisma/build/index.js");
for (const schema of ["prisma/schema.prisma", "prisma/postgresql/schema.prisma"]) {
  execFileSync(process.execPath, [prisma, "generate", "--schema", schema], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
  });
}
console.log("prisma clients generated (sqlite, postgresql)");
