-- CreateTable
CREATE TABLE "CommitStatus" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "repoId" TEXT NOT NULL,
    "sha" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "context" TEXT NOT NULL,
    "description" TEXT,
    "targetUrl" TEXT,
    "creatorId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "CommitStatus_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "CommitStatus_creatorId_fkey" FOREIGN KEY ("creatorId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "CheckRun" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "repoId" TEXT NOT NULL,
    "headSha" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "conclusion" TEXT,
    "detailsUrl" TEXT,
    "externalId" TEXT,
    "outputTitle" TEXT,
    "outputSummary" TEXT,
    "outputText" TEXT,
    "startedAt" DATETIME,
    "completedAt" DATETIME,
    "creatorId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "CheckRun_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "CheckRun_creatorId_fkey" FOREIGN KEY ("creatorId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "CommitStatus_repoId_sha_context_id_idx" ON "CommitStatus"("repoId", "sha", "context", "id");

-- CreateIndex
CREATE INDEX "CheckRun_repoId_headSha_name_id_idx" ON "CheckRun"("repoId", "headSha", "name", "id");

