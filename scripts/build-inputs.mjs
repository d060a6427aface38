// What `next build` reads, as one hash: scripts/start.mjs rebuilds only when it changes
// (docs/architecture.md "How svc starts, finds its data and tests itself":
// a needless second build costs ~30 s).
import { createHash } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";

/** Folders the build does not read (tests, docs, tools, data) or writes itself (.next). */
export const SKIP_DIRS = new Set([
  "node_modules",
  ".next",
  ".git",
  ".ci",
  "data",
  "test",
  "e2e",
  "bench",
  "docs",
  "scripts",
  "cli",
  "bin",
  "prisma",
  "test-results",
  "playwright-report",
  "tmp",
]);
/** Files the build does not read, or writes itself (next-env.d.ts appears during the first build). */
export const SKIP_FILE = /^(next-env\.d\.ts|.*\.tsbuildinfo|.*\.md|.*\.test\.tsx?)$/;

/**
 * sha256 (hex) over the relative path and content of every file under `root` the build reads.
 * Content, not mtime: a fresh checkout or an `npm install` that rewrites identical generated
 * files costs no build. Reads every such file (a few MB; ~0.1 s here).
 * @param {string} root the svc folder
 * @returns {string}
 */
export function buildInputsHash(root) {
  const h = createHash("sha256");
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) walk(p);
      } else if (entry.isFile() && !SKIP_FILE.test(entry.name)) {
        h.update(path.relative(root, p)).update("\0").update(readFileSync(p)).update("\0");
      }
    }
  };
  walk(root);
  return h.digest("hex");
}
