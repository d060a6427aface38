-- CreateTable
CREATE TABLE "PullRequestAiReview" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "pullRequestId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "type" TEXT NOT NULL DEFAULT 'review',
    "body" TEXT,
    "state" TEXT,
    "engine" TEXT,
    "headSha" TEXT NOT NULL,
    "findings" TEXT NOT NULL DEFAULT '[]',
    "error" TEXT,
    "reason" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "requestedById" TEXT,
    "reviewId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "PullRequestAiReview_pullRequestId_fkey" FOREIGN KEY ("pullRequestId") REFERENCES "PullRequest" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "PullRequestAiReview_requestedById_fkey" FOREIGN KEY ("requestedById") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "PullRequestAiReview_reviewId_fkey" FOREIGN KEY ("reviewId") REFERENCES "PullRequestReview" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_User" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "username" TEXT NOT NULL,
    "usernameLower" TEXT NOT NULL,
    "name" TEXT,
    "email" TEXT,
    "passwordHash" TEXT,
    "githubId" TEXT,
    "isAdmin" BOOLEAN NOT NULL DEFAULT false,
    "isBot" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_User" ("createdAt", "email", "githubId", "id", "isAdmin", "name", "passwordHash", "updatedAt", "username", "usernameLower") SELECT "createdAt", "email", "githubId", "id", "isAdmin", "name", "passwordHash", "updatedAt", "username", "usernameLower" FROM "User";
DROP TABLE "User";
ALTER TABLE "new_User" RENAME TO "User";
CREATE UNIQUE INDEX "User_usernameLower_key" ON "User"("usernameLower");
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");
CREATE UNIQUE INDEX "User_githubId_key" ON "User"("githubId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "PullRequestAiReview_pullRequestId_createdAt_idx" ON "PullRequestAiReview"("pullRequestId", "createdAt");

-- CreateIndex
CREATE INDEX "PullRequestAiReview_reviewId_idx" ON "PullRequestAiReview"("reviewId");

