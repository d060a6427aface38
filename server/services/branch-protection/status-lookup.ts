/**
 * Where the merge requirements read commit statuses (requirement kind "status",
 * requirements.ts): svc's combined view of the commit (services/statuses/combined-status.ts
 * `combinedStatuses`, read for many heads at once by pull-requirements.ts: the latest status per
 * context, and each check run counted as the context of its name, its state mapped by
 * `checkRunState`). A required context with no status yet is unsatisfied ("expected: waiting for
 * status to be reported"), as on GitHub.
 */
import type { StatusState } from "@/server/services/statuses/status-rules";

export type { StatusState };
