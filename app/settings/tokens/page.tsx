import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getCurrentActor } from "@/server/auth/session";
import { DEFAULT_SCOPES, SCOPE_DESCRIPTIONS, SCOPES } from "@/server/auth/scopes";
import { TokensManager } from "@/components/tokens/tokens-manager";
import { getDb } from "@/server/db";
import { listTokens } from "@/server/services/tokens/manage-tokens";

export const metadata: Metadata = { title: "Access tokens" };

export default async function TokensPage() {
  const actor = await getCurrentActor();
  if (!actor) redirect("/signin?callbackUrl=%2Fsettings%2Ftokens");
  // the same service /api/tokens uses; rendered on the server so the list shows at once
  const tokens = await listTokens(await getDb(), actor.user.id);
  return (
    <div>
      <h1 className="text-2xl font-semibold tracking-tight">Personal access tokens</h1>
      <p className="mt-1 text-sm text-muted-foreground">
        Use a token as the password for <code className="font-mono text-xs">git push</code> over HTTP, or as{" "}
        <code className="font-mono text-xs">Authorization: Bearer</code> for the API.
      </p>
      <div className="mt-6">
        <TokensManager
          scopes={SCOPES.map((name) => ({ name, description: SCOPE_DESCRIPTIONS[name] }))}
          defaultScopes={[...DEFAULT_SCOPES]}
          initialTokens={tokens}
        />
      </div>
    </div>
  );
}
