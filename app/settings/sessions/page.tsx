import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getCurrentActor, getServerCaller } from "@/server/auth/session";
import { SessionsManager } from "@/components/settings/sessions-manager";

export const metadata: Metadata = { title: "Sessions" };

/** /settings/sessions: the browsers signed in to this account, with sign out per session and everywhere. */
export default async function SessionsPage() {
  const actor = await getCurrentActor();
  if (!actor) redirect("/signin?callbackUrl=%2Fsettings%2Fsessions");
  const sessions = await (await getServerCaller()).users.sessions();
  return (
    <div>
      <h1 className="text-2xl font-semibold tracking-tight">Sessions</h1>
      <p className="mt-1 text-sm text-muted-foreground">
        Browsers signed in to your account. A session lasts 30 days from its last use unless you sign it out.
      </p>
      <div className="mt-6">
        <SessionsManager initialSessions={sessions} />
      </div>
    </div>
  );
}
