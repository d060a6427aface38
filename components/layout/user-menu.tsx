"use client";
import Link from "next/link";
import { useState } from "react";
import { signOut } from "next-auth/react";
import { ChevronDownIcon } from "@/components/ui/icons";
import { Avatar } from "@/components/ui/avatar";
import { forgetAllDrafts } from "@/components/ui/use-draft";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";

/** The signed-in user's avatar button with a dropdown (Radix menu): profile, settings, sign out. */
export function UserMenu({ username, name }: { username: string; name: string | null }) {
  const [signingOut, setSigningOut] = useState(false);
  const links: Array<[string, string]> = [
    [`/${username}`, "Your profile"],
    ["/", "Your repositories"],
    ["/new", "New repository"],
    ["/organizations/new", "New organization"],
    ["/settings/account", "Account settings"],
    ["/settings/tokens", "Access tokens"],
    ["/settings/sessions", "Sessions"],
  ];
  return (
    <DropdownMenu>
      <DropdownMenuTrigger
        data-testid="user-menu"
        className="flex items-center gap-1.5 rounded-md px-1.5 py-1 text-sm text-slate-200 hover:bg-slate-800 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-slate-400"
      >
        <Avatar username={username} size="md" className="h-7! w-7! text-xs!" />
        <span className="sr-only sm:not-sr-only">{username}</span>
        <ChevronDownIcon className="text-slate-400" />
      </DropdownMenuTrigger>
      <DropdownMenuContent className="w-56">
        <DropdownMenuLabel className="font-normal">
          <div className="text-subtle-foreground">Signed in as</div>
          <div className="truncate font-semibold text-foreground">{name && name !== username ? `${name} (${username})` : username}</div>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        {links.map(([href, label]) => (
          <DropdownMenuItem key={href} asChild>
            <Link href={href}>{label}</Link>
          </DropdownMenuItem>
        ))}
        <DropdownMenuSeparator />
        <DropdownMenuItem
          data-testid="sign-out"
          disabled={signingOut}
          onSelect={(e) => {
            e.preventDefault();
            setSigningOut(true);
            forgetAllDrafts();
            void signOut({ callbackUrl: "/" });
          }}
        >
          {signingOut ? "Signing out…" : "Sign out"}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
