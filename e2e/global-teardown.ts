import { rmSync } from "node:fs";

/** Removes the temporary DATA_DIR the config created for the server. */
export default function globalTeardown() {
  const dir = process.env.SVC_E2E_DATA_DIR;
  if (dir && !process.env.SVC_E2E_KEEP_DATA) rmSync(dir, { recursive: true, force: true });
}
