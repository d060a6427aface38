/**
 * When branches last moved, from the bare repository's reflogs (svc sets core.logAllRefUpdates,
 * so every push appends to logs/refs/heads/<branch>; git-config(1) core.logAllRefUpdates). The
 * file's modification time is the time of its branch's last update, which a push sets even when
 * the commits are old — unlike the tip's committer date. Reads directory entries and stats only;
 * never the reflog contents. Bounded: stops after `maxFiles` files.
 */
import { readdir, stat } from "node:fs/promises";
import path from "node:path";

export interface BranchUpdate {
  name: string;
  /** ms since the epoch */
  updatedAt: number;
}

/** Branches updated at or after `sinceMs` (ms since the epoch), newest first. Missing reflogs → []. */
export async function branchesUpdatedSince(gitDir: string, sinceMs: number, maxFiles = 5000): Promise<BranchUpdate[]> {
  const root = path.join(gitDir, "logs", "refs", "heads");
  const out: BranchUpdate[] = [];
  let seen = 0;
  const walk = async (dir: string, prefix: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (++seen > maxFiles) return;
      const full = path.join(dir, e.name);
      const name = prefix ? `${prefix}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(full, name);
      else if (e.isFile()) {
        const s = await stat(full).catch(() => null);
        if (s && s.mtimeMs >= sinceMs) out.push({ name, updatedAt: s.mtimeMs });
      }
    }
  };
  await walk(root, "");
  return out.sort((a, b) => b.updatedAt - a.updatedAt);
}
