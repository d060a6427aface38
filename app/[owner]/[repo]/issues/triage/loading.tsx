import { IssueListSkeleton } from "@/components/layout/loading-skeletons";

/** Shown while the triage queue renders. */
export default function Loading() {
  return <IssueListSkeleton />;
}
