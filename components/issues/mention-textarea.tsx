"use client";
/**
 * A textarea with `@` mention autocomplete (docs/ui.md "Issues"): typing `@` followed by letters
 * opens a list of `people` (the repository's assignees: owner and collaborators) whose username or
 * name contains them; ↑/↓ move, Enter or Tab inserts `@username `, Escape closes. The textarea
 * keeps its textbox role (a textarea may not be a combobox) with aria-autocomplete=list,
 * aria-controls and aria-activedescendant pointing at the listbox option, so screen readers hear
 * the option. Rendered mentions link to the user's profile (components/markdown/references.ts).
 */
import { useId, useRef, useState } from "react";
import { Avatar } from "@/components/ui/avatar";
import { cx, input } from "@/components/ui/styles";

export type Mentionable = { username: string; name: string | null };

/** The `@query` being typed just before `caret`, or null (none, or part of an e-mail/path). */
export function mentionAt(text: string, caret: number): { start: number; query: string } | null {
  const m = /(^|[^\w@/.`-])@([A-Za-z0-9-]{0,39})$/.exec(text.slice(0, caret));
  if (!m) return null;
  return { start: caret - m[2].length - 1, query: m[2] };
}

/** Up to `limit` people matching `query` (username prefix first, then contains in username or name). */
export function matchPeople(people: Mentionable[], query: string, limit = 6): Mentionable[] {
  const q = query.toLowerCase();
  const score = (p: Mentionable) =>
    p.username.toLowerCase().startsWith(q) ? 0 : p.username.toLowerCase().includes(q) || (p.name ?? "").toLowerCase().includes(q) ? 1 : 2;
  return people
    .map((p) => ({ p, s: score(p) }))
    .filter((x) => x.s < 2)
    .sort((a, b) => a.s - b.s || a.p.username.localeCompare(b.p.username))
    .slice(0, limit)
    .map((x) => x.p);
}

/** A controlled textarea (`value`/`onChange`) with the `@` autocomplete over `people`; other props go to the textarea. */
export function MentionTextarea({
  value,
  onChange,
  people,
  className,
  ...rest
}: { value: string; onChange: (v: string) => void; people: Mentionable[] } & Omit<
  React.TextareaHTMLAttributes<HTMLTextAreaElement>,
  "value" | "onChange"
>) {
  const ref = useRef<HTMLTextAreaElement>(null);
  const listId = useId();
  const [mention, setMention] = useState<{ start: number; query: string } | null>(null);
  const [active, setActive] = useState(0);
  const matches = mention ? matchPeople(people, mention.query) : [];
  const open = matches.length > 0;

  const track = (el: HTMLTextAreaElement) => {
    const m = el.selectionStart === el.selectionEnd ? mentionAt(el.value, el.selectionStart) : null;
    setMention(m);
    if (m?.query !== mention?.query) setActive(0);
  };
  const insert = (p: Mentionable) => {
    const el = ref.current;
    if (!el || !mention) return;
    const caret = el.selectionStart;
    const text = `@${p.username} `;
    const next = value.slice(0, mention.start) + text + value.slice(caret);
    onChange(next);
    setMention(null);
    const pos = mention.start + text.length;
    requestAnimationFrame(() => {
      el.focus();
      el.setSelectionRange(pos, pos);
    });
  };
  return (
    <div className="relative">
      <textarea
        ref={ref}
        value={value}
        className={cx(input, className)}
        onChange={(e) => {
          onChange(e.target.value);
          track(e.target);
        }}
        onSelect={(e) => track(e.currentTarget)}
        onBlur={() => setMention(null)}
        onKeyDown={(e) => {
          if (!open) return;
          if (e.key === "ArrowDown" || e.key === "ArrowUp") {
            e.preventDefault();
            setActive((i) => (i + (e.key === "ArrowDown" ? 1 : matches.length - 1)) % matches.length);
          } else if (e.key === "Enter" || e.key === "Tab") {
            e.preventDefault();
            insert(matches[Math.min(active, matches.length - 1)]);
          } else if (e.key === "Escape") {
            e.preventDefault();
            e.stopPropagation();
            setMention(null);
          }
        }}
        aria-autocomplete="list"
        aria-controls={open ? listId : undefined}
        aria-activedescendant={open ? `${listId}-${Math.min(active, matches.length - 1)}` : undefined}
        {...rest}
      />
      {open && (
        <ul
          id={listId}
          role="listbox"
          aria-label="Mention someone"
          className="absolute left-2 top-full z-30 mt-1 w-64 rounded-md border border-border bg-popover p-1 shadow-lg"
          data-testid="mention-list"
        >
          {matches.map((p, i) => (
            <li
              key={p.username}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              className={cx(
                "flex cursor-default items-center gap-2 rounded px-2 py-1.5 text-sm text-foreground",
                i === active && "bg-accent",
              )}
              onMouseDown={(e) => (e.preventDefault(), insert(p))}
              onMouseEnter={() => setActive(i)}
              data-testid="mention-option"
            >
              <Avatar username={p.username} />
              <span className="font-medium">{p.username}</span>
              {p.name && <span className="truncate text-xs text-subtle-foreground">{p.name}</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
