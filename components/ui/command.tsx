"use client";
import { Command as C } from "cmdk";
import { cx } from "./styles";
import { SearchIcon } from "./icons";

/**
 * cmdk's command list (filtering, arrow keys, Enter, `role=combobox`/`listbox`/`option`) in the
 * UI's look. Used by the Combobox and the command menu (⌘K).
 */
export function Command({ className, ...props }: React.ComponentProps<typeof C>) {
  return <C className={cx("flex w-full flex-col overflow-hidden text-foreground", className)} {...props} />;
}

export function CommandInput({ className, ...props }: React.ComponentProps<typeof C.Input>) {
  return (
    <div className="flex items-center gap-2 border-b border-border px-2">
      <SearchIcon className="text-subtle-foreground" />
      <C.Input className={cx("h-9 w-full bg-transparent text-sm outline-none placeholder:text-subtle-foreground", className)} {...props} />
    </div>
  );
}

export function CommandList({ className, ...props }: React.ComponentProps<typeof C.List>) {
  return <C.List className={cx("max-h-72 overflow-y-auto p-1", className)} {...props} />;
}

export function CommandEmpty(props: React.ComponentProps<typeof C.Empty>) {
  return <C.Empty className="px-2 py-3 text-center text-sm text-subtle-foreground" {...props} />;
}

export function CommandGroup({ className, ...props }: React.ComponentProps<typeof C.Group>) {
  return (
    <C.Group
      className={cx(
        "[&_[cmdk-group-heading]]:px-2 [&_[cmdk-group-heading]]:py-1 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:font-semibold [&_[cmdk-group-heading]]:text-subtle-foreground",
        className,
      )}
      {...props}
    />
  );
}

export function CommandItem({ className, ...props }: React.ComponentProps<typeof C.Item>) {
  return (
    <C.Item
      className={cx(
        "flex cursor-default select-none items-center gap-2 rounded px-2 py-1.5 text-sm outline-none data-[disabled=true]:opacity-50 data-[selected=true]:bg-accent",
        className,
      )}
      {...props}
    />
  );
}

export const CommandLoading = C.Loading;
export const CommandSeparator = ({ className }: { className?: string }) => <C.Separator className={cx("my-1 h-px bg-border", className)} />;
