import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getCurrentActor } from "@/server/auth/session";
import { InboxPage } from "@/components/inbox/inbox-page";
import { inboxHref, inboxPage, inboxRepo, inboxTab, participatedState } from "@/components/inbox/model";

export const metadata: Metadata = { title: "Inbox" };

/** /inbox (issue #9): the signed-in viewer's pull request inbox; signed out, sign in first and come back. */
export default async function Inbox({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = await searchParams;
  if (!(await getCurrentActor())) {
    const repo = inboxRepo(query.repo);
    const back = inboxHref({ tab: inboxTab(query.tab), state: participatedState(query.state), repo: repo && `${repo.owner}/${repo.name}`, page: inboxPage(query.page) });
    redirect(`/signin?callbackUrl=${encodeURIComponent(back)}`);
  }
  return <InboxPage query={query} />;
}
