// Types for scripts/request-guard.mjs (plain Node, run without a build step).
export function requestTargetProblem(url: string | undefined): string | null;
