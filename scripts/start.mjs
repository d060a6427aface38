// `npm start`: runs svc on PORT (default 3000). Builds first when there is no build or the
// sources changed since the last one (a hash of tracked source files is kept in .next/svc-source-hash).
// `node scripts/start.mjs --build-only` builds when needed and exits (used by npm test).
// Data goes to DATA_DIR (default ./data); the SQLite database is created and migrated on first use.
import { spawnSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const next = path.join(root, "node_modules/next/dist/bin/next");
const port = process.env.PORT || "3000";
const env = {
  ...process.env,
  NEXT_TELEMETRY_DISABLED: "1",
  SVC_APP_ROOT: root,
  NEXTAUTH_URL: process.env.NEXTAUTH_URL || `http://localhost:${port}`,
};

function sourceHash() {
  const h = createHash("sha256");
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      if (["node_modules", ".next", "data", ".git", "test-results", "playwright-report", "test", "e2e", "bench"].includes(name)) continue;
      const p = path.join(dir, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else if (/\.(tsx?|mjs|css|json|prisma)$/.test(name)) h.update(p).update(String(st.size)).update(String(st.mtimeMs));
    }
  };
  walk(root);
  return h.digest("hex");
}

const hashFile = path.join(root, ".next/svc-source-hash");
const hash = sourceHash();
const built = existsSync(path.join(root, ".next/BUILD_ID")) && existsSync(hashFile) && readFileSync(hashFile, "utf8") === hash;
if (!built || process.env.SVC_FORCE_BUILD === "1") {
  console.log("svc: building (first start or sources changed)…");
  const r = spawnSync(process.execPath, [next, "build"], { cwd: root, env, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
  writeFileSync(hashFile, hash);
}
if (process.argv.includes("--build-only")) process.exit(0);
console.log(`svc: listening on http://localhost:${port} (data in ${path.resolve(process.env.DATA_DIR || "data")})`);
const child = spawn(process.execPath, [next, "start", "-p", port, ...(process.env.HOSTNAME ? ["-H", process.env.HOSTNAME] : [])], { cwd: root, env, stdio: "inherit" });
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code) => process.exit(code ?? 0));
