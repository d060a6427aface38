/**
 * The git CLI as the benchmarks' client: an isolated configuration (no system config, `HOME` of
 * the bench's own, no prompts, `LANG=C`) and output collected in memory (clones run with -q).
 * Shared by bench/clone.bench.ts and bench/ssh-clone.bench.ts.
 */
import { spawn } from "node:child_process";
import { Readable } from "node:stream";

export interface GitRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface GitRunOptions {
  /** Working directory (default: the client's `cwd`). */
  cwd?: string;
  /** Lines piped to git's standard input (git fast-import streams). */
  input?: AsyncIterable<string>;
  /** Added to the isolated environment (GIT_SSH_COMMAND). */
  env?: Record<string, string>;
}

/**
 * A git client in `cwd` with `home` as HOME: `git(argv)` resolves with the exit code and output;
 * `gitOk(argv)` with standard output, and throws with git's standard error when it exits non-zero.
 */
export function gitClient(cwd: string, home: string) {
  const git = (argv: string[], opts: GitRunOptions = {}): Promise<GitRun> =>
    new Promise((resolve, reject) => {
      const child = spawn("git", argv, {
        cwd: opts.cwd ?? cwd,
        env: {
          PATH: process.env.PATH,
          HOME: home,
          LANG: "C",
          GIT_CONFIG_NOSYSTEM: "1",
          GIT_TERMINAL_PROMPT: "0",
          ...opts.env,
        } as Record<string, string | undefined> as NodeJS.ProcessEnv,
      });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on("data", (c: Buffer) => out.push(c));
      child.stderr.on("data", (c: Buffer) => err.push(c));
      child.on("error", reject);
      child.on("close", (code) =>
        resolve({ code: code ?? 1, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() }),
      );
      if (opts.input) Readable.from(opts.input).pipe(child.stdin);
      else child.stdin.end();
    });
  const gitOk = async (argv: string[], opts: GitRunOptions = {}): Promise<string> => {
    const r = await git(argv, opts);
    if (r.code !== 0) throw new Error(`git ${argv.join(" ")} failed: ${r.stderr}`);
    return r.stdout;
  };
  return { git, gitOk };
}
