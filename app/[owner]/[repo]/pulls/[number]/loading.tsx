import { PullTabSkeleton } from "@/components/layout/loading-skeletons";

/** Shown under the pull request header (its layout, which decides 404s first) while a tab renders. */
export default function Loading() {
  return <PullTabSkeleton />;
}
