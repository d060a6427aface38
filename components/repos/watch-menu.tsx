"use client";
/**
 * The repository header's Watch menu (docs/notifications.md "Watch levels"): the viewer's level
 * (repos.get's watchLevel) and repos.watch to change it — Participating and @mentions (the
 * default), All activity, Ignore. Signed-in viewers only.
 */
import { useState } from "react";
import { useTRPCClient, errorMessage } from "@/components/trpc/provider";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { BellIcon, ChevronDownIcon } from "@/components/ui/icons";
import { button, cx } from "@/components/ui/styles";
import { toast } from "@/components/ui/toast";

type Level = "participating" | "all" | "ignore";

const LEVELS: { level: Level; label: string; hint: string }[] = [
  { level: "participating", label: "Participating and @mentions", hint: "Only threads you take part in or are mentioned in." },
  { level: "all", label: "All activity", hint: "Every new issue, pull request and comment." },
  { level: "ignore", label: "Ignore", hint: "Never be notified." },
];

export function WatchMenu({ repoId, initial }: { repoId: string; initial: Level }) {
  const client = useTRPCClient();
  const [level, setLevel] = useState<Level>(initial);
  const change = async (next: string) => {
    const before = level;
    setLevel(next as Level);
    try {
      await client.repos.watch.mutate({ repoId, level: next as Level });
    } catch (e) {
      setLevel(before);
      toast.error(errorMessage(e));
    }
  };
  return (
    <DropdownMenu>
      <DropdownMenuTrigger className={cx(button.secondary, "inline-flex items-center gap-1.5")} data-testid="watch-menu" data-level={level}>
        <BellIcon />
        {level === "all" ? "Unwatch" : level === "ignore" ? "Ignoring" : "Watch"}
        <ChevronDownIcon />
      </DropdownMenuTrigger>
      <DropdownMenuContent className="w-72">
        <DropdownMenuRadioGroup value={level} onValueChange={(v) => void change(v)}>
          {LEVELS.map((l) => (
            <DropdownMenuRadioItem key={l.level} value={l.level} data-testid={`watch-${l.level}`}>
              <span className="flex flex-col">
                <span className="font-medium">{l.label}</span>
                <span className="text-xs text-muted-foreground">{l.hint}</span>
              </span>
            </DropdownMenuRadioItem>
          ))}
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
