// Debian's Chromium for the Playwright tests (never a downloaded browser): what `npm test` does
// when it is missing (docs/architecture.md "How svc starts, finds its data and tests itself": the
// README promises two commands, so the test command installs it itself when it can, and otherwise
// stops with the one command to run).
import { existsSync } from "node:fs";
import { spawnSync } from "node:child_process";

export const DEFAULT_CHROMIUM = "/usr/bin/chromium";
const INSTALL = ["apt-get update", "apt-get install -y chromium"];

/**
 * What to do about Chromium.
 * @param {{ path: string, custom: boolean, exists: boolean, isRoot: boolean, hasAptGet: boolean }} s
 *   path: where Playwright will look (CHROMIUM_PATH or /usr/bin/chromium); custom: CHROMIUM_PATH was set
 * @returns {{ action: "ok" } | { action: "install", commands: string[] } | { action: "stop", message: string }}
 *   "install": run `commands` (as root, with apt-get); "stop": print `message` (it ends with the command to run) and fail
 */
export function chromiumPlan({ path, custom, exists, isRoot, hasAptGet }) {
  if (exists) return { action: "ok" };
  if (custom)
    return {
      action: "stop",
      message: `CHROMIUM_PATH=${path} does not exist. Point it at a Chromium binary, or unset it and run: sudo ${INSTALL.join(" && sudo ")}`,
    };
  if (isRoot && hasAptGet) return { action: "install", commands: INSTALL };
  if (hasAptGet)
    return {
      action: "stop",
      message: `Chromium is missing (${path}); the browser tests need Debian's. Run: sudo ${INSTALL.join(" && sudo ")}`,
    };
  return {
    action: "stop",
    message: `Chromium is missing (${path}) and there is no apt-get here. Install Chromium, then run: CHROMIUM_PATH=/path/to/chromium npm test`,
  };
}

/**
 * Makes sure Chromium is there, installing Debian's package when running as root with apt-get
 * (printing each command). Prints why and returns false when it cannot.
 * @param {NodeJS.ProcessEnv} env reads CHROMIUM_PATH
 * @returns {boolean} true when Chromium is available
 */
export function ensureChromium(env = process.env) {
  const path = env.CHROMIUM_PATH || DEFAULT_CHROMIUM;
  const plan = chromiumPlan({
    path,
    custom: Boolean(env.CHROMIUM_PATH),
    exists: existsSync(path),
    isRoot: process.getuid?.() === 0,
    hasAptGet: spawnSync("sh", ["-c", "command -v apt-get"], { stdio: "ignore" }).status === 0,
  });
  if (plan.action === "ok") return true;
  if (plan.action === "stop") {
    console.error(`\n${plan.message}`);
    return false;
  }
  console.log(`\nChromium is missing (${path}); installing Debian's package:`);
  for (const command of plan.commands) {
    console.log(`+ ${command}`);
    const [cmd, ...args] = command.split(" ");
    const r = spawnSync(cmd, args, { stdio: "inherit", env: { ...env, DEBIAN_FRONTEND: "noninteractive" } });
    if (r.status !== 0) {
      console.error(`'${command}' failed (exit ${r.status ?? r.signal}). Run it yourself, then npm test again.`);
      return false;
    }
  }
  return existsSync(path);
}
