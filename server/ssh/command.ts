/**
 * The only commands svc's SSH server runs (docs/ssh.md "Commands"): what git's ssh transport
 * sends — `git-upload-pack '<path>'` (fetch, clone), `git-receive-pack '<path>'` (push),
 * `git-upload-archive '<path>'` (git archive --remote) — parsed here, strictly and without a
 * shell. `<path>` is `owner/repo.git`, optionally with a leading `/` and without `.git`; git
 * quotes it in single quotes (it may also come bare). Nothing from the command reaches git as
 * an option: owner and name must be valid svc names.
 */
import { repoNameProblem, usernameProblem } from "@/lib/names";

export type SshGitService = "git-upload-pack" | "git-receive-pack" | "git-upload-archive";

export interface SshGitCommand {
  service: SshGitService;
  owner: string;
  name: string;
}

/** Longest command accepted, in characters. */
export const MAX_COMMAND_LENGTH = 1024;

const COMMAND = /^git[- ](upload-pack|receive-pack|upload-archive) +(?:'([^']*)'|([^\s'"\\]+))$/;

/**
 * Parses an exec request's command. Returns the service and repository, or a message for the
 * client (printed on stderr) naming what is wrong.
 */
export function parseGitCommand(command: string): SshGitCommand | { problem: string } {
  const refused = {
    problem:
      "svc serves only git over SSH (git-upload-pack, git-receive-pack, git-upload-archive '<owner>/<repo>.git'); this command is not allowed",
  };
  if (command.length > MAX_COMMAND_LENGTH) return refused;
  const m = COMMAND.exec(command.trim());
  if (!m) return refused;
  let path = m[2] ?? m[3] ?? "";
  if (path.startsWith("/")) path = path.slice(1);
  if (path.endsWith("/")) path = path.slice(0, -1);
  const parts = path.split("/");
  if (parts.length !== 2) return { problem: `the repository path must be <owner>/<repo>.git (got ${JSON.stringify(path.slice(0, 200))})` };
  const owner = parts[0]!;
  const name = parts[1]!.endsWith(".git") ? parts[1]!.slice(0, -4) : parts[1]!;
  if (usernameProblem(owner) || repoNameProblem(name))
    return { problem: `repository ${owner.slice(0, 100)}/${name.slice(0, 100)} not found` };
  return { service: `git-${m[1]}` as SshGitService, owner, name };
}

/** `git-lfs-authenticate '<owner>/<repo>.git' download|upload` (docs/lfs.md "Over SSH"). */
export interface SshLfsCommand {
  service: "git-lfs-authenticate";
  owner: string;
  name: string;
  operation: "download" | "upload";
}

const LFS_COMMAND = /^git-lfs-(authenticate|transfer) +(?:'([^']*)'|([^\s'"\\]+)) +(download|upload)$/;

/**
 * Parses the Git LFS commands git-lfs sends over SSH: `git-lfs-authenticate <path> <operation>`
 * (served: ./lfs-authenticate.ts) and `git-lfs-transfer <path> <operation>` (the SSH transfer
 * protocol, not served: refused with a message, so git-lfs falls back to git-lfs-authenticate).
 * Returns null when `command` is neither (the caller tries parseGitCommand).
 */
export function parseLfsCommand(command: string): SshLfsCommand | { problem: string } | null {
  if (command.length > MAX_COMMAND_LENGTH || !command.trim().startsWith("git-lfs-")) return null;
  const m = LFS_COMMAND.exec(command.trim());
  if (!m) return { problem: "usage: git-lfs-authenticate '<owner>/<repo>.git' download|upload" };
  if (m[1] === "transfer")
    return { problem: "svc does not serve git-lfs-transfer (the SSH transfer protocol): use git-lfs-authenticate and HTTP transfers" };
  const parsed = parseGitCommand(`git-upload-pack '${m[2] ?? m[3] ?? ""}'`);
  if ("problem" in parsed) return parsed;
  return { service: "git-lfs-authenticate", owner: parsed.owner, name: parsed.name, operation: m[4] as "download" | "upload" };
}
