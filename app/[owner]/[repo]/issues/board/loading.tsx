import { BoardSkeleton } from "@/components/layout/loading-skeletons";

/** Shown while the board renders. */
export default function Loading() {
  return <BoardSkeleton />;
}
