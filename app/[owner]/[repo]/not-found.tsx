import { RepoNotFound } from "@/components/layout/not-found-panel";

/** A missing branch, tag, file, issue or page inside a readable repository: under the repository header. */
export default function RepoPageNotFound() {
  return <RepoNotFound />;
}
