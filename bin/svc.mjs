#!/usr/bin/env node
// The `svc` command. Runs cli/svc.ts through tsx (TypeScript, tsconfig paths) without a build step.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.env.SVC_APP_ROOT ??= root;
register({ tsconfig: path.join(root, "tsconfig.json") });
const { main } = await import("../cli/svc.ts");
process.exitCode = await main(process.argv.slice(2));
