import type { Metadata } from "next";
import { InboxPage } from "@/components/inbox/inbox-page";

export const metadata: Metadata = { title: "Inbox" };

/** /inbox (docs/pulls.md "The inbox page"): the signed-in viewer's pull request inbox (the layout sends the signed-out to sign in). */
export default async function Inbox({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  return <InboxPage query={await searchParams} />;
}
