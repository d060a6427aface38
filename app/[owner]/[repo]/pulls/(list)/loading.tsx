import { PullListSkeleton } from "@/components/layout/loading-skeletons";

/** Shown while the pull request list renders (in a route group so the pull request pages keep real 404s). */
export default function Loading() {
  return <PullListSkeleton />;
}
