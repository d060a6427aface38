/**
 * The text cell of one diff line, shared by the diff's own lines (./diff-viewer-row.tsx) and the
 * expanded unchanged lines (./diff-expand-rows.tsx): the +/-/space marker (hidden from screen
 * readers), then the text as highlighted token runs (./model.ts `tokenRuns`) or plain, then
 * `children` (e.g. the "no newline at end of file" mark).
 */
import type { ReactNode } from "react";
import type { tokenRuns } from "./model";

export function LineText({
  marker,
  text,
  runs,
  children,
}: {
  marker: string;
  text: string;
  runs: ReturnType<typeof tokenRuns> | null;
  children?: ReactNode;
}) {
  return (
    <span className="min-w-0 whitespace-pre-wrap pr-2 [overflow-wrap:anywhere]">
      <span className="select-none text-subtle-foreground" aria-hidden="true">
        {marker}
      </span>
      {runs
        ? runs.map((r, k) =>
            r.style ? (
              <span key={k} style={r.style}>
                {r.text}
              </span>
            ) : (
              r.text
            ),
          )
        : text}
      {children}
    </span>
  );
}
