// `npm start`: runs svc on PORT (default 3000) with svc's own server (scripts/server.mjs).
// Builds first when there is no build or what the build reads changed since the last one.
// `node scripts/start.mjs --build-only` builds when needed and exits (used by npm test).
// Data goes to DATA_DIR (default ./data of this folder; a relative DATA_DIR is taken from the
// current directory); the SQLite database is created and migrated on first use.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildInputsHash } from "./build-inputs.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const nextBin = path.join(root, "node_modules/next/dist/bin/next");
const port = process.env.PORT || "3000";
// Resolved here, against the directory `npm start` was run from, before moving to the app folder.
process.env.DATA_DIR = path.resolve(process.env.DATA_DIR || path.join(root, "data"));
process.env.NEXT_TELEMETRY_DISABLED = "1";
process.env.SVC_APP_ROOT = root;
process.env.NEXTAUTH_URL ||= `http://localhost:${port}`;
process.chdir(root);

const hashFile = path.join(root, ".next/svc-source-hash");
const before = buildInputsHash(root);
const built = existsSync(path.join(root, ".next/BUILD_ID")) && existsSync(hashFile) && readFileSync(hashFile, "utf8") === before;
if (!built || process.env.SVC_FORCE_BUILD === "1") {
  console.log("svc: building (first start or sources changed)…");
  const started = Date.now();
  const r = spawnSync(process.execPath, [nextBin, "build"], { cwd: root, env: process.env, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
  // Taken again after the build: only when nothing changed meanwhile is the build known to match.
  const after = buildInputsHash(root);
  if (after === before) writeFileSync(hashFile, after);
  else {
    rmSync(hashFile, { force: true });
    console.log("svc: sources changed during the build; the next start builds again");
  }
  console.log(`svc: built in ${Math.round((Date.now() - started) / 1000)} s`);
}
if (process.argv.includes("--build-only")) process.exit(0);

const { main } = await import("./server.mjs");
await main(`(data in ${process.env.DATA_DIR})`);
