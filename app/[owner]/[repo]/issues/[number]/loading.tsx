import { IssueSkeleton } from "@/components/layout/loading-skeletons";

/** Shown while an issue page renders. */
export default function Loading() {
  return <IssueSkeleton />;
}
