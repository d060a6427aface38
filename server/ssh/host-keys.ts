/**
 * The SSH server's host keys (docs/ssh.md "Host keys"): ed25519 and RSA, generated into
 * `DATA_DIR/ssh/` (mode 0600, directory 0700) on the first start and reused afterwards, so
 * clients' known_hosts entries stay valid across restarts.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import ssh2 from "ssh2";

// ssh2 is CommonJS: Node's ESM loader gives it as a default export only
const { utils } = ssh2;

/** File names of the host keys under DATA_DIR/ssh/, in the order offered. */
export const HOST_KEY_FILES = [
  { file: "ssh_host_ed25519_key", type: "ed25519" as const },
  { file: "ssh_host_rsa_key", type: "rsa" as const },
];

/** Reads (or first generates) the host keys in `dir`; returns the private keys in OpenSSH format. */
export function loadHostKeys(dir: string): Buffer[] {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return HOST_KEY_FILES.map(({ file, type }) => {
    const p = path.join(/* turbopackIgnore: true */ dir, file);
    if (!existsSync(p)) {
      const pair = type === "rsa" ? utils.generateKeyPairSync("rsa", { bits: 3072 }) : utils.generateKeyPairSync("ed25519");
      writeFileSync(p, pair.private, { mode: 0o600, flag: "wx" });
      writeFileSync(`${p}.pub`, `${pair.public}\n`, { mode: 0o644 });
    }
    return readFileSync(p);
  });
}
