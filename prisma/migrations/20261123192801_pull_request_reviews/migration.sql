-- CreateTable
CREATE TABLE "PullRequestReview" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "pullRequestId" TEXT NOT NULL,
    "authorId" TEXT,
    "state" TEXT NOT NULL,
    "body" TEXT,
    "commitSha" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "PullRequestReview_pullRequestId_fkey" FOREIGN KEY ("pullRequestId") REFERENCES "PullRequest" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "PullRequestReview_authorId_fkey" FOREIGN KEY ("authorId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "PullRequestComment" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "pullRequestId" TEXT NOT NULL,
    "authorId" TEXT,
    "body" TEXT NOT NULL,
    "path" TEXT,
    "line" INTEGER,
    "side" TEXT,
    "startLine" INTEGER,
    "endLine" INTEGER,
    "commitSha" TEXT,
    "reviewId" TEXT,
    "replyToId" TEXT,
    "isPending" BOOLEAN NOT NULL DEFAULT false,
    "suggestion" TEXT,
    "appliedSha" TEXT,
    "diffHunk" TEXT,
    "resolvedAt" DATETIME,
    "resolvedById" TEXT,
    "deletedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "PullRequestComment_pullRequestId_fkey" FOREIGN KEY ("pullRequestId") REFERENCES "PullRequest" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "PullRequestComment_authorId_fkey" FOREIGN KEY ("authorId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "PullRequestComment_resolvedById_fkey" FOREIGN KEY ("resolvedById") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "PullRequestComment_reviewId_fkey" FOREIGN KEY ("reviewId") REFERENCES "PullRequestReview" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "PullRequestComment_replyToId_fkey" FOREIGN KEY ("replyToId") REFERENCES "PullRequestComment" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "PullRequestReview_pullRequestId_createdAt_idx" ON "PullRequestReview"("pullRequestId", "createdAt");

-- CreateIndex
CREATE INDEX "PullRequestReview_authorId_pullRequestId_idx" ON "PullRequestReview"("authorId", "pullRequestId");

-- CreateIndex
CREATE INDEX "PullRequestComment_pullRequestId_createdAt_idx" ON "PullRequestComment"("pullRequestId", "createdAt");

-- CreateIndex
CREATE INDEX "PullRequestComment_pullRequestId_path_idx" ON "PullRequestComment"("pullRequestId", "path");

-- CreateIndex
CREATE INDEX "PullRequestComment_replyToId_idx" ON "PullRequestComment"("replyToId");

-- CreateIndex
CREATE INDEX "PullRequestComment_reviewId_idx" ON "PullRequestComment"("reviewId");

-- CreateIndex
CREATE INDEX "PullRequestComment_authorId_pullRequestId_idx" ON "PullRequestComment"("authorId", "pullRequestId");

