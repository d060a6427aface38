/**
 * The diff of one proposed change, drawn with the diff viewer's model (components/diff/model.ts
 * `fileRows`, unified) and its look (line numbers, +/− backgrounds, wrapped long lines). Not the
 * full DiffViewer: a card holds one small file diff and several cards share the page, so there is
 * no file tree and no window virtualization. Long diffs scroll inside the card.
 */
import { fileRows } from "@/components/diff/model";
import { cx } from "@/components/ui/styles";
import { parseUnifiedDiff } from "./parse-diff";

const bg = { add: "bg-primary-muted", delete: "bg-danger-muted", context: "bg-card" } as const;

export function ChangeDiff({ diff, path }: { diff: string; path: string }) {
  const file = parseUnifiedDiff(diff, path);
  if (file.isBinary) return <p className="px-3 py-2 text-sm text-muted-foreground">Binary file not shown.</p>;
  if (file.hunks.length === 0)
    return (
      <p className="px-3 py-2 text-sm text-muted-foreground" data-testid="change-diff-empty">
        {file.status === "added" ? "Empty file." : "No changes to the content."}
      </p>
    );
  return (
    // focusable, so keyboard users can scroll a long diff (WCAG 2.1.1)
    <div
      className="max-h-[28rem] overflow-auto focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-ring"
      tabIndex={0}
      role="region"
      aria-label={`Diff of ${path}`}
      data-testid="change-diff"
    >
      <div className="sr-only">{`${file.additions} additions, ${file.deletions} deletions`}</div>
      {fileRows(file, "unified").map((row, i) =>
        row.kind === "hunk" ? (
          <div key={i} className="bg-accent px-3 py-1 font-mono text-xs text-muted-foreground [overflow-wrap:anywhere]">
            {row.header}
          </div>
        ) : row.kind === "line" ? (
          <div
            key={i}
            className={cx("grid grid-cols-[2.5rem_2.5rem_minmax(0,1fr)] font-mono text-xs leading-5", bg[row.line.line.type])}
            data-line-type={row.line.line.type}
          >
            <span className="select-none px-1 text-right text-subtle-foreground">{row.line.oldNo ?? ""}</span>
            <span className="select-none px-1 text-right text-subtle-foreground">{row.line.newNo ?? ""}</span>
            <span className="min-w-0 whitespace-pre-wrap pr-2 [overflow-wrap:anywhere]">
              <span className="select-none text-subtle-foreground" aria-hidden="true">
                {row.line.line.type === "add" ? "+" : row.line.line.type === "delete" ? "-" : " "}
              </span>
              {row.line.line.content.replace(/\r$/, "")}
            </span>
          </div>
        ) : null,
      )}
      {file.truncated && <p className="px-3 py-2 text-xs text-muted-foreground">The rest of this diff is not shown.</p>}
    </div>
  );
}
