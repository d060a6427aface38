/** pulls router, part: getDiff, getCommits (issue #8 — the diff model owner). Merged into `pulls` by server/api/routers/pulls.ts. */
import { router } from "../trpc";

export const pullsDiffRouter = router({});
