-- AlterTable
ALTER TABLE "User" ADD COLUMN     "isBot" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "PullRequestAiReview" (
    "id" TEXT NOT NULL,
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
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PullRequestAiReview_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "PullRequestAiReview_pullRequestId_createdAt_idx" ON "PullRequestAiReview"("pullRequestId", "createdAt");

-- CreateIndex
CREATE INDEX "PullRequestAiReview_reviewId_idx" ON "PullRequestAiReview"("reviewId");

-- AddForeignKey
ALTER TABLE "PullRequestAiReview" ADD CONSTRAINT "PullRequestAiReview_pullRequestId_fkey" FOREIGN KEY ("pullRequestId") REFERENCES "PullRequest"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PullRequestAiReview" ADD CONSTRAINT "PullRequestAiReview_requestedById_fkey" FOREIGN KEY ("requestedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PullRequestAiReview" ADD CONSTRAINT "PullRequestAiReview_reviewId_fkey" FOREIGN KEY ("reviewId") REFERENCES "PullRequestReview"("id") ON DELETE SET NULL ON UPDATE CASCADE;

