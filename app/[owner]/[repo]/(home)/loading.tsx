import { CodeSkeleton } from "@/components/layout/loading-skeletons";

/** Shown while the repository home renders (the route group keeps this boundary off the other repository pages). */
export default function Loading() {
  return <CodeSkeleton />;
}
