-- CreateTable
CREATE TABLE "PullRequestRevision" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "pullRequestId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "headSha" TEXT NOT NULL,
    "baseSha" TEXT,
    "patchId" TEXT,
    "pushedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "pushedById" TEXT,
    "forced" BOOLEAN NOT NULL DEFAULT false,
    CONSTRAINT "PullRequestRevision_pullRequestId_fkey" FOREIGN KEY ("pullRequestId") REFERENCES "PullRequest" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "PullRequestRevision_pushedById_fkey" FOREIGN KEY ("pushedById") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "PullRequestRevision_pullRequestId_headSha_idx" ON "PullRequestRevision"("pullRequestId", "headSha");

-- CreateIndex
CREATE UNIQUE INDEX "PullRequestRevision_pullRequestId_number_key" ON "PullRequestRevision"("pullRequestId", "number");

