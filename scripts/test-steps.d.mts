// Types for scripts/test-steps.mjs (plain Node, run without a build step).
export interface Step {
  label: string;
  tag?: string;
  cmd: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  cwd: string;
}
export interface StepResult {
  ok: boolean;
  ms: number;
}
export interface Counts {
  passed: number;
  failed: number;
  files: { file: string; ms: number }[];
}
export function runStep(step: Step, prefixed: boolean): Promise<StepResult>;
export function runSteps(steps: Step[], concurrent: boolean): Promise<StepResult[]>;
export function vitestCounts(file: string, timesFile: string, root: string): Counts;
export function playwrightCounts(file: string, testDir: string): Counts;
export function slowestLines(rows: { run: string; file: string; ms: number }[], n?: number): string[];
export function seconds(ms: number): string;
