import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { getCurrentActor } from "@/server/auth/session";
import { safeCallbackUrl } from "@/components/auth/safe-callback";

/**
 * /notifications is for signed-in viewers: signed out, sign in and come back to the same address (from
 * proxy.ts's `x-svc-path`). Checked here, outside the page's loading boundary, so the answer is
 * a real 307 rather than a redirect inside a streamed page.
 */
export default async function NotificationsLayout({ children }: { children: React.ReactNode }) {
  if (!(await getCurrentActor())) {
    const back = safeCallbackUrl((await headers()).get("x-svc-path") ?? "/notifications");
    redirect(`/signin?callbackUrl=${encodeURIComponent(back.startsWith("/notifications") ? back : "/notifications")}`);
  }
  return <>{children}</>;
}
