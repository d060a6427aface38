"use client";
/**
 * Project and cycle pickers (issue sidebar and the list's bulk-edit bar; docs/ui.md "Issues"):
 * one-of-many menus (./pickers.tsx OptionPicker) over the repository's projects (by name) and
 * cycles (current first, then upcoming, then past), each with "None" to take the issue out.
 * The value key "none" stands for no project / no cycle.
 */
import { OptionPicker, type OpenControl } from "./pickers";

export type ProjectRef = { id: string; name: string };
export type CycleRef = { id: string; number: number; name: string | null; timing: "upcoming" | "current" | "past" };

const TIMING_ORDER = { current: 0, upcoming: 1, past: 2 } as const;

/** "Cycle 3 · Sprint A (current)". */
export function cycleLabel(c: CycleRef): string {
  return `Cycle ${c.number}${c.name ? ` · ${c.name}` : ""}${c.timing === "past" ? "" : ` (${c.timing})`}`;
}

/** Cycles in picker order: current, then upcoming, then past; by number within each. */
export function orderCycles<C extends CycleRef>(cycles: C[]): C[] {
  return [...cycles].sort((a, b) => TIMING_ORDER[a.timing] - TIMING_ORDER[b.timing] || a.number - b.number);
}

/** The project menu; `onPick(null)` takes the issue out of its project. */
export function ProjectPicker({
  projects,
  value,
  disabled,
  onPick,
  ...ctl
}: OpenControl & { projects: ProjectRef[]; value: string | null; disabled?: boolean; onPick: (projectId: string | null) => void }) {
  const options = [...projects.map((p) => ({ key: p.id, label: p.name })), { key: "none", label: "None" }];
  return (
    <OptionPicker
      name="project"
      label="Project"
      options={options}
      value={value}
      placeholder={value ? "Unknown project" : "No project"}
      disabled={disabled}
      onPick={(k) => onPick(k === "none" ? null : k)}
      {...ctl}
    />
  );
}

/** The cycle menu (current and upcoming cycles first); `onPick(null)` takes the issue out of its cycle. */
export function CyclePicker({
  cycles,
  value,
  disabled,
  onPick,
  ...ctl
}: OpenControl & { cycles: CycleRef[]; value: string | null; disabled?: boolean; onPick: (cycleId: string | null) => void }) {
  const options = [...orderCycles(cycles).map((c) => ({ key: c.id, label: cycleLabel(c) })), { key: "none", label: "None" }];
  return (
    <OptionPicker
      name="cycle"
      label="Cycle"
      options={options}
      value={value}
      placeholder={value ? "Unknown cycle" : "No cycle"}
      disabled={disabled}
      onPick={(k) => onPick(k === "none" ? null : k)}
      {...ctl}
    />
  );
}
