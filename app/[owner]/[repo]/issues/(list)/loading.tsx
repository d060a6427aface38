import { IssueListSkeleton } from "@/components/layout/loading-skeletons";

/** Shown while the issues list renders (in a route group so the issue pages keep real 404s). */
export default function Loading() {
  return <IssueListSkeleton />;
}
