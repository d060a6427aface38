"use client";
/**
 * The due date picker (a date popover, no date input + Set; the due date shown once; docs/ui.md
 * "Issues"):
 * the trigger shows the date (red when overdue, amber when due soon) or "No due date"; the
 * popover has quick picks (Today, Tomorrow, Next week = in 7 days, Clear) and a month grid with
 * ARIA grid semantics (WAI-ARIA APG "Date Picker Dialog"): one roving tab stop, arrows move a day /
 * a week, Home/End the start/end of the week, PageUp/PageDown a month, Enter or Space picks.
 * Dates are calendar dates (YYYY-MM-DD, as the API stores them); "today" is the browser's date.
 */
import { useEffect, useRef, useState } from "react";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";
import { ChevronDownIcon } from "@/components/ui/icons";
import { buttonClass, cx } from "@/components/ui/styles";
import { formatDueDate } from "./model";
import { triggerClass, useOpenState, type OpenControl } from "./pickers";
import { CalendarIcon, DueDate } from "./ui";

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const WEEKDAYS = ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"];
const WEEKDAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

/** YYYY-MM-DD of a UTC midnight Date. */
const iso = (d: Date) => d.toISOString().slice(0, 10);
/** The UTC midnight Date of a YYYY-MM-DD string. */
const parse = (s: string) => new Date(`${s}T00:00:00Z`);
/** `s` plus `days` calendar days. */
export function addDays(s: string, days: number): string {
  const d = parse(s);
  d.setUTCDate(d.getUTCDate() + days);
  return iso(d);
}
/** `s` plus `months` months, the day clamped to the target month's length. */
export function addMonths(s: string, months: number): string {
  const d = parse(s);
  const day = d.getUTCDate();
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, last));
  return iso(target);
}
/** The browser's local calendar date as YYYY-MM-DD. */
export function localToday(now = new Date()): string {
  return iso(new Date(Date.UTC(now.getFullYear(), now.getMonth(), now.getDate())));
}
/** 0 = Monday … 6 = Sunday. */
const weekday = (s: string) => (parse(s).getUTCDay() + 6) % 7;

/** The weeks (Monday first) covering the month of `s`, each day as YYYY-MM-DD. */
export function monthGrid(s: string): string[][] {
  const d = parse(s);
  const first = iso(new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)));
  let day = addDays(first, -weekday(first));
  const weeks: string[][] = [];
  do {
    const week: string[] = [];
    for (let i = 0; i < 7; i++, day = addDays(day, 1)) week.push(day);
    weeks.push(week);
  } while (parse(day).getUTCMonth() === d.getUTCMonth());
  return weeks;
}

function longLabel(s: string): string {
  const d = parse(s);
  return `${WEEKDAY_NAMES[weekday(s)]}, ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** The month grid; `focus` is the day with the tab stop, moved by the keys above. */
function Calendar({ value, today, onPick }: { value: string | null; today: string; onPick: (date: string) => void }) {
  const [focus, setFocus] = useState(value ?? today);
  const [moved, setMoved] = useState(false);
  const gridRef = useRef<HTMLTableElement>(null);
  useEffect(() => {
    if (moved) gridRef.current?.querySelector<HTMLElement>(`[data-date="${focus}"]`)?.focus();
  }, [focus, moved]);
  const month = parse(focus).getUTCMonth();
  const move = (to: string) => (setMoved(true), setFocus(to));
  const onKey = (e: React.KeyboardEvent) => {
    const keys: Record<string, () => string> = {
      ArrowLeft: () => addDays(focus, -1),
      ArrowRight: () => addDays(focus, 1),
      ArrowUp: () => addDays(focus, -7),
      ArrowDown: () => addDays(focus, 7),
      Home: () => addDays(focus, -weekday(focus)),
      End: () => addDays(focus, 6 - weekday(focus)),
      PageUp: () => addMonths(focus, e.shiftKey ? -12 : -1),
      PageDown: () => addMonths(focus, e.shiftKey ? 12 : 1),
    };
    if (keys[e.key]) {
      e.preventDefault();
      move(keys[e.key]());
    } else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      onPick(focus);
    }
  };
  const heading = `${MONTHS[month]} ${parse(focus).getUTCFullYear()}`;
  return (
    <div className="p-2">
      <div className="mb-1 flex items-center justify-between">
        <button
          type="button"
          className={buttonClass({ variant: "ghost", size: "sm" })}
          onClick={() => move(addMonths(focus, -1))}
          aria-label="Previous month"
        >
          ‹
        </button>
        <h3 className="text-sm font-medium text-foreground" aria-live="polite" id="due-calendar-heading" data-testid="due-calendar-month">
          {heading}
        </h3>
        <button
          type="button"
          className={buttonClass({ variant: "ghost", size: "sm" })}
          onClick={() => move(addMonths(focus, 1))}
          aria-label="Next month"
        >
          ›
        </button>
      </div>
      <table
        ref={gridRef}
        role="grid"
        aria-labelledby="due-calendar-heading"
        className="w-full border-collapse text-center text-sm"
        onKeyDown={onKey}
        data-testid="due-calendar"
      >
        <thead>
          <tr>
            {WEEKDAYS.map((w, i) => (
              <th key={w} scope="col" abbr={WEEKDAY_NAMES[i]} className="py-1 text-xs font-medium text-subtle-foreground">
                {w}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {monthGrid(focus).map((week) => (
            <tr key={week[0]}>
              {week.map((day) => {
                const selected = day === value;
                const outside = parse(day).getUTCMonth() !== month;
                return (
                  <td key={day} className="p-0.5" role="gridcell" aria-selected={selected}>
                    <button
                      type="button"
                      tabIndex={day === focus ? 0 : -1}
                      aria-label={longLabel(day)}
                      aria-current={day === today ? "date" : undefined}
                      onClick={() => onPick(day)}
                      className={cx(
                        "h-8 w-8 rounded-md text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring",
                        selected ? "bg-primary font-semibold text-primary-foreground" : "hover:bg-accent",
                        !selected && (outside ? "text-subtle-foreground" : "text-foreground"),
                        day === today && !selected && "font-semibold text-primary",
                      )}
                      data-date={day}
                      data-testid="due-day"
                    >
                      {parse(day).getUTCDate()}
                    </button>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The due date picker of the issue sidebar. `onChange` gets YYYY-MM-DD or null (cleared); the
 * popover closes on a pick and focus returns to the trigger.
 */
export function DueDatePicker({
  value,
  state,
  disabled,
  onChange,
  ...ctl
}: OpenControl & {
  value: string | null;
  state: string;
  disabled?: boolean;
  onChange: (date: string | null) => void;
}) {
  const [open, setOpen] = useOpenState(ctl);
  const today = localToday();
  const pick = (d: string | null) => {
    setOpen(false);
    if (d !== value) onChange(d);
  };
  const quick: { label: string; date: string | null; testId: string }[] = [
    { label: "Today", date: today, testId: "due-today" },
    { label: "Tomorrow", date: addDays(today, 1), testId: "due-tomorrow" },
    { label: "Next week", date: addDays(today, 7), testId: "due-next-week" },
  ];
  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger
        className={triggerClass}
        disabled={disabled}
        aria-label={`Due date: ${value ? `${formatDueDate(value)}, ${longLabel(value)}` : "No due date"}`}
        data-testid="due-picker"
      >
        {value ? (
          <span className="flex-1" data-testid="current-due" data-date={value}>
            <DueDate issue={{ state, dueDate: value }} className="text-sm!" />
          </span>
        ) : (
          <span className="flex flex-1 items-center gap-1 text-subtle-foreground" data-testid="current-due">
            <CalendarIcon /> No due date
          </span>
        )}
        {!disabled && <ChevronDownIcon className="text-subtle-foreground" />}
      </PopoverTrigger>
      <PopoverContent
        className="w-auto p-0"
        aria-label="Choose a due date"
        onOpenAutoFocus={(e) => {
          // focus the grid's tab stop (the current date, or today), as the APG pattern does
          e.preventDefault();
          document.querySelector<HTMLElement>('[data-testid=due-popover] [data-testid=due-day][tabindex="0"]')?.focus();
        }}
        data-testid="due-popover"
      >
        <div className="flex flex-wrap gap-1 border-b border-border p-2">
          {quick.map((q) => (
            <button
              key={q.testId}
              type="button"
              className={buttonClass({ variant: "secondary", size: "sm" })}
              onClick={() => pick(q.date)}
              data-testid={q.testId}
            >
              {q.label}
            </button>
          ))}
          {value && (
            <button
              type="button"
              className={buttonClass({ variant: "ghost", size: "sm" })}
              onClick={() => pick(null)}
              data-testid="due-clear"
            >
              Clear
            </button>
          )}
        </div>
        <Calendar value={value} today={today} onPick={pick} />
      </PopoverContent>
    </Popover>
  );
}
