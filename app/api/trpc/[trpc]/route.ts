import { handleTrpc } from "@/server/http/trpc";

export const dynamic = "force-dynamic";

export { handleTrpc as GET, handleTrpc as POST };
