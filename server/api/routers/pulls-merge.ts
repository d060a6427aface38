/** pulls router, part: checkMergeability, merge, getConflicts (issue #8 — the merge engine owner). Merged into `pulls` by server/api/routers/pulls.ts. */
import { router } from "../trpc";

export const pullsMergeRouter = router({});
