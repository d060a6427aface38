import { ListSkeleton } from "@/components/layout/loading-skeletons";

/** Shown while the inbox renders. */
export default function Loading() {
  return <ListSkeleton label="Loading your inbox…" />;
}
