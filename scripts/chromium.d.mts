// Types for scripts/chromium.mjs (plain Node, run without a build step).
export const DEFAULT_CHROMIUM: string;
export type ChromiumPlan = { action: "ok" } | { action: "install"; commands: string[] } | { action: "stop"; message: string };
export function chromiumPlan(s: { path: string; custom: boolean; exists: boolean; isRoot: boolean; hasAptGet: boolean }): ChromiumPlan;
export function ensureChromium(env?: NodeJS.ProcessEnv): boolean;
