"use client";
import { useDismiss } from "@/components/ui/use-dismiss";
import Link from "next/link";
import { useRef, useState } from "react";
import { signOut } from "next-auth/react";
import { ChevronDownIcon } from "@/components/ui/icons";

/** The signed-in user's avatar button with a dropdown: profile links and sign out. */
export function UserMenu({ username, name }: { username: string; name: string | null }) {
  const [open, setOpen] = useState(false);
  const [signingOut, setSigningOut] = useState(false);
  const ref = useRef<HTMLDivElement>(null);

  useDismiss(ref, open, () => setOpen(false));

  const item = "block px-3 py-1.5 text-sm text-slate-700 hover:bg-slate-100";
  return (
    <div className="relative" ref={ref}>
      <button
        type="button"
        data-testid="user-menu"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        className="flex items-center gap-1.5 rounded-md px-1.5 py-1 text-sm text-slate-200 hover:bg-slate-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-slate-400"
      >
        <span className="flex h-7 w-7 items-center justify-center rounded-full bg-emerald-600 text-xs font-semibold uppercase text-white">
          {username.slice(0, 1)}
        </span>
        <span className="hidden sm:inline">{username}</span>
        <ChevronDownIcon className="text-slate-400" />
      </button>
      {open && (
        <div role="menu" className="absolute right-0 z-30 mt-2 w-56 overflow-hidden rounded-md border border-slate-200 bg-white py-1 shadow-lg">
          <div className="border-b border-slate-100 px-3 py-2 text-sm">
            <div className="text-slate-500">Signed in as</div>
            <div className="truncate font-semibold text-slate-900">{name && name !== username ? `${name} (${username})` : username}</div>
          </div>
          <Link role="menuitem" href="/" className={item} onClick={() => setOpen(false)}>
            Your repositories
          </Link>
          <Link role="menuitem" href="/new" className={item} onClick={() => setOpen(false)}>
            New repository
          </Link>
          <Link role="menuitem" href="/settings/tokens" className={item} onClick={() => setOpen(false)}>
            Access tokens
          </Link>
          <Link role="menuitem" href="/settings/sessions" className={item} onClick={() => setOpen(false)}>
            Sessions
          </Link>
          <div className="my-1 border-t border-slate-100" />
          <button
            role="menuitem"
            type="button"
            data-testid="sign-out"
            disabled={signingOut}
            className={`${item} w-full text-left disabled:opacity-60`}
            onClick={() => {
              setSigningOut(true);
              void signOut({ callbackUrl: "/" });
            }}
          >
            {signingOut ? "Signing out…" : "Sign out"}
          </button>
        </div>
      )}
    </div>
  );
}
