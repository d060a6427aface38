-- AlterTable
ALTER TABLE "Repository" ADD COLUMN     "aiDailyRequests" INTEGER;

-- AlterTable
ALTER TABLE "PullRequestAiReview" ADD COLUMN     "errorDetail" TEXT;

-- AlterTable
ALTER TABLE "SearchIndex" ADD COLUMN     "embeddingErrorDetail" TEXT;

-- CreateTable
CREATE TABLE "RepoAiUsage" (
    "repoId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "requests" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "RepoAiUsage_pkey" PRIMARY KEY ("repoId","day")
);

-- AddForeignKey
ALTER TABLE "RepoAiUsage" ADD CONSTRAINT "RepoAiUsage_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository"("id") ON DELETE CASCADE ON UPDATE CASCADE;

