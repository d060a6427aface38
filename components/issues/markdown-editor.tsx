"use client";
/**
 * A Markdown textarea with Write / Preview tabs. With `people`, typing `@` offers them
 * (./mention-textarea.tsx); with `repo`, the preview links `#N` and `@user` like the saved body.
 */
import { useState } from "react";
import { cx, input } from "@/components/ui/styles";
import { IssueMarkdown } from "./markdown";
import { MentionTextarea, type Mentionable } from "./mention-textarea";

export function MarkdownEditor({
  value,
  onChange,
  placeholder,
  rows = 8,
  testId,
  label,
  autoFocus,
  people,
  repo,
}: {
  value: string;
  onChange: (v: string) => void;
  placeholder?: string;
  rows?: number;
  testId?: string;
  label: string;
  autoFocus?: boolean;
  people?: Mentionable[];
  repo?: { owner: string; name: string };
}) {
  const [tab, setTab] = useState<"write" | "preview">("write");
  const tabClass = (t: typeof tab) =>
    cx(
      "rounded-t-md border-b-2 px-3 py-1.5 text-sm",
      tab === t ? "border-primary font-medium text-foreground" : "border-transparent text-muted-foreground hover:text-foreground",
    );
  const area = { rows, placeholder, "aria-label": label, "data-testid": testId, autoFocus };
  return (
    <div className="rounded-md border border-border bg-card">
      <div className="flex items-center gap-1 border-b border-border px-2 pt-1" role="tablist">
        <button type="button" role="tab" aria-selected={tab === "write"} className={tabClass("write")} onClick={() => setTab("write")}>
          Write
        </button>
        <button
          type="button"
          role="tab"
          aria-selected={tab === "preview"}
          className={tabClass("preview")}
          onClick={() => setTab("preview")}
          data-testid={testId ? `${testId}-preview-tab` : undefined}
        >
          Preview
        </button>
        <span className="ml-auto pb-1 text-xs text-subtle-foreground">
          {people?.length ? "Markdown · @ to mention" : "Markdown supported"}
        </span>
      </div>
      <div className="p-2">
        {tab === "write" ? (
          people ? (
            <MentionTextarea className="min-h-24 resize-y font-mono" value={value} onChange={onChange} people={people} {...area} />
          ) : (
            <textarea
              className={cx(input, "min-h-24 resize-y font-mono")}
              value={value}
              onChange={(e) => onChange(e.target.value)}
              {...area}
            />
          )
        ) : (
          <div className="min-h-24 px-1 py-1" data-testid={testId ? `${testId}-preview` : undefined}>
            {value.trim() ? (
              <IssueMarkdown source={value} repo={repo} />
            ) : (
              <p className="text-sm text-subtle-foreground">Nothing to preview.</p>
            )}
          </div>
        )}
      </div>
    </div>
  );
}
