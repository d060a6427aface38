import { CodeSkeleton } from "@/components/layout/loading-skeletons";

/** Shown while a file view renders (its layout has already resolved the ref and path). */
export default function Loading() {
  return <CodeSkeleton />;
}
