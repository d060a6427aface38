/** pulls router, part: list, get, create, update, close, reopen (issue #8 — the pulls service owner). Merged into `pulls` by server/api/routers/pulls.ts. */
import { router } from "../trpc";

export const pullsCoreRouter = router({});
