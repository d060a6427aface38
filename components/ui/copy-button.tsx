"use client";
import { useEffect, useState } from "react";
import { CheckIcon, CopyIcon } from "./icons";
import { button, cx } from "./styles";

/** Copies text with the Clipboard API, falling back to a hidden textarea on non-secure origins. */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // fall through to the legacy path
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  let ok = false;
  try {
    ok = document.execCommand("copy");
  } catch {
    ok = false;
  }
  document.body.removeChild(area);
  return ok;
}

/** `iconOnly`: a compact button showing only the icon; `label` is then its accessible name and tooltip. */
export function CopyButton({
  text,
  label = "Copy",
  className,
  testId,
  iconOnly,
}: {
  text: string;
  label?: string;
  className?: string;
  testId?: string;
  iconOnly?: boolean;
}) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (state === "idle") return;
    const t = setTimeout(() => setState("idle"), 2000);
    return () => clearTimeout(t);
  }, [state]);
  return (
    <button
      type="button"
      data-testid={testId}
      className={cx(button.secondary, "shrink-0", className)}
      onClick={async () => setState((await copyText(text)) ? "copied" : "failed")}
      aria-label={label}
      title={label}
    >
      {state === "copied" ? <CheckIcon className="text-primary" /> : <CopyIcon />}
      {iconOnly ? (
        <span className="sr-only" aria-live="polite">
          {state === "copied" ? "Copied" : state === "failed" ? "Press Ctrl+C" : ""}
        </span>
      ) : (
        <span>{state === "copied" ? "Copied" : state === "failed" ? "Press Ctrl+C" : label}</span>
      )}
    </button>
  );
}
