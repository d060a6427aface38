/** Where repositories live on disk: DATA_DIR/repos/<owner>/<name>.git (lower-cased; names are validated). */
import path from "node:path";
import { getConfig } from "@/server/config";

export function reposRoot(): string {
  return path.join(getConfig().dataDir, "repos");
}

/** Absolute path of the bare repository of owner/name. */
export function repoGitDir(owner: string, name: string): string {
  return path.join(reposRoot(), owner.toLowerCase(), `${name.toLowerCase()}.git`);
}
