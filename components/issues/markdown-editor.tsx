"use client";
/** A Markdown textarea with Write / Preview tabs. */
import { useState } from "react";
import { cx, input } from "@/components/ui/styles";
import { IssueMarkdown } from "./markdown";

export function MarkdownEditor({
  value, onChange, placeholder, rows = 8, testId, label, autoFocus,
}: { value: string; onChange: (v: string) => void; placeholder?: string; rows?: number; testId?: string; label: string; autoFocus?: boolean }) {
  const [tab, setTab] = useState<"write" | "preview">("write");
  const tabClass = (t: typeof tab) =>
    cx("rounded-t-md border-b-2 px-3 py-1.5 text-sm", tab === t ? "border-emerald-500 font-medium text-slate-900" : "border-transparent text-slate-600 hover:text-slate-900");
  return (
    <div className="rounded-md border border-slate-200 bg-white">
      <div className="flex items-center gap-1 border-b border-slate-200 px-2 pt-1" role="tablist">
        <button type="button" role="tab" aria-selected={tab === "write"} className={tabClass("write")} onClick={() => setTab("write")}>
          Write
        </button>
        <button type="button" role="tab" aria-selected={tab === "preview"} className={tabClass("preview")} onClick={() => setTab("preview")} data-testid={testId ? `${testId}-preview-tab` : undefined}>
          Preview
        </button>
        <span className="ml-auto pb-1 text-xs text-slate-400">Markdown supported</span>
      </div>
      <div className="p-2">
        {tab === "write" ? (
          <textarea
            className={cx(input, "min-h-24 resize-y font-mono")}
            rows={rows}
            value={value}
            onChange={(e) => onChange(e.target.value)}
            placeholder={placeholder}
            aria-label={label}
            data-testid={testId}
            autoFocus={autoFocus}
          />
        ) : (
          <div className="min-h-24 px-1 py-1" data-testid={testId ? `${testId}-preview` : undefined}>
            {value.trim() ? <IssueMarkdown source={value} /> : <p className="text-sm text-slate-500">Nothing to preview.</p>}
          </div>
        )}
      </div>
    </div>
  );
}
