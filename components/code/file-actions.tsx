"use client";
/**
 * Copy and download buttons of the file view (docs/ui.md "Code view"). Copy puts the file's text on
 * the clipboard: read from the rendered code view (its line numbers are CSS, not text), or fetched
 * from the raw route when the view shows something else (a Markdown preview). Download is the raw
 * route with `?download=1` (Content-Disposition: attachment).
 */
import { useEffect, useState } from "react";
import { copyText } from "@/components/ui/copy-button";
import { CheckIcon, CopyIcon } from "@/components/ui/icons";
import { buttonClass, cx } from "@/components/ui/styles";

function DownloadIcon({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 16 16" width="16" height="16" fill="currentColor" aria-hidden="true" className={className}>
      <path d="M2.75 14A1.75 1.75 0 0 1 1 12.25v-2.5a.75.75 0 0 1 1.5 0v2.5c0 .138.112.25.25.25h10.5a.25.25 0 0 0 .25-.25v-2.5a.75.75 0 0 1 1.5 0v2.5A1.75 1.75 0 0 1 13.25 14Z" />
      <path d="M7.25 7.689V2a.75.75 0 0 1 1.5 0v5.689l1.97-1.969a.749.749 0 1 1 1.06 1.06l-3.25 3.25a.749.749 0 0 1-1.06 0L4.22 6.78a.749.749 0 1 1 1.06-1.06l1.97 1.969Z" />
    </svg>
  );
}

async function fileText(codeViewId: string, rawUrl: string, trailingNewline: boolean): Promise<string> {
  const code = document.getElementById(codeViewId)?.querySelector("code");
  if (code) return (code.textContent ?? "") + (trailingNewline ? "\n" : "");
  const res = await fetch(rawUrl, { credentials: "same-origin" });
  if (!res.ok) throw new Error(`raw file: ${res.status}`);
  return res.text();
}

export function FileActions({
  rawUrl,
  fileName,
  codeViewId,
  canCopy,
  trailingNewline,
}: {
  rawUrl: string;
  fileName: string;
  codeViewId: string;
  canCopy: boolean;
  trailingNewline: boolean;
}) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (state === "idle") return;
    const t = setTimeout(() => setState("idle"), 2000);
    return () => clearTimeout(t);
  }, [state]);
  const small = cx(buttonClass({ variant: "secondary", size: "sm" }), "h-7 w-7 px-0!");
  return (
    <div className="flex items-center gap-1">
      {canCopy && (
        <button
          type="button"
          className={small}
          aria-label={state === "copied" ? "Copied" : "Copy file contents"}
          title="Copy file contents"
          data-testid="copy-file"
          onClick={async () => {
            try {
              setState((await copyText(await fileText(codeViewId, rawUrl, trailingNewline))) ? "copied" : "failed");
            } catch {
              setState("failed");
            }
          }}
        >
          {state === "copied" ? <CheckIcon className="text-primary" /> : <CopyIcon />}
          <span className="sr-only" aria-live="polite">
            {state === "copied" ? "Copied" : state === "failed" ? "Copy failed" : ""}
          </span>
        </button>
      )}
      <a
        href={`${rawUrl}?download=1`}
        download={fileName}
        className={small}
        aria-label={`Download ${fileName}`}
        title="Download"
        data-testid="download-file"
      >
        <DownloadIcon />
      </a>
    </div>
  );
}
