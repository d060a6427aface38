// Types for scripts/build-inputs.mjs (plain Node, run without a build step).
export const SKIP_DIRS: Set<string>;
export const SKIP_FILE: RegExp;
export function buildInputsHash(root: string): string;
