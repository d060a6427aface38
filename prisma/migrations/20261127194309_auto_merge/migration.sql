-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_PullRequest" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "repoId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "body" TEXT,
    "state" TEXT NOT NULL DEFAULT 'open',
    "isDraft" BOOLEAN NOT NULL DEFAULT false,
    "sourceRepoId" TEXT NOT NULL,
    "sourceBranch" TEXT NOT NULL,
    "targetBranch" TEXT NOT NULL,
    "headSha" TEXT NOT NULL,
    "baseSha" TEXT NOT NULL,
    "sourceDeleted" BOOLEAN NOT NULL DEFAULT false,
    "authorId" TEXT,
    "mergedById" TEXT,
    "mergeSha" TEXT,
    "mergeStrategy" TEXT,
    "mergedAt" DATETIME,
    "closedAt" DATETIME,
    "autoMergeStrategy" TEXT,
    "autoMergeMessage" TEXT,
    "autoMergeById" TEXT,
    "autoMergeEnabledAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "PullRequest_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "PullRequest_sourceRepoId_fkey" FOREIGN KEY ("sourceRepoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "PullRequest_authorId_fkey" FOREIGN KEY ("authorId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "PullRequest_mergedById_fkey" FOREIGN KEY ("mergedById") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "PullRequest_autoMergeById_fkey" FOREIGN KEY ("autoMergeById") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_PullRequest" ("authorId", "baseSha", "body", "closedAt", "createdAt", "headSha", "id", "isDraft", "mergeSha", "mergeStrategy", "mergedAt", "mergedById", "number", "repoId", "sourceBranch", "sourceDeleted", "sourceRepoId", "state", "targetBranch", "title", "updatedAt") SELECT "authorId", "baseSha", "body", "closedAt", "createdAt", "headSha", "id", "isDraft", "mergeSha", "mergeStrategy", "mergedAt", "mergedById", "number", "repoId", "sourceBranch", "sourceDeleted", "sourceRepoId", "state", "targetBranch", "title", "updatedAt" FROM "PullRequest";
DROP TABLE "PullRequest";
ALTER TABLE "new_PullRequest" RENAME TO "PullRequest";
CREATE INDEX "PullRequest_repoId_state_number_idx" ON "PullRequest"("repoId", "state", "number");
CREATE INDEX "PullRequest_repoId_authorId_state_number_idx" ON "PullRequest"("repoId", "authorId", "state", "number");
CREATE INDEX "PullRequest_sourceRepoId_sourceBranch_state_idx" ON "PullRequest"("sourceRepoId", "sourceBranch", "state");
CREATE INDEX "PullRequest_repoId_targetBranch_state_idx" ON "PullRequest"("repoId", "targetBranch", "state");
CREATE INDEX "PullRequest_authorId_state_updatedAt_idx" ON "PullRequest"("authorId", "state", "updatedAt");
CREATE UNIQUE INDEX "PullRequest_repoId_number_key" ON "PullRequest"("repoId", "number");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

