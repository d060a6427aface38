-- CreateTable
CREATE TABLE "CommitStatus" (
    "id" SERIAL NOT NULL,
    "repoId" TEXT NOT NULL,
    "sha" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "context" TEXT NOT NULL,
    "description" TEXT,
    "targetUrl" TEXT,
    "creatorId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CommitStatus_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CheckRun" (
    "id" SERIAL NOT NULL,
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
    "startedAt" TIMESTAMP(3),
    "completedAt" TIMESTAMP(3),
    "creatorId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CheckRun_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "CommitStatus_repoId_sha_context_id_idx" ON "CommitStatus"("repoId", "sha", "context", "id");

-- CreateIndex
CREATE INDEX "CheckRun_repoId_headSha_name_id_idx" ON "CheckRun"("repoId", "headSha", "name", "id");

-- AddForeignKey
ALTER TABLE "CommitStatus" ADD CONSTRAINT "CommitStatus_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CommitStatus" ADD CONSTRAINT "CommitStatus_creatorId_fkey" FOREIGN KEY ("creatorId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CheckRun" ADD CONSTRAINT "CheckRun_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CheckRun" ADD CONSTRAINT "CheckRun_creatorId_fkey" FOREIGN KEY ("creatorId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

